/**
 * PO intake: cXML OrderRequests (unique payloadID and orderID each, naming cart lines seeded in the
 * gateway's store) accepted, meaning persisted and answered with Status 200, per second, against a bare
 * Hono route that reads the same body (goal: ratio at least 0.5) and against the intake's floor (issue 18):
 * a bare parse of the same document plus one SQLite commit of a row its size at the gateway's level,
 * `synchronous = FULL` in WAL mode, one after another in this process (goal: at least 1/1.3 of it).
 *
 * The order intake is a gateway feature of its own; a gateway built without it answers Status 450, and
 * the case then reports itself skipped rather than measuring refusals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { XMLParser } from 'fast-xml-parser';
import { AUTOCANNON_METRICS } from '../harness/autocannon-load.ts';
import { type BenchCase, skipCase } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { startChildServer } from '../harness/child-server.ts';
import { cxmlAccepted, cxmlPosts } from '../harness/cxml-posts.ts';
import { seededLinesOrder } from '../harness/seeded-lines-order.ts';
import type { BareBodyServerReady } from '../servers/bare-body-server.ts';

const CONNECTIONS = 8;
const LINES_PER_ORDER = 5;

/**
 * An OrderRequest for the seeded cart lines whose payloadID and orderID autocannon makes unique per request
 * (`[<id>]`).
 */
export function orderBody(uniqueId: string): string {
  return seededLinesOrder(LINES_PER_ORDER, `${uniqueId}@buyer.example`, `PO-${uniqueId}`);
}

/**
 * The floor of one intake: parse the document, then commit one row holding it and a document-sized JSON
 * text, fsynced as the gateway's store does (WAL, `synchronous = FULL`, on the same temporary disk). Run
 * back to back for `durationMs`; the gateway's SQLite writes are serialised likewise.
 */
function intakeFloor(body: string) {
  const dir = mkdtempSync(join(tmpdir(), 'punchgate-bench-floor-'));
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE po (id INTEGER PRIMARY KEY, raw TEXT NOT NULL, document TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO po (raw, document) VALUES (?, ?)');
  const commit = db.transaction((raw: string, document: string) => insert.run(raw, document));
  const parser = new XMLParser();
  const run = async (durationMs: number) => {
    const latencies: number[] = [];
    const started = performance.now();
    while (performance.now() - started < durationMs) {
      const t = performance.now();
      commit.immediate(body, JSON.stringify(parser.parse(body)));
      latencies.push(performance.now() - t);
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    return { reqPerSec: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99), errors: 0 };
  };
  const close = () => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { run, close };
}

const poIntake: BenchCase = {
  name: 'po-intake',
  title:
    'cXML OrderRequests accepted (persisted, Status 200) per second vs a bare Hono route reading the body',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const gateway = await startGatewayServer(sandbox, { reuseSeconds: 600, orderLines: LINES_PER_ORDER });
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

    const bare = await startChildServer<BareBodyServerReady>(
      new URL('../servers/bare-body-server.ts', import.meta.url),
    );
    const durationMs = quick ? 1_000 : 3_000;
    const body = orderBody('[<id>]');
    const post = (url: string, accept?: (status: number, text: string) => boolean) =>
      cxmlPosts({ url, body, connections: CONNECTIONS, durationMs, ...(accept !== undefined && { accept }) });
    const floor = intakeFloor(orderBody('floor'));
    const variants = {
      'floor: parse + 1 FULL commit': () => floor.run(durationMs),
      'bare Hono route': post(bare.ready.url),
      'gateway order intake': post(gateway.ready.url, cxmlAccepted),
    };
    return {
      variants,
      metrics: AUTOCANNON_METRICS,
      ratios: [
        {
          name: 'gateway/bare req/s',
          metric: 'reqPerSec',
          numerator: 'gateway order intake',
          denominator: 'bare Hono route',
          goal: { atLeast: 0.5 },
        },
        {
          name: 'gateway/floor req/s',
          metric: 'reqPerSec',
          numerator: 'gateway order intake',
          denominator: 'floor: parse + 1 FULL commit',
          goal: { atLeast: 0.77 },
        },
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        connections: CONNECTIONS,
        durationMs,
        linesPerOrder: LINES_PER_ORDER,
        orderBytes: new TextEncoder().encode(body).byteLength,
        loadGenerator: 'autocannon',
      },
      async warmUp() {
        for (const run of Object.values(variants)) await run();
      },
      async close() {
        floor.close();
        await bare.stop();
        await stopServers();
      },
    };
  },
};

export default poIntake;
