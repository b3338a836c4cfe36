/**
 * Child process for the cross-process claim test: opens the store file given on the command line, tells
 * the parent it is ready and waits for its go, so every process has its store open before any claims (a
 * barrier, not a guess at how long starting takes); then claims and completes jobs until none is due and
 * prints the ids it claimed as JSON.
 */
import { createSqliteStore } from '../../src/store/sqlite.ts';

const [path, nowIso] = process.argv.slice(2);
const now = new Date(nowIso!);
const store = createSqliteStore({ path: path!, clock: { now: () => now } });
const go = new Promise((resolve) => process.once('message', resolve));
process.send!('ready');
await go;
const claimed: string[] = [];
for (;;) {
  const job = await store.jobs.claim(now, 60_000);
  if (!job) break;
  claimed.push(job.id);
  await store.jobs.complete(job);
}
await store.close();
process.stdout.write(JSON.stringify(claimed));
process.disconnect!();
