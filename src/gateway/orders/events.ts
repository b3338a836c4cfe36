/**
 * Webhooks in. At start the gateway registers `POST {publicUrl}/events/<signed token>` for order_updated
 * and order_deleted on each storefront API token (one URL per event, because deliveries do not name their
 * event and a target URL can be registered once per token). A delivery is checked by its token, stored in
 * the event inbox and answered 202 at once; the worker turns stored events into `sync_print_order` jobs.
 * Deliveries carry no signature, so the body is only a hint: the job reads the order itself.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { EventName } from '../../../schemas/print-api.ts';
import { isPrintApiError } from '../../print-api/index.ts';
import type { JsonValue } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { jsonError } from './json-answers.ts';
import { SYNC_PRINT_ORDER } from './print-order-sync.ts';

export const ORDER_EVENTS: readonly EventName[] = ['order_updated', 'order_deleted'];

/**
 * Event URLs are signed with a fixed issue date, so the same storefront, event and signing key always give
 * the same URL: instances starting together register one hook (the others meet a 409), and a restart finds
 * its hook. They last as long as the hook; changing the signing key retires them (they are replaced).
 */
const EVENT_URL_ISSUED = new Date('2020-01-01T00:00:00Z');
const EVENT_URL_TTL_SECONDS = 100 * 365 * 86_400;
const MAX_EVENT_BYTES = 1024 * 1024;

/** Storefronts that share one API token share its hooks: one registration per base URL and token. */
export function storefrontsByApiToken(ctx: GatewayContext): ResolvedStorefront[][] {
  const groups = new Map<string, ResolvedStorefront[]>();
  for (const storefront of ctx.config.storefronts) {
    const key = `${storefront.apiBaseUrl}\u0000${storefront.apiToken.toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), storefront]);
  }
  return [...groups.values()];
}

function eventsPrefix(ctx: GatewayContext): string {
  return `${ctx.publicUrl}/events/`;
}

export interface HookRegistration {
  storefrontId: string;
  event: EventName;
  outcome: 'existing' | 'created' | 'conflict' | 'failed';
  hookId?: number;
  error?: string;
}

/** The URL the print service posts one storefront's order event to. */
export async function eventUrl(ctx: GatewayContext, storefrontId: string, event: EventName): Promise<string> {
  const claims = { sid: storefrontId, pur: 'events', ref: event } as const;
  return `${eventsPrefix(ctx)}${await ctx.tokens.sign(claims, EVENT_URL_TTL_SECONDS, EVENT_URL_ISSUED)}`;
}

/**
 * Registers the order event hooks on every storefront API token: our hook for each event is kept, other
 * hooks on our events URL (another signing key) are deleted, a missing one is created; a 409 (registered
 * meanwhile by another instance) is fine. Failures are reported, never thrown: the reconciliation poll covers
 * a storefront whose hooks could not be registered.
 *
 * @example
 * const registrations = await registerEventHooks(gateway.context);
 */
export async function registerEventHooks(ctx: GatewayContext): Promise<HookRegistration[]> {
  const results: HookRegistration[] = [];
  for (const storefronts of storefrontsByApiToken(ctx)) {
    const storefront = storefronts[0] as ResolvedStorefront;
    const api = ctx.printApiFor(storefront);
    const failed = (event: EventName, error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      ctx.logger.warn('webhook registration failed', { storefront: storefront.id, event, error: message });
      results.push({ storefrontId: storefront.id, event, outcome: 'failed', error: message });
    };
    let hooks: Awaited<ReturnType<typeof api.listHooks>>;
    try {
      hooks = await api.listHooks();
    } catch (error) {
      for (const event of ORDER_EVENTS) failed(event, error);
      continue;
    }
    for (const event of ORDER_EVENTS) {
      try {
        const url = await eventUrl(ctx, storefront.id, event);
        const ours = hooks.filter((h) => h.event === event && h.target_url.startsWith(eventsPrefix(ctx)));
        for (const stale of ours.filter((h) => h.target_url !== url)) await api.deleteHook(stale.id);
        const live = ours.find((h) => h.target_url === url);
        if (live !== undefined) {
          results.push({ storefrontId: storefront.id, event, outcome: 'existing', hookId: live.id });
          continue;
        }
        try {
          const hook = await api.createHook(url, event);
          results.push({ storefrontId: storefront.id, event, outcome: 'created', hookId: hook.id });
        } catch (error) {
          if (!(isPrintApiError(error) && error.code === 'conflict')) throw error;
          results.push({ storefrontId: storefront.id, event, outcome: 'conflict' });
        }
      } catch (error) {
        failed(event, error);
      }
    }
  }
  return results;
}

/** The order id a delivery names: the body is a one-element array holding the order. */
function printOrderIdOf(body: JsonValue): number | undefined {
  if (!Array.isArray(body)) return undefined;
  const first = body[0];
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return undefined;
  const id = first.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** `POST /events/:token`: verified, stored, answered 202; nothing else happens in the request. */
export function createEventRoutes(ctx: GatewayContext): Hono {
  const app = new Hono();
  app.onError((error, c) => jsonError(ctx, c, error));
  app.post(
    '/:token',
    bodyLimit({
      maxSize: MAX_EVENT_BYTES,
      onError: (c) => jsonError(ctx, c, new GatewayError('bad_request', 'The delivery is larger than 1 MB.')),
    }),
    async (c) => {
      const claims = await ctx.tokens.verify(c.req.param('token'), 'events', ctx.clock.now());
      const storefront = ctx.storefront(claims.sid);
      let body: JsonValue;
      try {
        body = (await c.req.json()) as JsonValue;
      } catch {
        throw new GatewayError('bad_request', 'The delivery is not JSON.');
      }
      if (printOrderIdOf(body) === undefined) {
        throw new GatewayError('bad_request', 'The delivery is not a one-element array holding an order.');
      }
      const event = await ctx.store.events.add({
        storefrontId: storefront.id,
        event: claims.ref ?? 'order_updated',
        body,
      });
      return c.json({ received: event.id }, 202);
    },
  );
  return app;
}

/**
 * Turns stored deliveries into sync jobs (one per delivery, so a change is never folded into a sync that
 * already read the order) for the print orders we track; others are only marked processed.
 */
export async function drainEventInbox(ctx: GatewayContext): Promise<number> {
  const events = await ctx.store.events.listUnprocessed({ limit: 100 });
  const groups = storefrontsByApiToken(ctx);
  for (const event of events) {
    const printOrderId = printOrderIdOf(event.body);
    if (printOrderId !== undefined) {
      const siblings = groups.find((g) => g.some((s) => s.id === event.storefrontId)) ?? [];
      for (const storefront of siblings) {
        if ((await ctx.store.printOrders.get(storefront.id, printOrderId)) === undefined) continue;
        await ctx.store.jobs.enqueue({
          kind: SYNC_PRINT_ORDER,
          key: `event:${event.id}`,
          payload: { storefrontId: storefront.id, printOrderId, event: event.event },
          runAt: ctx.clock.now(),
        });
        break;
      }
    }
    await ctx.store.events.markProcessed(event.id);
  }
  return events.length;
}
