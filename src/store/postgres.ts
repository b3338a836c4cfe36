/**
 * The Store for several Node instances sharing state: PostgreSQL through `pg`. Node only. The port's
 * semantics live in `createSqlStore`; this module provides the driver (a connection pool, atomic batches in
 * one transaction) and runs the migrations; the SQL text is shared with SQLite and D1 (`sql/`), spelled by
 * `postgresDialect`. Instants are BIGINT, which pg hands back as text; the row mappers take `Number()`.
 *
 * Concurrency: every transaction runs at READ COMMITTED. Idempotent intake relies on unique keys with
 * `ON CONFLICT DO NOTHING` (a second inserter waits for the first and then reads the winner); claims take
 * rows `FOR UPDATE SKIP LOCKED`; compare-and-set updates re-check their condition on the latest row version.
 * POs marking the same cart lines ordered lock them in reference order (`sql/postgres-intake.ts`), so they
 * queue instead of deadlocking.
 * A deadlock or serialization failure (possible when sweeps touch many rows at once) is retried a few times
 * before it surfaces as `unavailable`.
 *
 * Faults: a connection that breaks — the server restarting, a backend terminated, the network gone — fails
 * the calls on it with `unavailable` and never the process: both the pool's idle connections and the
 * one a transaction holds have an 'error' listener, and a broken connection is discarded, not pooled again.
 * A transaction cut off halfway is rolled back by the server when its session ends; nothing half-written
 * remains. The pool reconnects on the next call once the server answers again, so no restart is needed.
 */
import pg from 'pg';
import { type Clock, systemClock } from './clock.ts';
import type { Store } from './port.ts';
import { postgresDialect } from './sql/dialect.ts';
import type { SqlDriver, SqlResult, SqlStatement } from './sql/driver.ts';
import { postgresMigrations, postgresSchemaVersion } from './sql/migrations.ts';
import { postgresIntake } from './sql/postgres-intake.ts';
import { createSqlStore } from './sql/store.ts';
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
  /** How long to wait for a connection before failing `unavailable`. Default 5000 ms. */
  connectTimeoutMs?: number;
  /**
   * How long one statement may run before the server cancels it (`statement_timeout`) and fails it
   * `unavailable`. Default 15000 ms; punchgate's statements take milliseconds, so only a stuck server or
   * lock reaches it. Migrations are exempt.
   */
  statementTimeoutMs?: number;
}

/**
 * A request that waits longer than a buyer would is no use: connections come within 5 s or the call fails
 * `unavailable` (buyers and workers retry). Idle connections are closed after 30 s so a restarted server's
 * stale sockets do not linger; TCP keepalive notices a peer that vanished without closing its socket.
 */
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;
/** The client's own limit on an answer, after the server's statement_timeout had its chance. */
const ANSWER_GRACE_MS = 5_000;
/** A session that holds a transaction open this long (a frozen process) is ended and its locks freed. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
const MIGRATION_ANSWER_MS = 3_600_000;

/** Serialises instances that start at once on a fresh schema (the key is the schema's name). */
const MIGRATION_LOCK = `SELECT pg_advisory_xact_lock(hashtext('punchgate:' || $1::text))`;

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
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    keepAlive: true,
    query_timeout: statementTimeoutMs + ANSWER_GRACE_MS,
    options: [
      `-c search_path=${schema}`,
      `-c statement_timeout=${statementTimeoutMs}`,
      `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_TIMEOUT_MS}`,
    ].join(' '),
  });
  guardConnections(pool);
  try {
    await migrate(pool, schema, clock);
  } catch (error) {
    await pool.end();
    throw translate(error);
  }
  return createSqlStore(createPostgresDriver(pool), postgresDialect, clock, {
    intakeRowLocking: postgresIntake(),
  });
}

async function migrate(pool: pg.Pool, schema: string, clock: Clock): Promise<void> {
  await inTransaction(pool, async (client) => {
    // The lock key is the schema: instances starting at once on a fresh database migrate one after another
    // (even CREATE SCHEMA IF NOT EXISTS fails for the second of two concurrent creators).
    await client.query(MIGRATION_LOCK, [schema]);
    // A migration may rebuild an index on a big table: no statement limit for this transaction.
    await client.query('SET LOCAL statement_timeout = 0');
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
      // pg reads a per-query `query_timeout` (lib/client.js); its typings do not list it.
      const migration = { text: postgresMigrations[version]!, query_timeout: MIGRATION_ANSWER_MS };
      await client.query(migration as pg.QueryConfig);
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

/** Connections that reported an 'error' event: their socket is gone or about to go. */
const brokenConnections = new WeakMap<pg.ClientBase, Error>();

/**
 * A pg client whose connection breaks (server restart, terminated backend, network gone) emits 'error',
 * and an 'error' event without a listener ends the process. pg-pool listens only while a client is idle;
 * a client that is checked out — by a transaction, or in the instant between pg-pool handing it over and
 * its taker attaching a listener, which a termination arriving in the same network read as the
 * connection's ReadyForQuery hits — has none. So every client gets a listener of its own for its whole
 * life, from the moment it connects; it records the failure so the holder discards the connection.
 */
function guardConnections(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      if (!brokenConnections.has(client)) brokenConnections.set(client, error);
    });
  });
  // An idle connection that breaks: pg-pool has already discarded it; the next call connects afresh.
  pool.on('error', () => {});
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // A broken connection needs no ROLLBACK: the server rolls back the transaction of a session that ends.
    broken = brokenConnections.get(client);
    if (broken === undefined) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackFailure) {
        broken = rollbackFailure instanceof Error ? rollbackFailure : new Error(String(rollbackFailure));
      }
    }
    throw error;
  } finally {
    // A broken connection, or one whose rollback failed, is in an unknown state: the pool discards it.
    client.release(broken ?? brokenConnections.get(client));
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

/**
 * Deadlock detected, serialization failure: the transaction did nothing and can simply run again. So did
 * a statement whose session was terminated (`pg_terminate_backend`, a failover, a connection-killing
 * proxy): the server answers 57P01 only for work it abandoned, and rolls back what the session had begun.
 * Its connection is discarded, and the next attempt gets a fresh one — the first statement after a kill
 * often meets a pooled connection whose end had not yet been read.
 */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '40P01' || code === '40001' || code === '57P01';
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
      /Connection terminated|not queryable|Query read timeout|timeout exceeded when trying to connect|after calling end/.test(
        error.message,
      )
    ) {
      return new StoreError('unavailable', `PostgreSQL: ${error.message}`, { cause: error });
    }
  }
  return error;
}
