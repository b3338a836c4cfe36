/**
 * Reading the tree fast-xml-parser builds. The parser runs with entity processing off (so no DTD
 * entity can ever expand), which leaves the five predefined entities and character references in the
 * values; the accessors here decode exactly those, and only for the values punchgate reads.
 */
import { CxmlError } from './error.ts';

/**
 * One node of the tree fast-xml-parser builds in document order (`preserveOrder`, which spares the parser
 * a second walk that turns its tree into objects): an element `{ [its name]: its children, ':@': its
 * attributes as `@name` }`, a text run `{ '#text': text }` or a CDATA section `{ '#cdata': [{ '#text': text }] }`.
 * The whole document is `{ '#document': its top-level nodes }` (xml-tree.ts).
 */
export interface XmlElement {
  readonly [key: string]: readonly XmlElement[] | string | Readonly<Record<string, string>> | undefined;
}

/** An element (or the document) as the readers pass it around. */
export type XmlNode = XmlElement;

const ATTRIBUTES = ':@';
const TEXT = '#text';
const CDATA = '#cdata';
const NO_NODES: readonly XmlElement[] = [];

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

/** The node's name: its one key besides the attributes (`#text` and `#cdata` for text and CDATA). */
function nameOf(node: XmlElement): string | undefined {
  for (const key in node) if (key !== ATTRIBUTES) return key;
  return undefined;
}

/** The nodes inside an element (or the document), in document order. */
function nodesOf(node: XmlNode | undefined): readonly XmlElement[] {
  if (node === undefined) return NO_NODES;
  const name = nameOf(node);
  const nodes = name === undefined ? undefined : node[name];
  return Array.isArray(nodes) ? (nodes as readonly XmlElement[]) : NO_NODES;
}

/** The first child element called `name`. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  for (const each of nodesOf(node)) if (Object.hasOwn(each, name)) return each;
  return undefined;
}

/** Every child element called `name`, in document order. */
export function children(node: XmlNode | undefined, name: string): readonly XmlNode[] {
  return nodesOf(node).filter((each) => Object.hasOwn(each, name));
}

/** Follow a path of first children: `descend(request, 'BrowserFormPost', 'URL')`. */
export function descend(node: XmlNode | undefined, ...names: readonly string[]): XmlNode | undefined {
  let current = node;
  for (const name of names) current = child(current, name);
  return current;
}

/** Names of the child elements, in first-seen order. */
export function elementNames(node: XmlNode | undefined): string[] {
  const names: string[] = [];
  for (const each of nodesOf(node)) {
    const name = nameOf(each);
    if (name !== undefined && name !== TEXT && name !== CDATA && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The text runs of an element as the parser kept them (trimmed, references not decoded), joined. */
function ownText(node: XmlNode): string {
  let joined = '';
  for (const each of nodesOf(node)) {
    const value = each[TEXT];
    if (typeof value === 'string') joined += value;
  }
  return joined;
}

/** The element's own text (trimmed by the parser), decoded, then its CDATA as written; '' when absent or empty. */
export function text(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  let cdata = '';
  for (const each of nodesOf(node)) {
    const section = each[CDATA];
    if (Array.isArray(section)) cdata += ownText({ [CDATA]: section });
  }
  return decodeXmlText(ownText(node)) + cdata;
}

/** Text of the first child called `name`, or undefined when that child is absent or empty. */
export function childText(node: XmlNode | undefined, name: string): string | undefined {
  const value = text(child(node, name));
  return value === '' ? undefined : value;
}

/** An attribute value, decoded and trimmed; undefined when absent. */
export function attr(node: XmlNode | undefined, name: string): string | undefined {
  const attributes = node?.[ATTRIBUTES];
  if (attributes === undefined || typeof attributes === 'string' || Array.isArray(attributes))
    return undefined;
  const value = (attributes as Readonly<Record<string, string>>)[`@${name}`];
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
  const raw = ownText(node);
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
