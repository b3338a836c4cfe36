/**
 * Exact decimal money and quantities on BigInt, with strings at both ends: amounts arrive as the text a
 * buyer or a config wrote, are parsed into a `Decimal` (an integer of units and a count of decimals), and
 * leave as text again. Nothing passes through a binary double, so `0.12 × 3` is `0.36` and `1.2345` rounds
 * to `1.235` (Number#toFixed gives `1.234`).
 *
 * Rounding is half away from zero everywhere (half up for the non-negative amounts this gateway prices).
 * Pure and runtime-agnostic: pricing, the cXML and OCI codecs, order intake and the buyer simulator share it.
 *
 * @example
 * const total = multiplyDecimal(parseDecimal('0.12'), 500n); // 60.00 as { units: 6000n, scale: 2 }
 * formatDecimal(total, { minDecimals: 2, maxDecimals: 4 }); // '60.00'
 */

/** `units / 10^scale`, e.g. 12.50 is `{ units: 1250n, scale: 2 }`. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Which spellings a parse accepts beyond plain `12` and `12.50` (digits, an optional point with digits). */
export interface DecimalSyntax {
  /** A leading `+` or `-` (cXML Money may be a credit). Default: unsigned only. */
  readonly signed?: boolean;
  /** A point without digits on one side, `.5` and `5.`, as cXML documents write them. Default: refused. */
  readonly barePoint?: boolean;
  /** An exponent up to ±{@link MAX_EXPONENT}, `1.5e3` (cXML `%r8;`). Default: refused. */
  readonly exponent?: boolean;
}

/** Exponents beyond this are refused rather than expanded into hundreds of digits (`1e400`). */
const MAX_EXPONENT = 100;

/** Bad decimal text; the message says what was wrong and which spellings are accepted. */
export class DecimalSyntaxError extends Error {
  override readonly name = 'DecimalSyntaxError';
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function describeSyntax(syntax: DecimalSyntax): string {
  const sign = syntax.signed ? 'an optional sign, ' : '';
  const point = syntax.barePoint
    ? 'an optional decimal point'
    : 'an optional decimal point followed by digits';
  const exponent = syntax.exponent ? ` and an optional exponent up to ±${MAX_EXPONENT}` : '';
  return `${sign}digits, ${point}${exponent}, e.g. "12" or "0.50"`;
}

/**
 * Parses decimal text, throwing a `DecimalSyntaxError` that names the input and the accepted spelling.
 *
 * @example
 * parseDecimal('12.50'); // { units: 1250n, scale: 2 }
 * parseDecimal('-5'); // throws: "-5" is negative; expected digits, …
 */
export function parseDecimal(text: string, syntax: DecimalSyntax = {}): Decimal {
  const fail = (problem: string): never => {
    throw new DecimalSyntaxError(`"${text}" ${problem}; expected ${describeSyntax(syntax)}`);
  };
  const match = DECIMAL_TEXT.exec(text);
  if (match === null) return fail('is not a decimal number');
  const [, sign = '', whole = '', fraction, exponentText] = match;
  if (whole === '' && (fraction ?? '') === '') return fail('has no digits');
  if (!syntax.barePoint && (whole === '' || fraction === ''))
    return fail('has a decimal point without digits');
  if (sign !== '' && !syntax.signed) return fail(sign === '-' ? 'is negative' : 'has a sign');
  if (exponentText !== undefined) {
    if (!syntax.exponent) return fail('has an exponent');
    if (Math.abs(Number(exponentText)) > MAX_EXPONENT) return fail('has an exponent out of range');
  }
  const magnitude = BigInt(`${whole || '0'}${fraction ?? ''}`);
  const decimal = { units: sign === '-' ? -magnitude : magnitude, scale: (fraction ?? '').length };
  return exponentText === undefined ? decimal : shift(decimal, Number(exponentText));
}

/** The parsed value, or undefined where {@link parseDecimal} would throw. */
export function readDecimal(text: string, syntax: DecimalSyntax = {}): Decimal | undefined {
  try {
    return parseDecimal(text, syntax);
  } catch (error) {
    if (error instanceof DecimalSyntaxError) return undefined;
    throw error;
  }
}

/** Multiplies by 10^exponent without losing digits: a negative scale is folded into the units. */
function shift(value: Decimal, exponent: number): Decimal {
  const scale = value.scale - exponent;
  return scale >= 0
    ? { units: value.units, scale }
    : { units: value.units * 10n ** BigInt(-scale), scale: 0 };
}

/**
 * A finite number as the decimal text JavaScript prints for it, without exponent: 1e-7 → "0.0000001".
 * That text is the shortest that reads back as the same double, so `0.1` stays `0.1`.
 */
export function plainDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
  const text = String(value);
  const exponential = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponential) return text;
  const [, sign = '', lead = '', rest = '', exponent = '0'] = exponential;
  const digits = lead + rest;
  const point = lead.length + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A finite number as a Decimal, via {@link plainDecimal} (config prices are JSON numbers). */
export function decimalFromNumber(value: number): Decimal {
  return parseDecimal(plainDecimal(value), { signed: true });
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`; `0.12` and `0.120` are equal. */
export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const left = rescale(a, scale);
  const right = rescale(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function equalDecimals(a: Decimal, b: Decimal): boolean {
  return compareDecimals(a, b) === 0;
}

export function addDecimals(values: readonly Decimal[]): Decimal {
  const scale = Math.max(0, ...values.map((value) => value.scale));
  return { units: values.reduce((sum, value) => sum + rescale(value, scale), 0n), scale };
}

/** `a × b`, exact: the scales add up. */
export function multiplyDecimals(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/**
 * The value as a JavaScript integer when it is a whole number a double holds exactly (`5`, `5.00`, `5e2`);
 * undefined for a fraction or beyond `Number.MAX_SAFE_INTEGER`.
 */
export function safeIntegerOf(value: Decimal): number | undefined {
  const divisor = 10n ** BigInt(value.scale);
  if (value.units % divisor !== 0n) return undefined;
  const whole = Number(value.units / divisor);
  return Number.isSafeInteger(whole) ? whole : undefined;
}

/** The smallest whole number not below `value`: `1.2` gives 2, `-1.2` gives -1. */
export function ceilingOf(value: Decimal): bigint {
  const divisor = 10n ** BigInt(value.scale);
  const truncated = value.units / divisor;
  return value.units > truncated * divisor ? truncated + 1n : truncated;
}

/** An amount times a whole quantity, exact. */
export function multiplyDecimal(amount: Decimal, quantity: bigint | number): Decimal {
  if (typeof quantity === 'number' && !Number.isSafeInteger(quantity)) {
    throw new RangeError(`quantity ${quantity} is not a whole number`);
  }
  return { units: amount.units * BigInt(quantity), scale: amount.scale };
}

/** Divides `units` by a positive `divisor`, rounding half away from zero. */
function divideRounded(units: bigint, divisor: bigint): bigint {
  const magnitude = units < 0n ? -units : units;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return units < 0n ? -quotient : quotient;
}

/** Rounds half away from zero to at most `decimals` places (fewer places are kept as they are). */
export function roundDecimal(value: Decimal, decimals: number): Decimal {
  if (value.scale <= decimals) return value;
  return { units: divideRounded(value.units, 10n ** BigInt(value.scale - decimals)), scale: decimals };
}

/** `a ÷ b` rounded half away from zero to `decimals` places; RangeError when b is zero. */
export function divideDecimals(a: Decimal, b: Decimal, decimals: number): Decimal {
  if (b.units === 0n) throw new RangeError('division by zero');
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); computed scaled by 10^decimals.
  const numerator = a.units * 10n ** BigInt(decimals + b.scale);
  const denominator = b.units * 10n ** BigInt(a.scale);
  const negative = denominator < 0n;
  const quotient = divideRounded(negative ? -numerator : numerator, negative ? -denominator : denominator);
  return { units: quotient, scale: decimals };
}

/**
 * Decimal text: rounded half away from zero to `maxDecimals` places (default: all of them), trailing zeros
 * dropped down to `minDecimals`, no exponent, no leading zeros, no `-0`.
 *
 * @example
 * formatDecimal(parseDecimal('12.5'), { minDecimals: 2, maxDecimals: 4 }); // '12.50'
 * formatDecimal(parseDecimal('1.2345'), { minDecimals: 0, maxDecimals: 3 }); // '1.235'
 */
export function formatDecimal(
  value: Decimal,
  { minDecimals = 0, maxDecimals }: { minDecimals?: number; maxDecimals?: number } = {},
): string {
  const rounded = roundDecimal(value, Math.max(maxDecimals ?? value.scale, minDecimals));
  const scale = Math.max(rounded.scale, minDecimals);
  const units = rescale(rounded, scale);
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  let fraction = digits.slice(digits.length - scale);
  while (fraction.length > minDecimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${units < 0n ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
