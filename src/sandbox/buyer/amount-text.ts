/**
 * Exact decimal arithmetic on the strings documents carry (`0.12` × `500` is `60.00`, never
 * `60.00000000000001`), on BigInt so any number of digits is exact. Results have at least two decimals,
 * as amounts are shown, and no trailing zeros beyond those.
 */

interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

function parse(text: string): Decimal | undefined {
  const match = DECIMAL.exec(text.trim());
  if (match === null) return undefined;
  const whole = match[2] ?? '';
  const fraction = match[3] ?? '';
  if (whole === '' && fraction === '') return undefined;
  const units = BigInt(`${whole || '0'}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

function format(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  let fraction = digits.slice(digits.length - value.scale).replace(/0+$/, '');
  fraction = fraction.padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** True when `text` is a plain decimal number such as `12`, `0.5` or `-3.25`. */
export function isDecimal(text: string): boolean {
  return parse(text) !== undefined;
}

/** `a × b`, or undefined when either is not a decimal. */
export function multiplyDecimals(a: string, b: string): string | undefined {
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined) return undefined;
  return format({ units: x.units * y.units, scale: x.scale + y.scale });
}

/** The sum, or undefined when any value is not a decimal. An empty list sums to `0.00`. */
export function addDecimals(values: readonly string[]): string | undefined {
  const parsed = values.map(parse);
  if (parsed.some((value) => value === undefined)) return undefined;
  const decimals = parsed as Decimal[];
  const scale = Math.max(0, ...decimals.map((value) => value.scale));
  const units = decimals.reduce((sum, value) => sum + rescale(value, scale), 0n);
  return format({ units, scale });
}

/** `a ÷ b` rounded half away from zero to `maxScale` decimals; undefined for non-decimals or b = 0. */
export function divideDecimals(a: string, b: string, maxScale: number): string | undefined {
  const x = parse(a);
  const y = parse(b);
  if (x === undefined || y === undefined || y.units === 0n) return undefined;
  // x/y = (x.units / 10^x.scale) / (y.units / 10^y.scale); compute it scaled by 10^maxScale.
  const numerator = x.units * 10n ** BigInt(maxScale + y.scale);
  const denominator = y.units * 10n ** BigInt(x.scale);
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  let quotient = n / d;
  if ((n % d) * 2n >= d) quotient += 1n;
  return format({ units: negative ? -quotient : quotient, scale: maxScale });
}
