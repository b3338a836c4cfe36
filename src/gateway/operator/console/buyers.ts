/**
 * `GET /admin/ui/buyers`: each configured buyer as the gateway will treat it — protocol, storefront, how
 * users are mapped, where order-status documents and invoices go — with its punch-outs of the last day,
 * the failed authentications counted against it, what to give its procurement team to connect (with a copy
 * button) and its catalog for Level-2 punch-out (catalog-export.ts), its test punch-out, its latest refusals and its latest POs. Settings and counts only, never a
 * secret: SharedSecrets and passwords stay in the config. Each buyer's summary of the last 12 months is
 * buyer-summary.ts's.
 */
import type { GatewayContext } from '../../context.ts';
import type { ResolvedBuyer } from '../../deps.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { buyerSummary } from './buyer-summary.ts';
import { catalogExportLinks } from './catalog-export.ts';
import { STATE_LABELS, timeText } from './format.ts';
import { onboardingSection } from './onboarding.ts';
import { orderPath } from './order-page.ts';
import { latestRefusals } from './refusals.ts';
import { testPunchoutLink } from './test-punchout.ts';

const DAY_MS = 86_400_000;

/** The latest POs shown per buyer; the PO list filtered by buyer has them all. */
const RECENT_POS = 5;

function settings(ctx: GatewayContext, buyer: ResolvedBuyer): SafeHtml {
  const protocol = ctx.protocolOf(buyer);
  return html`<dl class="facts">
<dt>Protocol</dt><dd>${protocol.label}</dd>
<dt>Storefront</dt><dd>${buyer.storefront}</dd>
<dt>Users</dt><dd>${buyer.userMode}</dd>
${protocol.consoleFacts(buyer)}
<dt>Invoices</dt><dd>${buyer.invoices.send}</dd>
<dt>PO deviations</dt><dd>${buyer.poDeviations}</dd>
<dt>Lines it cannot produce</dt><dd>${buyer.unknownLines}</dd>
</dl>`;
}

/**
 * The buyer's recent traffic: punch-outs begun in the last 24 hours and the failed authentications the
 * throttle counts against the buyer now, both from the store, so every instance's.
 */
async function recentActivity(ctx: GatewayContext, buyer: ResolvedBuyer): Promise<SafeHtml> {
  const since = new Date(ctx.clock.now().getTime() - DAY_MS);
  const punchOuts = await ctx.store.sessions.countByBuyerSince(buyer.id, since);
  const throttle = await ctx.secretThrottle.statusOf(buyer.id);
  const minutes = Math.round(throttle.windowSeconds / 60);
  const failures = html`${throttle.failures} in the last ${minutes} minutes (locked at ${throttle.maxFailures}), counted by every instance`;
  const locked =
    throttle.lockedForSeconds > 0
      ? html`<dd><strong>Locked</strong>: punch-outs from addresses off its allow-list refused for another ${throttle.lockedForSeconds} seconds</dd>`
      : '';
  return html`<dl class="facts">
<dt>Punch-outs, last 24 hours</dt><dd>${punchOuts}</dd>
<dt>Failed authentications</dt><dd>${failures}</dd>${locked}
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
      html`<h2>${title}</h2>${settings(ctx, buyer)}${await recentActivity(ctx, buyer)}${onboardingSection(ctx, buyer)}${catalogExportLinks(buyer)}${testPunchoutLink(buyer)}${await buyerSummary(ctx, buyer)}${await latestRefusals(ctx, buyer)}${await recentOrders(ctx, buyer)}`,
    );
  }
  return html`${sections}`;
}
