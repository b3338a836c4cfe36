/**
 * The order job's cost per line at two sizes, alternated: a PO of `small` and one of `large` lines on the
 * growth-po case's set-up (in-process stack, SQLite in memory, the sandbox as print service, a fresh store
 * per PO), taken in untimed through `POST /cxml`, then one worker tick timed. Prints each round's per-line
 * times and their ratio, and the median ratio; with `--profile <dir>` writes a CPU profile of each size's
 * last tick (the job only, not the intake).
 *
 * Run: `node --conditions=punchgate-source bench/probes/order-job-growth.ts [small] [large] [rounds]
 * [--profile dir]` (default 1,000 and 5,000 lines, 5 rounds).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOrderWorker } from '../../src/gateway/orders/index.ts';
import { orderConfig } from '../../test/support/order-flow.ts';
import { createStack, GATEWAY_ORIGIN } from '../../test/support/stack.ts';
import { freshCartOf, seededLinesOrder } from '../harness/seeded-lines-order.ts';
import { median } from '../harness/statistics.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { profile: { type: 'string' } },
});
const small = Number(positionals[0] ?? 1_000);
const large = Number(positionals[1] ?? 5_000);
const rounds = Number(positionals[2] ?? 5);

const stack = await createStack(orderConfig());
let serial = 0;

/** A fresh store with `n` cart lines of a punched-in user and their PO taken in; answers the worker. */
async function prepare(n: number) {
  await freshCartOf(stack, n);
  const unique = `probe-${++serial}`;
  const body = seededLinesOrder(n, `${unique}@buyer.example`, `PO-${unique}`);
  const res = await stack.request(`${GATEWAY_ORIGIN}/cxml`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'text/xml' },
  });
  const answer = await res.text();
  if (!answer.includes('<Status code="200"')) throw new Error(`intake of ${n} lines: ${answer}`);
  return createOrderWorker(stack.gateway.context);
}

const inspector = new Session();
inspector.connect();

/** One PO's job: wall-clock and CPU µs per line. */
async function job(n: number, profile: boolean): Promise<{ wall: number; cpu: number }> {
  const worker = await prepare(n);
  global.gc?.();
  if (profile) {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
  }
  const callsBefore = stack.upstreamCalls.length;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { jobs } = await worker.tick();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  if (profile) {
    const { profile: written } = await inspector.post('Profiler.stop');
    writeFileSync(join(values.profile as string, `job-${n}.cpuprofile`), JSON.stringify(written));
  }
  const { items } = await stack.store.orders.list({ limit: 1 });
  if (jobs === 0 || items[0]?.state !== 'ordered')
    throw new Error(`job of ${n} lines: ${items[0]?.lastError}`);
  if (process.env.PROBE_CALLS) {
    const calls = new Map<string, number>();
    for (const call of stack.upstreamCalls.slice(callsBefore)) calls.set(call, (calls.get(call) ?? 0) + 1);
    console.log(`${n} lines: print-service calls ${JSON.stringify(Object.fromEntries(calls))}`);
  }
  return { wall: (ms * 1000) / n, cpu: (cpu.user + cpu.system) / n };
}

await job(small, false);
await job(large, false);
const ratios = { wall: [] as number[], cpu: [] as number[] };
for (let round = 1; round <= rounds; round++) {
  const perLine: Record<number, { wall: number; cpu: number }> = {};
  for (const n of round % 2 === 0 ? [large, small] : [small, large]) {
    perLine[n] = await job(n, values.profile !== undefined && round === rounds);
  }
  const [a, b] = [perLine[small]!, perLine[large]!];
  ratios.wall.push(b.wall / a.wall);
  ratios.cpu.push(b.cpu / a.cpu);
  console.log(
    `round ${round}: µs/line wall ${a.wall.toFixed(0)} / ${b.wall.toFixed(0)} → ${(b.wall / a.wall).toFixed(3)}, ` +
      `cpu ${a.cpu.toFixed(0)} / ${b.cpu.toFixed(0)} → ${(b.cpu / a.cpu).toFixed(3)} (${small} / ${large} lines)`,
  );
}
const listed = (all: number[]) => `${median(all).toFixed(3)} (${all.map((r) => r.toFixed(3)).join(' ')})`;
console.log(`median ratio wall ${listed(ratios.wall)}, cpu ${listed(ratios.cpu)}`);
await stack.store.close();
