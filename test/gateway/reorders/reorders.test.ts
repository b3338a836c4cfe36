/**
 * Reorders of saved designs, in process through the sandbox: a PO's designs become the buyer's reorder
 * items; a level-2 setup naming one (by any requester of the buyer) opens the cart with that design at its
 * last quantity; the PO that follows becomes a print order of that very design, placed as its owner. The
 * catalog page's "Ordered before", items gone from the catalog, another buyer's items, test POs, and the
 * catalog export items.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { reorderExportItems } from '../../../src/gateway/reorders/export-items.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { validateAgainstDtd } from '../../support/dtd-validation.ts';
import { signIn } from '../operator/console/console-support.ts';
import {
  type CartLineOut,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  parseXml,
  printOrdersFor,
  punchOut,
  sendOrder,
  type XmlTree,
} from '../../support/order-flow.ts';
import {
  clickButton,
  cxmlFromForm,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../../support/punchout-flow.ts';
import { type BrowserResponse, GATEWAY_ORIGIN, SANDBOX_ORIGIN } from '../../support/stack.ts';

/** acme and the temporary-users buyer have reorders on; coupa too, for a buyer naming acme's item. */
function reorderConfig(): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    buyers: base.buyers.map((b) =>
      ['acme', 'coupa', 'temp'].includes(b.id) ? { ...b, catalog: { reorders: true } } : b,
    ),
  };
}

const COUPA = { identity: 'COUPA-ACME', domain: 'DUNS', secret: 'coupa-secret' } as const;
const COUPA_RETURN = 'https://acme.coupahost.example/punchout/return';
const TEMP = { identity: 'TEMP-1', secret: 'temp-secret' } as const;

/** The lines of the cart a transfer page hands back. */
function handedBack(transfer: BrowserResponse): CartLineOut[] {
  const poom = parseXml(cxmlFromForm(returnFormOf(transfer)));
  return poom.cXML.Message.PunchOutOrderMessage.ItemIn.map((item: XmlTree) => {
    const extrinsics = Object.fromEntries(
      item.ItemDetail.Extrinsic.map((e: XmlTree) => [e['@name'], e['#text']]),
    );
    return {
      lineRef: item.ItemID.SupplierPartAuxiliaryID,
      sku: item.ItemID.SupplierPartID,
      quantity: item['@quantity'],
      unitPrice: item.ItemDetail.UnitPrice.Money['#text'],
      currency: item.ItemDetail.UnitPrice.Money['@currency'],
      uom: item.ItemDetail.UnitOfMeasure,
      designId: Number(extrinsics.designId),
    };
  });
}

/** A level-2 setup naming `partId`, opened in the browser. */
async function levelTwo(stack: OrderStack, partId: string, user: Parameters<typeof setupRequest>[0] = {}) {
  const answer = await stack.postCxml(setupRequest({ ...user, selectedSku: partId }));
  expect(statusOf(answer).code).toBe(200);
  return stack.browse(startUrlOf(answer));
}

/** The session a session page's URL names. */
async function sessionIdOf(stack: OrderStack, url: string): Promise<string> {
  const token = /\/punchout\/s\/([^/]+)\//.exec(url)?.[1] ?? '';
  const ctx = stack.gateway.context;
  return (await ctx.tokens.verify(token, 'session', ctx.clock.now())).sid;
}

/** The print order the sandbox holds for a PO number: its designs and its customer. */
async function printOrderOf(stack: OrderStack, poNumber: string) {
  const ids = await printOrdersFor(stack, poNumber);
  expect(ids).toHaveLength(1);
  const order = await stack.api.getOrder(ids[0] as number);
  return { designs: order.items.map((item) => item.product_id), customer: order.customer.id };
}

describe('reorders of saved designs', () => {
  let stack: OrderStack;
  let first: CartLineOut;
  let partId: string;

  beforeAll(async () => {
    stack = await createOrderStack(reorderConfig());
    // Jane designs business cards; her PO orders 500 of them at the 500+ price.
    [first] = (await punchOut(stack, ['Business cards'], { uniqueName: 'jroe' })) as [CartLineOut];
    const ordered = { ...linesOf([first])[0]!, quantity: '500', unitPrice: '0.09' };
    expect(await sendOrder(stack, { orderID: 'PO-R1', lines: [ordered] })).toMatchObject({ code: 200 });
    await drain(stack);
    partId = `R-BC-STD-${first.designId}`;
  });

  it('records the ordered design as the buyer reorder item: part number, name, thumbnail, last quantity and price', async () => {
    const item = await stack.store.reorders.get('acme', partId);
    const po = await stack.store.orders.getByOrderId('acme', 'PO-R1');
    expect(item).toMatchObject({
      partId,
      storefrontId: 'demo',
      designId: first.designId,
      productId: 101,
      sku: 'BC-STD',
      name: `Business cards (design ${first.designId})`,
      thumbnailUrl: `${SANDBOX_ORIGIN}/editor/productthumb.ashx?p=${first.designId}&w=200&h=140`,
      quantity: 500,
      unitPrice: '0.09',
      currency: 'USD',
      uom: 'EA',
      poId: po?.id,
    });
    expect(item?.thumbnailUrl).not.toMatch(/token/i);
    expect(await stack.store.reorders.get('coupa', partId)).toBeUndefined();
  });

  it('a level-2 setup by another requester opens the cart with that design at its last quantity; its PO becomes a print order of the same design, placed as its owner', async () => {
    const cart = await levelTwo(stack, partId, { uniqueName: 'mmax', userEmail: 'max@acme.example' });
    expect(cart.status).toBe(200);
    expect(cart.url).toMatch(/\/cart$/);
    expect(cart.text).toContain(`Business cards (design ${first.designId})`);
    // Not Max's design: he may change the quantity, not open it in the editor.
    expect(cart.text).not.toContain('/edit"');
    const transfer = await clickButton(stack, cart, 'Transfer cart to procurement system');
    const [line] = handedBack(transfer);
    expect(line).toMatchObject({
      sku: 'BC-STD',
      quantity: '500',
      unitPrice: '0.09',
      designId: first.designId,
    });
    expect(line?.lineRef).not.toBe(first.lineRef);

    expect(await sendOrder(stack, { orderID: 'PO-R2', lines: linesOf([line!]) })).toMatchObject({
      code: 200,
    });
    await drain(stack);
    const before = await printOrderOf(stack, 'PO-R1');
    const again = await printOrderOf(stack, 'PO-R2');
    expect(again.designs).toEqual([first.designId]);
    expect(again.customer).toBe(before.customer);
    expect((await stack.store.orders.getByOrderId('acme', 'PO-R2'))?.state).toBe('ordered');
    // The reorder's PO is now the item's last order.
    const po2 = await stack.store.orders.getByOrderId('acme', 'PO-R2');
    expect((await stack.store.reorders.get('acme', partId))?.poId).toBe(po2?.id);
  });

  it('the catalog page shows "Ordered before" with the last quantity and price; its button puts the design in the cart', async () => {
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest({ uniqueName: 'kim' }))));
    expect(catalog.url).toMatch(/\/catalog$/);
    expect(catalog.text).toContain('<h2 id="ordered-before">Ordered before</h2>');
    // The gateway's own picture link: the editor host's would open any design by changing its number.
    expect(catalog.text).toMatch(
      new RegExp(`src="${GATEWAY_ORIGIN}/thumbnail/demo/${first.designId}/[\\w-]{22}\\.png"`),
    );
    expect(catalog.text).not.toContain(`productthumb.ashx?p=${first.designId}&`);
    expect(catalog.text).toContain('Last ordered: 500 EA at 0.09 USD / EA');
    const cart = await clickButton(stack, catalog, 'Add to cart');
    expect(cart.url).toMatch(/\/cart$/);
    const lines = await stack.store.cart.listBySession(await sessionIdOf(stack, cart.url));
    expect(lines.map((l) => [l.designId, l.quantity, l.userRef])).toEqual([[first.designId, 500, 'jroe']]);
  });

  it("another buyer's setup naming the item is treated like an unknown part: the catalog, no line, nothing of it shown", async () => {
    const page = await levelTwo(stack, partId, { ...COUPA, browserFormPost: COUPA_RETURN });
    expect(page.status).toBe(200);
    expect(page.url).toMatch(/\/catalog$/);
    expect(page.text).toContain('Cart (0)');
    expect(page.text).not.toContain('Ordered before');
    expect(page.text).not.toContain(`design ${first.designId}`);
  });

  it('an item whose product is gone from the catalog is shown as no longer available, without a button; a setup naming it lands on the catalog saying so', async () => {
    const po = await stack.store.orders.getByOrderId('acme', 'PO-R1');
    await stack.store.reorders.record([
      {
        ...(await stack.store.reorders.get('acme', partId))!,
        partId: 'R-BC-OLD-77',
        sku: 'BC-OLD',
        designId: 77,
        name: 'Old business cards (design 77)',
        poId: po!.id,
      },
    ]);
    const page = await levelTwo(stack, 'R-BC-OLD-77');
    expect(page.status).toBe(200);
    expect(page.url).toMatch(/\/catalog\?unavailable=R-BC-OLD-77$/);
    expect(page.text).toContain(
      'Old business cards (design 77) cannot be ordered again: its product is no longer in the catalog.',
    );
    const card = /<article class="card" data-part="R-BC-OLD-77">[\s\S]*?<\/article>/.exec(page.text)?.[0];
    expect(card).toContain('No longer available: its product is no longer in the catalog.');
    expect(card).not.toContain('<button');
    expect(page.text).toContain('Cart (0)');
    // A page from before the product went: the post says why instead of failing.
    const token = /\/punchout\/s\/([^/]+)\/catalog/.exec(page.url)?.[1];
    const stale = await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${token}/reorder/R-BC-OLD-77`, {
      method: 'POST',
    });
    expect(stale.status).toBe(200);
    expect(stale.url).toMatch(/\/catalog\?unavailable=R-BC-OLD-77$/);
    expect(page.text).not.toContain('Transfer cart');
  });

  it('the catalog export items: available items only, at their last price', async () => {
    const items = await reorderExportItems(stack.store, stack.gateway.context.config, 'acme');
    expect(items).toEqual([
      {
        supplierPartId: partId,
        descriptions: { en: `Business cards (design ${first.designId})` },
        unspsc: '82121512',
        unitOfMeasure: 'EA',
        price: { amount: '0.09', currency: 'USD' },
        leadTimeDays: 5,
        thumbnailUrl: expect.stringMatching(
          new RegExp(`^${GATEWAY_ORIGIN}/thumbnail/demo/${first.designId}/[\\w-]{22}\\.png$`),
        ),
      },
    ]);
    expect(await reorderExportItems(stack.store, stack.gateway.context.config, 'university')).toEqual([]);
    expect(await reorderExportItems(stack.store, stack.gateway.context.config, 'nobody')).toEqual([]);
  });

  it("the console's cXML Index download carries the reorder item after the products, valid against cXML.dtd", async () => {
    const operator = await signIn(stack);
    const xml = await operator.get('/admin/ui/buyers/acme/catalog.xml');
    expect(xml.status).toBe(200);
    const text = await xml.text();
    expect(validateAgainstDtd(text, 'cXML')).toEqual({ ok: true, messages: '' });
    const parts = [...text.matchAll(/<SupplierPartID>([^<]+)<\/SupplierPartID>/g)].map((m) => m[1]);
    expect(parts).toEqual(['BC-STD', 'FLY-A5', 'POS-CUSTOM', partId]);
  });

  it('temporary users: a design saved by one session user is reordered by the next and printed as its owner', async () => {
    const [saved] = (await punchOut(stack, ['A5 flyer'], TEMP)) as [CartLineOut];
    expect(await sendOrder(stack, { ...TEMP, orderID: 'PO-T1', lines: linesOf([saved]) })).toMatchObject({
      code: 200,
    });
    await drain(stack);
    const cart = await levelTwo(stack, `R-FLY-A5-${saved.designId}`, TEMP);
    expect(cart.url).toMatch(/\/cart$/);
    const [line] = handedBack(await clickButton(stack, cart, 'Transfer cart to procurement system'));
    expect(line).toMatchObject({ sku: 'FLY-A5', quantity: saved.quantity, designId: saved.designId });
    expect(await sendOrder(stack, { ...TEMP, orderID: 'PO-T2', lines: linesOf([line!]) })).toMatchObject({
      code: 200,
    });
    await drain(stack);
    const before = await printOrderOf(stack, 'PO-T1');
    const again = await printOrderOf(stack, 'PO-T2');
    expect(again).toEqual({ designs: [saved.designId], customer: before.customer });
  });

  it('a test PO makes no reorder item', async () => {
    const [line] = (await punchOut(stack, ['Custom-size poster'], { deploymentMode: 'test' })) as [
      CartLineOut,
    ];
    expect(
      await sendOrder(stack, { orderID: 'PO-TEST', deploymentMode: 'test', lines: linesOf([line]) }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    expect(await stack.store.reorders.get('acme', `R-POS-CUSTOM-${line.designId}`)).toBeUndefined();
  });
});
