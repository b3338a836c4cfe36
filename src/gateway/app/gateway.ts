/**
 * `createGateway(deps)`: the runtime-agnostic gateway app with every feature mounted: health, readiness
 * and metrics; each protocol's routes; the protocol-neutral punch-out pages; the order webhooks and the
 * admin API. Node (`src/runtime/node.ts`) and Workers (`src/runtime/worker.ts`) only hand in the
 * dependencies and serve `app.fetch`.
 */
import { Hono } from 'hono';
import type { GatewayContext, PunchoutProtocols } from '../context.ts';
import type { GatewayDeps } from '../deps.ts';
import { type BodyRefusals, bodySurfaces, bodyTooLarge, boundBodies } from '../http/body-limits.ts';
import { logFailure, toGatewayError } from '../http/errors.ts';
import { jsonError } from '../http/json-answers.ts';
import { requestIdOf, requestLogging } from '../http/request-id.ts';
import { sendPage } from '../http/send-page.ts';
import { localeOf } from '../i18n/locale.ts';
import { FALLBACK_LANGUAGE } from '../i18n/session-language.ts';
import { createAdminRoutes } from '../operator/admin-routes.ts';
import { consoleErrorPage, createAdminConsole } from '../operator/console/index.ts';
import { mountOrderRoutes } from '../orders/index.ts';
import { punchoutErrorPage } from '../punchout/error-page.ts';
import { renderMessagePage } from '../punchout/pages.ts';
import { PROOF_PATH } from '../punchout/proof-links.ts';
import { createProofRoutes } from '../punchout/proof-route.ts';
import { THUMBNAIL_PATH } from '../punchout/thumbnail-links.ts';
import { createThumbnailRoutes } from '../punchout/thumbnail-route.ts';
import { createPunchoutRoutes } from '../punchout/routes.ts';
import { createGatewayContext } from './gateway-context.ts';
import { createReadinessProbe, STORE_DEADLINE_MS, withinDeadline } from './readiness.ts';

/**
 * Whether every answer under `path`, redirects and errors included, may carry a session or start token:
 * the punch-out pages' and each protocol's.
 */
function isTokenBearing(path: string, protocols: PunchoutProtocols): boolean {
  const prefixes = ['/punchout', ...Object.values(protocols).map((p) => p.path)];
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** What a 503 answer tells the client to wait: a database failover or a restart takes about this long. */
const RETRY_AFTER_SECONDS = 30;

export interface Gateway {
  app: Hono;
  context: GatewayContext;
}

/**
 * @example
 * const gateway = await createGateway({ config, store, clock: systemClock,
 *   printApiFor: (s) => createPrintApi({ baseUrl: s.apiBaseUrl, token: s.apiToken, key: s.apiKey }) });
 * serve({ fetch: gateway.app.fetch, port: 8080 });
 */
export async function createGateway(deps: GatewayDeps): Promise<Gateway> {
  const ctx = await createGatewayContext(deps);
  const readiness = createReadinessProbe(ctx, deps.lastBackgroundRoundAt);
  // Not strict: a buyer system configured with `…/cxml/` reaches the same endpoint as `…/cxml`.
  const app = new Hono({ strict: false });

  // First, so the id and the access line cover everything below, error pages and 404s included.
  app.use(requestLogging(ctx));

  // Our URLs carry tokens, so no page may leak them in a Referer; nothing is sniffed into another type.
  // A 503 (the store or the print service away) says when to come back, for browsers, proxies and monitors.
  app.use(async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
    // Punch-out answers carry or lead to tokens (a setup's start URL, the one-time start redirect, session
    // pages, OCI redirects): no browser, proxy or back button may keep one.
    if (isTokenBearing(c.req.path, ctx.protocols)) c.res.headers.set('Cache-Control', 'no-store');
    if (c.res.status === 503 && !c.res.headers.has('Retry-After')) {
      c.res.headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
    }
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    const { ready, reasons } = await readiness.check();
    return ready ? c.json({ status: 'ready' }) : c.json({ status: 'unavailable', reasons }, 503);
  });

  // Counts only; expose it to the monitoring network, not to the internet. The order-flow figures are
  // read now; a store that is away still gets an answer, with the counters and punchgate_store_up 0.
  app.get('/metrics', async (c) => {
    const now = ctx.clock.now();
    const stats = await withinDeadline(ctx.store.stats(now), STORE_DEADLINE_MS, 'store stats').catch(
      (error: unknown) => {
        // The error's name only: driver messages may quote connection details.
        ctx.logger.warn('metrics: store figures unavailable', {
          error: error instanceof Error ? error.name : 'unknown',
        });
        return undefined;
      },
    );
    const round = await readiness.backgroundRound(now);
    const figures = {
      now,
      stats,
      backgroundRoundOverdue: round.overdue,
      lastBackgroundRoundAt: round.lastCompletedAt,
    };
    return c.text(ctx.metrics.render(figures), 200, {
      'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
      'Cache-Control': 'no-store',
    });
  });

  // Before any route reads a body, whatever its path: each held to its surface's limit, refused in the
  // surface's own words past it. Each protocol brings its own surfaces; the rest are the gateway's.
  const tooLarge: BodyRefusals = {
    events: (c, limit) => jsonError(ctx, c, bodyTooLarge(limit)),
    adminApi: (c, limit) => jsonError(ctx, c, bodyTooLarge(limit)),
    console: (c, limit) => consoleErrorPage(ctx, c, bodyTooLarge(limit)),
    pages: (c, limit) => punchoutErrorPage(ctx, c, bodyTooLarge(limit)),
  };
  const protocolBodies = Object.values(ctx.protocols).flatMap((p) => p.requestBodies?.(ctx) ?? []);
  app.use(boundBodies(bodySurfaces(protocolBodies, tooLarge)));

  for (const protocol of Object.values(ctx.protocols)) protocol.mount(app, ctx);
  app.route('/punchout', createPunchoutRoutes(ctx));
  // Outside /punchout: a proof link outlives its session, and its PDF may be cached by the browser.
  app.route(PROOF_PATH, createProofRoutes(ctx));
  // Beside it, for the same reason: requisitions and buyers' catalogs keep thumbnail links for good.
  app.route(THUMBNAIL_PATH, createThumbnailRoutes(ctx));
  // Before the JSON admin API: the console's pages (`/admin/`, `/admin/ui/…`) are answered here and never
  // meet the API's bearer-token check; every other /admin path goes on to the API.
  // The console's test punch-out reaches this app itself, in process.
  const selfFetch: typeof fetch = (input, init) => Promise.resolve(app.fetch(new Request(input, init)));
  app.route('/admin', createAdminConsole(ctx, { backgroundRound: readiness.backgroundRound, selfFetch }));
  mountOrderRoutes(app, ctx);
  app.route('/admin', createAdminRoutes(ctx));

  app.notFound((c) =>
    sendPage(
      c,
      renderMessagePage({
        // An address nobody was sent to: no session or buyer to speak for, so the gateway's own English.
        locale: localeOf(FALLBACK_LANGUAGE),
        title: 'punchgate',
        heading: 'Not found',
        message: 'There is nothing at this address.',
        kind: 'error',
      }),
      { frameAncestors: [] },
      404,
    ),
  );

  // The HTML surface's funnel: a bug is a 500 page with a generic text, its stack only in the log.
  app.onError(async (error, c) => {
    const known = toGatewayError(error);
    // The route pattern, not the path: punch-out URLs carry their token.
    logFailure(ctx.logger, 'request failed', known, { requestId: requestIdOf(c), path: c.req.routePath });
    return punchoutErrorPage(ctx, c, known);
  });

  return { app, context: ctx };
}
