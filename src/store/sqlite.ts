/**
 * The Node default Store: one SQLite file through better-sqlite3. Node only (the one file of the store that
 * imports `node:*` or a native module); Workers use the D1 adapter over the same SQL text and dialect
 * (`sql/`), which PostgreSQL shares too.
 *
 * Durability choices, for "nothing lost":
 * - `journal_mode = WAL`: readers never block the writer, and several processes can share the file.
 * - `synchronous = FULL` for everything that must survive a power cut: the gateway answers a purchase
 *   order `200 OK` right after recording it and the buyer will not send it again, and a cart line must
 *   outlive the weeks until its PO arrives; with `NORMAL` a power cut or kernel crash can drop the last
 *   commits in WAL mode. Writes that touch only punch-out sessions and one-time tokens commit at `NORMAL`
 *   (still safe against a process crash): losing one to a power cut costs the buyer a new punch-out, and
 *   skipping their fsync is most of the cost of a punch-in.
 * - Every write runs in a `BEGIN IMMEDIATE` transaction, so a writer queues for the lock (up to the busy
 *   timeout) up front instead of failing on a lock upgrade, and concurrent processes never both claim a job.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type Clock, systemClock } from './clock.ts';
import type { Store } from './port.ts';
import { sqliteDialect } from './sql/dialect.ts';
import type { SqlDriver, SqlResult, SqlStatement } from './sql/driver.ts';
import { sqliteMigrations, sqliteSchemaVersion } from './sql/migrations.ts';
import { createSqlStore } from './sql/store.ts';
import { StoreError } from './store-error.ts';

export interface SqliteStoreOptions {
  /** Database file (its folder is created if missing), or `:memory:`. */
  path: string;
  clock?: Clock;
  /** How long a write waits for another connection's lock before failing `unavailable`. Default 5000. */
  busyTimeoutMs?: number;
}

/**
 * Opens (creating and migrating as needed) a SQLite store.
 *
 * @example
 * ```ts
 * const store = createSqliteStore({ path: '.punchgate/gateway.db' });
 * const session = await store.sessions.get(sessionId);
 * await store.close();
 * ```
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const clock = options.clock ?? systemClock;
  const db = guard(() => openDatabase(options));
  try {
    guard(() => migrate(db, clock));
  } catch (error) {
    db.close();
    throw error;
  }
  return createSqlStore(createSqliteDriver(db), sqliteDialect, clock);
}

type Connection = InstanceType<typeof Database>;
type Prepared = Database.Statement<unknown[]>;

function openDatabase(options: SqliteStoreOptions): Connection {
  if (options.path !== ':memory:' && options.path !== '') {
    try {
      mkdirSync(dirname(options.path), { recursive: true });
    } catch (error) {
      throw new StoreError('unavailable', `cannot create the folder of ${options.path}`, { cause: error });
    }
  }
  const db = new Database(options.path, { timeout: options.busyTimeoutMs ?? 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
}

function migrate(db: Connection, clock: Clock): void {
  // IMMEDIATE: two processes opening a fresh file at once must not both apply migration 1.
  db.transaction(() => {
    db.exec(sqliteSchemaVersion.create);
    const current = Number((db.prepare(sqliteSchemaVersion.current).get() as { version: number }).version);
    if (current > sqliteMigrations.length) {
      throw new StoreError(
        'incompatible_schema',
        `database schema is at version ${current}; this punchgate knows up to ${sqliteMigrations.length}`,
      );
    }
    for (let version = current; version < sqliteMigrations.length; version++) {
      db.exec(sqliteMigrations[version]!);
      db.prepare(sqliteSchemaVersion.record).run(version + 1, clock.now().getTime());
    }
  }).immediate();
}

function createSqliteDriver(db: Connection): SqlDriver {
  const cache = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    let prepared = cache.get(sql);
    if (!prepared) {
      prepared = db.prepare<unknown[]>(sql);
      cache.set(sql, prepared);
    }
    return prepared;
  };
  const execute = (statement: SqlStatement): SqlResult => {
    const prepared = prepare(statement.sql);
    if (prepared.reader) {
      const rows = prepared.all(...statement.params) as Record<string, unknown>[];
      return { rows, changes: prepared.readonly ? 0 : rows.length };
    }
    return { rows: [], changes: prepared.run(...statement.params).changes };
  };
  const inTransaction = db.transaction((statements: readonly SqlStatement[]) => statements.map(execute));
  let synchronous: 'FULL' | 'NORMAL' = 'FULL';
  // The level is set between transactions (SQLite ignores it inside one), only when it changes.
  const write = (statements: readonly SqlStatement[]): SqlResult[] => {
    const wanted = statements.every((s) => EPHEMERAL_WRITE.test(s.sql)) ? 'NORMAL' : 'FULL';
    if (wanted !== synchronous) {
      db.pragma(`synchronous = ${wanted}`);
      synchronous = wanted;
    }
    return inTransaction.immediate(statements);
  };

  return {
    async run(statement) {
      return guard(() => (prepare(statement.sql).readonly ? execute(statement) : write([statement])[0]!));
    },
    async batch(statements) {
      return guard(() => write(statements));
    },
    async close() {
      if (db.open) db.close();
    },
  };
}

/** Writes to these tables alone may skip the fsync (see the header). */
const EPHEMERAL_WRITE = /^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(sessions|one_time_tokens)\b/i;

/** Runs `work`, turning SQLite's failures into the store's error codes. */
function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw translate(error);
  }
}

function translate(error: unknown): unknown {
  if (error instanceof StoreError) return error;
  if (error instanceof Database.SqliteError) {
    if (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
      return new StoreError('duplicate', 'a record with this key exists', { cause: error });
    }
    if (/^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN|NOTADB|CORRUPT|PROTOCOL|PERM)/.test(error.code)) {
      return new StoreError('unavailable', `SQLite: ${error.message}`, { cause: error });
    }
  }
  // better-sqlite3 throws a TypeError for any use of a closed connection.
  if (error instanceof TypeError && /database connection is not open/.test(error.message)) {
    return new StoreError('unavailable', 'the store is closed', { cause: error });
  }
  return error;
}
