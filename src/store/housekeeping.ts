/**
 * Housekeeping: deletes what the gateway no longer needs once its retention period is over. The background
 * round calls it on every runtime (Node on its interval, Workers from the Cron Trigger).
 *
 * What goes, and what stays:
 * - punch-out sessions `expiredSessionDays` after they expired (a session is refused from its expiry on;
 *   the grace only keeps the record for looking into a buyer's "my cart vanished" report);
 * - cart lines never ordered and untouched for `staleCartLineDays` (ordered lines stay with their PO);
 * - `done` jobs `finishedJobDays` after they finished (dead ones stay for the operator; purging a done job
 *   cannot make work run twice, see `JobQueue.enqueue`);
 * - the delivery-queue rows of messages delivered `deliveredMessageDays` ago;
 * - webhook deliveries processed `processedEventDays` after they arrived;
 * - refusals log entries `refusalDays` after they were recorded.
 *
 * Purchase orders, print orders, user mappings and every document sent to a buyer are never purged.
 *
 * Each kind deletes at most `maxRowsPerKind` rows per call (default {@link HOUSEKEEPING_ROWS_PER_KIND}), so
 * one round stays short on Workers; a backlog (a first run on an old database) shrinks round by round, and
 * the report says so with `moreDue`.
 *
 * Pure: no `node:*`, no I/O besides the store.
 */
import type { Store } from './port.ts';

export interface Retention {
  expiredSessionDays: number;
  staleCartLineDays: number;
  finishedJobDays: number;
  deliveredMessageDays: number;
  processedEventDays: number;
  refusalDays: number;
}

/** Rows deleted by one call, per kind. */
export interface HousekeepingReport {
  expiredSessions: number;
  staleCartLines: number;
  finishedJobs: number;
  deliveredMessages: number;
  processedEvents: number;
  /** Failed-authentication counters neither counting nor locked for a day. */
  idleGuessCounters: number;
  refusals: number;
  /** True when some kind reached the row bound: more rows are due and the next call goes on with them. */
  moreDue: boolean;
}

export interface HousekeepingOptions {
  /** Rows deleted per kind and call at most. Default {@link HOUSEKEEPING_ROWS_PER_KIND}. */
  maxRowsPerKind?: number;
}

/** Seven bounded deletes per round: small enough for a Worker invocation, ample for any gateway's traffic. */
export const HOUSEKEEPING_ROWS_PER_KIND = 500;

const DAY_MS = 86_400_000;

/**
 * @example
 * ```ts
 * const report = await purgeExpired(store, clock.now(), config.housekeeping);
 * if (report.moreDue) logger.info('housekeeping continues next round', report);
 * ```
 */
export async function purgeExpired(
  store: Store,
  now: Date,
  retention: Retention,
  options: HousekeepingOptions = {},
): Promise<HousekeepingReport> {
  const limit = options.maxRowsPerKind ?? HOUSEKEEPING_ROWS_PER_KIND;
  if (!(Number.isInteger(limit) && limit > 0)) {
    throw new RangeError(`housekeeping maxRowsPerKind must be a positive integer, got ${limit}`);
  }
  const before = (field: keyof Retention) => {
    const days = retention[field];
    if (!(Number.isFinite(days) && days >= 0)) {
      throw new RangeError(`housekeeping ${field} must be a number of days, 0 or more, got ${days}`);
    }
    return new Date(now.getTime() - days * DAY_MS);
  };
  const cutoffs = {
    sessions: before('expiredSessionDays'),
    cartLines: before('staleCartLineDays'),
    jobs: before('finishedJobDays'),
    messages: before('deliveredMessageDays'),
    events: before('processedEventDays'),
    refusals: before('refusalDays'),
  };
  const bounded = { limit };
  const counts = {
    expiredSessions: await store.sessions.expire(cutoffs.sessions, bounded),
    staleCartLines: await store.cart.purgeStale(cutoffs.cartLines, bounded),
    finishedJobs: await store.jobs.purgeFinished(cutoffs.jobs, bounded),
    deliveredMessages: await store.outbox.purgeDelivered(cutoffs.messages, bounded),
    processedEvents: await store.events.purgeProcessed(cutoffs.events, bounded),
    // A counter matters for its window and its longest lock (hours at most), so a day idle is plenty.
    idleGuessCounters: await store.guessCounters.purgeIdle(new Date(now.getTime() - DAY_MS), bounded),
    refusals: await store.refusals.purgeBefore(cutoffs.refusals, bounded),
  };
  return { ...counts, moreDue: Object.values(counts).some((count) => count >= limit) };
}
