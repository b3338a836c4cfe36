/**
 * `jobs.enqueue` on PostgreSQL while another instance finishes the job of the same key. The enqueue is a
 * batch of two statements, the insert (refused while an open job holds the key) and the read of the open
 * job; at READ COMMITTED each sees what was committed when it started, so the job can be completed by the
 * other instance between the two. Each gateway's background round queues the reconciliation poll while the
 * other instance may be completing it, so two instances meet this right after they start.
 *
 * The interleaving is made, not waited for: the pg client's query is wrapped so that right after the
 * enqueue's insert has answered (and before the read is sent), the other store completes the job.
 */
import pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import type { Store } from '../../src/store/port.ts';
import { describeWithPostgres, useTestSchemas } from '../support/postgres-test-database.ts';
import { createManualClock } from './manual-clock.ts';
import { at, T0 } from './store-suite.ts';

/** Runs `between` once, after the next `INSERT INTO jobs` sent as a query config has been answered. */
function afterNextJobInsert(between: () => Promise<void>): { ran: () => boolean } {
  const query = pg.Client.prototype.query;
  let ran = false;
  vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as { text?: unknown } | undefined;
    const answer = (query as (...a: unknown[]) => unknown).apply(this, args);
    const isJobInsert =
      args.length === 1 && typeof config?.text === 'string' && config.text.startsWith('INSERT INTO jobs');
    if (ran || !isJobInsert) return answer;
    ran = true;
    return (answer as Promise<pg.QueryResult>).then(async (result) => {
      await between();
      return result;
    });
  } as typeof query);
  return { ran: () => ran };
}

describeWithPostgres('jobs.enqueue while another instance completes the open job of its key', () => {
  const schemas = useTestSchemas();
  const stores: Store[] = [];

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  async function twoStores(): Promise<[Store, Store]> {
    const schema = schemas.fresh();
    const a = await schemas.open(schema, { clock: createManualClock(T0) });
    const b = await schemas.open(schema, { clock: createManualClock(T0) });
    stores.push(a, b);
    return [a, b];
  }

  const reconcile = (runAt: Date) => ({ kind: 'reconcile', key: 'reconcile', payload: {}, runAt });

  it('queues the job anew when the open one is completed between the insert and the read', async () => {
    const [a, b] = await twoStores();
    await a.jobs.enqueue(reconcile(T0));
    const running = await a.jobs.claim(T0, 60_000);
    expect(running?.key).toBe('reconcile');

    // B's insert is refused by A's running job; A completes it before B reads the open job.
    const interleaved = afterNextJobInsert(async () => {
      expect(await a.jobs.complete(running!)).toMatchObject({ state: 'done' });
    });
    const queued = await b.jobs.enqueue(reconcile(T0));
    expect(interleaved.ran()).toBe(true);

    expect(queued.created).toBe(true);
    expect(queued.job).toMatchObject({ key: 'reconcile', state: 'pending', attempts: 0 });
    expect(queued.job.id).not.toBe(running!.id);
    // A, scheduling the next poll after its run, finds B's job: one open job for the key.
    const next = await a.jobs.enqueue(reconcile(at(300_000)));
    expect(next).toMatchObject({ created: false, job: { id: queued.job.id } });
    const open = (await a.jobs.list({ kind: 'reconcile' })).items.filter((job) => job.state !== 'done');
    expect(open.map((job) => job.id)).toEqual([queued.job.id]);
  });

  it('answers the job queued meanwhile when another instance queued it before the read', async () => {
    const [a, b] = await twoStores();
    await a.jobs.enqueue(reconcile(T0));
    const running = await a.jobs.claim(T0, 60_000);

    // A completes its run and queues the next poll, both between B's refused insert and B's read.
    let following: Awaited<ReturnType<Store['jobs']['enqueue']>> | undefined;
    const interleaved = afterNextJobInsert(async () => {
      await a.jobs.complete(running!);
      following = await a.jobs.enqueue(reconcile(at(300_000)));
    });
    const queued = await b.jobs.enqueue(reconcile(T0));
    expect(interleaved.ran()).toBe(true);

    expect(following?.created).toBe(true);
    expect(queued).toMatchObject({ created: false, job: { id: following!.job.id, state: 'pending' } });
  });
});
