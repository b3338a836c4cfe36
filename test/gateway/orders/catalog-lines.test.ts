/**
 * PO lines that are not designs from a punch-out cart: a catalog product ordered as it is
 * (`printProductId`), by its part id alone or put in the cart from the catalog without the editor, and
 * lines the gateway cannot produce (a freight line, an unknown part, a typed line without a part id), which
 * the buyer's `unknownLines` rejects by line (default), holds for an operator, or lets refuse the PO.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { disposeDtdValidators, requireDtdValidator } from '../../support/dtd-validation.ts';
import { findForms } from '../../support/html-forms.ts';
import {
  adminJson,
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  parseXml,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import {
  clickButton,
  cxmlFromForm,
  returnFormOf,
  startUrlOf,
  statusOf,
  submit,
} from '../../support/punchout-flow.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { signIn } from '../operator/console/console-support.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

/** C4 envelopes: the sandbox's template 106, sold as it is, from 100 a box. */
const ENVELOPES = {
  productId: 106,
  printProductId: 106,
  sku: 'ENV-C4',
  name: 'C4 envelopes',
  uom: 'EA',
  minQuantity: 100,
  prices: [{ minQuantity: 1, unitPrice: 0.08 }],
};

type UnknownLines = 'reject-line' | 'hold' | 'refuse-po';

/** The order config with the envelopes in the demo catalog and buyer acme's `unknownLines` (default when left out). */
function configWith(unknownLines?: UnknownLines): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    storefronts: base.storefronts.map((s) =>
      s.id === 'demo' ? { ...s, products: [...s.products, ENVELOPES] } : s,
    ),
    buyers: base.buyers.map((b) =>
      b.id === 'acme' && unknownLines !== undefined ? { ...b, unknownLines } : b,
    ),
  };
}

const ENVELOPE_LINE = { sku: 'ENV-C4', quantity: '500', unitPrice: '0.08' };
const FREIGHT_LINE = { sku: 'FREIGHT', quantity: '1', unitPrice: '25.00' };
const FREIGHT_REASON = 'Line 3 (SupplierPartID FREIGHT) is not a product of this catalog';

/** A PO of a business-card design, 500 envelopes by part id and a freight line. */
async function sendMixedPo(stack: OrderStack, orderID = 'PO-MIX-1') {
  const cart = await punchOut(stack, ['Business cards']);
  const answer = await sendOrder(stack, {
    payloadID: `${orderID}@ariba.example`,
    orderID,
    lines: [...linesOf(cart), ENVELOPE_LINE, FREIGHT_LINE],
  });
  return { cart, answer };
}

async function printOrderProducts(stack: OrderStack, orderID: string): Promise<number[][]> {
  const ids = await printOrdersFor(stack, orderID);
  return Promise.all(
    ids.map(async (id) => (await stack.api.getOrder(id)).items.map((item) => item.product_id)),
  );
}

describe('unknownLines: reject-line (the default)', () => {
  it('a design, a catalog product and a freight line: the first two in one print order, the third rejected by line', async () => {
    const stack = await createOrderStack(configWith());
    const { cart, answer } = await sendMixedPo(stack);
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });

    await drain(stack);
    expect(await printOrderProducts(stack, 'PO-MIX-1')).toEqual([[cart[0]?.designId, 106]]);

    // One confirmation, a line each: accept, accept, reject with the reason — no header-only accept.
    const confirmations = confirmationsReceived(stack);
    expect(confirmations).toHaveLength(1);
    const [confirmation] = confirmations;
    expect(confirmation?.type).toBe('detail');
    expect(confirmation?.dtd).toEqual({ ok: true, messages: '' });
    expect(confirmation?.items.map((item) => [item.lineNumber, item.statuses])).toEqual([
      ['1', [{ type: 'accept', quantity: '100' }]],
      ['2', [{ type: 'accept', quantity: '500' }]],
      ['3', [{ type: 'reject', quantity: '1', comments: FREIGHT_REASON }]],
    ]);
    const header = parseXml(stack.orderStatusPosts[0]?.body ?? '').cXML.Request.ConfirmationRequest
      .ConfirmationHeader;
    expect(header.Comments['#text']).toMatch(
      /^Accepted as print order \d+\. Line 3 is rejected: it cannot be produced\.$/,
    );

    // The operator sees the rejected line on the PO, which is ordered, not waiting.
    const po = await stack.store.orders.getByPayloadId('acme', 'PO-MIX-1@ariba.example');
    expect(po?.state).toBe('ordered');
    const detail = await adminJson(stack, `/admin/orders/${po?.id}`);
    expect(detail.body.rejectedLines).toEqual([
      { lineNumber: 3, supplierPartID: 'FREIGHT', reason: FREIGHT_REASON },
    ]);
    expect(detail.body.lines.map((l: { lineRef?: string; asIs?: boolean }) => [l.lineRef, l.asIs])).toEqual([
      [cart[0]?.lineRef, undefined],
      [undefined, true],
    ]);

    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${po?.id}`)).text();
    expect(page).toContain('<caption>Lines not produced: rejected to the buyer by line</caption>');
    expect(page).toContain(`<tr><td>3</td><td>FREIGHT</td><td>${FREIGHT_REASON}</td></tr>`);

    // The job ticket names the envelopes as a product without a design.
    const [printOrderId] = await printOrdersFor(stack, 'PO-MIX-1');
    const note = stack.sandbox.control
      .orderHistory(printOrderId as number)
      .history.find((h) => h.comments?.startsWith('Purchase order PO-MIX-1'));
    expect(note?.comments).toContain('2 lines to print:');
    expect(note?.comments).toContain('2. QUANTITY 500 EA — C4 envelopes (product 106, as it is, no design)');
  });

  it('an allDetail buyer gets the same lines in an allDetail confirmation', async () => {
    const config = configWith();
    config.buyers = config.buyers?.map((b) => (b.id === 'acme' ? { ...b, confirmations: 'allDetail' } : b));
    const stack = await createOrderStack(config);
    await sendMixedPo(stack);
    await drain(stack);
    const [confirmation] = confirmationsReceived(stack);
    expect(confirmation?.type).toBe('allDetail');
    expect(confirmation?.items.map((item) => item.statuses[0]?.type)).toEqual(['accept', 'accept', 'reject']);
    expect(confirmation?.dtd).toEqual({ ok: true, messages: '' });
  });

  it('catalog products alone: one print order placed by the buyer’s catalog account, a header-only accept', async () => {
    const stack = await createOrderStack(configWith());
    const answer = await sendOrder(stack, { orderID: 'PO-ENV', lines: [ENVELOPE_LINE] });
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
    await drain(stack);
    expect(await printOrderProducts(stack, 'PO-ENV')).toEqual([[106]]);
    const account = await stack.store.users.get('acme', 'catalog:orders');
    expect(account).toMatchObject({ storefrontId: 'demo', isTemp: false });
    expect(confirmationsReceived(stack).map((c) => [c.type, c.items])).toEqual([['accept', []]]);
  });

  it('every line unproducible: the PO is refused as before, nothing stored', async () => {
    const stack = await createOrderStack(configWith());
    const answer = await sendOrder(stack, {
      lines: [FREIGHT_LINE, { sku: '', quantity: '1', unitPrice: '10.00' }],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail:
        'Line 1 (SupplierPartID FREIGHT) is not a product of this catalog; ' +
        'Line 2 has no SupplierPartID: a line typed into the requisition cannot be produced.',
    });
    expect((await stack.store.orders.list()).items).toEqual([]);
  });

  it('a catalog line with a quantity below the product’s minimum still refuses the PO, naming both lines at fault', async () => {
    const stack = await createOrderStack(configWith());
    const cart = await punchOut(stack, ['Business cards']);
    const answer = await sendOrder(stack, {
      lines: [...linesOf(cart), { ...ENVELOPE_LINE, quantity: '50' }, FREIGHT_LINE],
    });
    expect(answer).toEqual({
      code: 400,
      text: 'Bad Request',
      detail:
        'Line 2 (SupplierPartID ENV-C4): quantity 50 is not a whole number from 100 to 100000 (product ENV-C4); ' +
        `${FREIGHT_REASON}.`,
    });
    expect((await stack.store.orders.list()).items).toEqual([]);
    expect(await stack.store.cart.get(cart[0]?.lineRef ?? '')).toMatchObject({ state: 'cart' });
  });
});

describe('unknownLines: hold', () => {
  it('the PO waits for an operator naming the line; the operator’s retry produces the rest and rejects it', async () => {
    const stack = await createOrderStack(configWith('hold'));
    const { cart, answer } = await sendMixedPo(stack, 'PO-HOLD');
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
    await drain(stack);

    const held = await stack.store.orders.getByPayloadId('acme', 'PO-HOLD@ariba.example');
    expect(held?.state).toBe('needs_operator');
    expect(held?.flags).toEqual(['unproducible_lines']);
    expect(held?.lastError).toBe(
      `${FREIGHT_REASON}. The PO waits for an operator: retrying it produces the other lines and tells the ` +
        'buyer these are rejected; otherwise settle it by hand.',
    );
    expect(await printOrdersFor(stack, 'PO-HOLD')).toEqual([]);
    expect(stack.orderStatusPosts).toEqual([]);
    // Its cart line is taken, so no second PO can order it meanwhile.
    expect(await stack.store.cart.get(cart[0]?.lineRef ?? '')).toMatchObject({ state: 'ordered' });

    const retried = await adminJson(stack, `/admin/orders/${held?.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    await drain(stack);
    expect(await printOrderProducts(stack, 'PO-HOLD')).toEqual([[cart[0]?.designId, 106]]);
    const [confirmation, ...more] = confirmationsReceived(stack);
    expect(more).toEqual([]);
    expect(confirmation?.items.map((item) => item.statuses[0]?.type)).toEqual(['accept', 'accept', 'reject']);
    const after = await stack.store.orders.get(held?.id ?? '');
    expect(after?.state).toBe('ordered');
    expect(after?.flags).toEqual([]);
  });
});

describe('unknownLines: refuse-po', () => {
  it('one unproducible line refuses the whole PO, as before: 400 naming it, nothing stored', async () => {
    const stack = await createOrderStack(configWith('refuse-po'));
    const { cart, answer } = await sendMixedPo(stack, 'PO-REFUSE');
    expect(answer).toEqual({ code: 400, text: 'Bad Request', detail: `${FREIGHT_REASON}.` });
    expect((await stack.store.orders.list()).items).toEqual([]);
    expect(await stack.store.cart.get(cart[0]?.lineRef ?? '')).toMatchObject({ state: 'cart' });
  });
});

describe('a catalog product goes into the cart from the catalog, without the editor', () => {
  it('"Add to cart" with a quantity: a cart line of the product, transferred and ordered as it is', async () => {
    const stack = await createOrderStack(configWith());
    const setup = await stack.postCxml(setupRequest({}));
    expect(statusOf(setup).code).toBe(200);
    const catalog = await stack.browse(startUrlOf(setup));
    // Only the product orderable as it is has the form; the designs keep their "Design" link alone.
    const addForms = findForms(catalog.text).filter((f) => f.action.includes('/add/'));
    expect(addForms.map((f) => [f.action.replace(/^.*\/add\//, ''), f.fields])).toEqual([
      ['ENV-C4', [['quantity', '100']]],
    ]);
    const cartPage = await submit(stack, catalog, addForms[0] as (typeof addForms)[number], {
      quantity: '250',
    });
    expect(cartPage.status).toBe(200);
    expect(cartPage.text).toContain('C4 envelopes');
    expect(cartPage.text).not.toContain('Edit design');

    const transfer = await clickButton(stack, cartPage, 'Transfer cart to procurement system');
    const item = parseXml(cxmlFromForm(returnFormOf(transfer))).cXML.Message.PunchOutOrderMessage.ItemIn[0];
    expect([item['@quantity'], item.ItemID.SupplierPartID, item.ItemDetail.UnitPrice.Money['#text']]).toEqual(
      ['250', 'ENV-C4', '0.08'],
    );
    const lineRef = item.ItemID.SupplierPartAuxiliaryID;
    const answer = await sendOrder(stack, {
      orderID: 'PO-CART-ENV',
      lines: [{ lineRef, sku: 'ENV-C4', quantity: '250', unitPrice: '0.08' }],
    });
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
    await drain(stack);
    expect(await printOrderProducts(stack, 'PO-CART-ENV')).toEqual([[106]]);
    expect(await stack.store.cart.get(lineRef)).toMatchObject({ state: 'ordered', designId: 106 });
  });

  it('a product put in the cart during a test punch-out is a test line, as a design would be', async () => {
    const stack = await createOrderStack(configWith());
    const setup = await stack.postCxml(setupRequest({ deploymentMode: 'test' }));
    expect(statusOf(setup).code).toBe(200);
    const catalog = await stack.browse(startUrlOf(setup));
    const form = findForms(catalog.text).find((f) => f.action.includes('/add/ENV-C4'));
    const cartPage = await submit(stack, catalog, form as NonNullable<typeof form>, { quantity: '100' });
    const transfer = await clickButton(stack, cartPage, 'Transfer cart to procurement system');
    const message = parseXml(cxmlFromForm(returnFormOf(transfer))).cXML.Message;
    expect(message['@deploymentMode']).toBe('test');
    const lineRef = message.PunchOutOrderMessage.ItemIn[0].ItemID.SupplierPartAuxiliaryID;
    expect(await stack.store.cart.get(lineRef)).toMatchObject({ deploymentMode: 'test', designId: 106 });
  });

  it('a quantity below the minimum is refused with the product’s bounds, and no line is added', async () => {
    const stack = await createOrderStack(configWith());
    const setup = await stack.postCxml(setupRequest({}));
    const catalog = await stack.browse(startUrlOf(setup));
    const form = findForms(catalog.text).find((f) => f.action.includes('/add/ENV-C4'));
    const refused = await submit(stack, catalog, form as NonNullable<typeof form>, { quantity: '5' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      'The quantity for C4 envelopes must be a whole number from 100 to 100000.',
    );
  });
});
