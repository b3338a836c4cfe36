/**
 * The gateway's order worker as its own process, for the SIGKILL tests: opens the SQLite file named by
 * CRASH_CONFIG's store, ticks the worker until every PO has settled and the outbox is empty, then exits 0.
 * The parent kills it at random points and starts it again. CRASH_OFFSET_MS moves its clock forward (the
 * time a restart takes), so that leases of the killed run expire and backoffs fall due.
 */
import { readFileSync } from 'node:fs';
import { createGateway } from '../../src/gateway/app/gateway.ts';
import { createOrderWorker } from '../../src/gateway/orders/index.ts';
import { createPrintApi } from '../../src/print-api/index.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { resolveTestConfig } from '../support/stack.ts';

const config = resolveTestConfig(JSON.parse(readFileSync(process.env.CRASH_CONFIG ?? '', 'utf8')));
const offsetMs = Number(process.env.CRASH_OFFSET_MS ?? '0');
const clock = { now: () => new Date(Date.now() + offsetMs) };
if (config.store.kind !== 'sqlite') throw new Error('the crash child needs a sqlite store');
const store = createSqliteStore({ path: config.store.path, clock });
const gateway = await createGateway({
  config,
  store,
  clock,
  printApiFor: (s) => createPrintApi({ baseUrl: s.apiBaseUrl, token: s.apiToken, key: s.apiKey }),
});
// Small rounds, so that a kill can land between two jobs as well as inside one.
const worker = createOrderWorker(gateway.context, { maxJobsPerTick: 2, maxMessagesPerTick: 2 });

async function settled(): Promise<boolean> {
  const orders = (await store.orders.list({ limit: 100 })).items;
  if (orders.some((o) => o.state === 'received' || o.state === 'processing')) return false;
  const busy = [
    ...(await store.outbox.list({ state: 'pending' })).items,
    ...(await store.outbox.list({ state: 'sending' })).items,
  ];
  if (busy.length > 0) return false;
  // An ordered PO is confirmed to the buyer: its message must exist before the run counts as done.
  for (const order of orders.filter((o) => o.state === 'ordered')) {
    if ((await store.outbox.list({ poId: order.id })).items.length === 0) return false;
  }
  return true;
}

const deadline = Date.now() + 30_000;
process.stdout.write('ready\n');
while (Date.now() < deadline) {
  const { jobs, messages } = await worker.tick();
  // The parent counts the kills that landed while work was being done.
  if (jobs + messages > 0) process.stdout.write(`worked ${jobs} ${messages}\n`);
  if (await settled()) {
    await store.close();
    process.stdout.write('settled\n');
    process.exit(0);
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const orders = (await store.orders.list({ limit: 100 })).items.map((o) => `${o.orderId}:${o.state}`);
const jobs = (await store.jobs.list({ limit: 100 })).items.map((j) => `${j.kind}:${j.state}:${j.attempts}`);
const outbox = (await store.outbox.list({ limit: 100 })).items.map(
  (m) => `${m.kind}:${m.state}:${m.attempts}`,
);
process.stdout.write(`not settled in 30 s: ${orders.join(' ')} | ${jobs.join(' ')} | ${outbox.join(' ')}\n`);
process.exit(2);
