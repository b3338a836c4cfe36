/**
 * The store's one error type. Callers switch on `code`; adapters translate their driver's errors into it so
 * the gateway never needs to know whether SQLite, D1 or PostgreSQL said no.
 */

export type StoreErrorCode =
  /** A record with the caller-chosen key (session id, line reference) already exists. */
  | 'duplicate'
  /** A conditional update (`ifVersion`, `ifState`) found the record changed. */
  | 'conflict'
  /** An argument the store cannot use, such as a cursor it did not hand out. */
  | 'invalid'
  /** The backing database cannot be reached, is locked for too long, full, read-only or closed. */
  | 'unavailable'
  /** The database was written by a newer punchgate; opening it with this one could lose data. */
  | 'incompatible_schema';

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}
