/**
 * `GET /admin/ui/refusals[?buyer&from&to&cursor]`: the refusals log (the admin API's `GET /admin/refusals`),
 * newest first, searchable by buyer and time. Each entry shows what the buyer was answered and, folded, the
 * document as it arrived with its secrets blanked, escaped like every value on a console page. The Buyers
 * page shows each buyer's latest entries (`latestRefusals`) and links here for the rest.
 */
import type { Hono } from 'hono';
import type { Refusal } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import type { ResolvedBuyer } from '../../deps.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { firstProblem, RefusalListQuery } from '../admin-schemas.ts';
import { refusalFilter } from '../admin-views.ts';
import { timeText } from './format.ts';
import { message, sendConsolePage } from './layout.ts';
import type { ConsoleEnv } from './session.ts';

export const REFUSALS_PATH = '/admin/ui/refusals';

/** Entries per page of the refusals page. */
const PAGE_SIZE = 50;

/** A buyer's latest refusals on the Buyers page. */
const LATEST = 5;

/** The refusals page searched for one buyer. */
export function refusalsOfBuyerPath(buyerId: string): string {
  return `${REFUSALS_PATH}?buyer=${encodeURIComponent(buyerId)}`;
}

interface Fields {
  buyer: string;
  from: string;
  to: string;
}

function searchForm(ctx: GatewayContext, fields: Fields): SafeHtml {
  const options = ctx.config.buyers.map(
    (b) =>
      html`<option value="${b.id}"${b.id === fields.buyer ? html` selected` : ''}>${b.name ?? b.id}</option>`,
  );
  return html`<form class="search" method="get" action="${REFUSALS_PATH}" role="search">
<div class="field"><label for="buyer">Buyer</label><select id="buyer" name="buyer"><option value="">Any (unknown ones too)</option>${options}</select></div>
<div class="field"><label for="from">Refused from</label><input id="from" name="from" type="date" value="${fields.from}"></div>
<div class="field"><label for="to">Refused until</label><input id="to" name="to" type="date" value="${fields.to}"></div>
<button type="submit" class="primary">Search</button>
</form>`;
}

function documentText(refusal: Refusal): SafeHtml {
  if (refusal.document === '') {
    return html`<span class="muted">Not kept (${refusal.documentBytes === 0 ? 'refused unread or recorded before the log kept documents' : `${refusal.documentBytes} bytes, refused unread`})</span>`;
  }
  return html`<details><summary>Document as received (${refusal.documentBytes} bytes; secrets blanked)</summary><pre>${refusal.document}</pre></details>`;
}

/** One table of refusals; `withBuyer` adds the buyer column (the full log, not one buyer's). */
function refusalRows(refusals: readonly Refusal[], caption: string, withBuyer: boolean): SafeHtml {
  const rows = refusals.map(
    (r) =>
      html`<tr><td>${timeText(r.createdAt)}</td>${withBuyer ? html`<td>${r.buyerId ?? 'unknown'}</td>` : ''}<td>${r.channel === 'cxml' ? 'cXML' : 'OCI'} ${r.documentType}${r.payloadId === undefined ? '' : html`<br><span class="muted">${r.payloadId}</span>`}</td><td>${r.clientAddress}</td><td><strong>${r.status}</strong> ${r.answer}${documentText(r)}</td></tr>`,
  );
  return html`<table><caption>${caption}</caption>
<thead><tr><th scope="col">Refused</th>${withBuyer ? html`<th scope="col">Buyer</th>` : ''}<th scope="col">Request</th><th scope="col">From address</th><th scope="col">Answer sent</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The refusals page's body: the search form, then a page of entries (or why the search is wrong). */
export async function refusalsBody(
  ctx: GatewayContext,
  query: (name: string) => string | undefined,
): Promise<SafeHtml> {
  const fields: Fields = { buyer: query('buyer') ?? '', from: query('from') ?? '', to: query('to') ?? '' };
  const form = searchForm(ctx, fields);
  const parsed = RefusalListQuery.safeParse({ ...fields, limit: String(PAGE_SIZE), cursor: query('cursor') });
  if (!parsed.success) return html`${form}${message('error', firstProblem(parsed.error))}`;
  const page = await ctx.store.refusals.list(refusalFilter(parsed.data));
  const intro = html`<p>Every punch-out, purchase order and other document the gateway refused, newest first, with the answer the buyer's system got. A buyer is "unknown" when the request named none configured (a wrong From identity or OCI address). Kept ${ctx.config.housekeeping.refusalDays} days (<code>housekeeping.refusalDays</code>).</p>`;
  if (page.items.length === 0) return html`${intro}${form}${message('notice', 'No refusal matches.')}`;
  const next =
    page.nextCursor === undefined
      ? ''
      : html`<p><a class="button" href="${REFUSALS_PATH}?${new URLSearchParams({ ...fields, cursor: page.nextCursor }).toString()}">Older refusals</a></p>`;
  return html`${intro}${form}${refusalRows(page.items, 'Refusals, newest first', true)}${next}`;
}

/** The Buyers page's section: the buyer's latest refusals, and the way to all of them. */
export async function latestRefusals(ctx: GatewayContext, buyer: ResolvedBuyer): Promise<SafeHtml> {
  const page = await ctx.store.refusals.list({ buyerId: buyer.id, limit: LATEST });
  const name = buyer.name ?? buyer.id;
  const all = html`<p><a href="${refusalsOfBuyerPath(buyer.id)}">All refusals of ${name}</a> · <a href="${REFUSALS_PATH}">Refusals of unknown senders</a></p>`;
  if (page.items.length === 0) return html`<p class="muted">Nothing of ${name} refused lately.</p>${all}`;
  return html`${refusalRows(page.items, `Latest refusals of ${name}`, false)}${all}`;
}

/** Mounted before the console's catch-all 404. */
export function mountRefusalRoutes(app: Hono<ConsoleEnv>, ctx: GatewayContext): void {
  app.get('/ui/refusals', async (c) =>
    sendConsolePage(c, {
      title: 'Refusals',
      body: await refusalsBody(ctx, (n) => c.req.query(n)),
      signedIn: { csrf: c.get('session').csrf, section: 'refusals' },
    }),
  );
}
