/**
 * The gateway's one error type. Every failure a buyer, a browser or an operator can meet has a stable
 * `code`; `ERROR_ANSWERS` is the single place that turns a code into an HTTP status and a cXML Status code,
 * so the same failure reads the same on a cXML Response, an HTML page and the admin JSON.
 */

export type GatewayErrorCode =
  // Links and sessions
  | 'token_invalid'
  | 'token_expired'
  | 'token_used'
  | 'session_closed'
  | 'inspect_read_only'
  // Buyers and authentication
  | 'unknown_buyer'
  | 'bad_secret'
  | 'throttled'
  | 'return_host_not_allowed'
  // Request content
  | 'bad_request'
  | 'unknown_product'
  | 'invalid_quantity'
  | 'unknown_line'
  | 'foreign_line'
  | 'no_lines'
  | 'edit_without_lines'
  | 'design_not_owned'
  // The print service
  | 'upstream_unavailable'
  | 'upstream_rejected'
  // Purchase orders: a step the gateway will not guess at (e.g. whether a cut-off order create went through)
  | 'needs_operator'
  // Operators
  | 'unauthorized'
  | 'not_found'
  | 'conflict';

export class GatewayError extends Error {
  readonly code: GatewayErrorCode;
  constructor(code: GatewayErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayError';
    this.code = code;
  }
}

interface ErrorAnswer {
  /** Status of an HTML page or JSON answer. */
  http: number;
  /** cXML Status code (the HTTP status of a cXML answer is always 200). */
  cxml: number;
}

export const ERROR_ANSWERS: Record<GatewayErrorCode, ErrorAnswer> = {
  token_invalid: { http: 403, cxml: 403 },
  token_expired: { http: 410, cxml: 412 },
  token_used: { http: 410, cxml: 412 },
  session_closed: { http: 409, cxml: 412 },
  inspect_read_only: { http: 403, cxml: 403 },
  unknown_buyer: { http: 401, cxml: 401 },
  bad_secret: { http: 401, cxml: 401 },
  throttled: { http: 429, cxml: 403 },
  return_host_not_allowed: { http: 400, cxml: 400 },
  bad_request: { http: 400, cxml: 400 },
  unknown_product: { http: 404, cxml: 400 },
  invalid_quantity: { http: 400, cxml: 400 },
  unknown_line: { http: 404, cxml: 400 },
  foreign_line: { http: 403, cxml: 403 },
  no_lines: { http: 400, cxml: 400 },
  edit_without_lines: { http: 412, cxml: 412 },
  design_not_owned: { http: 403, cxml: 403 },
  // 500 tells a buyer's system the failure is temporary, so it tries again later.
  upstream_unavailable: { http: 503, cxml: 500 },
  upstream_rejected: { http: 502, cxml: 500 },
  needs_operator: { http: 409, cxml: 409 },
  unauthorized: { http: 401, cxml: 401 },
  not_found: { http: 404, cxml: 404 },
  conflict: { http: 409, cxml: 409 },
};

/** Canonical cXML status texts (cXML User's Guide, status code table). */
export const CXML_STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  417: 'Expectation Failed',
  450: 'Not Implemented',
  500: 'Internal Server Error',
};
