/**
 * Checks of what a caller hands to the client. Misuse is a programming error, so it throws TypeError at
 * call time instead of becoming a request the service would refuse in its own words.
 */
import type { z } from 'zod';
import { formatFieldPath } from './field-path.ts';

/** A positive integer: every id in a path of the interface, and sizes in pixels. */
export function checkPositiveInteger(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${what} must be a positive integer`);
  }
  return value;
}

// Session tokens go into a header: printable ASCII only, so nothing can split it.
const HEADER_VALUE = /^[\x21-\x7e]+$/;

/**
 * `value` parsed when it is an absolute http(s) URL, else undefined: the caller refuses it in words that
 * name its option.
 */
export function parseHttpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

/** A base URL as the prefix of the paths appended to it: without its trailing slashes. */
export function urlPrefix(url: URL): string {
  return url.href.replace(/\/+$/, '');
}

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
