/**
 * A small reader for the pages src/oci renders, standing in for the buyer's side: it finds the form and
 * its inputs the way SAP's background search or a meplato-style parser does, and decodes attribute values
 * as an HTML parser would (named and numeric character references).
 */

export interface ReadForm {
  readonly attributes: Readonly<Record<string, string>>;
  readonly inputs: readonly (readonly [string, string])[];
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeHtmlReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (reference, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
    return NAMED[body] ?? reference;
  });
}

function readAttributes(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-z-]+)="([^"]*)"/g)) {
    attributes[match[1]!] = decodeHtmlReferences(match[2]!);
  }
  return attributes;
}

/** The first form of the page with its hidden inputs, in document order. */
export function readForm(html: string): ReadForm {
  const form = /<form\s([^>]*)>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no form in page');
  const inputs = [...form[2]!.matchAll(/<input\s([^>]*)>/g)]
    .map((match) => readAttributes(match[1]!))
    .filter((attributes) => attributes.type === 'hidden')
    .map((attributes) => [attributes.name ?? '', attributes.value ?? ''] as const);
  return { attributes: readAttributes(form[1]!), inputs };
}

/** Groups NEW_ITEM-<FIELD>[n] and NEW_ITEM-LONGTEXT_<n>:132[] inputs into items by number. */
export function readOciItems(
  inputs: readonly (readonly [string, string])[],
): Map<number, Map<string, string>> {
  const items = new Map<number, Map<string, string>>();
  for (const [name, value] of inputs) {
    const field = /^NEW_ITEM-([A-Z0-9_]+)\[(\d+)\]$/.exec(name);
    const longText = /^NEW_ITEM-LONGTEXT_(\d+):132\[\]$/.exec(name);
    const [key, index] = field
      ? [field[1]!, Number(field[2])]
      : longText
        ? ['LONGTEXT', Number(longText[1])]
        : [];
    if (key === undefined || index === undefined) continue;
    const item = items.get(index) ?? new Map<string, string>();
    item.set(key, value);
    items.set(index, item);
  }
  return items;
}
