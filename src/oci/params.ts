/**
 * The decoded parameters of a punch-in, with SAP's case-insensitive names.
 *
 * Buyers spell the same parameter `HOOK_URL`, `hook_url` or `Hook_Url`, and `~TARGET` or `~Target`, so lookups
 * fold ASCII case (only ASCII: Unicode folding would let the Kelvin sign K match `k`). Every occurrence is
 * kept in arrival order with the name as sent, because `~` fields are echoed back under their received names.
 * The parameters are a plain list of pairs (a punch-in holds at most `maxParams` of them), read with the
 * functions below, so a parsed punch-in is plain data.
 */

export type OciParam = readonly [name: string, value: string];

/**
 * Lower-cases A–Z only, the way SAP's parameter names compare. A run of A–Z lower-cases exactly as a whole
 * (one call per run, not per letter: a punch-in folds every parameter's name for every lookup).
 */
export const foldAscii = (name: string): string => name.replace(/[A-Z]+/g, (run) => run.toLowerCase());

function named(params: readonly OciParam[], name: string): OciParam[] {
  const wanted = foldAscii(name);
  return params.filter(([received]) => foldAscii(received) === wanted);
}

/** The first value under `name`, compared without regard to ASCII case. */
export function ociParamValue(params: readonly OciParam[], name: string): string | undefined {
  return named(params, name)[0]?.[1];
}

/** Every value under `name`, in arrival order. */
export function ociParamValues(params: readonly OciParam[], name: string): string[] {
  return named(params, name).map(([, value]) => value);
}

/** The name as the buyer spelled it the first time, e.g. `~Target` for a lookup of `~TARGET`. */
export function receivedParamName(params: readonly OciParam[], name: string): string | undefined {
  return named(params, name)[0]?.[0];
}
