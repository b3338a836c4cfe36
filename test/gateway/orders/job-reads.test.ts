/**
 * How often the order job reads the PO row: for a 5,000-line PO a read costs tens of ms, so the job reads
 * the record once up front. A counting store counts the reads and the updates (a patch reads nothing back);
 * the document the intake wrote is not checked again (po-document.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { processPurchaseOrder } from '../../../src/gateway/orders/process-order.ts';
import type { Store } from '../../../src/store/port.ts';
import type { PurchaseOrder } from '../../../src/store/types.ts';
import {
  createOrderStack,
  linesOf,
  printOrdersFor,
  punchOut,
  restartWorker,
  sendOrder,
} from '../../support/order-flow.ts';

interface Counts {
  /** Whole PO records handed back by get, getByPayloadId, getByOrderId and list. */
  reads: number;
  /** Whole PO records handed back by update. */
  updates: number;
  /** Patches, which hand nothing back. */
  patches: number;
}

function countingStore(store: Store, counts: Counts): Store {
  const counted = (order: PurchaseOrder): PurchaseOrder => order;
  const read = async (found: Promise<PurchaseOrder | undefined>) => {
    const order = await found;
    if (order === undefined) return undefined;
    counts.reads++;
    return counted(order);
  };
  const { orders } = store;
  return {
    ...store,
    orders: {
      ...orders,
      get: (id) => read(orders.get(id)),
      getByPayloadId: (buyerId, payloadId) => read(orders.getByPayloadId(buyerId, payloadId)),
      getByOrderId: (buyerId, orderId) => read(orders.getByOrderId(buyerId, orderId)),
      async list(filter) {
        const page = await orders.list(filter);
        counts.reads += page.items.length;
        return { ...page, items: page.items.map(counted) };
      },
      async update(id, patch, options) {
        const order = await orders.update(id, patch, options);
        if (order === undefined) return undefined;
        counts.updates++;
        return counted(order);
      },
      async patch(id, patch, options) {
        counts.patches++;
        return orders.patch(id, patch, options);
      },
    },
  };
}

describe('the order job of a new PO', () => {
  it('reads the record once', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
    const answer = await sendOrder(stack, {
      payloadID: 'po-reads@ariba.example',
      orderID: 'PO-READS',
      lines: linesOf(cart),
    });
    expect(answer.code).toBe(200);
    const stored = await stack.store.orders.getByPayloadId('acme', 'po-reads@ariba.example');
    if (stored === undefined) throw new Error('PO not stored');

    const counts: Counts = { reads: 0, updates: 0, patches: 0 };
    await stack.restartGateway(countingStore(stack.store, counts));
    restartWorker(stack);
    await processPurchaseOrder(stack.gateway.context, stored.id);

    expect(await printOrdersFor(stack, 'PO-READS')).toHaveLength(1);
    // The first read only: while the PO is `processing` its print order ids and create attempts are the
    // job's alone, so the job writes them from what it holds. Before: 4 reads, 4 updates each answering
    // the whole record, and 5 parses (every step read the record again and parsed what it needed).
    expect(counts.reads).toBe(1);
    // processing with the create's marker: a patch, nothing read back; the rest is one orders.commit.
    expect(counts.updates).toBe(0);
    expect(counts.patches).toBe(1);
  });
});
