/**
 * Issue 16, deliverable 3 (second half): a PO's quantities and prices that differ from the punch-out cart
 * follow the buyer's `poDeviations` — `confirm` (the default: the PO's terms are accepted and the buyer gets
 * a `detail` confirmation naming each deviating line), `reject` (refused at intake with a 409 Status naming
 * the lines, before anything is stored or printed) or `accept` (a plain accept, the lines flagged for the
 * operator). Over HTTP: a punch-out through the sandbox editor, the PO posted to the gateway, the buyer's
 * documents read where the buyer received them and checked against Fulfill.dtd.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeDtdValidators, requireDtdValidator } from '../../support/dtd-validation.ts';
import {
  adminJson,
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  type OrderLineIn,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  type XmlTree,
  buyersWith,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

type Policy = 'confirm' | 'reject' | 'accept';

/** The order config with buyer acme's `poDeviations` (left out: the default) and `confirmations` set. */
function configWith(settings: { poDeviations?: Policy; confirmations?: 'accept' | 'allDetail' }) {
  const base = orderConfig();
  return { ...base, buyers: buyersWith(base.buyers, 'acme', settings) };
}

/**
 * A cart of business cards (100 at 0.12 USD) and an A5 flyer, and a PO that orders the cards as 250 at
 * 0.10 USD (quantity and price deviate) and the flyer in double its cart quantity (quantity deviates).
 */
async function deviatingOrder(stack: OrderStack): Promise<{ cart: OrderLineIn[]; po: OrderLineIn[] }> {
  await stack.worker.startup();
  const cart = linesOf(await punchOut(stack, ['Business cards', 'A5 flyer']));
  const [cards, flyer] = cart;
  if (cards === undefined || flyer === undefined) throw new Error('the punch-out returned no lines');
  expect(cards).toMatchObject({ quantity: '100', unitPrice: '0.12' });
  const po = [
    { ...cards, quantity: '250', unitPrice: '0.10' },
    { ...flyer, quantity: String(Number(flyer.quantity) * 2) },
  ];
  return { cart, po };
}

async function flagsOf(stack: OrderStack, orderID: string): Promise<string[]> {
  const { body } = await adminJson(stack, '/admin/orders');
  return body.items.find((item: XmlTree) => item.orderId === orderID)?.flags;
}

describe('poDeviations: confirm (the default)', () => {
  it('places the order and confirms the PO’s terms as a detail naming each deviating line', async () => {
    const stack = await createOrderStack(configWith({}));
    const { po } = await deviatingOrder(stack);
    expect(await sendOrder(stack, { orderID: 'PO-DEV-C', lines: po })).toEqual({
      code: 200,
      text: 'OK',
      detail: '',
    });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-DEV-C');
    expect(printOrderId).toBeDefined();
    const flyerQuantity = po[1]?.quantity;
    expect(confirmationsReceived(stack)).toEqual([
      {
        type: 'detail',
        confirmID: String(printOrderId),
        version: '1',
        items: [
          {
            lineNumber: '1',
            quantity: '250',
            unit: 'EA',
            statuses: [{ type: 'detail', quantity: '250', unitPrice: '0.10 USD' }],
          },
          {
            lineNumber: '2',
            quantity: flyerQuantity,
            unit: 'EA',
            statuses: [{ type: 'detail', quantity: flyerQuantity }],
          },
        ],
        dtd: { ok: true, messages: '' },
      },
    ]);
    const doc = receivedDocuments(stack, 'ConfirmationRequest')[0]?.doc;
    expect(doc?.Request.ConfirmationRequest.ConfirmationHeader.Comments['#text']).toBe(
      `Accepted as print order ${printOrderId}. The quantities or prices of lines 1, 2 differ from the cart; they are confirmed as this order states them.`,
    );
    // The operator still sees what differed.
    expect(await flagsOf(stack, 'PO-DEV-C')).toEqual(['quantity_mismatch', 'price_mismatch']);
  });

  it('an allDetail buyer gets every line: deviating ones as detail with the PO’s price, the rest accept', async () => {
    const stack = await createOrderStack(configWith({ confirmations: 'allDetail' }));
    const { cart, po } = await deviatingOrder(stack);
    const lines = [po[0] as OrderLineIn, cart[1] as OrderLineIn];
    expect(await sendOrder(stack, { orderID: 'PO-DEV-AD', lines })).toMatchObject({ code: 200 });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-DEV-AD');
    const flyerQuantity = cart[1]?.quantity;
    expect(confirmationsReceived(stack)).toEqual([
      {
        type: 'allDetail',
        confirmID: String(printOrderId),
        version: '1',
        items: [
          {
            lineNumber: '1',
            quantity: '250',
            unit: 'EA',
            statuses: [{ type: 'detail', quantity: '250', unitPrice: '0.10 USD' }],
          },
          {
            lineNumber: '2',
            quantity: flyerQuantity,
            unit: 'EA',
            statuses: [{ type: 'accept', quantity: flyerQuantity }],
          },
        ],
        dtd: { ok: true, messages: '' },
      },
    ]);
  });

  it('a PO that matches its cart is still a plain accept', async () => {
    const stack = await createOrderStack(configWith({}));
    const { cart } = await deviatingOrder(stack);
    expect(await sendOrder(stack, { orderID: 'PO-DEV-SAME', lines: cart })).toMatchObject({ code: 200 });
    await drain(stack);
    expect(confirmationsReceived(stack)).toMatchObject([{ type: 'accept', items: [], dtd: { ok: true } }]);
  });
});

describe('poDeviations: reject', () => {
  it('refuses the PO at intake with a 409 naming every deviating line; nothing is stored or printed', async () => {
    const stack = await createOrderStack(configWith({ poDeviations: 'reject' }));
    const { cart, po } = await deviatingOrder(stack);
    const [cards, flyer] = cart;
    const answer = await sendOrder(stack, { orderID: 'PO-DEV-R', lines: po });
    expect(answer).toEqual({
      code: 409,
      text: 'Conflict',
      detail:
        `Line 1 (SupplierPartAuxiliaryID ${cards?.lineRef}): quantity 250 differs from the cart's 100; ` +
        `Line 1 (SupplierPartAuxiliaryID ${cards?.lineRef}): unit price 0.10 USD differs from the cart's 0.12 USD; ` +
        `Line 2 (SupplierPartAuxiliaryID ${flyer?.lineRef}): quantity ${po[1]?.quantity} differs from the cart's ${flyer?.quantity}. ` +
        "Send the order with the cart's quantities and prices.",
    });
    expect((await stack.store.orders.list()).items).toEqual([]);
    for (const line of cart) {
      expect(await stack.store.cart.get(line.lineRef ?? '')).toMatchObject({ state: 'cart' });
    }
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-DEV-R')).toEqual([]);
    expect(stack.upstreamCalls).not.toContain('POST /api/v2/pipo/order/create');
    expect(confirmationsReceived(stack)).toEqual([]);

    // The corrected PO, on the cart's terms, goes through.
    expect(await sendOrder(stack, { orderID: 'PO-DEV-R', lines: cart })).toMatchObject({ code: 200 });
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-DEV-R')).toHaveLength(1);
    expect(confirmationsReceived(stack)).toMatchObject([{ type: 'accept', dtd: { ok: true } }]);
  });
});

describe('poDeviations: accept', () => {
  it('accepts the PO as before: a header-only accept, the deviations flagged for the operator', async () => {
    const stack = await createOrderStack(configWith({ poDeviations: 'accept' }));
    const { po } = await deviatingOrder(stack);
    expect(await sendOrder(stack, { orderID: 'PO-DEV-A', lines: po })).toMatchObject({ code: 200 });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-DEV-A');
    expect(confirmationsReceived(stack)).toEqual([
      {
        type: 'accept',
        confirmID: String(printOrderId),
        version: '1',
        items: [],
        dtd: { ok: true, messages: '' },
      },
    ]);
    expect(await flagsOf(stack, 'PO-DEV-A')).toEqual(['quantity_mismatch', 'price_mismatch']);
  });
});
