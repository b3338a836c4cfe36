import { fork } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteMigrations, sqliteSchemaVersion } from '../../src/store/sql/migrations.ts';
import { sqliteDialect } from '../../src/store/sql/dialect.ts';
import { storeStatements } from '../../src/store/sql/statements.ts';
import { openStore } from '../../src/runtime/gateway-node.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { createManualClock } from './manual-clock.ts';
import {
  acceptOrderIn,
  expectVersion7Migrated,
  expectVersion2MessagesMigrated,
  expectVersion3Migrated,
  expectVersion7DocumentsRedacted,
  version1Orders,
  version1OrdersMigrated,
  version2Messages,
  version3PrintOrders,
  version7Orders,
  version7Documents,
} from './migration-checks.ts';
import {
  at,
  cartLine,
  cxmlSession,
  expectStoreError,
  runStoreSuite,
  SQLITE_FAIL_ATTACHMENT_WRITES,
  SQLITE_FAIL_CART_LINE_UPDATES,
  T0,
} from './store-suite.ts';

let dir: string;
let template: string;
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);
/** A new file holding an empty, already migrated database: spares each test the schema's fsyncs. */
const migratedPath = () => {
  const path = freshPath();
  copyFileSync(template, path);
  return path;
};

/**
 * Runs `count` claim workers on the file and answers the ids each claimed. Each one opens its store and says
 * so, and only once all have does one message release them together, so the claims overlap however long a
 * process takes to start.
 */
async function claimInProcesses(count: number, path: string): Promise<string[][]> {
  const worker = fileURLToPath(new URL('./sqlite-claim-worker.ts', import.meta.url));
  const children = Array.from({ length: count }, () =>
    fork(worker, [path, T0.toISOString()], { execArgv: [], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] }),
  );
  const outputs = children.map(async (child) => {
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`claim worker exited with ${code}`);
    return JSON.parse(stdout) as string[];
  });
  // A worker that dies before it is ready fails the test instead of leaving the others waiting for the go.
  try {
    await Promise.all(children.map((child, i) => Promise.race([once(child, 'message'), outputs[i]])));
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  }
  for (const child of children) child.send('go');
  return Promise.all(outputs);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punchgate-store-'));
  template = join(dir, 'template.db');
  // Closing checkpoints the WAL into the file, so the copy is complete.
  await createSqliteStore({ path: template }).close();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A new database file at an older schema version, open for the test to write that version's rows. */
function databaseAtVersion(version: number): { path: string; old: Database.Database } {
  const path = freshPath();
  const old = new Database(path);
  old.exec(sqliteSchemaVersion.create);
  for (const [index, migration] of sqliteMigrations.slice(0, version).entries()) {
    old.exec(migration);
    old.prepare(sqliteSchemaVersion.record).run(index + 1, 0);
  }
  return { path, old };
}

/** Looks into the file beside the store, read-only, and closes it again whatever `check` throws. */
function inspect(path: string, check: (raw: Database.Database) => void): void {
  const raw = new Database(path, { readonly: true });
  try {
    check(raw);
  } finally {
    raw.close();
  }
}

const recordedVersions = (raw: Database.Database) =>
  raw.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all();
const everyVersion = sqliteMigrations.map((_, i) => i + 1);

/** The file of the suite's current store, where its faults are injected through a connection of their own. */
let suitePath = '';
const onSuiteFile = (sql: string) => {
  const raw = new Database(suitePath);
  try {
    raw.exec(sql);
  } finally {
    raw.close();
  }
};
runStoreSuite(
  'sqlite',
  async ({ clock }) => {
    suitePath = migratedPath();
    return createSqliteStore({ path: suitePath, clock });
  },
  {
    async failCartLineUpdates() {
      onSuiteFile(SQLITE_FAIL_CART_LINE_UPDATES);
      return async () => onSuiteFile('DROP TRIGGER fail_cart_line_updates');
    },
    async failAttachmentWrites() {
      onSuiteFile(SQLITE_FAIL_ATTACHMENT_WRITES);
      return async () => onSuiteFile('DROP TRIGGER fail_attachment_writes');
    },
  },
);

/** Jane's cart line of 100 business cards at 0.12 USD in the cXML session sess-cxml-1. */
const businessCardsLine = (lineRef: string) =>
  cartLine({ lineRef, designId: 1, userRef: 'jane', quantity: 100 });

describe('SQLite store', () => {
  it('finds a sent document by its payloadID through the index on it, not by reading every document', () => {
    const db = new Database(':memory:');
    for (const migration of sqliteMigrations) db.exec(migration);
    const { sql } = storeStatements(sqliteDialect).outbox.findByPayloadId;
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('acme', 'payload@punchgate.example');
    expect(plan.map((step) => (step as { detail: string }).detail)).toContain(
      'SEARCH buyer_documents USING COVERING INDEX buyer_documents_payload (buyer_id=? AND <expr>=?)',
    );
    db.close();
  });

  it('keeps every kind of record across close and reopen', async () => {
    const path = migratedPath();
    const clock = createManualClock(T0);
    const first = createSqliteStore({ path, clock });
    await first.sessions.create(cxmlSession());
    expect(await first.tokens.consumeOnce('jti-1', at(60_000))).toBe(true);
    await first.users.put({
      buyerId: 'acme',
      userKey: 'jane',
      storefrontId: 'demo',
      pipoUserId: 7,
      username: 'u7',
      email: 'jane@acme.example',
      passwordEnc: 'enc',
      isTemp: false,
    });
    const line = await first.cart.add(businessCardsLine('L-AAAAAA'));
    const { order } = await first.orders.accept({
      buyerId: 'acme',
      payloadId: 'p-1',
      orderId: 'PO-1',
      type: 'new',
      raw: '<cXML/>',
      document: { a: [1, 'two', null] },
      answer: { code: 200, text: 'OK' },
    });
    const { job } = await first.jobs.enqueue({
      kind: 'process_order',
      key: `po:${order.id}`,
      payload: {},
      runAt: T0,
    });
    const { message } = await first.outbox.enqueue({
      buyerId: 'acme',
      poId: order.id,
      kind: 'confirmation',
      dedupeKey: 'confirm:1',
      url: 'https://buyer.example.com/cxml',
      body: '<cXML/>',
    });
    const { printOrder } = await first.printOrders.add({
      storefrontId: 'demo',
      printOrderId: 5001,
      poId: order.id,
    });
    const event = await first.events.add({
      storefrontId: 'demo',
      event: 'order_updated',
      body: [{ id: 5001 }],
    });
    const session = await first.sessions.get('sess-cxml-1');
    const user = await first.users.get('acme', 'jane');
    await first.close();

    const second = createSqliteStore({ path, clock });
    expect(await second.sessions.get('sess-cxml-1')).toStrictEqual(session);
    expect(await second.tokens.consumeOnce('jti-1', at(60_000))).toBe(false);
    expect(await second.users.get('acme', 'jane')).toStrictEqual(user);
    expect(await second.cart.get('L-AAAAAA')).toStrictEqual(line);
    expect(await second.orders.get(order.id)).toStrictEqual(order);
    expect(await second.jobs.get(job.id)).toStrictEqual(job);
    expect(await second.outbox.get(message.id)).toStrictEqual(message);
    expect(await second.printOrders.get('demo', 5001)).toStrictEqual(printOrder);
    expect(await second.events.get(event.id)).toStrictEqual(event);
    const next = await second.orders.accept({
      buyerId: 'acme',
      payloadId: 'p-2',
      orderId: 'PO-2',
      type: 'new',
      raw: '<cXML/>',
      document: {},
      answer: { code: 200, text: 'OK' },
    });
    expect(Number(next.order.id)).toBeGreaterThan(Number(order.id));
    await second.close();
  });

  it('creates the schema once, in WAL mode, and records its version', async () => {
    const path = join(dir, 'nested', 'folder', 'gateway.db');
    await createSqliteStore({ path }).close();
    await createSqliteStore({ path }).close();
    expect(existsSync(path)).toBe(true);
    inspect(path, (raw) => {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(recordedVersions(raw)).toEqual(everyVersion);
    });
  });

  it('migrates a version 1 database: existing orders get their dedupe keys, later changes their own rows', async () => {
    const { path, old } = databaseAtVersion(1);
    const insert =
      old.prepare(`INSERT INTO purchase_orders (id, buyer_id, payload_id, order_id, type, state, raw,
        document, answer_code, answer_text, print_order_ids, flags, created_at, updated_at)
      VALUES (?, 'acme', ?, ?, ?, 'ordered', '<cXML/>', ?, 200, 'OK', '[5001]', '[]', 0, 0)`);
    for (const row of version1Orders('not json')) insert.run(...row);
    old.close();

    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    inspect(path, (raw) => {
      expect(
        raw.prepare('SELECT id, order_version, revision_key FROM purchase_orders ORDER BY id').all(),
      ).toEqual(version1OrdersMigrated);
      expect(recordedVersions(raw)).toEqual(everyVersion);
    });
    expect(await store.orders.get('8')).toMatchObject({
      type: 'update',
      orderVersion: '2',
      printOrderIds: [5001],
    });
    const order = acceptOrderIn(store);
    expect((await order('p-new-again', 'new', 'PO-1')).order.id).toBe('7');
    expect((await order('p-change-again', 'update', 'PO-1', '2')).order.id).toBe('8');
    expect((await order('p-cancel-again', 'delete', 'PO-1')).order.id).toBe('9');
    const next = await order('p-change-3', 'update', 'PO-1', '3');
    expect(next.created).toBe(true);
    expect(Number(next.order.id)).toBeGreaterThan(11);
    expect((await order('p-change-unversioned-2', 'update', 'PO-2')).created).toBe(true);
    await store.close();
  });

  it('migrates a version 2 database: messages keep their ids and read as before, delivered ones can be purged', async () => {
    const { path, old } = databaseAtVersion(2);
    const message =
      old.prepare(`INSERT INTO outbox (id, buyer_id, po_id, kind, dedupe_key, url, body, attempts,
        next_attempt_at, state, lease_until, last_error, delivered_at, created_at, updated_at)
      VALUES (?, 'acme', ?, 'confirmation', ?, 'https://buyer.example.com/cxml', ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    // Ids with gaps: the migration must keep each message's own.
    const ids = { delivered: '3', pending: '5', sending: '6', dead: '9' };
    for (const [role, ...row] of version2Messages) message.run(ids[role], ...row);
    const job = old.prepare(`INSERT INTO jobs (id, kind, key, payload, run_at, attempts, max_attempts, state,
        last_error, created_at, updated_at) VALUES (?, 'process_order', ?, '{}', 0, 1, 10, ?, ?, 0, 0)`);
    job.run(4, 'po:1', 'dead', 'gave up');
    job.run(8, 'po:2', 'done', null);
    old
      .prepare(`INSERT INTO inbox_events (id, storefront_id, event, body, received_at, processed)
      VALUES (2, 'demo', 'order_updated', '[]', 0, 1)`)
      .run();
    old.close();

    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    inspect(path, (raw) => {
      expect(recordedVersions(raw)).toEqual(everyVersion);
      expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'outbox'").all()).toEqual([]);
    });
    const fresh = await expectVersion2MessagesMigrated(store, ids);
    expect(fresh.message.id).toBe('10');

    expect(await store.jobs.get('4')).toMatchObject({ state: 'dead', key: 'po:1' });
    expect(await store.jobs.purgeFinished(T0)).toBe(1);
    expect((await store.jobs.enqueue({ kind: 'k', key: 'po:1', payload: {}, runAt: T0 })).created).toBe(
      false,
    );
    // Never a purged id again (the enqueue refused above may use one up: ids only grow, with gaps).
    const next = await store.jobs.enqueue({ kind: 'k', key: 'po:2', payload: {}, runAt: T0 });
    expect(Number(next.job.id)).toBeGreaterThan(8);
    expect(await store.events.purgeProcessed(T0)).toBe(1);
    expect((await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] })).id).toBe('3');
    await store.close();
  });

  it('migrates a version 3 database: print orders tracked before give the highest id, heartbeats start empty', async () => {
    const { path, old } = databaseAtVersion(3);
    const printOrder = old.prepare(`INSERT INTO print_orders (storefront_id, print_order_id, po_id, state,
        shipments_notified, confirmed, created_at, updated_at) VALUES ('demo', ?, '7', ?, '[]', 1, 0, 0)`);
    for (const row of version3PrintOrders) printOrder.run(...row);
    old.close();

    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    inspect(path, (raw) => expect(recordedVersions(raw)).toEqual(everyVersion));
    await expectVersion3Migrated(store);
    await store.close();
  });

  it('migrates a version 7 database: create attempts get their own field, sent documents keep no SharedSecret', async () => {
    const { path, old } = databaseAtVersion(7);
    const insert = old.prepare(`INSERT INTO purchase_orders (id, buyer_id, payload_id, order_id, type,
        revision_key, state, raw, document, answer_code, answer_text, print_order_ids, flags, created_at,
        updated_at) VALUES (?, 'acme', ?, ?, 'new', '', 'processing', '<cXML/>', '{}', 200, 'OK', '[]', ?, 0, 0)`);
    for (const [id, orderId, flags] of version7Orders) insert.run(id, orderId, orderId, flags);
    const document =
      old.prepare(`INSERT INTO buyer_documents (id, buyer_id, po_id, kind, dedupe_key, url, body,
        created_at, attempts, next_attempt_at, delivered_at, updated_at)
      VALUES (?, 'acme', '7', 'confirmation', ?, 'https://buyer.example.com/cxml', ?, 0, 1, 0, 5000, 5000)`);
    for (const row of version7Documents) document.run(...row);
    old.close();

    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    inspect(path, (raw) => expect(recordedVersions(raw)).toEqual(everyVersion));
    await expectVersion7Migrated(store);
    await expectVersion7DocumentsRedacted(store);
    await store.close();
  });

  it('migrates a version 14 database: refused documents come into the refusals log, without a document', async () => {
    const { path, old } = databaseAtVersion(14);
    old
      .prepare(`INSERT INTO refused_documents (buyer_id, document_type, payload_id, order_id, code, reason,
          related_po_id, created_at) VALUES ('acme', 'OrderRequest', 'p-2@buyer', 'PO-1', 409, 'orderID PO-1 is taken', '7', ?)`)
      .run(T0.getTime());
    old.close();

    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    expect((await store.refusals.list()).items).toStrictEqual([
      {
        id: expect.any(String),
        buyerId: 'acme',
        channel: 'cxml',
        documentType: 'OrderRequest',
        payloadId: 'p-2@buyer',
        clientAddress: 'unknown',
        status: 409,
        answer: 'orderID PO-1 is taken',
        document: '',
        documentBytes: 0,
        createdAt: T0,
      },
    ]);
    inspect(path, (raw) =>
      expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'refused_documents'").all()).toEqual(
        [],
      ),
    );
    await store.close();
  });

  it('refuses a database written by a newer schema', async () => {
    const path = migratedPath();
    const raw = new Database(path);
    raw
      .prepare('INSERT INTO schema_version (version, applied_at) VALUES (?, 0)')
      .run(sqliteMigrations.length + 1);
    raw.close();
    let failure: unknown;
    try {
      createSqliteStore({ path });
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ name: 'StoreError', code: 'incompatible_schema' });
  });

  it('answers unavailable when the file cannot be created', () => {
    const blockedBy = join(dir, 'a-file');
    writeFileSync(blockedBy, 'not a folder');
    expect(() => createSqliteStore({ path: join(blockedBy, 'gateway.db') })).toThrow(
      expect.objectContaining({ name: 'StoreError', code: 'unavailable' }),
    );
    const notADatabase = join(dir, 'not-a-database.db');
    writeFileSync(notADatabase, 'x'.repeat(4096));
    expect(() => createSqliteStore({ path: notADatabase })).toThrow(
      expect.objectContaining({ name: 'StoreError', code: 'unavailable' }),
    );
  });

  it('answers unavailable once closed', async () => {
    const store = createSqliteStore({ path: migratedPath() });
    await store.close();
    await expectStoreError(store.sessions.get('x'), 'unavailable');
    await expectStoreError(store.ping(), 'unavailable');
  });

  it('answers unavailable when another connection holds the write lock past the busy timeout', async () => {
    const path = migratedPath();
    const store = createSqliteStore({ path, busyTimeoutMs: 20 });
    const blocker = new Database(path);
    blocker.exec('BEGIN IMMEDIATE');
    try {
      await expectStoreError(store.sessions.create(cxmlSession()), 'unavailable');
      // Reads still work in WAL mode while another connection writes.
      expect(await store.sessions.get('sess-cxml-1')).toBeUndefined();
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect((await store.sessions.create(cxmlSession())).id).toBe('sess-cxml-1');
    await store.close();
  });

  it('never lets two store instances on one file claim the same job', async () => {
    const path = migratedPath();
    const a = createSqliteStore({ path, clock: createManualClock(T0) });
    const b = createSqliteStore({ path, clock: createManualClock(T0) });
    for (let i = 0; i < 20; i++) await a.jobs.enqueue({ kind: 'k', key: `j${i}`, payload: i, runAt: T0 });
    const claims = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).jobs.claim(T0, 60_000)),
    );
    const ids = claims.flatMap((job) => (job ? [job.id] : []));
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    // Once a lease runs out, exactly one of the two takes the job over.
    const retakes = await Promise.all([a.jobs.claim(at(60_000), 60_000), b.jobs.claim(at(60_000), 60_000)]);
    expect(retakes.filter(Boolean)).toHaveLength(2);
    expect(retakes[0]?.id).not.toBe(retakes[1]?.id);
    await a.close();
    await b.close();
  });

  it('never lets two processes on one file claim the same job', async () => {
    const path = migratedPath();
    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    const count = 120;
    const ids = new Set<string>();
    for (let i = 0; i < count; i++) {
      ids.add((await store.jobs.enqueue({ kind: 'k', key: `j${i}`, payload: i, runAt: T0 })).job.id);
    }
    await store.close();

    const claimed = (await claimInProcesses(3, path)).flat();
    expect(claimed).toHaveLength(count);
    expect(new Set(claimed)).toEqual(ids);

    const check = createSqliteStore({ path, clock: createManualClock(T0) });
    expect((await check.jobs.list({ state: 'done', limit: 500 })).items).toHaveLength(count);
    await check.close();
  });
});

describe('SQLite group commit: POs arriving together share one transaction and one fsync', () => {
  const JOB = { kind: 'process_order', keyPrefix: 'po:', runAt: T0, maxAttempts: 5 };
  const po = (n: number, lineRef: string) => ({
    order: {
      buyerId: 'acme',
      payloadId: `${n}@buyer.example`,
      orderId: `PO-${n}`,
      type: 'new' as const,
      raw: `<cXML payloadID="${n}@buyer.example"/>`,
      document: { n },
      answer: { code: 200, text: 'OK' },
    },
    lineRefs: [lineRef],
    job: JOB,
  });

  it('one PO of the group failing loses and fails none of the others; retried, it is taken; copies stay copies', async () => {
    const path = migratedPath();
    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    await store.sessions.create(cxmlSession());
    for (const ref of ['L-1', 'L-2', 'L-POISON', 'L-4']) await store.cart.add(businessCardsLine(ref));
    const other = new Database(path);
    other.exec(`CREATE TRIGGER poisoned BEFORE UPDATE ON cart_lines WHEN OLD.line_ref = 'L-POISON'
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    const outcomes = await Promise.allSettled([
      store.orders.acceptWithLines(po(1, 'L-1')),
      store.orders.acceptWithLines(po(2, 'L-2')),
      store.orders.acceptWithLines(po(3, 'L-POISON')),
      store.orders.acceptWithLines(po(4, 'L-4')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toMatch(/injected failure/);
    for (const [n, ref] of [
      [1, 'L-1'],
      [2, 'L-2'],
      [4, 'L-4'],
    ] as const) {
      const order = await store.orders.getByOrderId('acme', `PO-${n}`);
      expect(order?.state).toBe('received');
      expect(await store.cart.get(ref)).toMatchObject({ state: 'ordered', poId: order?.id });
      expect((await store.jobs.list({ kind: 'process_order' })).items.map((j) => j.key)).toContain(
        `po:${order?.id}`,
      );
    }
    // Nothing of the failed one stayed: no order, its line still in the cart, no job.
    expect(await store.orders.getByOrderId('acme', 'PO-3')).toBeUndefined();
    expect(await store.cart.get('L-POISON')).toMatchObject({ state: 'cart' });
    expect((await store.jobs.list({ kind: 'process_order' })).items).toHaveLength(3);

    other.exec('DROP TRIGGER poisoned');
    other.close();
    const [again, copy, copyOfSame] = await Promise.all([
      store.orders.acceptWithLines(po(3, 'L-POISON')),
      store.orders.acceptWithLines(po(1, 'L-1')),
      store.orders.acceptWithLines(po(5, 'L-1')),
    ]);
    expect(again.created).toBe(true);
    expect(copy).toMatchObject({ created: false, order: { orderId: 'PO-1' } });
    // A PO naming a line another PO ordered is stored too (the intake flags it, as without grouping).
    expect(copyOfSame.created).toBe(true);
    expect((await store.jobs.list({ kind: 'process_order' })).items).toHaveLength(5);
    await store.close();
  });

  it('a group whose commit cannot happen rejects every PO in it (none took effect)', async () => {
    const path = migratedPath();
    const store = createSqliteStore({ path, clock: createManualClock(T0), busyTimeoutMs: 50 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const outcomes = await Promise.allSettled([
      store.orders.acceptWithLines(po(1, 'L-1')),
      store.orders.acceptWithLines(po(2, 'L-2')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    other.exec('ROLLBACK');
    other.close();
    expect(await store.orders.getByOrderId('acme', 'PO-1')).toBeUndefined();
    expect((await store.orders.acceptWithLines(po(1, 'L-1'))).created).toBe(true);
    await store.close();
  });

  it('groups POs on a database in memory too, on the one connection of its store', async () => {
    const store = createSqliteStore({ path: ':memory:', clock: createManualClock(T0) });
    await store.sessions.create(cxmlSession());
    for (const ref of ['L-1', 'L-2', 'L-3']) await store.cart.add(businessCardsLine(ref));
    const outcomes = await Promise.all([
      store.orders.acceptWithLines(po(1, 'L-1')),
      store.orders.acceptWithLines(po(2, 'L-2')),
      store.orders.acceptWithLines(po(1, 'L-3')),
    ]);
    const [first, second, copy] = outcomes;
    expect([first?.created, second?.created, copy?.created]).toEqual([true, true, false]);
    const po1 = await store.orders.getByOrderId('acme', 'PO-1');
    const po2 = await store.orders.getByOrderId('acme', 'PO-2');
    expect(copy).toStrictEqual({ created: false, order: po1 });
    expect(await store.cart.get('L-1')).toMatchObject({ state: 'ordered', poId: po1?.id });
    expect(await store.cart.get('L-2')).toMatchObject({ state: 'ordered', poId: po2?.id });
    expect(await store.cart.get('L-3')).toMatchObject({ state: 'cart' });
    const keys = (await store.jobs.list({ kind: 'process_order' })).items.map((j) => j.key);
    expect(keys.sort()).toEqual([`po:${po1?.id}`, `po:${po2?.id}`].sort());
    await store.close();
  });
});

describe('SQLite store at :memory:', () => {
  it('is a migrated database of its own per store, as the config opens it, gone once closed', async () => {
    const a = await openStore({ kind: 'sqlite', path: ':memory:' });
    const b = createSqliteStore({ path: ':memory:', clock: createManualClock(T0) });
    await a.users.put({
      buyerId: 'acme',
      userKey: 'jane',
      storefrontId: 'demo',
      pipoUserId: 7,
      username: 'u7',
      email: 'jane@acme.example',
      passwordEnc: 'enc',
      isTemp: false,
    });
    expect(await a.users.get('acme', 'jane')).toMatchObject({ pipoUserId: 7 });
    expect(await b.users.get('acme', 'jane')).toBeUndefined();
    await a.close();
    await expectStoreError(a.users.get('acme', 'jane'), 'unavailable');
    // Another store at :memory: starts empty, whatever the closed one held.
    const c = createSqliteStore({ path: ':memory:', clock: createManualClock(T0) });
    expect(await c.users.get('acme', 'jane')).toBeUndefined();
    await Promise.all([b.close(), c.close()]);
  });
});
