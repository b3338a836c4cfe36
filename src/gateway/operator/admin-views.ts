/**
 * What the operators' JSON API (`/admin`) sends, typed from its answer schemas (admin-schemas.ts): the views of POs,
 * print orders, outbox messages, invoices and jobs, a PO's detail and timeline. Apart from the routes so
 * that the operator console renders the very same records the JSON API answers with.
 */
import { attachmentView } from './attachment-download.ts';
import { redactSharedSecrets } from '../../cxml/shared-secret.ts';
import type {
  Invoice,
  InvoiceHold,
  Job,
  OrderNote,
  OutboxMessage,
  Page,
  PurchaseOrder,
  Refusal,
  RefusalFilter,
  StatusUpdate,
  TrackedPrintOrder,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { instructionEffects, instructionsInForce } from '../documents/instructions-in-force.ts';
import { deliveriesOf, poMessages } from '../invoices/invoicing.ts';
import { mismatchSummary } from '../orders/history-comment.ts';
import { poDocument, storedRequest } from '../orders/po-record.ts';
import { noteTimelineEntry, orderNoteView } from './order-notes.ts';
import type {
  InvoiceHoldView,
  InvoiceView,
  JobView,
  OrderDetail,
  OrderListQuery,
  OrderSummary,
  OutboxMessageView,
  OutboxMessageWithBody,
  PrintOrderView,
  RefusalListQuery,
  RefusalView,
  StatusUpdateView,
  TimelineEntry,
} from './admin-schemas.ts';

function printOrderView(p: TrackedPrintOrder): PrintOrderView {
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

export function orderSummary(order: PurchaseOrder, printOrders: readonly TrackedPrintOrder[]): OrderSummary {
  return {
    id: order.id,
    buyerId: order.buyerId,
    orderId: order.orderId,
    payloadId: order.payloadId,
    type: order.type,
    state: order.state,
    answer: order.answer,
    deploymentMode: order.deploymentMode,
    storefrontId: order.storefrontId ?? null,
    printOrderIds: order.printOrderIds,
    printOrders: printOrders.map(printOrderView),
    flags: order.flags,
    lastError: order.lastError ?? null,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

export function messageView(message: OutboxMessage, withBody: true): OutboxMessageWithBody;
export function messageView(message: OutboxMessage, withBody: false): OutboxMessageView;
export function messageView(message: OutboxMessage, withBody: boolean): OutboxMessageView {
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
    // Our SharedSecret rides in every document we post; an operator's copy of one must not carry it.
    ...(withBody && { body: redactSharedSecrets(message.body) }),
  };
}

/** A buyer's StatusUpdateRequest; `invoices` are its PO's, to name the invoice by its invoiceID. */
function statusUpdateView(update: StatusUpdate, invoices: readonly Invoice[]): StatusUpdateView {
  const invoice = invoices.find((i) => i.id === update.invoiceRecordId);
  return {
    id: update.id,
    payloadId: update.payloadId,
    documentId: update.documentId ?? null,
    invoiceId: invoice?.invoiceId ?? null,
    status: update.status,
    invoiceStatus: update.invoiceStatus ?? null,
    partialAmount: update.partialAmount ?? null,
    comments: update.comments,
    receivedAt: update.receivedAt,
  };
}

/**
 * An invoice with its deliveries, picked from its PO's outbox messages (`poMessages`), and what the buyer
 * said of it, picked from its PO's status updates.
 */
function invoiceView(
  invoice: Invoice,
  poOutbox: readonly OutboxMessage[],
  poUpdates: readonly StatusUpdateView[],
): InvoiceView {
  const history = poUpdates.filter((u) => u.invoiceId === invoice.invoiceId && u.invoiceStatus !== null);
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
    deliveries: deliveriesOf(poOutbox, invoice.dedupeKey).map((m) => messageView(m, false)),
    buyerStatus: history.at(-1)?.invoiceStatus ?? null,
    paid: history.some((u) => u.invoiceStatus === 'paid'),
    buyerStatusHistory: history,
  };
}

export function invoiceHoldView(hold: InvoiceHold): InvoiceHoldView {
  return {
    id: hold.id,
    storefrontId: hold.storefrontId,
    printOrderId: hold.printOrderId,
    scope: hold.scope,
    state: hold.state,
    reason: hold.reason,
    amounts: {
      currency: hold.amounts.currency,
      atPoPrices: hold.amounts.atPoPrices ?? null,
      atPrintOrderPrices: hold.amounts.atPrintOrderPrices ?? null,
    },
    prices: hold.prices ?? null,
    note: hold.note ?? null,
    invoiceId: hold.invoiceId ?? null,
    createdAt: hold.createdAt,
    updatedAt: hold.updatedAt,
  };
}

export async function invoiceList(
  ctx: GatewayContext,
  poId: string,
): Promise<{ items: InvoiceView[]; holds: InvoiceHoldView[] }> {
  const { items, holds } = await invoiceRecords(ctx, poId);
  return { items, holds };
}

/** The PO's invoices, holds, and every status update the buyer sent about its documents. */
async function invoiceRecords(
  ctx: GatewayContext,
  poId: string,
): Promise<{ items: InvoiceView[]; holds: InvoiceHoldView[]; statusUpdates: StatusUpdateView[] }> {
  const invoices = await ctx.store.invoices.listByPo(poId);
  // The PO's messages and status updates read once for all its invoices, not once per invoice.
  const poOutbox = invoices.length === 0 ? [] : await poMessages(ctx, poId);
  const statusUpdates = (await ctx.store.statusUpdates.listByPo(poId)).map((u) =>
    statusUpdateView(u, invoices),
  );
  return {
    items: invoices.map((invoice) => invoiceView(invoice, poOutbox, statusUpdates)),
    holds: (await ctx.store.invoiceHolds.listByPo(poId)).map(invoiceHoldView),
    statusUpdates,
  };
}

export function refusalView(refusal: Refusal): RefusalView {
  return {
    id: refusal.id,
    buyerId: refusal.buyerId ?? null,
    channel: refusal.channel,
    documentType: refusal.documentType,
    payloadId: refusal.payloadId ?? null,
    clientAddress: refusal.clientAddress,
    status: refusal.status,
    answer: refusal.answer,
    document: refusal.document,
    documentBytes: refusal.documentBytes,
    createdAt: refusal.createdAt,
  };
}

/** The store's filter for a refusals query: a day alone is a whole day (`to` is exclusive in the store). */
export function refusalFilter(query: RefusalListQuery): RefusalFilter {
  const from = windowBound(query.from, false);
  const to = windowBound(query.to, true);
  return {
    ...(query.buyer !== undefined && { buyerId: query.buyer }),
    ...(from !== undefined && { from: new Date(from) }),
    ...(to !== undefined && { to: new Date(to + 1) }),
    ...(query.limit !== undefined && { limit: query.limit }),
    ...(query.cursor !== undefined && { cursor: query.cursor }),
  };
}

export function jobView(job: Job): JobView {
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

/**
 * What happened to a PO, from its records: received, print orders made, documents queued and sent, and the
 * operators' notes.
 */
function timeline(
  order: PurchaseOrder,
  printOrders: readonly TrackedPrintOrder[],
  messages: readonly OutboxMessage[],
  notes: readonly OrderNote[],
  statusUpdates: readonly StatusUpdateView[],
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
  for (const u of statusUpdates) {
    const about = u.invoiceId === null ? `document ${u.documentId ?? ''}` : `invoice ${u.invoiceId}`;
    const said = u.invoiceStatus ?? `Status ${u.status.code} ${u.status.text}`;
    entries.push({
      at: u.receivedAt,
      event: 'status_update_received',
      detail: `${about}: ${said}${u.comments === '' ? '' : ` (${u.comments})`}`,
    });
  }
  if (order.lastError !== undefined) {
    entries.push({ at: order.updatedAt, event: order.state, detail: order.lastError });
  }
  entries.push(...notes.map(noteTimelineEntry));
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** `GET /admin/orders/:id`: the PO with its request header, lines, differences, timeline and documents. */
export async function orderDetail(ctx: GatewayContext, order: PurchaseOrder): Promise<OrderDetail> {
  const { store } = ctx;
  const printOrders = await store.printOrders.listByPo(order.id);
  const messages = (await store.outbox.list({ poId: order.id, limit: 500 })).items;
  const notes = await store.orderNotes.listByPo(order.id);
  const document = poDocument(order);
  const request = storedRequest(order);
  const { restrictions: _given, ...allowed } = instructionsInForce(request);
  const invoices = await invoiceRecords(ctx, order.id);
  return {
    ...orderSummary(order, printOrders),
    instructions: { ...allowed, inForce: instructionEffects(request) },
    request: {
      orderDate: request.orderDate?.raw ?? null,
      orderVersion: request.orderVersion ?? null,
      previousPayloadID: request.previousPayloadID ?? null,
      total: request.total ?? null,
      shipTo: request.shipTo ?? null,
      billTo: request.billTo ?? null,
      buyerVatID: request.buyerVatID ?? null,
      shipping: request.shipping ?? null,
      tax: request.tax ?? null,
      contacts: request.contacts ?? [],
      comments: request.comments ?? '',
      extrinsics: request.extrinsics,
      requestedDeliveryDate: request.requestedDeliveryDate?.raw ?? null,
    },
    lines: document.lines,
    rejectedLines: document.rejectedLines ?? [],
    mismatches: document.mismatches.map((m, i) => ({
      ...m,
      text: mismatchSummary(document.mismatches)[i],
    })),
    timeline: timeline(order, printOrders, messages, notes, invoices.statusUpdates),
    notes: notes.map(orderNoteView),
    outbox: messages.map((m) => messageView(m, false)),
    invoices: invoices.items,
    invoiceHolds: invoices.holds,
    statusUpdates: invoices.statusUpdates,
    attachments: (await store.attachments.list(order.id)).map((file) => attachmentView(file, '/admin')),
    // The buyer's SharedSecret is in its OrderRequest; the admin API shows the document without it.
    raw: redactSharedSecrets(order.raw),
  };
}

/** Records a search reads at most per call; then it answers what it found with a cursor to go on. */
const SEARCH_SCAN = 5000;

/** A day alone is a whole day: `from` from its first moment, `to` to its last (UTC). */
export function windowBound(value: string | undefined, end: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return Date.parse(`${value}T00:00:00Z`) + (end ? 86_400_000 - 1 : 0);
  }
  return Date.parse(value);
}

function orderMatcher(query: OrderListQuery): (order: PurchaseOrder) => boolean {
  const from = windowBound(query.from, false);
  const to = windowBound(query.to, true);
  const q = query.q?.trim();
  return (order) =>
    (query.flag === undefined || order.flags.includes(query.flag)) &&
    (from === undefined || order.createdAt.getTime() >= from) &&
    (to === undefined || order.createdAt.getTime() <= to) &&
    (q === undefined ||
      q === '' ||
      order.orderId.startsWith(q) ||
      order.id === q ||
      order.buyerId === q ||
      order.printOrderIds.some((id) => String(id) === q));
}

/**
 * `GET /admin/orders`: a page of POs, newest first. State and buyer are the store's filters; search and
 * the flag and date filters are applied here, over the store's pages (the store has no index for them and
 * the PO table of a print shop stays in the thousands), reading at most SEARCH_SCAN records a call: a page
 * may then come back short with a `nextCursor` to read on from.
 */
export async function searchOrders(ctx: GatewayContext, query: OrderListQuery): Promise<Page<PurchaseOrder>> {
  const storeFilter = {
    ...(query.state !== undefined && { state: query.state }),
    ...(query.buyer !== undefined && { buyerId: query.buyer }),
  };
  const searching = [query.q, query.flag, query.from, query.to].some((v) => v !== undefined);
  if (!searching) {
    return ctx.store.orders.list({
      ...storeFilter,
      ...(query.limit !== undefined && { limit: query.limit }),
      ...(query.cursor !== undefined && { cursor: query.cursor }),
    });
  }
  const wanted = Math.min(500, Math.max(1, query.limit ?? 50));
  const matches = orderMatcher(query);
  const from = windowBound(query.from, false);
  const found: PurchaseOrder[] = [];
  let cursor = query.cursor;
  let scanned = 0;
  while (scanned < SEARCH_SCAN) {
    const page = await ctx.store.orders.list({ ...storeFilter, limit: 500, ...(cursor && { cursor }) });
    for (const order of page.items) {
      scanned += 1;
      // A page continues below the id of its last record (the store's cursor), matched or not.
      cursor = order.id;
      if (matches(order)) found.push(order);
      if (found.length === wanted) return { items: found, nextCursor: order.id };
      // Newest first: past `from`, nothing older can match.
      if (from !== undefined && order.createdAt.getTime() < from) return { items: found };
    }
    if (page.nextCursor === undefined) return { items: found };
  }
  return { items: found, ...(cursor !== undefined && { nextCursor: cursor }) };
}
