/**
 * The console's overview: what needs an operator first (POs waiting, with why), then how the order flow
 * stands: POs by state, the oldest PO not yet a print order, documents still to deliver and dead letters,
 * the last background round. The figures are the ones `/metrics` reads (store.stats), so the page and the
 * monitoring never disagree.
 */
import { ORDER_STATES, type PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { html, type SafeHtml } from '../http/html.ts';
import { ageText, STATE_LABELS, timeText } from './format.ts';

/** How many waiting POs the overview lists; the PO list filtered by state shows them all. */
const WAITING_SHOWN = 50;

export interface OverviewInputs {
  /** When the last background round completed, as readiness judges it; and whether that is overdue. */
  backgroundRound(now: Date): Promise<{ overdue: boolean; lastCompletedAt: Date | undefined }>;
}

function waitingTable(orders: readonly PurchaseOrder[], now: Date): SafeHtml {
  if (orders.length === 0)
    return html`<p class="ok" role="status">No purchase order waits for an operator.</p>`;
  const rows = orders.map((o) => {
    const number = html`<a href="/admin/ui/orders/${encodeURIComponent(o.id)}">${o.orderId}</a>`;
    return html`<tr><td>${number}</td><td>${o.buyerId}</td><td>${o.lastError ?? '—'}</td><td>${o.flags.join(', ') || '—'}</td><td>${ageText(now, o.updatedAt)}</td></tr>`;
  });
  return html`<table><caption>Waiting for an operator (${orders.length}${orders.length === WAITING_SHOWN ? ' or more' : ''})</caption>
<thead><tr><th scope="col">PO number</th><th scope="col">Buyer</th><th scope="col">Reason</th><th scope="col">Flags</th><th scope="col">Waiting for</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function figure(label: string, value: string | number): SafeHtml {
  return html`<div><dt>${label}</dt><dd>${value}</dd></div>`;
}

/** The overview's body. */
export async function overviewBody(ctx: GatewayContext, inputs: OverviewInputs): Promise<SafeHtml> {
  const now = ctx.clock.now();
  const [stats, waiting, round] = await Promise.all([
    ctx.store.stats(now),
    ctx.store.orders.list({ state: 'needs_operator', limit: WAITING_SHOWN }),
    inputs.backgroundRound(now),
  ]);
  const byState = ORDER_STATES.map((state) => {
    const count = stats.ordersByState[state];
    const label = STATE_LABELS[state] ?? state;
    return html`<div><dt><a href="/admin/ui/orders?state=${state}">${label}</a></dt><dd>${count}</dd></div>`;
  });
  const backlog = stats.outbox.pending + stats.outbox.sending;
  const roundText =
    round.lastCompletedAt === undefined
      ? 'none yet'
      : `${ageText(now, round.lastCompletedAt)} ago (${timeText(round.lastCompletedAt)})`;
  return html`<h2>Needs an operator</h2>
${waitingTable(waiting.items, now)}
<h2>Purchase orders by state</h2>
<dl class="figures">${byState}</dl>
<h2>Order flow</h2>
<dl class="figures">
${figure('Oldest PO not yet a print order', stats.oldestUnorderedAt === undefined ? 'none' : ageText(now, stats.oldestUnorderedAt))}
${figure('Documents to buyers still to deliver', backlog)}
${figure('Oldest undelivered document', stats.outbox.oldestPendingAt === undefined ? 'none' : ageText(now, stats.outbox.oldestPendingAt))}
${figure('Dead letters (documents)', stats.outbox.dead)}
${figure('Dead jobs', stats.jobsByState.dead)}
${figure('Last background round', roundText)}
</dl>
${round.overdue ? html`<p class="error" role="alert">The background round is overdue: POs, webhooks and documents to buyers are not being processed.</p>` : ''}`;
}
