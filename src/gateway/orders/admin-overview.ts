/**
 * `GET /admin/overview` and the console's first page: POs by state with those waiting for an operator
 * first, how long the oldest unprocessed PO has waited, the outbox backlog and dead letters, the last
 * background round and recent print-service failures. One function, so both show the same figures.
 */
import type { GatewayContext } from '../context.ts';
import type { Overview } from './admin-schemas.ts';

/** More than an operator works through at once; the count by state says how many there are in all. */
const WAITING_SHOWN = 100;

/**
 * @param lastRoundAt when the last background round finished, as the caller knows it (the readiness
 * probe's heartbeat on Workers); by default this instance's own rounds.
 */
export async function adminOverview(
  ctx: GatewayContext,
  lastRoundAt: Date | undefined = ctx.metrics.lastBackgroundRoundAt(),
): Promise<Overview> {
  const now = ctx.clock.now();
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
    lastBackgroundRoundAt: lastRoundAt ?? null,
    printApiFailuresLastHour: ctx.metrics.printApiFailuresLastHour(),
  };
}
