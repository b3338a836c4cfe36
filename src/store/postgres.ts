/**
 * The Store for several Node instances sharing state: PostgreSQL through `pg`. Node only. The port's
 * semantics live in `createSqlStore`; this module provides the driver (a connection pool, atomic batches in
 * one transaction) and the migrations, and `postgres-sql.ts` the SQL text.
 *
 * Concurrency: every transaction runs at READ COMMITTED. Idempotent intake relies on unique keys with
 * `ON CONFLICT DO NOTHING` (a second inserter waits for the first and then reads the winner); claims take
 * rows `FOR UPDATE SKIP LOCKED`; compare-and-set updates re-check their condition on the latest row version.
 * A deadlock or serialization failure (possible when sweeps touch many rows at once) is retried a few times
 * before it surfaces as `unavailable`.
 */
import pg from 'pg';
import { type Clock, systemClock } from './clock.ts';
import type { Store } from './port.ts';
import { postgresMigrations, postgresSchemaVersion, postgresStatements } from './postgres-sql.ts';
import { createSqlStore, type SqlDriver, type SqlResult, type SqlStatement } from './sql-store.ts';
import { StoreError } from './store-error.ts';

export interface PostgresStoreOptions {
  /** Connection URL, e.g. `postgres://punchgate:secret@db.internal:5432/punchgate`. */
  url: string;
  /**
   * The schema that holds punchgate's tables (created if missing). Default `public`. Lets several
   * gateways, or test runs, share one database without seeing each other's records.
   */
  schema?: string;
  clock?: Clock;
  /** Connections in this instance's pool. Default 10. */
  maxConnections?: number;
  /** How long to wait for a connection before failing `unavailable`. Default 10000 ms. */
  connectTimeoutMs?: number;
}

const RETRIES = 5;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Connects, creates and migrates the schema as needed, and answers the store.
 *
 * @example
 * ```ts
 * const store = await createPostgresStore({ url: process.env.DATABASE_URL! });
 * const { created } = await store.orders.accept(order);
 * await store.close();
 * ```
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) {
    throw new StoreError(
      'invalid',
      `schema must be a lower-case SQL identifier, got ${JSON.stringify(schema)}`,
    );
  }
  const clock = options.clock ?? systemClock;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    options: `-c search_path=${schema}`,
  });
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  try {
    await migrate(pool, schema, clock);
  } catch (error) {
    await pool.end();
    throw translate(error);
  }
  return createSqlStore(createPostgresDriver(pool), postgresStatements, clock);
}

async function migrate(pool: pg.Pool, schema: string, clock: Clock): Promise<void> {
  await inTransaction(pool, async (client) => {
    // The lock key is the schema: instances starting at once on a fresh database migrate one after another
    // (even CREATE SCHEMA IF NOT EXISTS fails for the second of two concurrent creators).
    await client.query(postgresSchemaVersion.lock, [schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(postgresSchemaVersion.create);
    const current = Number((await client.query(postgresSchemaVersion.current)).rows[0].version);
    if (current > postgresMigrations.length) {
      throw new StoreError(
        'incompatible_schema',
        `database schema is at version ${current}; this punchgate knows up to ${postgresMigrations.length}`,
      );
    }
    for (let version = current; version < postgresMigrations.length; version++) {
      await client.query(postgresMigrations[version]!);
      await client.query(postgresSchemaVersion.record, [version + 1, clock.now().getTime()]);
    }
  });
}

function createPostgresDriver(pool: pg.Pool): SqlDriver {
  // Named statements are parsed once per connection and reused after.
  const names = new Map<string, string>();
  const query = (statement: SqlStatement): pg.QueryConfig => {
    let name = names.get(statement.sql);
    if (name === undefined) {
      name = `punchgate_${names.size + 1}`;
      names.set(statement.sql, name);
    }
    return { name, text: statement.sql, values: [...statement.params] };
  };
  const toResult = (result: pg.QueryResult): SqlResult => ({
    rows: result.rows as Record<string, unknown>[],
    changes: result.command === 'SELECT' ? 0 : (result.rowCount ?? 0),
  });
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new StoreError('unavailable', 'the store is closed');
  };

  return {
    async run(statement) {
      ensureOpen();
      return withRetries(async () => toResult(await pool.query(query(statement))));
    },
    async batch(statements) {
      ensureOpen();
      return withRetries(() =>
        inTransaction(pool, async (client) => {
          const results: SqlResult[] = [];
          for (const statement of statements) results.push(toResult(await client.query(query(statement))));
          return results;
        }),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackFailure) {
      broken = rollbackFailure;
    }
    throw error;
  } finally {
    // A connection whose rollback failed is in an unknown state: the pool discards it.
    client.release(broken instanceof Error ? broken : undefined);
  }
}

async function withRetries<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt < RETRIES && isTransient(error)) continue;
      throw translate(error);
    }
  }
}

/** Deadlock detected, serialization failure: the transaction did nothing and can simply run again. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '40P01' || code === '40001';
}

function translate(error: unknown): unknown {
  if (error instanceof StoreError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (error instanceof pg.DatabaseError && typeof code === 'string') {
    if (code === '23505')
      return new StoreError('duplicate', 'a record with this key exists', { cause: error });
    // Connection exceptions, transaction rollbacks left after retries, resources, operator intervention,
    // system errors, and a database that does not exist or refuses us.
    if (/^(08|40|53|57|58|3D|28)/.test(code)) {
      return new StoreError('unavailable', `PostgreSQL: ${error.message}`, { cause: error });
    }
    return error;
  }
  if (error instanceof Error) {
    const network =
      typeof code === 'string' && /^(ECONN|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH|EPIPE|EAI_)/.test(code);
    if (
      network ||
      /Connection terminated|timeout exceeded when trying to connect|after calling end/.test(error.message)
    ) {
      return new StoreError('unavailable', `PostgreSQL: ${error.message}`, { cause: error });
    }
  }
  return error;
}
