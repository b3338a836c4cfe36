import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeWindows1252,
  isRepresentable,
  parseCharsetLabel,
  windows1252ByteOf,
} from '../../src/oci/charset.ts';
import { fitToCharset } from '../../src/oci/fit-to-charset.ts';

describe('parseCharsetLabel', () => {
  it.each([
    ['utf-8', 'utf-8'],
    ['UTF8', 'utf-8'],
    [' "UTF-8" ', 'utf-8'],
    ['ISO-8859-1', 'iso-8859-1'],
    ['iso_8859-1', 'iso-8859-1'],
    ['Latin1', 'iso-8859-1'],
    ['windows-1252', 'windows-1252'],
    ['CP1252', 'windows-1252'],
    ['us-ascii', 'windows-1252'],
    ['shift_jis', undefined],
    ['iso-8859-15', undefined],
    ['', undefined],
  ])('%j → %s', (label, charset) => {
    expect(parseCharsetLabel(label)).toBe(charset);
  });
});

describe('windows-1252', () => {
  const allBytes = Uint8Array.from({ length: 256 }, (_, i) => i);

  it('decodes every byte as the WHATWG decoder does', () => {
    expect(decodeWindows1252(allBytes)).toBe(new TextDecoder('windows-1252').decode(allBytes));
  });

  it('encodes back to the same byte for every character it decodes to', () => {
    for (const byte of allBytes) {
      const codePoint = decodeWindows1252(Uint8Array.of(byte)).codePointAt(0)!;
      expect(windows1252ByteOf(codePoint)).toBe(byte);
      expect(isRepresentable(codePoint, 'windows-1252')).toBe(true);
    }
    expect(windows1252ByteOf(0x3a9)).toBeUndefined();
  });

  it('differs from ISO-8859-1 only in 0x80–0x9F', () => {
    expect(isRepresentable(0x20ac, 'iso-8859-1')).toBe(false);
    expect(isRepresentable(0x85, 'iso-8859-1')).toBe(false);
    expect(isRepresentable(0xfc, 'iso-8859-1')).toBe(true);
    expect(isRepresentable(0xd800, 'utf-8')).toBe(false);
    expect(isRepresentable(0x1f600, 'utf-8')).toBe(true);
  });
});

describe('fitToCharset', () => {
  it.each([
    ['5 € – „A“ ‚b‘ …', 'iso-8859-1', '5 EUR - "A" ,b\' ...'],
    ['5 € – „A“ ‚b‘ …', 'windows-1252', '5 € – „A“ ‚b‘ …'],
    ['Œuvre™ • ½', 'iso-8859-1', 'OEuvre(TM) * ½'],
    ['Łódź Kraków Dvořák Őrség', 'iso-8859-1', 'Lódz Kraków Dvorák Orség'],
    ['日本 Ωmega', 'windows-1252', '?? ?mega'],
    ['e\u0301', 'iso-8859-1', 'é'],
    ['a\r\nb\rc\u0000\u0007\u007f\u0085d\te', 'utf-8', 'a\nb\ncd\te'],
    ['😀', 'utf-8', '😀'],
    ['\ud800x', 'utf-8', '?x'],
  ] as const)('%j in %s → %j', (text, charset, fitted) => {
    expect(fitToCharset(text, charset)).toBe(fitted);
  });

  it('always yields representable text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        for (const charset of ['utf-8', 'iso-8859-1', 'windows-1252'] as const) {
          for (const character of fitToCharset(text, charset)) {
            expect(isRepresentable(character.codePointAt(0)!, charset)).toBe(true);
          }
        }
      }),
    );
  });
});
