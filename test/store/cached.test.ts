import { describe, expect, it } from 'vitest';
import { withSessionCache } from '../../src/store/cached.ts';
import { createMemoryStore } from '../../src/store/memory.ts';
import type { SessionStore, Store } from '../../src/store/port.ts';
import { createManualClock } from './manual-clock.ts';
import { at, cxmlSession, expectStoreError, runStoreSuite, T0 } from './store-suite.ts';

// The cache must not change what the store does: the whole contract, through the cache.
runStoreSuite('memory behind the session cache', async ({ clock }) =>
  withSessionCache(createMemoryStore({ clock }), { max: 100, ttlMs: 5_000, clock }),
);

/** A memory store whose `sessions.get` calls are counted, behind a cache on the same frozen clock. */
function setUp(options: { max?: number; ttlMs?: number } = {}) {
  const clock = createManualClock(T0);
  const backing = createMemoryStore({ clock });
  const reads = { count: 0 };
  const countedSessions: SessionStore = {
    ...backing.sessions,
    get: (id) => {
      reads.count += 1;
      return backing.sessions.get(id);
    },
  };
  const counted: Store = { ...backing, sessions: countedSessions };
  const store = withSessionCache(counted, { max: options.max ?? 10, ttlMs: options.ttlMs ?? 5_000, clock });
  return { clock, backing, store, reads };
}

describe('withSessionCache', () => {
  it('serves repeated reads from the cache, as copies', async () => {
    const { store, reads } = setUp();
    await store.sessions.create(cxmlSession());
    const first = await store.sessions.get('sess-cxml-1');
    first!.state = 'cancelled';
    const second = await store.sessions.get('sess-cxml-1');
    expect(second?.state).toBe('open');
    expect(reads.count).toBe(0);
  });

  it('fills the cache on a miss, and does not cache unknown ids', async () => {
    const { backing, store, reads } = setUp();
    await backing.sessions.create(cxmlSession());
    expect((await store.sessions.get('sess-cxml-1'))?.id).toBe('sess-cxml-1');
    expect((await store.sessions.get('sess-cxml-1'))?.id).toBe('sess-cxml-1');
    expect(reads.count).toBe(1);
    expect(await store.sessions.get('nope')).toBeUndefined();
    expect(await store.sessions.get('nope')).toBeUndefined();
    expect(reads.count).toBe(3);
  });

  it('writes updates through and serves the updated session', async () => {
    const { backing, store, reads } = setUp();
    await store.sessions.create(cxmlSession());
    const updated = await store.sessions.update('sess-cxml-1', { state: 'transferred' });
    expect(await store.sessions.get('sess-cxml-1')).toStrictEqual(updated);
    expect(await backing.sessions.get('sess-cxml-1')).toStrictEqual(updated);
    expect(reads.count).toBe(0);
  });

  it('drops the entry when a compare-and-set update meets a newer version', async () => {
    const { backing, store, reads } = setUp();
    await store.sessions.create(cxmlSession());
    // Another instance writes straight to the shared store; this cache still holds version 1.
    await backing.sessions.update('sess-cxml-1', { state: 'cancelled' });
    expect((await store.sessions.get('sess-cxml-1'))?.version).toBe(1);
    await expectStoreError(
      store.sessions.update('sess-cxml-1', { state: 'transferred' }, { ifVersion: 1 }),
      'conflict',
    );
    const reread = await store.sessions.get('sess-cxml-1');
    expect(reread).toMatchObject({ state: 'cancelled', version: 2 });
    expect(reads.count).toBe(1);
  });

  it('asks the store again once the TTL has passed', async () => {
    const { clock, backing, store, reads } = setUp({ ttlMs: 5_000 });
    await store.sessions.create(cxmlSession());
    await backing.sessions.update('sess-cxml-1', { pipoUserRef: 'changed-elsewhere' });
    clock.advance(5_000);
    expect((await store.sessions.get('sess-cxml-1'))?.pipoUserRef).toBe('jane.doe@acme.example');
    clock.advance(1);
    expect((await store.sessions.get('sess-cxml-1'))?.pipoUserRef).toBe('changed-elsewhere');
    expect(reads.count).toBe(1);
  });

  it('never serves a session past its own expiry, even within the TTL', async () => {
    const { clock, store } = setUp({ ttlMs: 60 * 60_000 });
    await store.sessions.create(cxmlSession({ expiresAt: at(10_000) }));
    clock.set(at(9_999));
    expect(await store.sessions.get('sess-cxml-1')).toBeDefined();
    clock.set(at(10_000));
    expect(await store.sessions.get('sess-cxml-1')).toBeUndefined();
  });

  it('drops expired sessions on expire()', async () => {
    const { store, reads } = setUp({ ttlMs: 60 * 60_000 });
    await store.sessions.create(cxmlSession({ id: 'a', expiresAt: at(10_000) }));
    await store.sessions.create(cxmlSession({ id: 'b', expiresAt: at(20_000) }));
    expect(await store.sessions.expire(at(10_000))).toBe(1);
    // The clock has not moved: only expire() can have removed 'a' from the cache.
    expect(await store.sessions.get('a')).toBeUndefined();
    expect(await store.sessions.get('b')).toBeDefined();
    expect(reads.count).toBe(1);
  });

  it('evicts the least recently used session beyond max', async () => {
    const { store, reads } = setUp({ max: 2 });
    await store.sessions.create(cxmlSession({ id: 'a' }));
    await store.sessions.create(cxmlSession({ id: 'b' }));
    await store.sessions.get('a');
    await store.sessions.create(cxmlSession({ id: 'c' }));
    await store.sessions.get('a');
    await store.sessions.get('c');
    expect(reads.count).toBe(0);
    await store.sessions.get('b');
    expect(reads.count).toBe(1);
  });

  it('refuses nonsensical sizes', () => {
    const store = createMemoryStore();
    expect(() => withSessionCache(store, { max: 0, ttlMs: 1000 })).toThrow(TypeError);
    expect(() => withSessionCache(store, { max: 10, ttlMs: Number.NaN })).toThrow(TypeError);
  });
});
