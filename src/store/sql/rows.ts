/**
 * Rows of the SQL store's tables → the port's records, and records → statement parameters. Pure functions,
 * the same for every database: numbers go through `Number()` because PostgreSQL drivers hand BIGINT back as
 * text, booleans are 0/1 (or true/false), JSON columns are text, a NULL column is an absent field.
 */
import type { SqlRow } from './driver.ts';
import {
  type CartLine,
  type CartLineState,
  type CxmlAnswer,
  type InboxEvent,
  type Invoice,
  type InvoiceAmounts,
  type InvoicePurpose,
  JOB_STATES,
  type Job,
  type JobState,
  type JsonObject,
  type JsonValue,
  ORDER_STATES,
  type OrderState,
  type OrderType,
  type OutboxKind,
  type OutboxMessage,
  type OutboxState,
  type PrintOrderState,
  type Protocol,
  type PunchoutSession,
  type PurchaseOrder,
  type SessionOperation,
  type SessionState,
  type StoreStats,
  type TrackedPrintOrder,
  type UserMapping,
} from '../types.ts';

export function toSession(r: SqlRow): PunchoutSession {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    storefrontId: text(r.storefront_id),
    protocol: text(r.protocol) as Protocol,
    operation: text(r.operation) as SessionOperation,
    ...optional('buyerCookie', r.buyer_cookie, text),
    returnUrl: text(r.return_url),
    ...optional('returnTarget', r.return_target, text),
    ...optional('ociEcho', r.oci_echo, json<Record<string, string>>),
    buyerUserKey: text(r.buyer_user_key),
    pipoUserRef: text(r.pipo_user_ref),
    ...optional('extrinsics', r.extrinsics, json<JsonObject>),
    ...optional('contact', r.contact, json<JsonObject>),
    ...optional('shipTo', r.ship_to, json<JsonObject>),
    expiresAt: date(r.expires_at),
    ...(r.pipo_token != null && {
      pipoToken: { token: text(r.pipo_token), obtainedAt: date(r.pipo_token_obtained_at) },
    }),
    state: text(r.state) as SessionState,
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
    currency: text(r.currency),
    uom: text(r.uom),
    ...optional('unspsc', r.unspsc, text),
    ...optional('leadTimeDays', r.lead_time_days, Number),
    position: Number(r.position),
    state: text(r.state) as CartLineState,
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
    type: text(r.type) as OrderType,
    ...optional('orderVersion', r.order_version, text),
    state: text(r.state) as OrderState,
    raw: text(r.raw),
    document: json<JsonValue>(r.document),
    answer,
    printOrderIds: json<number[]>(r.print_order_ids),
    flags: json<string[]>(r.flags),
    ...optional('lastError', r.last_error, text),
    ...stamps(r),
  };
}

export function toJob(r: SqlRow): Job {
  return {
    id: text(r.id),
    kind: text(r.kind),
    key: text(r.key),
    payload: json<JsonValue>(r.payload),
    runAt: date(r.run_at),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    state: text(r.state) as JobState,
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
    kind: text(r.kind) as OutboxKind,
    dedupeKey: text(r.dedupe_key),
    url: text(r.url),
    body: text(r.body),
    attempts: Number(r.attempts),
    nextAttemptAt: date(r.next_attempt_at),
    state: text(r.state) as OutboxState,
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
    state: text(r.state) as PrintOrderState,
    ...optional('lastStatus', r.last_status, text),
    shipmentsNotified: json<number[]>(r.shipments_notified),
    confirmed: bool(r.confirmed),
    ...optional('lastCheckedAt', r.last_checked_at, date),
    ...stamps(r),
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
    purpose: text(r.purpose) as InvoicePurpose,
    invoiceId: text(r.invoice_id),
    ...optional('sequence', r.sequence, Number),
    invoiceDate: date(r.invoice_date),
    amounts: json<InvoiceAmounts>(r.amounts),
    ...optional('creditsInvoice', r.credits_invoice, text),
    dedupeKey: text(r.dedupe_key),
    createdAt: date(r.created_at),
  };
}

export function toEvent(r: SqlRow): InboxEvent {
  return {
    id: text(r.id),
    storefrontId: text(r.storefront_id),
    event: text(r.event),
    body: json<JsonValue>(r.body),
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

function json<T>(value: unknown): T {
  return JSON.parse(String(value)) as T;
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
