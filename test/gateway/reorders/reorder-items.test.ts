/**
 * The reorder items a placed PO makes, from its stored lines: one per designed line whose product is still
 * configured, at the PO's own quantity, price and price basis; none for a product ordered as it is, a line
 * without a cart line, or a product gone from the catalog.
 */
import { describe, expect, it } from 'vitest';
import type { PoLine } from '../../../src/gateway/orders/po-record.ts';
import { reorderItemsOf, reorderPartId } from '../../../src/gateway/reorders/reorder-items.ts';
import { createEditorUrls } from '../../../src/print-api/editor-urls.ts';
import { resolveTestConfig, SANDBOX_ORIGIN, testConfig } from '../../support/stack.ts';

const config = resolveTestConfig(testConfig());
const ctx = {
  storefront: (id: string) => config.storefronts.find((s) => s.id === id)!,
  editorUrlsFor: () => createEditorUrls(`${SANDBOX_ORIGIN}/editor`),
};
const ORDER = { id: '42', buyerId: 'acme', createdAt: new Date('2026-11-22T10:00:00Z') };

function line(overrides: Partial<PoLine>): PoLine {
  return {
    lineNumber: 1,
    lineRef: 'L-AAAAAAAA',
    supplierPartID: 'BC-STD',
    description: 'Business cards',
    quantity: '2500',
    unitOfMeasure: 'EA',
    unitPrice: { value: '85.00', currency: 'USD' },
    priceBasis: { quantity: '1000', conversionFactor: '1', unitOfMeasure: 'EA' },
    comments: '',
    storefrontId: 'demo',
    userRef: 'jroe',
    designId: 5001,
    cart: { sku: 'BC-STD', quantity: 2000, unitPrice: '0.09', currency: 'USD', state: 'ordered' },
    ...overrides,
  };
}

/** A line without its cart line, as a PO line naming a part id alone has it. */
function withoutCart(l: PoLine): PoLine {
  const { cart: _cart, ...rest } = l;
  return rest;
}

/** A line without a PriceBasisQuantity: its price is for one unit. */
function withoutPriceBasis(l: PoLine): PoLine {
  const { priceBasis: _basis, ...rest } = l;
  return rest;
}

describe('reorder items of a placed PO', () => {
  it('the part number is R-<SKU>-<design id>', () => {
    expect(reorderPartId('BC-STD', 5001)).toBe('R-BC-STD-5001');
  });

  it("one per designed line of a configured product, at the PO's quantity, price and price basis", () => {
    const lines = [
      line({}),
      line({ lineNumber: 2, designId: 7, asIs: true }),
      withoutCart(line({ lineNumber: 3, designId: 8 })),
      line({ lineNumber: 4, designId: 9, cart: { ...line({}).cart!, sku: 'GONE' } }),
      withoutPriceBasis(
        line({
          lineNumber: 5,
          designId: 6001,
          quantity: '12.5',
          unitPrice: { value: '0.35', currency: 'USD' },
          cart: { sku: 'FLY-A5', quantity: 12, unitPrice: '0.35', currency: 'USD', state: 'ordered' },
        }),
      ),
    ];
    expect(reorderItemsOf(ctx, ORDER, { lines })).toStrictEqual([
      {
        buyerId: 'acme',
        partId: 'R-BC-STD-5001',
        storefrontId: 'demo',
        userRef: 'jroe',
        designId: 5001,
        productId: 101,
        sku: 'BC-STD',
        name: 'Business cards (design 5001)',
        thumbnailUrl: `${SANDBOX_ORIGIN}/editor/productthumb.ashx?p=5001&w=200&h=140`,
        quantity: 2500,
        unitPrice: '85.00',
        priceUnit: 1000,
        currency: 'USD',
        uom: 'EA',
        poId: '42',
        orderedAt: ORDER.createdAt,
      },
      expect.objectContaining({ partId: 'R-FLY-A5-6001', quantity: 12, unitPrice: '0.35' }),
    ]);
    expect(reorderItemsOf(ctx, ORDER, { lines })[1]).not.toHaveProperty('priceUnit');
  });
});
