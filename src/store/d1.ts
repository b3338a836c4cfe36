/**
 * The Store on Cloudflare Workers: D1 through its binding, with the SQLite dialect of the shared SQL text
 * (`sql/`) and `createSqlStore` unchanged. D1 runs each statement on its own and `batch` as one transaction, which is
 * all the SQL store needs (it never holds an interactive transaction). Runs on Workers: no `node:*`.
 *
 * The schema is migrated by the store itself on first use in an isolate, as the SQLite file is on Node:
 * each migration plus its `schema_version` row is one D1 batch, so two isolates starting at once cannot both
 * apply it (the loser's batch fails on the existing tables, and it then finds the version recorded).
 */
import { type Clock, systemClock } from './clock.ts';
import type { Store } from './port.ts';
import { sqliteDialect } from './sql/dialect.ts';
import type { SqlDriver, SqlResult, SqlStatement } from './sql/driver.ts';
import { sqliteMigrations, sqliteSchemaVersion } from './sql/migrations.ts';
import { createSqlStore } from './sql/store.ts';
import { StoreError } from './store-error.ts';

/** The part of the Workers runtime's `D1Database` binding this adapter uses. */
export interface D1Database {
  prepare(query: string): D1PreparedStatement;
  batch(statements: D1PreparedStatement[]): Promise<D1Result[]>;
}

export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  all(): Promise<D1Result>;
}

interface D1Result {
  results?: Record<string, unknown>[];
  meta?: { changes?: number };
}

export interface D1StoreOptions {
  database: D1Database;
  clock?: Clock;
  /**
   * Told the number of statements of every call to D1 (1 for a statement run on its own, a batch's
   * count for a batch): the Worker's round budget counts D1 queries with it.
   */
  onStatements?: (count: number) => void;
}

/** True for anything shaped like a D1 binding (used to check the Worker environment). */
export function isD1Database(value: unknown): value is D1Database {
  const candidate = value as Partial<D1Database> | null | undefined;
  return typeof candidate?.prepare === 'function' && typeof candidate.batch === 'function';
}

/**
 * Migrates the database as needed and answers the store.
 *
 * @example
 * ```ts
 * export default {
 *   async fetch(request: Request, env: { DB: D1Database }) {
 *     const store = await createD1Store({ database: env.DB });
 *     return Response.json(await store.sessions.get('…'));
 *   },
 * };
 * ```
 */
export async function createD1Store(options: D1StoreOptions): Promise<Store> {
  const clock = options.clock ?? systemClock;
  const database = counting(options.database, options.onStatements);
  const driver = createD1Driver(database);
  await migrate(database, driver, clock);
  return createSqlStore(driver, sqliteDialect, clock, { maxInlineOrderChars: D1_INLINE_ORDER_CHARS });
}

/**
 * The most UTF-16 units of a PO's raw and stored documents that stay in its row on D1, and the size of each
 * part of a larger one: D1 holds at most 2,000,000 bytes in a string or a row (Cloudflare's D1 limits page),
 * and 600,000 units are at most 1,800,000 bytes of UTF-8 (3 bytes a unit at most), leaving room for the
 * row's other columns.
 */
export const D1_INLINE_ORDER_CHARS = 600_000;

async function migrate(database: D1Database, driver: SqlDriver, clock: Clock): Promise<void> {
  const currentVersion = async () => {
    const { rows } = await driver.run({ sql: sqliteSchemaVersion.current, params: [] });
    return Number(rows[0]?.version ?? 0);
  };
  await driver.run({ sql: sqliteSchemaVersion.create, params: [] });
  let current = await currentVersion();
  if (current > sqliteMigrations.length) {
    throw new StoreError(
      'incompatible_schema',
      `database schema is at version ${current}; this punchgate knows up to ${sqliteMigrations.length}`,
    );
  }
  while (current < sqliteMigrations.length) {
    const statements = splitStatements(sqliteMigrations[current]!).map((sql) => database.prepare(sql));
    statements.push(database.prepare(sqliteSchemaVersion.record).bind(current + 1, clock.now().getTime()));
    try {
      await database.batch(statements);
    } catch (error) {
      // Another isolate may have applied this very migration first; then its version row is there.
      if ((await currentVersion()) <= current) throw translate(error);
    }
    current = await currentVersion();
  }
}

/** A migration's statements (D1 prepares one statement at a time). None of ours has `;` inside a literal. */
function splitStatements(migration: string): string[] {
  return migration
    .split(/;\s*(?:\n|$)/)
    .map((sql) => sql.trim())
    .filter((sql) => sql !== '');
}

/** The binding with `onStatements` told of each call; the statements themselves go through unchanged. */
function counting(database: D1Database, onStatements: ((count: number) => void) | undefined): D1Database {
  if (onStatements === undefined) return database;
  // The real statement behind each wrapper, for a batch (D1 takes only its own prepared statements).
  const real = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
  const track = (statement: D1PreparedStatement): D1PreparedStatement => {
    const wrapper: D1PreparedStatement = {
      bind: (...values) => track(statement.bind(...values)),
      all() {
        onStatements(1);
        return statement.all();
      },
    };
    real.set(wrapper, statement);
    return wrapper;
  };
  return {
    prepare: (query) => track(database.prepare(query)),
    batch(statements) {
      onStatements(statements.length);
      return database.batch(statements.map((s) => real.get(s) ?? s));
    },
  };
}

function createD1Driver(database: D1Database): SqlDriver {
  let closed = false;
  const prepare = (statement: SqlStatement) => database.prepare(statement.sql).bind(...statement.params);
  const toResult = (statement: SqlStatement, result: D1Result): SqlResult => ({
    rows: result.results ?? [],
    // A SELECT changes nothing, whatever D1 reports for the connection.
    changes: /^\s*SELECT\b/i.test(statement.sql) ? 0 : (result.meta?.changes ?? 0),
  });
  const ensureOpen = () => {
    if (closed) throw new StoreError('unavailable', 'the store is closed');
  };
  return {
    async run(statement) {
      ensureOpen();
      try {
        return toResult(statement, await prepare(statement).all());
      } catch (error) {
        throw translate(error);
      }
    },
    async batch(statements) {
      ensureOpen();
      try {
        const results = await database.batch(statements.map(prepare));
        return results.map((result, i) => toResult(statements[i]!, result));
      } catch (error) {
        throw translate(error);
      }
    },
    async close() {
      // The binding belongs to the Worker; closing only stops this store from using it.
      closed = true;
    },
  };
}

/**
 * D1 reports everything as an `Error` whose message carries SQLite's text. A unique key is `duplicate`;
 * a mistake in our SQL is a bug and stays as it is; the rest (network, overload, a reset storage object,
 * a busy database) is `unavailable`.
 */
function translate(error: unknown): unknown {
  if (error instanceof StoreError || !(error instanceof Error)) return error;
  if (
    /UNIQUE constraint failed|PRIMARY KEY constraint failed|SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)/.test(
      error.message,
    )
  ) {
    return new StoreError('duplicate', 'a record with this key exists', { cause: error });
  }
  if (
    /syntax error|no such (table|column|function)|SQLITE_RANGE|wrong number of|SQLITE_MISMATCH/.test(
      error.message,
    )
  ) {
    return error;
  }
  return new StoreError('unavailable', `D1: ${error.message}`, { cause: error });
}
