/**
 * `GET /admin/ui/orders`: the purchase orders, newest first, a page at a time, through the admin API's own
 * search (`searchOrders`, read with its `OrderListQuery`): a PO number (or its start), a print order id, a
 * PO record id or a buyer id in the search box; filters by state, buyer, flag and the day received. The
 * CSV exports are linked for the buyer and days filtered by.
 */
import { ORDER_STATES, type PurchaseOrder } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { firstProblem, OrderListQuery } from '../admin-schemas.ts';
import { searchOrders } from '../admin-views.ts';
import { exportLinks } from './exports.ts';
import { modeText, STATE_LABELS, timeText } from './format.ts';
import { message } from './layout.ts';

/** POs per page: a laptop screen or two. */
const PAGE_SIZE = 50;

/** The fields of the search form, as the query string carries them. */
const FIELDS = ['q', 'buyer', 'state', 'flag', 'from', 'to'] as const;
type Fields = Record<(typeof FIELDS)[number], string>;

function fieldsOf(query: (name: string) => string | undefined): Fields {
  return Object.fromEntries(FIELDS.map((name) => [name, (query(name) ?? '').trim()])) as Fields;
}

function options(values: readonly { value: string; label: string }[], selected: string): SafeHtml[] {
  return values.map(
    (v) => html`<option value="${v.value}"${v.value === selected ? html` selected` : ''}>${v.label}</option>`,
  );
}

function searchForm(ctx: GatewayContext, fields: Fields): SafeHtml {
  const states = [
    { value: '', label: 'Any state' },
    ...ORDER_STATES.map((s) => ({ value: s, label: STATE_LABELS[s] ?? s })),
  ];
  const buyers = [
    { value: '', label: 'Any buyer' },
    ...ctx.config.buyers.map((b) => ({ value: b.id, label: b.name ?? b.id })),
  ];
  return html`<form class="search" method="get" action="/admin/ui/orders" role="search">
<div class="field"><label for="q">PO number or print order id</label><input id="q" name="q" type="search" value="${fields.q}"></div>
<div class="field"><label for="buyer">Buyer</label><select id="buyer" name="buyer">${options(buyers, fields.buyer)}</select></div>
<div class="field"><label for="state">State</label><select id="state" name="state">${options(states, fields.state)}</select></div>
<div class="field"><label for="flag">Flag</label><input id="flag" name="flag" value="${fields.flag}" size="18"></div>
<div class="field"><label for="from">Received from</label><input id="from" name="from" type="date" value="${fields.from}"></div>
<div class="field"><label for="to">Received until</label><input id="to" name="to" type="date" value="${fields.to}"></div>
<div class="field"><button class="primary" type="submit">Search</button></div>
</form>`;
}

function orderRows(orders: readonly PurchaseOrder[]): SafeHtml {
  const rows = orders.map(
    (o) => html`<tr>
<td><a href="/admin/ui/orders/${encodeURIComponent(o.id)}">${o.orderId}</a></td>
<td>${o.buyerId}</td><td>${modeText(o)}</td><td>${o.type}</td><td>${STATE_LABELS[o.state] ?? o.state}</td>
<td>${o.printOrderIds.join(', ') || '—'}</td><td>${o.flags.join(', ') || '—'}</td>
<td>${timeText(o.createdAt)}</td><td>${timeText(o.updatedAt)}</td></tr>`,
  );
  return html`<table><caption>Purchase orders, newest first</caption>
<thead><tr><th scope="col">PO number</th><th scope="col">Buyer</th><th scope="col">Mode and storefront</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Print orders</th><th scope="col">Flags</th><th scope="col">Received</th><th scope="col">Last change</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function nextLink(fields: Fields, cursor: string): SafeHtml {
  const params = new URLSearchParams({ ...fields, cursor });
  return html`<p><a class="button" href="/admin/ui/orders?${params.toString()}">Next page</a></p>`;
}

/** The list page's body: the search form, then a page of what matches (or why the search is wrong). */
export async function orderListBody(
  ctx: GatewayContext,
  query: (name: string) => string | undefined,
): Promise<SafeHtml> {
  const fields = fieldsOf(query);
  const form = html`${searchForm(ctx, fields)}${exportLinks(fields)}`;
  const parsed = OrderListQuery.safeParse({
    ...fields,
    limit: String(PAGE_SIZE),
    cursor: query('cursor'),
  });
  if (!parsed.success) return html`${form}${message('error', firstProblem(parsed.error))}`;
  const page = await searchOrders(ctx, parsed.data);
  const more = page.nextCursor === undefined ? '' : nextLink(fields, page.nextCursor);
  if (page.items.length === 0) {
    const why = fields.q === '' ? 'No purchase order matches.' : `No purchase order matches "${fields.q}".`;
    return html`${form}${message('notice', why)}${more}`;
  }
  return html`${form}${orderRows(page.items)}${more}`;
}
