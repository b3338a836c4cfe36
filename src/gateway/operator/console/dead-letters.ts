/**
 * `GET /admin/ui/dead-letters`: the documents to buyers and the background jobs the gateway gave up on,
 * with their PO, kind, destination, last error and attempts (the admin API's `GET /admin/dead-letters`). A
 * dead document is moved back to the outbox from its PO's page action (the same bytes are sent again); a
 * dead job runs again from here (`POST /admin/ui/jobs/:id/revive`), except a PO's processing job, which
 * the PO's own Retry brings back with the checks that keep an order from being printed twice.
 */
import type { Context, Hono } from 'hono';
import type { Job, OutboxMessage, PurchaseOrder } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import { GatewayError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { PROCESS_ORDER } from '../../orders/process-order.ts';
import { confirmationBody, messageActionForm } from './actions.ts';
import { timeText } from './format.ts';
import { message, sendConsolePage } from './layout.ts';
import { orderPath } from './order-page.ts';
import type { ConsoleEnv } from './session.ts';

const DEAD_LETTERS_PATH = '/admin/ui/dead-letters';
/** Dead records listed at most, of each kind; the admin API's dead-letters answer reads as many. */
const LISTED = 500;

/** The PO a dead job works for, from its payload (`{ poId }` for the order jobs). */
function poIdOf(job: Job): string | undefined {
  const { payload } = job;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const { poId } = payload as { poId?: unknown };
  return typeof poId === 'string' ? poId : undefined;
}

function poLink(orders: ReadonlyMap<string, PurchaseOrder>, poId: string | undefined): SafeHtml {
  const order = poId === undefined ? undefined : orders.get(poId);
  if (order === undefined) return html`${poId ?? '—'}`;
  return html`<a href="${orderPath(order.id)}">${order.orderId}</a> (${order.buyerId})`;
}

function documentsTable(
  messages: readonly OutboxMessage[],
  orders: ReadonlyMap<string, PurchaseOrder>,
  csrf: string,
): SafeHtml {
  if (messages.length === 0) return html`<p class="ok" role="status">No dead document.</p>`;
  const rows = messages.map((m) => {
    const order = orders.get(m.poId);
    return html`<tr><td>${poLink(orders, m.poId)}</td><td>${m.kind}</td><td>${m.dedupeKey}</td><td>${m.url}</td><td>${m.attempts}</td><td>${m.lastError ?? '—'}</td><td>${timeText(m.updatedAt)}</td><td>${order === undefined ? '' : messageActionForm(order, m, csrf)}</td></tr>`;
  });
  return html`<table><caption>Documents to buyers given up (${messages.length})</caption>
<thead><tr><th scope="col">Purchase order</th><th scope="col">Document</th><th scope="col">Key</th><th scope="col">Destination</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Given up</th><th scope="col">Action</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function jobsTable(jobs: readonly Job[], orders: ReadonlyMap<string, PurchaseOrder>, csrf: string): SafeHtml {
  if (jobs.length === 0) return html`<p class="ok" role="status">No dead job.</p>`;
  const rows = jobs.map((job) => {
    const poId = poIdOf(job);
    const action =
      job.kind === PROCESS_ORDER && poId !== undefined
        ? html`<a href="${orderPath(poId)}">Retry from the PO's page</a>`
        : html`<form method="post" action="/admin/ui/jobs/${encodeURIComponent(job.id)}/revive"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Run again…</button></form>`;
    return html`<tr><td>${poLink(orders, poId)}</td><td>${job.kind}</td><td>${job.key}</td><td>${job.attempts} of ${job.maxAttempts}</td><td>${job.lastError ?? '—'}</td><td>${timeText(job.updatedAt)}</td><td>${action}</td></tr>`;
  });
  return html`<table><caption>Background jobs given up (${jobs.length})</caption>
<thead><tr><th scope="col">Purchase order</th><th scope="col">Job</th><th scope="col">Key</th><th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Given up</th><th scope="col">Action</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

async function deadLettersBody(ctx: GatewayContext, csrf: string, notice?: SafeHtml): Promise<SafeHtml> {
  const messages = (await ctx.store.outbox.list({ state: 'dead', limit: LISTED })).items;
  const jobs = (await ctx.store.jobs.list({ state: 'dead', limit: LISTED })).items;
  const poIds = new Set([...messages.map((m) => m.poId), ...jobs.flatMap((j) => poIdOf(j) ?? [])]);
  const orders = new Map<string, PurchaseOrder>();
  for (const id of poIds) {
    const order = await ctx.store.orders.get(id);
    if (order !== undefined) orders.set(id, order);
  }
  return html`${notice ?? ''}<p>What the gateway stopped retrying. Fix the cause first (the buyer's endpoint or credentials, the print service), then send or run it again.</p>
<h2>Documents</h2>${documentsTable(messages, orders, csrf)}
<h2>Jobs</h2>${jobsTable(jobs, orders, csrf)}`;
}

async function reviveJob(ctx: GatewayContext, c: Context<ConsoleEnv>): Promise<Response> {
  const job = await ctx.store.jobs.get(c.req.param('id') ?? '');
  if (job === undefined) throw new GatewayError('not_found', 'There is no such job.');
  const { csrf } = c.get('session');
  if (job.state !== 'dead' || job.kind === PROCESS_ORDER) {
    const why =
      job.state !== 'dead'
        ? `The ${job.kind} job ${job.key} is ${job.state}; only a dead job is run again.`
        : `The ${job.kind} job ${job.key} is a purchase order's processing: retry it from the PO's page.`;
    return sendConsolePage(
      c,
      {
        title: 'Dead letters',
        body: await deadLettersBody(ctx, csrf, message('error', why)),
        signedIn: { csrf, section: 'overview' },
      },
      409,
    );
  }
  if (c.get('form').confirmed !== 'yes') {
    const question = `Run the ${job.kind} job ${job.key} again? It is queued now, its attempts counted afresh, and runs with the next background round.`;
    return sendConsolePage(c, {
      title: 'Confirm the action',
      body: confirmationBody(question, c.req.path, c.get('form'), DEAD_LETTERS_PATH),
      signedIn: { csrf, section: 'overview' },
    });
  }
  await ctx.store.jobs.resurrect(job.id);
  ctx.logger.info('dead job run again by an operator', {
    job: job.id,
    kind: job.kind,
    session: c.get('session').sid,
  });
  return c.redirect(`${DEAD_LETTERS_PATH}?done=job`, 303);
}

export function mountDeadLetterRoutes(app: Hono<ConsoleEnv>, ctx: GatewayContext): void {
  app.get('/ui/dead-letters', async (c) => {
    const { csrf } = c.get('session');
    const done =
      c.req.query('done') === 'job'
        ? message('ok', 'The job is queued again; it runs with the next background round.')
        : undefined;
    return sendConsolePage(c, {
      title: 'Dead letters',
      body: await deadLettersBody(ctx, csrf, done),
      signedIn: { csrf, section: 'overview' },
    });
  });
  app.post('/ui/jobs/:id/revive', (c) => reviveJob(ctx, c));
}
