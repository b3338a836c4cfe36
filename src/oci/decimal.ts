/**
 * Exact decimal formatting for OCI numbers (QUANTITY, PRICE): dot separator, no exponent, no thousands
 * separators, rounding half up on the decimal digits rather than on the binary double (so 1.2345 → 1.235,
 * where Number#toFixed gives 1.234).
 */

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Writes a finite, non-negative number in plain decimal notation: 1e-7 → "0.0000001". */
export function plainDecimal(value: number): string {
  const text = String(value);
  const exponential = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponential) return text;
  const digits = exponential[1]! + (exponential[2] ?? '');
  const point = exponential[1]!.length + Number(exponential[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Rounds a plain non-negative decimal string half up to at most `maxDecimals` places, strips trailing zeros
 * down to `minDecimals` places and leading zeros of the integer part. Returns undefined for anything that is
 * not a plain decimal (signs, exponents, commas, blanks).
 *
 * @example
 * formatDecimal('12.5', { minDecimals: 2, maxDecimals: 4 }); // '12.50'
 * formatDecimal('1.2345', { minDecimals: 0, maxDecimals: 3 }); // '1.235'
 */
export function formatDecimal(
  value: string,
  { minDecimals, maxDecimals }: { minDecimals: number; maxDecimals: number },
): string | undefined {
  const match = PLAIN_DECIMAL.exec(value);
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  let scaled = BigInt(match[1]! + fraction.slice(0, maxDecimals).padEnd(maxDecimals, '0'));
  if ((fraction[maxDecimals] ?? '0') >= '5') scaled += 1n;
  const digits = scaled.toString().padStart(maxDecimals + 1, '0');
  const integerPart = digits.slice(0, digits.length - maxDecimals);
  let fractionPart = digits.slice(digits.length - maxDecimals);
  while (fractionPart.length > minDecimals && fractionPart.endsWith('0')) {
    fractionPart = fractionPart.slice(0, -1);
  }
  return fractionPart === '' ? integerPart : `${integerPart}.${fractionPart}`;
}
