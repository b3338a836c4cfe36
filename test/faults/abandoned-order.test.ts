import { describe, expect, it } from 'vitest';
import { SWEEP_INTERVAL_MS } from '../../src/gateway/orders/worker.ts';
import type { PurchaseOrderPatch } from '../../src/store/types.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  punchOut,
  sendOrder,
} from '../support/order-flow.ts';

/**
 * A PO sent to a gateway whose jobs get one attempt, and a worker that claimed its job, marked the PO
 * processing with `marks` (its flags and create attempts), and was killed (SIGKILL): nothing more happens
 * until `restartAfterLease`.
 */
async function poOfKilledWorker(orderID: string, marks: PurchaseOrderPatch = {}) {
  const base = orderConfig();
  const stack = await createOrderStack(orderConfig({ orders: { ...base.orders, maxAttempts: 1 } }));
  const cart = await punchOut(stack, ['Business cards']);
  const answer = await sendOrder(stack, { orderID, lines: linesOf(cart) });
  const [po] = (await stack.store.orders.list()).items;
  const claimed = await stack.store.jobs.claim(stack.clock.now(), 60_000, ['process_order']);
  await stack.store.orders.update(po?.id ?? '', { state: 'processing', ...marks });
  return { stack, poId: po?.id ?? '', answer, claimed };
}

/**
 * A restarted worker's rounds, once the killed worker's lease has run out: the first declares the job dead
 * (its lease ran out on the last attempt), and the rounds look for POs left so once per sweep interval.
 */
async function restartAfterLease(stack: OrderStack): Promise<void> {
  stack.clock.advance(10 * 60);
  await drain(stack);
  stack.clock.advance(SWEEP_INTERVAL_MS / 1000);
  await drain(stack);
}

describe('a PO whose job died with the process on its last attempt', () => {
  it('is handed to an operator instead of staying in processing forever', async () => {
    const { stack, poId, answer, claimed } = await poOfKilledWorker('PO-ABANDONED');
    expect(answer).toMatchObject({ code: 200 });
    expect(claimed).toMatchObject({ attempts: 1, maxAttempts: 1 });
    // The restarted worker finds the lease expired on the last attempt.
    await restartAfterLease(stack);
    const job = (await stack.store.jobs.list({ kind: 'process_order' })).items[0];
    expect(job).toMatchObject({ state: 'dead', lastError: 'lease expired on attempt 1' });
    const settled = await stack.store.orders.get(poId);
    expect(settled).toMatchObject({
      state: 'needs_operator',
      lastError:
        'Processing stopped in the middle of its last attempt (lease expired on attempt 1): look for an order with external id PO-ABANDONED before retrying.',
    });
    expect(stack.upstreamCalls).not.toContain('POST /api/v2/pipo/order/create');
  });

  it('gets its job back once when its create may have been cut off, and the search settles it', async () => {
    // Killed right after marking the create (the sandbox's newest order is 1020): the create never left.
    const { stack, poId } = await poOfKilledWorker('PO-CRASHED', {
      createAttempts: [{ index: 0, after: 1020, searches: 0 }],
    });
    await restartAfterLease(stack);

    expect(await stack.store.orders.get(poId)).toMatchObject({
      state: 'ordered',
      flags: ['resumed_after_crash'],
      createAttempts: [],
    });
    expect(stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create')).toHaveLength(1);
    expect((await stack.store.jobs.list({ kind: 'process_order' })).items[0]).toMatchObject({
      state: 'done',
    });
  });

  it('goes to an operator when the resumed job dies too', async () => {
    const { stack, poId } = await poOfKilledWorker('PO-CRASHED-TWICE', {
      createAttempts: [{ index: 0, after: 1020, searches: 0 }],
      flags: ['resumed_after_crash'],
    });
    await restartAfterLease(stack);

    expect(await stack.store.orders.get(poId)).toMatchObject({ state: 'needs_operator' });
    expect(stack.upstreamCalls).not.toContain('POST /api/v2/pipo/order/create');
  });
});

/** As `poOfKilledWorker`, but killed before the job moved the PO on: it is still `received`. */
async function poKilledBeforeStart(orderID: string, flags: string[] = []) {
  const base = orderConfig();
  const stack = await createOrderStack(orderConfig({ orders: { ...base.orders, maxAttempts: 1 } }));
  const cart = await punchOut(stack, ['Business cards']);
  await sendOrder(stack, { orderID, lines: linesOf(cart) });
  const [po] = (await stack.store.orders.list()).items;
  if (flags.length > 0) await stack.store.orders.update(po?.id ?? '', { flags });
  await stack.store.jobs.claim(stack.clock.now(), 60_000, ['process_order']);
  return { stack, poId: po?.id ?? '' };
}

describe('a PO whose job died with the process before the job moved it on', () => {
  it('gets its job back once and is placed: nothing had been sent for it', async () => {
    const { stack, poId } = await poKilledBeforeStart('PO-KILLED-EARLY');
    await restartAfterLease(stack);

    expect(await stack.store.orders.get(poId)).toMatchObject({
      state: 'ordered',
      flags: ['resumed_after_crash'],
    });
    expect(stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create')).toHaveLength(1);
  });

  it('goes to an operator, who may simply retry, when it dies there a second time', async () => {
    const { stack, poId } = await poKilledBeforeStart('PO-KILLED-EARLY-TWICE', ['resumed_after_crash']);
    await restartAfterLease(stack);

    const parked = await stack.store.orders.get(poId);
    expect(parked).toMatchObject({
      state: 'needs_operator',
      flags: ['resumed_after_crash'],
      lastError:
        'Processing never got past its start (lease expired on attempt 1); no print order was created for it, so a retry places it.',
    });
    expect(stack.upstreamCalls).not.toContain('POST /api/v2/pipo/order/create');
  });
});
