/**
 * `GET /admin/overview` and the console's first page: POs by state with those waiting for an operator
 * first, how long the oldest unprocessed PO has waited, the outbox backlog and dead letters, the last
 * background round and recent print-service failures. One function, so both show the same figures.
 */
import type { GatewayContext } from '../context.ts';
import type { Overview } from './admin-schemas.ts';

/** More than an operator works through at once; the count by state says how many there are in all. */
const WAITING_SHOWN = 100;

/** When the last background round finished: the host's heartbeat when it keeps one, else this instance's. */
async function lastRoundAt(ctx: GatewayContext): Promise<Date | undefined> {
  if (ctx.lastBackgroundRoundAt === undefined) return ctx.metrics.lastBackgroundRoundAt();
  // A heartbeat that cannot be read is shown as unknown; the overview still answers.
  return ctx.lastBackgroundRoundAt().catch(() => undefined);
}

/**
 * @param known when the last round finished, if the caller has read it already (the console, from its
 * readiness probe; `undefined`: none yet); else it is read here.
 */
export async function adminOverview(
  ctx: GatewayContext,
  ...known: [lastRoundAt: Date | undefined] | []
): Promise<Overview> {
  const now = ctx.clock.now();
  const lastRound = known.length === 1 ? known[0] : await lastRoundAt(ctx);
  const stats = await ctx.store.stats(now);
  const waiting = await ctx.store.orders.list({ state: 'needs_operator', limit: WAITING_SHOWN });
  const oldest = stats.oldestUnorderedAt;
  return {
    ordersByState: stats.ordersByState,
    // The store lists newest first; the one waiting longest is the one to settle first.
    waitingForOperator: waiting.items
      .map((order) => ({
        id: order.id,
        buyerId: order.buyerId,
        orderId: order.orderId,
        reason: order.lastError ?? null,
        flags: order.flags,
        since: order.updatedAt,
      }))
      .sort((a, b) => a.since.getTime() - b.since.getTime()),
    oldestUnprocessedAt: oldest ?? null,
    oldestUnprocessedAgeSeconds:
      oldest === undefined ? null : Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)),
    outbox: {
      pending: stats.outbox.pending,
      sending: stats.outbox.sending,
      dead: stats.outbox.dead,
      oldestPendingAt: stats.outbox.oldestPendingAt ?? null,
    },
    deadJobs: stats.jobsByState.dead,
    lastBackgroundRoundAt: lastRound ?? null,
    printApiFailuresLastHour: ctx.metrics.printApiFailuresLastHour(),
  };
}
