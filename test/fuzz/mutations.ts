/**
 * fast-check arbitraries that damage documents the way hostile or broken senders do: flipped bytes, cut
 * bodies, duplicated or removed elements, markup characters dropped into the middle, huge repeats.
 * Mutations work on bytes (as a latin1 string, one char per byte), so encodings and BOMs get damaged too.
 */
import fc from 'fast-check';

export type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'duplicateElement'; which: number }
  | { kind: 'removeElement'; which: number }
  | { kind: 'repeat'; at: number; length: number; times: number };

/** Fragments that upset XML parsers and HTML pages alike. */
export const HOSTILE_FRAGMENTS = [
  '<',
  '>',
  '&',
  ']]>',
  '<![CDATA[',
  '<!--',
  '-->',
  '&amp',
  '&#0;',
  '&#xD800;',
  '&unknown;',
  '<?xml version="1.0"?>',
  '<!DOCTYPE x [<!ENTITY e "e">]>',
  '"',
  "'",
  '\u0000',
  '\uFFFE',
  '\uD800',
  '</cXML>',
  '<cXML>',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '%00',
  '%',
  '+',
  '=',
  '&amp;',
  '\r\n',
] as const;

const insertText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_FRAGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: insertText }),
  fc.record({ kind: fc.constant('duplicateElement' as const), which: fc.nat() }),
  fc.record({ kind: fc.constant('removeElement' as const), which: fc.nat() }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 64 }),
    // Mostly small repeats; now and then one that lands around the 1 MB body limit.
    times: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 2, max: 50 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20_000 }) },
    ),
  }),
);

export const mutations = fc.array(mutation, { minLength: 1, maxLength: 4 });

const toBinary = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const fromBinary = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const utf8AsBinary = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Start and end of the `which`-th element (modulo their number) that has a closing tag, if any. */
function elementSpan(text: string, which: number): [number, number] | undefined {
  const opens = [...text.matchAll(/<([A-Za-z][\w.:-]*)[^>]*>/g)];
  if (opens.length === 0) return undefined;
  for (let tried = 0; tried < opens.length; tried++) {
    const open = opens[(which + tried) % opens.length];
    if (open === undefined || open.index === undefined) continue;
    if (open[0].endsWith('/>')) return [open.index, open.index + open[0].length];
    const closeTag = `</${open[1]}>`;
    const close = text.indexOf(closeTag, open.index);
    if (close !== -1) return [open.index, close + closeTag.length];
  }
  return undefined;
}

export function applyMutation(text: string, m: Mutation): string {
  const position = 'at' in m ? m.at : 0;
  const at =
    text.length === 0 ? 0 : m.kind === 'flip' ? position % text.length : position % (text.length + 1);
  switch (m.kind) {
    case 'flip': {
      if (text.length === 0) return text;
      const flipped = String.fromCharCode(text.charCodeAt(at) ^ (1 << m.bit));
      return text.slice(0, at) + flipped + text.slice(at + 1);
    }
    case 'truncate':
      return text.slice(0, at);
    case 'insert':
      return text.slice(0, at) + utf8AsBinary(m.text) + text.slice(at);
    case 'duplicateElement': {
      const span = elementSpan(text, m.which);
      if (span === undefined) return text;
      return text.slice(0, span[1]) + text.slice(span[0], span[1]) + text.slice(span[1]);
    }
    case 'removeElement': {
      const span = elementSpan(text, m.which);
      return span === undefined ? text : text.slice(0, span[0]) + text.slice(span[1]);
    }
    case 'repeat': {
      const piece = text.slice(at, at + m.length) || '<';
      return text.slice(0, at) + piece.repeat(m.times) + text.slice(at);
    }
  }
}

/** The bytes after every mutation, in order. */
export function mutateBytes(bytes: Uint8Array, list: readonly Mutation[]): Uint8Array<ArrayBuffer> {
  let text = toBinary(bytes);
  for (const m of list) text = applyMutation(text, m);
  return fromBinary(text);
}

/** Text with every mutation applied, for inputs that are text rather than bytes (URLs, query strings). */
export function mutateText(text: string, list: readonly Mutation[]): string {
  let out = text;
  for (const m of list) out = applyMutation(out, m);
  return out;
}

/** The text with lone surrogates replaced, as a browser does before percent-encoding a URL. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
