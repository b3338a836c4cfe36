/**
 * Reading the cXML the simulator receives (setup and order responses, PunchOutOrderMessages,
 * ConfirmationRequests, ShipNoticeRequests) with fast-xml-parser: no value coercion (`0100` stays
 * `0100`), entities never expanded (only the five predefined ones and character references are decoded,
 * by the accessors here, with the gateway's own `decodeXmlText`), comments dropped, every element a list,
 * and BuyerCookie and SupplierPartAuxiliaryID kept raw because a buyer compares and echoes them byte for
 * byte. The parser and the accessors stay the simulator's own: it plays a buyer's system reading what the
 * gateway writes, so a mistake the gateway's reader shares with its writer would not hide here.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeXmlText } from 'punchgate/cxml';
import { SimulatorError } from './simulator-error.ts';

/** An element: attributes under `@name`, text under `#text`, children as lists. Text-only elements are strings. */
export type XmlNode = string | { readonly [key: string]: unknown };

/** Larger documents are refused before parsing. */
const MAX_DOCUMENT_CHARS = 1024 * 1024;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  cdataPropName: '#cdata',
  commentPropName: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  stopNodes: ['*.BuyerCookie', '*.SupplierPartAuxiliaryID'],
  isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
});

/**
 * Parses a cXML document and returns its root element, whatever the case of its name (`<cxml>` is seen
 * in the wild).
 */
export function readCxmlRoot(xml: string): XmlNode {
  const text = xml.replace(/^\uFEFF/, '');
  if (text.length > MAX_DOCUMENT_CHARS) {
    throw new SimulatorError(
      'malformed_xml',
      `The document has ${text.length} characters; the limit is 1 MiB.`,
    );
  }
  if (/<!ENTITY/i.test(text)) {
    throw new SimulatorError(
      'malformed_xml',
      'The document declares entities, which cXML documents never need.',
    );
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new SimulatorError(
      'malformed_xml',
      `The document is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col}).`,
    );
  }
  const tree = parser.parse(text) as Record<string, unknown>;
  const rootName = Object.keys(tree).find(
    (key) => !key.startsWith('#') && !key.startsWith('@') && !key.startsWith('!'),
  );
  if (rootName === undefined) throw new SimulatorError('malformed_xml', 'The document has no root element.');
  if (rootName.toLowerCase() !== 'cxml') {
    throw new SimulatorError('not_cxml', `The root element is <${rootName}>, not <cXML>.`);
  }
  const root = first(tree, rootName);
  if (root === undefined) throw new SimulatorError('malformed_xml', 'The document has no root element.');
  return root;
}

/** Every child element called `name`, in document order. */
export function all(node: XmlNode | undefined, name: string): readonly XmlNode[] {
  if (node === undefined || typeof node === 'string') return [];
  const value = node[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]) as readonly XmlNode[];
}

/** The first child element called `name`. */
export function first(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return all(node, name)[0];
}

/** Follows first children: `path(root, 'Response', 'Status')`. */
export function path(node: XmlNode | undefined, ...names: readonly string[]): XmlNode | undefined {
  let current = node;
  for (const name of names) current = first(current, name);
  return current;
}

/** Names of the child elements in first-seen order. */
export function childNames(node: XmlNode | undefined): string[] {
  if (node === undefined || typeof node === 'string') return [];
  return Object.keys(node).filter((key) => !key.startsWith('@') && !key.startsWith('#'));
}

function joinText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(joinText).join('');
  return '';
}

/** The element's own text, decoded; '' when absent. */
export function text(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return decodeXmlText(node);
  return decodeXmlText(joinText(node['#text'])) + joinText(node['#cdata']);
}

/** Text of the first child called `name`; undefined when absent or empty. */
export function childText(node: XmlNode | undefined, name: string): string | undefined {
  const value = text(first(node, name));
  return value === '' ? undefined : value;
}

/** An attribute, decoded and trimmed; undefined when absent. */
export function attr(node: XmlNode | undefined, name: string): string | undefined {
  if (node === undefined || typeof node === 'string') return undefined;
  const value = node[`@${name}`];
  return typeof value === 'string' ? decodeXmlText(value).trim() : undefined;
}

const COMMENT = /<!--[\s\S]*?-->/g;
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/g;

/**
 * The exact text of an element kept raw (BuyerCookie, SupplierPartAuxiliaryID): whitespace kept, comments
 * dropped, CDATA unwrapped, references decoded outside CDATA.
 */
export function rawText(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  const raw = typeof node === 'string' ? node : joinText(node['#text']);
  const withoutComments = raw.replace(COMMENT, '');
  let out = '';
  let last = 0;
  for (const match of withoutComments.matchAll(CDATA)) {
    out += decodeXmlText(withoutComments.slice(last, match.index));
    out += match[1] ?? '';
    last = match.index + match[0].length;
  }
  return out + decodeXmlText(withoutComments.slice(last));
}

/** The attribute, or a SimulatorError naming where it is missing. */
export function requiredAttr(node: XmlNode | undefined, name: string, where: string): string {
  const value = attr(node, name);
  if (value === undefined || value === '') {
    throw new SimulatorError('missing_field', `${where} has no ${name} attribute.`);
  }
  return value;
}
