/**
 * Listing rules every adapter applies the same way: default and maximum page sizes, and the cursor, which
 * is the id of the last record of the previous page (ids grow in insertion order, so newest-first pages are
 * stable while new records arrive). Callers treat the cursor as opaque.
 */
import { StoreError } from './store-error.ts';
import type { Page } from './types.ts';

const DEFAULT_PAGE_SIZE = 50;
const DEFAULT_BATCH_SIZE = 100;
const MAX_PAGE_SIZE = 500;

/** Rows per `list` page: 50 unless asked, never more than 500, at least 1. */
export function pageSize(limit: number | undefined): number {
  return clampLimit(limit, DEFAULT_PAGE_SIZE);
}

/** Rows per batch for `listOpen` / `listUnprocessed`: 100 unless asked, never more than 500, at least 1. */
export function batchSize(limit: number | undefined): number {
  return clampLimit(limit, DEFAULT_BATCH_SIZE);
}

/** Rows a purge call deletes at most: all due ones unless asked (undefined), else at least 1. */
export function purgeLimit(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isFinite(limit)) throw new StoreError('invalid', `limit must be a finite number, got ${limit}`);
  return Math.max(1, Math.trunc(limit));
}

function clampLimit(limit: number | undefined, fallback: number): number {
  if (limit === undefined) return fallback;
  if (!Number.isFinite(limit)) throw new StoreError('invalid', `limit must be a finite number, got ${limit}`);
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(limit)));
}

/** The id a page continues below, or undefined for the first page. */
export function parseCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(cursor))
    throw new StoreError('invalid', 'cursor was not handed out by this store');
  return Number(cursor);
}

/** Cuts a newest-first result fetched with one extra row into a page and its continuation. */
export function toPage<T extends { id: string }>(rows: T[], size: number): Page<T> {
  if (rows.length <= size) return { items: rows };
  const items = rows.slice(0, size);
  return { items, nextCursor: items[items.length - 1]!.id };
}
