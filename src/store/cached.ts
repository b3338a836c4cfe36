/**
 * An LRU cache in front of `sessions.get`: every editor hop, cart view and return reads the session, while
 * writes are rare. Writes go through to the store and refresh the cache; everything else passes straight
 * through.
 *
 * With several gateway instances on one database, another instance's write is seen here only once the
 * entry ages out, so keep `ttlMs` short (seconds). Writes stay safe regardless: a compare-and-set update
 * (`ifVersion`) made from a stale read fails with `conflict`, which also drops the stale entry, so the
 * caller's re-read sees the store.
 */
import { LRUCache } from 'lru-cache';
import { type Clock, systemClock } from './clock.ts';
import type { Store } from './port.ts';
import { StoreError } from './store-error.ts';
import type { PunchoutSession } from './types.ts';

export interface SessionCacheOptions {
  /** Most sessions kept. */
  max: number;
  /** Longest an entry is served without asking the store. */
  ttlMs: number;
  /** The store's clock, so cached sessions expire at the same instant stored ones do. */
  clock?: Clock;
}

/**
 * @example
 * ```ts
 * const store = withSessionCache(createSqliteStore({ path }), { max: 10_000, ttlMs: 5_000 });
 * ```
 */
export function withSessionCache(store: Store, options: SessionCacheOptions): Store {
  if (!(Number.isInteger(options.max) && options.max > 0)) {
    throw new TypeError(`session cache max must be a positive integer, got ${options.max}`);
  }
  if (!(Number.isFinite(options.ttlMs) && options.ttlMs > 0)) {
    throw new TypeError(`session cache ttlMs must be a positive number, got ${options.ttlMs}`);
  }
  const clock = options.clock ?? systemClock;
  const cache = new LRUCache<string, PunchoutSession>({
    max: options.max,
    // The cache reads time from the store's clock, checked on every access, so frozen test clocks rule it.
    perf: { now: () => clock.now().getTime() },
    ttlResolution: 0,
  });

  const remember = (session: PunchoutSession): PunchoutSession => {
    const ttl = Math.min(options.ttlMs, session.expiresAt.getTime() - clock.now().getTime());
    if (ttl > 0) cache.set(session.id, structuredClone(session), { ttl });
    else cache.delete(session.id);
    return session;
  };

  return {
    tokens: store.tokens,
    users: store.users,
    cart: store.cart,
    orders: store.orders,
    jobs: store.jobs,
    outbox: store.outbox,
    printOrders: store.printOrders,
    events: store.events,
    heartbeat: store.heartbeat,
    stats: (now) => store.stats(now),
    ping: () => store.ping(),
    close: () => store.close(),
    sessions: {
      async create(session) {
        return remember(await store.sessions.create(session));
      },
      async get(id) {
        const cached = cache.get(id);
        // The cache's TTL counts an entry fresh up to and including its last millisecond; expiry does not.
        if (cached && cached.expiresAt.getTime() > clock.now().getTime()) return structuredClone(cached);
        const session = await store.sessions.get(id);
        return session && remember(session);
      },
      async update(id, patch, updateOptions) {
        try {
          const session = await store.sessions.update(id, patch, updateOptions);
          if (session) return remember(session);
          cache.delete(id);
          return undefined;
        } catch (error) {
          if (error instanceof StoreError && error.code === 'conflict') cache.delete(id);
          throw error;
        }
      },
      async expire(now, expireOptions) {
        const expired = await store.sessions.expire(now, expireOptions);
        for (const [id, session] of [...cache.entries()]) {
          if (session.expiresAt.getTime() <= now.getTime()) cache.delete(id);
        }
        return expired;
      },
    },
  };
}
