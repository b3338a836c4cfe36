/**
 * Listings with optional filters (orders by state, a PO's documents, dead letters, …) must find their rows
 * through an index, whatever else is stored: the background round lists the POs left `processing` and a
 * PO's job lists its documents, so a listing that reads every row costs more with every PO ever taken in.
 * SQLite's query plan says which: `SEARCH … USING INDEX` reads the rows that match, `SCAN` reads the table.
 * Each filter combination compiles to a text of its own; these plans are the variants the gateway uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlStatement } from '../../src/store/sql/driver.ts';
import { sqliteDialect } from '../../src/store/sql/dialect.ts';
import { storeStatements } from '../../src/store/sql/statements.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';

const statements = storeStatements(sqliteDialect);
let dir: string;
let db: Database.Database;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punchgate-plans-'));
  const path = join(dir, 'store.db');
  await createSqliteStore({ path }).close();
  db = new Database(path, { readonly: true });
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function plan(statement: SqlStatement): string[] {
  return (
    db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.params) as { detail: string }[]
  ).map((row) => row.detail);
}

describe('filtered listings', () => {
  it.each([
    [
      'POs by state (the round: POs left processing)',
      statements.orders.list.bind('processing', null, null, 51),
    ],
    ['POs by state after a cursor', statements.orders.list.bind('processing', null, '90', 51)],
    ['POs of a buyer', statements.orders.list.bind(null, 'acme', null, 51)],
    [
      'received POs without a live job (the round)',
      statements.orders.listIdsWithoutLiveJob.bind('received', 'process_order:', 50),
    ],
    ["a PO's documents", statements.outbox.list.bind(null, null, '7', null, 501, null)],
    [
      'dead documents (the notifier, the dead-letters page)',
      statements.outbox.list.bind('dead', null, null, null, 501, null),
    ],
    ["a buyer's documents", statements.outbox.list.bind(null, 'acme', null, null, 51, null)],
    ['dead jobs', statements.jobs.list.bind('dead', null, null, 501)],
    ["a buyer's refusals", statements.refusals.list.bind('acme', null, null, null, 51)],
    ["a buyer's invoices by date", statements.invoices.listDated.bind('acme', null, null, null, 51)],
    ["a buyer's POs by date", statements.orders.listReceived.bind('acme', null, null, null, 51)],
  ])('%s: found through an index, no table read whole', (_name, statement) => {
    const steps = plan(statement);
    expect(steps.some((step) => step.startsWith('SEARCH'))).toBe(true);
    expect(steps.filter((step) => step.startsWith('SCAN') && !step.includes('json_each'))).toEqual([]);
  });

  it('names only the filters given, each variant taking the same values', () => {
    const byState = statements.orders.list.bind('processing', null, null, 51);
    expect(byState.sql).toMatch(/\(state = \?\) AND \? IS NULL AND \? IS NULL/);
    expect(byState.params).toEqual(['processing', null, null, 51]);
    const everything = statements.orders.list.bind(null, null, null, 51);
    expect(everything.sql).not.toMatch(/state =|buyer_id =|id </);
    expect(plan(everything)).toEqual(['SCAN purchase_orders']);
  });
});
