/**
 * The one error type of the sandbox print service. Its `code` is either the name of a row of the
 * interface's Errors table (`PRINT_API_ERRORS`, exact status and text) or one of the sandbox's own codes for
 * what the interface leaves open (bad bodies, query values, unknown statuses...). One function turns it
 * into the HTTP answer: `{"Message": text}`, or an empty body where the interface shows no message.
 */
import { PRINT_API_ERRORS, type PrintApiErrorName } from 'punchgate/schemas/print-api';

export type SandboxOwnErrorCode =
  /** A malformed body, path or query value (400). */
  | 'invalidRequest'
  /** A resource the interface has no not-found text for (404). */
  | 'notFound'
  /** A state conflict the interface does not name (409). */
  | 'conflict'
  /** A body over the size limit (413). */
  | 'payloadTooLarge'
  /** An unexpected failure (500); its detail is logged, never sent. */
  | 'internal';

export type SandboxErrorCode = PrintApiErrorName | SandboxOwnErrorCode;

const OWN_STATUS: Record<SandboxOwnErrorCode, 400 | 404 | 409 | 413 | 500> = {
  invalidRequest: 400,
  notFound: 404,
  conflict: 409,
  payloadTooLarge: 413,
  internal: 500,
};

export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  readonly status: number;
  /** The Message of the body; null for an empty body. */
  readonly text: string | null;
  readonly retryAfterSeconds: number | undefined;

  private constructor(code: SandboxErrorCode, status: number, text: string | null, retryAfter?: number) {
    super(text ?? code);
    this.name = 'SandboxError';
    this.code = code;
    this.status = status;
    this.text = text;
    this.retryAfterSeconds = retryAfter;
  }

  /** A row of the interface's Errors table, with its exact status, text and Retry-After. */
  static of(name: PrintApiErrorName): SandboxError {
    const row = PRINT_API_ERRORS[name];
    const retryAfter = 'retryAfterSeconds' in row ? row.retryAfterSeconds : undefined;
    return new SandboxError(name, row.status, row.message, retryAfter);
  }

  /** One of the sandbox's own errors, with a message that says what is wrong. */
  static own(code: SandboxOwnErrorCode, message: string): SandboxError {
    return new SandboxError(code, OWN_STATUS[code], message);
  }

  static invalid(message: string): SandboxError {
    return SandboxError.own('invalidRequest', message);
  }
}

/** The HTTP answer for an error: JSON `{"Message": ...}`, or no body at all where no text is shown. */
export function errorResponse(error: SandboxError): Response {
  const headers = new Headers();
  if (error.retryAfterSeconds !== undefined) headers.set('Retry-After', String(error.retryAfterSeconds));
  if (error.text === null) return new Response(null, { status: error.status, headers });
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify({ Message: error.text }), { status: error.status, headers });
}
