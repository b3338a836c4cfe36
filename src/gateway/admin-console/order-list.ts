/**
 * `GET /admin/ui/orders`: the purchase orders, newest first, a page at a time (the store's cursor), filtered
 * by state and buyer; or the POs a search names: a PO number (the buyer's orderID, looked up per configured
 * buyer) or a print order id (looked up per configured storefront). Both are exact lookups on the store's
 * indexes, so a search costs a handful of reads however many POs there are.
 */
import { ORDER_STATES, type OrderState, type PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { html, type SafeHtml } from '../http/html.ts';
import { STATE_LABELS, timeText } from './format.ts';
import { message } from './layout.ts';

/** POs per page: a laptop screen or two. */
const PAGE_SIZE = 50;

export interface OrderQuery {
  /** A PO number or a print order id. */
  q: string;
  state?: OrderState;
  buyer: string;
  cursor?: string;
}

export function orderQuery(query: (name: string) => string | undefined): OrderQuery {
  const state = query('state');
  const cursor = query('cursor');
  return {
    q: (query('q') ?? '').trim(),
    ...(state !== undefined &&
      (ORDER_STATES as readonly string[]).includes(state) && { state: state as OrderState }),
    buyer: (query('buyer') ?? '').trim(),
    ...(cursor !== undefined && cursor !== '' && { cursor }),
  };
}

/** The POs whose number is `q` (one per buyer at most), and the PO of print order `q` if it is a number. */
async function searchOrders(ctx: GatewayContext, q: string, buyer: string): Promise<PurchaseOrder[]> {
  const buyers = ctx.config.buyers.filter((b) => buyer === '' || b.id === buyer);
  const found = new Map<string, PurchaseOrder>();
  for (const b of buyers) {
    const order = await ctx.store.orders.getByOrderId(b.id, q);
    if (order !== undefined) found.set(order.id, order);
  }
  if (/^\d{1,15}$/.test(q)) {
    for (const storefront of ctx.config.storefronts) {
      const tracked = await ctx.store.printOrders.get(storefront.id, Number(q));
      const order = tracked === undefined ? undefined : await ctx.store.orders.get(tracked.poId);
      if (order !== undefined && (buyer === '' || order.buyerId === buyer)) found.set(order.id, order);
    }
  }
  return [...found.values()];
}

function options(
  values: readonly { value: string; label: string }[],
  selected: string | undefined,
): SafeHtml[] {
  return values.map(
    (v) =>
      html`<option value="${v.value}"${v.value === (selected ?? '') ? html` selected` : ''}>${v.label}</option>`,
  );
}

function searchForm(ctx: GatewayContext, query: OrderQuery): SafeHtml {
  const states = [
    { value: '', label: 'Any state' },
    ...ORDER_STATES.map((s) => ({ value: s, label: STATE_LABELS[s] ?? s })),
  ];
  const buyers = [
    { value: '', label: 'Any buyer' },
    ...ctx.config.buyers.map((b) => ({ value: b.id, label: b.name ?? b.id })),
  ];
  return html`<form class="search" method="get" action="/admin/ui/orders" role="search">
<div class="field"><label for="q">PO number or print order id</label><input id="q" name="q" type="search" value="${query.q}"></div>
<div class="field"><label for="buyer">Buyer</label><select id="buyer" name="buyer">${options(buyers, query.buyer)}</select></div>
<div class="field"><label for="state">State</label><select id="state" name="state">${options(states, query.state)}</select></div>
<div class="field"><button class="primary" type="submit">Search</button></div>
</form>`;
}

function orderRows(orders: readonly PurchaseOrder[]): SafeHtml {
  const rows = orders.map(
    (o) => html`<tr>
<td><a href="/admin/ui/orders/${encodeURIComponent(o.id)}">${o.orderId}</a></td>
<td>${o.buyerId}</td><td>${o.type}</td><td>${STATE_LABELS[o.state] ?? o.state}</td>
<td>${o.printOrderIds.join(', ') || '—'}</td><td>${o.flags.join(', ') || '—'}</td>
<td>${timeText(o.createdAt)}</td><td>${timeText(o.updatedAt)}</td></tr>`,
  );
  return html`<table><caption>Purchase orders</caption>
<thead><tr><th scope="col">PO number</th><th scope="col">Buyer</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Print orders</th><th scope="col">Flags</th><th scope="col">Received</th><th scope="col">Last change</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function nextLink(query: OrderQuery, cursor: string): SafeHtml {
  const params = new URLSearchParams({ buyer: query.buyer, state: query.state ?? '', cursor });
  return html`<p><a class="button" href="/admin/ui/orders?${params.toString()}">Next page</a></p>`;
}

/** The list page's body: the search form, then the search's hits or the filtered page. */
export async function orderListBody(ctx: GatewayContext, query: OrderQuery): Promise<SafeHtml> {
  const form = searchForm(ctx, query);
  if (query.q !== '') {
    const hits = (await searchOrders(ctx, query.q, query.buyer)).filter(
      (o) => query.state === undefined || o.state === query.state,
    );
    if (hits.length === 0) {
      return html`${form}${message('notice', `No purchase order has the PO number or print order id "${query.q}".`)}`;
    }
    return html`${form}${orderRows(hits)}`;
  }
  const page = await ctx.store.orders.list({
    limit: PAGE_SIZE,
    ...(query.state !== undefined && { state: query.state }),
    ...(query.buyer !== '' && { buyerId: query.buyer }),
    ...(query.cursor !== undefined && { cursor: query.cursor }),
  });
  if (page.items.length === 0) return html`${form}${message('notice', 'No purchase order matches.')}`;
  return html`${form}${orderRows(page.items)}${page.nextCursor === undefined ? '' : nextLink(query, page.nextCursor)}`;
}
