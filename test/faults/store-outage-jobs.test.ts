/**
 * The order worker while the store comes and goes, in process with a store whose calls can be made to fail:
 * an outcome the store could not take is written by the next round (not after the 60 s lease), and a job
 * that failed only because the store was away is tried again within seconds (not after the 30 s backoff).
 */
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/store-error.ts';
import {
  createOrderStack,
  linesOf,
  type OrderStack,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../support/order-flow.ts';

const outage = () => Promise.reject(new StoreError('unavailable', 'connection terminated'));

async function acceptedPo(stack: OrderStack, orderID: string) {
  const cart = await punchOut(stack, ['Business cards']);
  expect(await sendOrder(stack, { orderID, lines: linesOf(cart) })).toMatchObject({ code: 200 });
  const [po] = (await stack.store.orders.list()).items;
  return po?.id ?? '';
}

const processJob = async (stack: OrderStack) =>
  (await stack.store.jobs.list({ kind: 'process_order' })).items[0];

describe('order jobs while the store is away', () => {
  it('a job whose completion the store refused is recorded by the next round, the lease not waited out', async () => {
    const stack = await createOrderStack();
    const poId = await acceptedPo(stack, 'PO-UNRECORDED');
    const complete = stack.store.jobs.complete;
    stack.store.jobs.complete = outage;
    await stack.worker.tick();
    // The PO's job completes in the transaction of its outcome, so only the reconcile poll's is left over.
    expect(await processJob(stack)).toMatchObject({ state: 'done', attempts: 1 });
    expect(await stack.store.orders.get(poId)).toMatchObject({ state: 'ordered' });
    const [reconcile] = (await stack.store.jobs.list({ kind: 'reconcile' })).items;
    expect(reconcile).toMatchObject({ state: 'running', attempts: 1 });

    stack.store.jobs.complete = complete;
    await stack.sandbox.control.idle();
    await stack.worker.tick(); // the clock has not moved: the lease is still running
    expect(await stack.store.jobs.get(reconcile?.id ?? '')).toMatchObject({ state: 'done', attempts: 1 });
    expect(await printOrdersFor(stack, 'PO-UNRECORDED')).toHaveLength(1);
  });

  it('a job that failed on the store is due again after 5 seconds, then orders once', async () => {
    const stack = await createOrderStack();
    const poId = await acceptedPo(stack, 'PO-OUTAGE');
    const { update, patch } = stack.store.orders;
    stack.store.orders.update = outage;
    stack.store.orders.patch = outage;
    await stack.worker.tick();
    const failed = await processJob(stack);
    expect(failed).toMatchObject({ state: 'pending', attempts: 1, lastError: 'connection terminated' });
    expect((failed?.runAt.getTime() ?? 0) - stack.clock.now().getTime()).toBe(5_000);

    stack.store.orders.update = update;
    stack.store.orders.patch = patch;
    stack.clock.advance(5);
    await stack.worker.tick();
    await stack.sandbox.control.idle();
    await stack.worker.tick();
    expect(await stack.store.orders.get(poId)).toMatchObject({ state: 'ordered' });
    expect(await printOrdersFor(stack, 'PO-OUTAGE')).toHaveLength(1);
    const confirmations = receivedDocuments(stack, 'ConfirmationRequest');
    expect(confirmations.map((c) => c.doc.Request.ConfirmationRequest.ConfirmationHeader['@type'])).toEqual([
      'accept',
    ]);
  });
});
