/**
 * Growth of a punch-in with the sessions already stored (issue 18, deliverable 3): a PunchOutSetupRequest
 * (the realistic 5.3 KB one of bench/cases/punch-in.ts, a returning mapped user whose PIPO token is reused)
 * through the gateway app in process (its `fetch`, no socket), on a SQLite store holding 1,000, 100,000 or
 * 1,000,000 live sessions, and its answer read. The stored sessions are bulk-inserted once in set-up
 * (bench/harness/seed-sessions.ts) and reused by every round; after each point's punch-ins the sessions they
 * created are deleted again, so every point keeps its size.
 *
 * Not a cost per item: a punch-in writes one session whatever the store holds, so its cost should stay
 * flat, and the goal is t(1,000,000) / t(1,000) ≤ 1.2, t the median time of one punch-in (taken per round,
 * then the median over the rounds). What may grow is the store's part: the insert into a table and two
 * indexes (the key, `expires_at`) a few levels deeper, log n.
 *
 * Housekeeping beside it: `sessions.expire` as the background round calls it (at most 500 rows), deleting
 * 500 sessions past their retention among the live ones, timed at each size (`purgeMs`). The
 * `sessions_expires_at` index (migration 1) finds them without a scan, so what grows is the depth of the
 * three b-trees each deleted row leaves (table, key, `expires_at`): log n, about 1.3× from 1,000 to
 * 1,000,000 rows, where a scan would be about 1,000×. Its goal says bounded, not flat: at most 2×.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { HOUSEKEEPING_ROWS_PER_KIND } from '../../src/store/housekeeping.ts';
import { createStack, type Stack } from '../../test/support/stack.ts';
import type { BenchCase, Figures } from '../harness/bench-case.ts';
import { LINEAR_GOAL, medianMs, sizeLabel } from '../harness/growth.ts';
import { seedSessions } from '../harness/seed-sessions.ts';
import { realisticSetup } from './punch-in.ts';

const SIZES = [1_000, 100_000, 1_000_000] as const;
const SEEDED = 'seed-';
const EXPIRED = 'gone-';
const DAY_MS = 86_400_000;

const label = (n: number) => `punch-in: ${sizeLabel(n, 'session', 'sessions')} stored`;

interface Point {
  readonly stack: Stack;
  readonly path: string;
}

const growthSessions: BenchCase = {
  name: 'growth-sessions',
  title:
    'cXML punch-in with 1,000, 100,000, 1,000,000 sessions stored: its cost must stay flat (in-process app)',
  async setup({ quick }) {
    const dir = mkdtempSync(
      join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'punchgate-growth-sessions-'),
    );
    const points = new Map<number, Point>();
    for (const n of SIZES) {
      const stack = await createStack();
      const path = join(dir, `sessions-${n}.db`);
      const store = createSqliteStore({ path, clock: stack.clock });
      const now = stack.clock.now().getTime();
      seedSessions(path, { count: n, prefix: SEEDED, now, expiresAt: now + DAY_MS });
      await stack.restartGateway(store);
      points.set(n, { stack, path });
    }
    // Each setup its own payloadID, as buyers send.
    const body = realisticSetup();
    let nextPayload = 0;
    const punchIn = async ({ stack }: Point) => {
      const answer = await stack.postCxml(body.replace('BENCH-ID', `GROWTH-${++nextPayload}`));
      if (!answer.includes('<Status code="200"'))
        throw new Error(`punch-in refused: ${answer.slice(0, 300)}`);
    };

    /** Deletes what the point's punch-ins created, so that it holds its size again. */
    const restore = ({ path }: Point) => {
      const db = new Database(path);
      db.prepare(`DELETE FROM sessions WHERE id NOT LIKE '${SEEDED}%'`).run();
      db.close();
    };

    /** One bounded purge of sessions, with that many past their retention among the live ones. */
    const purge = async ({ stack, path }: Point) => {
      const now = stack.clock.now().getTime();
      const longAgo = now - 60 * DAY_MS;
      seedSessions(path, {
        count: HOUSEKEEPING_ROWS_PER_KIND,
        prefix: EXPIRED,
        now: longAgo,
        expiresAt: longAgo,
      });
      const started = performance.now();
      const purged = await stack.store.sessions.expire(new Date(now - 30 * DAY_MS), {
        limit: HOUSEKEEPING_ROWS_PER_KIND,
      });
      const ms = performance.now() - started;
      if (purged !== HOUSEKEEPING_ROWS_PER_KIND) throw new Error(`purged ${purged} sessions`);
      return ms;
    };

    const punchIns = quick ? 40 : 150;
    const purges = quick ? 3 : 7;
    const measure = async (n: number): Promise<Figures> => {
      const point = points.get(n)!;
      const punchInMs = await medianMs(punchIns, async () => point, punchIn);
      restore(point);
      const purgeTimes: number[] = [];
      for (let i = 0; i < purges; i++) purgeTimes.push(await purge(point));
      purgeTimes.sort((a, b) => a - b);
      return { punchInMs, purgeMs: purgeTimes[purgeTimes.length >> 1]! };
    };

    const first = label(SIZES[0]);
    const last = label(SIZES[SIZES.length - 1]!);
    return {
      variants: Object.fromEntries(SIZES.map((n) => [label(n), () => measure(n)])),
      metrics: {
        punchInMs: { unit: 'ms', better: 'lower' },
        purgeMs: { unit: 'ms', better: 'lower' },
      },
      ratios: [
        {
          name: 'punch-in, 1,000,000 / 1,000 sessions',
          metric: 'punchInMs',
          numerator: last,
          denominator: first,
          goal: LINEAR_GOAL,
        },
        {
          name: 'punch-in, 100,000 / 1,000 sessions',
          metric: 'punchInMs',
          numerator: label(100_000),
          denominator: first,
          goal: LINEAR_GOAL,
        },
        {
          name: 'purge of 500 expired, 1,000,000 / 1,000 sessions',
          metric: 'purgeMs',
          numerator: last,
          denominator: first,
          goal: { atMost: 2 },
        },
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        sizes: SIZES.join(' '),
        setup: '5.3 KB realistic, returning user, token reused',
        store: 'SQLite file on /dev/shm, no session cache',
        punchInsPerPoint: punchIns,
        purgeRowsPerCall: HOUSEKEEPING_ROWS_PER_KIND,
      },
      async warmUp() {
        for (const point of points.values()) {
          for (let i = 0; i < 20; i++) await punchIn(point);
          restore(point);
          await purge(point);
        }
      },
      async close() {
        for (const { stack } of points.values()) await stack.store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export default growthSessions;
