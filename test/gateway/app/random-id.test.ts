/**
 * Ids come from a pool of random bytes filled a few KiB at a time: each byte is used once, so ids drawn
 * across a refill are as unpredictable and distinct as ids drawn one call each.
 */
import { describe, expect, it } from 'vitest';
import { cryptoRandomId } from '../../../src/gateway/deps.ts';

describe('cryptoRandomId', () => {
  it('answers as many URL-safe characters as bytes asked, and never the same id twice across refills', () => {
    const ids = new Set<string>();
    // 2,000 ids of 16 bytes draw the pool of 4 KiB about eight times over.
    for (let i = 0; i < 2_000; i++) {
      const id = cryptoRandomId(i % 2 === 0 ? 16 : 12);
      expect(id).toMatch(i % 2 === 0 ? /^[A-Za-z0-9_-]{16}$/ : /^[A-Za-z0-9_-]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(2_000);
  });

  it('spreads its characters over the whole alphabet', () => {
    const seen = new Set(cryptoRandomId(4096).split(''));
    expect(seen.size).toBe(64);
  });

  it('refuses more bytes than its pool holds', () => {
    expect(() => cryptoRandomId(4097)).toThrow('cryptoRandomId: at most 4096 bytes, not 4097');
  });
});
