/**
 * What a round of the order worker asks the store when there is nothing to do, counted through a store
 * that records every call: the due jobs and documents every round, the looks for lost work (the
 * reconciliation poll's job, POs whose job is gone or whose worker died) once per SWEEP_INTERVAL_MS.
 */
import { describe, expect, it } from 'vitest';
import { SWEEP_INTERVAL_MS } from '../../../src/gateway/orders/worker.ts';
import { createOrderStack, restartWorker } from '../../support/order-flow.ts';
import { countingStore } from '../../support/store-calls.ts';

const SWEEP = ['jobs.enqueue', 'orders.listIdsWithoutLiveJob', 'orders.list'];

describe('an idle round of the order worker', () => {
  it('claims and posts every round, and looks for lost work once per sweep interval', async () => {
    const stack = await createOrderStack();
    const { store, counted } = countingStore(stack.store);
    await stack.restartGateway(store);
    restartWorker(stack);

    await stack.worker.tick();
    expect(counted.calls).toEqual(expect.arrayContaining(SWEEP));

    // Rounds until the interval has passed: the due work only, and nothing written but the claims.
    for (const seconds of [0, 5, SWEEP_INTERVAL_MS / 1000 - 6]) {
      stack.clock.advance(seconds);
      counted.reset();
      await stack.worker.tick();
      expect(counted.calls).toEqual([
        'events.listUnprocessed',
        'jobs.claim',
        'jobs.claim',
        'outbox.claimDue',
      ]);
    }

    stack.clock.advance(1);
    counted.reset();
    await stack.worker.tick();
    expect(counted.calls.slice(0, SWEEP.length)).toEqual(SWEEP);
  });

  it('looks again next round when a sweep failed', async () => {
    const stack = await createOrderStack();
    let failing = true;
    const listIds = stack.store.orders.listIdsWithoutLiveJob.bind(stack.store.orders);
    stack.store.orders.listIdsWithoutLiveJob = (...args) =>
      failing ? Promise.reject(new Error('the store is away')) : listIds(...args);
    const { store, counted } = countingStore(stack.store);
    await stack.restartGateway(store);
    restartWorker(stack);

    await expect(stack.worker.tick()).rejects.toThrow('the store is away');
    failing = false;
    counted.reset();
    await stack.worker.tick();
    expect(counted.calls.slice(0, SWEEP.length)).toEqual(SWEEP);
  });
});
