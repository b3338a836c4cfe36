import { describe, expect, it } from 'vitest';
import {
  exactPriceBasis,
  formatPrice,
  formatTotal,
  lineTotal,
  priceBasisQuantity,
  pricedUnitText,
  unitPriceFor,
} from '../../../src/gateway/punchout/pricing.ts';

const product = {
  prices: [
    { minQuantity: 1, unitPrice: 0.12 },
    { minQuantity: 500, unitPrice: 0.09 },
    { minQuantity: 250, unitPrice: 0.1 },
  ],
};

describe('pricing', () => {
  it.each([
    [1, 0.12],
    [249, 0.12],
    [250, 0.1],
    [499, 0.1],
    [500, 0.09],
    [100000, 0.09],
  ])('quantity %i costs %d a unit, whatever the order of the tiers', (quantity, price) => {
    expect(unitPriceFor(product, quantity)).toBe(price);
  });

  it('refuses a quantity below every tier', () => {
    expect(() => unitPriceFor(product, 0)).toThrow(RangeError);
  });

  it('computes totals without floating-point noise', () => {
    expect(formatTotal([lineTotal({ unitPrice: 0.12, quantity: 3 }, 'EUR')], 'EUR')).toBe('0.36');
    expect(formatTotal(['0.1', '0.2'], 'EUR')).toBe('0.30');
  });

  it('totals a price per thousand exactly, rounded once in the currency', () => {
    const line = { unitPrice: '45.27', priceUnit: 1000, quantity: 2500 };
    // 2,500 × 45.27 ÷ 1,000 = 113.175: one rounding gives 113.18 (a per-piece 0.0453 first would give 113.25).
    expect(formatTotal([lineTotal(line, 'EUR')], 'EUR')).toBe('113.18');
    expect(
      formatTotal([lineTotal({ unitPrice: '4527', priceUnit: 1000, quantity: 2500 }, 'JPY')], 'JPY'),
    ).toBe('11318');
    expect(formatTotal([lineTotal({ unitPrice: 0.1235, quantity: 7 }, 'BHD')], 'BHD')).toBe('0.865');
  });

  it('names a price basis for cXML and for pages', () => {
    expect(priceBasisQuantity(1000, 'EA')).toEqual({
      quantity: '1000',
      conversionFactor: '1',
      unitOfMeasure: 'EA',
    });
    expect(priceBasisQuantity(1, 'EA')).toBeUndefined();
    expect(priceBasisQuantity(undefined, 'EA')).toBeUndefined();
    expect(exactPriceBasis({ quantity: '1e3', conversionFactor: '1' })).toEqual({
      quantity: { units: 1000n, scale: 0 },
      conversionFactor: { units: 1n, scale: 0 },
    });
    expect(pricedUnitText(1000, 'EA')).toBe('1,000 EA');
    expect(pricedUnitText(undefined, 'EA')).toBe('EA');
  });

  it.each([
    [1, '1.00'],
    [10.5, '10.50'],
    [0.125, '0.125'],
    [0.1234, '0.1234'],
    [1234.56789, '1234.5679'],
  ])('formats %d as %s', (amount, text) => {
    expect(formatPrice(amount, 'EUR')).toBe(text);
  });

  it("formats a unit price in the currency's decimals", () => {
    expect(formatPrice(1200, 'JPY')).toBe('1200');
    expect(formatPrice('0.5', 'JPY')).toBe('0.5');
    expect(formatPrice(1.25, 'BHD')).toBe('1.250');
  });
});
