/**
 * The character sets an OCI buyer may speak: UTF-8, or the Latin-1 family of non-Unicode SAP systems.
 *
 * WHATWG treats the label ISO-8859-1 as windows-1252, and so do browsers when they decode a page or encode a
 * form, so both Latin-1 charsets are decoded with the windows-1252 table here. They differ only on output:
 * a buyer that says ISO-8859-1 gets no bytes from 0x80 to 0x9F, because a true Latin-1 system would read
 * them as control characters instead of €, „ or ™ (see fit-to-charset.ts).
 *
 * Decoding is written out by hand rather than with TextDecoder('windows-1252'), which not every edge runtime
 * ships; only strict UTF-8 decoding relies on TextDecoder.
 */

export type OciCharset = 'utf-8' | 'iso-8859-1' | 'windows-1252';

/** The spelling used in `<meta charset>`, `accept-charset` and Content-Type headers. */
export function charsetLabel(charset: OciCharset): string {
  switch (charset) {
    case 'utf-8':
      return 'UTF-8';
    case 'iso-8859-1':
      return 'ISO-8859-1';
    case 'windows-1252':
      return 'windows-1252';
  }
}

const LABELS: ReadonlyMap<string, OciCharset> = new Map([
  ['utf-8', 'utf-8'],
  ['utf8', 'utf-8'],
  ['unicode-1-1-utf-8', 'utf-8'],
  ['iso-8859-1', 'iso-8859-1'],
  ['iso8859-1', 'iso-8859-1'],
  ['iso_8859-1', 'iso-8859-1'],
  ['iso88591', 'iso-8859-1'],
  ['iso_8859-1:1987', 'iso-8859-1'],
  ['latin1', 'iso-8859-1'],
  ['latin-1', 'iso-8859-1'],
  ['l1', 'iso-8859-1'],
  ['cp819', 'iso-8859-1'],
  ['ibm819', 'iso-8859-1'],
  ['windows-1252', 'windows-1252'],
  ['cp1252', 'windows-1252'],
  ['x-cp1252', 'windows-1252'],
  ['us-ascii', 'windows-1252'],
  ['ascii', 'windows-1252'],
]);

/** Maps a charset label as buyers write it (`UTF8`, `latin1`, `"ISO-8859-1"`) to a supported charset. */
export function parseCharsetLabel(label: string): OciCharset | undefined {
  const normalized = label
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim()
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
  return LABELS.get(normalized);
}

/** Code points of windows-1252 bytes 0x80–0x9F; the five unassigned bytes map to themselves, as in WHATWG. */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
] as const;

const WINDOWS_1252_BYTE_OF = new Map<number, number>(
  WINDOWS_1252_HIGH.map((codePoint, i) => [codePoint, 0x80 + i]),
);

/** Decodes bytes as windows-1252; every byte has a character, so this cannot fail. */
export function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) {
    text += String.fromCharCode(byte >= 0x80 && byte < 0xa0 ? WINDOWS_1252_HIGH[byte - 0x80]! : byte);
  }
  return text;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes bytes as UTF-8, or returns undefined when they are not valid UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Reads bytes as ISO-8859-1 proper (byte n is U+00nn): for header syntax and names that are ASCII. */
export function decodeLatin1Bytes(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** The windows-1252 byte for a code point, or undefined when windows-1252 has no such character. */
export function windows1252ByteOf(codePoint: number): number | undefined {
  if (codePoint < 0x80 || (codePoint >= 0xa0 && codePoint <= 0xff)) return codePoint;
  return WINDOWS_1252_BYTE_OF.get(codePoint);
}

/**
 * Whether a code point survives a round trip through the charset. ISO-8859-1 excludes 0x80–0x9F (browsers
 * would send those bytes as windows-1252 punctuation); UTF-8 excludes lone surrogates.
 */
export function isRepresentable(codePoint: number, charset: OciCharset): boolean {
  switch (charset) {
    case 'utf-8':
      return codePoint < 0xd800 || codePoint > 0xdfff;
    case 'iso-8859-1':
      return codePoint < 0x80 || (codePoint >= 0xa0 && codePoint <= 0xff);
    case 'windows-1252':
      return windows1252ByteOf(codePoint) !== undefined;
  }
}
