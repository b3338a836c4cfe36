/**
 * `GET /admin/ui/buyers`: each configured buyer as the gateway will treat it — protocol, storefront, how
 * users are mapped, where order-status documents and invoices go — with its latest POs. Settings only,
 * never a secret: SharedSecrets, passwords and credentials stay in the config.
 */
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { html, type SafeHtml } from '../http/html.ts';
import { STATE_LABELS, timeText } from './format.ts';
import { orderPath } from './order-page.ts';
import { testPunchoutLink } from './test-punchout.ts';

/** The latest POs shown per buyer; the PO list filtered by buyer has them all. */
const RECENT_POS = 5;

function settings(buyer: ResolvedBuyer): SafeHtml {
  const protocol =
    buyer.protocol === 'cxml'
      ? html`<dt>Order status to</dt><dd>${buyer.orderStatusUrl ?? 'not sent (no orderStatusUrl)'}</dd>`
      : html`<dt>OCI user name</dt><dd>${buyer.username}</dd>`;
  return html`<dl class="facts">
<dt>Protocol</dt><dd>${buyer.protocol === 'cxml' ? 'cXML' : 'SAP OCI'}</dd>
<dt>Storefront</dt><dd>${buyer.storefront}</dd>
<dt>Users</dt><dd>${buyer.userMode}</dd>
${protocol}
<dt>Invoices</dt><dd>${buyer.invoices.send}</dd>
<dt>PO deviations</dt><dd>${buyer.poDeviations}</dd>
</dl>`;
}

async function recentOrders(ctx: GatewayContext, buyer: ResolvedBuyer): Promise<SafeHtml> {
  const page = await ctx.store.orders.list({ buyerId: buyer.id, limit: RECENT_POS });
  if (page.items.length === 0) return html`<p class="muted">No purchase order yet.</p>`;
  const rows = page.items.map(
    (o) =>
      html`<tr><td><a href="${orderPath(o.id)}">${o.orderId}</a></td><td>${STATE_LABELS[o.state] ?? o.state}</td><td>${timeText(o.createdAt)}</td></tr>`,
  );
  const all = `/admin/ui/orders?buyer=${encodeURIComponent(buyer.id)}`;
  return html`<table><caption>Latest purchase orders of ${buyer.name ?? buyer.id}</caption>
<thead><tr><th scope="col">PO number</th><th scope="col">State</th><th scope="col">Received</th></tr></thead>
<tbody>${rows}</tbody></table><p><a href="${all}">All purchase orders of ${buyer.name ?? buyer.id}</a></p>`;
}

export async function buyersBody(ctx: GatewayContext): Promise<SafeHtml> {
  const sections: SafeHtml[] = [];
  for (const buyer of ctx.config.buyers) {
    const title = buyer.name === undefined ? buyer.id : `${buyer.name} (${buyer.id})`;
    sections.push(
      html`<h2>${title}</h2>${settings(buyer)}${testPunchoutLink(buyer)}${await recentOrders(ctx, buyer)}`,
    );
  }
  return html`${sections}`;
}
