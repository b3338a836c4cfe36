/**
 * Confirmations in the shapes buyers require: `allDetail` with a ConfirmationItem per PO line for buyers
 * configured so, a change notice that lists its lines and names what it confirms, and a confirmID of its own
 * with a version on every ConfirmationRequest — all valid against Fulfill.dtd, over HTTP through the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeDtdValidators, requireDtdValidator } from '../../support/dtd-validation.ts';
import {
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
  buyersWith,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

/** The order config with buyer acme's `confirmations` set. */
function configWith(confirmations: 'accept' | 'allDetail') {
  const base = orderConfig();
  return { ...base, buyers: buyersWith(base.buyers, 'acme', { confirmations }) };
}

async function placeTwoLines(stack: OrderStack, orderID: string) {
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
  const lines = linesOf(cart).map((line, i) =>
    i === 0 ? { ...line, requestedDeliveryDate: '2026-12-01T12:00:00+01:00' } : line,
  );
  const payloadID = `${orderID}@ariba.example`;
  expect(await sendOrder(stack, { payloadID, orderID, lines })).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  return { cart, lines, payloadID, printOrderId: String(printOrderId) };
}

describe('how a placed order is confirmed', () => {
  it('an allDetail buyer gets a ConfirmationItem per PO line, with its unit and requested delivery date', async () => {
    const stack = await createOrderStack(configWith('allDetail'));
    const { lines, printOrderId } = await placeTwoLines(stack, 'PO-ALLDETAIL');
    const [first, second] = lines;
    expect(confirmationsReceived(stack)).toEqual([
      {
        type: 'allDetail',
        confirmID: printOrderId,
        version: '1',
        items: [
          {
            lineNumber: '1',
            quantity: first?.quantity,
            unit: 'EA',
            statuses: [
              { type: 'accept', quantity: first?.quantity, deliveryDate: '2026-12-01T11:00:00+00:00' },
            ],
          },
          {
            lineNumber: '2',
            quantity: second?.quantity,
            unit: 'EA',
            statuses: [{ type: 'accept', quantity: second?.quantity }],
          },
        ],
        dtd: { ok: true, messages: '' },
      },
    ]);
  });

  it('an accept buyer (the default) gets a header-only accept, still with confirmID and version', async () => {
    const stack = await createOrderStack(configWith('accept'));
    const { printOrderId } = await placeTwoLines(stack, 'PO-ACCEPT');
    expect(confirmationsReceived(stack)).toEqual([
      { type: 'accept', confirmID: printOrderId, version: '1', items: [], dtd: { ok: true, messages: '' } },
    ]);
  });
});

describe('a change order', () => {
  it('is answered with a detail that lists its lines as under review, a confirmation of its own with its own confirmID', async () => {
    const stack = await createOrderStack(configWith('allDetail'));
    const { lines, payloadID, printOrderId } = await placeTwoLines(stack, 'PO-CHANGE');
    const changed = lines.map((line) => ({ ...line, quantity: '1000' }));
    const answer = await sendOrder(stack, {
      payloadID: 'change@ariba.example',
      orderID: 'PO-CHANGE',
      type: 'update',
      orderVersion: '2',
      previousPayloadID: payloadID,
      lines: changed,
    });
    expect(answer).toMatchObject({ code: 200 });
    await drain(stack);
    const [placed, change] = confirmationsReceived(stack);
    expect(placed).toMatchObject({ type: 'allDetail', version: '1' });
    expect(change).toEqual({
      type: 'detail',
      confirmID: `${printOrderId}-2`,
      version: '1',
      items: [
        { lineNumber: '1', quantity: '1000', unit: 'EA', statuses: [{ type: 'unknown', quantity: '1000' }] },
        { lineNumber: '2', quantity: '1000', unit: 'EA', statuses: [{ type: 'unknown', quantity: '1000' }] },
      ],
      dtd: { ok: true, messages: '' },
    });
  });
});
