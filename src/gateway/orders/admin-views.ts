/**
 * What the operators' JSON API (`/admin`) sends and how it reads a list call's query: the views of POs,
 * print orders, outbox messages, invoices and jobs, a PO's detail and timeline. Apart from the routes so
 * that the operator console renders the very same records the JSON API answers with.
 */
import type {
  Invoice,
  Job,
  OutboxMessage,
  PageRequest,
  PurchaseOrder,
  TrackedPrintOrder,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import { mismatchSummary } from './history-comment.ts';
import { invoiceDeliveries } from './invoicing.ts';
import { poDocument, storedRequest } from './po-record.ts';

export function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new GatewayError('bad_request', `${name} must be one of ${allowed.join(', ')}.`);
  }
  return value as T;
}

export function paging(query: (name: string) => string | undefined): { limit?: number; cursor?: string } {
  const limit = query('limit');
  const cursor = query('cursor');
  if (limit !== undefined && !/^\d{1,3}$/.test(limit)) {
    throw new GatewayError('bad_request', 'limit must be a whole number up to 500.');
  }
  return {
    ...(limit !== undefined && { limit: Number(limit) }),
    ...(cursor !== undefined && cursor !== '' && { cursor }),
  };
}

/**
 * A list call's filter from the query: paging, `state` (one of `states`), and each text filter that
 * `fields` maps from its query parameter to its filter field, when given and not empty.
 */
export function listFilter<S extends string, F extends string>(
  query: (name: string) => string | undefined,
  states: readonly S[],
  fields: Readonly<Record<string, F>>,
): PageRequest & { state?: S } & Partial<Record<F, string>> {
  const state = oneOf('state', query('state'), states);
  const given = Object.entries(fields).flatMap(([name, field]) => {
    const value = query(name);
    return value === undefined || value === '' ? [] : [[field, value] as const];
  });
  return {
    ...paging(query),
    ...(state !== undefined && { state }),
    ...(Object.fromEntries(given) as Partial<Record<F, string>>),
  };
}

export function printOrderView(p: TrackedPrintOrder) {
  return {
    storefrontId: p.storefrontId,
    printOrderId: p.printOrderId,
    state: p.state,
    lastStatus: p.lastStatus ?? null,
    confirmed: p.confirmed,
    shipmentsNotified: p.shipmentsNotified,
    lastCheckedAt: p.lastCheckedAt ?? null,
    createdAt: p.createdAt,
  };
}

export function orderSummary(order: PurchaseOrder, printOrders: readonly TrackedPrintOrder[]) {
  return {
    id: order.id,
    buyerId: order.buyerId,
    orderId: order.orderId,
    payloadId: order.payloadId,
    type: order.type,
    state: order.state,
    answer: order.answer,
    printOrderIds: order.printOrderIds,
    printOrders: printOrders.map(printOrderView),
    flags: order.flags,
    lastError: order.lastError ?? null,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

export function messageView(message: OutboxMessage, withBody: boolean) {
  return {
    id: message.id,
    buyerId: message.buyerId,
    poId: message.poId,
    kind: message.kind,
    dedupeKey: message.dedupeKey,
    url: message.url,
    state: message.state,
    attempts: message.attempts,
    nextAttemptAt: message.nextAttemptAt,
    lastError: message.lastError ?? null,
    deliveredAt: message.deliveredAt ?? null,
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
    ...(withBody && { body: message.body }),
  };
}

export async function invoiceView(ctx: GatewayContext, invoice: Invoice) {
  return {
    id: invoice.id,
    invoiceId: invoice.invoiceId,
    purpose: invoice.purpose,
    scope: invoice.scope,
    storefrontId: invoice.storefrontId,
    printOrderId: invoice.printOrderId,
    invoiceDate: invoice.invoiceDate,
    amounts: invoice.amounts,
    creditsInvoice: invoice.creditsInvoice ?? null,
    sequence: invoice.sequence ?? null,
    createdAt: invoice.createdAt,
    deliveries: (await invoiceDeliveries(ctx, invoice)).map((m) => messageView(m, false)),
  };
}

export async function invoiceList(ctx: GatewayContext, poId: string) {
  const items = [];
  for (const invoice of await ctx.store.invoices.listByPo(poId)) items.push(await invoiceView(ctx, invoice));
  return { items };
}

export function jobView(job: Job) {
  return {
    id: job.id,
    kind: job.kind,
    key: job.key,
    payload: job.payload,
    state: job.state,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    runAt: job.runAt,
    lastError: job.lastError ?? null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

export interface TimelineEntry {
  at: Date;
  event: string;
  detail: string;
}

/** What happened to a PO, from its records: received, print orders made, documents queued and sent. */
export function timeline(
  order: PurchaseOrder,
  printOrders: readonly TrackedPrintOrder[],
  messages: readonly OutboxMessage[],
): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    {
      at: order.createdAt,
      event: 'received',
      detail: `OrderRequest type ${order.type}, payloadID ${order.payloadId}`,
    },
  ];
  for (const p of printOrders) {
    entries.push({ at: p.createdAt, event: 'print_order_created', detail: `print order ${p.printOrderId}` });
  }
  for (const m of messages) {
    entries.push({ at: m.createdAt, event: `${m.kind}_queued`, detail: m.dedupeKey });
    if (m.deliveredAt !== undefined) {
      entries.push({ at: m.deliveredAt, event: `${m.kind}_delivered`, detail: m.dedupeKey });
    }
    if (m.state === 'dead') {
      entries.push({
        at: m.updatedAt,
        event: `${m.kind}_dead`,
        detail: `${m.dedupeKey}: ${m.lastError ?? ''}`,
      });
    }
  }
  if (order.lastError !== undefined) {
    entries.push({ at: order.updatedAt, event: order.state, detail: order.lastError });
  }
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** `GET /admin/orders/:id`: the PO with its request header, lines, differences, timeline and documents. */
export async function orderDetail(ctx: GatewayContext, order: PurchaseOrder) {
  const { store } = ctx;
  const printOrders = await store.printOrders.listByPo(order.id);
  const messages = (await store.outbox.list({ poId: order.id, limit: 500 })).items;
  const document = poDocument(order);
  const request = storedRequest(order);
  return {
    ...orderSummary(order, printOrders),
    request: {
      orderDate: request.orderDate?.raw ?? null,
      orderVersion: request.orderVersion ?? null,
      previousPayloadID: request.previousPayloadID ?? null,
      total: request.total ?? null,
      shipTo: request.shipTo ?? null,
      billTo: request.billTo ?? null,
      shipping: request.shipping ?? null,
      tax: request.tax ?? null,
      contacts: request.contacts ?? [],
      comments: request.comments ?? '',
      extrinsics: request.extrinsics?.list ?? [],
      requestedDeliveryDate: request.requestedDeliveryDate?.raw ?? null,
    },
    lines: document.lines,
    mismatches: document.mismatches.map((m, i) => ({
      ...m,
      text: mismatchSummary(document.mismatches)[i],
    })),
    timeline: timeline(order, printOrders, messages),
    outbox: messages.map((m) => messageView(m, false)),
    invoices: (await invoiceList(ctx, order.id)).items,
    raw: order.raw,
  };
}
