/**
 * Exponential backoff for the order flow's retries: `base × 2^(attempt − 1)`, capped. No jitter is added:
 * work is claimed from the store under leases, so instances do not retry in lockstep, and tests on a
 * frozen clock can say exactly when the next try is due.
 */

export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/**
 * @example
 * retryDelayMs(3, { baseMs: 30_000, maxMs: 3_600_000 }); // 120_000
 */
export function retryDelayMs(attempt: number, backoff: Backoff): number {
  const exponent = Math.max(0, Math.min(30, Math.trunc(attempt) - 1));
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** exponent);
}
