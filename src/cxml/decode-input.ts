/**
 * Turns what a buyer posted into text: bytes are decoded by their BOM or XML declaration (UTF-8,
 * ISO-8859-1, windows-1252), the BOM is dropped (Ariba rejects one, and the XML parser must not see
 * it), and the size cap is enforced before any decoding work.
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
    return decodeUtf8OrCp1252(bytes.subarray(3));
  }
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    throw new CxmlError(
      'malformed',
      'Document is UTF-16; punchgate reads UTF-8, ISO-8859-1 and windows-1252',
    );
  }
  return declaredEncoding(bytes) === 'windows-1252' ? decodeCp1252(bytes) : decodeUtf8OrCp1252(bytes);
}

/**
 * Bytes that are not valid UTF-8 are nearly always a Latin-1 document with a missing or wrong
 * declaration; reading them as windows-1252 keeps names like "Müller" instead of replacement characters.
 */
function decodeUtf8OrCp1252(bytes: Uint8Array): string {
  try {
    return UTF8_STRICT.decode(bytes);
  } catch {
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
