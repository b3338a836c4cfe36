/**
 * Checks of what a caller hands to the client. Misuse is a programming error, so it throws TypeError at
 * call time instead of becoming a request the service would refuse in its own words.
 */
import type { z } from 'zod';
import { formatFieldPath } from './read-answer.ts';

/** A positive integer id, as every path parameter of the interface is. */
export function checkId(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${what} must be a positive integer`);
  }
  return value;
}

// Session tokens go into a header: printable ASCII only, so nothing can split it.
const HEADER_VALUE = /^[\x21-\x7e]+$/;

/** A PIPO session token; the message never repeats the value. */
export function checkSessionToken(value: unknown): string {
  if (typeof value !== 'string' || !HEADER_VALUE.test(value)) {
    throw new TypeError('sessionToken must be a non-empty string of printable ASCII characters');
  }
  return value;
}

/** Parses `value` with `schema` and returns the parsed copy (unknown keys dropped). */
export function checkBody<S extends z.ZodType>(what: string, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = formatFieldPath(issue.path);
  throw new TypeError(`${what}${field === '' ? '' : `.${field}`}: ${issue.message}`);
}
