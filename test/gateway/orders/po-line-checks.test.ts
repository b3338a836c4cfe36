import { describe, expect, it } from 'vitest';
import { lineProblems } from '../../../src/gateway/orders/po-line-checks.ts';

const product = { sku: 'BC-STD', minQuantity: 100, maxQuantity: 5000 };
const terms = { product, currency: 'USD' };
const line = (quantity: string, value = '0.12', currency = 'USD') => ({
  quantity,
  unitPrice: { value, currency },
});

describe('lineProblems: what a PO line must carry to be ordered', () => {
  it('a line within the bounds, in the storefront currency, at a price of 0 or more has none', () => {
    for (const quantity of ['100', '5000', '250.000', '1.5e2', '+300', '2.5E+2']) {
      expect(lineProblems(line(quantity), terms), quantity).toEqual([]);
    }
    expect(lineProblems(line('100', '0'), terms)).toEqual([]);
    expect(lineProblems(line('100', '0.12', 'usd'), terms)).toEqual([]);
  });

  it('a quantity that is 0, fractional, outside the bounds or unreadable names the bounds', () => {
    for (const quantity of ['0', '99', '5001', '100.5', '1e50', '1e-2', 'lots', '-100']) {
      expect(lineProblems(line(quantity), terms), quantity).toEqual([
        `quantity ${quantity} is not a whole number from 100 to 5000 (product BC-STD)`,
      ]);
    }
  });

  it('a product gone from the catalog still needs a positive whole quantity', () => {
    const gone = { product: undefined, currency: 'USD' };
    expect(lineProblems(line('3'), gone)).toEqual([]);
    expect(lineProblems(line('0'), gone)).toEqual(['quantity 0 is not a positive whole number']);
    expect(lineProblems(line('0.5'), gone)).toEqual(['quantity 0.5 is not a positive whole number']);
  });

  it('a negative or unreadable price, and another currency, each named; all problems in order', () => {
    expect(lineProblems(line('100', '-5'), terms)).toEqual(['unit price -5 is negative']);
    expect(lineProblems(line('100', '0,12'), terms)).toEqual(['unit price 0,12 is not a number']);
    expect(lineProblems(line('100', '0.12', 'EUR'), terms)).toEqual([
      "currency EUR is not the storefront's currency USD",
    ]);
    expect(lineProblems(line('0', '-0.01', 'EUR'), terms)).toEqual([
      'quantity 0 is not a whole number from 100 to 5000 (product BC-STD)',
      'unit price -0.01 is negative',
      "currency EUR is not the storefront's currency USD",
    ]);
  });
});
