/**
 * A small element tree and its serializer for the documents punchgate sends. Element order is exactly
 * the order the builder wrote, so builders can follow the DTD literally. Text and attributes are
 * escaped here and nowhere else; characters XML 1.0 cannot carry (control characters, lone
 * surrogates) are dropped, and `ascii` writes every non-ASCII character as a character reference for
 * the `cxml-urlencoded` form field, whose receivers must read it as US-ASCII.
 */

export type XmlAttributeValue = string | number | undefined;

export interface XmlElementSpec {
  readonly name: string;
  readonly attributes: Readonly<Record<string, XmlAttributeValue>>;
  readonly content: readonly XmlContent[];
}

export type XmlContent = XmlElementSpec | string;

type ContentArgument = XmlContent | undefined | false | readonly (XmlContent | undefined | false)[];

/**
 * An element; `undefined` and `false` content is skipped so optional parts read inline.
 *
 * @example
 * el('Money', { currency: 'EUR' }, '12.50');
 */
export function el(
  name: string,
  attributes: Readonly<Record<string, XmlAttributeValue>> = {},
  ...content: readonly ContentArgument[]
): XmlElementSpec {
  const flat: XmlContent[] = [];
  for (const item of content) {
    if (Array.isArray(item)) {
      for (const inner of item) if (inner !== undefined && inner !== false) flat.push(inner);
    } else if (item !== undefined && item !== false) {
      flat.push(item as XmlContent);
    }
  }
  return { name, attributes, content: flat };
}

export interface SerializeOptions {
  /** Write every non-ASCII character as `&#x…;`. */
  readonly ascii?: boolean;
}

const TEXT_SPECIALS = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
const ATTRIBUTE_SPECIALS = /[&<>"'\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
const TEXT_SPECIALS_ASCII = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u{10FFFF}]/gu;
const ATTRIBUTE_SPECIALS_ASCII = /[&<>"'\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u{10FFFF}]/gu;

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function isXmlChar(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    (codePoint >= 0x10000 && codePoint <= 0x10ffff)
  );
}

function escapeSpecial(match: string): string {
  const named = NAMED_ESCAPES[match];
  if (named !== undefined) return named;
  const codePoint = match.codePointAt(0) ?? 0;
  return isXmlChar(codePoint) ? `&#x${codePoint.toString(16).toUpperCase()};` : '';
}

export function escapeXmlText(value: string, options: SerializeOptions = {}): string {
  return value.replace(options.ascii ? TEXT_SPECIALS_ASCII : TEXT_SPECIALS, escapeSpecial);
}

export function escapeXmlAttribute(value: string, options: SerializeOptions = {}): string {
  return value.replace(options.ascii ? ATTRIBUTE_SPECIALS_ASCII : ATTRIBUTE_SPECIALS, escapeSpecial);
}

function openTag(element: XmlElementSpec, options: SerializeOptions): string {
  let tag = `<${element.name}`;
  for (const [name, value] of Object.entries(element.attributes)) {
    if (value === undefined) continue;
    tag += ` ${name}="${escapeXmlAttribute(String(value), options)}"`;
  }
  return tag;
}

function write(element: XmlElementSpec, indent: string, options: SerializeOptions, out: string[]): void {
  const open = openTag(element, options);
  if (element.content.length === 0) {
    out.push(`${indent}${open}/>`);
    return;
  }
  // Text is significant (BuyerCookie, SupplierPartAuxiliaryID are echoed byte for byte), so any element
  // holding text is written on one line with no added whitespace; only element-only content is indented.
  if (element.content.some((item) => typeof item === 'string')) {
    out.push(
      `${indent}${open}>${element.content.map((item) => inline(item, options)).join('')}</${element.name}>`,
    );
    return;
  }
  out.push(`${indent}${open}>`);
  for (const item of element.content) write(item as XmlElementSpec, `${indent}  `, options, out);
  out.push(`${indent}</${element.name}>`);
}

function inline(item: XmlContent, options: SerializeOptions): string {
  if (typeof item === 'string') return escapeXmlText(item, options);
  const open = openTag(item, options);
  if (item.content.length === 0) return `${open}/>`;
  return `${open}>${item.content.map((inner) => inline(inner, options)).join('')}</${item.name}>`;
}

/** The element as indented XML text, without a declaration. */
export function serializeXml(element: XmlElementSpec, options: SerializeOptions = {}): string {
  const out: string[] = [];
  write(element, '', options, out);
  return out.join('\n');
}
