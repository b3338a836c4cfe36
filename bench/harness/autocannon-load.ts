/**
 * HTTP load from autocannon, the cases' load generator for servers in child processes: `connections`
 * keep-alive connections, each sending its next request when the previous answer is in, for a fixed time.
 *
 * autocannon's own histogram keeps whole milliseconds, too coarse for a 3 ms overhead goal, so every
 * response time (autocannon's float milliseconds) is collected here and percentiles are computed from them.
 * An answer counts only if `accept` says so (cXML answers HTTP 200 even for errors: the Status inside
 * tells), so a server that fails fast cannot look fast.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import type { Figures } from './bench-case.ts';
import { percentileOfSorted } from './statistics.ts';

export interface AutocannonLoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly durationMs: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  /** `[<id>]` in the body is replaced with a fresh unique id per request (unique payloadIDs). */
  readonly body?: string;
  /** Makes each request's body instead of `body` (documents that differ in more than an id). */
  readonly bodyOf?: () => string;
  /** Decides whether an answer is a success; default: any 2xx. */
  readonly accept?: (status: number, body: string) => boolean;
}

/**
 * `reqPerSec` (accepted answers per second), `p50Ms`, `p99Ms` (of all answers), `errors` and `accepted`
 * (how many answers were accepted, for per-operation counts).
 */
export async function runAutocannon(options: AutocannonLoadOptions): Promise<Figures> {
  const { accept } = options;
  let accepted = 0;
  let refused = 0;
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const request = {
    method: options.method ?? 'GET',
    ...(options.headers !== undefined && { headers: options.headers }),
    ...(options.body !== undefined && { body: options.body }),
    ...(options.bodyOf !== undefined && {
      setupRequest: (made: AutocannonRequest) => ({ ...made, body: options.bodyOf!() }),
    }),
    ...(accept !== undefined && {
      onResponse(status: number, body: string) {
        if (accept(status, body)) accepted++;
        else refused++;
      },
    }),
  };
  const started = performance.now();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationMs / 1000,
    idReplacement: options.body?.includes('[<id>]') ?? false,
    requests: [request],
    timeout: 10,
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (accept === undefined) {
      if (statusCode >= 200 && statusCode < 300) accepted++;
      else refused++;
    }
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = responseTime;
  });
  const result = await instance;
  const elapsedSeconds = (performance.now() - started) / 1000;
  if (accepted === 0) {
    throw new Error(
      `${options.method ?? 'GET'} ${options.url}: no accepted answer (${refused} refused, ${result.errors} errors)`,
    );
  }
  const sorted = latencies.subarray(0, count).sort();
  return {
    reqPerSec: accepted / elapsedSeconds,
    p50Ms: percentileOfSorted(sorted, 50),
    p99Ms: percentileOfSorted(sorted, 99),
    errors: refused + result.errors + result.timeouts,
    accepted,
  };
}

export const AUTOCANNON_METRICS = {
  reqPerSec: { unit: 'req/s', better: 'higher' },
  p50Ms: { unit: 'ms', better: 'lower' },
  p99Ms: { unit: 'ms', better: 'lower' },
  errors: { unit: '', better: 'lower' },
} as const;
