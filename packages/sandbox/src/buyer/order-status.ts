/**
 * The order-status endpoint's work: read a ConfirmationRequest, ShipNoticeRequest or
 * InvoiceDetailRequest, find the purchase order by its orderID, check the supplier's SharedSecret when the
 * profile expects one, check an invoice against the PO (`check-invoice.ts`), store the document on the
 * order, and answer with a cXML Status:
 *
 * | code | when                                                                                  |
 * |------|---------------------------------------------------------------------------------------|
 * | 200  | stored on the order (an invoice: accepted; the same invoice again is kept once)       |
 * | 400  | a required element or attribute is missing (OrderReference@orderID, …); an invoice    |
 * |      | that does not match the PO or add up                                                  |
 * | 401  | the profile expects a supplier SharedSecret and no Sender credential has it           |
 * | 403  | an invoice for a profile that takes invoices at its own URL (Coupa)                   |
 * | 406  | not well-formed XML, or not cXML                                                      |
 * | 417  | no purchase order with that orderID is known here; an invoice naming an unknown PO    |
 * |      | line or credited invoice, or an invoiceID taken by another document                   |
 * | 450  | a cXML Request of another kind                                                        |
 *
 * A profile's own invoice URL (`invoicePath`) runs the same steps for InvoiceDetailRequests only, and
 * knows only that profile's purchase orders.
 */
import { buildStatusResponse } from './build-status-response.ts';
import { checkInvoice, type KnownInvoice } from './check-invoice.ts';
import { buyerPayloadId } from './cxml-document.ts';
import { type BuyerProfile, DEFAULT_BUYER_PROFILES } from './profiles.ts';
import { readOrderedLines } from './purchase-order-lines.ts';
import type { InvoiceContent } from './read-invoice.ts';
import { ORDER_STATUS_KINDS, readStatusDocument, type StatusDocument } from './read-status-document.ts';
import type { InvoiceView, PurchaseOrder, Requisition, StatusAnswer } from './requisition.ts';
import { findProfile, type SimulatorContext, withDocument, withNotice } from './simulator-context.ts';
import { SimulatorError, type SimulatorErrorCode } from './simulator-error.ts';

const STATUS_FOR_ERROR: Readonly<Record<SimulatorErrorCode, { code: number; text: string }>> = {
  malformed_xml: { code: 406, text: 'Not Acceptable' },
  not_cxml: { code: 406, text: 'Not Acceptable' },
  unexpected_document: { code: 450, text: 'Not Implemented' },
  missing_field: { code: 400, text: 'Bad Request' },
  bad_form: { code: 400, text: 'Bad Request' },
};

export interface OrderStatusOutcome {
  readonly status: StatusAnswer;
  /** The cXML Response to send back. */
  readonly response: string;
}

/** Where a document was posted: the order-status endpoint, or a profile's own invoice URL. */
export interface StatusEndpoint {
  /** Relative to the simulator: `/order-status`, `/coupa/invoices`. */
  readonly path: string;
  /** The profile whose invoice URL this is; undefined for the order-status endpoint. */
  readonly invoicesOf?: BuyerProfile;
}

const ORDER_STATUS: StatusEndpoint = { path: '/order-status' };

function describe(document: StatusDocument): string {
  if (document.kind === 'InvoiceDetailRequest') {
    const i = document.content;
    const what = i.purpose === 'creditMemo' ? 'Credit memo' : 'Invoice';
    const due = i.summary.due ?? i.summary.net;
    return `${what} ${i.invoiceID} for ${i.orderID}, due ${due.value} ${due.currency ?? ''}`.trimEnd();
  }
  if (document.kind === 'ConfirmationRequest') {
    const c = document.content;
    return `Confirmation "${c.type}" for ${c.orderID}${c.comments === '' ? '' : `: ${c.comments}`}`;
  }
  const s = document.content;
  const tracking = s.tracking.map((t) => t.number).join(', ');
  return `Ship notice ${s.shipmentID} for ${s.orderID}${tracking === '' ? '' : `, tracking ${tracking}`}`;
}

/** Supplier comments often end with their own full stop ("Accepted as print order 1021."). */
function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * Every invoice accepted so far by the profile's procurement system, on each of its purchase orders:
 * invoiceIDs are unique per supplier within one buyer's system, and the profiles are separate systems
 * (two buyers may each get the supplier's INV-000001).
 */
function acceptedInvoices(ctx: SimulatorContext, profileId: string): KnownInvoice[] {
  return ctx.store.list().flatMap((requisition) => {
    const order = requisition.order;
    if (order === undefined || requisition.profileId !== profileId) return [];
    return (order.invoices ?? [])
      .filter((view) => view.answer.code === 200)
      .map((view) => ({ orderID: order.orderID, view }));
  });
}

interface InvoiceOutcome {
  readonly status: StatusAnswer;
  /** The view to store; `resend` when the same document was accepted before and is kept once. */
  readonly view: InvoiceView | 'resend';
}

/** An invoice for a known, authenticated purchase order: a resend, or checked against the PO. */
function judgeInvoice(
  ctx: SimulatorContext,
  invoice: InvoiceContent,
  requisition: Requisition & { readonly order: PurchaseOrder },
  at: { now: Date; endpoint: string },
): InvoiceOutcome {
  const order = requisition.order;
  const earlier = (order.invoices ?? []).find(
    (view) => view.invoiceID === invoice.invoiceID && view.payloadID === invoice.payloadID,
  );
  if (earlier !== undefined && earlier.answer.code === 200) {
    return { status: { code: 200, text: 'OK', detail: '' }, view: 'resend' };
  }
  const { answer, view } = checkInvoice({
    invoice,
    po: readOrderedLines(order.document),
    accepted: acceptedInvoices(ctx, requisition.profileId),
  });
  return {
    status: answer,
    view: { ...view, receivedAt: at.now.toISOString(), endpoint: at.endpoint, answer, received: 1 },
  };
}

/** The order with the invoice stored: a resend counted on the copy kept, a retry replacing its refusal. */
function withInvoice(order: PurchaseOrder, invoice: InvoiceContent, view: InvoiceView | 'resend') {
  const invoices = order.invoices ?? [];
  const same = (v: InvoiceView) => v.invoiceID === invoice.invoiceID && v.payloadID === invoice.payloadID;
  if (view === 'resend') {
    return { ...order, invoices: invoices.map((v) => (same(v) ? { ...v, received: v.received + 1 } : v)) };
  }
  const at = invoices.findIndex(same);
  if (at === -1) return { ...order, invoices: [...invoices, view] };
  const received = (invoices[at]?.received ?? 0) + 1;
  return { ...order, invoices: invoices.map((v, i) => (i === at ? { ...view, received } : v)) };
}

function invoiceNotice(document: StatusDocument, status: StatusAnswer, resend: boolean): string {
  if (resend) {
    return `${asSentence(describe(document))} It arrived again with the same payloadID and is kept once. Answered 200 OK.`;
  }
  if (status.code === 200) return `${asSentence(describe(document))} Answered 200 OK.`;
  return `${asSentence(describe(document))} Refused: ${status.code} ${status.text}. ${status.detail}`;
}

interface Matched {
  readonly requisition: Requisition;
  readonly profile: BuyerProfile | undefined;
}

/** The Status for a document read and matched to a requisition, before anything is stored. */
function statusFor(
  ctx: SimulatorContext,
  document: StatusDocument,
  matched: Matched | undefined,
  endpoint: StatusEndpoint,
): StatusAnswer {
  const orderID = document.content.orderID;
  const profile = matched?.profile;
  if (matched === undefined) {
    return { code: 417, text: 'Expectation Failed', detail: `No purchase order ${orderID} is known here.` };
  }
  if (profile?.supplierSecret !== undefined && !document.senderSecrets.includes(profile.supplierSecret)) {
    return {
      code: 401,
      text: 'Unauthorized',
      detail: 'No Sender credential carries the SharedSecret agreed with this buyer.',
    };
  }
  if (
    document.kind === 'InvoiceDetailRequest' &&
    endpoint.invoicesOf === undefined &&
    profile?.invoicePath !== undefined
  ) {
    return {
      code: 403,
      text: 'Forbidden',
      detail: `Invoices for purchase orders of ${profile.name} go to ${ctx.publicUrl}${profile.invoicePath}; this endpoint takes its ConfirmationRequests and ShipNoticeRequests.`,
    };
  }
  return { code: 200, text: 'OK', detail: '' };
}

/**
 * @example
 * const { response } = receiveOrderStatus(ctx, await c.req.text());
 * return c.body(response, 200, { 'Content-Type': 'text/xml; charset=UTF-8' });
 */
export function receiveOrderStatus(
  ctx: SimulatorContext,
  xml: string,
  endpoint: StatusEndpoint = ORDER_STATUS,
): OrderStatusOutcome {
  const now = ctx.clock.now();
  const url = `${ctx.publicUrl}${endpoint.path}`;
  const route = `POST ${url}`;
  let profile: BuyerProfile | undefined;
  let document: StatusDocument | undefined;
  let requisitionId: string | undefined;
  let status: StatusAnswer;
  let invoiceView: InvoiceView | 'resend' | undefined;

  try {
    document = readStatusDocument(
      xml,
      endpoint.invoicesOf === undefined ? ORDER_STATUS_KINDS : ['InvoiceDetailRequest'],
    );
    const found = ctx.store.findByOrderId(document.content.orderID);
    // A profile's own invoice URL knows that profile's purchase orders only.
    const requisition =
      found !== undefined && (endpoint.invoicesOf === undefined || found.profileId === endpoint.invoicesOf.id)
        ? found
        : undefined;
    profile = requisition === undefined ? undefined : findProfile(ctx, requisition.profileId);
    status = statusFor(ctx, document, requisition && { requisition, profile }, endpoint);
    const order = requisition?.order;
    if (requisition !== undefined && order !== undefined && status.code !== 401 && status.code !== 417) {
      requisitionId = requisition.id;
      if (document.kind === 'InvoiceDetailRequest' && status.code === 200) {
        const judged = judgeInvoice(ctx, document.content, { ...requisition, order }, { now, endpoint: url });
        status = judged.status;
        invoiceView = judged.view;
      } else if (document.kind === 'InvoiceDetailRequest') {
        // Refused before the check (sent to the wrong URL): kept with its answer, for the page.
        const { view } = checkInvoice({
          invoice: document.content,
          po: readOrderedLines(order.document),
          accepted: acceptedInvoices(ctx, requisition.profileId),
        });
        invoiceView = { ...view, receivedAt: now.toISOString(), endpoint: url, answer: status, received: 1 };
      }
    }
  } catch (error) {
    if (!(error instanceof SimulatorError)) throw error;
    const mapped = STATUS_FOR_ERROR[error.code];
    status = { ...mapped, detail: error.message };
  }

  const style = (profile ?? endpoint.invoicesOf ?? ctx.profiles[0] ?? DEFAULT_BUYER_PROFILES[0])?.style;
  if (style === undefined) throw new TypeError('The simulator needs at least one profile');
  const response = buildStatusResponse({
    style,
    payloadID: buyerPayloadId(style, ctx.randomId, now),
    timestamp: now,
    status,
  });
  const title = document?.kind ?? (endpoint.invoicesOf === undefined ? 'Order-status document' : 'Invoice');
  ctx.store.recordInbound({
    at: now.toISOString(),
    title,
    code: status.code,
    text: status.text,
    detail: status.detail,
    ...(document !== undefined && { orderID: document.content.orderID }),
    ...(requisitionId !== undefined && { requisitionId }),
    body: xml,
  });

  if (requisitionId !== undefined && document !== undefined) {
    const stored = document;
    const answered = status;
    ctx.store.update(requisitionId, (r) => {
      const order = r.order;
      if (order === undefined) return r;
      const receivedAt = now.toISOString();
      let nextOrder: PurchaseOrder;
      if (stored.kind === 'ConfirmationRequest') {
        nextOrder = { ...order, confirmations: [...order.confirmations, { ...stored.content, receivedAt }] };
      } else if (stored.kind === 'ShipNoticeRequest') {
        nextOrder = { ...order, shipNotices: [...order.shipNotices, { ...stored.content, receivedAt }] };
      } else {
        nextOrder = invoiceView === undefined ? order : withInvoice(order, stored.content, invoiceView);
      }
      let next = withDocument({ ...r, order: nextOrder }, now, {
        direction: 'received',
        title: stored.kind,
        route,
        body: xml,
      });
      next = withDocument(next, now, {
        direction: 'sent',
        title: `Response to ${stored.kind}`,
        route: `answer to ${route}`,
        body: response,
      });
      const referenced = stored.content.orderPayloadID;
      if (referenced !== undefined && referenced !== order.payloadID) {
        next = withNotice(
          next,
          now,
          'warning',
          `${stored.kind} refers to payloadID ${referenced}, but OrderRequest ${order.orderID} had payloadID ${order.payloadID}.`,
        );
      }
      if (stored.kind === 'InvoiceDetailRequest') {
        const level = answered.code === 200 ? 'info' : 'error';
        return withNotice(next, now, level, invoiceNotice(stored, answered, invoiceView === 'resend'));
      }
      return withNotice(
        next,
        now,
        'info',
        `${asSentence(describe(stored))} Answered ${answered.code} ${answered.text}.`,
      );
    });
  }
  return { status, response };
}

/** The answer to a post refused before it could be read (too large), as cXML so the sender can read it. */
export function refuseOrderStatus(ctx: SimulatorContext, detail: string): string {
  const now = ctx.clock.now();
  const style = (ctx.profiles[0] ?? DEFAULT_BUYER_PROFILES[0])?.style;
  if (style === undefined) throw new TypeError('The simulator needs at least one profile');
  return buildStatusResponse({
    style,
    payloadID: buyerPayloadId(style, ctx.randomId, now),
    timestamp: now,
    status: { code: 406, text: 'Not Acceptable', detail },
  });
}
