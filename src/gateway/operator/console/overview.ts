/**
 * The console's overview: what needs an operator first (POs waiting, the longest waiting at the top, with
 * why), then how the order flow stands: POs by state, the oldest PO not yet a print order, documents still
 * to deliver and dead letters, the last background round, print-service failures of the last hour. The
 * figures are `GET /admin/overview`'s (`adminOverview`), so the page and the API never disagree.
 */
import { ORDER_STATES } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { adminOverview } from '../admin-overview.ts';
import type { Overview } from '../admin-schemas.ts';
import { exportLinks } from './exports.ts';
import { ageText, STATE_LABELS, timeText } from './format.ts';

export interface OverviewInputs {
  /** When the last background round completed, as readiness judges it; and whether that is overdue. */
  backgroundRound(now: Date): Promise<{ overdue: boolean; lastCompletedAt: Date | undefined }>;
}

function waitingTable(waiting: Overview['waitingForOperator'], now: Date): SafeHtml {
  if (waiting.length === 0) {
    return html`<p class="ok" role="status">No purchase order waits for an operator.</p>`;
  }
  const rows = waiting.map((o) => {
    const number = html`<a href="/admin/ui/orders/${encodeURIComponent(o.id)}">${o.orderId}</a>`;
    return html`<tr><td>${number}</td><td>${o.buyerId}</td><td>${o.reason ?? '—'}</td><td>${o.flags.join(', ') || '—'}</td><td>${ageText(now, o.since)}</td></tr>`;
  });
  return html`<table><caption>Waiting for an operator, longest first (${waiting.length})</caption>
<thead><tr><th scope="col">PO number</th><th scope="col">Buyer</th><th scope="col">Reason</th><th scope="col">Flags</th><th scope="col">Waiting for</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function figure(label: string, value: string | number, href?: string): SafeHtml {
  const shown = href === undefined ? html`${value}` : html`<a href="${href}">${value}</a>`;
  return html`<div><dt>${label}</dt><dd>${shown}</dd></div>`;
}

/** The overview's body. */
export async function overviewBody(ctx: GatewayContext, inputs: OverviewInputs): Promise<SafeHtml> {
  const now = ctx.clock.now();
  const round = await inputs.backgroundRound(now);
  const overview = await adminOverview(ctx, round.lastCompletedAt);
  const byState = ORDER_STATES.map(
    (state) =>
      html`<div><dt><a href="/admin/ui/orders?state=${state}">${STATE_LABELS[state] ?? state}</a></dt><dd>${overview.ordersByState[state] ?? 0}</dd></div>`,
  );
  const { outbox } = overview;
  const last = overview.lastBackgroundRoundAt ?? undefined;
  const roundText = last === undefined ? 'none yet' : `${ageText(now, last)} ago (${timeText(last)})`;
  const oldest = overview.oldestUnprocessedAt;
  return html`<h2>Needs an operator</h2>
${waitingTable(overview.waitingForOperator, now)}
<h2>Purchase orders by state</h2>
<dl class="figures">${byState}</dl>
<h2>Order flow</h2>
<dl class="figures">
${figure('Oldest PO not yet a print order', oldest === null ? 'none' : ageText(now, oldest))}
${figure('Documents to buyers still to deliver', outbox.pending + outbox.sending)}
${figure('Oldest undelivered document', outbox.oldestPendingAt === null ? 'none' : ageText(now, outbox.oldestPendingAt))}
${figure('Dead letters (documents)', outbox.dead, '/admin/ui/dead-letters')}
${figure('Dead jobs', overview.deadJobs, '/admin/ui/dead-letters')}
${figure('Last background round', roundText)}
${figure('Print-service failures, last hour', overview.printApiFailuresLastHour)}
</dl>
${round.overdue ? html`<p class="error" role="alert">The background round is overdue: POs, webhooks and documents to buyers are not being processed.</p>` : ''}
<p><a href="/admin/ui/refusals">Refusals log</a>: every punch-out and buyer document the gateway refused, with the answer it sent.</p>
<h2>Exports</h2>${exportLinks({ buyer: '', from: '', to: '' })}
<p class="muted">For one buyer or some days, filter the <a href="/admin/ui/orders">purchase orders</a> and use the links there.</p>`;
}
