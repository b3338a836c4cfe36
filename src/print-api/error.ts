/**
 * The one error type of the print-api client layer.
 *
 * Callers switch on `code`, a closed union, never on messages or class names. Messages name the call
 * (method and path under the base URL) and never carry credentials or PIPO session tokens: those travel in
 * headers, and the base URL, which might hold userinfo, is left out.
 */

export type PrintApiErrorCode =
  /** 401: credentials missing, wrong or below the license tier; a PIPO login with a wrong password. */
  | 'unauthorized'
  /** 403: PIPO session token expired or invalid; transfer refused. */
  | 'forbidden'
  /** 404: no such order, item, rendering, hook or project. */
  | 'not_found'
  /** 409 outside the download endpoints: duplicate user name or e-mail, target url already registered. */
  | 'conflict'
  /** 409 on a download endpoint: the merge has not finished; see `retryAfterSeconds`. */
  | 'files_not_ready'
  /** 400 and any other 4xx the interface does not name. */
  | 'bad_request'
  /** 413: the request was too large for the service. */
  | 'too_large'
  /** No complete answer within `timeoutMs`, a transport timeout, or 408 from the service. */
  | 'timeout'
  /** Network failure (refused, reset, DNS), 5xx or 429: worth trying again later. */
  | 'unavailable'
  /** The answer was not what the interface promises: bad JSON, wrong shape, unexpected status. */
  | 'invalid_response';

export interface PrintApiErrorDetails {
  /** The HTTP status of the answer; undefined when no answer arrived. */
  readonly status?: number | undefined;
  /** The service's own text: `{"Message": …}` or a plain-text body; undefined when the body was empty. */
  readonly serviceMessage?: string | undefined;
  /** Seconds the service asked to wait (Retry-After, as seconds or HTTP-date). */
  readonly retryAfterSeconds?: number | undefined;
  /** For `invalid_response` from a shape mismatch: where in the body, e.g. `items[0].quantity`. */
  readonly fieldPath?: string | undefined;
  readonly method?: string | undefined;
  /** Path under the base URL, e.g. `/api/v2/order/12/download`. */
  readonly path?: string | undefined;
  readonly cause?: unknown;
}

/**
 * Raised by every call of the client that did not get the answer the interface promises.
 *
 * @example
 * try {
 *   await api.getOrder(12);
 * } catch (err) {
 *   if (err instanceof PrintApiError && err.code === 'not_found') return undefined;
 *   throw err;
 * }
 */
export class PrintApiError extends Error {
  override readonly name = 'PrintApiError';
  readonly code: PrintApiErrorCode;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly fieldPath: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(code: PrintApiErrorCode, message: string, details: PrintApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.fieldPath = details.fieldPath;
    this.method = details.method;
    this.path = details.path;
  }
}

/** True for a PrintApiError, also across bundles where `instanceof` may fail. */
export function isPrintApiError(value: unknown): value is PrintApiError {
  return value instanceof PrintApiError || (value instanceof Error && value.name === 'PrintApiError');
}

/**
 * The failures that the same call, sent again later, may well not meet: the service away or overloaded,
 * or too slow this time. An answer we could not read (`invalid_response`) would most likely read the same.
 */
export function isRetryablePrintApiError(error: PrintApiError): boolean {
  return error.code === 'unavailable' || error.code === 'timeout';
}

/**
 * The code for a non-2xx status. `download` marks the ZIP download endpoints, where 409 means the merge
 * has not finished rather than a conflict.
 */
export function codeForStatus(status: number, download: boolean): PrintApiErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 408:
      return 'timeout';
    case 409:
      return download ? 'files_not_ready' : 'conflict';
    case 413:
      return 'too_large';
    case 429:
      return 'unavailable';
  }
  if (status >= 500) return 'unavailable';
  if (status >= 400) return 'bad_request';
  // 1xx and 3xx (a redirect that was not followed): the interface promises neither.
  return 'invalid_response';
}
