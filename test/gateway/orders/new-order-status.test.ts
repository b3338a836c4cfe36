/**
 * Per storefront `newOrderStatus` (issue 16): a new print order gets the storefront's review status with its
 * PO note, so it lands in the shop's review queue; without the setting it keeps the status the service
 * gave it. The buyer hears only the accept.
 */
import { describe, expect, it } from 'vitest';
import {
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../../support/order-flow.ts';

async function placedPrintOrder(newOrderStatus?: string) {
  const base = orderConfig();
  const stack = await createOrderStack({
    ...base,
    storefronts: base.storefronts.map((s) => ({
      ...s,
      ...(newOrderStatus !== undefined && { newOrderStatus }),
    })),
  });
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  expect(await sendOrder(stack, { orderID: 'PO-REVIEW', lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, 'PO-REVIEW');
  return { stack, printOrderId: printOrderId ?? 0 };
}

describe('the status of a new print order', () => {
  it("is the storefront's newOrderStatus, set with the PO note", async () => {
    const { stack, printOrderId } = await placedPrintOrder('In Production');
    expect((await stack.api.getOrder(printOrderId)).status).toBe('In Production');
    const note = stack.sandbox.control
      .orderHistory(printOrderId)
      .history.find((h) => h.comments?.includes('PO-REVIEW'));
    expect(note?.status).toBe('In Production');
    await drain(stack);
    const types = receivedDocuments(stack, 'ConfirmationRequest').map(
      ({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'],
    );
    expect(types).toEqual(['accept']);
  });

  it('stays what the print service gave it without the setting', async () => {
    const { stack, printOrderId } = await placedPrintOrder();
    expect((await stack.api.getOrder(printOrderId)).status).toBe('New Order');
  });
});
