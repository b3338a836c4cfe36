/**
 * Case-insensitive reading of an editor-host query. The real editor host is an ASP.NET application
 * (`productthumb.ashx`, `download.ashx`), whose query parameter names are case-insensitive, so
 * `ProductId=7` must work like `productid=7`.
 */

export type QueryInput = Readonly<Record<string, string | undefined>>;

/** Lower-cased parameter name → value; when two spellings of one name are given, the first one wins. */
export function normalizeQuery(query: QueryInput): ReadonlyMap<string, string> {
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(query)) {
    const key = name.toLowerCase();
    if (value !== undefined && !byName.has(key)) byName.set(key, value);
  }
  return byName;
}

/** Decimal digits only (no sign, no spaces, no fraction); undefined for anything else. */
export function readDigits(text: string): number | undefined {
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : undefined;
}

/** The largest id the service's 32-bit integer ids can hold. */
export const MAX_ID = 2_147_483_647;
