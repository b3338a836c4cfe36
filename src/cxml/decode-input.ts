/**
 * Turns what a buyer posted into text: bytes are decoded by their BOM or XML declaration (UTF-8,
 * ISO-8859-1, windows-1252), the BOM is dropped (Ariba rejects one, and the XML parser must not see
 * it), and the size cap is enforced before any decoding work. Text declared UTF-8 must be UTF-8.
 */
import { CxmlError } from './error.ts';

const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * windows-1252 code points for bytes 0x80-0x9F; every other byte maps to itself. WHATWG decodes the
 * label ISO-8859-1 this way too, because documents labelled Latin-1 routinely carry €, „ or ’ there.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

type ByteEncoding = 'utf-8' | 'windows-1252';

const ENCODING_LABELS: Readonly<Record<string, ByteEncoding>> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'iso-8859-1': 'windows-1252',
  iso8859_1: 'windows-1252',
  'iso8859-1': 'windows-1252',
  'iso_8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'latin-1': 'windows-1252',
  l1: 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'x-cp1252': 'windows-1252',
};

const DECLARED_ENCODING = /^<\?xml\s[^>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/;

function tooLarge(size: number, maxBytes: number): CxmlError {
  return new CxmlError('too_large', `Document is ${size} bytes; the limit is ${maxBytes} bytes`);
}

/** UTF-8 length of a string, stopping early once it passes `limit`. */
function utf8LengthUpTo(text: string, limit: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= limit; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function decodeCp1252(bytes: Uint8Array): string {
  const chunkSize = 8192;
  const units = new Uint16Array(Math.min(chunkSize, bytes.length));
  let out = '';
  for (let start = 0; start < bytes.length; start += chunkSize) {
    const end = Math.min(start + chunkSize, bytes.length);
    for (let i = start; i < end; i++) {
      const byte = bytes[i] as number;
      units[i - start] = byte >= 0x80 && byte <= 0x9f ? (CP1252_HIGH[byte - 0x80] as number) : byte;
    }
    out += String.fromCharCode(...units.subarray(0, end - start));
  }
  return out;
}

function declaredEncoding(bytes: Uint8Array): ByteEncoding | undefined {
  // The declaration must open the document and is ASCII in every encoding we read.
  if (bytes[0] !== 0x3c || bytes[1] !== 0x3f) return undefined;
  const head = bytes.subarray(0, Math.min(bytes.length, 256));
  let prolog = '';
  for (const byte of head) {
    prolog += String.fromCharCode(byte);
    if (byte === 0x3e) break;
  }
  const match = DECLARED_ENCODING.exec(prolog);
  if (match === null) return undefined;
  const label = (match[1] ?? match[2] ?? '').trim();
  const encoding = ENCODING_LABELS[label.toLowerCase()];
  if (encoding === undefined) {
    throw new CxmlError(
      'malformed',
      `XML declaration names encoding "${label}", which punchgate does not read`,
    );
  }
  return encoding;
}

function decodeBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return decodeUtf8(bytes.subarray(3), 'begins with a UTF-8 byte order mark');
  }
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    throw new CxmlError(
      'malformed',
      'Document is UTF-16; punchgate reads UTF-8, ISO-8859-1 and windows-1252',
    );
  }
  const declared = declaredEncoding(bytes);
  if (declared === 'windows-1252') return decodeCp1252(bytes);
  if (declared === 'utf-8') return decodeUtf8(bytes, 'is declared UTF-8');
  return decodeUndeclared(bytes);
}

/** Where the first byte that breaks UTF-8 stands, for a message the sender can act on. */
function firstInvalidUtf8(bytes: Uint8Array): { offset: number; byte: number } {
  // Decoding growing prefixes would be quadratic; a fatal decode of each suspect sequence is not.
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i] as number;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : 4;
    if (byte >= 0x80 && (byte < 0xc2 || byte > 0xf4)) return { offset: i, byte };
    try {
      UTF8_STRICT.decode(bytes.subarray(i, i + length));
    } catch {
      return { offset: i, byte };
    }
    i += length;
  }
  return { offset: bytes.length, byte: 0 };
}

/**
 * Text that must be UTF-8 (declared so, or with its byte order mark). An invalid byte is refused, never
 * read as another charset: reinterpreting the whole document would change every non-ASCII character of
 * the BuyerCookie, which must come back to the buyer exactly as sent, and of identities and secrets.
 */
function decodeUtf8(bytes: Uint8Array, why: string): string {
  try {
    return UTF8_STRICT.decode(bytes);
  } catch {
    const { offset, byte } = firstInvalidUtf8(bytes);
    throw new CxmlError(
      'malformed',
      `Document ${why}, but byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at offset ${offset} is not valid UTF-8; send it as UTF-8 or declare its encoding (ISO-8859-1, windows-1252)`,
    );
  }
}

/** Whether the bytes hold one well-formed UTF-8 sequence of two to four bytes anywhere. */
function holdsUtf8Sequence(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const lead = bytes[i] as number;
    if (lead < 0xc2 || lead > 0xf4) continue;
    const length = lead <= 0xdf ? 2 : lead <= 0xef ? 3 : 4;
    let continued = 1;
    while (continued < length && ((bytes[i + continued] ?? 0) & 0xc0) === 0x80) continued++;
    if (continued === length) return true;
  }
  return false;
}

/**
 * A document without a declaration is UTF-8 by the XML rules. Bytes that are not valid UTF-8 and hold no
 * UTF-8 sequence at all are a Latin-1 document with its declaration missing, read as windows-1252 to keep
 * names like "Müller"; a document that mixes UTF-8 sequences with invalid bytes is refused, since either
 * reading would change some of its text.
 */
function decodeUndeclared(bytes: Uint8Array): string {
  try {
    return UTF8_STRICT.decode(bytes);
  } catch {
    if (holdsUtf8Sequence(bytes)) return decodeUtf8(bytes, 'has no encoding declaration (so is UTF-8)');
    return decodeCp1252(bytes);
  }
}

/**
 * Decode and size-check a posted document.
 *
 * @example
 * decodeCxmlInput(new Uint8Array(await request.arrayBuffer()), 1024 * 1024);
 */
export function decodeCxmlInput(input: string | Uint8Array, maxBytes: number): string {
  if (typeof input === 'string') {
    // A string is already decoded: its XML declaration no longer says anything about its bytes.
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    if (text.length > maxBytes) throw tooLarge(text.length, maxBytes);
    if (text.length * 3 > maxBytes) {
      const bytes = utf8LengthUpTo(text, maxBytes);
      if (bytes > maxBytes) throw tooLarge(utf8LengthUpTo(text, Number.POSITIVE_INFINITY), maxBytes);
    }
    return text;
  }
  if (input.byteLength > maxBytes) throw tooLarge(input.byteLength, maxBytes);
  return decodeBytes(input);
}
