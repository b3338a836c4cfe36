/**
 * The admin JSON API's contract as zod schemas: what each endpoint reads (path, query, body) and what it
 * answers. The handlers parse their input with these and the views are typed from the answer schemas, and
 * `/admin/openapi.json` is generated from the same objects, so the description cannot drift from the code.
 * The error texts are the ones operators' tooling has matched on since before the schemas.
 */
import * as z from 'zod';
import {
  addressSchema,
  chargeSchema,
  contactSchema,
  invoiceStatusTypeSchema,
  moneySchema,
  reportedStatusSchema,
} from '../../cxml/index.ts';
import {
  DEPLOYMENT_MODES,
  INVOICE_HOLD_PRICES,
  INVOICE_HOLD_STATES,
  JOB_STATES,
  ORDER_STATES,
  OUTBOX_STATES,
  REFUSAL_CHANNELS,
} from '../../store/types.ts';
import { ERROR_ANSWERS, type GatewayErrorCode } from '../http/errors.ts';
import { mismatchSchema, poLineSchema, rejectedLineSchema } from '../orders/po-record.ts';

// ---------------------------------------------------------------------------------------------------------
// Input

/** The longest operator note kept with a handled PO. */
export const MAX_NOTE_LENGTH = 2000;

/** A query parameter given empty (`?state=`) is the same as one not given: no filter. */
const blankIsAbsent = (value: string | undefined) => (value === '' ? undefined : value);

function stateParam<S extends string>(states: readonly S[]) {
  return z
    .enum(['', ...states], { error: `state must be one of ${states.join(', ')}.` })
    .optional()
    .transform((value) => blankIsAbsent(value) as S | undefined)
    .meta({ description: 'Only records in this state (empty: any).' });
}

function textParam(description: string) {
  return z.string().optional().transform(blankIsAbsent).meta({ description });
}

/** Up to three digits as before; the store caps a page at 500 whatever is asked. */
const pagingParams = {
  limit: z
    .string()
    .regex(/^\d{1,3}$/, { error: 'limit must be a whole number up to 500.' })
    .optional()
    .transform((value) => (value === undefined ? undefined : Number(value)))
    .meta({ description: 'Page size, a whole number up to 500.' }),
  cursor: textParam('The nextCursor of the page before.'),
};

/** A day (`2026-11-26`, UTC) or a moment with its offset; the handler reads it as a bound of `createdAt`. */
function dateParam(name: string, description: string) {
  return z
    .union([z.iso.date(), z.iso.datetime({ offset: true }), z.literal('')], {
      error: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time.`,
    })
    .optional()
    .transform(blankIsAbsent)
    .meta({ description });
}

/** Query of `GET /admin/orders`; keys in the order they are checked (the first problem is the answer). */
export const OrderListQuery = z.object({
  state: stateParam(ORDER_STATES),
  buyer: textParam('Only POs of this buyer id.'),
  q: textParam(
    "Search: the buyer's PO number (orderID) exactly or by its start, a purchase order record id, a print order id, or a buyer id.",
  ),
  flag: textParam('Only POs carrying this flag.'),
  from: dateParam('from', 'Only POs received from then on (a date: from its start, UTC).'),
  to: dateParam('to', 'Only POs received until then (a date: to its end, UTC).'),
  ...pagingParams,
});
export type OrderListQuery = z.output<typeof OrderListQuery>;

export const OutboxListQuery = z.object({
  state: stateParam(OUTBOX_STATES),
  buyer: textParam('Only documents to this buyer id.'),
  po: textParam('Only documents about this purchase order record id.'),
  ...pagingParams,
});

export const JobListQuery = z.object({
  state: stateParam(JOB_STATES),
  kind: textParam('Only jobs of this kind.'),
  ...pagingParams,
});

/** Query of `GET /admin/refusals` (and the console's refusals page). */
export const RefusalListQuery = z.object({
  buyer: textParam('Only refusals of documents claiming this buyer id.'),
  from: dateParam('from', 'Only refusals recorded from then on (a date: from its start, UTC).'),
  to: dateParam('to', 'Only refusals recorded until then (a date: to its end, UTC).'),
  ...pagingParams,
});
export type RefusalListQuery = z.output<typeof RefusalListQuery>;

export const IdParams = z.object({ id: z.string().meta({ description: 'The record id.' }) });

/** An attachment of a PO: the PO's id and the attachment's place in the buyer's message. */
export const AttachmentParams = IdParams.extend({
  position: z
    .string()
    .regex(/^[1-9][0-9]{0,5}$/, 'position must be a whole number from 1.')
    .meta({ description: "The attachment's place in the buyer's multipart message (1 is the cXML part)." }),
});

/**
 * What an operator's action may say it saw: the PO's state and/or `updatedAt` when the page was drawn.
 * When the PO has changed since, the action is refused (409) with the current state, rather than done to
 * a PO the operator has not seen.
 */
export const StaleGuard = z.object({
  expectedState: z
    .enum(ORDER_STATES, { error: `expectedState must be one of ${ORDER_STATES.join(', ')}.` })
    .optional(),
  expectedUpdatedAt: z.iso
    .datetime({ offset: true, error: 'expectedUpdatedAt must be an ISO 8601 date-time.' })
    .optional()
    .meta({ description: "The PO's updatedAt as the operator saw it." }),
});
export type StaleGuard = z.output<typeof StaleGuard>;

const PRINT_ORDER_ID_TEXT = 'printOrderId must be a positive whole number.';
export const AttachBody = StaleGuard.extend({
  printOrderId: z
    .int({ error: PRINT_ORDER_ID_TEXT })
    .min(1, { error: PRINT_ORDER_ID_TEXT })
    .meta({ description: 'The print order to attach; it must carry the PO number.' }),
});

const NOTE_TEXT = `note must be text of 1 to ${MAX_NOTE_LENGTH} characters.`;
/** An operator's note, trimmed, described as `description` says what it is kept for. */
const operatorNote = (description: string) =>
  z
    .string({ error: NOTE_TEXT })
    .max(MAX_NOTE_LENGTH, { error: NOTE_TEXT })
    .refine((note) => note.trim() !== '', { error: NOTE_TEXT })
    .transform((note) => note.trim())
    .meta({ description });

export const HandledBody = StaleGuard.extend({
  note: operatorNote('Why the PO needs nothing more; kept in the PO record.'),
});

export const CancellationDecisionBody = StaleGuard.extend({
  decision: z.enum(['cancel', 'refuse'], { error: 'decision must be "cancel" or "refuse".' }).meta({
    description:
      "The buyer's cancellation of a shipped or invoiced order (flag `cancel_after_ship`): `cancel` sets its print orders to the cancel status and credits their invoices; `refuse` keeps the order as confirmed.",
  }),
  note: operatorNote('Why; sent to the buyer in the ConfirmationRequest that answers the cancellation.'),
});

export const InvoiceBody = StaleGuard.extend({
  prices: z.enum(INVOICE_HOLD_PRICES, { error: 'prices must be "po" or "print-order".' }).default('po').meta({
    description:
      "Where a held invoice's unit prices differ from the PO's beyond the tolerance: bill the PO's (`po`) or accept the print order's for the lines concerned (`print-order`).",
  }),
});

export const WaiveInvoiceBody = StaleGuard.extend({
  note: operatorNote(
    'Why no invoice is sent (the buyer self-bills, settled elsewhere…); kept with the hold.',
  ),
});

const NOTE_BODY_TEXT = `text must be 1 to ${MAX_NOTE_LENGTH} characters, not blank.`;
/** `POST /admin/orders/:id/notes`: a note on the PO, at any time (no stale guard: it changes nothing else). */
export const NoteBody = z.object({
  text: z
    .string({ error: NOTE_BODY_TEXT })
    .max(MAX_NOTE_LENGTH, { error: NOTE_BODY_TEXT })
    .refine((text) => text.trim() !== '', { error: NOTE_BODY_TEXT })
    .transform((text) => text.trim())
    .meta({
      description: "The note, kept with the PO and shown in its timeline; the PO's state is not changed.",
    }),
});

/**
 * The window of a CSV export: received (POs) or dated (invoices) from `from` to `to`, both inclusive, a day
 * alone being the whole day (UTC); `buyer` narrows it to one buyer.
 */
export const ExportQuery = z.object({
  from: dateParam('from', 'From this day (YYYY-MM-DD, UTC) or moment on; absent: from the first record.'),
  to: dateParam('to', 'Up to this day (its whole day, UTC) or moment; absent: up to now.'),
  buyer: textParam('Only records of this buyer id.'),
});
export type ExportQuery = z.output<typeof ExportQuery>;

/** The first problem zod found, as the one message a 400 carries. */
export function firstProblem(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'The request is not valid.';
}

// ---------------------------------------------------------------------------------------------------------
// Answers

/** A moment: a Date in the views, ISO 8601 text on the wire (`JSON.stringify`), parsed back by `parse`. */
const moment = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});
const momentOrNull = moment.nullable();

export const PrintOrderView = z.object({
  storefrontId: z.string(),
  printOrderId: z.number(),
  state: z.enum(['open', 'closed']),
  lastStatus: z.string().nullable(),
  confirmed: z.boolean(),
  shipmentsNotified: z.array(z.number()),
  lastCheckedAt: momentOrNull,
  createdAt: moment,
});

export const OrderSummary = z.object({
  id: z.string(),
  buyerId: z.string(),
  orderId: z.string().meta({ description: "The buyer's PO number (cXML orderID)." }),
  payloadId: z.string(),
  type: z.enum(['new', 'update', 'delete']),
  state: z.enum(ORDER_STATES),
  answer: z.object({ code: z.number(), text: z.string() }),
  deploymentMode: z.enum(DEPLOYMENT_MODES).meta({
    description:
      "The PO's cXML deploymentMode: a test PO goes only to its test storefront, or to no print service.",
  }),
  storefrontId: z.string().nullable().meta({
    description:
      'The storefront (config id) its print orders go to; null for a test PO without a test storefront, which never reaches a print service.',
  }),
  printOrderIds: z.array(z.number()),
  printOrders: z.array(PrintOrderView),
  flags: z.array(z.string()),
  lastError: z.string().nullable(),
  createdAt: moment,
  updatedAt: moment,
});

export const OutboxMessageView = z.object({
  id: z.string(),
  buyerId: z.string(),
  poId: z.string(),
  kind: z.enum(['confirmation', 'ship_notice', 'status_update', 'invoice']),
  dedupeKey: z.string(),
  url: z.string(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number(),
  nextAttemptAt: moment,
  lastError: z.string().nullable(),
  deliveredAt: momentOrNull,
  createdAt: moment,
  updatedAt: moment,
});
/** `GET /admin/outbox/:id`: the message with the document it sends. */
export const OutboxMessageWithBody = OutboxMessageView.extend({ body: z.string() });

/** A StatusUpdateRequest the buyer sent about one of the PO's documents, as recorded. */
export const StatusUpdateView = z.object({
  id: z.string(),
  payloadId: z.string().meta({ description: "The buyer's StatusUpdateRequest payloadID." }),
  documentId: z.string().nullable().meta({
    description: 'The outbox message of the document it names (DocumentReference); null when none.',
  }),
  invoiceId: z.string().nullable().meta({
    description: 'The cXML invoiceID of the invoice an InvoiceStatus reports on; null for another document.',
  }),
  status: reportedStatusSchema.meta({ description: "The buyer's Status: code, text and its content." }),
  invoiceStatus: invoiceStatusTypeSchema.nullable(),
  partialAmount: moneySchema
    .nullable()
    .meta({ description: 'What the buyer paid, where not the whole amount.' }),
  comments: z.string(),
  receivedAt: moment,
});
export type StatusUpdateView = z.output<typeof StatusUpdateView>;

export const InvoiceView = z.object({
  id: z.string(),
  invoiceId: z.string(),
  purpose: z.enum(['standard', 'creditMemo']),
  scope: z.string(),
  storefrontId: z.string(),
  printOrderId: z.number(),
  invoiceDate: moment,
  amounts: z.object({
    currency: z.string(),
    subtotal: z.string(),
    tax: z.string(),
    shipping: z.string(),
    discount: z.string(),
    due: z.string(),
  }),
  creditsInvoice: z.string().nullable(),
  sequence: z.number().nullable(),
  createdAt: moment,
  deliveries: z.array(OutboxMessageView),
  buyerStatus: invoiceStatusTypeSchema.nullable().meta({
    description: "The buyer's latest InvoiceStatus (processing … rejected, paid); null before any.",
  }),
  paid: z
    .boolean()
    .meta({ description: 'The buyer reported it paid (in part, where a partialAmount says so).' }),
  buyerStatusHistory: z
    .array(StatusUpdateView)
    .meta({ description: "The buyer's InvoiceStatus updates of this invoice, oldest first." }),
});
export const InvoiceHoldView = z.object({
  id: z.string(),
  storefrontId: z.string(),
  printOrderId: z.number(),
  scope: z.string(),
  state: z.enum(INVOICE_HOLD_STATES),
  reason: z.string(),
  amounts: z.object({
    currency: z.string(),
    atPoPrices: z.string().nullable(),
    atPrintOrderPrices: z.string().nullable(),
  }),
  prices: z.enum(INVOICE_HOLD_PRICES).nullable(),
  note: z.string().nullable(),
  invoiceId: z.string().nullable(),
  createdAt: moment,
  updatedAt: moment,
});
export const InvoiceList = z.object({
  items: z.array(InvoiceView),
  holds: z.array(InvoiceHoldView).meta({
    description: 'Invoices held for an operator, and how each was settled (state `held` while it waits).',
  }),
});

export const JobView = z.object({
  id: z.string(),
  kind: z.string(),
  key: z.string(),
  payload: z.json(),
  state: z.enum(JOB_STATES),
  attempts: z.number(),
  maxAttempts: z.number(),
  runAt: moment,
  lastError: z.string().nullable(),
  createdAt: moment,
  updatedAt: moment,
});

export const RefusalView = z.object({
  id: z.string(),
  buyerId: z
    .string()
    .nullable()
    .meta({ description: 'The configured buyer the request claimed to come from; null: none ("unknown").' }),
  channel: z.enum(REFUSAL_CHANNELS).meta({ description: 'Where it arrived: /cxml or /oci/{buyer}.' }),
  documentType: z.string().meta({
    description: 'The cXML document kind, `punch-in` (OCI), or why it could not be read (`too_large`, …).',
  }),
  payloadId: z.string().nullable(),
  clientAddress: z.string(),
  status: z
    .number()
    .meta({ description: 'The cXML Status code (sent with HTTP 200), or the OCI page’s HTTP status.' }),
  answer: z
    .string()
    .meta({ description: 'The answer’s text as sent: Status text and detail, or page heading and message.' }),
  document: z.string().meta({
    description:
      'The request as received, every secret blanked, cut short with a marker past 16 K characters.',
  }),
  documentBytes: z.number().meta({ description: 'How many bytes arrived (or were announced).' }),
  createdAt: moment,
});
export type RefusalView = z.output<typeof RefusalView>;

export const TimelineEntry = z.object({ at: moment, event: z.string(), detail: z.string() });

/** An operator's note on a PO. */
export const OrderNoteView = z.object({
  id: z.string(),
  text: z.string(),
  author: z.string().meta({ description: 'Where it was written: `admin API`, or the console session.' }),
  createdAt: moment,
});

/** A file that came with the PO, as listed: its bytes are at `download` (same authentication). */
export const AttachmentView = z.object({
  position: z.number().int(),
  contentId: z.string().nullable().meta({ description: 'What a cid: URL in the document names it by.' }),
  filename: z.string().nullable(),
  contentType: z.string().meta({ description: "The media type the buyer's part declared." }),
  size: z.number().int().meta({ description: 'Bytes, decoded.' }),
  download: z.string().meta({ description: 'Path of the download, under the same origin.' }),
});
export const AttachmentList = z.object({ items: z.array(AttachmentView) });

export const OrderDetail = OrderSummary.extend({
  request: z.object({
    orderDate: z.string().nullable(),
    orderVersion: z.string().nullable(),
    previousPayloadID: z.string().nullable(),
    total: moneySchema.nullable(),
    shipTo: addressSchema.nullable(),
    billTo: addressSchema.nullable(),
    buyerVatID: z
      .string()
      .nullable()
      .meta({ description: "The buyer's VAT id the PO named, echoed on its invoices." }),
    shipping: chargeSchema.nullable(),
    tax: chargeSchema.nullable(),
    contacts: z.array(contactSchema).readonly(),
    comments: z.string(),
    extrinsics: z.array(z.object({ name: z.string(), value: z.string() })).readonly(),
    requestedDeliveryDate: z.string().nullable(),
  }),
  instructions: z
    .object({
      confirmation: z.boolean().meta({ description: 'A ConfirmationRequest may be sent.' }),
      confirmationBeforeShipNotice: z
        .boolean()
        .meta({ description: 'Ship notices wait until a confirmation was delivered (requiredBeforeASN).' }),
      shipNotice: z.boolean().meta({ description: 'A ShipNoticeRequest may name every line.' }),
      invoice: z
        .boolean()
        .meta({ description: 'Every line may be invoiced (no ERS, notAllowed, temporary price).' }),
      inForce: z
        .array(z.string())
        .meta({ description: "Each of the buyer's restricting instructions, and what it means." }),
    })
    .meta({ description: "The buyer's ControlKeys in force for this order's documents." }),
  lines: z.array(poLineSchema),
  rejectedLines: z
    .array(rejectedLineSchema)
    .meta({ description: 'Lines left out of the print orders (unknown part, fee line), with the reason.' }),
  mismatches: z.array(mismatchSchema.extend({ text: z.string().optional() })),
  timeline: z.array(TimelineEntry),
  notes: z.array(OrderNoteView).meta({ description: "Operators' notes on the PO, oldest first." }),
  outbox: z.array(OutboxMessageView),
  invoices: z.array(InvoiceView),
  invoiceHolds: z.array(InvoiceHoldView),
  statusUpdates: z.array(StatusUpdateView).meta({
    description:
      "StatusUpdateRequests the buyer sent about the PO's documents (invoices' InvoiceStatus, other documents' Status), oldest first.",
  }),
  attachments: z.array(AttachmentView),
  raw: z.string().meta({ description: 'The OrderRequest as received.' }),
});

/** Pages of a list: `nextCursor` is null on the last page. */
function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
export const OrderPage = pageOf(OrderSummary);
export const OutboxPage = pageOf(OutboxMessageView);
export const JobPage = pageOf(JobView);
export const RefusalPage = pageOf(RefusalView);
export const OrderAnswer = z.object({ order: OrderSummary });
export const MessageAnswer = z.object({ message: OutboxMessageView });
export const NoteAnswer = z.object({ note: OrderNoteView });
export const DeadLetters = z.object({ messages: z.array(OutboxMessageView), jobs: z.array(JobView) });

/** Every failure of the admin API (see ../http/json-answers.ts). */
export const ErrorAnswer = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_ANSWERS) as [GatewayErrorCode, ...GatewayErrorCode[]]),
    message: z.string(),
    current: z
      .object({ state: z.enum(ORDER_STATES), updatedAt: moment })
      .optional()
      .meta({ description: 'A refused stale action (409): the PO as it is now.' }),
  }),
});

export type OrderSummary = z.output<typeof OrderSummary>;
export type OrderDetail = z.output<typeof OrderDetail>;
export type AttachmentView = z.output<typeof AttachmentView>;
export type PrintOrderView = z.output<typeof PrintOrderView>;
export type OutboxMessageView = z.output<typeof OutboxMessageView>;
export type OutboxMessageWithBody = z.output<typeof OutboxMessageWithBody>;
export type InvoiceView = z.output<typeof InvoiceView>;
export type InvoiceHoldView = z.output<typeof InvoiceHoldView>;
export type JobView = z.output<typeof JobView>;
export type TimelineEntry = z.output<typeof TimelineEntry>;
export type OrderNoteView = z.output<typeof OrderNoteView>;

/** `GET /admin/overview`: what an operator looks at first. */
export const Overview = z.object({
  ordersByState: z.record(z.enum(ORDER_STATES), z.number()),
  waitingForOperator: z
    .array(
      z.object({
        id: z.string(),
        buyerId: z.string(),
        orderId: z.string(),
        reason: z.string().nullable(),
        flags: z.array(z.string()),
        since: moment,
      }),
    )
    .meta({ description: 'POs in state needs_operator, longest waiting first (at most 100).' }),
  oldestUnprocessedAt: momentOrNull.meta({
    description: 'createdAt of the oldest PO still received or processing; null when none.',
  }),
  oldestUnprocessedAgeSeconds: z.number().nullable(),
  outbox: z.object({
    pending: z.number(),
    sending: z.number(),
    dead: z.number(),
    oldestPendingAt: momentOrNull,
  }),
  deadJobs: z.number(),
  lastBackgroundRoundAt: momentOrNull.meta({
    description: 'When the last background round of this instance finished; null before the first.',
  }),
  printApiFailuresLastHour: z.number().meta({
    description:
      "This instance's print-service calls of the last hour that got a 5xx, timed out or no answer.",
  }),
});
export type Overview = z.output<typeof Overview>;
