import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDecimals,
  compareDecimals,
  type Decimal,
  DecimalSyntaxError,
  decimalFromNumber,
  divideDecimals,
  equalDecimals,
  formatDecimal as formatExact,
  multiplyDecimal,
  parseDecimal,
  plainDecimal,
  readDecimal,
} from '../../src/kernel/decimal.ts';

/** Plain decimal text formatted, or undefined when it is not plain (the OCI codec's use). */
function formatDecimal(
  text: string,
  options: { minDecimals: number; maxDecimals: number },
): string | undefined {
  const value = readDecimal(text);
  return value === undefined ? undefined : formatExact(value, options);
}

/** Writes `units / 10^scale` by inserting the point into the digits: a reference that shares no kernel code. */
function referenceText(units: bigint, scale: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const point = digits.length - scale;
  const text = scale === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return units < 0n ? `-${text}` : text;
}

const decimal: fc.Arbitrary<Decimal> = fc.record({
  units: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
  scale: fc.integer({ min: 0, max: 12 }),
});

describe('decimal formatting', () => {
  it.each([
    [1, '1'],
    [1.5, '1.5'],
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [1e21, '1000000000000000000000'],
    [1.25e21, '1250000000000000000000'],
    [123.456, '123.456'],
  ])('plainDecimal(%s) → %s', (value, text) => {
    expect(plainDecimal(value)).toBe(text);
  });

  it.each([
    ['1.2345', 0, 3, '1.235'],
    ['1.2344', 0, 3, '1.234'],
    ['9.9995', 0, 3, '10'],
    ['9.9995', 2, 3, '10.00'],
    ['0.0004', 0, 3, '0'],
    ['000012.500', 0, 3, '12.5'],
    ['12', 2, 4, '12.00'],
    ['99999999999999999999.99999', 2, 4, '100000000000000000000.00'],
  ])('formatDecimal(%s, min %s, max %s) → %s', (value, minDecimals, maxDecimals, text) => {
    expect(formatDecimal(value, { minDecimals, maxDecimals })).toBe(text);
  });

  it.each(['', '-1', '+1', '1e3', '1,5', ' 1', '1.', '.5', 'NaN'])('formatDecimal rejects %j', (value) => {
    expect(formatDecimal(value, { minDecimals: 0, maxDecimals: 3 })).toBeUndefined();
  });
});

describe('parseDecimal', () => {
  it.each([
    ['12', {}, { units: 12n, scale: 0 }],
    ['0.50', {}, { units: 50n, scale: 2 }],
    ['-5', { signed: true }, { units: -5n, scale: 0 }],
    ['+.5', { signed: true, barePoint: true }, { units: 5n, scale: 1 }],
    ['5.', { barePoint: true }, { units: 5n, scale: 0 }],
    ['1.5e3', { exponent: true }, { units: 1500n, scale: 0 }],
    ['15e-3', { exponent: true }, { units: 15n, scale: 3 }],
  ])('%s with %j', (text, syntax, value) => {
    expect(parseDecimal(text, syntax)).toEqual(value);
  });

  it.each([
    [
      '-5',
      {},
      '"-5" is negative; expected digits, an optional decimal point followed by digits, e.g. "12" or "0.50"',
    ],
    [
      '+5',
      {},
      '"+5" has a sign; expected digits, an optional decimal point followed by digits, e.g. "12" or "0.50"',
    ],
    [
      '1e400',
      { exponent: true },
      '"1e400" has an exponent out of range; expected digits, an optional decimal point followed by digits and an optional exponent up to ±100, e.g. "12" or "0.50"',
    ],
    [
      '1e3',
      {},
      '"1e3" has an exponent; expected digits, an optional decimal point followed by digits, e.g. "12" or "0.50"',
    ],
    [
      '.5',
      {},
      '".5" has a decimal point without digits; expected digits, an optional decimal point followed by digits, e.g. "12" or "0.50"',
    ],
    [
      '',
      { signed: true },
      '"" has no digits; expected an optional sign, digits, an optional decimal point followed by digits, e.g. "12" or "0.50"',
    ],
    [
      '1,5',
      { barePoint: true },
      '"1,5" is not a decimal number; expected digits, an optional decimal point, e.g. "12" or "0.50"',
    ],
  ])('refuses %j with %j, saying what it accepts', (text, syntax, message) => {
    expect(() => parseDecimal(text, syntax)).toThrow(new DecimalSyntaxError(message));
    expect(readDecimal(text, syntax)).toBeUndefined();
  });

  it('reads a number as the decimal JavaScript prints for it', () => {
    expect(decimalFromNumber(0.1)).toEqual({ units: 1n, scale: 1 });
    expect(decimalFromNumber(-2.5e-7)).toEqual({ units: -25n, scale: 8 });
    expect(() => decimalFromNumber(Number.NaN)).toThrow(RangeError);
  });
});

describe('decimal arithmetic', () => {
  it('parse ∘ format is the identity on the value', () => {
    fc.assert(
      fc.property(decimal, (value) => {
        const text = formatExact(value);
        expect(formatExact(value, { minDecimals: value.scale })).toBe(
          referenceText(value.units, value.scale),
        );
        expect(equalDecimals(parseDecimal(text, { signed: true }), value)).toBe(true);
        expect(formatExact(parseDecimal(text, { signed: true }))).toBe(text);
      }),
    );
  });

  it('multiplying by a quantity is exact', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (units, scale, quantity) => {
          const product = multiplyDecimal(parseDecimal(referenceText(units, scale)), quantity);
          expect(formatExact(product, { minDecimals: scale })).toBe(
            referenceText(units * BigInt(quantity), scale),
          );
        },
      ),
    );
  });

  it('comparison agrees with the difference, whatever the scales', () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const scale = Math.max(a.scale, b.scale);
        const difference =
          a.units * 10n ** BigInt(scale - a.scale) - b.units * 10n ** BigInt(scale - b.scale);
        const expected = difference < 0n ? -1 : difference > 0n ? 1 : 0;
        expect(compareDecimals(a, b)).toBe(expected);
        expect(compareDecimals(b, a)).toBe(-expected || 0);
        expect(equalDecimals(a, b)).toBe(formatExact(a) === formatExact(b));
        expect(compareDecimals(addDecimals([a, { units: 1n, scale: 12 }]), a)).toBe(1);
      }),
    );
  });

  it('rounds half away from zero', () => {
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 12 }), (value, decimals) => {
        const text = formatExact(value, { maxDecimals: decimals, minDecimals: decimals });
        const exact = formatExact(value, { minDecimals: 12 });
        const [whole = '', fraction = ''] = exact.replace('-', '').split('.');
        let kept = BigInt(whole + fraction.slice(0, decimals));
        if ((fraction[decimals] ?? '0') >= '5') kept += 1n;
        expect(text).toBe(referenceText(value.units < 0n && kept !== 0n ? -kept : kept, decimals));
      }),
    );
  });

  it('divides with rounding', () => {
    expect(formatExact(divideDecimals(parseDecimal('10'), parseDecimal('3'), 6))).toBe('3.333333');
    expect(formatExact(divideDecimals(parseDecimal('-2', { signed: true }), parseDecimal('3'), 2))).toBe(
      '-0.67',
    );
    expect(() => divideDecimals(parseDecimal('1'), parseDecimal('0'), 2)).toThrow(RangeError);
  });
});
