/**
 * Quoting a cart's charges from the storefront's rules (pure): per line, tables by quantity and by weight,
 * the line that no row prices, and tax per line summed.
 */
import { describe, expect, it } from 'vitest';
import type { ChargeRules } from '../../../schemas/config.ts';
import { quoteCartCharges } from '../../../src/gateway/punchout/cart-charges.ts';

const EUR = { shipTo: {}, currency: 'EUR' };
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
      EUR,
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
    expect(quoteCartCharges(table, HEADER, [CARDS], EUR)).toMatchObject({
      ok: true,
      charges: { shipping: { amount: '8.00' } },
    });
    expect(quoteCartCharges(table, HEADER, [CARDS, { ...POSTERS, quantity: 3 }], EUR)).toMatchObject({
      ok: true,
      charges: { shipping: { amount: '14.50' } },
    });
    expect(quoteCartCharges(table, HEADER, [CARDS, POSTERS], EUR)).toEqual({
      ok: false,
      productName: 'Poster',
      message:
        "The shipping of Poster at 1.2 kg cannot be quoted: the shop's shipping table has no row for it. Choose a smaller quantity, or ask the supplier.",
    });
  });

  it('tax per line, the header their sum; rounded half up to the cent; none without lines', () => {
    const taxed = rules(undefined, { percent: '7.5', onShipping: false, byShipTo: [], description: 'VAT' });
    const lines = [
      { productName: 'A', quantity: 1, amount: '0.10' },
      { productName: 'B', quantity: 1, amount: '0.10' },
    ];
    // 7.5 % of 0.10 = 0.0075 → 0.01 each: 0.02 by the lines, 0.015 → 0.02 on the sum.
    expect(quoteCartCharges(taxed, { taxExempt: false, taxAt: 'line' }, lines, EUR)).toEqual({
      ok: true,
      charges: { tax: { amount: '0.02', description: 'VAT', percent: '7.5', lines: ['0.01', '0.01'] } },
    });
    expect(quoteCartCharges(taxed, HEADER, [], EUR)).toEqual({ ok: true, charges: {} });
    expect(quoteCartCharges(undefined, HEADER, lines, EUR)).toEqual({ ok: true, charges: {} });
  });

  it("the currency's minor units: whole yen for JPY, fils for BHD, rounded half up once", () => {
    const vat = (percent: string) =>
      rules(
        { kind: 'flat', amount: '1234.5' },
        { percent, onShipping: false, byShipTo: [], description: 'Tax' },
      );
    // JPY: shipping 1234.5 → 1235; 10 % of 4 503 = 450.3 → 450.
    expect(
      quoteCartCharges(vat('10'), HEADER, [{ productName: 'Flyer', quantity: 1, amount: '4503' }], {
        shipTo: {},
        currency: 'JPY',
      }),
    ).toEqual({
      ok: true,
      charges: {
        shipping: { amount: '1235', description: 'Shipping' },
        tax: { amount: '450', description: 'Tax', percent: '10', lines: [] },
      },
    });
    // BHD, line tax: 5 % of 12.345 = 0.61725 → 0.617 and of 0.015 = 0.00075 → 0.001; header their sum.
    const lines = [
      { productName: 'A', quantity: 1, amount: '12.345' },
      { productName: 'B', quantity: 1, amount: '0.015' },
    ];
    expect(
      quoteCartCharges(vat('5'), { taxExempt: false, taxAt: 'line' }, lines, { shipTo: {}, currency: 'BHD' }),
    ).toEqual({
      ok: true,
      charges: {
        shipping: { amount: '1234.500', description: 'Shipping' },
        tax: { amount: '0.618', description: 'Tax', percent: '5', lines: ['0.617', '0.001'] },
      },
    });
  });

  it('tax on shipping: in the header one rounding of lines plus shipping; per line, the shipping taxed apart and named', () => {
    const taxed = rules(
      { kind: 'flat', amount: '9.95' },
      { percent: '20', onShipping: true, byShipTo: [], description: 'VAT' },
    );
    const lines = [
      { productName: 'A', quantity: 1, amount: '10.03' },
      { productName: 'B', quantity: 1, amount: '10.03' },
    ];
    // Header: 20 % of 30.01 = 6.002 → 6.00, of which the lines' 20.06 → 4.01 and the shipping 1.99.
    expect(quoteCartCharges(taxed, HEADER, lines, EUR)).toEqual({
      ok: true,
      charges: {
        shipping: { amount: '9.95', description: 'Shipping' },
        tax: { amount: '6.00', description: 'VAT', percent: '20', lines: [], shipping: '1.99' },
      },
    });
    // Lines: 2.006 → 2.01 each, shipping 1.99; the header 6.01 is their sum and says what it holds.
    expect(quoteCartCharges(taxed, { taxExempt: false, taxAt: 'line' }, lines, EUR)).toEqual({
      ok: true,
      charges: {
        shipping: { amount: '9.95', description: 'Shipping' },
        tax: {
          amount: '6.01',
          description: 'VAT (incl. 1.99 on shipping)',
          percent: '20',
          lines: ['2.01', '2.01'],
          shipping: '1.99',
        },
      },
    });
    // Without onShipping the same cart's tax is the lines' alone.
    const untaxed = rules(
      { kind: 'flat', amount: '9.95' },
      { percent: '20', onShipping: false, byShipTo: [], description: 'VAT' },
    );
    expect(quoteCartCharges(untaxed, HEADER, lines, EUR)).toMatchObject({
      charges: { tax: { amount: '4.01', description: 'VAT', lines: [] } },
    });
  });
});
