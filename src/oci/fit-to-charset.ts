/**
 * Makes a cart text sendable to a buyer in its charset.
 *
 * Decision: characters the buyer's charset cannot hold are transliterated, not written as character
 * references. A browser submits a character its form charset lacks as the literal text `&#8364;`, which would
 * land in the buyer's requisition as such; "EUR" or "o" reads better and keeps the field length honest.
 * Order: NFC (so a decomposed ü stays ü), drop control characters (SAP rejects them, and C1 bytes would be
 * read as windows-1252 punctuation), then per character: keep it, use the table below, strip its accents
 * (ő → o, č → c), or fall back to `?`.
 */

import { isRepresentable, type OciCharset } from './charset.ts';

const TRANSLITERATIONS: ReadonlyMap<string, string> = new Map([
  ['€', 'EUR'],
  ['‚', ','],
  ['„', '"'],
  ['“', '"'],
  ['”', '"'],
  ['‟', '"'],
  ['″', '"'],
  ['‘', "'"],
  ['’', "'"],
  ['‛', "'"],
  ['′', "'"],
  ['‹', '<'],
  ['›', '>'],
  ['‐', '-'],
  ['‑', '-'],
  ['‒', '-'],
  ['–', '-'],
  ['—', '-'],
  ['―', '-'],
  ['−', '-'],
  ['…', '...'],
  ['•', '*'],
  ['†', '+'],
  ['‡', '++'],
  ['‰', ' per mille'],
  ['™', '(TM)'],
  ['ˆ', '^'],
  ['˜', '~'],
  ['ƒ', 'f'],
  ['Œ', 'OE'],
  ['œ', 'oe'],
  ['Ł', 'L'],
  ['ł', 'l'],
  ['Đ', 'D'],
  ['đ', 'd'],
  ['ı', 'i'],
  ['ẞ', 'SS'],
  ['\u2009', ' '],
  ['\u202f', ' '],
  ['\u2007', ' '],
]);

const COMBINING_MARK = /\p{M}/u;
/** C0 controls except tab and line feed, DEL, and C1 controls: never valid in an SAP text field. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Returns `text` in NFC without control characters (tab and line feed stay; CR LF and lone CR become LF),
 * with every character the charset lacks transliterated or replaced by `?`.
 *
 * @example
 * fitToCharset('Preis 5 € – „Premium“', 'iso-8859-1'); // 'Preis 5 EUR - "Premium"'
 * fitToCharset('Preis 5 € – „Premium“', 'windows-1252'); // unchanged: windows-1252 has € – „ “
 */
export function fitToCharset(text: string, charset: OciCharset): string {
  const cleaned = text.normalize('NFC').replace(/\r\n?/g, '\n').replace(CONTROL_CHARACTERS, '');
  let result = '';
  for (const character of cleaned) {
    result += fitCharacter(character, charset);
  }
  return result;
}

function fitCharacter(character: string, charset: OciCharset): string {
  if (isRepresentable(character.codePointAt(0)!, charset)) return character;
  const replacement = TRANSLITERATIONS.get(character);
  if (replacement !== undefined && allRepresentable(replacement, charset)) return replacement;
  const base = Array.from(character.normalize('NFD'))
    .filter((c) => !COMBINING_MARK.test(c))
    .join('');
  if (base !== '' && base !== character && allRepresentable(base, charset)) return base;
  return '?';
}

function allRepresentable(text: string, charset: OciCharset): boolean {
  for (const character of text) {
    if (!isRepresentable(character.codePointAt(0)!, charset)) return false;
  }
  return true;
}
