/**
 * ZIP archives for the download endpoints, with fflate (pure JS, runs on Workers).
 *
 * Deterministic: every entry carries the same fixed time, so the same entries always give the same bytes.
 */

import { type Zippable, zipSync } from 'fflate';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated, relative, without `..` segments. */
  readonly name: string;
  readonly data: Uint8Array;
}

/**
 * 1980-01-01 00:00, the earliest DOS timestamp. fflate reads the date's local-time fields, so a date built
 * from local fields gives the same stored time in every time zone.
 */
const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);

/**
 * Packs entries, in the given order, into a deflated ZIP archive.
 * Throws TypeError on an unsafe, duplicate or all-digit name (all-digit keys would reorder the entries).
 *
 * @example
 * const zip = buildZip([{ name: 'item-7001.pdf', data: pdfBytes }]);
 * return new Response(zip, { headers: { 'Content-Type': 'application/zip' } });
 */
export function buildZip(entries: readonly ZipEntry[]): Uint8Array {
  const files: Zippable = {};
  for (const entry of entries) {
    const { name } = entry;
    const unsafe =
      name === '' ||
      name.startsWith('/') ||
      name.includes('\\') ||
      name.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
    if (unsafe) throw new TypeError(`ZIP entry name is not a safe relative path: ${JSON.stringify(name)}`);
    // A JavaScript object lists integer-like keys first, which would break the promised entry order.
    if (/^[0-9]+$/.test(name)) throw new TypeError(`ZIP entry name must not be all digits: ${name}`);
    if (Object.hasOwn(files, name)) throw new TypeError(`duplicate ZIP entry name: ${name}`);
    files[name] = [entry.data, { mtime: FIXED_MTIME }];
  }
  return zipSync(files, { level: 6 });
}
