/**
 * multipart/form-data (RFC 7578) read by hand from the body bytes, keeping every field's bytes undecoded so
 * the punch-in parser can apply the buyer's charset (Request.formData() would force UTF-8). File parts are
 * skipped but counted against the parameter limit. Odoo's OCI buyer module punches in this way.
 */

import { decodeLatin1Bytes } from './charset.ts';
import { OciError } from './error.ts';
import { checkParamCount, checkParamSize, type OciParseLimits } from './parse-limits.ts';
import type { RawParam } from './raw-param.ts';

const CRLF = Uint8Array.of(0x0d, 0x0a);
const HEADER_END = Uint8Array.of(0x0d, 0x0a, 0x0d, 0x0a);
const DASH = 0x2d;
const MAX_HEADER_BYTES = 8 * 1024;
const latin1Bytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

/**
 * Returns the non-file fields of a multipart body, in order.
 * `alreadyCounted` is the number of parameters seen before (the query's).
 */
export function parseMultipartFormData(
  body: Uint8Array,
  boundary: string,
  limits: OciParseLimits,
  alreadyCounted = 0,
): RawParam[] {
  if (!/^[\x21-\x7e ]{1,70}$/.test(boundary) || boundary.endsWith(' ')) {
    throw malformed('its multipart boundary is missing or invalid');
  }
  const delimiter = latin1Bytes(`--${boundary}`);
  const partSeparator = latin1Bytes(`\r\n--${boundary}`);
  const params: RawParam[] = [];
  let parts = 0;

  let position = indexOfBytes(body, delimiter, 0);
  if (position !== 0 && position !== -1) {
    // A preamble is allowed; the first delimiter then follows a line break like every other one.
    position = indexOfBytes(body, partSeparator, 0);
    if (position !== -1) position += CRLF.length;
  }
  if (position === -1) throw malformed('no multipart boundary line was found');

  for (;;) {
    let cursor = position + delimiter.length;
    if (body[cursor] === DASH && body[cursor + 1] === DASH) return params;
    while (body[cursor] === 0x20 || body[cursor] === 0x09) cursor++;
    if (!startsWithAt(body, CRLF, cursor)) throw malformed('a boundary line is not followed by a line break');
    const headerStart = cursor + CRLF.length;
    const headerEnd = startsWithAt(body, CRLF, headerStart)
      ? headerStart
      : indexOfBytes(body, HEADER_END, headerStart, headerStart + MAX_HEADER_BYTES);
    if (headerEnd === -1) throw malformed('a part has no end of headers');
    const contentStart =
      headerEnd === headerStart ? headerStart + CRLF.length : headerEnd + HEADER_END.length;
    const next = indexOfBytes(body, partSeparator, contentStart);
    if (next === -1) throw malformed('the closing boundary is missing');

    checkParamCount(alreadyCounted + ++parts, limits);
    const field = readDisposition(decodeLatin1Bytes(body.subarray(headerStart, headerEnd)));
    if (field !== undefined) {
      const param = { name: latin1Bytes(field), value: body.subarray(contentStart, next) };
      checkParamSize(param, limits);
      params.push(param);
    }
    position = next + CRLF.length;
  }
}

/**
 * The field name from a part's Content-Disposition, or undefined for file parts and parts without a name.
 * Browsers escape `"`, CR and LF in names as %22, %0D and %0A (HTML §4.10.21.8) instead of backslashes.
 */
function readDisposition(headerBlock: string): string | undefined {
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const disposition = parseDisposition(line.slice(colon + 1));
    if (disposition.type !== 'form-data') throw malformed('a part is not form-data');
    if (disposition.params.has('filename') || disposition.params.has('filename*')) return undefined;
    const name = disposition.params.get('name');
    return name?.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  }
  throw malformed('a part has no Content-Disposition header');
}

function parseDisposition(value: string): { type: string; params: ReadonlyMap<string, string> } {
  // Quoted names run to the next quote with no backslash escapes, as browsers write them.
  const semicolon = value.indexOf(';');
  const type = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const params = new Map<string, string>();
  if (semicolon !== -1) {
    for (const match of value.slice(semicolon).matchAll(/;\s*([^=;\s]+)\s*=\s*(?:"([^"]*)"|([^;\s]*))/g)) {
      const name = match[1]!.toLowerCase();
      if (!params.has(name)) params.set(name, match[2] ?? match[3]!);
    }
  }
  return { type, params };
}

function malformed(reason: string): OciError {
  return new OciError('malformed_body', `The multipart/form-data body cannot be read: ${reason}.`);
}

function startsWithAt(haystack: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at < 0 || at + needle.length > haystack.length) return false;
  for (let i = 0; i < needle.length; i++) {
    if (haystack[at + i] !== needle[i]) return false;
  }
  return true;
}

function indexOfBytes(
  haystack: Uint8Array,
  needle: Uint8Array,
  from: number,
  before = haystack.length,
): number {
  const last = Math.min(before, haystack.length) - needle.length;
  for (
    let at = haystack.indexOf(needle[0]!, from);
    at !== -1 && at <= last;
    at = haystack.indexOf(needle[0]!, at + 1)
  ) {
    if (startsWithAt(haystack, needle, at)) return at;
  }
  return -1;
}
