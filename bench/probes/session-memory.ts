/**
 * A process that holds `sessions` live punch-out sessions the way the gateway on Node does (SQLite store,
 * the session cache in front with `openStore`'s sizing), creates and then reads every one, and reports its
 * resident memory to the parent over IPC. `sessions: 0` gives the floor: the same modules and store, empty.
 *
 * The database lives on /dev/shm when there is one, so that the disk does not pace the set-up of the
 * sessions this case is about.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/runtime/gateway-node.ts';
import { childServerOptions } from '../harness/child-server.ts';

export interface SessionMemoryOptions {
  readonly sessions: number;
}

export interface SessionMemoryReport {
  readonly rssMB: number;
  readonly heapUsedMB: number;
  readonly createUsPerSession: number;
  readonly readUsPerSession: number;
}

const { sessions = 100_000 } = childServerOptions<SessionMemoryOptions>();
const dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'punchgate-bench-'));
const store = await openStore({ kind: 'sqlite', path: join(dataDir, 'sessions.db') });

const expiresAt = new Date(Date.now() + 18 * 3_600_000);
const createStarted = performance.now();
for (let i = 0; i < sessions; i++) {
  await store.sessions.create({
    id: `s${i.toString(36).padStart(8, '0')}-bench-session-id`,
    buyerId: 'acme',
    storefrontId: 'demo',
    protocol: 'cxml',
    operation: 'create',
    buyerCookie: `cookie-${i}`,
    returnUrl: 'https://s1-eu.ariba.example/Buyer/punchout?client=ACME&req=1234567',
    buyerUserKey: `user${i % 5_000}@acme.example`,
    pipoUserRef: `user${i % 5_000}@acme.example`,
    extrinsics: { UniqueName: `user${i % 5_000}`, UserEmail: `user${i % 5_000}@acme.example` },
    expiresAt,
    pipoToken: { token: `${i.toString(16).padStart(32, 'f')}`, obtainedAt: new Date() },
  });
}
const createMs = performance.now() - createStarted;
const readStarted = performance.now();
for (let i = 0; i < sessions; i++) {
  const session = await store.sessions.get(`s${i.toString(36).padStart(8, '0')}-bench-session-id`);
  if (session === undefined) throw new Error(`session ${i} is missing`);
}
const readMs = performance.now() - readStarted;

// What the process keeps, not garbage it has yet to collect.
globalThis.gc?.();
const usage = process.memoryUsage();
const report: SessionMemoryReport = {
  rssMB: usage.rss / 2 ** 20,
  heapUsedMB: usage.heapUsed / 2 ** 20,
  createUsPerSession: sessions === 0 ? 0 : (createMs * 1000) / sessions,
  readUsPerSession: sessions === 0 ? 0 : (readMs * 1000) / sessions,
};
process.send?.(report);
process.once('disconnect', () => {
  void store.close().finally(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
