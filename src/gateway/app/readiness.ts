/**
 * When an instance is fit to take traffic, one rule for `/readyz` and the `/metrics` gauges alike: the
 * store answers, and the background round (PO jobs, webhooks, documents to buyers, housekeeping) has
 * completed within `background.staleAfterSeconds`. A gateway that takes POs but never processes them is
 * not ready, whatever its HTTP side says.
 */
import type { GatewayContext } from '../context.ts';

/** How long `/readyz` and `/metrics` wait for the store before calling it unreachable. */
export const STORE_DEADLINE_MS = 3000;
const DEFAULT_STALE_AFTER_SECONDS = 300;
/** The heartbeat `/readyz` writes to see that the store takes writes. */
export const WRITE_CHECK_HEARTBEAT = 'readiness-write-check';

/**
 * True when the last completed round is older than `staleAfterSeconds`. Before the first round the clock
 * runs from `since` (the gateway's start), so a fresh instance is not failed for a round it could not yet
 * have finished.
 */
function backgroundRoundOverdue(options: {
  lastCompletedAt: Date | undefined;
  since: Date;
  now: Date;
  staleAfterSeconds: number;
}): boolean {
  const reference = options.lastCompletedAt ?? options.since;
  return options.now.getTime() - reference.getTime() > options.staleAfterSeconds * 1000;
}

/** Rejects when `work` has not settled within `ms`, so a hung database cannot hang a probe. */
export function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

interface Readiness {
  ready: boolean;
  /** Why not, in words an operator can act on; empty when ready. */
  reasons: string[];
  backgroundRoundOverdue: boolean;
}

export interface ReadinessProbe {
  check(): Promise<Readiness>;
  /**
   * The background-round verdict alone, with the time it was judged by (no store ping), for `/metrics`.
   */
  backgroundRound(now: Date): Promise<{ overdue: boolean; lastCompletedAt: Date | undefined }>;
}

/**
 * @param lastRoundAt where the heartbeat is kept; by default this instance's metrics (its own rounds).
 */
export function createReadinessProbe(
  ctx: GatewayContext,
  lastRoundAt: () => Promise<Date | undefined> = async () => ctx.metrics.lastBackgroundRoundAt(),
): ReadinessProbe {
  const since = ctx.clock.now();
  // Read defensively: configs built by hand in older tests may lack the section.
  const staleAfterSeconds = ctx.config.background?.staleAfterSeconds ?? DEFAULT_STALE_AFTER_SECONDS;

  async function backgroundRound(
    now: Date,
  ): Promise<{ overdue: boolean; lastCompletedAt: Date | undefined }> {
    // A heartbeat kept in the store is unknown while the store is away; the store reason says so already.
    const lastCompletedAt = await lastRoundAt().catch(() => undefined);
    return {
      overdue: backgroundRoundOverdue({ lastCompletedAt, since, now, staleAfterSeconds }),
      lastCompletedAt,
    };
  }

  return {
    async check() {
      const reasons: string[] = [];
      try {
        await withinDeadline(ctx.store.ping(), STORE_DEADLINE_MS, 'store ping');
      } catch {
        reasons.push('the store is not answering');
      }
      const now = ctx.clock.now();
      if (reasons.length === 0) {
        // A store that answers reads may still refuse every write (a read-only file or replica, a failing
        // disk, a full one once the write needs space), and then no punch-out or PO can be taken: a real
        // write, the smallest there is, is what tells. One row, upserted; it costs microseconds.
        try {
          await withinDeadline(
            ctx.store.heartbeat.beat(WRITE_CHECK_HEARTBEAT, now),
            STORE_DEADLINE_MS,
            'store write',
          );
        } catch (error) {
          reasons.push('the store does not accept writes');
          // The error's name and code only, as for the metrics: driver messages may quote connection details.
          const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
          ctx.logger.warn('readiness: the store refused a write', {
            error: typeof name === 'string' ? name : 'unknown',
            ...(typeof code === 'string' && { code }),
          });
        }
      }
      const { overdue, lastCompletedAt: last } = await backgroundRound(now);
      if (overdue) {
        const seconds = Math.floor((now.getTime() - (last ?? since).getTime()) / 1000);
        reasons.push(
          last === undefined
            ? `no background round has completed in the ${seconds} s since the gateway started (background.staleAfterSeconds is ${staleAfterSeconds})`
            : `the last background round completed ${seconds} s ago (background.staleAfterSeconds is ${staleAfterSeconds})`,
        );
      }
      return { ready: reasons.length === 0, reasons, backgroundRoundOverdue: overdue };
    },
    backgroundRound,
  };
}
