/**
 * `JSON.stringify` of a big stored document, giving way to other requests between slices: a 5,000-line
 * PO's document is 4 MB of JSON, and writing it in one call held the event loop for 60–200 ms, so a
 * punch-in beside the PO's intake waited that long. Arrays of many elements (a PO's items, lines and
 * mismatches) are written a slice at a time, the event loop let run between; the text is exactly what
 * `JSON.stringify` writes. A document without such arrays is written in one call, at once.
 */
import type { JsonValue } from '../types.ts';

/** Elements written per slice; an array of fewer is written in one call with its parent. */
export const JSON_SLICE = 500;

/** How deep into nested objects big arrays are looked for (a PO: document → request → items). */
const MAX_DEPTH = 3;

const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
}

/** Whether `value` holds, within `depth` levels of plain objects, an array worth writing in slices. */
function hasBigArray(value: unknown, depth: number): boolean {
  if (Array.isArray(value)) return value.length >= JSON_SLICE;
  if (depth === 0 || !isPlainObject(value)) return false;
  for (const key in value) if (hasBigArray(value[key], depth - 1)) return true;
  return false;
}

async function write(value: unknown, depth: number): Promise<string | undefined> {
  if (!hasBigArray(value, depth)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let from = 0; from < value.length; from += JSON_SLICE) {
      await nextTurn();
      // Each slice as JSON.stringify writes an array (undefined and functions as null), without brackets.
      parts.push(JSON.stringify(value.slice(from, from + JSON_SLICE)).slice(1, -1));
    }
    return `[${parts.join(',')}]`;
  }
  const fields: string[] = [];
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const text = await write(field, depth - 1);
    // JSON.stringify leaves out a field whose value it cannot write (undefined, a function).
    if (text !== undefined) fields.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}

/**
 * The JSON text of `value`, as `JSON.stringify(value)` writes it, with the event loop let run between
 * slices of its big arrays.
 *
 * @example
 * const text = await jsonInSlices(order.document); // === JSON.stringify(order.document)
 */
export async function jsonInSlices(value: JsonValue): Promise<string> {
  const text = await write(value, MAX_DEPTH);
  if (text === undefined) throw new TypeError('jsonInSlices: the value has no JSON text');
  return text;
}
