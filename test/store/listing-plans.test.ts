/**
 * Listings with optional filters (orders by state, a PO's documents, dead letters, …) must find their rows
 * through an index, whatever else is stored: the background round lists the POs left `processing` and a
 * PO's job lists its documents, so a listing that reads every row costs more with every PO ever taken in.
 * The query plan says which: SQLite's `SEARCH … USING INDEX` and PostgreSQL's index scans read the rows
 * that match, `SCAN` and `Seq Scan` read the table. Each filter combination compiles to a text of its own;
 * these plans are the variants the gateway uses, on PostgreSQL as a generic plan (the one a prepared
 * statement settles on, which cannot look at the values).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDialect, sqliteDialect } from '../../src/store/sql/dialect.ts';
import type { SqlStatement } from '../../src/store/sql/driver.ts';
import { type StoreStatements, storeStatements } from '../../src/store/sql/statements.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { describeWithPostgres, useTestSchemas, withClient } from '../support/postgres-test-database.ts';

/** The listings the gateway runs with the filters it gives them, in one database's spelling. */
function listings(statements: StoreStatements): [name: string, statement: SqlStatement][] {
  return [
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
  ];
}

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

describe('filtered listings on SQLite', () => {
  it.each(listings(statements))('%s: found through an index, no table read whole', (_name, statement) => {
    const steps = plan(statement);
    expect(steps.some((step) => step.startsWith('SEARCH'))).toBe(true);
    expect(steps.filter((step) => step.startsWith('SCAN') && !step.includes('json_each'))).toEqual([]);
  });

  it('names only the filters given, each variant taking the same values', () => {
    const byState = statements.orders.list.bind('processing', null, null, 51);
    expect(byState.sql).toMatch(/\(state = \+\?\) AND \+\? IS NULL AND \+\? IS NULL/);
    expect(byState.params).toEqual(['processing', null, null, 51]);
    const everything = statements.orders.list.bind(null, null, null, 51);
    expect(everything.sql).not.toMatch(/state =|buyer_id =|id </);
    expect(plan(everything)).toEqual(['SCAN purchase_orders']);
  });
});

describeWithPostgres('filtered listings on PostgreSQL', () => {
  const schemas = useTestSchemas();

  it('are found through an index, in the generic plan a prepared statement settles on', async () => {
    const schema = schemas.fresh();
    await (await schemas.open(schema)).close();
    const scans = await withClient(async (client) => {
      await client.query(`SET search_path TO ${schema}`);
      // Generic plans, and a table read whole only where no index can serve (an empty table would be).
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query('SET enable_seqscan = off');
      const found: string[] = [];
      for (const [name, statement] of listings(storeStatements(postgresDialect))) {
        await client.query(`PREPARE listing AS ${statement.sql}`);
        const values = statement.params.map((value) =>
          typeof value === 'string' ? `'${value}'` : String(value),
        );
        const { rows } = await client.query(`EXPLAIN EXECUTE listing(${values.join(', ')})`);
        await client.query('DEALLOCATE listing');
        const steps = (rows as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN'].trim());
        // A table read whole shows as a Seq Scan, or (seq scans being off) as an index walked end to end
        // with the filter applied to each row: an index is used for the filter only when a condition of
        // an index or bitmap scan names one of the values.
        const filtered = steps.some((step) => /^(Index|Recheck) Cond: .*\$\d/.test(step));
        if (!filtered || steps.some((step) => step.includes('Seq Scan')))
          found.push(`${name}: ${steps.join(' / ')}`);
      }
      return found;
    });
    expect(scans).toEqual([]);
  });
});
