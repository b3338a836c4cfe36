import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/store/store-error.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  orderRequest,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { statusOf } from '../../support/punchout-flow.ts';

const createCalls = (calls: readonly string[]) =>
  calls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;

describe('OrderRequest intake refuses what it cannot order, with the exact reason', () => {
  it('an unknown line reference: 400 naming the line', async () => {
    const stack = await createOrderStack();
    const answer = await sendOrder(stack, {
      lines: [{ lineRef: 'L-ZZZZZZZZ', sku: 'BC-STD', quantity: '100', unitPrice: '0.12' }],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: 'Line 1 (SupplierPartID BC-STD): line reference L-ZZZZZZZZ is unknown.',
    });
    expect((await stack.store.orders.list()).items).toEqual([]);
  });

  it('a line without SupplierPartAuxiliaryID: 400 saying designs are ordered through the punch-out', async () => {
    const stack = await createOrderStack();
    const answer = await sendOrder(stack, { lines: [{ sku: 'BC-STD', quantity: '100', unitPrice: '0.12' }] });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail:
        'Line 1 (SupplierPartID BC-STD) has no SupplierPartAuxiliaryID; order designs through the punch-out.',
    });
  });

  it('a line that belongs to another buyer: 403 naming it, even beside a good line', async () => {
    const stack = await createOrderStack();
    const coupaCart = await punchOut(stack, ['A5 flyer'], {
      domain: 'DUNS',
      identity: 'COUPA-ACME',
      secret: 'coupa-secret',
      browserFormPost: 'https://acme.coupahost.example/punchout/return',
    });
    const acmeCart = await punchOut(stack, ['Business cards']);
    const answer = await sendOrder(stack, { lines: linesOf([...acmeCart, ...coupaCart]) });
    expect(answer).toEqual({
      code: 403,
      text: 'Forbidden',
      detail: `Line 2 (SupplierPartID FLY-A5): line reference ${coupaCart[0]?.lineRef} belongs to another buyer.`,
    });
    expect((await stack.store.orders.list()).items).toEqual([]);
    expect(await stack.store.cart.get(acmeCart[0]?.lineRef ?? '')).toMatchObject({ state: 'cart' });
  });

  it('no lines: 400 from the codec, nothing stored', async () => {
    const stack = await createOrderStack();
    const answer = await sendOrder(stack, { lines: [] });
    expect(answer).toEqual({ code: 400, text: 'Bad Request', detail: 'OrderRequest has no ItemOut' });
    expect((await stack.store.orders.list()).items).toEqual([]);
  });

  it('a wrong SharedSecret: 401 before anything is looked up', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    const answer = await sendOrder(stack, { secret: 'wrong', lines: linesOf(cart) });
    expect(answer).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'Authentication failed: the Sender SharedSecret is not valid.',
    });
  });
});

describe('OrderRequest intake is idempotent', () => {
  it('a copy of a PO stored without its cart marked (an earlier punchgate cut off after its accept) marks the lines then', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    const document = orderRequest({
      payloadID: 'po-cut@ariba.example',
      orderID: 'PO-CUT',
      lines: linesOf(cart),
    });
    // Intake now stores the PO, its lines and its job in one transaction; a PO stored by the three separate
    // commits of earlier versions may lack the other two, which a copy of it must still complete.
    const acceptWithLines = stack.store.orders.acceptWithLines;
    stack.store.orders.acceptWithLines = async ({ order }) => {
      await stack.store.orders.accept(order);
      throw new StoreError('unavailable', 'connection lost');
    };
    expect(statusOf(await stack.postCxml(document))).toMatchObject({ code: 500 });
    expect(await stack.store.cart.get(cart[0]?.lineRef ?? '')).toMatchObject({ state: 'cart' });

    stack.store.orders.acceptWithLines = acceptWithLines;
    expect(statusOf(await stack.postCxml(document))).toEqual({ code: 200, text: 'OK', detail: '' });
    const [order] = (await stack.store.orders.list()).items;
    expect(await stack.store.cart.get(cart[0]?.lineRef ?? '')).toMatchObject({
      state: 'ordered',
      poId: order?.id,
    });
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-CUT')).toHaveLength(1);
  });

  it('50 concurrent copies of one PO: 50 identical answers and exactly one print order', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    const document = orderRequest({
      payloadID: 'po-dup@ariba.example',
      orderID: 'PO-50',
      lines: linesOf(cart),
    });
    const answers = await Promise.all(Array.from({ length: 50 }, () => stack.postCxml(document)));
    expect(answers.map(statusOf)).toEqual(Array(50).fill({ code: 200, text: 'OK', detail: '' }));
    expect((await stack.store.orders.list()).items).toHaveLength(1);

    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-50')).toHaveLength(1);
    expect(createCalls(stack.upstreamCalls)).toBe(1);
  });

  it('a retry after processing, and a new payloadID for the same orderID, get the same answer and no new order', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    const first = await sendOrder(stack, {
      payloadID: 'po-a@ariba.example',
      orderID: 'PO-51',
      lines: linesOf(cart),
    });
    await drain(stack);
    const again = await sendOrder(stack, {
      payloadID: 'po-a@ariba.example',
      orderID: 'PO-51',
      lines: linesOf(cart),
    });
    const resent = await sendOrder(stack, {
      payloadID: 'po-b@ariba.example',
      orderID: 'PO-51',
      lines: linesOf(cart),
    });
    await drain(stack);
    expect([first, again, resent]).toEqual(Array(3).fill({ code: 200, text: 'OK', detail: '' }));
    expect((await stack.store.orders.list()).items).toHaveLength(1);
    expect(await printOrdersFor(stack, 'PO-51')).toHaveLength(1);
    expect(createCalls(stack.upstreamCalls)).toBe(1);
  });

  it('a retry keeps its first answer even after the cart line was changed meanwhile', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    const lines = linesOf(cart);
    expect(await sendOrder(stack, { payloadID: 'po-c@ariba.example', lines })).toMatchObject({ code: 200 });
    await stack.store.cart.update(cart[0]?.lineRef ?? '', { state: 'removed' });
    expect(await sendOrder(stack, { payloadID: 'po-c@ariba.example', lines })).toMatchObject({ code: 200 });
  });
});

describe('what the print order is made of', () => {
  it('a PO whose quantity and price differ from the cart is flagged in the admin API and the history', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    const [line] = linesOf(cart);
    const answer = await sendOrder(stack, {
      payloadID: 'po-mismatch@ariba.example',
      orderID: 'PO-77',
      lines: [{ ...line, sku: 'BC-STD', quantity: '250', unitPrice: '0.10' }],
    });
    expect(answer.code).toBe(200);
    await drain(stack);

    const po = await stack.store.orders.getByPayloadId('acme', 'po-mismatch@ariba.example');
    const { body } = await adminJson(stack, `/admin/orders/${po?.id}`);
    expect(body.flags).toEqual(['quantity_mismatch', 'price_mismatch']);
    expect(body.mismatches).toEqual([
      {
        lineNumber: 1,
        lineRef: line?.lineRef,
        field: 'quantity',
        po: '250',
        cart: '100',
        text: `line 1 (${line?.lineRef}): quantity 250 on the PO, 100 in the punch-out cart`,
      },
      {
        lineNumber: 1,
        lineRef: line?.lineRef,
        field: 'price',
        po: '0.10 USD',
        cart: '0.12 USD',
        text: `line 1 (${line?.lineRef}): unit price 0.10 USD on the PO, 0.12 USD in the punch-out cart`,
      },
    ]);
    const list = await adminJson(stack, '/admin/orders');
    expect(list.body.items[0]).toMatchObject({
      orderId: 'PO-77',
      flags: ['quantity_mismatch', 'price_mismatch'],
    });

    const [printOrderId] = await printOrdersFor(stack, 'PO-77');
    const note = stack.sandbox.control
      .orderHistory(printOrderId as number)
      .history.find((h) => h.comments?.startsWith('Purchase order PO-77'));
    expect(note?.comments).toContain('QUANTITY 250 EA — Business cards');
    expect(note?.comments).toContain('unit price 0.10 USD');
    expect(note?.comments).toContain(
      [
        'CHECK — differs from the punch-out cart:',
        `  line 1 (${line?.lineRef}): quantity 250 on the PO, 100 in the punch-out cart`,
        `  line 1 (${line?.lineRef}): unit price 0.10 USD on the PO, 0.12 USD in the punch-out cart`,
      ].join('\n'),
    );
  });

  it('a line ordered by an earlier PO is ordered again, flagged', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { payloadID: 'first@ariba.example', orderID: 'PO-FIRST', lines: linesOf(cart) });
    await sendOrder(stack, { payloadID: 'second@ariba.example', orderID: 'PO-SECOND', lines: linesOf(cart) });
    await drain(stack);
    const first = await stack.store.orders.getByPayloadId('acme', 'first@ariba.example');
    const second = await stack.store.orders.getByPayloadId('acme', 'second@ariba.example');
    expect(first?.flags).toEqual([]);
    expect(second?.flags).toEqual(['line_already_ordered']);
    expect(await printOrdersFor(stack, 'PO-SECOND')).toHaveLength(1);
    expect(await stack.store.cart.get(cart[0]?.lineRef ?? '')).toMatchObject({
      state: 'ordered',
      poId: second?.id,
    });
  });

  it('lines of two design owners become two print orders, each made by its owner', async () => {
    const stack = await createOrderStack();
    const jane = await punchOut(stack, ['Business cards'], {
      uniqueName: 'jroe',
      userEmail: 'jane.roe@acme.example',
    });
    const max = await punchOut(stack, ['A5 flyer'], { uniqueName: 'mmax', userEmail: 'max@acme.example' });
    expect(
      await sendOrder(stack, { orderID: 'PO-2OWNERS', lines: linesOf([...jane, ...max]) }),
    ).toMatchObject({
      code: 200,
    });
    await drain(stack);
    const ids = await printOrdersFor(stack, 'PO-2OWNERS');
    expect(ids).toHaveLength(2);
    const orders = await Promise.all(ids.map((id) => stack.api.getOrder(id)));
    expect(orders.map((o) => o.items.map((i) => i.product_id))).toEqual([
      [jane[0]?.designId],
      [max[0]?.designId],
    ]);
    expect(orders[0]?.customer.id).not.toBe(orders[1]?.customer.id);
    const po = (await stack.store.orders.list()).items[0];
    expect(po?.printOrderIds).toEqual(ids);
    const accept = stack.orderStatusPosts.find((p) => p.body.includes('type="accept"'));
    expect(accept?.body).toContain(`confirmID="${ids.join(',')}"`);
  });
});
