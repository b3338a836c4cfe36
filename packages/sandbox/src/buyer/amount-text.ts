/**
 * The simulator's view of the amounts in the documents it reads: text in, text out, on the kernel's exact
 * decimals (`0.12` × `500` is `60.00`, never `60.00000000000001`). A buyer system is lenient, so text
 * around a number and a bare point (`.5`) are accepted, a value that is no number yields undefined for the
 * caller to report, and results are shown as amounts: at least two decimals, no trailing zeros beyond.
 */
import {
  addDecimals as addExact,
  type Decimal,
  divideDecimals as divideExact,
  formatDecimal,
  multiplyDecimals as multiplyExact,
  readDecimal,
} from 'punchgate/kernel';

function read(text: string): Decimal | undefined {
  return readDecimal(text.trim(), { signed: true, barePoint: true });
}

function show(value: Decimal): string {
  return formatDecimal(value, { minDecimals: 2 });
}

/** True when `text` is a plain decimal number such as `12`, `0.5` or `-3.25`. */
export function isDecimal(text: string): boolean {
  return read(text) !== undefined;
}

/** `a × b`, or undefined when either is not a decimal. */
export function multiplyDecimals(a: string, b: string): string | undefined {
  const x = read(a);
  const y = read(b);
  return x === undefined || y === undefined ? undefined : show(multiplyExact(x, y));
}

/** The sum, or undefined when any value is not a decimal. An empty list sums to `0.00`. */
export function addDecimals(values: readonly string[]): string | undefined {
  const parsed = values.map(read);
  if (parsed.some((value) => value === undefined)) return undefined;
  return show(addExact(parsed as Decimal[]));
}

/** `a ÷ b` rounded half away from zero to `maxScale` decimals; undefined for non-decimals or b = 0. */
export function divideDecimals(a: string, b: string, maxScale: number): string | undefined {
  const x = read(a);
  const y = read(b);
  if (x === undefined || y === undefined || y.units === 0n) return undefined;
  return show(divideExact(x, y, maxScale));
}
