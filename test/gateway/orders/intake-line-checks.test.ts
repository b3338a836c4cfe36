/**
 * Issue 16, deliverable 3 (first half): PO lines whose quantity, price or currency cannot be ordered are
 * refused at intake with a 400 Status naming each faulty line and its problem, before anything is stored
 * and before any print order; the currency is judged on the lines' UnitPrice, never on the header Total.
 * Everything over HTTP: a punch-out through the sandbox editor, then the PO posted to the gateway.
 */
import { describe, expect, it } from 'vitest';
import {
  createOrderStack,
  drain,
  linesOf,
  type OrderLineIn,
  type OrderStack,
  orderRequest,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { statusOf } from '../../support/punchout-flow.ts';

/** The PO lines a punch-out of `products` returns, one per product, as the buyer's PO repeats them. */
async function cartOf(stack: OrderStack, products: readonly string[]): Promise<OrderLineIn[]> {
  const lines = linesOf(await punchOut(stack, products));
  expect(lines).toHaveLength(products.length);
  return lines;
}

const lineAt = (lines: readonly OrderLineIn[], index: number): OrderLineIn => {
  const line = lines[index];
  if (line === undefined) throw new Error(`no line ${index + 1}`);
  return line;
};

const createCalls = (stack: OrderStack) =>
  stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;

/** Nothing of the PO is kept or done: no stored order, no cart line ordered, no job, no print order. */
async function expectNothingOrdered(stack: OrderStack, orderID: string, lineRefs: readonly string[]) {
  expect((await stack.store.orders.list()).items).toEqual([]);
  for (const lineRef of lineRefs) {
    expect(await stack.store.cart.get(lineRef)).toMatchObject({ state: 'cart' });
  }
  const jobs = (await stack.store.jobs.list()).items;
  expect(jobs.filter((job) => job.kind === 'process_order')).toEqual([]);
  await drain(stack);
  expect(await printOrdersFor(stack, orderID)).toEqual([]);
  expect(createCalls(stack)).toBe(0);
}

describe('PO lines the print service cannot fulfil are refused at intake', () => {
  it('quantity 0: 400 naming the line, its reference and the product bounds', async () => {
    const stack = await createOrderStack();
    const line = lineAt(await cartOf(stack, ['Business cards']), 0);
    const answer = await sendOrder(stack, {
      orderID: 'PO-Q0',
      lines: [{ ...line, sku: 'BC-STD', quantity: '0' }],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: `Line 1 (SupplierPartAuxiliaryID ${line.lineRef}): quantity 0 is not a whole number from 100 to 100000 (product BC-STD).`,
    });
    await expectNothingOrdered(stack, 'PO-Q0', [line.lineRef ?? '']);
  });

  it('a quantity above the maximum (1e50), below the minimum or fractional: 400 each', async () => {
    const stack = await createOrderStack();
    const line = lineAt(await cartOf(stack, ['Business cards']), 0);
    for (const quantity of ['1e50', '99', '100.5']) {
      expect(
        await sendOrder(stack, { orderID: 'PO-QB', lines: [{ ...line, sku: 'BC-STD', quantity }] }),
      ).toEqual({
        code: 400,
        text: 'Bad Request',
        detail: `Line 1 (SupplierPartAuxiliaryID ${line.lineRef}): quantity ${quantity} is not a whole number from 100 to 100000 (product BC-STD).`,
      });
    }
    await expectNothingOrdered(stack, 'PO-QB', [line.lineRef ?? '']);
  });

  it('a quantity whole in value but written with decimals or an exponent is accepted', async () => {
    const stack = await createOrderStack();
    const line = lineAt(await cartOf(stack, ['Business cards']), 0);
    const answer = await sendOrder(stack, {
      orderID: 'PO-QE',
      lines: [{ ...line, sku: 'BC-STD', quantity: '1.5e2' }],
    });
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
  });

  it('quantity 1e400: refused by the codec, naming the line and its reference', async () => {
    const stack = await createOrderStack();
    const line = lineAt(await cartOf(stack, ['Business cards']), 0);
    const answer = await sendOrder(stack, {
      orderID: 'PO-QX',
      lines: [{ ...line, sku: 'BC-STD', quantity: '1e400' }],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: `ItemOut line 1 (SupplierPartAuxiliaryID ${line.lineRef}) quantity "1e400" is not a non-negative number`,
    });
    await expectNothingOrdered(stack, 'PO-QX', [line.lineRef ?? '']);
  });

  it('a unit price of -5: 400 naming the line', async () => {
    const stack = await createOrderStack();
    const line = lineAt(await cartOf(stack, ['Business cards']), 0);
    const answer = await sendOrder(stack, {
      orderID: 'PO-NEG',
      lines: [{ ...line, sku: 'BC-STD', unitPrice: '-5' }],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: `Line 1 (SupplierPartAuxiliaryID ${line.lineRef}): unit price -5 is negative.`,
    });
    await expectNothingOrdered(stack, 'PO-NEG', [line.lineRef ?? '']);
  });

  it('non-numeric prices on two lines: one codec Status naming both lines', async () => {
    const stack = await createOrderStack();
    const cart = await cartOf(stack, ['Business cards', 'A5 flyer']);
    const [cards, flyer] = [lineAt(cart, 0), lineAt(cart, 1)];
    const answer = await sendOrder(stack, {
      orderID: 'PO-NAN',
      lines: [
        { ...cards, sku: 'BC-STD', unitPrice: 'twelve cents' },
        { ...flyer, sku: 'FLY-A5', unitPrice: '0,35' },
      ],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail:
        `ItemOut line 1 (SupplierPartAuxiliaryID ${cards.lineRef})/UnitPrice/Money "twelve cents" is not a decimal number; ` +
        `ItemOut line 2 (SupplierPartAuxiliaryID ${flyer.lineRef})/UnitPrice/Money "0,35" is not a decimal number`,
    });
    await expectNothingOrdered(stack, 'PO-NAN', [cards.lineRef ?? '', flyer.lineRef ?? '']);
  });
});

describe('the currency is the storefront’s, judged on each line’s UnitPrice', () => {
  it('a EUR PO on a USD storefront is refused and never becomes a print order', async () => {
    const stack = await createOrderStack();
    const line = lineAt(await cartOf(stack, ['Business cards']), 0);
    const answer = await sendOrder(stack, {
      orderID: 'PO-EUR',
      lines: [{ ...line, sku: 'BC-STD', currency: 'EUR' }],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: `Line 1 (SupplierPartAuxiliaryID ${line.lineRef}): currency EUR is not the storefront's currency USD.`,
    });
    await expectNothingOrdered(stack, 'PO-EUR', [line.lineRef ?? '']);
    expect(stack.orderStatusPosts).toEqual([]);
  });

  it('JAGGAER: a header Total in EUR over line prices in USD is accepted and printed', async () => {
    const stack = await createOrderStack();
    const lines = linesOf(await punchOut(stack, ['Business cards']));
    const document = orderRequest({ orderID: 'PO-JAG', lines }).replace(
      '<Total><Money currency="USD">100.00</Money></Total>',
      '<Total><Money currency="EUR">92.40</Money></Total>',
    );
    expect(document).toContain('<Total><Money currency="EUR">');
    expect(statusOf(await stack.postCxml(document))).toEqual({ code: 200, text: 'OK', detail: '' });
    const jobs = (await stack.store.jobs.list()).items;
    expect(jobs.filter((job) => job.kind === 'process_order')).toHaveLength(1);
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-JAG')).toHaveLength(1);
    const [po] = (await stack.store.orders.list()).items;
    expect(po?.flags).toEqual([]);
  });
});

describe('every faulty line in one Status', () => {
  it('three faulty lines, one with two problems, beside a good one: one 400 listing them in PO order', async () => {
    const stack = await createOrderStack();
    const cart = await cartOf(stack, ['Business cards', 'A5 flyer', 'Business cards', 'A5 flyer']);
    const [a, b, c, d] = [0, 1, 2, 3].map((index) => lineAt(cart, index)) as [
      OrderLineIn,
      OrderLineIn,
      OrderLineIn,
      OrderLineIn,
    ];
    const answer = await sendOrder(stack, {
      orderID: 'PO-MANY',
      lines: [
        { ...a, sku: 'BC-STD', quantity: '0', unitPrice: '-0.12' },
        { ...b, sku: 'FLY-A5' },
        { ...c, sku: 'BC-STD', currency: 'EUR' },
        { ...d, sku: 'FLY-A5', unitPrice: '-5' },
      ],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: [
        `Line 1 (SupplierPartAuxiliaryID ${a.lineRef}): quantity 0 is not a whole number from 100 to 100000 (product BC-STD), unit price -0.12 is negative`,
        `Line 3 (SupplierPartAuxiliaryID ${c.lineRef}): currency EUR is not the storefront's currency USD`,
        `Line 4 (SupplierPartAuxiliaryID ${d.lineRef}): unit price -5 is negative.`,
      ].join('; '),
    });
    await expectNothingOrdered(
      stack,
      'PO-MANY',
      cart.map((line) => line.lineRef ?? ''),
    );
  });

  it('an unknown line reference and a faulty line: both in one 400', async () => {
    const stack = await createOrderStack();
    const line = lineAt(await cartOf(stack, ['Business cards']), 0);
    const answer = await sendOrder(stack, {
      orderID: 'PO-MIX',
      lines: [
        { lineRef: 'L-ZZZZZZZZ', sku: 'BC-STD', quantity: '100', unitPrice: '0.12' },
        { ...line, sku: 'BC-STD', quantity: '0' },
      ],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail:
        'Line 1 (SupplierPartID BC-STD): line reference L-ZZZZZZZZ is unknown; ' +
        `Line 2 (SupplierPartAuxiliaryID ${line.lineRef}): quantity 0 is not a whole number from 100 to 100000 (product BC-STD).`,
    });
    await expectNothingOrdered(stack, 'PO-MIX', [line.lineRef ?? '']);
  });
});
