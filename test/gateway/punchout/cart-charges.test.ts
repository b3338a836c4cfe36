/**
 * Quoting a cart's charges from the storefront's rules (pure): per line, tables by quantity and by weight,
 * the line that no row prices, and tax per line summed.
 */
import { describe, expect, it } from 'vitest';
import type { ChargeRules } from '../../../schemas/config.ts';
import { quoteCartCharges } from '../../../src/gateway/punchout/cart-charges.ts';

const HEADER = { taxExempt: false, taxAt: 'header' } as const;
const CARDS = { productName: 'Business cards', quantity: 500, amount: '45.00' };
const POSTERS = { productName: 'Poster', quantity: 4, amount: '74.00', weightKg: 0.3 };

function rules(shipping: ChargeRules['shipping'], tax?: ChargeRules['tax']): ChargeRules {
  return { shipping, shippingDescription: 'Shipping', ...(tax !== undefined && { tax }) };
}

describe('quoteCartCharges', () => {
  it('per line: the amount times the lines', () => {
    const quoted = quoteCartCharges(
      rules({ kind: 'per-line', amount: '4.50' }),
      HEADER,
      [CARDS, POSTERS],
      {},
    );
    expect(quoted).toEqual({ ok: true, charges: { shipping: { amount: '9.00', description: 'Shipping' } } });
  });

  it('a table: by quantity, or by weight for a product that has one; a line beyond the rows refuses', () => {
    const table = rules({
      kind: 'table',
      byQuantity: [
        { upTo: 499, amount: '5.00' },
        { upTo: 1000, amount: '8.00' },
      ],
      byWeight: [{ upTo: 1, amount: '6.50' }],
    });
    // Cards: quantity 500 → 8.00; posters: 4 × 0.3 kg = 1.2 kg, beyond the weight rows.
    expect(quoteCartCharges(table, HEADER, [CARDS], {})).toMatchObject({
      ok: true,
      charges: { shipping: { amount: '8.00' } },
    });
    expect(quoteCartCharges(table, HEADER, [CARDS, { ...POSTERS, quantity: 3 }], {})).toMatchObject({
      ok: true,
      charges: { shipping: { amount: '14.50' } },
    });
    expect(quoteCartCharges(table, HEADER, [CARDS, POSTERS], {})).toEqual({
      ok: false,
      productName: 'Poster',
      message:
        "The shipping of Poster at 1.2 kg cannot be quoted: the shop's shipping table has no row for it. Choose a smaller quantity, or ask the supplier.",
    });
  });

  it('tax per line, the header their sum; rounded half up to the cent; none without lines', () => {
    const taxed = rules(undefined, { percent: '7.5', byShipTo: [], description: 'VAT' });
    const lines = [
      { productName: 'A', quantity: 1, amount: '0.10' },
      { productName: 'B', quantity: 1, amount: '0.10' },
    ];
    // 7.5 % of 0.10 = 0.0075 → 0.01 each: 0.02 by the lines, 0.015 → 0.02 on the sum.
    expect(quoteCartCharges(taxed, { taxExempt: false, taxAt: 'line' }, lines, {})).toEqual({
      ok: true,
      charges: { tax: { amount: '0.02', description: 'VAT', percent: '7.5', lines: ['0.01', '0.01'] } },
    });
    expect(quoteCartCharges(taxed, HEADER, [], {})).toEqual({ ok: true, charges: {} });
    expect(quoteCartCharges(undefined, HEADER, lines, {})).toEqual({ ok: true, charges: {} });
  });
});
