import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/kernel/bounded-cache.ts';

describe('BoundedCache', () => {
  it('forgets the least recently used entry past max: get makes an entry recent, peek does not', () => {
    const cache = new BoundedCache<string, number>({ max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([1, undefined, 3]);
    cache.set('d', 4);
    expect([cache.peek('a'), cache.peek('c'), cache.peek('d')]).toEqual([undefined, 3, 4]);
    // Setting a key again replaces it without forgetting another.
    cache.set('d', 5);
    expect([cache.peek('c'), cache.peek('d')]).toEqual([3, 5]);
  });

  it('keeps the total size within maxSize, and never keeps an entry larger than all of it', () => {
    const cache = new BoundedCache<string, Uint8Array>({ maxSize: 10, sizeOf: (b) => b.byteLength });
    cache.set('a', new Uint8Array(4));
    cache.set('b', new Uint8Array(4));
    cache.set('c', new Uint8Array(4));
    expect([cache.peek('a'), cache.peek('b')?.length, cache.peek('c')?.length]).toEqual([undefined, 4, 4]);
    cache.set('b', new Uint8Array(11));
    expect(cache.peek('b')).toBeUndefined();
    cache.set('d', new Uint8Array(6));
    expect([cache.peek('c')?.length, cache.peek('d')?.length]).toEqual([4, 6]);
  });

  it('forgets an entry once more than ttlMs has passed since it was set, reads or not', () => {
    let now = 1_000;
    const cache = new BoundedCache<string, string>({ max: 10, ttlMs: 600, now: () => now });
    cache.set('k', 'v');
    now += 300;
    expect(cache.get('k')).toBe('v');
    now += 300;
    expect(cache.peek('k')).toBe('v');
    now += 1;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.delete('k')).toBe(false);
  });

  it('tells whether delete removed anything, and refuses a cache without a bound', () => {
    const cache = new BoundedCache<string, number>({ max: 1 });
    cache.set('a', 1);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(() => new BoundedCache({})).toThrow(TypeError);
  });
});
