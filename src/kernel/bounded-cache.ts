/**
 * An in-memory table that forgets its least recently used entries past a count or a total size, and
 * entries older than a time to live: what the gateway's caches and throttles need (PIPO token reuse,
 * failed-secret counts, the admission gate, proofs and thumbnails), in a Map's insertion order. It
 * replaces the `lru-cache` package, whose generality cost 6 KB gzip of the Worker bundle for the four
 * operations used here.
 */

export interface BoundedCacheOptions<V> {
  /** At most this many entries. */
  max?: number;
  /** At most this total of `sizeOf` over the entries; an entry larger than all of it is not kept. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** Milliseconds from `set` after which an entry is gone (reading it does not extend it; at exactly
   * `ttlMs` it is still there). */
  ttlMs?: number;
  /** The clock `ttlMs` is measured on, in milliseconds. Default: `Date.now`. */
  now?: () => number;
}

interface Slot<V> {
  value: V;
  size: number;
  /** The last moment the entry is there, on `now`'s clock; Infinity without a time to live. */
  keptUntil: number;
}

/**
 * @example
 * const recent = new BoundedCache<string, Token>({ max: 50_000 });
 * const proofs = new BoundedCache<string, Uint8Array>({ maxSize: 32 << 20, sizeOf: (b) => b.byteLength, ttlMs: 600_000 });
 */
export class BoundedCache<K, V> {
  readonly #slots = new Map<K, Slot<V>>();
  readonly #max: number;
  readonly #maxSize: number;
  readonly #sizeOf: (value: V) => number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #size = 0;

  constructor(options: BoundedCacheOptions<V>) {
    if (options.max === undefined && options.maxSize === undefined) {
      throw new TypeError('BoundedCache needs a max or a maxSize');
    }
    this.#max = options.max ?? Number.POSITIVE_INFINITY;
    this.#maxSize = options.maxSize ?? Number.POSITIVE_INFINITY;
    this.#sizeOf = options.sizeOf ?? (() => 0);
    this.#ttlMs = options.ttlMs ?? Number.POSITIVE_INFINITY;
    this.#now = options.now ?? Date.now;
  }

  /** The entry, now the most recently used one; undefined when absent or expired. */
  get(key: K): V | undefined {
    const slot = this.#live(key);
    if (slot === undefined) return undefined;
    this.#slots.delete(key);
    this.#slots.set(key, slot);
    return slot.value;
  }

  /** The entry without making it recently used; undefined when absent or expired. */
  peek(key: K): V | undefined {
    return this.#live(key)?.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const size = this.#sizeOf(value);
    if (size > this.#maxSize) return;
    this.#slots.set(key, { value, size, keptUntil: this.#now() + this.#ttlMs });
    this.#size += size;
    // The first key of a Map is the one set or read longest ago.
    for (const [oldest, slot] of this.#slots) {
      if (this.#slots.size <= this.#max && this.#size <= this.#maxSize) break;
      this.#slots.delete(oldest);
      this.#size -= slot.size;
    }
  }

  /** Whether there was an entry (expired or not) to remove. */
  delete(key: K): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    this.#slots.delete(key);
    this.#size -= slot.size;
    return true;
  }

  #live(key: K): Slot<V> | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    if (this.#now() > slot.keptUntil) {
      this.delete(key);
      return undefined;
    }
    return slot;
  }
}
