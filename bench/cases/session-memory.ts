/**
 * Memory (issue 18, deliverable 6): resident memory (RSS) of a process holding 100,000 and 1,000,000
 * stored sessions in the SQLite store as `punchgate serve` opens it (`openStore`), after 100,000 sessions
 * created and 100,000 read through the store (bench/probes/session-memory.ts says how the rest are
 * seeded), against the same process holding none. Each round is a fresh process per variant.
 *
 * The process runs what an installed punchgate runs: the probe and the gateway built with tsc (as
 * `npm run build` builds dist/, into .bench/session-memory/ so the shared dist/ is left alone), not the
 * TypeScript sources through Node's type stripping, which alone adds about 30 MB. Untuned Node flags
 * (only `--expose-gc`, for one full collection before the reading).
 *
 * The bulk-seeded sessions of each point (all but the 100,000 created through the store) are written once
 * per run, into a template store file by a child process of its own (bench/probes/sessions-file.ts, while
 * the probe is built), and each round's process copies that file instead of seeding them again: the
 * sessions it holds, creates and reads are the same, the run about a minute shorter on a quiet machine.
 *
 * Goals: at most 250 MB with 100,000 sessions, at most 300 MB with 1,000,000.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BenchCase, Figures } from '../harness/bench-case.ts';
import { startChildServer } from '../harness/child-server.ts';
import { MEMORY_PROBE_SEED } from '../harness/seed-sessions.ts';
import type { SessionMemoryOptions, SessionMemoryReport } from '../probes/session-memory.ts';
import type { SessionsFileOptions, SessionsFileReady } from '../probes/sessions-file.ts';

/** Sessions stored, each with its RSS goal in MB. */
const POINTS = [
  { sessions: 100_000, goalMB: 250 },
  { sessions: 1_000_000, goalMB: 300 },
] as const;
const BUILD_DIR = new URL('../../.bench/session-memory/', import.meta.url);

const label = (n: number) => `${n.toLocaleString('en-US')} sessions`;
/** Sessions of each point created through `store.sessions.create` (the rest are bulk-seeded). */
const CREATED = 100_000;

/** A store file holding `count` bulk-seeded sessions with the probe's ids, written by a child process. */
async function seedTemplate(path: string, count: number): Promise<{ path: string; seedMs: number }> {
  const now = Date.now();
  // Far enough ahead that no round's process finds them expired.
  const seed = { ...MEMORY_PROBE_SEED, count, now, expiresAt: now + 18 * 3_600_000 };
  const child = await startChildServer<SessionsFileReady>(
    new URL('../probes/sessions-file.ts', import.meta.url),
    { options: { path, seed } satisfies SessionsFileOptions, timeoutMs: 600_000 },
  );
  await child.stop();
  return { path, seedMs: child.ready.seedMs };
}

/** Builds the probe and what it imports as `npm run build` does; answers the built probe. */
async function buildProbe(): Promise<URL> {
  mkdirSync(BUILD_DIR, { recursive: true });
  writeFileSync(
    new URL('tsconfig.json', BUILD_DIR),
    JSON.stringify({
      extends: '../../tsconfig.build.json',
      // Incremental: a run after the first re-emits only what changed (about 5 s of CPU for the whole).
      compilerOptions: {
        rootDir: '../..',
        outDir: 'out',
        declaration: false,
        incremental: true,
        tsBuildInfoFile: 'out/.tsbuildinfo',
      },
      include: ['../../bench/probes/session-memory.ts'],
    }),
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', new URL('tsconfig.json', BUILD_DIR).pathname]);
  return new URL('out/bench/probes/session-memory.js', BUILD_DIR);
}

const sessionMemory: BenchCase = {
  name: 'session-memory',
  title: 'RSS with 100,000 and 1,000,000 stored sessions (SQLite store as punchgate serve opens it) vs none',
  async setup() {
    const templates = mkdtempSync(
      join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'punchgate-sessions-'),
    );
    const bulk = POINTS.map(({ sessions }) => sessions).filter((sessions) => sessions > CREATED);
    const [probe, ...seeded] = await Promise.all([
      buildProbe(),
      ...bulk.map((sessions) => seedTemplate(join(templates, `${sessions}.db`), sessions - CREATED)),
    ]);
    const templateOf = new Map<number, { path: string; seedMs: number }>(
      bulk.map((sessions, i) => [sessions, seeded[i]!]),
    );
    const measure = async (sessions: number): Promise<Figures> => {
      const template = templateOf.get(sessions);
      const child = await startChildServer<SessionMemoryReport>(probe, {
        options: {
          sessions,
          created: CREATED,
          ...(template !== undefined && { template: template.path }),
        } satisfies SessionMemoryOptions,
        timeoutMs: 300_000,
        execArgv: ['--expose-gc'],
      });
      await child.stop();
      return { ...child.ready };
    };
    return {
      variants: {
        'no sessions': () => measure(0),
        ...Object.fromEntries(POINTS.map(({ sessions }) => [label(sessions), () => measure(sessions)])),
      },
      metrics: {
        rssMB: { unit: 'MB', better: 'lower' },
        heapUsedMB: { unit: 'MB', better: 'lower' },
        heapTotalMB: { unit: 'MB', better: 'lower' },
        seedMs: { unit: 'ms', better: 'lower' },
        createUsPerSession: { unit: 'µs', better: 'lower' },
        readUsPerSession: { unit: 'µs', better: 'lower' },
      },
      limits: POINTS.map(({ sessions, goalMB }) => ({
        name: `RSS with ${label(sessions)}`,
        variant: label(sessions),
        metric: 'rssMB',
        goal: { atMost: goalMB },
      })),
      differences: POINTS.map(({ sessions }) => ({
        name: `RSS of ${label(sessions)}`,
        metric: 'rssMB',
        minuend: label(sessions),
        subtrahend: 'no sessions',
      })),
      rounds: 3,
      parameters: {
        sizes: POINTS.map(({ sessions }) => sessions).join(' '),
        createdAndRead: '100,000 each through the store, the rest bulk-inserted',
        store: "openStore's (SQLite, no session cache)",
        build: 'tsc, as npm run build (dist)',
        database: 'file on /dev/shm',
        bulkSeeded: 'once per run into a template file, copied by each round',
        ...Object.fromEntries(
          [...templateOf].map(([sessions, { seedMs }]) => [
            `template of ${label(sessions)}: ms to seed`,
            Math.round(seedMs),
          ]),
        ),
      },
      async close() {
        rmSync(templates, { recursive: true, force: true });
      },
    };
  },
};

export default sessionMemory;
