/**
 * The web-API base64 of the kernel (Workers have no Buffer) against Node's Buffer: every byte value, every
 * length around the encoder's 8 KiB chunks, and base64url's alphabet without padding.
 */
import { describe, expect, it } from 'vitest';
import { base64ToBytes, base64urlToBytes, bytesToBase64, bytesToBase64url } from '../../src/kernel/base64.ts';

function bytesOf(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 7919 + (i >> 8)) & 255);
}

describe('base64 with web APIs', () => {
  it('writes what Buffer writes, at every length around a chunk and for every byte value', () => {
    const lengths = [0, 1, 2, 3, 4, 5, 59, 60, 61, 6_000, 8_191, 8_192, 8_193, 16_384, 20_000];
    for (const length of lengths) {
      const bytes = bytesOf(length);
      const expected = Buffer.from(bytes).toString('base64');
      expect(bytesToBase64(bytes), `${length} bytes`).toBe(expected);
      expect(base64ToBytes(expected), `${length} bytes back`).toEqual(bytes);
    }
    const everyValue = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(bytesToBase64(everyValue)).toBe(Buffer.from(everyValue).toString('base64'));
  });

  it('reads a part of a larger buffer as just that part', () => {
    const whole = bytesOf(100);
    const part = whole.subarray(10, 70);
    expect(bytesToBase64(part)).toBe(Buffer.from(part).toString('base64'));
  });

  it('writes base64url without padding, and reads it back', () => {
    const bytes = new Uint8Array([251, 255, 190, 0]);
    expect(bytesToBase64url(bytes)).toBe('-_--AA');
    expect(base64urlToBytes('-_--AA')).toEqual(bytes);
    for (const length of [0, 1, 2, 3, 32, 8_193]) {
      const data = bytesOf(length);
      expect(bytesToBase64url(data)).toBe(Buffer.from(data).toString('base64url'));
    }
  });
});
