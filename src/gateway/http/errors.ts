/**
 * The gateway's one error type and its one funnel. Every failure a buyer, a browser or an operator can meet
 * has a stable `code`; `ERROR_ANSWERS` is the single place that turns a code into an HTTP status and a cXML
 * Status code, so the same failure reads the same on a cXML Response, an HTML page and the admin JSON.
 * `toGatewayError` turns anything thrown into one of these codes (a bug is `internal`, never an outage of
 * the print service), `publicMessage` says what a user may read of it, and `logFailure` logs it: 5xx and
 * bugs at error level with their cause, refusals (4xx) at info.
 */
import { isPrintApiError, isRetryablePrintApiError, PrintApiError } from '../../print-api/index.ts';
import { StoreError } from '../../store/store-error.ts';
import type { OrderState } from '../../store/types.ts';
import type { LogFields, Logger } from '../deps.ts';

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
  // A document's deploymentMode its credentials may not open (a test credential sending production, say)
  | 'deployment_mode_refused'
  // Request content
  | 'bad_request'
  | 'payload_too_large'
  | 'unknown_product'
  | 'invalid_quantity'
  | 'unknown_line'
  | 'foreign_line'
  | 'invalid_line'
  | 'deviating_line'
  | 'reused_order_id'
  // A PO ordering cart lines of the other deployment mode, or repeating an orderID of the other mode
  | 'deployment_mode_mismatch'
  | 'no_lines'
  | 'edit_without_lines'
  | 'design_not_owned'
  // The print service
  | 'upstream_unavailable'
  | 'upstream_rejected'
  // Our own database away (StoreError 'unavailable'): retryable, and not the print service's doing
  | 'store_unavailable'
  // A bug: anything thrown that is none of the above
  | 'internal'
  // Purchase orders: a step the gateway will not guess at (e.g. whether a cut-off order create went through)
  | 'needs_operator'
  // Operators
  | 'unauthorized'
  | 'not_found'
  | 'conflict';

export class GatewayError extends Error {
  readonly code: GatewayErrorCode;
  /** Seconds until trying again can help (`throttled`): the `Retry-After` of a page or JSON answer. */
  readonly retryAfterSeconds?: number;
  constructor(
    code: GatewayErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'GatewayError';
    this.code = code;
    if (options?.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * An operator's action on a PO that changed since they saw it: a 409 whose JSON answer carries the PO's
 * state and `updatedAt` as they are now (json-answers.ts), so tooling can show what it is instead. Kept
 * beside GatewayError so that every route's JSON answers can tell it without importing the operator's
 * actions.
 */
export class StaleRecordError extends GatewayError {
  readonly current: { state: OrderState; updatedAt: Date };
  constructor(message: string, current: { state: OrderState; updatedAt: Date }) {
    super('conflict', message);
    this.current = current;
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
  deployment_mode_refused: { http: 403, cxml: 403 },
  bad_request: { http: 400, cxml: 400 },
  // A body past its surface's limit (body-limits.ts); cXML says 406, as buyers' systems have always heard.
  payload_too_large: { http: 413, cxml: 406 },
  unknown_product: { http: 404, cxml: 400 },
  invalid_quantity: { http: 400, cxml: 400 },
  unknown_line: { http: 404, cxml: 400 },
  foreign_line: { http: 403, cxml: 403 },
  invalid_line: { http: 400, cxml: 400 },
  // The PO is well-formed but differs from the agreed cart, and the buyer asked for such POs to be refused.
  deviating_line: { http: 409, cxml: 409 },
  // A new order under the orderID of a stored, different one: a change is sent as type="update".
  reused_order_id: { http: 409, cxml: 409 },
  deployment_mode_mismatch: { http: 400, cxml: 400 },
  no_lines: { http: 400, cxml: 400 },
  edit_without_lines: { http: 412, cxml: 412 },
  design_not_owned: { http: 403, cxml: 403 },
  // 500 tells a buyer's system the failure is temporary, so it tries again later.
  upstream_unavailable: { http: 503, cxml: 500 },
  upstream_rejected: { http: 502, cxml: 500 },
  store_unavailable: { http: 503, cxml: 500 },
  internal: { http: 500, cxml: 500 },
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

/** What a page or JSON answer says while the store is away (the monitors' and the buyers' cue to retry). */
const STORE_AWAY_TEXT = 'Something went wrong on our side. Please try again in a moment.';
/** The same for a cXML Status: buyers' systems resend a document after a 500. */
const STORE_AWAY_CXML_TEXT = 'The gateway could not handle this request now; it is safe to send it again.';
/** What a bug looks like to a user: no cause, no stack, no promise that trying again helps. */
const INTERNAL_TEXT = 'Something went wrong on our side; the error has been logged for the operators.';

/**
 * Any thrown value as a GatewayError: a GatewayError as it is, the store's and the print service's errors
 * translated, anything else `internal` with the original as its `cause` (for the log, never for a user).
 */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof StoreError) {
    switch (error.code) {
      case 'unavailable':
        return new GatewayError('store_unavailable', STORE_AWAY_TEXT, { cause: error });
      case 'conflict':
        return new GatewayError('conflict', 'The record changed meanwhile; read it again and retry.', {
          cause: error,
        });
      case 'invalid':
        return new GatewayError('bad_request', error.message, { cause: error });
      case 'duplicate':
      case 'incompatible_schema':
        break;
    }
  }
  if (error instanceof PrintApiError) return upstreamError(error, 'answer') as GatewayError;
  return new GatewayError('internal', INTERNAL_TEXT, { cause: error });
}

/**
 * What to throw when a call to the print service failed: its PrintApiError as `upstream_unavailable`
 * (retryable) when it timed out, was away or answered nonsense, `upstream_rejected` when it said no. `what`
 * completes "The print service could not …"; `outageMessage`, when given, replaces the whole text of a
 * retryable outage (pages say it their own way). Anything else (the store failing mid-call, a bug) goes on
 * as it is, so the worker still sees a store outage and the surface's funnel a bug with its stack.
 */
export function upstreamError(error: unknown, what: string, outageMessage?: string): unknown {
  if (!(error instanceof PrintApiError)) return error;
  const temporary =
    error.code === 'timeout' || error.code === 'unavailable' || error.code === 'invalid_response';
  const message =
    temporary && outageMessage !== undefined
      ? outageMessage
      : `The print service could not ${what} (${error.code}${error.status ? ` ${error.status}` : ''}).`;
  return new GatewayError(temporary ? 'upstream_unavailable' : 'upstream_rejected', message, {
    cause: error,
  });
}

/** What a user may read of an error: its message, except the fixed texts of a store outage and of a bug. */
export function publicMessage(error: GatewayError, surface: 'cxml' | 'page' | 'json'): string {
  switch (error.code) {
    case 'internal':
      return INTERNAL_TEXT;
    case 'store_unavailable':
      return surface === 'cxml' ? STORE_AWAY_CXML_TEXT : STORE_AWAY_TEXT;
    default:
      return error.message;
  }
}

/** The Status of a cXML Response that answers this error. */
export function cxmlStatusOf(error: GatewayError): { code: number; detail: string } {
  return { code: ERROR_ANSWERS[error.code].cxml, detail: publicMessage(error, 'cxml') };
}

/**
 * Logs a failed request once, as every surface does: a bug at error level with its cause's name, message
 * and stack (here only, never in an answer); another 5xx at error level with its code and the cause's
 * name; a refusal (4xx) at info, since it is the buyer's or the operator's doing, not ours.
 */
export function logFailure(logger: Logger, message: string, error: GatewayError, fields: LogFields): void {
  const at = { ...fields, code: error.code };
  if (error.code === 'internal') {
    const cause = error.cause;
    logger.error(message, {
      ...at,
      error: cause instanceof Error ? cause.name : typeof cause,
      message: cause instanceof Error ? cause.message : String(cause),
      stack: cause instanceof Error ? cause.stack : undefined,
    });
  } else if (ERROR_ANSWERS[error.code].http >= 500) {
    logger.error(message, {
      ...at,
      message: error.message,
      error: error.cause instanceof Error ? error.cause.name : undefined,
    });
  } else {
    logger.info(message, at);
  }
}

/** Codes of a failure that may pass when the same work runs again later: an outage, or a lost race. */
const RETRYABLE_CODES: ReadonlySet<GatewayErrorCode> = new Set<GatewayErrorCode>([
  'upstream_unavailable',
  'store_unavailable',
  'conflict',
]);

/**
 * Whether work that failed with `error` (an order job) may succeed on another attempt: the print service
 * or the store away, or a record that changed meanwhile; a refusal will not. The store's and the print
 * service's own errors are judged as this funnel translates them, except that a print-service answer we
 * could not read is not retried (see isRetryablePrintApiError). Anything unknown is tried again within the
 * job's attempts, since a step can fail on a passing race the gateway does not name.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof GatewayError || error instanceof StoreError) {
    return RETRYABLE_CODES.has(toGatewayError(error).code);
  }
  if (isPrintApiError(error)) return isRetryablePrintApiError(error);
  return true;
}
