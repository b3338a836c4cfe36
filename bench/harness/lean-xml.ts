/**
 * The physical floor's XML parse: the cheapest parse found that is still correct for what the gateway
 * takes in — it refuses a document that is not well-formed (unbalanced or crossed tags, a bad name, an
 * unquoted or duplicated attribute, `<` in an attribute value, an unknown entity, text outside the root,
 * a DTD internal subset as the gateway's markup guard does) and hands back every element with its
 * attributes and text, entities decoded, so a reader can take the request out of it. It builds a small tree
 * in one pass of `indexOf` and sticky regular expressions and nothing else: no options, no callbacks, no
 * value conversion. It lives in the bench only, as the measure of what parsing a document costs at least;
 * `probes/xml-parsers.ts` holds it against fast-xml-parser on the bench's documents.
 */

export interface LeanElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: LeanElement[];
  text: string;
}

export class LeanXmlError extends Error {}

const NAME = /[A-Za-z_:][\w.:-]*/y;
const ATTRIBUTE = /\s+([A-Za-z_:][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;
const CLOSE = /<\/([A-Za-z_:][\w.:-]*)\s*>/y;
const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const BAD_AMPERSAND = /&(?!(?:lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (!raw.includes('&')) return raw;
  if (BAD_AMPERSAND.test(raw)) throw new LeanXmlError(`a bad entity reference near offset ${at}`);
  return raw.replace(
    ENTITY,
    (_, named: string | undefined, dec: string | undefined, hex: string | undefined) =>
      named !== undefined ? NAMED[named]! : String.fromCodePoint(Number.parseInt(dec ?? hex!, dec ? 10 : 16)),
  );
}

/** Skips what may stand between elements: comments, processing instructions; answers the next index. */
function skipMisc(xml: string, at: number): number {
  if (xml.startsWith('<!--', at)) {
    const end = xml.indexOf('-->', at + 4);
    if (end < 0) throw new LeanXmlError('an unclosed comment');
    return end + 3;
  }
  if (xml.startsWith('<?', at)) {
    const end = xml.indexOf('?>', at + 2);
    if (end < 0) throw new LeanXmlError('an unclosed processing instruction');
    return end + 2;
  }
  return -1;
}

function openTag(xml: string, at: number): { element: LeanElement; end: number; empty: boolean } {
  NAME.lastIndex = at + 1;
  const name = NAME.exec(xml)?.[0];
  if (name === undefined) throw new LeanXmlError(`a bad element name at offset ${at}`);
  let i = at + 1 + name.length;
  const attributes: Record<string, string> = {};
  for (;;) {
    ATTRIBUTE.lastIndex = i;
    const attribute = ATTRIBUTE.exec(xml);
    if (attribute === null) break;
    const key = attribute[1]!;
    if (key in attributes) throw new LeanXmlError(`attribute ${key} twice on <${name}>`);
    attributes[key] = decode(attribute[2] ?? attribute[3]!, i);
    i = ATTRIBUTE.lastIndex;
  }
  TAG_END.lastIndex = i;
  const tagEnd = TAG_END.exec(xml);
  if (tagEnd === null) throw new LeanXmlError(`a bad tag <${name}> at offset ${at}`);
  return {
    element: { name, attributes, children: [], text: '' },
    end: TAG_END.lastIndex,
    empty: tagEnd[1] === '/',
  };
}

function prolog(xml: string): number {
  let i = 0;
  for (;;) {
    while (i < xml.length && xml.charCodeAt(i) <= 32) i++;
    const misc = skipMisc(xml, i);
    if (misc >= 0) {
      i = misc;
      continue;
    }
    if (!xml.startsWith('<!DOCTYPE', i)) return i;
    const end = xml.indexOf('>', i);
    const doctype = xml.slice(i, end);
    if (end < 0 || doctype.includes('[')) throw new LeanXmlError('a DOCTYPE with an internal subset');
    i = end + 1;
  }
}

/** The document's root element; throws LeanXmlError for a document that is not well-formed. */
export function parseLeanXml(xml: string): LeanElement {
  let i = prolog(xml);
  if (xml.charCodeAt(i) !== 60) throw new LeanXmlError('no root element');
  const stack: LeanElement[] = [];
  let root: LeanElement | undefined;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const top = stack[stack.length - 1];
    if (lt < 0 || lt > i) {
      const text = xml.slice(i, lt < 0 ? xml.length : lt);
      if (top === undefined) {
        if (text.trim() !== '') throw new LeanXmlError('text outside the root element');
      } else {
        if (text.includes(']]>')) throw new LeanXmlError(']]> in text');
        top.text += decode(text, i);
      }
      if (lt < 0) break;
      i = lt;
    }
    const next = xml.charCodeAt(i + 1);
    if (next === 47) {
      CLOSE.lastIndex = i;
      const name = CLOSE.exec(xml)?.[1];
      if (name === undefined || top?.name !== name)
        throw new LeanXmlError(`a stray closing tag at offset ${i}`);
      stack.pop();
      i = CLOSE.lastIndex;
    } else if (next === 33 && xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i + 9);
      if (end < 0 || top === undefined) throw new LeanXmlError('a CDATA section out of place');
      top.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (next === 33 || next === 63) {
      i = skipMisc(xml, i);
      if (i < 0) throw new LeanXmlError('a bad declaration in content');
    } else {
      if (top === undefined && root !== undefined) throw new LeanXmlError('a second root element');
      const { element, end, empty } = openTag(xml, i);
      if (top === undefined) root = element;
      else top.children.push(element);
      if (!empty) stack.push(element);
      i = end;
    }
  }
  if (root === undefined || stack.length > 0) throw new LeanXmlError('an unclosed element');
  return root;
}
