/**
 * The one error type of the cXML codec. Every failure to read an inbound document is a `CxmlError`
 * whose `code` is one of a closed set, so callers switch on the code (see `cxmlStatusFor`) and show
 * `message`, which names the element or attribute at fault.
 */

/** Every code a `CxmlError` can carry, in the order the parser meets them. */
export const CXML_ERROR_CODES = [
  'too_large',
  'bad_mime',
  'malformed',
  'entity_forbidden',
  'too_deep',
  'not_cxml',
  'no_request',
  'unsupported_request',
  'missing_field',
  'invalid_value',
] as const;

export type CxmlErrorCode = (typeof CXML_ERROR_CODES)[number];

/**
 * A document punchgate will not accept, with the reason.
 *
 * @example
 * try {
 *   parseCxmlRequest(body);
 * } catch (error) {
 *   if (error instanceof CxmlError) console.log(error.code, error.message);
 * }
 */
export class CxmlError extends Error {
  override readonly name = 'CxmlError';
  readonly code: CxmlErrorCode;

  constructor(code: CxmlErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function isCxmlError(value: unknown): value is CxmlError {
  return value instanceof CxmlError;
}
