import { describe, expect, it } from 'vitest';
import { formatDecimal, parseDecimal } from '../../src/kernel/decimal.ts';
import {
  formatMoney,
  formatUnitPrice,
  lineAmount,
  minorUnits,
  ONE,
  priceBasisOf,
  priceForBasis,
  pricePerUnit,
} from '../../src/kernel/money.ts';

const d = (text: string) => parseDecimal(text);
const perThousand = { quantity: d('1000'), conversionFactor: ONE };

describe('minorUnits', () => {
  it('gives ISO 4217 figures, the same on every runtime', () => {
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('KRW')).toBe(0);
    expect(minorUnits('BHD')).toBe(3);
    expect(minorUnits('KWD')).toBe(3);
    expect(minorUnits('IQD')).toBe(3);
    expect(minorUnits('CLF')).toBe(4);
    // Where Intl (CLDR) says 0 on Node, ISO 4217 says 2.
    expect(minorUnits('HUF')).toBe(2);
    expect(minorUnits('IDR')).toBe(2);
    expect(minorUnits('EUR')).toBe(2);
    expect(minorUnits(' jpy ')).toBe(0);
    expect(minorUnits('XYZ')).toBe(2);
  });
});

describe('formatMoney', () => {
  it('writes JPY without decimals, BHD with three, EUR with two', () => {
    expect(formatMoney(d('1234.5'), 'JPY')).toBe('1235');
    expect(formatMoney(d('1200'), 'JPY')).toBe('1200');
    expect(formatMoney(d('1.2345'), 'BHD')).toBe('1.235');
    expect(formatMoney(d('1.2'), 'BHD')).toBe('1.200');
    expect(formatMoney(d('12.5'), 'EUR')).toBe('12.50');
    expect(formatMoney(parseDecimal('-0.125', { signed: true }), 'EUR')).toBe('-0.13');
  });

  it('keeps a unit price at up to four decimals, never below the currency', () => {
    expect(formatUnitPrice(d('0.04525'), 'EUR')).toBe('0.0453');
    expect(formatUnitPrice(d('45.2'), 'EUR')).toBe('45.20');
    expect(formatUnitPrice(d('45'), 'JPY')).toBe('45');
    expect(formatUnitPrice(d('0.5'), 'JPY')).toBe('0.5');
    expect(formatUnitPrice(d('1.5'), 'BHD')).toBe('1.500');
  });
});

describe('lineAmount', () => {
  it('rounds once, after the price basis is applied', () => {
    // 2,500 × 45.27 / 1,000 = 113.175 → 113.18; per piece first (0.0453 × 2,500) would give 113.25.
    expect(formatDecimal(lineAmount(d('2500'), d('45.27'), perThousand, 'EUR'))).toBe('113.18');
    expect(formatDecimal(lineAmount(d('3'), d('0.125'), undefined, 'EUR'))).toBe('0.38');
    expect(formatDecimal(lineAmount(d('1500'), d('333'), perThousand, 'JPY'))).toBe('500');
    expect(formatDecimal(lineAmount(d('7'), d('0.1235'), undefined, 'BHD'))).toBe('0.865');
  });

  it('applies the conversion factor from the ordered unit to the basis unit', () => {
    // 3 boxes of 500 sheets at 9.00 per 1,000 sheets.
    const basis = { quantity: d('1000'), conversionFactor: d('500') };
    expect(lineAmount(d('3'), d('9'), basis, 'EUR')).toEqual({ units: 1350n, scale: 2 });
  });

  it('converts between a per-N price and a per-unit price', () => {
    expect(pricePerUnit(d('45.20'), perThousand, 6)).toEqual({ units: 45200n, scale: 6 });
    expect(priceForBasis(d('0.0452'), perThousand, 4)).toEqual({ units: 452000n, scale: 4 });
    expect(priceBasisOf(1)).toBeUndefined();
    expect(priceBasisOf(1000)).toEqual(perThousand);
    expect(() => priceBasisOf(0)).toThrow(RangeError);
  });
});
