/**
 * How a designed line names itself to the buyer's system (issue 16, deliverable 7): the part number follows
 * the buyer's `supplierPartIds` (`sku`, or `sku-design` so part-number-keyed ERPs keep designs apart), and
 * the description is the configured product name with a design label, in the cart, the PO that repeats it,
 * a level-2 punch-out that names it and OCI's 40-character DESCRIPTION.
 */
import { describe, expect, it } from 'vitest';
import {
  lineDescription,
  productOfPartId,
  supplierPartIdOf,
} from '../../../src/gateway/punchout/line-identity.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
  buyersWith,
} from '../../support/order-flow.ts';
import { saveInEditor, startUrlOf } from '../../support/punchout-flow.ts';
import { resolveTestConfig } from '../../support/stack.ts';

const storefront = resolveTestConfig(orderConfig()).storefronts[0]!;

/** The order test config with buyer acme's part numbers in the `sku-design` style. */
function skuDesignConfig() {
  const base = orderConfig();
  return {
    ...base,
    buyers: buyersWith(base.buyers, 'acme', { supplierPartIds: 'sku-design' as const }),
  };
}

describe('part numbers and descriptions of designed lines', () => {
  it('sku keeps the SKU; sku-design appends -D and the design id', () => {
    expect(supplierPartIdOf('sku', { sku: 'BC-STD', designId: 1234 })).toBe('BC-STD');
    expect(supplierPartIdOf('sku-design', { sku: 'BC-STD', designId: 1234 })).toBe('BC-STD-D1234');
  });

  it('a part number a buyer sends back names its product in either style; anything else names none', () => {
    expect(productOfPartId(storefront, 'BC-STD')?.sku).toBe('BC-STD');
    expect(productOfPartId(storefront, 'BC-STD-D1234')?.sku).toBe('BC-STD');
    expect(productOfPartId(storefront, 'BC-STD-D')).toBeUndefined();
    expect(productOfPartId(storefront, 'BC-STD-X1234')).toBeUndefined();
    expect(productOfPartId(storefront, 'NOPE-D12')).toBeUndefined();
  });

  it('the description is the product name and the design label; a limit shortens the name, never the label', () => {
    expect(lineDescription('Business cards', 1234)).toBe('Business cards (design 1234)');
    const short = lineDescription('Visitenkarten für Mitarbeiter der Zentrale', 1234, 40);
    expect(short).toBe('Visitenkarten für Mitar... (design 1234)');
    expect([...short].length).toBeLessThanOrEqual(40);
    expect(lineDescription('Business cards', 1234, 40)).toBe('Business cards (design 1234)');
  });
});

describe('supplierPartIds: sku-design over HTTP through the sandbox', () => {
  it('two designs of one product are two part numbers, and the PO that repeats them is placed unflagged', async () => {
    const stack = await createOrderStack(skuDesignConfig());
    const cart = await punchOut(stack, ['Business cards', 'Business cards']);
    expect(cart.map((line) => line.sku)).toEqual(cart.map((line) => `BC-STD-D${line.designId}`));
    expect(new Set(cart.map((line) => line.sku)).size).toBe(2);

    const answer = await sendOrder(stack, { orderID: 'PO-PARTS', lines: linesOf(cart) });
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
    const [po] = (await stack.store.orders.list()).items;
    expect(po?.flags).toEqual([]);
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-PARTS');
    const order = await stack.api.getOrder(printOrderId as number);
    expect(order.items.map((item) => item.product_id)).toEqual(cart.map((line) => line.designId));
  });

  it("a PO line naming another product's part is flagged with the part number the cart sent", async () => {
    const stack = await createOrderStack(skuDesignConfig());
    const [line] = await punchOut(stack, ['Business cards']);
    const answer = await sendOrder(stack, {
      orderID: 'PO-OTHER-PART',
      lines: [{ lineRef: line?.lineRef ?? '', sku: 'FLY-A5', quantity: '100', unitPrice: '0.12' }],
    });
    expect(answer.code).toBe(200);
    const [po] = (await stack.store.orders.list()).items;
    expect(po?.flags).toEqual(['sku_mismatch']);
    const detail = await stack.store.orders.get(po?.id ?? '');
    expect(JSON.stringify(detail?.document)).toContain(
      `"field":"sku","po":"FLY-A5","cart":"BC-STD-D${line?.designId}"`,
    );
  });

  it('a level-2 punch-out naming a sku-design part number opens its product in the editor', async () => {
    const stack = await createOrderStack(skuDesignConfig());
    const start = startUrlOf(await stack.postCxml(setupRequest({ selectedSku: 'FLY-A5-D987' })));
    const page = await stack.browse(start);
    expect(page.url).toContain('/editor/online-editor?productid=102&');
    const cart = await saveInEditor(stack, page, {});
    expect(cart.text).toMatch(/A5 flyer \(design \d+\)/);
  });
});
