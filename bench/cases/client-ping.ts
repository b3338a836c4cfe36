/**
 * The client's overhead: `ping()` through the print-api client (its default Node transport) against a raw
 * `undici.request` of the same endpoint with the same headers, both on pools of the same size, against the
 * sandbox served from a child process. The gateway needs the client to cost next to nothing: goal ratio
 * (client / raw req/s) at least 0.9.
 */
import { Agent } from 'undici';
import { createPrintApi } from '../../src/index.ts';
import { createNodeFetch } from '../../src/print-api/node-fetch.ts';
import type { BenchCase } from '../harness/bench-case.ts';
import { startSandboxServer } from '../harness/bench-servers.ts';
import { CLOSED_LOOP_METRICS, runClosedLoop } from '../harness/closed-loop.ts';

const CONCURRENCY = 16;

const clientPing: BenchCase = {
  name: 'client-ping',
  title: 'print-api client ping() vs raw undici.request, sandbox in a child process',
  async setup({ quick }) {
    const server = await startSandboxServer();
    const { url, token, key } = server.ready;
    const durationMs = quick ? 500 : 1_000;

    const rawAgent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
    const rawHeaders = {
      authorization: `Basic ${Buffer.from(`${token}:${key}`).toString('base64')}`,
      'user-agent': 'punchgate-bench',
      accept: 'application/json',
    };
    const pingUrl = `${url}/api/v2/ping`;
    const raw = async () => {
      const { statusCode, body } = await rawAgent.request({
        origin: url,
        path: '/api/v2/ping',
        method: 'GET',
        headers: rawHeaders,
      });
      await body.dump();
      if (statusCode !== 204) throw new Error(`raw ping of ${pingUrl}: ${statusCode}`);
    };

    const fetch = createNodeFetch({ connections: CONCURRENCY });
    const api = createPrintApi({ baseUrl: url, token, key, fetch });
    const client = () => api.ping();

    return {
      variants: {
        'raw undici.request': () => runClosedLoop({ concurrency: CONCURRENCY, durationMs, operation: raw }),
        'client ping()': () => runClosedLoop({ concurrency: CONCURRENCY, durationMs, operation: client }),
      },
      metrics: CLOSED_LOOP_METRICS,
      ratios: [
        {
          name: 'client/raw req/s',
          metric: 'reqPerSec',
          numerator: 'client ping()',
          denominator: 'raw undici.request',
          goal: { atLeast: 0.9 },
        },
        {
          name: 'client/raw p50',
          metric: 'p50Ms',
          numerator: 'client ping()',
          denominator: 'raw undici.request',
        },
        {
          name: 'client/raw CPU per request',
          metric: 'cpuUsPerReq',
          numerator: 'client ping()',
          denominator: 'raw undici.request',
        },
      ],
      // Short rounds, many of them: on a busy machine a burst then spoils one round, not the median.
      rounds: quick ? 7 : 15,
      parameters: { concurrency: CONCURRENCY, durationMs, server: 'child process' },
      async warmUp() {
        const warm = Math.min(durationMs, 1_000);
        await runClosedLoop({ concurrency: CONCURRENCY, durationMs: warm, operation: raw });
        await runClosedLoop({ concurrency: CONCURRENCY, durationMs: warm, operation: client });
      },
      async close() {
        await Promise.all([rawAgent.close(), fetch.close()]);
        await server.stop();
      },
    };
  },
};

export default clientPing;
