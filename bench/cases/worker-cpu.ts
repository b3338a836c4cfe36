/**
 * The Worker under workerd (issue 18, deliverable 5): CPU per request for a punch-in (the realistic 5 KB
 * setup of a returning user), a 5-line and a 1,000-line PO, D1 queries per PO, and the D1 queries and
 * subrequests of a Cron round. The Worker is the bundle `wrangler deploy --dry-run` builds (the test
 * config on D1, pointed at the sandbox in a child process), run by Miniflare's workerd from node_modules,
 * behind a counting wrapper (test/workers/instrumented-worker.ts): its D1 binding counts calls and
 * statements, its fetch subrequests.
 *
 * CPU: workers' own timers stand still while they compute, so the workerd process's CPU time (user +
 * system, /proc/<pid>/stat, all threads) is read around `n` sequential requests of one kind, and around
 * `n` requests to a route the wrapper answers without touching the gateway (the floor: Miniflare's entry
 * worker, the HTTP hop, an empty invocation). Per request: (gateway − floor) / n, both measured in the
 * same variant, back to back. It is an upper bound of the isolate's CPU: D1 runs in the same workerd
 * process under Miniflare (its SQLite work is in the figure; on Cloudflare it runs elsewhere). Goals: a
 * punch-in and a 5-line PO under 10 ms (the Free plan's CPU per invocation), at most 10 D1 statements per
 * PO whatever its lines, and a round within 50 subrequests and 50 D1 statements (the Free plan's limits).
 *
 * POs name cart lines of their own, seeded straight into D1 beforehand (untimed), on the terms the
 * OrderRequest asks (as bench/cases/po-intake.ts and growth-po.ts send them).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Miniflare } from 'miniflare';
import { orderConfig } from '../../test/support/order-flow.ts';
import { buildWorker, compatibilityDate } from '../../test/workers/bundle-worker.ts';
import { lineRefsOf, seedWorkerLines, workerOrder } from '../../test/workers/worker-orders.ts';
import {
  type CountsAnswer,
  instrumentedModules,
  processCpuMs,
  workerdChildren,
} from '../../test/workers/instrumented-worker.ts';
import type { BenchCase, Figures, LimitSpec } from '../harness/bench-case.ts';
import { startSandboxServer } from '../harness/bench-servers.ts';
import type { SandboxServerReady } from '../servers/sandbox-server.ts';
import { realisticSetup } from './punch-in.ts';

const ORIGIN = 'https://punchgate.example';

/** Resident memory of a process now, in MB (/proc/<pid>/status VmRSS). */
function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The test config on D1, its storefront on the sandbox, acme's order-status documents to `statusUrl`. */
function workerConfig(sandbox: SandboxServerReady, statusUrl: string) {
  const base = orderConfig();
  return {
    ...base,
    publicUrl: ORIGIN,
    store: { kind: 'd1', binding: 'DB' },
    storefronts: base.storefronts.map((s) => ({
      ...s,
      apiBaseUrl: sandbox.url,
      editorUrl: `${sandbox.url}/editor`,
      apiToken: sandbox.token,
      apiKey: sandbox.key,
    })),
    buyers: base.buyers.map((b) => (b.id === 'acme' ? { ...b, orderStatusUrl: statusUrl } : b)),
  };
}

/** A buyer's order-status endpoint that takes every document (a confirmation is answered 200). */
async function statusReceiver() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.end('<?xml version="1.0"?><cXML><Response><Status code="200" text="OK"/></Response></cXML>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/cxml/status`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const LIMITS: LimitSpec[] = [
  { name: 'punch-in CPU', variant: 'punch-in', metric: 'cpuMs', goal: { atMost: 10 } },
  { name: '5-line PO CPU', variant: 'PO: 5 lines', metric: 'cpuMs', goal: { atMost: 10 } },
  {
    name: 'D1 statements per 5-line PO',
    variant: 'PO: 5 lines',
    metric: 'd1Statements',
    goal: { atMost: 10 },
  },
  {
    name: 'D1 statements per 1,000-line PO',
    variant: 'PO: 1,000 lines',
    metric: 'd1Statements',
    goal: { atMost: 10 },
  },
  { name: 'subrequests per round', variant: 'Cron round', metric: 'subrequests', goal: { atMost: 50 } },
  { name: 'D1 statements per round', variant: 'Cron round', metric: 'd1Statements', goal: { atMost: 50 } },
];

const workerCpu: BenchCase = {
  name: 'worker-cpu',
  title: 'CPU per request of the Worker under workerd (punch-in, 5- and 1,000-line PO), D1 queries per PO',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const receiver = await statusReceiver();
    const bundle = await buildWorker(workerConfig(sandbox.ready, receiver.url));
    const before = new Set(workerdChildren());
    const mf = new Miniflare({
      modules: instrumentedModules(bundle.code),
      modulesRoot: '/instrumented',
      compatibilityDate: await compatibilityDate(),
      d1Databases: { DB: 'punchgate-bench-worker-cpu' },
      bindings: { LOG_LEVEL: 'warn' },
    });
    await mf.ready;
    const workerd = workerdChildren().find((pid) => !before.has(pid));
    if (workerd === undefined) throw new Error('worker-cpu: no workerd process of this Miniflare found');
    const db = await mf.getD1Database('DB');
    const dispatch = (path: string, init?: RequestInit) =>
      mf.dispatchFetch(`${ORIGIN}${path}`, init as never) as unknown as Promise<Response>;
    const counts = async () => (await (await dispatch('/__counts')).json()) as CountsAnswer;

    const setup = realisticSetup();
    const punchIn = async () => {
      const res = await dispatch('/cxml', {
        method: 'POST',
        body: setup,
        headers: { 'Content-Type': 'text/xml' },
      });
      const text = await res.text();
      if (!text.includes('<Status code="200"')) throw new Error(`worker-cpu: punch-in refused:\n${text}`);
    };
    // The first punch-in makes the user mapping (a PIPO user at the sandbox); later ones reuse its token.
    await punchIn();

    let serial = 0;
    /** POs ready to send: their cart lines seeded, untimed. */
    async function preparePos(lines: number, count: number): Promise<string[]> {
      const bodies: string[] = [];
      const refs: string[] = [];
      for (let i = 0; i < count; i++) {
        serial++;
        bodies.push(workerOrder(serial, lines));
        refs.push(...lineRefsOf(serial, lines));
      }
      await seedWorkerLines(db, refs);
      return bodies;
    }
    const postPo = async (body: string) => {
      const res = await dispatch('/cxml', { method: 'POST', body, headers: { 'Content-Type': 'text/xml' } });
      const text = await res.text();
      if (!text.includes('<Status code="200"'))
        throw new Error(`worker-cpu: PO refused:\n${text.slice(0, 2000)}`);
    };

    /** CPU of `n` requests minus `n` floor requests, per request; the last request's counts. */
    async function measure(n: number, request: (i: number) => Promise<void>): Promise<Figures> {
      const cpu0 = processCpuMs(workerd!);
      const started = performance.now();
      for (let i = 0; i < n; i++) await request(i);
      const wallMs = (performance.now() - started) / n;
      const cpu1 = processCpuMs(workerd!);
      const { request: last } = await counts();
      const cpu2 = processCpuMs(workerd!);
      for (let i = 0; i < n; i++) await (await dispatch('/__floor')).arrayBuffer();
      const cpu3 = processCpuMs(workerd!);
      const floorMs = (cpu3 - cpu2) / n;
      return {
        cpuMs: (cpu1 - cpu0) / n - floorMs,
        grossCpuMs: (cpu1 - cpu0) / n,
        floorCpuMs: floorMs,
        wallMs,
        d1Calls: last.d1Calls,
        d1Statements: last.d1Statements,
        subrequests: last.fetches,
        workerdRssMB: rssMB(workerd!),
      };
    }

    const n = { punchIn: quick ? 50 : 200, small: quick ? 50 : 200, large: quick ? 3 : 10 };
    const poVariant = (lines: number, count: number) => async () => {
      const bodies = await preparePos(lines, count);
      return measure(count, (i) => postPo(bodies[i]!));
    };
    const cronRound = async (): Promise<Figures> => {
      // Work for a full round: 10 five-line POs waiting (their intake untimed).
      for (const body of await preparePos(5, 10)) await postPo(body);
      const worker = (await mf.getWorker()) as unknown as {
        scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>;
      };
      const cpu0 = processCpuMs(workerd!);
      const started = performance.now();
      await worker.scheduled({ cron: '* * * * *', scheduledTime: new Date() });
      const wallMs = performance.now() - started;
      const cpuMs = processCpuMs(workerd!) - cpu0;
      const { round } = await counts();
      return {
        cpuMs,
        wallMs,
        d1Calls: round.d1Calls,
        d1Statements: round.d1Statements,
        subrequests: round.fetches,
      };
    };

    return {
      variants: {
        'punch-in': () => measure(n.punchIn, punchIn),
        'PO: 5 lines': poVariant(5, n.small),
        'PO: 1,000 lines': poVariant(1_000, n.large),
        'Cron round': cronRound,
      },
      metrics: {
        cpuMs: { unit: 'ms', better: 'lower' },
        grossCpuMs: { unit: 'ms', better: 'lower' },
        floorCpuMs: { unit: 'ms', better: 'lower' },
        wallMs: { unit: 'ms', better: 'lower' },
        d1Calls: { unit: 'calls', better: 'lower' },
        d1Statements: { unit: 'statements', better: 'lower' },
        subrequests: { unit: 'fetches', better: 'lower' },
        workerdRssMB: { unit: 'MB', better: 'lower' },
      },
      limits: LIMITS,
      rounds: quick ? 3 : 5,
      parameters: {
        runtime: 'workerd via Miniflare (node_modules)',
        cpuSource: '/proc/<workerd pid>/stat utime+stime, 10 ms ticks',
        setupBytes: new TextEncoder().encode(setup).byteLength,
        po5Bytes: workerOrder(0, 5).length,
        po1000Bytes: workerOrder(0, 1_000).length,
        requestsPerPoint: `${n.punchIn} punch-ins, ${n.small} 5-line POs, ${n.large} 1,000-line POs`,
      },
      async warmUp() {
        await measure(10, punchIn);
        await poVariant(5, 10)();
        await poVariant(1_000, 1)();
      },
      async close() {
        await mf.dispose();
        await receiver.close();
        await sandbox.stop();
      },
    };
  },
};

export default workerCpu;
