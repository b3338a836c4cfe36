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
 *   skipping their fsync is most of the cost of a punch-in. So do the refusals log's: a stranger's refused
 *   document is a line of diagnosis, and a flood of them must not put an fsync per document on the event
 *   loop that answers every other request and the health probes. And so do the leases the order worker
 *   takes on jobs and outbox messages (`LEASE_WRITE`): a lost one leaves its job or message due again.
 * - Every write runs in a `BEGIN IMMEDIATE` transaction, so a writer queues for the lock (up to the busy
 *   timeout) up front instead of failing on a lock upgrade, and concurrent processes never both claim a job.
 *
 * At the path `:memory:` the database lives in this process and is gone when the store closes (tests,
 * trials). The same statements run on it: SQLite answers `journal_mode = WAL` with its in-memory journal and
 * has nothing to fsync, so the choices above cost nothing there. The store holds one connection and never
 * opens another (a second connection to `:memory:` would be a database of its own); group commits and
 * claims run on that one.
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
  /**
   * Batches that need an fsync, asked for within one turn of the event loop, committed together in one
   * transaction, each in a savepoint of its own (see `groupCommits`). Default true.
   */
  groupCommit?: boolean;
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
  return createSqlStore(createSqliteDriver(db, options.groupCommit ?? true), sqliteDialect, clock, {
    maxInlineOrderChars: SQLITE_INLINE_ORDER_CHARS,
  });
}

/**
 * The most UTF-16 units of a PO's raw and stored documents that stay in its row, and the size of each part
 * of a larger one (stored in `purchase_order_chunks`, as on D1). SQLite writes a row whole on every UPDATE,
 * its overflow pages too: a 5,000-line PO's row holds 7 MB, so each move of its state rewrote 7 MB, and at
 * that size (beyond the CPU's caches) a rewrite cost 30–70 ms against 0.5 ms for a 1,000-line PO's 1.4 MB,
 * which made the order job's per-line cost grow with the PO. Kept in parts, the row stays small and an
 * update costs the same for any PO; a PO of up to about a hundred lines stays whole in its row.
 */
export const SQLITE_INLINE_ORDER_CHARS = 256 * 1024;

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

/** The driver over an open connection; exported for the tests that watch the level each write commits at. */
export function createSqliteDriver(db: Connection, groupCommit: boolean): SqlDriver {
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
  db.exec('PRAGMA synchronous = FULL');
  let synchronous: 'FULL' | 'NORMAL' = 'FULL';
  // The level is set between transactions (SQLite ignores it inside one), only when it changes. Through
  // `exec`: SQLite applies `PRAGMA synchronous = …` while it prepares the statement, so a statement prepared
  // once and run again does not reliably set it; `exec` prepares and runs it at each call in 2 µs, against
  // 15 for `db.pragma`.
  const level = (wanted: 'FULL' | 'NORMAL') => {
    if (wanted !== synchronous) {
      db.exec(`PRAGMA synchronous = ${wanted}`);
      synchronous = wanted;
    }
  };
  const write = (statements: readonly SqlStatement[]): SqlResult[] => {
    level(commitsWithoutFsync(statements) ? 'NORMAL' : 'FULL');
    return inTransaction.immediate(statements);
  };
  const grouped = groupCommit ? groupCommits(db, execute, write, () => level('FULL')) : undefined;

  return {
    async run(statement) {
      return guard(() => (prepare(statement.sql).readonly ? execute(statement) : write([statement])[0]!));
    },
    async batch(statements) {
      if (grouped === undefined || commitsWithoutFsync(statements)) return guard(() => write(statements));
      return grouped(statements);
    },
    async close() {
      if (db.open) db.close();
    },
  };
}

interface QueuedBatch {
  statements: readonly SqlStatement[];
  resolve(results: SqlResult[]): void;
  reject(error: unknown): void;
}

/**
 * Group commit: fsynced batches asked for within one turn of the event loop (POs arriving together, each
 * one batch: `orders.acceptWithLines`) run in one transaction with one fsync, instead of one each (≈ 0.3 ms
 * of a PO's ≈ 1.3 ms on the benchmark's disk). Each batch runs in a savepoint of its own, so one that fails
 * is rolled back alone and rejected with its own error while the others commit; when the commit itself
 * fails, every batch of the group is rejected (none took effect). A lone batch runs as before. Each batch
 * still waits for its fsync: its promise settles only after the commit.
 */
function groupCommits(
  db: Connection,
  execute: (statement: SqlStatement) => SqlResult,
  write: (statements: readonly SqlStatement[]) => SqlResult[],
  fullSync: () => void,
): (statements: readonly SqlStatement[]) => Promise<SqlResult[]> {
  let queue: QueuedBatch[] = [];
  const flush = () => {
    const group = queue;
    queue = [];
    if (group.length === 1) {
      const [only] = group as [QueuedBatch];
      try {
        only.resolve(write(only.statements));
      } catch (error) {
        only.reject(translate(error));
      }
      return;
    }
    const outcomes: ({ results: SqlResult[] } | { error: unknown })[] = [];
    try {
      fullSync();
      db.exec('BEGIN IMMEDIATE');
      for (const batch of group) {
        db.exec('SAVEPOINT grouped_batch');
        try {
          outcomes.push({ results: batch.statements.map(execute) });
          db.exec('RELEASE grouped_batch');
        } catch (error) {
          db.exec('ROLLBACK TO grouped_batch');
          db.exec('RELEASE grouped_batch');
          outcomes.push({ error: translate(error) });
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const batch of group) batch.reject(translate(error));
      return;
    }
    group.forEach((batch, i) => {
      const outcome = outcomes[i]!;
      if ('results' in outcome) batch.resolve(outcome.results);
      else batch.reject(outcome.error);
    });
  };
  return (statements) =>
    new Promise<SqlResult[]>((resolve, reject) => {
      queue.push({ statements, resolve, reject });
      if (queue.length === 1) setImmediate(flush);
    });
}

/** Writes to these tables alone may skip the fsync (see the header). */
const EPHEMERAL_WRITE = /^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(sessions|one_time_tokens|refusals)\b/i;

/**
 * Writes that only take, renew or give up a lease: a job or an outbox message claimed, its lease renewed, a
 * job whose last attempt's lease ran out buried. A power cut that drops one leaves the job or message due
 * again, which is what its lease running out would do; and each is followed, before anything leaves the
 * gateway, by a write at `FULL` whose fsync takes the WAL frames before it along (a job's move to
 * `processing` ahead of the create; an outbox message's delivery recorded after the post, which a re-post
 * of the same payloadID makes safe either way). So the worker's claims cost no fsync of their own.
 */
const LEASE_WRITE =
  /^\s*UPDATE\s+(jobs|outbox_queue)\s+SET\s+(state\s*=\s*'(running|sending)'|lease_until\s*=|state\s*=\s*'dead',\s*lease_until\s*=\s*NULL,\s*last_error\s*=\s*'lease expired)/i;

/** Whether a batch of writes may commit at `NORMAL`: every statement a session, token or refusal write, or a lease's. */
export function commitsWithoutFsync(statements: readonly SqlStatement[]): boolean {
  return statements.every((s) => EPHEMERAL_WRITE.test(s.sql) || LEASE_WRITE.test(s.sql));
}

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
