/**
 * Rows of the SQL store's tables → the port's records, and records → statement parameters. Pure functions,
 * the same for every database: numbers go through `Number()` because PostgreSQL drivers hand BIGINT back as
 * text, booleans are 0/1 (or true/false), JSON columns are text, a NULL column is an absent field. Stored
 * states, kinds and JSON are read through schemas like data from the wire: a value this gateway never
 * writes (a hand-edited row, a newer version's) fails where it is read, not somewhere downstream.
 */
import * as z from 'zod';
import { BuyerProtocol } from '../../../schemas/config.ts';
import { invoiceStatusTypeSchema, moneySchema } from '../../cxml/request-types.ts';
import {
  type AttachmentInfo,
  CART_LINE_STATES,
  type CartLine,
  DEPLOYMENT_MODES,
  type CxmlAnswer,
  INVOICE_HOLD_PRICES,
  INVOICE_HOLD_STATES,
  INVOICE_PURPOSES,
  type InboxEvent,
  REFUSAL_CHANNELS,
  type Refusal,
  type Invoice,
  type InvoiceHold,
  JOB_STATES,
  type Job,
  type JsonObject,
  type JsonValue,
  ORDER_STATES,
  ORDER_TYPES,
  OUTBOX_KINDS,
  OUTBOX_STATES,
  type OrderNote,
  type OutboxMessage,
  PRINT_ORDER_STATES,
  type PunchoutSession,
  type PurchaseOrder,
  type ReorderItem,
  SESSION_OPERATIONS,
  SESSION_STATES,
  type StatusUpdate,
  type StoreStats,
  type TrackedPrintOrder,
  type UserMapping,
  type WaitingOrder,
} from '../types.ts';
import type { SqlRow } from './driver.ts';

const SessionOperations = z.enum(SESSION_OPERATIONS);
const SessionStates = z.enum(SESSION_STATES);
const CartLineStates = z.enum(CART_LINE_STATES);
const OrderTypes = z.enum(ORDER_TYPES);
const OrderStates = z.enum(ORDER_STATES);
const JobStates = z.enum(JOB_STATES);
const OutboxKinds = z.enum(OUTBOX_KINDS);
const OutboxStates = z.enum(OUTBOX_STATES);
const PrintOrderStates = z.enum(PRINT_ORDER_STATES);
const InvoicePurposes = z.enum(INVOICE_PURPOSES);
const DeploymentModes = z.enum(DEPLOYMENT_MODES);

/** Whatever `JSON.parse` answers is JSON; only its shape needs checking. */
const AnyJson = z.custom<JsonValue>(() => true);
const JsonObjectSchema = z.custom<JsonObject>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'not a JSON object',
);
const OciEcho = z.record(z.string(), z.string());
const Ids = z.array(z.number().int());
const Flags = z.array(z.string());
const CreateAttempts = z.array(
  z.strictObject({
    index: z.number().int().nonnegative(),
    after: z.number().int().exactOptional(),
    searches: z.number().int().nonnegative(),
  }),
);
const InvoiceAmountsSchema = z.strictObject({
  currency: z.string(),
  subtotal: z.string(),
  tax: z.string(),
  shipping: z.string(),
  discount: z.string(),
  due: z.string(),
});

export function toSession(r: SqlRow): PunchoutSession {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    storefrontId: text(r.storefront_id),
    protocol: BuyerProtocol.parse(r.protocol),
    operation: SessionOperations.parse(r.operation),
    deploymentMode: DeploymentModes.parse(r.deployment_mode),
    ...optional('buyerCookie', r.buyer_cookie, text),
    returnUrl: text(r.return_url),
    ...optional('returnTarget', r.return_target, text),
    ...optional('ociEcho', r.oci_echo, json(OciEcho)),
    buyerUserKey: text(r.buyer_user_key),
    pipoUserRef: text(r.pipo_user_ref),
    ...optional('extrinsics', r.extrinsics, json(JsonObjectSchema)),
    ...optional('contact', r.contact, json(JsonObjectSchema)),
    ...optional('shipTo', r.ship_to, json(JsonObjectSchema)),
    ...optional('language', r.language, text),
    expiresAt: date(r.expires_at),
    ...(r.pipo_token != null && {
      pipoToken: { token: text(r.pipo_token), obtainedAt: date(r.pipo_token_obtained_at) },
    }),
    state: SessionStates.parse(r.state),
    version: Number(r.version),
    ...stamps(r),
  };
}

export function toUser(r: SqlRow): UserMapping {
  return {
    buyerId: text(r.buyer_id),
    userKey: text(r.user_key),
    storefrontId: text(r.storefront_id),
    pipoUserId: Number(r.pipo_user_id),
    username: text(r.username),
    email: text(r.email),
    passwordEnc: text(r.password_enc),
    isTemp: bool(r.is_temp),
    ...stamps(r),
  };
}

export function toCartLine(r: SqlRow): CartLine {
  return {
    lineRef: text(r.line_ref),
    sessionId: text(r.session_id),
    buyerId: text(r.buyer_id),
    storefrontId: text(r.storefront_id),
    userRef: text(r.user_ref),
    designId: Number(r.design_id),
    productId: Number(r.product_id),
    sku: text(r.sku),
    name: text(r.name),
    quantity: Number(r.quantity),
    unitPrice: text(r.unit_price),
    // A line stored before prices per N existed, or priced per 1, reads as it always did.
    ...(Number(r.price_unit ?? 1) !== 1 && { priceUnit: Number(r.price_unit) }),
    currency: text(r.currency),
    uom: text(r.uom),
    ...optional('unspsc', r.unspsc, text),
    ...optional('leadTimeDays', r.lead_time_days, Number),
    deploymentMode: DeploymentModes.parse(r.deployment_mode),
    position: Number(r.position),
    state: CartLineStates.parse(r.state),
    ...optional('poId', r.po_id, text),
    ...stamps(r),
  };
}

export function toOrder(r: SqlRow): PurchaseOrder {
  const answer: CxmlAnswer = { code: Number(r.answer_code), text: text(r.answer_text) };
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    payloadId: text(r.payload_id),
    orderId: text(r.order_id),
    type: OrderTypes.parse(r.type),
    ...optional('orderVersion', r.order_version, text),
    state: OrderStates.parse(r.state),
    raw: text(r.raw),
    document: json(AnyJson)(r.document),
    answer,
    deploymentMode: DeploymentModes.parse(r.deployment_mode),
    ...optional('storefrontId', r.storefront_id, text),
    printOrderIds: json(Ids)(r.print_order_ids),
    flags: json(Flags)(r.flags),
    createAttempts: json(CreateAttempts)(r.create_attempts),
    ...optional('lastError', r.last_error, text),
    ...stamps(r),
  };
}

export function toWaitingOrder(r: SqlRow): WaitingOrder {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    orderId: text(r.order_id),
    flags: json(Flags)(r.flags),
    ...optional('lastError', r.last_error, text),
    updatedAt: date(r.updated_at),
  };
}

export function toJob(r: SqlRow): Job {
  return {
    id: text(r.id),
    kind: text(r.kind),
    key: text(r.key),
    payload: json(AnyJson)(r.payload),
    runAt: date(r.run_at),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    state: JobStates.parse(r.state),
    ...optional('leaseUntil', r.lease_until, date),
    ...optional('lastError', r.last_error, text),
    ...stamps(r),
  };
}

export function toOutboxMessage(r: SqlRow): OutboxMessage {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    poId: text(r.po_id),
    kind: OutboxKinds.parse(r.kind),
    dedupeKey: text(r.dedupe_key),
    url: text(r.url),
    body: text(r.body),
    attempts: Number(r.attempts),
    nextAttemptAt: date(r.next_attempt_at),
    state: OutboxStates.parse(r.state),
    ...optional('leaseUntil', r.lease_until, date),
    ...optional('lastError', r.last_error, text),
    ...optional('deliveredAt', r.delivered_at, date),
    ...stamps(r),
  };
}

export function toPrintOrder(r: SqlRow): TrackedPrintOrder {
  return {
    storefrontId: text(r.storefront_id),
    printOrderId: Number(r.print_order_id),
    poId: text(r.po_id),
    state: PrintOrderStates.parse(r.state),
    ...optional('lastStatus', r.last_status, text),
    shipmentsNotified: json(Ids)(r.shipments_notified),
    confirmed: bool(r.confirmed),
    ...optional('lastCheckedAt', r.last_checked_at, date),
    ...stamps(r),
  };
}

export function toAttachment(r: SqlRow): AttachmentInfo {
  return {
    poId: text(r.po_id),
    position: Number(r.position),
    ...optional('contentId', r.content_id, text),
    ...optional('filename', r.filename, text),
    contentType: text(r.content_type),
    size: Number(r.size),
  };
}

export function toInvoice(r: SqlRow): Invoice {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    poId: text(r.po_id),
    storefrontId: text(r.storefront_id),
    printOrderId: Number(r.print_order_id),
    scope: text(r.scope),
    purpose: InvoicePurposes.parse(r.purpose),
    invoiceId: text(r.invoice_id),
    ...optional('sequence', r.sequence, Number),
    invoiceDate: date(r.invoice_date),
    amounts: json(InvoiceAmountsSchema)(r.amounts),
    ...optional('creditsInvoice', r.credits_invoice, text),
    dedupeKey: text(r.dedupe_key),
    createdAt: date(r.created_at),
  };
}

const InvoiceHoldAmountsSchema = z.object({
  currency: z.string(),
  atPoPrices: z.string().exactOptional(),
  atPrintOrderPrices: z.string().exactOptional(),
});

export function toInvoiceHold(r: SqlRow): InvoiceHold {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    poId: text(r.po_id),
    storefrontId: text(r.storefront_id),
    printOrderId: Number(r.print_order_id),
    scope: text(r.scope),
    reason: text(r.reason),
    amounts: json(InvoiceHoldAmountsSchema)(r.amounts),
    state: z.enum(INVOICE_HOLD_STATES).parse(r.state),
    ...optional('prices', r.prices, (value) => z.enum(INVOICE_HOLD_PRICES).parse(value)),
    ...optional('note', r.note, text),
    ...optional('invoiceId', r.invoice_id, text),
    ...stamps(r),
  };
}

export function toRefusal(r: SqlRow): Refusal {
  return {
    id: text(r.id),
    ...optional('buyerId', r.buyer_id, text),
    channel: z.enum(REFUSAL_CHANNELS).parse(r.channel),
    documentType: text(r.document_type),
    ...optional('payloadId', r.payload_id, text),
    clientAddress: text(r.client_address),
    status: Number(r.status),
    answer: text(r.answer),
    document: text(r.document),
    documentBytes: Number(r.document_bytes),
    createdAt: date(r.created_at),
  };
}

export function toOrderNote(r: SqlRow): OrderNote {
  return {
    id: text(r.id),
    poId: text(r.po_id),
    text: text(r.text),
    author: text(r.author),
    createdAt: date(r.created_at),
  };
}

export function toReorderItem(r: SqlRow): ReorderItem {
  const priceUnit = Number(r.price_unit);
  return {
    buyerId: text(r.buyer_id),
    partId: text(r.part_id),
    storefrontId: text(r.storefront_id),
    userRef: text(r.user_ref),
    designId: Number(r.design_id),
    productId: Number(r.product_id),
    sku: text(r.sku),
    name: text(r.name),
    thumbnailUrl: text(r.thumbnail_url),
    quantity: Number(r.quantity),
    unitPrice: text(r.unit_price),
    ...(priceUnit !== 1 && { priceUnit }),
    currency: text(r.currency),
    uom: text(r.uom),
    poId: text(r.po_id),
    orderedAt: date(r.ordered_at),
    ...stamps(r),
  };
}

export function toStatusUpdate(r: SqlRow): StatusUpdate {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    poId: text(r.po_id),
    payloadId: text(r.payload_id),
    ...optional('documentId', r.document_id, text),
    ...optional('invoiceRecordId', r.invoice_record_id, text),
    status: { code: Number(r.status_code), text: text(r.status_text), message: text(r.status_message) },
    ...optional('invoiceStatus', r.invoice_status, (value) => invoiceStatusTypeSchema.parse(value)),
    ...optional('partialAmount', r.partial_amount, json(moneySchema)),
    comments: text(r.comments),
    receivedAt: date(r.received_at),
  };
}

export function toEvent(r: SqlRow): InboxEvent {
  return {
    id: text(r.id),
    storefrontId: text(r.storefront_id),
    event: text(r.event),
    body: json(AnyJson)(r.body),
    receivedAt: date(r.received_at),
    processed: bool(r.processed),
  };
}

/** The rows of the `stats` statement: (kind, state, count) per state, (kind, oldest) per oldest instant. */
export function toStats(found: SqlRow[]): StoreStats {
  const counts = <S extends string>(kind: string, states: readonly S[]): Record<S, number> => {
    const byState = Object.fromEntries(states.map((s) => [s, 0])) as Record<S, number>;
    for (const r of found) {
      if (r.kind === kind && text(r.state) in byState) byState[text(r.state) as S] = Number(r.count);
    }
    return byState;
  };
  const oldest = <K extends string>(kind: string, key: K) =>
    optional(key, found.find((r) => r.kind === kind)?.oldest, date);
  const messages = counts('message', ['pending', 'sending', 'dead'] as const);
  return {
    ordersByState: counts('order', ORDER_STATES),
    ...oldest('unordered', 'oldestUnorderedAt'),
    jobsByState: counts('job', JOB_STATES),
    outbox: { ...messages, ...oldest('undelivered', 'oldestPendingAt') },
    invoicesHeld: Number(found.find((r) => r.kind === 'unordered')?.count ?? 0),
  };
}

/** When the store created and last changed a record. */
function stamps(r: SqlRow): { createdAt: Date; updatedAt: Date } {
  return { createdAt: date(r.created_at), updatedAt: date(r.updated_at) };
}

/** `{ [key]: convert(value) }`, or `{}` for a NULL column, so absent fields stay absent. */
function optional<K extends string, V>(
  key: K,
  value: unknown,
  convert: (value: unknown) => V,
): { [P in K]?: V } {
  return value === null || value === undefined ? {} : ({ [key]: convert(value) } as { [P in K]?: V });
}

function text(value: unknown): string {
  return String(value);
}

export function date(value: unknown): Date {
  return new Date(Number(value));
}

function bool(value: unknown): boolean {
  return value === true || Number(value) === 1;
}

/** A JSON column read through `schema`. */
function json<T>(schema: z.ZodType<T>): (value: unknown) => T {
  return (value) => schema.parse(JSON.parse(String(value)));
}

// Records → parameters.

export function flag(value: boolean): number {
  return value ? 1 : 0;
}

export function msOrNull(value: Date | undefined): number | null {
  return value === undefined ? null : value.getTime();
}

export function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
