/**
 * Whose code a process's CPU went to, from Linux perf's samples (`hot-paths.ts --perf <file>` records
 * them): `perf script -i <file> -F comm,tid,ip,sym,dso | node bench/probes/perf-owners.ts [rows]`.
 *
 * Each sample goes to the innermost JavaScript frame of this project (`src/…`, `packages/…`, `bench/…`) or
 * of a package (`node_modules/<name>`) on its call chain, so what a library or the kernel does for that code
 * (a SQLite commit's fsync, a socket write, a regular expression) counts as that code's. Samples with no
 * such frame are named by what they are in: another thread (V8's workers, libuv's pool), Node's HTTP parser
 * and the callbacks it makes, the event loop's polling, promise jobs. Node needs `--perf-basic-prof` for
 * perf to name JavaScript frames.
 */
import { createInterface } from 'node:readline';

/**
 * `JS:*'name file:///…/src/x.ts:12:3`, `JS:^name …` or `JS:+ node:internal/…:12:3` (the marker says how V8
 * compiled it; the name may be empty): the location of a JavaScript frame.
 */
const JS_FRAME = /JS:.* (file:\/\/\/\S+|node:\S+?):\d+:\d+/;

/** What a sample without a frame of ours or of a package is in, tried in this order. */
const WITHOUT_OWNER: readonly (readonly [string, RegExp])[] = [
  ["node's HTTP parser and its callbacks", /llhttp|http_parser/],
  ['socket reads', /uv__read|OnUvRead/],
  ['the event loop polling', /uv__io_poll/],
  ['promise jobs', /RunMicrotasks|PromiseFulfill/],
  ['timers', /uv__run_timers/],
  ['garbage collection', /Heap::|Scavenge|MarkCompact/],
];

function ownerOfFrame(frame: string): string | undefined {
  const location = JS_FRAME.exec(frame)?.[1];
  if (location === undefined || location.startsWith('node:')) return undefined;
  if (location.includes('/node_modules/')) {
    const [scopeOrName, name] = (location.split('/node_modules/').pop() ?? '').split('/');
    return `package ${scopeOrName?.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName}`;
  }
  const project = /\/((?:src|packages|bench|test)\/.*)$/.exec(location);
  return project?.[1] ?? location;
}

function ownerOfSample(thread: string, frames: readonly string[]): string {
  for (const frame of frames) {
    const owner = ownerOfFrame(frame);
    if (owner !== undefined) return owner;
  }
  if (thread !== 'MainThread' && thread !== 'node') return `thread ${thread}`;
  for (const [name, pattern] of WITHOUT_OWNER) if (frames.some((f) => pattern.test(f))) return `(${name})`;
  return frames.some((f) => f.includes('[kernel.kallsyms]')) ? '(kernel, nothing of ours above)' : '(other)';
}

function share(count: number, total: number): string {
  return `${((100 * count) / total).toFixed(1).padStart(5)} %`;
}

const rows = Number(process.argv[2] ?? 40);
const counts = new Map<string, number>();
const threads = new Map<string, number>();
let total = 0;
/** One sample as perf script prints it: a header line (`comm tid`), then its frames, innermost first. */
function count(lines: readonly string[]): void {
  const [header = '', ...frames] = lines;
  if (frames.length === 0) return;
  // A thread's name may hold spaces; its id is the last word.
  const thread = header.trim().split(/\s+/).slice(0, -1).join(' ') || 'MainThread';
  const owner = ownerOfSample(thread, frames);
  counts.set(owner, (counts.get(owner) ?? 0) + 1);
  threads.set(thread, (threads.get(thread) ?? 0) + 1);
  total++;
}
// Line by line from the pipe: perf script writes tens of megabytes for a run of seconds.
let sample: string[] = [];
for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  if (line.trim() === '') {
    count(sample);
    sample = [];
  } else {
    sample.push(line.trim());
  }
}
count(sample);
if (total === 0) {
  console.error('perf-owners: no samples on stdin (perf script -i <file> -F comm,tid,ip,sym,dso | …)');
  process.exit(1);
}
console.log(
  `${total} samples; threads: ${[...threads].map(([t, n]) => `${t} ${share(n, total).trim()}`).join(', ')}`,
);
for (const [owner, samples] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`${share(samples, total)}  ${owner}`);
}
