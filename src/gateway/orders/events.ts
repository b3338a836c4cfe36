/**
 * Webhooks in. At start the gateway registers `POST {publicUrl}/events/<signed token>` for order_updated
 * and order_deleted on each storefront API token (one URL per event, because deliveries do not name their
 * event and a target URL can be registered once per token). A delivery is checked by its token, stored in
 * the event inbox and answered 202 at once; the worker turns stored events into `sync_print_order` jobs.
 * Deliveries carry no signature, so the body is only a hint: the job reads the order itself.
 */
import { Hono } from 'hono';
import type { EventName } from '../../../schemas/print-api.ts';
import { isPrintApiError } from '../../print-api/index.ts';
import type { JsonValue } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { jsonError } from '../http/json-answers.ts';
import { SYNC_PRINT_ORDER } from './print-order-sync.ts';

const ORDER_EVENTS: readonly EventName[] = ['order_updated', 'order_deleted'];

/**
 * Event URLs are signed with a fixed issue date, so the same storefront, event and signing key always give
 * the same URL: instances starting together register one hook (the others meet a 409), and a restart finds
 * its hook. They last as long as the hook; changing the signing key retires them (they are replaced).
 */
const EVENT_URL_ISSUED = new Date('2020-01-01T00:00:00Z');
const EVENT_URL_TTL_SECONDS = 100 * 365 * 86_400;

/** Storefronts that share one API token share its hooks: one registration per base URL and token. */
function storefrontsByApiToken(ctx: GatewayContext): ResolvedStorefront[][] {
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

/**
 * How much webhook intake may cost. A delivery is only a hint (the job reads the order itself), so what is
 * kept of one is the order id, and a flood is cheap to refuse: the reconciliation poll finds every change a
 * refused delivery would have announced.
 */
export const EVENT_INTAKE = {
  /** Deliveries per events URL (storefront API token) answered at once before 429s begin. */
  burst: 100,
  /** Deliveries per second per events URL that refill the burst. */
  perSecond: 20,
} as const;

/** A token bucket per events URL, in memory: bounded by the number of configured storefronts. */
function createDeliveryRate(ctx: GatewayContext) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (storefrontId: string): number | undefined => {
    const now = ctx.clock.now().getTime();
    const bucket = buckets.get(storefrontId) ?? { tokens: EVENT_INTAKE.burst, at: now };
    const refill = ((now - bucket.at) / 1000) * EVENT_INTAKE.perSecond;
    bucket.tokens = Math.min(EVENT_INTAKE.burst, bucket.tokens + Math.max(0, refill));
    bucket.at = now;
    buckets.set(storefrontId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / EVENT_INTAKE.perSecond));
  };
}

/** Whether a print order of this storefront, or of one sharing its API token, is one the gateway tracks. */
async function isTracked(ctx: GatewayContext, storefrontId: string, printOrderId: number): Promise<boolean> {
  const siblings = storefrontsByApiToken(ctx).find((g) => g.some((s) => s.id === storefrontId)) ?? [];
  for (const storefront of siblings) {
    if ((await ctx.store.printOrders.get(storefront.id, printOrderId)) !== undefined) return true;
  }
  return false;
}

/**
 * `POST /events/:token`: verified, rate-limited, and for a print order the gateway tracks stored as its id
 * and answered 202; nothing else happens in the request. A delivery about any other order is answered 202
 * and dropped, so deliveries cannot grow the inbox beyond the orders punchgate placed.
 */
export function createEventRoutes(ctx: GatewayContext): Hono {
  const app = new Hono();
  const overRate = createDeliveryRate(ctx);
  app.onError((error, c) => jsonError(ctx, c, error));
  // The delivery is already within EVENT_BODY_BYTES: the gateway's body limit (http/body-limits.ts) held
  // it there before this route ran.
  app.post('/:token', async (c) => {
    const claims = await ctx.tokens.verify(c.req.param('token'), 'events', ctx.clock.now());
    const storefront = ctx.storefront(claims.sid);
    const waitSeconds = overRate(storefront.id);
    if (waitSeconds !== undefined) {
      c.header('Retry-After', String(waitSeconds));
      throw new GatewayError(
        'throttled',
        'Too many deliveries at once; the gateway polls the orders and will catch up.',
      );
    }
    let body: JsonValue;
    try {
      body = (await c.req.json()) as JsonValue;
    } catch {
      throw new GatewayError('bad_request', 'The delivery is not JSON.');
    }
    const printOrderId = printOrderIdOf(body);
    if (printOrderId === undefined) {
      throw new GatewayError('bad_request', 'The delivery is not a one-element array holding an order.');
    }
    if (!(await isTracked(ctx, storefront.id, printOrderId))) return c.json({ received: null }, 202);
    const event = await ctx.store.events.add({
      storefrontId: storefront.id,
      event: claims.ref ?? 'order_updated',
      body: [{ id: printOrderId }],
    });
    return c.json({ received: event.id }, 202);
  });
  return app;
}

/**
 * Turns stored deliveries into sync jobs for the print orders we track; others are only marked processed.
 * Deliveries about one order fold into its pending sync job, which reads the order when it runs. While that
 * order's sync is running (it may have read the order before this change), the delivery stays in the inbox
 * for the next round, so no change is folded into a sync that already read the order. `hasRoom` is asked
 * before each delivery (a Worker's round budget); false leaves the rest for the next round. Answers how
 * many deliveries were looked at.
 */
export async function drainEventInbox(
  ctx: GatewayContext,
  hasRoom: () => boolean = () => true,
): Promise<number> {
  const events = await ctx.store.events.listUnprocessed({ limit: 100 });
  const groups = storefrontsByApiToken(ctx);
  let drained = 0;
  for (const event of events) {
    if (!hasRoom()) break;
    drained++;
    const printOrderId = printOrderIdOf(event.body);
    let settled = true;
    if (printOrderId !== undefined) {
      const siblings = groups.find((g) => g.some((s) => s.id === event.storefrontId)) ?? [];
      for (const storefront of siblings) {
        if ((await ctx.store.printOrders.get(storefront.id, printOrderId)) === undefined) continue;
        const { created, job } = await ctx.store.jobs.enqueue({
          kind: SYNC_PRINT_ORDER,
          key: `sync:${storefront.id}:${printOrderId}`,
          payload: { storefrontId: storefront.id, printOrderId, event: event.event },
          runAt: ctx.clock.now(),
        });
        settled = created || job.state !== 'running';
        break;
      }
    }
    if (settled) await ctx.store.events.markProcessed(event.id);
  }
  return drained;
}
