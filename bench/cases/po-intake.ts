/**
 * PO intake under load: cXML OrderRequests (unique payloadID and orderID each, naming 5 cart lines seeded
 * in the gateway's store) accepted, meaning persisted and answered with Status 200, per second, with 8
 * connections from autocannon, against three servers run the same way in child processes of their own:
 * - the physical floor with group commit (servers/intake-floor-server.ts: raw `node:http`, the lean parse,
 *   the raw text and the parsed document committed at `synchronous = FULL`, the commits of one event-loop
 *   turn in one transaction, as the gateway's SQLite store groups them): goal gateway/floor throughput at
 *   least 0.6 (harness/ratios.ts);
 * - the design floor, the same with Hono and fast-xml-parser (no goal here: the design goal is on cost,
 *   in the floors case);
 * - a bare Hono route that reads the body (goal: at least 0.5 of its throughput).
 * Each PO has an id of its own and names five cart lines no other PO in flight names (LINE_POOL).
 * Besides throughput, `cpuUsPerReq` is each server's CPU over the run (every thread, harness/process-cpu.ts)
 * per accepted document.
 *
 * The order intake is a gateway feature of its own; a gateway built without it answers Status 450, and
 * the case then reports itself skipped rather than measuring refusals.
 */
import { AUTOCANNON_METRICS } from '../harness/autocannon-load.ts';
import { type BenchCase, type Figures, skipCase } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { startChildServer } from '../harness/child-server.ts';
import { cxmlAccepted, cxmlPosts } from '../harness/cxml-posts.ts';
import type { FloorFlavour } from '../harness/floor.ts';
import { processCpuMicros } from '../harness/process-cpu.ts';
import { headlineGoal } from '../harness/ratios.ts';
import { seededLinesOrder } from '../harness/seeded-lines-order.ts';
import type { BareBodyServerReady } from '../servers/bare-body-server.ts';
import type { IntakeFloorServerOptions, IntakeFloorServerReady } from '../servers/intake-floor-server.ts';

const CONNECTIONS = 8;
const LINES_PER_ORDER = 5;
/**
 * Cart lines seeded in the gateway: each PO names five of its own, so no two POs in flight name the same
 * lines (the contention of POs naming the same lines is a matter of its own, not intake's throughput);
 * after 333 POs the pool starts over. POs start six lines apart: the seeded lines' products and the
 * OrderRequest's SKUs both go round three products by line number, so an offset that is a multiple of
 * three keeps them matching.
 */
const LINE_POOL = 2_000;
const LINE_STRIDE = 6;
const ID_MARK = 'BENCH-UNIQUE-ID';

/**
 * An OrderRequest for the seeded cart lines whose payloadID and orderID autocannon makes unique per request
 * (`[<id>]`).
 */
export function orderBody(uniqueId: string): string {
  return seededLinesOrder(LINES_PER_ORDER, `${uniqueId}@buyer.example`, `PO-${uniqueId}`);
}

/** The bodies of POs naming the pool's lines five by five, each with a fresh id. */
function distinctOrders(): () => string {
  const bodies = Array.from({ length: Math.floor(LINE_POOL / LINE_STRIDE) }, (_, k) =>
    orderBody(ID_MARK).replace(
      /L-(\d{8})/g,
      (_, n: string) => `L-${String(k * LINE_STRIDE + Number(n)).padStart(8, '0')}`,
    ),
  );
  let sent = 0;
  return () => {
    const k = sent++;
    return bodies[k % bodies.length]!.replaceAll(ID_MARK, `${process.pid}-${k}`);
  };
}

/** A load run that also reports the serving process's CPU per accepted document. */
function withServerCpu(pid: number | undefined, run: () => Promise<Figures>) {
  return async (): Promise<Figures> => {
    const before = pid === undefined ? Number.NaN : processCpuMicros(pid);
    const figures = await run();
    const after = pid === undefined ? Number.NaN : processCpuMicros(pid);
    return { ...figures, cpuUsPerReq: (after - before) / (figures.accepted ?? Number.NaN) };
  };
}

const poIntake: BenchCase = {
  name: 'po-intake',
  headline: true,
  title:
    'cXML OrderRequests accepted (persisted, Status 200) per second vs the physical floor with group commit',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const gateway = await startGatewayServer(sandbox, { reuseSeconds: 600, orderLines: LINE_POOL }, 120_000);
    const stopServers = async () => {
      await gateway.stop();
      await sandbox.stop();
    };

    const probe = await fetch(`${gateway.ready.url}/cxml`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=UTF-8' },
      body: orderBody(`probe-${Date.now()}`),
    });
    const probeAnswer = await probe.text();
    if (probeAnswer.includes('<Status code="450"')) {
      await stopServers();
      return skipCase('order intake not available (the gateway answers OrderRequest with Status 450)');
    }
    if (!probeAnswer.includes('<Status code="200"')) {
      await stopServers();
      throw new Error(`po-intake: the gateway refused the probe OrderRequest:\n${probeAnswer}`);
    }

    const intakeFloor = (flavour: FloorFlavour) =>
      startChildServer<IntakeFloorServerReady>(
        new URL('../servers/intake-floor-server.ts', import.meta.url),
        {
          options: { flavour } satisfies IntakeFloorServerOptions,
        },
      );
    const [bare, physical, design] = await Promise.all([
      startChildServer<BareBodyServerReady>(new URL('../servers/bare-body-server.ts', import.meta.url)),
      intakeFloor('physical'),
      intakeFloor('design'),
    ]);
    const durationMs = quick ? 1_000 : 3_000;
    const body = orderBody('[<id>]');
    const bodyOf = distinctOrders();
    const post = (url: string, accept?: (status: number, text: string) => boolean) =>
      cxmlPosts({
        url,
        body,
        bodyOf,
        connections: CONNECTIONS,
        durationMs,
        ...(accept !== undefined && { accept }),
      });
    const variants = {
      'physical floor, group commit': withServerCpu(physical.pid, post(physical.ready.url)),
      'design floor, group commit': withServerCpu(design.pid, post(design.ready.url)),
      'bare Hono route': withServerCpu(bare.pid, post(bare.ready.url)),
      'gateway order intake': withServerCpu(gateway.pid, post(gateway.ready.url, cxmlAccepted)),
    };
    return {
      variants,
      metrics: { ...AUTOCANNON_METRICS, cpuUsPerReq: { unit: 'µs', better: 'lower' } },
      ratios: [
        {
          name: 'gateway/physical floor (group commit) req/s',
          metric: 'reqPerSec',
          numerator: 'gateway order intake',
          denominator: 'physical floor, group commit',
          goal: headlineGoal('PO intake, 5 lines', 'physical, group commit')!,
          headline: { operation: 'PO intake, 5 lines', floor: 'physical, group commit' },
        },
        {
          name: 'gateway/design floor (group commit) req/s',
          metric: 'reqPerSec',
          numerator: 'gateway order intake',
          denominator: 'design floor, group commit',
        },
        {
          name: 'gateway/physical floor CPU per PO under load',
          metric: 'cpuUsPerReq',
          numerator: 'gateway order intake',
          denominator: 'physical floor, group commit',
        },
        {
          name: 'gateway/bare req/s',
          metric: 'reqPerSec',
          numerator: 'gateway order intake',
          denominator: 'bare Hono route',
          goal: { atLeast: 0.5 },
        },
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        connections: CONNECTIONS,
        durationMs,
        linesPerOrder: LINES_PER_ORDER,
        linePool: LINE_POOL,
        orderBytes: new TextEncoder().encode(body).byteLength,
        loadGenerator: 'autocannon',
      },
      async warmUp() {
        for (const run of Object.values(variants)) await run();
      },
      async close() {
        await Promise.all([bare.stop(), physical.stop(), design.stop()]);
        await stopServers();
      },
    };
  },
};

export default poIntake;
