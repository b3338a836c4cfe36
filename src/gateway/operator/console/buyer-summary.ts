/**
 * The buyer's summary on the buyers page, over the last 12 calendar months (UTC): POs and their value per
 * month and currency, the buyer's invoices by state, and what is open for an operator. Read from the
 * store page by page (`orders.listReceived`, `invoices.listDated`, the outbox), summed exactly (decimal
 * text, never a binary double). It reads the buyer's POs of the year with their documents each time the
 * page is shown: fine for a print shop's hundreds of POs a month; the CSV exports are for more.
 */
import { addDecimals, formatDecimal, readDecimal } from '../../../kernel/decimal.ts';
import type { Invoice, OutboxMessage, PurchaseOrder } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import type { ResolvedBuyer } from '../../deps.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { orderFigures } from '../csv-exports.ts';

const MONTHS = 12;
/** Records read per store call. */
const PAGE = 500;

/** POs and value of one month: the count, and per currency the exact sum of the POs' totals. */
interface MonthFigures {
  pos: number;
  /** POs whose document states no total (counted, not summed). */
  withoutTotal: number;
  value: Map<string, string[]>;
}

export interface BuyerFigures {
  since: Date;
  /** `YYYY-MM` → figures, months without POs left out. */
  months: Map<string, MonthFigures>;
  /** Invoices by state (`invoiceState`), credit memos included. */
  invoices: Map<string, number>;
  waiting: number;
  failed: number;
  deadDocuments: number;
}

/** The first moment of the month `MONTHS - 1` months before `now`'s (UTC). */
function windowStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1), 1));
}

/** Every record of a keyset listing, a page at a time. */
async function eachOf<T>(
  list: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
  visit: (record: T) => void,
): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    page.items.forEach(visit);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
}

function countPo(months: Map<string, MonthFigures>, order: PurchaseOrder): void {
  const month = order.createdAt.toISOString().slice(0, 7);
  const figures = months.get(month) ?? { pos: 0, withoutTotal: 0, value: new Map() };
  months.set(month, figures);
  figures.pos += 1;
  const { total } = orderFigures(order);
  if (total === undefined || readDecimal(total.value, { signed: true }) === undefined) {
    figures.withoutTotal += 1;
    return;
  }
  figures.value.set(total.currency, [...(figures.value.get(total.currency) ?? []), total.value]);
}

/**
 * An invoice's state as the store knows it: the buyer's latest InvoiceStatus of it where it sent one,
 * else how its document fared (a re-sent one counts as delivered once any copy was). Counted by this name,
 * so a state the store learns later shows as a row of its own.
 */
function invoiceState(
  invoice: Invoice,
  documents: ReadonlyMap<string, OutboxMessage[]>,
  buyerStatus: string | undefined,
): string {
  const copies = documents.get(invoice.dedupeKey) ?? [];
  const kind = invoice.purpose === 'creditMemo' ? 'credit memo' : 'invoice';
  // What the buyer's accounts payable last said of it (paid, rejected, …) outranks how it was delivered.
  if (buyerStatus !== undefined) return `${kind} ${buyerStatus} by the buyer`;
  if (copies.some((m) => m.state === 'delivered')) return `${kind} sent`;
  const latest = copies.at(-1);
  return latest === undefined
    ? `${kind} not queued`
    : `${kind} ${latest.state === 'dead' ? 'not delivered (dead)' : 'queued'}`;
}

/** The buyer's invoice documents sent since `since`, by the invoice's dedupe key (re-sends with it). */
async function invoiceDocuments(ctx: GatewayContext, buyerId: string, since: Date) {
  const byKey = new Map<string, OutboxMessage[]>();
  let cursor: string | undefined;
  do {
    const page = await ctx.store.outbox.list({
      buyerId,
      limit: PAGE,
      ...(cursor !== undefined && { cursor }),
    });
    for (const m of page.items) {
      if (m.kind !== 'invoice') continue;
      const key = m.dedupeKey.replace(/#resend-.*$/, '');
      byKey.set(key, [m, ...(byKey.get(key) ?? [])]);
    }
    // Newest first: once past the window, nothing older is an invoice of it.
    const oldest = page.items.at(-1);
    cursor = oldest !== undefined && oldest.createdAt < since ? undefined : page.nextCursor;
  } while (cursor !== undefined);
  return byKey;
}

/** How many of the buyer's records a list filter finds, up to one page (a figure, not an inventory). */
async function countUpTo<T>(list: () => Promise<{ items: T[] }>): Promise<number> {
  return (await list()).items.length;
}

export async function buyerFigures(ctx: GatewayContext, buyerId: string): Promise<BuyerFigures> {
  const { store } = ctx;
  const since = windowStart(ctx.clock.now());
  const months = new Map<string, MonthFigures>();
  await eachOf(
    (cursor) =>
      store.orders.listReceived({
        buyerId,
        from: since,
        limit: PAGE,
        ...(cursor !== undefined && { cursor }),
      }),
    (order) => countPo(months, order),
  );
  const documents = await invoiceDocuments(ctx, buyerId, since);
  const dated: Invoice[] = [];
  await eachOf(
    (cursor) =>
      store.invoices.listDated({
        buyerId,
        from: since,
        limit: PAGE,
        ...(cursor !== undefined && { cursor }),
      }),
    (invoice) => dated.push(invoice),
  );
  // An invoice dated in the window can only have been answered after it was sent, so within it too.
  const said = await store.statusUpdates.latestInvoiceStatuses(buyerId, since);
  const invoices = new Map<string, number>();
  for (const invoice of dated) {
    const state = invoiceState(invoice, documents, said.get(invoice.id));
    invoices.set(state, (invoices.get(state) ?? 0) + 1);
  }
  return {
    since,
    months,
    invoices,
    waiting: await countUpTo(() => store.orders.list({ buyerId, state: 'needs_operator', limit: PAGE })),
    failed: await countUpTo(() => store.orders.list({ buyerId, state: 'failed', limit: PAGE })),
    deadDocuments: await countUpTo(() => store.outbox.list({ buyerId, state: 'dead', limit: PAGE })),
  };
}

/** `1234.5` EUR and `10` USD as "1234.50 EUR; 10.00 USD": each currency's exact sum. */
function valueText(value: ReadonlyMap<string, string[]>): string {
  return [...value]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amounts]) => {
      const sum = addDecimals(amounts.map((a) => readDecimal(a, { signed: true })!));
      return `${formatDecimal(sum, { minDecimals: 2 })} ${currency}`;
    })
    .join('; ');
}

const atMost = (n: number) => (n >= PAGE ? `${PAGE} or more` : String(n));

function monthsTable(figures: BuyerFigures): SafeHtml {
  if (figures.months.size === 0)
    return html`<p class="muted">No purchase order in the last ${MONTHS} months.</p>`;
  const rows = [...figures.months]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([month, f]) =>
        html`<tr><td>${month}</td><td class="num">${f.pos}</td><td class="num">${valueText(f.value) || '—'}${
          f.withoutTotal === 0 ? '' : html` <span class="muted">(${f.withoutTotal} without a total)</span>`
        }</td></tr>`,
    );
  return html`<table><caption>Purchase orders and their value per month (received, UTC)</caption>
<thead><tr><th scope="col">Month</th><th scope="col" class="num">POs</th><th scope="col" class="num">Value</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The buyer's summary section: its own heading, figures of the last 12 months, and links to the records. */
export async function buyerSummary(ctx: GatewayContext, buyer: ResolvedBuyer): Promise<SafeHtml> {
  const figures = await buyerFigures(ctx, buyer.id);
  const orders = (state: string) => `/admin/ui/orders?buyer=${encodeURIComponent(buyer.id)}&state=${state}`;
  const invoices = [...figures.invoices].sort(([a], [b]) => a.localeCompare(b));
  return html`<h3>Summary since ${figures.since.toISOString().slice(0, 10)}</h3>
${monthsTable(figures)}
<dl class="facts">
<dt>Invoices and credit memos</dt><dd>${
    invoices.length === 0 ? 'none' : invoices.map(([state, n]) => `${n} ${state}`).join(', ')
  }</dd>
<dt>Open exceptions</dt><dd><a href="${orders('needs_operator')}">${atMost(figures.waiting)} waiting for an operator</a>, <a href="${orders('failed')}">${atMost(figures.failed)} failed</a>, <a href="/admin/ui/dead-letters">${atMost(figures.deadDocuments)} dead documents</a></dd>
</dl>`;
}
