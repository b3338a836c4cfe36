/**
 * `createGateway(deps)`: the runtime-agnostic gateway app. Node (`src/runtime/node.ts`) and Workers
 * (`src/runtime/worker.ts`) only hand in the dependencies and serve `app.fetch`.
 */
import { Hono } from 'hono';
import type { GatewayContext } from './context.ts';
import { createGatewayContext } from './context.ts';
import { createCxmlRoute, type OrderRequestHandler } from './cxml-route.ts';
import type { GatewayDeps } from './deps.ts';
import { GatewayError } from './errors.ts';
import { renderMessagePage } from './pages/punchout-pages.ts';
import {
  createPunchoutRoutes,
  punchoutErrorPage,
  type ReturnFormBuilders,
  sendPage,
} from './punchout-routes.ts';

export interface Gateway {
  app: Hono;
  context: GatewayContext;
}

export interface GatewayExtensions {
  /** The OCI transfer and cancel forms (issue: OCI punch-in). */
  ociForms?: ReturnFormBuilders;
  /** Extra routes mounted on the gateway app (OCI punch-in, orders, events, admin). */
  routes?: (app: Hono, ctx: GatewayContext) => void;
  onOrder?: (ctx: GatewayContext) => OrderRequestHandler;
}

/**
 * @example
 * const gateway = await createGateway({ config, store, clock: systemClock,
 *   printApiFor: (s) => createPrintApi({ baseUrl: s.apiBaseUrl, token: s.apiToken, key: s.apiKey }) });
 * serve({ fetch: gateway.app.fetch, port: 8080 });
 */
export async function createGateway(deps: GatewayDeps, extensions: GatewayExtensions = {}): Promise<Gateway> {
  const ctx = await createGatewayContext(deps);
  const app = new Hono();

  // Our URLs carry tokens, so no page may leak them in a Referer; nothing is sniffed into another type.
  app.use(async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await ctx.store.ping();
      return c.json({ status: 'ready' });
    } catch {
      return c.json({ status: 'unavailable', store: 'not answering' }, 503);
    }
  });

  // Counts only; expose it to the monitoring network, not to the internet.
  app.get('/metrics', (c) =>
    c.text(ctx.metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );

  app.route('/cxml', createCxmlRoute(ctx, extensions.onOrder?.(ctx)));
  app.route('/punchout', createPunchoutRoutes(ctx, extensions.ociForms));
  extensions.routes?.(app, ctx);

  app.notFound((c) =>
    sendPage(
      c,
      renderMessagePage({
        title: 'punchgate',
        heading: 'Not found',
        message: 'There is nothing at this address.',
        kind: 'error',
      }),
      { frameAncestors: [] },
      404,
    ),
  );

  app.onError(async (error, c) => {
    if (error instanceof GatewayError) {
      if (c.req.path.startsWith('/punchout/')) return punchoutErrorPage(ctx, c, error, extensions.ociForms);
    }
    ctx.logger.error('request failed', {
      path: c.req.routePath,
      error: error instanceof Error ? error.name : 'unknown',
      message: error instanceof GatewayError ? error.message : undefined,
    });
    const gatewayError =
      error instanceof GatewayError
        ? error
        : new GatewayError(
            'upstream_unavailable',
            'Something went wrong on our side. Please try again in a moment.',
          );
    return punchoutErrorPage(ctx, c, gatewayError, extensions.ociForms);
  });

  return { app, context: ctx };
}
