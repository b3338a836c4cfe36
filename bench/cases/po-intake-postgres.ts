/**
 * PO intake on PostgreSQL, one gateway instance against two on one database, with POs naming lines of
 * their own and with POs all naming the same five cart lines (a buyer re-sending a PO under new numbers,
 * a requisition split over one cart). Each instance is the bench gateway server (serve's build, logging as
 * serve logs) in a child process of its own with its own connection pool, on a schema made for the run at
 * `PUNCHGATE_TEST_PG_URL` and dropped after it; each gets 8 connections from autocannon, as the SQLite
 * case's one gateway does. Goals: two instances take at least 1.6 times what one takes (distinct lines), and
 * POs naming the same lines are never refused as too many documents at once (`errors` 0).
 *
 * Without `PUNCHGATE_TEST_PG_URL` the case reports itself skipped.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { AUTOCANNON_METRICS, runAutocannon } from '../harness/autocannon-load.ts';
import { type BenchCase, type Figures, skipCase } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { cxmlAccepted } from '../harness/cxml-posts.ts';
import { orderBody } from './po-intake.ts';

const CONNECTIONS_PER_INSTANCE = 8;
const CORES = availableParallelism();
const LINE_POOL = 2_000;
/** POs start six lines apart, so each names five lines no PO in flight names (see po-intake.ts). */
const LINE_STRIDE = 6;
/**
 * Between runs: autocannon leaves the requests it had in flight when its time was up, and the next run's
 * connections would otherwise meet them in the admission gate's count of one address.
 */
const SETTLE_MS = 300;

/** Bodies of POs naming lines of their own, each with a fresh id. */
function distinctOrders(): () => string {
  let sent = 0;
  return () => {
    const k = sent++;
    const first = (k % Math.floor(LINE_POOL / LINE_STRIDE)) * LINE_STRIDE;
    return orderBody(`pg-${process.pid}-${k}`).replace(
      /L-(\d{8})/g,
      (_, n: string) => `L-${String(first + Number(n)).padStart(8, '0')}`,
    );
  };
}

/** The machine's CPU time so far, busy and in all, in clock ticks (Linux's /proc/stat; zeros elsewhere). */
function machineTicks(): { busy: number; all: number } {
  try {
    const fields = (/^cpu\s+(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '')
      .split(/\s+/)
      .map(Number);
    const all = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
    // idle and iowait are the 4th and 5th fields.
    return { busy: all - (fields[3] ?? 0) - (fields[4] ?? 0), all };
  } catch {
    return { busy: 0, all: 0 };
  }
}

/**
 * One run against each of `urls` at once: accepted POs per second summed, errors summed, p99 the worst,
 * and how many of the machine's cores were busy meanwhile (every process: the gateways, PostgreSQL, the
 * sandbox and the load generator), so a second instance that gains little on a machine already busy shows
 * as such: POs per busy core-second stays level when the work scales and only the cores run out.
 */
async function intakeRun(urls: readonly string[], sameLines: boolean, durationMs: number): Promise<Figures> {
  const bodyOf = distinctOrders();
  const before = machineTicks();
  const runs = await Promise.all(
    urls.map((url) =>
      runAutocannon({
        url: `${url}/cxml`,
        method: 'POST',
        connections: CONNECTIONS_PER_INSTANCE,
        durationMs,
        headers: { 'content-type': 'text/xml; charset=UTF-8' },
        // `[<id>]` makes each payloadID and orderID unique; the lines stay L-00000001…5 for all.
        body: orderBody('[<id>]'),
        ...(!sameLines && { bodyOf }),
        accept: cxmlAccepted,
      }),
    ),
  );
  const after = machineTicks();
  await sleep(SETTLE_MS);
  const sum = (metric: string) => runs.reduce((total, run) => total + (run[metric] ?? 0), 0);
  const coresBusy =
    after.all > before.all ? (CORES * (after.busy - before.busy)) / (after.all - before.all) : 0;
  return {
    coresBusy,
    posPerCoreSecond: coresBusy > 0 ? sum('reqPerSec') / coresBusy : Number.NaN,
    reqPerSec: sum('reqPerSec'),
    p50Ms: Math.max(...runs.map((run) => run.p50Ms ?? Number.NaN)),
    p99Ms: Math.max(...runs.map((run) => run.p99Ms ?? Number.NaN)),
    errors: sum('errors'),
    accepted: sum('accepted'),
  };
}

const poIntakePostgres: BenchCase = {
  name: 'po-intake-postgres',
  title:
    'cXML OrderRequests accepted per second on PostgreSQL: two gateway instances vs one, same lines vs own',
  async setup({ quick }) {
    const url = process.env.PUNCHGATE_TEST_PG_URL;
    if (url === undefined || url === '') return skipCase('no PostgreSQL (set PUNCHGATE_TEST_PG_URL)');
    const schema = `bench_po_intake_${process.pid}_${Date.now()}`;
    const sandbox = await startSandboxServer();
    const postgres = { url, schema };
    const first = await startGatewayServer(
      sandbox,
      { reuseSeconds: 600, orderLines: LINE_POOL, postgres },
      300_000,
    );
    // The second finds the lines the first seeded.
    const second = await startGatewayServer(sandbox, { reuseSeconds: 600, orderLines: 0, postgres });
    const durationMs = quick ? 1_000 : 3_000;
    const one = [first.ready.url];
    const two = [first.ready.url, second.ready.url];
    const variants = {
      'one instance, own lines': () => intakeRun(one, false, durationMs),
      'two instances, own lines': () => intakeRun(two, false, durationMs),
      'one instance, same lines': () => intakeRun(one, true, durationMs),
      'two instances, same lines': () => intakeRun(two, true, durationMs),
    };
    return {
      variants,
      metrics: {
        ...AUTOCANNON_METRICS,
        coresBusy: { unit: 'cores', better: 'lower' },
        posPerCoreSecond: { unit: 'POs/core-s', better: 'higher' },
      },
      ratios: [
        {
          name: 'two/one instances req/s, own lines',
          metric: 'reqPerSec',
          numerator: 'two instances, own lines',
          denominator: 'one instance, own lines',
          goal: { atLeast: 1.6 },
        },
        {
          // Level (≈ 1) when a second instance does as much per core as one: what it lacks is cores.
          name: 'two/one instances POs per busy core-second, own lines',
          metric: 'posPerCoreSecond',
          numerator: 'two instances, own lines',
          denominator: 'one instance, own lines',
        },
        {
          name: 'two/one instances req/s, same lines',
          metric: 'reqPerSec',
          numerator: 'two instances, same lines',
          denominator: 'one instance, same lines',
        },
        {
          name: 'same/own lines req/s, two instances',
          metric: 'reqPerSec',
          numerator: 'two instances, same lines',
          denominator: 'two instances, own lines',
        },
      ],
      limits: [
        {
          name: 'POs refused, two instances, same lines',
          variant: 'two instances, same lines',
          metric: 'errors',
          goal: { atMost: 0 },
        },
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        connectionsPerInstance: CONNECTIONS_PER_INSTANCE,
        durationMs,
        linePool: LINE_POOL,
        loadGenerator: 'autocannon',
      },
      async warmUp() {
        for (const run of Object.values(variants)) await run();
      },
      async close() {
        await Promise.all([first.stop(), second.stop()]);
        await sandbox.stop();
        const client = new pg.Client(url);
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        } finally {
          await client.end();
        }
      },
    };
  },
};

export default poIntakePostgres;
