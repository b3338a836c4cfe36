/**
 * Child process for the cross-process claim test: opens the store file given on the command line, waits
 * for the shared start instant so the processes overlap, then claims and completes jobs until none is due
 * and prints the ids it claimed as JSON.
 */
import { createSqliteStore } from '../../src/store/sqlite.ts';

const [path, nowIso, startAtMs] = process.argv.slice(2);
const now = new Date(nowIso!);
const store = createSqliteStore({ path: path!, clock: { now: () => now } });
while (Date.now() < Number(startAtMs)) await new Promise((resolve) => setTimeout(resolve, 5));
const claimed: string[] = [];
for (;;) {
  const job = await store.jobs.claim(now, 60_000);
  if (!job) break;
  claimed.push(job.id);
  await store.jobs.complete(job);
}
await store.close();
process.stdout.write(JSON.stringify(claimed));
