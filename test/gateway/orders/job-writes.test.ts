/**
 * The order job's writes per purchase order, counted through a store that records every call: each write
 * is a transaction, a commit and (on SQLite and PostgreSQL) an fsync, so a step added to the hot path shows
 * up here as a failing count. A PO of one print order takes three: the worker's claim, the move to
 * `processing` with the create marker (which must be stored before the create call), and one
 * `orders.commit` with the print order, the confirmation, the PO `ordered` and the job completed. Intake
 * stores the PO in one; a round does not write again for a PO whose job is waiting.
 */
import { describe, expect, it } from 'vitest';
import type { PurchaseOrder } from '../../../src/store/types.ts';
import {
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  punchOut,
  restartWorker,
  sendOrder,
} from '../../support/order-flow.ts';
import { countingStore, type StoreCalls } from '../../support/store-calls.ts';

/** The calls of the PO's job: from the worker's first claim to the job's last write. */
function jobCalls(counted: StoreCalls): string[] {
  const from = counted.calls.indexOf('jobs.claim');
  const to = counted.calls.lastIndexOf('orders.commit');
  return counted.calls.slice(from, to + 1);
}

async function storedPo(store: { orders: { list(): Promise<{ items: PurchaseOrder[] }> } }) {
  const po = (await store.orders.list()).items[0];
  if (po === undefined) throw new Error('no PO stored');
  return po;
}

describe('the order job writes', () => {
  it('a 5-line PO of one print order in three transactions, reading the PO once', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, [
      'Business cards',
      'A5 flyer',
      'Business cards',
      'A5 flyer',
      'A5 flyer',
    ]);
    const { store, counted } = countingStore(stack.store);
    await stack.restartGateway(store);
    restartWorker(stack);

    expect(await sendOrder(stack, { orderID: 'PO-WRITES', lines: linesOf(cart) })).toMatchObject({
      code: 200,
    });
    expect(counted.writes()).toEqual(['orders.acceptWithLines']);

    counted.reset();
    await stack.worker.tick();
    const job = jobCalls(counted);
    expect(job.filter((call) => counted.writes().includes(call))).toEqual([
      'jobs.claim',
      'orders.patch',
      'orders.commit',
    ]);
    expect(job.filter((call) => call === 'orders.get')).toHaveLength(1);
    // The round queues the reconcile poll (before it runs and after), never the waiting PO's job again.
    expect(counted.writes().filter((call) => call === 'jobs.enqueue')).toHaveLength(2);

    // What the three wrote: the PO ordered with its print order, tracked and confirmed, the accept sent.
    await drain(stack);
    const po = await storedPo(stack.store);
    expect(po).toMatchObject({ state: 'ordered', createAttempts: [] });
    expect(po.printOrderIds).toHaveLength(1);
    const printOrderId = po.printOrderIds[0] ?? 0;
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      poId: po.id,
      state: 'open',
      confirmed: true,
    });
    expect((await stack.store.printOrders.get('demo', printOrderId))?.lastStatus).toBeDefined();
    expect(confirmationsReceived(stack).map((c) => [c.type, c.confirmID])).toEqual([
      ['accept', String(printOrderId)],
    ]);
    const jobs = await stack.store.jobs.list({ kind: 'process_order' });
    expect(jobs.items.map((j) => j.state)).toEqual(['done']);
  });

  it('one write more per further print order: the one before recorded with the next create marker', async () => {
    const stack = await createOrderStack();
    const jane = await punchOut(stack, ['Business cards'], {
      uniqueName: 'jroe',
      userEmail: 'jane@acme.example',
    });
    const max = await punchOut(stack, ['A5 flyer'], { uniqueName: 'mmax', userEmail: 'max@acme.example' });
    const { store, counted } = countingStore(stack.store);
    await stack.restartGateway(store);
    restartWorker(stack);
    expect(await sendOrder(stack, { orderID: 'PO-2W', lines: linesOf([...jane, ...max]) })).toMatchObject({
      code: 200,
    });

    counted.reset();
    await stack.worker.tick();
    expect(jobCalls(counted).filter((call) => counted.writes().includes(call))).toEqual([
      'jobs.claim',
      'orders.patch',
      'orders.commit',
      'orders.commit',
    ]);
    const po = await storedPo(stack.store);
    expect(po).toMatchObject({ state: 'ordered', createAttempts: [] });
    expect(po.printOrderIds).toHaveLength(2);
  });
});
