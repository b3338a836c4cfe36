import { describe, expect, it } from 'vitest';
import { formatAmount, lineTotal, sumAmounts, unitPriceFor } from '../../../src/gateway/punchout/pricing.ts';

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
    expect(lineTotal(0.12, 3)).toBe(0.36);
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
  });

  it.each([
    [1, '1.00'],
    [10.5, '10.50'],
    [0.125, '0.125'],
    [0.1234, '0.1234'],
    [1234.56789, '1234.5679'],
  ])('formats %d as %s', (amount, text) => {
    expect(formatAmount(amount)).toBe(text);
  });
});
