/**
 * Memory: resident memory (RSS) of a process holding 100,000 live sessions in the SQLite store with the
 * session cache in front (sized as `punchgate serve` sizes it), after creating and reading every one,
 * against the same process holding none. Each round is a fresh process (bench/probes/session-memory.ts).
 * Goal: at most 300 MB.
 */
import type { BenchCase, Figures } from '../harness/bench-case.ts';
import { startChildServer } from '../harness/child-server.ts';
import type { SessionMemoryOptions, SessionMemoryReport } from '../probes/session-memory.ts';

const SESSIONS = 100_000;
const probe = new URL('../probes/session-memory.ts', import.meta.url);

async function measure(sessions: number): Promise<Figures> {
  const child = await startChildServer<SessionMemoryReport>(probe, {
    options: { sessions } satisfies SessionMemoryOptions,
    timeoutMs: 300_000,
    execArgv: ['--expose-gc'],
  });
  await child.stop();
  return { ...child.ready };
}

const sessionMemory: BenchCase = {
  name: 'session-memory',
  title: 'RSS of a process with 100,000 live sessions (SQLite store + session cache) vs none',
  async setup() {
    return {
      variants: {
        'no sessions': () => measure(0),
        '100,000 sessions': () => measure(SESSIONS),
      },
      metrics: {
        rssMB: { unit: 'MB', better: 'lower' },
        heapUsedMB: { unit: 'MB', better: 'lower' },
        createUsPerSession: { unit: 'µs', better: 'lower' },
        readUsPerSession: { unit: 'µs', better: 'lower' },
      },
      limits: [
        {
          name: 'RSS with 100,000 sessions',
          variant: '100,000 sessions',
          metric: 'rssMB',
          goal: { atMost: 300 },
        },
      ],
      differences: [
        {
          name: 'RSS of the sessions',
          metric: 'rssMB',
          minuend: '100,000 sessions',
          subtrahend: 'no sessions',
        },
      ],
      rounds: 3,
      parameters: {
        sessions: SESSIONS,
        cache: "openStore's (max 10,000, ttl 60 s)",
        database: 'file on /dev/shm',
      },
      async close() {},
    };
  },
};

export default sessionMemory;
