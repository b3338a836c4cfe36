/**
 * The operator console under `/admin/`: server-rendered pages over the same store and the same service
 * functions as the JSON admin API (`../admin-routes.ts`), which keeps its paths, answers and bearer
 * token. Console pages have paths of their own: `/admin/` (the overview, or the sign-in form) and
 * `/admin/ui/…`. Mounted before the API, so these paths never reach the API's bearer-token check.
 *
 * Every page but the sign-in form needs a session cookie; every POST but the sign-in needs the session's
 * CSRF token (403, nothing changed, otherwise); every page carries the console's CSP (no script but the
 * Buyers page's copy buttons', by hash; `frame-ancestors 'none'`) and `no-store`. Each POST is written to the log as the API's audit trail does.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { PurchaseOrder } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import { ERROR_ANSWERS, GatewayError, logFailure, publicMessage, toGatewayError } from '../../http/errors.ts';
import { requestIdOf } from '../../http/request-id.ts';
import { attachmentResponse } from '../attachment-download.ts';
import { type AuditTrailOptions, auditTrail } from '../audit-trail.ts';
import { mountActionRoutes } from './action-routes.ts';
import { mountDeadLetterRoutes } from './dead-letters.ts';
import { DONE_TEXT } from './actions.ts';
import { buyersBody } from './buyers.ts';
import { mountCatalogExportRoutes } from './catalog-export.ts';
import { documentPage } from './document-page.ts';
import { mountExportRoutes } from './exports.ts';
import { message, sendConsolePage } from './layout.ts';
import { orderListBody } from './order-list.ts';
import { orderPageBody } from './order-page.ts';
import { type OverviewInputs, overviewBody } from './overview.ts';
import { mountRefusalRoutes } from './refusals.ts';
import type { ConsoleEnv, ConsoleSession } from './session.ts';
import { checkedForm, sendSignedOut, sendSignIn, sessionOf, signIn, signOut } from './sign-in.ts';
import { mountTestPunchoutRoutes } from './test-punchout.ts';

/** The statuses a console error page is sent with; anything else is shown as a 500. */
const ERROR_STATUSES = [400, 403, 404, 409, 413, 429, 502, 503] as const;

/**
 * Each console POST in the log with how it ended, the session that made it and the address, by the API's
 * audit trail; never a form field (the sign-in's carries the token).
 */
const CONSOLE_AUDIT: AuditTrailOptions = {
  methods: ['POST'],
  refused: (status) => status >= 400,
  message: 'admin console action',
  refusedMessage: 'admin console action refused',
  fields: (c) => ({ session: (c.get('session') as ConsoleSession | undefined)?.sid ?? null }),
};

/** Pages need a session; POSTs need one and its CSRF token, the form then at `c.get('form')`. */
function requireSession(ctx: GatewayContext): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const { session, expired } = await sessionOf(ctx, c);
    if (c.req.method === 'POST') {
      const form = session === undefined ? undefined : await checkedForm(c, session);
      if (session === undefined || form === undefined) {
        return sendConsolePage(
          c,
          {
            title: 'Refused',
            body: message(
              'error',
              'This form was refused: it did not come from a page of your current console session. Nothing was changed. Open the page again and repeat the action.',
            ),
          },
          403,
        );
      }
      c.set('session', session);
      c.set('form', form);
      return next();
    }
    if (session === undefined) return sendSignedOut(c, expired);
    c.set('session', session);
    return next();
  };
}

/** A console page saying what failed, with the status the funnel gives it (a form too large: 413). */
export function consoleErrorPage(ctx: GatewayContext, c: Context, error: unknown): Promise<Response> {
  const known = toGatewayError(error);
  logFailure(ctx.logger, 'admin console request failed', known, {
    requestId: requestIdOf(c),
    path: c.req.routePath,
  });
  const http = ERROR_ANSWERS[known.code].http;
  const status = (ERROR_STATUSES as readonly number[]).includes(http)
    ? (http as (typeof ERROR_STATUSES)[number])
    : 500;
  const session = c.get('session') as ConsoleSession | undefined;
  return sendConsolePage(
    c,
    {
      title: status === 404 ? 'Not found' : status === 413 ? 'Too large' : 'Something went wrong',
      body: message('error', publicMessage(known, 'page')),
      ...(session !== undefined && { signedIn: { csrf: session.csrf } }),
    },
    status,
  );
}

/**
 * @example
 * app.route('/admin', createAdminConsole(ctx, { backgroundRound: readiness.backgroundRound }));
 * app.route('/admin', createAdminRoutes(ctx)); // after: the console's paths are answered first
 */
export function createAdminConsole(
  ctx: GatewayContext,
  inputs: OverviewInputs & { selfFetch?: typeof fetch },
): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.onError((error, c) => consoleErrorPage(ctx, c, error));
  app.use('/', auditTrail<ConsoleEnv>(ctx, CONSOLE_AUDIT));
  app.use('/ui/*', auditTrail<ConsoleEnv>(ctx, CONSOLE_AUDIT));

  app.get('/', async (c) => {
    const { session, expired } = await sessionOf(ctx, c);
    // Not signed in, `/admin/` is the sign-in page itself (200); other pages answer 401 with the form.
    if (session === undefined) return expired ? sendSignedOut(c, true) : sendSignIn(c);
    c.set('session', session);
    return sendConsolePage(c, {
      title: 'Overview',
      body: await overviewBody(ctx, inputs),
      signedIn: { csrf: session.csrf, section: 'overview' },
    });
  });
  app.post('/ui/sign-in', (c) => signIn(ctx, c));

  app.use('/ui/*', requireSession(ctx));
  app.post('/ui/sign-out', (c) => signOut(ctx, c));

  async function orderOr404(id: string): Promise<PurchaseOrder> {
    const order = await ctx.store.orders.get(id);
    if (order === undefined) throw new GatewayError('not_found', 'There is no such purchase order.');
    return order;
  }

  app.get('/ui/orders', async (c) =>
    sendConsolePage(c, {
      title: 'Purchase orders',
      body: await orderListBody(ctx, (n) => c.req.query(n)),
      signedIn: { csrf: c.get('session').csrf, section: 'orders' },
    }),
  );
  app.get('/ui/orders/:id', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    const { csrf } = c.get('session');
    const done = DONE_TEXT[c.req.query('done') as keyof typeof DONE_TEXT];
    return sendConsolePage(c, {
      title: `Purchase order ${order.orderId}`,
      body: await orderPageBody(ctx, order, csrf, done === undefined ? undefined : message('ok', done)),
      signedIn: { csrf, section: 'orders' },
    });
  });
  // A download through the console session, served as the admin API serves it (never as a page of ours).
  app.get('/ui/orders/:id/attachments/:position', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    const position = c.req.param('position');
    const file = /^[1-9][0-9]{0,5}$/.test(position)
      ? await ctx.store.attachments.get(order.id, Number(position))
      : undefined;
    if (file === undefined)
      throw new GatewayError('not_found', 'This purchase order has no such attachment.');
    ctx.logger.info('attachment downloaded in the console', {
      po: order.id,
      position: file.position,
      session: c.get('session').sid,
    });
    return attachmentResponse(file);
  });
  app.get('/ui/orders/:id/documents/:doc', async (c) => {
    const order = await orderOr404(c.req.param('id'));
    const { title, body } = await documentPage(ctx, order, c.req.param('doc'));
    return sendConsolePage(c, { title, body, signedIn: { csrf: c.get('session').csrf, section: 'orders' } });
  });

  mountActionRoutes(app, ctx, orderOr404);
  mountDeadLetterRoutes(app, ctx);
  mountRefusalRoutes(app, ctx);
  mountExportRoutes(app, ctx);
  mountCatalogExportRoutes(app, ctx);

  app.get('/ui/buyers', async (c) =>
    sendConsolePage(c, {
      title: 'Buyers',
      body: await buyersBody(ctx),
      signedIn: { csrf: c.get('session').csrf, section: 'buyers' },
      copyButtons: true,
    }),
  );

  mountTestPunchoutRoutes(app, ctx, inputs.selfFetch);

  // Last: any other console path is a console 404, not the JSON API's (which would ask for a bearer token).
  app.all('/ui/*', (c) =>
    consoleErrorPage(ctx, c, new GatewayError('not_found', 'There is no such console page.')),
  );
  return app;
}
