/**
 * Every `Attachment` a request names, wherever it stands: cXML puts them in `Comments` (the header's, a
 * line's, a ship notice's), and buyers' systems differ in which they use. Each is kept with where it
 * stands, so a refusal can name the element of a `cid:` the message does not carry.
 */
import type { AttachmentReference } from './request-types.ts';
import { child, children, elementNames, text, type XmlNode } from './xml-node.ts';

/**
 * The Attachment/URL values under `node` (the request document's element, called `name`), in document
 * order, each with its path (`OrderRequest/ItemOut[2]/Comments/Attachment`). `raw` is the document's text:
 * one without the word costs no walk of its tree.
 */
export function readAttachmentReferences(node: XmlNode, name: string, raw: string): AttachmentReference[] {
  if (!raw.includes('Attachment')) return [];
  const found: AttachmentReference[] = [];
  walk(node, name, found);
  return found;
}

function walk(node: XmlNode, at: string, found: AttachmentReference[]): void {
  for (const name of elementNames(node)) {
    const each = children(node, name);
    each.forEach((element, index) => {
      const path = each.length > 1 ? `${at}/${name}[${index + 1}]` : `${at}/${name}`;
      if (name === 'Attachment') found.push({ url: text(child(element, 'URL')).trim(), at: path });
      else walk(element, path, found);
    });
  }
}
