import { describe, expect, it } from 'vitest';
import {
  type CatalogEntry,
  priceBreaks,
  quantityBounds,
  quantityProblem,
} from '../../../src/gateway/punchout/catalog.ts';

function product(overrides: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    productId: 1,
    sku: 'BC-STD',
    name: 'Business cards',
    uom: 'EA',
    prices: [{ minQuantity: 1, unitPrice: 0.12 }],
    minQuantity: 1,
    maxQuantity: 100000,
    priceUnit: 1,
    ...overrides,
  };
}

describe('price breaks', () => {
  it('start at the minimum with the price that applies there, then each tier above it', () => {
    const cards = product({
      minQuantity: 100,
      prices: [
        { minQuantity: 500, unitPrice: 0.09 },
        { minQuantity: 1, unitPrice: 0.15 },
        { minQuantity: 100, unitPrice: 0.12 },
      ],
    });
    expect(priceBreaks(cards, 'EUR')).toEqual([
      { from: 100, unitPrice: '0.12' },
      { from: 500, unitPrice: '0.09' },
    ]);
  });

  it('the minimum inside a tier takes that tier’s price; tiers above the maximum are left out', () => {
    const cards = product({
      minQuantity: 250,
      maxQuantity: 900,
      prices: [
        { minQuantity: 1, unitPrice: 0.15 },
        { minQuantity: 200, unitPrice: 0.12 },
        { minQuantity: 500, unitPrice: 0.1 },
        { minQuantity: 1000, unitPrice: 0.08 },
      ],
    });
    expect(priceBreaks(cards, 'EUR')).toEqual([
      { from: 250, unitPrice: '0.12' },
      { from: 500, unitPrice: '0.10' },
    ]);
  });

  it('a single tier is one break', () => {
    expect(priceBreaks(product({ prices: [{ minQuantity: 1, unitPrice: 18.5 }] }), 'EUR')).toEqual([
      { from: 1, unitPrice: '18.50' },
    ]);
  });

  it("are written in the currency's decimals", () => {
    const prices = [{ minQuantity: 1, unitPrice: 1200 }];
    expect(priceBreaks(product({ prices }), 'JPY')).toEqual([{ from: 1, unitPrice: '1200' }]);
    expect(priceBreaks(product({ prices: [{ minQuantity: 1, unitPrice: 1.5 }] }), 'BHD')).toEqual([
      { from: 1, unitPrice: '1.500' },
    ]);
  });
});

describe('quantity bounds', () => {
  const cards = product({ minQuantity: 100, maxQuantity: 5000 });

  it('are the product’s minimum and maximum in whole steps', () => {
    expect(quantityBounds(cards)).toEqual({ min: 100, max: 5000, step: 1 });
  });

  it('accept whole numbers within them and name the range otherwise', () => {
    for (const ok of [100, 101, 5000]) expect(quantityProblem(cards, ok)).toBeUndefined();
    for (const bad of [99, 5001, 150.5, Number.NaN, 0, -100]) {
      expect(quantityProblem(cards, bad)).toBe(
        'The quantity for Business cards must be a whole number from 100 to 5000.',
      );
    }
  });
});
