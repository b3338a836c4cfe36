/**
 * Writes a SQLite store file holding `count` bulk-seeded sessions (bench/harness/seed-sessions.ts) and
 * reports when it is done, in a child process of its own so that the parent's heap and event loop are
 * not the ones that carried a million-row insert. The file is migrated as the store opens it, seeded,
 * checkpointed into the database file (no WAL left beside it) and closed: a template that cases copy
 * once per round instead of seeding a million sessions every round.
 */
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { childServerOptions } from '../harness/child-server.ts';
import { type SessionSeed, seedSessions } from '../harness/seed-sessions.ts';

export interface SessionsFileOptions {
  readonly path: string;
  readonly seed: SessionSeed;
}

export interface SessionsFileReady {
  readonly seedMs: number;
}

const { path, seed } = childServerOptions<SessionsFileOptions>();
if (path === undefined || seed === undefined) {
  console.error('sessions-file: no path or seed in BENCH_SERVER_OPTIONS');
  process.exit(2);
}
// Opened once so that the schema is the store's own (its migrations), then closed before the bulk insert.
await createSqliteStore({ path }).close();
const started = performance.now();
seedSessions(path, seed);
process.send?.({ seedMs: performance.now() - started } satisfies SessionsFileReady);
process.once('disconnect', () => process.exit(0));
