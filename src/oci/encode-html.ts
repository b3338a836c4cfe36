/**
 * Serialises a rendered page into the bytes of the buyer's charset.
 *
 * TextEncoder only produces UTF-8, so the Latin-1 family is encoded here by hand. A character the charset
 * lacks becomes a numeric character reference, which the browser turns back into the character when it reads
 * the page; NEW_ITEM-* values never need that, because fitToCharset has already replaced such characters
 * (a browser would submit an unencodable character in a form as the literal text `&#8364;`).
 */

import { isRepresentable, type OciCharset, windows1252ByteOf } from './charset.ts';

const utf8 = new TextEncoder();

/**
 * Encodes an HTML string in the given charset, writing unrepresentable characters as `&#N;`.
 *
 * @example
 * new Response(encodeHtml(page, 'iso-8859-1'), {
 *   headers: { 'content-type': 'text/html; charset=ISO-8859-1' },
 * });
 */
export function encodeHtml(html: string, charset: OciCharset): Uint8Array {
  if (charset === 'utf-8') return utf8.encode(html);
  const bytes: number[] = [];
  for (const character of html) {
    const codePoint = character.codePointAt(0)!;
    const byte = isRepresentable(codePoint, charset) ? windows1252ByteOf(codePoint) : undefined;
    if (byte !== undefined) {
      bytes.push(byte);
    } else {
      for (const c of `&#${codePoint};`) bytes.push(c.charCodeAt(0));
    }
  }
  return Uint8Array.from(bytes);
}
