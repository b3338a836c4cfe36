/**
 * PO intake's floors under load, in a child process of its own (`BENCH_SERVER_OPTIONS`
 * `{"flavour":"design"|"physical"}`): `POST /cxml` reads the body, parses it, and commits the raw text
 * and the parsed document as JSON in one row at `synchronous = FULL` (WAL), as the gateway's store keeps a
 * PO, then answers 200. Commits asked for within one turn of the event loop go into one transaction —
 * group commit, as the gateway's SQLite store does — so the floor's throughput is what one fsync per batch
 * allows, not one per PO.
 * - design: a Hono route on @hono/node-server, fast-xml-parser with the codec's set-up;
 * - physical: a raw `node:http` handler, the lean parser (harness/lean-xml.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { parseXmlTree } from '../../src/cxml/xml-tree.ts';
import { childServerOptions } from '../harness/child-server.ts';
import type { FloorFlavour } from '../harness/floor.ts';
import { parseLeanXml } from '../harness/lean-xml.ts';

export interface IntakeFloorServerOptions {
  readonly flavour: FloorFlavour;
}

export interface IntakeFloorServerReady {
  readonly url: string;
}

const flavour = childServerOptions<IntakeFloorServerOptions>().flavour ?? 'physical';
const parse = flavour === 'design' ? parseXmlTree : parseLeanXml;

const dir = mkdtempSync(join(tmpdir(), 'punchgate-bench-intake-floor-'));
const db = new Database(join(dir, 'floor.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE po (id INTEGER PRIMARY KEY, raw TEXT NOT NULL, document TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO po (raw, document) VALUES (?, ?)');
const commitAll = db.transaction((rows: readonly (readonly [string, string])[]) => {
  for (const [raw, document] of rows) insert.run(raw, document);
});

interface Pending {
  readonly row: readonly [string, string];
  readonly done: () => void;
}
let pending: Pending[] = [];
/** Queues the row; the first of a turn schedules the batch's one transaction after the turn's I/O. */
function commit(raw: string, document: string): Promise<void> {
  return new Promise((done) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ row: [raw, document], done });
  });
}
function flush(): void {
  const batch = pending;
  pending = [];
  commitAll.immediate(batch.map((entry) => entry.row));
  for (const entry of batch) entry.done();
}

async function intake(body: string): Promise<number> {
  await commit(body, JSON.stringify(parse(body)));
  return body.length;
}

function designServer(): Promise<Server> {
  const app = new Hono();
  app.post('/cxml', async (c) => c.text(`stored ${await intake(await c.req.text())}`));
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(server as Server),
    );
  });
}

function physicalServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      intake(Buffer.concat(chunks).toString()).then(
        (stored) => res.end(`stored ${stored}`),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const server = flavour === 'design' ? await designServer() : await physicalServer();
const ready: IntakeFloorServerReady = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
process.send?.(ready);
process.once('disconnect', () => {
  server.closeAllConnections();
  server.close(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
