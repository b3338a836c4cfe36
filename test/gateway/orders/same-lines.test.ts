/**
 * Purchase orders naming the same cart lines, sent at once: a buyer's system re-sending a PO under a new
 * number, a requisition split into POs over one cart. Each is an order of its own and is accepted; the
 * cart lines stay ordered, by the last of them. They reach the gateway from one address, through the
 * `/cxml` admission gate, as a buyer's system with a pool of eight connections sends them: none may be
 * turned away as "too many documents at once" because the others name its lines.
 */
import { expect, it } from 'vitest';
import { CXML_ADMISSION } from '../../../src/gateway/cxml/admission.ts';
import { createOrderStack, linesOf, orderConfig, orderRequest, punchOut } from '../../support/order-flow.ts';
import { statusOf } from '../../support/punchout-flow.ts';

const ORDERS = 40;

it('accepts 40 POs naming the same cart lines from one buyer address, 8 at a time, each once', async () => {
  const stack = await createOrderStack(orderConfig(), {
    gatewayDeps: { clientAddress: () => '198.51.100.7' },
  });
  const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
  const lines = linesOf(cart);
  const documents = Array.from({ length: ORDERS }, (_, i) =>
    orderRequest({
      payloadID: `same-lines-${i}@ariba.example`,
      orderID: `PO-SAME-${i}`,
      // Half name the lines in the other order.
      lines: i % 2 === 0 ? lines : [...lines].reverse(),
    }),
  );
  const answers: ReturnType<typeof statusOf>[] = [];
  let next = 0;
  const sender = async () => {
    while (next < documents.length) answers.push(statusOf(await stack.postCxml(documents[next++]!)));
  };
  await Promise.all(Array.from({ length: CXML_ADMISSION.perAddress }, sender));

  expect(answers).toEqual(Array(ORDERS).fill({ code: 200, text: 'OK', detail: '' }));
  const stored = (await stack.store.orders.list({ limit: 100 })).items;
  expect(stored.map((po) => po.orderId).sort()).toEqual(documents.map((_, i) => `PO-SAME-${i}`).sort());
  const marked = await stack.store.cart.getMany(cart.map((line) => line.lineRef));
  expect(marked.map((line) => line.state)).toEqual(['ordered', 'ordered']);
  expect(stored.map((po) => po.id)).toContain(marked[0]?.poId);
  expect(marked[1]?.poId).toBe(marked[0]?.poId);
  // The order that came first is the one no earlier PO ordered the lines for; the others say so.
  const unflagged = stored.filter((po) => !po.flags.includes('line_already_ordered'));
  expect(unflagged.length).toBeGreaterThanOrEqual(1);
  expect(unflagged.length).toBeLessThan(ORDERS);
});
