/**
 * A process that holds `sessions` stored punch-out sessions the way the gateway on Node does (`openStore`:
 * the SQLite store with the session cache in front, as `punchgate serve` sizes it), and reports its
 * resident memory to the parent over IPC. `sessions: 0` gives the floor: the same modules and store, empty.
 *
 * What runs: all but the last `created` sessions are written in one bulk INSERT (bench/harness/
 * seed-sessions.ts: 1,000,000 rows take about 3 s, where the real create path would take about a minute),
 * or, when the parent hands a `template` that holds them (bench/probes/sessions-file.ts, seeded once per
 * run), that file is copied in their place; then `created` sessions (default 100,000, or all when fewer are stored) are
 * created through the real path, `store.sessions.create` behind the cache, and `reads` sessions (default
 * 100,000) are read through the real path, `store.sessions.get`, spread evenly over every stored session
 * (bulk-seeded and created alike), so the cache misses, fills and evicts as a busy gateway's would.
 *
 * The case builds this file and the gateway with tsc (`build: 'dist'`) so that the process loads the
 * JavaScript an installed punchgate runs (`punchgate serve` from the npm package runs dist/): run as
 * TypeScript, Node's type stripping alone adds about 30 MB of RSS that no deployment carries.
 *
 * The database lives on /dev/shm when there is one, so that the disk does not pace the set-up; its pages
 * there are tmpfs, outside this process's RSS, as a database file's pages in the OS page cache would be.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/runtime/gateway-node.ts';
import { childServerOptions } from '../harness/child-server.ts';
import { MEMORY_PROBE_SEED, seededSessionId, seedSessions } from '../harness/seed-sessions.ts';

export interface SessionMemoryOptions {
  /** Sessions stored when RSS is read. */
  readonly sessions: number;
  /** Of those, created through `store.sessions.create` (the rest bulk-inserted). Default min(sessions, 100,000). */
  readonly created?: number;
  /** Reads through `store.sessions.get`, spread over every stored session. Default min(sessions, 100,000). */
  readonly reads?: number;
  /**
   * A store file that already holds the `sessions − created` bulk-seeded sessions, seeded with
   * MEMORY_PROBE_SEED's ids: copied to this process's database instead of seeding them here.
   */
  readonly template?: string;
}

export interface SessionMemoryReport {
  readonly rssMB: number;
  readonly heapUsedMB: number;
  readonly heapTotalMB: number;
  readonly seedMs: number;
  readonly createUsPerSession: number;
  readonly readUsPerSession: number;
}

const options = childServerOptions<SessionMemoryOptions>();
const sessions = options.sessions ?? 100_000;
const created = Math.min(sessions, options.created ?? 100_000);
const reads = sessions === 0 ? 0 : (options.reads ?? Math.min(sessions, 100_000));
const seeded = sessions - created;

const dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'punchgate-bench-'));
const path = join(dataDir, 'sessions.db');

const idOf = (i: number) => `s${i.toString(36).padStart(8, '0')}-bench-session-id`;
const now = Date.now();
const expiresAt = now + 18 * 3_600_000;

const seed = { ...MEMORY_PROBE_SEED, count: seeded, now, expiresAt };
const seedStarted = performance.now();
if (options.template !== undefined && seeded > 0) copyFileSync(options.template, path);
const store = await openStore({ kind: 'sqlite', path });
if (options.template === undefined) seedSessions(path, seed);
const seedMs = performance.now() - seedStarted;

/** Bulk-seeded sessions have decimal ids, created ones base-36 past them: no id twice. */
const storedId = (i: number) => (i < seeded ? seededSessionId(seed, i) : idOf(i + 36 ** 7));

const createStarted = performance.now();
for (let i = seeded; i < sessions; i++) {
  await store.sessions.create({
    id: storedId(i),
    buyerId: 'acme',
    storefrontId: 'demo',
    protocol: 'cxml',
    operation: 'create',
    buyerCookie: `cookie-${i}`,
    returnUrl: 'https://s1-eu.ariba.example/Buyer/punchout?client=ACME&req=1234567',
    buyerUserKey: `user${i % 5_000}@acme.example`,
    pipoUserRef: `user${i % 5_000}@acme.example`,
    extrinsics: { UniqueName: `user${i % 5_000}`, UserEmail: `user${i % 5_000}@acme.example` },
    expiresAt: new Date(expiresAt),
    pipoToken: { token: `${i.toString(16).padStart(32, 'f')}`, obtainedAt: new Date() },
  });
}
const createMs = performance.now() - createStarted;

// Every stored session is as likely to be read: a stride coprime with the count visits them all, in an
// order that is neither the insertion order nor the cache's.
const stride = strideFor(sessions);
const readStarted = performance.now();
for (let r = 0, i = 0; r < reads; r++, i = (i + stride) % sessions) {
  const session = await store.sessions.get(storedId(i));
  if (session === undefined) throw new Error(`session ${i} is missing`);
}
const readMs = performance.now() - readStarted;

// What the process keeps, not garbage it has yet to collect.
globalThis.gc?.();
const usage = process.memoryUsage();
const report: SessionMemoryReport = {
  rssMB: usage.rss / 2 ** 20,
  heapUsedMB: usage.heapUsed / 2 ** 20,
  heapTotalMB: usage.heapTotal / 2 ** 20,
  seedMs,
  createUsPerSession: created === 0 ? 0 : (createMs * 1000) / created,
  readUsPerSession: reads === 0 ? 0 : (readMs * 1000) / reads,
};
process.send?.(report);
process.once('disconnect', () => {
  void store.close().finally(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});

/** A step near n × 0.618 with no factor in common with n. */
function strideFor(n: number): number {
  if (n <= 1) return 1;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let step = Math.max(1, Math.floor(n * 0.6180339887));
  while (gcd(step, n) !== 1) step++;
  return step;
}
