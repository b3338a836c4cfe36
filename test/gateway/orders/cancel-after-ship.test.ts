/**
 * A buyer's cancellation of an order already shipped and invoiced waits for an operator: the PO parked
 * with `cancel_after_ship`, the print order left as it is, no credit memo, the buyer told its lines are
 * under review (`unknown`, not `reject`); the operator cancels and credits, or refuses with a note, and the
 * buyer's confirmation is updated to say which.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { disposeDtdValidators, requireDtdValidator } from '../../support/dtd-validation.ts';
import {
  adminJson,
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  buyersWith,
} from '../../support/order-flow.ts';
import { signIn } from '../operator/console/console-support.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

function invoicedOnShip(): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    buyers: buyersWith(base.buyers, 'acme', { invoices: { send: 'on-ship' } }),
  };
}

const invoicePurposes = (stack: OrderStack) =>
  stack.orderStatusPosts
    .filter((post) => post.body.includes('<InvoiceDetailRequest'))
    .map((post) => /purpose="(\w+)"/.exec(post.body)?.[1]);

/** Placed, shipped and invoiced; then the buyer's OrderRequest delete arrives. */
async function cancelledAfterShipping(stack: OrderStack, orderID: string) {
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  const payloadID = `${orderID}@ariba.example`;
  await sendOrder(stack, { payloadID, orderID, lines: linesOf(cart) });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  if (printOrderId === undefined) throw new Error('not placed');
  await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
  await drain(stack);
  expect(invoicePurposes(stack)).toEqual(['standard']);
  expect(
    await sendOrder(stack, {
      payloadID: `${orderID}-delete@ariba.example`,
      orderID,
      type: 'delete',
      previousPayloadID: payloadID,
      lines: linesOf(cart),
    }),
  ).toMatchObject({ code: 200 });
  await drain(stack);
  stack.clock.advance(3600);
  await drain(stack);
  const po = await stack.store.orders.getByPayloadId('acme', payloadID);
  if (po === undefined) throw new Error('no PO');
  return { po, printOrderId, quantity: cart[0]?.quantity };
}

describe('a buyer cancels an order that has shipped and been invoiced', () => {
  it('waits for an operator: print order untouched, no credit memo, the buyer told its lines are under review', async () => {
    const stack = await createOrderStack(invoicedOnShip());
    const { po, printOrderId, quantity } = await cancelledAfterShipping(stack, 'PO-LATE-CANCEL');
    expect(po).toMatchObject({ state: 'needs_operator', flags: ['cancel_after_ship'] });
    expect(po.lastError).toBe(
      `The buyer cancelled purchase order PO-LATE-CANCEL (OrderRequest type delete, payloadID ` +
        `PO-LATE-CANCEL-delete@ariba.example) after print order ${printOrderId} has shipped; invoice ` +
        `${(await stack.store.invoices.listByPo(po.id))[0]?.invoiceId} was sent. Nothing was cancelled or ` +
        'credited: cancel and credit it, or refuse the cancellation with a note to the buyer.',
    );
    expect(
      await stack.store.orders.getByPayloadId('acme', 'PO-LATE-CANCEL-delete@ariba.example'),
    ).toMatchObject({
      state: 'needs_operator',
      flags: ['cancel_after_ship'],
    });
    expect((await stack.api.getOrder(printOrderId)).status).toBe('Order Shipped');
    expect(invoicePurposes(stack)).toEqual(['standard']);
    expect(confirmationsReceived(stack)).toEqual([
      {
        type: 'accept',
        confirmID: String(printOrderId),
        version: '1',
        items: [],
        dtd: { ok: true, messages: '' },
      },
      {
        type: 'detail',
        confirmID: `${printOrderId}-2`,
        version: '1',
        items: [
          {
            lineNumber: '1',
            quantity,
            unit: 'EA',
            statuses: [{ type: 'unknown', quantity, comments: 'Cancellation under review.' }],
          },
        ],
        dtd: { ok: true, messages: '' },
      },
    ]);
  });

  it('the operator cancels and credits: the print order cancelled, a credit memo, the lines rejected by an update', async () => {
    const stack = await createOrderStack(invoicedOnShip());
    const { po, printOrderId } = await cancelledAfterShipping(stack, 'PO-LATE-CANCEL-YES');
    const decided = await adminJson(stack, `/admin/orders/${po.id}/cancellation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ decision: 'cancel', note: 'Goods returned to us unopened.' }),
    });
    expect(decided.status).toBe(200);
    expect(decided.body.order).toMatchObject({ state: 'cancelled' });
    await drain(stack);
    expect((await stack.api.getOrder(printOrderId)).status).toBe('Cancelled');
    expect(invoicePurposes(stack)).toEqual(['standard', 'creditMemo']);
    expect(
      await stack.store.orders.getByPayloadId('acme', 'PO-LATE-CANCEL-YES-delete@ariba.example'),
    ).toMatchObject({
      state: 'cancelled',
      flags: [],
    });
    const [, review, answer] = confirmationsReceived(stack);
    expect(answer).toMatchObject({ type: 'detail', confirmID: review?.confirmID, version: '2' });
    expect(answer?.items[0]?.statuses).toEqual([
      {
        type: 'reject',
        quantity: review?.items[0]?.quantity,
        comments: "Cancelled at the buyer's request: Goods returned to us unopened.",
      },
    ]);
    const update = receivedDocuments(stack, 'ConfirmationRequest')[2]?.doc.Request.ConfirmationRequest
      .ConfirmationHeader;
    expect(update['@operation']).toBe('update');
    expect(update.DocumentReference['@payloadID']).toBe(
      receivedDocuments(stack, 'ConfirmationRequest')[1]?.doc['@payloadID'],
    );
    // The print order's cancel status is the buyer's, not the supplier's: no supplier flag, no reject.
    expect((await stack.store.orders.get(po.id))?.flags).toEqual([]);
    expect(confirmationsReceived(stack)).toHaveLength(3);
  });

  it('the operator refuses with a note: the order stands, the lines accepted again with the note, nothing credited', async () => {
    const stack = await createOrderStack(invoicedOnShip());
    const { po, printOrderId } = await cancelledAfterShipping(stack, 'PO-LATE-CANCEL-NO');
    const decided = await adminJson(stack, `/admin/orders/${po.id}/cancellation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        decision: 'refuse',
        note: 'Printed to your design; please return within 14 days.',
      }),
    });
    expect(decided.status).toBe(200);
    expect(decided.body.order).toMatchObject({ state: 'ordered' });
    await drain(stack);
    expect((await stack.api.getOrder(printOrderId)).status).toBe('Order Shipped');
    expect(invoicePurposes(stack)).toEqual(['standard']);
    const answer = confirmationsReceived(stack)[2];
    expect(answer).toMatchObject({ type: 'detail', version: '2' });
    expect(answer?.items[0]?.statuses[0]).toMatchObject({
      type: 'accept',
      comments: 'Cancellation refused: Printed to your design; please return within 14 days.',
    });
    // Decided once: a second decision is refused.
    const again = await adminJson(stack, `/admin/orders/${po.id}/cancellation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ decision: 'cancel', note: 'Changed my mind.' }),
    });
    expect(again).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: `Purchase order record ${po.id} has no cancellation waiting for a decision.`,
        },
      },
    });
  });

  it('the console offers both decisions on the PO page and carries out the one confirmed', async () => {
    const stack = await createOrderStack(invoicedOnShip());
    const { po } = await cancelledAfterShipping(stack, 'PO-LATE-CANCEL-CONSOLE');
    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${po.id}`)).text();
    expect(page).toContain('<button type="submit">Cancel and credit…</button>');
    expect(page).toContain('<button type="submit">Refuse the cancellation…</button>');
    const seen = /name="seen" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const res = await operator.post(`/admin/ui/orders/${po.id}/actions/refuse-cancellation`, {
      csrf: operator.csrf,
      seen,
      note: 'Made to order.',
      confirmed: 'yes',
    });
    expect(res.status).toBe(303);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'ordered',
      lastError: 'Cancellation refused by an operator: Made to order.',
    });
  });
});
