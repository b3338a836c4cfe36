/**
 * application/x-www-form-urlencoded parsing down to bytes, following the WHATWG algorithm (split on `&`,
 * first `=` separates name and value, `+` is a space, a `%` without two hex digits stays literal), but
 * stopping before charset decoding: WHATWG's URLSearchParams always decodes as UTF-8 and turns a Latin-1
 * `%FC` into U+FFFD.
 */

import { checkParamCount, checkParamSize, type OciParseLimits } from './parse-limits.ts';
import type { RawParam } from './raw-param.ts';

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;
const SPACE = 0x20;

/**
 * Splits urlencoded bytes into raw parameters, enforcing the limits as it goes.
 * `alreadyCounted` is the number of parameters seen before (the query's, when parsing a body).
 */
export function parseUrlencodedBytes(
  bytes: Uint8Array,
  limits: OciParseLimits,
  alreadyCounted = 0,
): RawParam[] {
  const params: RawParam[] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(AMPERSAND, start);
    if (end === -1) end = bytes.length;
    if (end > start) {
      checkParamCount(alreadyCounted + params.length + 1, limits);
      const pair = bytes.subarray(start, end);
      const equals = pair.indexOf(EQUALS);
      const param = {
        name: percentDecode(equals === -1 ? pair : pair.subarray(0, equals)),
        value: percentDecode(equals === -1 ? new Uint8Array(0) : pair.subarray(equals + 1)),
      };
      checkParamSize(param, limits);
      params.push(param);
    }
    start = end + 1;
  }
  return params;
}

/** Percent-decodes to bytes, `+` to space; malformed escapes are kept as they are. */
function percentDecode(input: Uint8Array): Uint8Array {
  const output = new Uint8Array(input.length);
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    if (byte === PLUS) {
      output[length++] = SPACE;
      continue;
    }
    if (byte === PERCENT && i + 2 < input.length) {
      const high = hexValue(input[i + 1]!);
      const low = hexValue(input[i + 2]!);
      if (high !== -1 && low !== -1) {
        output[length++] = (high << 4) | low;
        i += 2;
        continue;
      }
    }
    output[length++] = byte;
  }
  return output.subarray(0, length);
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
