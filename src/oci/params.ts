/**
 * The decoded parameters of a punch-in, with SAP's case-insensitive names.
 *
 * Buyers spell the same parameter `HOOK_URL`, `hook_url` or `Hook_Url`, and `~TARGET` or `~Target`, so lookups
 * fold ASCII case (only ASCII: Unicode folding would let the Kelvin sign K match `k`). Every occurrence is
 * kept in arrival order with the name as sent, because `~` fields are echoed back under their received names.
 */

export type OciParam = readonly [name: string, value: string];

/** Lower-cases A–Z only, the way SAP's parameter names compare. */
export const foldAscii = (name: string): string => name.replace(/[A-Z]/g, (c) => c.toLowerCase());

export class OciParams {
  readonly #entries: readonly OciParam[];
  readonly #byName = new Map<string, OciParam[]>();

  constructor(entries: Iterable<OciParam>) {
    this.#entries = Array.from(entries, ([name, value]) => [name, value] as const);
    for (const entry of this.#entries) {
      const key = foldAscii(entry[0]);
      const list = this.#byName.get(key);
      if (list) list.push(entry);
      else this.#byName.set(key, [entry]);
    }
  }

  /** The first value under `name`, compared without regard to ASCII case. */
  get(name: string): string | undefined {
    return this.#byName.get(foldAscii(name))?.[0]?.[1];
  }

  /** Every value under `name`, in arrival order. */
  getAll(name: string): string[] {
    return (this.#byName.get(foldAscii(name)) ?? []).map(([, value]) => value);
  }

  has(name: string): boolean {
    return this.#byName.has(foldAscii(name));
  }

  /** The name as the buyer spelled it the first time, e.g. `~Target` for a lookup of `~TARGET`. */
  receivedName(name: string): string | undefined {
    return this.#byName.get(foldAscii(name))?.[0]?.[0];
  }

  /** Every parameter in arrival order, with the names as sent. */
  entries(): readonly OciParam[] {
    return this.#entries;
  }

  get size(): number {
    return this.#entries.length;
  }
}
