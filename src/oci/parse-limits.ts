/**
 * Bounds on the work and memory one punch-in request can cost. The route should still refuse an oversized
 * body before reading it; these limits protect the parser itself.
 */

import { OciError } from './error.ts';
import type { RawParam } from './raw-param.ts';

export interface OciParseLimits {
  /** Parameters in query and body together (multipart file parts count too). */
  readonly maxParams: number;
  /** Bytes of one parameter name after percent-decoding. */
  readonly maxNameBytes: number;
  /** Bytes of one parameter value after percent-decoding. */
  readonly maxValueBytes: number;
  /** Bytes of the raw query string. */
  readonly maxQueryBytes: number;
  /** Bytes of the request body. */
  readonly maxBodyBytes: number;
}

/** Generous for SAP SRM-MDM's two dozen parameters and long ITS HOOK_URLs, small enough to refuse floods. */
export const DEFAULT_OCI_PARSE_LIMITS: OciParseLimits = {
  maxParams: 200,
  maxNameBytes: 256,
  maxValueBytes: 16 * 1024,
  maxQueryBytes: 32 * 1024,
  maxBodyBytes: 256 * 1024,
};

/** Throws too_many_params once `count` parameters exceed the limit. */
export function checkParamCount(count: number, limits: OciParseLimits): void {
  if (count > limits.maxParams) {
    throw new OciError(
      'too_many_params',
      `The request has more than ${limits.maxParams} parameters; a punch-in needs far fewer.`,
    );
  }
}

/** Throws param_too_large for an oversized name or value; the message names the parameter, never its value. */
export function checkParamSize(param: RawParam, limits: OciParseLimits): void {
  if (param.name.length > limits.maxNameBytes) {
    throw new OciError('param_too_large', `A parameter name is longer than ${limits.maxNameBytes} bytes.`);
  }
  if (param.value.length > limits.maxValueBytes) {
    const shown = printableName(param.name);
    throw new OciError(
      'param_too_large',
      `The value of parameter "${shown}" is longer than ${limits.maxValueBytes} bytes.`,
      shown,
    );
  }
}

/** Printable ASCII of a name for messages; other bytes show as `?`. */
function printableName(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '?';
  return text;
}
