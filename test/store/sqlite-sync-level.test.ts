/**
 * The fsync each SQLite write commits with: `FULL` for what must outlive a power cut (a PO, a cart line, a
 * job's outcome), `NORMAL` for sessions, tokens, the refusals log and the leases a worker takes. Read back
 * from the connection itself after each write (`PRAGMA synchronous`: 2 is FULL, 1 NORMAL), in the
 * alternations real traffic makes: a level that is only believed set, not set, leaves POs at NORMAL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteDialect } from '../../src/store/sql/dialect.ts';
import type { SqlDriver, SqlStatement } from '../../src/store/sql/driver.ts';
import { storeStatements } from '../../src/store/sql/statements.ts';
import { commitsWithoutFsync, createSqliteDriver } from '../../src/store/sqlite.ts';

const FULL = 2;
const NORMAL = 1;

const statement = (sql: string, ...params: (string | number)[]): SqlStatement => ({ sql, params });
const poWrite = () => statement('INSERT INTO purchase_orders (body) VALUES (?)', 'a PO');
const sessionWrite = () => statement('INSERT INTO sessions (body) VALUES (?)', 'a session');
const claim = () =>
  statement("UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ? WHERE id = 1", 1);

describe('the level each SQLite write commits at', () => {
  let dir: string;
  let db: InstanceType<typeof Database>;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'punchgate-sync-'));
    db = new Database(join(dir, 'gateway.db'));
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE purchase_orders (id INTEGER PRIMARY KEY, body TEXT);
      CREATE TABLE sessions (id INTEGER PRIMARY KEY, body TEXT);
      CREATE TABLE jobs (id INTEGER PRIMARY KEY, state TEXT, attempts INTEGER, lease_until INTEGER);
      INSERT INTO jobs VALUES (1, 'pending', 0, NULL);`);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const level = () => db.pragma('synchronous', { simple: true });

  for (const groupCommit of [true, false]) {
    it(`is FULL for a PO and NORMAL for a session or a claim, however they alternate (group commit ${groupCommit ? 'on' : 'off'})`, async () => {
      const driver: SqlDriver = createSqliteDriver(db, groupCommit);
      const seen: number[] = [];
      for (const write of [
        poWrite,
        sessionWrite,
        poWrite,
        claim,
        poWrite,
        sessionWrite,
        sessionWrite,
        poWrite,
      ]) {
        await driver.batch([write()]);
        seen.push(Number(level()));
        await driver.run(write());
        seen.push(Number(level()));
      }
      expect(seen).toEqual([
        FULL,
        FULL,
        NORMAL,
        NORMAL,
        FULL,
        FULL,
        NORMAL,
        NORMAL,
        FULL,
        FULL,
        NORMAL,
        NORMAL,
        NORMAL,
        NORMAL,
        FULL,
        FULL,
      ]);
    });
  }

  it('is FULL for a batch mixing a session with a PO', async () => {
    const driver = createSqliteDriver(db, true);
    await driver.run(sessionWrite());
    expect(level()).toBe(NORMAL);
    await driver.batch([sessionWrite(), poWrite()]);
    expect(level()).toBe(FULL);
  });
});

describe('which of the store’s statements commit without an fsync', () => {
  const sql = storeStatements(sqliteDialect);
  const without = (...texts: { sql: string }[]) => commitsWithoutFsync(texts.map((t) => statement(t.sql)));

  it('skips it for leases: a job claimed (with the exhausted ones buried), a lease renewed, messages claimed', () => {
    expect(without(sql.jobs.buryExhausted, sql.jobs.claim)).toBe(true);
    expect(without(sql.jobs.renewLease)).toBe(true);
    expect(without(sql.outbox.claimDue)).toBe(true);
  });

  it('skips it for sessions, one-time tokens and the refusals log', () => {
    expect(without(sql.sessions.insert, sql.sessions.update, sql.sessions.patch)).toBe(true);
    expect(without(sql.tokens.insert)).toBe(true);
    expect(without(sql.refusals.insert)).toBe(true);
  });

  it('keeps it for every outcome of a job or a message, and for POs and cart lines', () => {
    for (const outcome of [sql.jobs.complete, sql.jobs.retry, sql.jobs.kill, sql.jobs.resurrect]) {
      expect(without(outcome)).toBe(false);
    }
    for (const outcome of [sql.outbox.delivered, sql.outbox.retry, sql.outbox.dead]) {
      expect(without(outcome)).toBe(false);
    }
    expect(without(sql.orders.insert)).toBe(false);
    expect(without(sql.cart.insert)).toBe(false);
    // A lease taken in the same batch as a lasting write takes that write's fsync.
    expect(without(sql.jobs.claim, sql.orders.insert)).toBe(false);
  });
});
