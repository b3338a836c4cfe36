/**
 * The Worker as wrangler builds it, wrapped for measuring under workerd (Miniflare): an entry module of its
 * own imports the built bundle unchanged and hands it an environment whose D1 binding counts what reaches
 * D1 — calls (one `all`, `run`, `first`, `raw` or `batch` each: a round trip) and statements (a batch's
 * statements each) — and a global `fetch` that counts subrequests. What the last request or Cron round did
 * is read from `GET /__counts`; `GET /__floor` answers 204 without touching the gateway (the floor of an
 * invocation, for CPU measurements). Used by the Worker tests and by `bench/cases/worker-cpu.ts`.
 *
 * Also here: the workerd process behind a Miniflare instance and its CPU time, read from /proc (Linux).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** What one request or one Cron round made the Worker do. */
export interface WorkerCounts {
  /** Calls to D1 (round trips): a statement run on its own, or one batch. */
  d1Calls: number;
  /** Statements D1 ran: a batch counts each of its statements. */
  d1Statements: number;
  /** Outbound fetches (subrequests). */
  fetches: number;
  /** The statements, in order, each as its first words (`batch[3]: INSERT INTO …` for a batch). */
  sql: string[];
  /** The fetches' method and path. */
  urls: string[];
}

export interface CountsAnswer {
  request: WorkerCounts;
  round: WorkerCounts;
}

/** The wrapper module: plain JavaScript, run by workerd next to the bundle (`./worker.js`). */
const WRAPPER = `
import worker from './worker.js';

const fresh = () => ({ d1Calls: 0, d1Statements: 0, fetches: 0, sql: [], urls: [] });
let current = fresh();
const last = { request: fresh(), round: fresh() };

const words = (sql) => sql.replace(/\\s+/g, ' ').trim().slice(0, 80);
const inner = Symbol('inner');

function statement(real, sql) {
  const counted = (method) => (...args) => {
    current.d1Calls++;
    current.d1Statements++;
    current.sql.push(words(sql));
    return real[method](...args);
  };
  return {
    [inner]: real,
    sql,
    bind: (...values) => statement(real.bind(...values), sql),
    all: counted('all'),
    run: counted('run'),
    first: counted('first'),
    raw: counted('raw'),
  };
}

function countingD1(db) {
  return {
    prepare: (sql) => statement(db.prepare(sql), sql),
    batch(statements) {
      current.d1Calls++;
      current.d1Statements += statements.length;
      for (const s of statements) current.sql.push('batch of ' + statements.length + ': ' + words(s.sql));
      return db.batch(statements.map((s) => s[inner]));
    },
    exec: (sql) => db.exec(sql),
    dump: () => db.dump(),
  };
}

const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  current.fetches++;
  const request = new Request(input, init);
  const url = new URL(request.url);
  current.urls.push(request.method + ' ' + url.host + url.pathname);
  return realFetch(request);
};

const envs = new WeakMap();
function envFor(env) {
  let wrapped = envs.get(env);
  if (wrapped === undefined) {
    wrapped = { ...env };
    for (const [name, value] of Object.entries(env)) {
      if (value && typeof value.prepare === 'function' && typeof value.batch === 'function') {
        wrapped[name] = countingD1(value);
      }
    }
    envs.set(env, wrapped);
  }
  return wrapped;
}

export default {
  async fetch(request, env, ctx) {
    const path = new URL(request.url).pathname;
    if (path === '/__floor') return new Response(null, { status: 204 });
    if (path === '/__counts') return Response.json(last);
    current = fresh();
    try {
      return await worker.fetch(request, envFor(env), ctx);
    } finally {
      last.request = current;
    }
  },
  async scheduled(controller, env, ctx) {
    current = fresh();
    try {
      await worker.scheduled(controller, envFor(env), ctx);
    } finally {
      last.round = current;
    }
  },
};
`;

/**
 * Miniflare's `modules` for the bundle behind the counting wrapper.
 *
 * @example
 * new Miniflare({ modules: instrumentedModules(bundle.code), compatibilityDate, d1Databases: { DB: 'x' } });
 */
export function instrumentedModules(bundleCode: string) {
  return [
    { type: 'ESModule' as const, path: '/instrumented/entry.js', contents: WRAPPER },
    { type: 'ESModule' as const, path: '/instrumented/worker.js', contents: bundleCode },
  ];
}

/** What the last request and the last Cron round did, from the wrapper. */
export async function countsOf(dispatch: (url: string) => Promise<{ json(): Promise<unknown> }>) {
  return (await (await dispatch('http://counts.invalid/__counts')).json()) as CountsAnswer;
}

/** The workerd processes that are children of this process, by pid. */
export function workerdChildren(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'workerd' && ppid === process.pid) found.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

/** Clock ticks per second of /proc's times (USER_HZ; 100 on every Linux this runs on). */
const USER_HZ = 100;

/** User plus system CPU time of a process, all its threads, in milliseconds (10 ms resolution). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3 of stat(5), utime 14 and stime 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}
