import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../src/kernel/constant-time.ts';

describe('constantTimeEqual', () => {
  it.each([
    ['', '', true],
    ['sap1-secret', 'sap1-secret', true],
    ['sap1-secret', 'sap1-secreT', false],
    ['sap1-secret', 'sap1-secret ', false],
    ['sap1-secret', 'sap1', false],
    ['', 'x', false],
    ['x', '', false],
    ['\u0000', '', false],
    ['é', 'e\u0301', false],
    ['Jürgen', 'Jürgen', true],
    ['🔑', '🔑', true],
    ['🔑', '🔒', false],
  ])('%j vs %j → %s', (a, b, equal) => {
    expect(constantTimeEqual(a, b)).toBe(equal);
    expect(constantTimeEqual(b, a)).toBe(equal);
  });

  it('compares UTF-8 bytes, so a lone surrogate equals U+FFFD as TextEncoder encodes it', () => {
    expect(constantTimeEqual('\ud800', '\ufffd')).toBe(true);
  });

  it('agrees with === on any pair of strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(a, a)).toBe(true);
      }),
    );
  });

  it('tells strings apart that differ only in the length of a long common prefix', () => {
    const long = 'k'.repeat(10_000);
    expect(constantTimeEqual(long, `${long}k`)).toBe(false);
    expect(constantTimeEqual(long.slice(0, 256), long.slice(0, 256 + 256))).toBe(false);
  });
});
