/**
 * `node --conditions=punchgate-source bench/probes/hot-paths.ts [--base <checkout>] [--profile <dir>]`:
 * the two headline operations — a returning user's punch-in (the 5.3 KB setup of cases/punch-in.ts, PIPO
 * token reused) and a 5-line PO's intake (cases/po-intake.ts) — sent one at a time to the gateway as
 * the bench serves it (bench/servers/gateway-server.ts: logging as `punchgate serve`, into a file), with
 * the serving process's CPU per operation (every thread, garbage collection included).
 *
 * With `--base`, the same gateway script of another checkout (say `git worktree add /tmp/base main`, or a
 * `git archive` of it with node_modules linked) runs beside this one's against the same sandbox, and each
 * round measures both in alternating order: an A/B whose two sides see the same load of a shared machine.
 * With `--only <prefix>`, only the operations whose name starts with it run. With `--profile`, each gateway runs under `--cpu-prof` and writes its profile there when it stops.
 *
 * With `--perf <file>`, this checkout's gateway runs with `--perf-basic-prof` and `perf record -g` samples
 * it through the measured rounds into `<file>` (Linux perf, not installed by npm: a tool for whoever profiles,
 * never for a test). Its samples count CPU only, every thread and the kernel's work for the process
 * included, where V8's profiler samples the main thread's wall time (a commit's fsync wait shows there as
 * SQLite work). `perf script -i <file> -F comm,tid,ip,sym,dso | node bench/probes/perf-owners.ts` says whose
 * code the CPU went to.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandboxServer } from '../harness/bench-servers.ts';
import { type ChildServer, startChildServer } from '../harness/child-server.ts';
import { processCpuMicros } from '../harness/process-cpu.ts';
import { median } from '../harness/statistics.ts';
import type { GatewayServerOptions, GatewayServerReady } from '../servers/gateway-server.ts';
import { orderBody } from '../cases/po-intake.ts';
import { realisticSetup } from '../cases/punch-in.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    profile: { type: 'string' },
    rounds: { type: 'string', default: '7' },
    ops: { type: 'string', default: '200' },
    only: { type: 'string' },
    perf: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const OPS = Number(values.ops);
const here = resolve(import.meta.dirname, '..', '..');
const LOG_DIR = join(here, '.bench', 'logs');

const sandbox = await startSandboxServer();
const gateways: { name: string; server: ChildServer<GatewayServerReady> }[] = [];
for (const [name, root] of [
  ['this', here],
  ...(values.base === undefined ? [] : [['base', resolve(values.base)]]),
] as const) {
  const server = await startChildServer<GatewayServerReady>(
    new URL(`file://${join(root, 'bench', 'servers', 'gateway-server.ts')}`),
    {
      options: {
        sandboxUrl: sandbox.ready.url,
        reuseSeconds: 600,
        orderLines: 5,
      } satisfies GatewayServerOptions,
      stderrFile: join(LOG_DIR, `hot-paths-${name}.log`),
      env: { LOG_FORMAT: 'json' },
      execArgv: [
        ...(values.profile === undefined
          ? []
          : [
              '--cpu-prof',
              `--cpu-prof-dir=${resolve(values.profile)}`,
              `--cpu-prof-name=${name}.cpuprofile`,
            ]),
        ...(values.perf !== undefined && name === 'this'
          ? ['--perf-basic-prof', '--interpreted-frames-native-stack']
          : []),
      ],
    },
  );
  gateways.push({ name, server });
}

const setup = realisticSetup();
let serial = 0;
const allOperations: Record<string, () => { body: string; headers?: Record<string, string> }> = {
  'punch-in, returning user': () => ({ body: setup.replace('BENCH-ID', `hot-${++serial}`) }),
  'PO intake, 5 lines': () => ({
    body: orderBody(`hot-${process.pid}-${++serial}`),
    headers: { 'content-type': 'text/xml; charset=UTF-8' },
  }),
};

// `--only punch` or `--only PO`: one operation alone, so a profile holds nothing else.
const operations = Object.fromEntries(
  Object.entries(allOperations).filter(([name]) => values.only === undefined || name.startsWith(values.only)),
);

/** `perf record` sampling `server`'s process (call graphs, CPU clock) until stopped. */
async function startPerf(server: ChildServer<GatewayServerReady>, file: string) {
  if (server.pid === undefined)
    throw new Error('hot-paths: the gateway has no process id for perf to sample');
  const recorder = spawn(
    'perf',
    ['record', '-F', '2999', '-g', '-e', 'cpu-clock', '-p', String(server.pid), '-o', file],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise<void>((done, fail) => {
    recorder.once('error', fail);
    recorder.once('exit', () => done());
  });
  // perf says nothing when it is ready: give it a moment to attach before the rounds begin.
  await Promise.race([exited, new Promise((wait) => setTimeout(wait, 1_000))]);
  return {
    async stop() {
      recorder.kill('SIGINT');
      await exited;
      console.log(
        `perf samples in ${file}: perf script -i ${file} -F comm,tid,ip,sym,dso | node bench/probes/perf-owners.ts`,
      );
    },
  };
}

async function post(url: string, body: string, headers?: Record<string, string>): Promise<void> {
  const res = await fetch(`${url}/cxml`, { method: 'POST', body, ...(headers && { headers }) });
  const text = await res.text();
  if (!text.includes('<Status code="200"')) throw new Error(`hot-paths: refused:\n${text}`);
}

/** CPU µs per operation of `server` over `count` operations sent one after another. */
async function measure(server: ChildServer<GatewayServerReady>, operation: string, count: number) {
  const make = operations[operation]!;
  const inputs = Array.from({ length: count }, make);
  const pid = server.pid ?? -1;
  const before = processCpuMicros(pid);
  for (const { body, headers } of inputs) await post(server.ready.url, body, headers);
  return (processCpuMicros(pid) - before) / count;
}

for (const { server } of gateways)
  for (const operation of Object.keys(operations)) await measure(server, operation, OPS);

const perf =
  values.perf === undefined ? undefined : await startPerf(gateways[0]!.server, resolve(values.perf));
const samples = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? gateways : [...gateways].reverse();
  for (const operation of Object.keys(operations)) {
    for (const { name, server } of order) {
      const key = `${operation} | ${name}`;
      const list = samples.get(key) ?? [];
      list.push(await measure(server, operation, OPS));
      samples.set(key, list);
    }
  }
}

await perf?.stop();

for (const operation of Object.keys(operations)) {
  const line = gateways.map(({ name }) => {
    const values = samples.get(`${operation} | ${name}`) ?? [];
    return `${name} ${median(values).toFixed(0)} µs [${values.map((v) => v.toFixed(0)).join(' ')}]`;
  });
  let ratio = '';
  if (gateways.length === 2) {
    const rounds = samples
      .get(`${operation} | this`)!
      .map((v, i) => v / samples.get(`${operation} | base`)![i]!);
    ratio = `  this/base ${median(rounds).toFixed(3)}`;
  }
  console.log(`${operation}: ${line.join('   ')}${ratio}`);
}
for (const { server } of gateways) await server.stop();
await sandbox.stop();
