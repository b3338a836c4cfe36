/**
 * A closed-loop load generator: `concurrency` workers each send the next request as soon as the previous
 * one is answered, for a fixed time. Throughput and latency percentiles of the operations that succeeded.
 * Shared by every HTTP case (client ping, punch-in, PO intake).
 */
import type { Figures } from './bench-case.ts';
import { percentileOfSorted } from './statistics.ts';

export interface ClosedLoopOptions {
  readonly concurrency: number;
  readonly durationMs: number;
  /** One request; resolves when its answer has been fully read, throws when it failed. */
  readonly operation: () => Promise<unknown>;
}

/**
 * `reqPerSec`, `p50Ms`, `p99Ms`, `cpuUsPerReq` (this process's user+system CPU per request: the load
 * generator's and the client's cost, which shows overhead even when the server is the bottleneck) and
 * `errors`; a failing operation is counted, not timed.
 */
export async function runClosedLoop({
  concurrency,
  durationMs,
  operation,
}: ClosedLoopOptions): Promise<Figures> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let errors = 0;
  let firstError: unknown;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + durationMs;

  async function worker(): Promise<void> {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        await operation();
      } catch (error) {
        errors++;
        firstError ??= error;
        continue;
      }
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = performance.now() - t0;
    }
  }

  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (count === 0) throw new Error('every operation failed', { cause: firstError });
  const sorted = latencies.subarray(0, count).sort();
  return {
    reqPerSec: count / elapsedSeconds,
    p50Ms: percentileOfSorted(sorted, 50),
    p99Ms: percentileOfSorted(sorted, 99),
    cpuUsPerReq: (cpu.user + cpu.system) / (count + errors),
    errors,
  };
}

export const CLOSED_LOOP_METRICS = {
  reqPerSec: { unit: 'req/s', better: 'higher' },
  p50Ms: { unit: 'ms', better: 'lower' },
  p99Ms: { unit: 'ms', better: 'lower' },
  cpuUsPerReq: { unit: 'µs', better: 'lower' },
  errors: { unit: '', better: 'lower' },
} as const;
