/**
 * The CSV exports of purchase orders and invoices for a print shop's accounting, and of the refusals log for
 * onboarding: a date window and a buyer (`ExportQuery`), read from the store a page at a time
 * (`orders.listReceived`, `invoices.listDated`, `refusals.list`) and streamed by `csvDownload`. The admin
 * API (`GET /admin/export/{orders|invoices|refusals}.csv`) and the console (`/admin/ui/export/…`) serve the
 * same downloads.
 */
import * as z from 'zod';
import { moneySchema } from '../../cxml/index.ts';
import type {
  Invoice,
  InvoiceHold,
  OutboxMessage,
  PurchaseOrder,
  Refusal,
  TimeWindow,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import { deliveriesOf, poMessages } from '../invoices/invoicing.ts';
import type { ExportQuery } from './admin-schemas.ts';
import { windowBound } from './admin-views.ts';
import { type CsvColumn, csvDownload } from './csv-download.ts';

/** Records read from the store per page of an export: a page of big POs stays a few megabytes. */
const EXPORT_PAGE = 200;

export const EXPORTS = ['orders', 'invoices', 'refusals'] as const;
export type ExportKind = (typeof EXPORTS)[number];

/** The store's window of an export query; a 400 names the parameter that is wrong. */
export function exportWindow(query: ExportQuery): TimeWindow {
  const from = windowBound(query.from, false);
  const to = windowBound(query.to, true);
  if (from !== undefined && to !== undefined && from > to) {
    throw new GatewayError('bad_request', 'from must not be after to.');
  }
  return {
    ...(query.buyer !== undefined && { buyerId: query.buyer }),
    ...(from !== undefined && { from: new Date(from) }),
    ...(to !== undefined && { to: new Date(to) }),
  };
}

/** `orders-2026-01-01-to-2026-12-31-acme.csv`: what the file holds, in its name. */
function exportFilename(kind: ExportKind, query: ExportQuery): string {
  const part = (value: string | undefined) => (value ?? '').slice(0, 10).replace(/[^A-Za-z0-9._-]/g, '_');
  const range =
    query.from === undefined && query.to === undefined
      ? 'all'
      : `${part(query.from) || 'start'}-to-${part(query.to) || 'now'}`;
  const buyer =
    query.buyer === undefined ? '' : `-${query.buyer.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60)}`;
  return `${kind}-${range}${buyer}.csv`;
}

/** Every page of a keyset listing, one at a time, as the download asks for them. */
async function* pagesOf<T>(
  list: (window: TimeWindow) => Promise<{ items: T[]; nextCursor?: string }>,
  window: TimeWindow,
): AsyncGenerator<T[]> {
  let cursor: string | undefined;
  do {
    const page = await list({ ...window, limit: EXPORT_PAGE, ...(cursor !== undefined && { cursor }) });
    yield page.items;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
}

const iso = (at: Date | undefined) => at?.toISOString();

/**
 * What an export reads of a PO's stored document: only its total and order date, by a schema of its own
 * that passes over the rest, so an export neither pays for reading whole documents again nor stops at
 * one it cannot read (its cells stay empty).
 */
const exportedRequest = z.object({
  request: z.object({
    total: moneySchema.optional(),
    orderDate: z.object({ raw: z.string() }).optional(),
  }),
});

interface OrderRow {
  order: PurchaseOrder;
  total?: { value: string; currency: string };
  orderDate?: string;
}

/** The PO's total and order date as its document states them; absent where it states none. */
export function orderFigures(order: PurchaseOrder): Omit<OrderRow, 'order'> {
  const read = exportedRequest.safeParse(order.document);
  const request = read.success ? read.data.request : {};
  return {
    ...(request.total !== undefined && { total: request.total }),
    ...(request.orderDate !== undefined && { orderDate: request.orderDate.raw }),
  };
}

const orderRow = (order: PurchaseOrder): OrderRow => ({ order, ...orderFigures(order) });

const ORDER_COLUMNS: readonly CsvColumn<OrderRow>[] = [
  { header: 'PO record', cell: (r) => r.order.id },
  { header: 'Buyer', cell: (r) => r.order.buyerId },
  { header: 'PO number', cell: (r) => r.order.orderId },
  { header: 'Type', cell: (r) => r.order.type },
  { header: 'Order version', cell: (r) => r.order.orderVersion },
  { header: 'Order date', cell: (r) => r.orderDate },
  { header: 'Received (UTC)', cell: (r) => iso(r.order.createdAt) },
  { header: 'State', cell: (r) => r.order.state },
  { header: 'Total', cell: (r) => r.total?.value },
  { header: 'Currency', cell: (r) => r.total?.currency },
  { header: 'Print orders', cell: (r) => r.order.printOrderIds.join(' ') },
  { header: 'Mode', cell: (r) => r.order.deploymentMode },
  { header: 'Flags', cell: (r) => r.order.flags.join(' ') },
  { header: 'payloadID', cell: (r) => r.order.payloadId },
];

interface InvoiceRow {
  invoice: Invoice;
  poNumber?: string;
  deliveries: OutboxMessage[];
  hold?: InvoiceHold;
}

/** How the invoice's document fared: delivered (when), else the state of its latest copy. */
function deliveryText(deliveries: readonly OutboxMessage[]): string {
  const delivered = deliveries.find((m) => m.deliveredAt !== undefined);
  if (delivered !== undefined) return 'delivered';
  return deliveries.at(-1)?.state ?? 'not queued';
}

const INVOICE_COLUMNS: readonly CsvColumn<InvoiceRow>[] = [
  { header: 'Invoice', cell: (r) => r.invoice.invoiceId },
  { header: 'Purpose', cell: (r) => r.invoice.purpose },
  { header: 'Credits invoice record', cell: (r) => r.invoice.creditsInvoice },
  { header: 'Buyer', cell: (r) => r.invoice.buyerId },
  { header: 'PO record', cell: (r) => r.invoice.poId },
  { header: 'PO number', cell: (r) => r.poNumber },
  { header: 'Print order', cell: (r) => r.invoice.printOrderId },
  { header: 'Covers', cell: (r) => r.invoice.scope },
  { header: 'Invoice date (UTC)', cell: (r) => iso(r.invoice.invoiceDate) },
  { header: 'Currency', cell: (r) => r.invoice.amounts.currency },
  { header: 'Subtotal', cell: (r) => r.invoice.amounts.subtotal },
  { header: 'Tax', cell: (r) => r.invoice.amounts.tax },
  { header: 'Shipping', cell: (r) => r.invoice.amounts.shipping },
  { header: 'Discount', cell: (r) => r.invoice.amounts.discount },
  { header: 'Due', cell: (r) => r.invoice.amounts.due },
  { header: 'Delivery', cell: (r) => deliveryText(r.deliveries) },
  { header: 'Delivered (UTC)', cell: (r) => iso(r.deliveries.find((m) => m.deliveredAt)?.deliveredAt) },
  { header: 'Held before', cell: (r) => r.hold && `held: ${r.hold.reason} ${r.hold.note ?? ''}`.trim() },
  { header: 'Invoice record', cell: (r) => r.invoice.id },
];

/** A page of invoices with what the store knows of each PO they belong to, each PO read once. */
async function invoiceRows(ctx: GatewayContext, invoices: readonly Invoice[]): Promise<InvoiceRow[]> {
  const pos = new Map<string, { poNumber?: string; messages: OutboxMessage[]; holds: InvoiceHold[] }>();
  for (const poId of new Set(invoices.map((i) => i.poId))) {
    const order = await ctx.store.orders.get(poId);
    pos.set(poId, {
      ...(order !== undefined && { poNumber: order.orderId }),
      messages: await poMessages(ctx, poId),
      holds: await ctx.store.invoiceHolds.listByPo(poId),
    });
  }
  return invoices.map((invoice) => {
    const po = pos.get(invoice.poId)!;
    const hold = po.holds.find(
      (h) => h.invoiceId === invoice.invoiceId && h.printOrderId === invoice.printOrderId,
    );
    return {
      invoice,
      ...(po.poNumber !== undefined && { poNumber: po.poNumber }),
      deliveries: deliveriesOf(po.messages, invoice.dedupeKey),
      ...(hold !== undefined && { hold }),
    };
  });
}

async function* orderPages(ctx: GatewayContext, window: TimeWindow): AsyncGenerator<OrderRow[]> {
  for await (const page of pagesOf((w) => ctx.store.orders.listReceived(w), window)) {
    yield page.map(orderRow);
  }
}

async function* invoicePages(ctx: GatewayContext, window: TimeWindow): AsyncGenerator<InvoiceRow[]> {
  for await (const page of pagesOf((w) => ctx.store.invoices.listDated(w), window)) {
    yield await invoiceRows(ctx, page);
  }
}

/**
 * The refusals log's entries: what was refused, from where, and the answer sent. The document itself (up to
 * 16 K characters each, secrets blanked) stays on the refusals page and in the admin API.
 */
const REFUSAL_COLUMNS: readonly CsvColumn<Refusal>[] = [
  { header: 'Refused (UTC)', cell: (r) => iso(r.createdAt) },
  { header: 'Buyer', cell: (r) => r.buyerId ?? 'unknown' },
  { header: 'Channel', cell: (r) => r.channel },
  { header: 'Document', cell: (r) => r.documentType },
  { header: 'payloadID', cell: (r) => r.payloadId },
  { header: 'Client address', cell: (r) => r.clientAddress },
  { header: 'Status', cell: (r) => r.status },
  { header: 'Answer', cell: (r) => r.answer },
  { header: 'Bytes received', cell: (r) => r.documentBytes },
  { header: 'Entry', cell: (r) => r.id },
];

/** The refusals log newest first, as it is kept; its window's end is exclusive in the store. */
function refusalPages(ctx: GatewayContext, window: TimeWindow): AsyncGenerator<Refusal[]> {
  return pagesOf(
    (w) => ctx.store.refusals.list({ ...w, ...(w.to !== undefined && { to: new Date(w.to.getTime() + 1) }) }),
    window,
  );
}

/** The download of `kind` for `query` (checked first: a bad window is a 400 before anything streams). */
export function exportResponse(ctx: GatewayContext, kind: ExportKind, query: ExportQuery): Response {
  const window = exportWindow(query);
  const filename = exportFilename(kind, query);
  const onFailure = (error: unknown) =>
    ctx.logger.error('CSV export cut short: a page could not be read', {
      export: kind,
      error: error instanceof Error ? error.message : String(error),
    });
  ctx.logger.info('CSV export started', { export: kind, ...query });
  switch (kind) {
    case 'orders':
      return csvDownload(filename, ORDER_COLUMNS, orderPages(ctx, window), onFailure);
    case 'invoices':
      return csvDownload(filename, INVOICE_COLUMNS, invoicePages(ctx, window), onFailure);
    case 'refusals':
      return csvDownload(filename, REFUSAL_COLUMNS, refusalPages(ctx, window), onFailure);
  }
}
