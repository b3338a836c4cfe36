/**
 * The Buyers page's test punch-out, `GET|POST /admin/ui/buyers/:id/test`: the buyer simulator run against
 * this buyer's live settings (the resolved config the gateway authenticates with), through the runtime's
 * hook (`GatewayDeps.testPunchout`; Node loads `@punchgate/sandbox` for it) and the gateway app's own fetch.
 * The GET asks; the POST (with the session's CSRF token, logged like every console POST) runs it and shows
 * each step: the setup's Status (or the OCI punch-in's answer), the start page, the catalog page, the
 * session cancelled again, and the time taken, or the gateway's exact refusal. Without a hook (Workers) the
 * page says in one line which package to install.
 */
import type { Hono } from 'hono';
import type { GatewayContext } from '../../context.ts';
import type { ResolvedBuyer, TestPunchoutOutcome } from '../../deps.ts';
import { GatewayError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { message, sendConsolePage } from './layout.ts';
import type { ConsoleEnv } from './session.ts';

/** The package the runtime loads for the test punch-out. */
const TEST_PUNCHOUT_PACKAGE = '@punchgate/sandbox';

const NO_HOOK = `The test punch-out runs the buyer simulator, which this runtime does not have: run the gateway on Node with ${TEST_PUNCHOUT_PACKAGE} installed beside it (npm install ${TEST_PUNCHOUT_PACKAGE}).`;

function testPunchoutPath(buyerId: string): string {
  return `/admin/ui/buyers/${encodeURIComponent(buyerId)}/test`;
}

/** The Buyers page's link to a buyer's test punch-out. */
export function testPunchoutLink(buyer: ResolvedBuyer): SafeHtml {
  return html`<p><a href="${testPunchoutPath(buyer.id)}">Test punch-out of ${buyer.name ?? buyer.id}…</a></p>`;
}

function buyerOr404(ctx: GatewayContext, id: string): ResolvedBuyer {
  const buyer = ctx.buyers.byId(id);
  if (buyer === undefined) throw new GatewayError('not_found', 'There is no such buyer.');
  return buyer;
}

function titleOf(buyer: ResolvedBuyer): string {
  return `Test punch-out: ${buyer.name ?? buyer.id}`;
}

function askForm(ctx: GatewayContext, buyer: ResolvedBuyer, csrf: string): SafeHtml {
  return html`<p>Punches out as ${ctx.protocolOf(buyer).testPunchoutAs} from the live configuration, follows the start page to the catalog, then cancels the session it opened (it shows as a cancelled punch-out of this buyer). Nothing is sent to the buyer.</p>
<form method="post" action="${testPunchoutPath(buyer.id)}"><input type="hidden" name="csrf" value="${csrf}"><button type="submit">Run the test punch-out</button></form>`;
}

function report(outcome: Extract<TestPunchoutOutcome, { ran: true }>): SafeHtml {
  const rows = outcome.steps.map(
    (s) =>
      html`<tr><th scope="row">${s.name}</th><td>${s.ok ? 'ok' : 'failed'}</td><td>${s.detail}</td></tr>`,
  );
  const verdict = outcome.ok
    ? message('ok', `The test punch-out succeeded in ${outcome.elapsedMs} ms.`)
    : message('error', `The test punch-out failed after ${outcome.elapsedMs} ms.`);
  return html`${verdict}<table><caption>Steps</caption>
<thead><tr><th scope="col">Step</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Mounted before the console's catch-all 404. */
export function mountTestPunchoutRoutes(
  app: Hono<ConsoleEnv>,
  ctx: GatewayContext,
  selfFetch: typeof fetch | undefined,
): void {
  app.get('/ui/buyers/:id/test', (c) => {
    const buyer = buyerOr404(ctx, c.req.param('id'));
    const { csrf } = c.get('session');
    const body = ctx.testPunchout === undefined ? message('notice', NO_HOOK) : askForm(ctx, buyer, csrf);
    return sendConsolePage(c, { title: titleOf(buyer), body, signedIn: { csrf, section: 'buyers' } });
  });

  app.post('/ui/buyers/:id/test', async (c) => {
    const buyer = buyerOr404(ctx, c.req.param('id'));
    const { csrf } = c.get('session');
    let body: SafeHtml;
    if (ctx.testPunchout === undefined) {
      body = message('notice', NO_HOOK);
    } else {
      const outcome = await ctx.testPunchout({
        buyer,
        supplierCredentials: ctx.config.supplier.credentials,
        gatewayUrl: ctx.publicUrl,
        fetch: selfFetch ?? ctx.fetch,
      });
      if (outcome.ran) {
        ctx.logger.info('admin console test punch-out', {
          buyer: buyer.id,
          ok: outcome.ok,
          elapsedMs: outcome.elapsedMs,
        });
        body = html`${report(outcome)}${askForm(ctx, buyer, csrf)}`;
      } else {
        body = message('notice', outcome.reason);
      }
    }
    const back = html`<p><a href="/admin/ui/buyers">Back to the buyers</a></p>`;
    return sendConsolePage(c, {
      title: titleOf(buyer),
      body: html`${body}${back}`,
      signedIn: { csrf, section: 'buyers' },
    });
  });
}
