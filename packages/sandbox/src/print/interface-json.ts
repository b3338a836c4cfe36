/**
 * JSON as the interface writes it: "Decimal means a JSON number with a fractional part", so a decimal
 * field holding a whole amount is written `12.0`, not `12` (JSON.stringify drops the fraction). Clients
 * that map decimals by the token they read (a .NET `decimal`, a Java `BigDecimal`) see what a real
 * service sends. The GET answers and the webhook deliveries are written with it, so both stay alike.
 */
import { DECIMAL_FIELDS } from 'punchgate/schemas/print-api';

// A marker no value can contain by chance: the decimal's text travels through JSON.stringify as a string
// carrying it and is written back as a bare number afterwards.
const MARK = `decimal-${crypto.randomUUID()}:`;
const MARKED = new RegExp(`"${MARK}(-?\\d+\\.\\d+)"`, 'g');

/** The decimal's JSON text with a fractional part, or undefined to leave the number to JSON.stringify. */
function decimalText(value: number): string | undefined {
  // Beyond 1e21 (and below 1e-6) JavaScript writes numbers with an exponent; leave those alone.
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return undefined;
  const text = Number.isInteger(value) ? value.toFixed(1) : String(value);
  return /^-?\d+\.\d+$/.test(text) ? text : undefined;
}

/** `JSON.stringify(value)`, with every decimal field (by name, see DECIMAL_FIELDS) given a fraction. */
export function interfaceJson(value: unknown): string {
  return JSON.stringify(value, (key, field: unknown) => {
    if (typeof field !== 'number' || !DECIMAL_FIELDS.has(key)) return field;
    const text = decimalText(field);
    return text === undefined ? field : `${MARK}${text}`;
  }).replace(MARKED, '$1');
}
