/**
 * A `new` OrderRequest under the orderID of a stored PO, with another payloadID: a copy (same lines and
 * ship-to, as a buyer's system resends a PO) gets the stored answer; another order reusing the number is
 * refused naming the stored PO, and the refusal is kept where operators see it — nothing else is stored.
 */
import { describe, expect, it } from 'vitest';
import { differenceFromStored } from '../../../src/gateway/orders/intake.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderRequest,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { statusOf } from '../../support/punchout-flow.ts';
import { signIn } from '../operator/console/console-support.ts';

/** A stored, placed PO-REUSE of one business-card design, and its record. */
async function storedPo(stack: OrderStack) {
  const cart = await punchOut(stack, ['Business cards']);
  expect(
    await sendOrder(stack, {
      payloadID: 'po-first@ariba.example',
      orderID: 'PO-REUSE',
      lines: linesOf(cart),
    }),
  ).toEqual({ code: 200, text: 'OK', detail: '' });
  await drain(stack);
  const stored = await stack.store.orders.getByPayloadId('acme', 'po-first@ariba.example');
  if (stored === undefined) throw new Error('the first PO was not stored');
  return { cart, stored };
}

describe('a new PO reusing a stored orderID', () => {
  it('with other lines: 409 naming the orderID, the stored PO’s payloadID and date and type="update"; only the refusal is kept', async () => {
    const stack = await createOrderStack();
    const { stored } = await storedPo(stack);
    const other = await punchOut(stack, ['A5 flyer']);
    const answer = await sendOrder(stack, {
      payloadID: 'po-second@ariba.example',
      orderID: 'PO-REUSE',
      lines: linesOf(other),
    });
    const reason =
      `orderID PO-REUSE is already the purchase order with payloadID po-first@ariba.example of ` +
      `${stored.createdAt.toISOString()}, and this document (payloadID po-second@ariba.example) differs ` +
      `from it: line 1 has SupplierPartID FLY-A5, the stored PO BC-STD. A change to an order is sent as ` +
      'type="update"; a new order needs its own orderID.';
    expect(answer).toEqual({ code: 409, text: 'Conflict', detail: reason });

    // Nothing of the second document is stored: one PO, its cart line still open, no second print order.
    expect((await stack.store.orders.list()).items.map((o) => o.payloadId)).toEqual([
      'po-first@ariba.example',
    ]);
    expect(await stack.store.cart.get(other[0]?.lineRef ?? '')).toMatchObject({ state: 'cart' });
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-REUSE')).toHaveLength(1);

    // The operator sees the refusal: in the admin API and on the buyer's console page.
    const listed = await adminJson(stack, '/admin/refusals?buyer=acme');
    expect(listed).toEqual({
      status: 200,
      body: {
        items: [
          {
            id: expect.any(String),
            buyerId: 'acme',
            channel: 'cxml',
            documentType: 'OrderRequest',
            payloadId: 'po-second@ariba.example',
            clientAddress: expect.any(String),
            status: 409,
            answer: `Conflict: ${reason}`,
            document: expect.stringContaining('orderID="PO-REUSE"'),
            documentBytes: expect.any(Number),
            createdAt: expect.any(String),
          },
        ],
        nextCursor: null,
      },
    });
    const operator = await signIn(stack);
    const page = await (await operator.get('/admin/ui/buyers')).text();
    expect(page).toContain('po-second@ariba.example');
    expect(page).toContain('A change to an order is sent as type=&quot;update&quot;');

    // The same refused document sent again is refused again, and recorded again.
    const again = statusOf(
      await stack.postCxml(
        orderRequest({ payloadID: 'po-second@ariba.example', orderID: 'PO-REUSE', lines: linesOf(other) }),
      ),
    );
    expect(again.code).toBe(409);
    expect((await stack.store.refusals.list()).items).toHaveLength(2);
  });

  it('with another ship-to: refused the same way, naming the ShipTo', async () => {
    const stack = await createOrderStack();
    const { cart } = await storedPo(stack);
    const document = orderRequest({
      payloadID: 'po-moved@ariba.example',
      orderID: 'PO-REUSE',
      lines: linesOf(cart),
    }).replace('<Street>1 Dock Road</Street>', '<Street>9 Harbour Way</Street>');
    const answer = statusOf(await stack.postCxml(document));
    expect(answer.code).toBe(409);
    expect(answer.detail).toContain('differs from it: its ShipTo differs.');
  });

  it('with the same lines and ship-to: a copy, answered as the stored PO was, nothing new stored or recorded', async () => {
    const stack = await createOrderStack();
    const { cart } = await storedPo(stack);
    const copy = linesOf(cart).map((line) => ({ ...line, quantity: `${line.quantity}.0` }));
    expect(
      await sendOrder(stack, { payloadID: 'po-resent@ariba.example', orderID: 'PO-REUSE', lines: copy }),
    ).toEqual({ code: 200, text: 'OK', detail: '' });
    expect((await stack.store.orders.list()).items).toHaveLength(1);
    expect((await stack.store.refusals.list()).items).toEqual([]);
  });
});

describe('differenceFromStored', () => {
  const item = {
    lineNumber: 1,
    supplierPartID: 'BC-STD',
    supplierPartAuxiliaryID: 'L-1',
    quantity: '100',
    unitPrice: { value: '0.12', currency: 'USD' },
  };
  const po = (items: (typeof item)[]) => ({ items });

  it.each([
    [
      'the same values written otherwise',
      { quantity: '100.00', unitPrice: { value: '0.120', currency: 'USD' } },
      undefined,
    ],
    [
      'another line reference',
      { supplierPartAuxiliaryID: 'L-2' },
      'line 1 has SupplierPartAuxiliaryID L-2, the stored PO L-1',
    ],
    ['another quantity', { quantity: '200' }, 'line 1 has quantity 200, the stored PO 100'],
    [
      'another currency',
      { unitPrice: { value: '0.12', currency: 'EUR' } },
      'line 1 has unit price 0.12 EUR, the stored PO 0.12 USD',
    ],
  ])('%s', (_case, change, expected) => {
    expect(differenceFromStored(po([{ ...item, ...change }]), po([item]))).toBe(expected);
  });

  it('another number of lines', () => {
    expect(differenceFromStored(po([item, { ...item, lineNumber: 2 }]), po([item]))).toBe(
      'it has 2 lines, the stored PO 1',
    );
  });
});
