/**
 * Reading the tree fast-xml-parser builds. The parser runs with entity processing off (so no DTD
 * entity can ever expand), which leaves the five predefined entities and character references in the
 * values; the accessors here decode exactly those, and only for the values punchgate reads.
 */
import { CxmlError } from './error.ts';

type XmlValue = string | XmlElement | readonly XmlValue[];

/** An element with attributes (`@name`), text (`#text`), CDATA (`#cdata`) or child elements. */
export interface XmlElement {
  readonly [key: string]: XmlValue | undefined;
}

/** An element as the parser gives it: a plain string when it holds only text (or nothing). */
export type XmlNode = string | XmlElement;

const ENTITY = /&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeReference(match: string, hex?: string, decimal?: string, name?: string): string {
  if (name !== undefined) return NAMED[name] ?? match;
  const codePoint = Number.parseInt(hex ?? decimal ?? '', hex === undefined ? 10 : 16);
  // A reference to a code point XML cannot carry is left as written rather than guessed at.
  if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return match;
  return String.fromCodePoint(codePoint);
}

/**
 * Decode the predefined entities and character references. Any other `&name;` stays as written:
 * no DTD is read, and buyers do send bare `&` in URLs.
 */
export function decodeXmlText(value: string): string {
  return value.includes('&') ? value.replace(ENTITY, decodeReference) : value;
}

function asNode(value: XmlValue | undefined): XmlNode | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return asNode(value[0] as XmlValue | undefined);
  return value as XmlNode;
}

/** The first child element called `name`. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  if (node === undefined || typeof node === 'string') return undefined;
  return asNode(node[name]);
}

/** Every child element called `name`, in document order. */
export function children(node: XmlNode | undefined, name: string): readonly XmlNode[] {
  if (node === undefined || typeof node === 'string') return [];
  const value = node[name];
  if (value === undefined) return [];
  if (Array.isArray(value)) return value as readonly XmlNode[];
  return [value as XmlNode];
}

/** Follow a path of first children: `descend(request, 'BrowserFormPost', 'URL')`. */
export function descend(node: XmlNode | undefined, ...names: readonly string[]): XmlNode | undefined {
  let current = node;
  for (const name of names) current = child(current, name);
  return current;
}

/** Names of the child elements, in first-seen order. */
export function elementNames(node: XmlNode | undefined): string[] {
  if (node === undefined || typeof node === 'string') return [];
  return Object.keys(node).filter((key) => {
    const first = key.charCodeAt(0);
    return first !== 0x40 && first !== 0x23; // '@' attributes, '#text' and '#cdata'
  });
}

/** The element's own text (trimmed by the parser), decoded; '' when absent or empty. */
export function text(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return decodeXmlText(node);
  const own = node['#text'];
  const cdata = node['#cdata'];
  const decoded = typeof own === 'string' ? decodeXmlText(own) : '';
  return typeof cdata === 'string' ? decoded + cdata : decoded;
}

/** Text of the first child called `name`, or undefined when that child is absent or empty. */
export function childText(node: XmlNode | undefined, name: string): string | undefined {
  const value = text(child(node, name));
  return value === '' ? undefined : value;
}

/** An attribute value, decoded and trimmed; undefined when absent. */
export function attr(node: XmlNode | undefined, name: string): string | undefined {
  if (node === undefined || typeof node === 'string') return undefined;
  const value = node[`@${name}`];
  return typeof value === 'string' ? decodeXmlText(value).trim() : undefined;
}

/** An attribute that must be there and not blank. */
export function requiredAttr(node: XmlNode | undefined, name: string, where: string): string {
  const value = attr(node, name);
  if (value === undefined || value === '') {
    throw new CxmlError('missing_field', `${where} has no ${name} attribute`);
  }
  return value;
}

const COMMENT = /<!--[\s\S]*?-->/g;
const CDATA_SECTION = /<!\[CDATA\[([\s\S]*?)\]\]>/g;

/**
 * The exact text of an element the parser kept raw (BuyerCookie, SupplierPartAuxiliaryID): whitespace
 * and line breaks are kept because the buyer compares the echo byte for byte. CDATA is unwrapped and
 * references decoded. Child elements are refused: the value is echoed as text later, so markup in it
 * would silently turn into a different value.
 */
export function rawText(node: XmlNode | undefined, where: string): string {
  if (node === undefined) return '';
  const raw = typeof node === 'string' ? node : typeof node['#text'] === 'string' ? node['#text'] : '';
  if (!raw.includes('<')) return decodeXmlText(raw);
  let out = '';
  let last = 0;
  const withoutComments = raw.replace(COMMENT, '');
  for (const match of withoutComments.matchAll(CDATA_SECTION)) {
    out += decodeOutsideCdata(withoutComments.slice(last, match.index), where);
    out += match[1];
    last = match.index + match[0].length;
  }
  return out + decodeOutsideCdata(withoutComments.slice(last), where);
}

function decodeOutsideCdata(segment: string, where: string): string {
  if (segment.includes('<')) {
    throw new CxmlError('invalid_value', `${where} must be text; it contains markup`);
  }
  return decodeXmlText(segment);
}
