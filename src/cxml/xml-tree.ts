/**
 * The fast-xml-parser set-up for inbound cXML: nothing coerced (`0100` stays `0100`), entities never
 * expanded, comments dropped, the tree kept in document order (xml-node.ts reads it), and BuyerCookie and
 * SupplierPartAuxiliaryID kept raw because they are echoed back to the buyer unchanged. Measured on the
 * bench's setup and 5-line PO (bench/probes/xml-parse-options.ts), document order is the one option that
 * makes the parse cheaper (a quarter); every other is already at its cheapest.
 */
import { type X2jOptions, XMLParser } from 'fast-xml-parser';
import { CxmlError } from './error.ts';
import type { XmlElement } from './xml-node.ts';

/** The codec's set-up, exported for bench/probes/xml-parse-options.ts to vary one option at a time. */
export const CODEC_PARSER_OPTIONS = {
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
  // Callbacks get a matcher instead of a jPath string built for every tag: a third faster.
  jPath: false,
  // The markup guard enforces the configured depth before parsing; this must never be the tighter cap.
  maxNestedTags: Number.MAX_SAFE_INTEGER,
  stopNodes: ['..BuyerCookie', '..SupplierPartAuxiliaryID'],
  // In document order, as the parser builds it: turning that into objects is a second walk of the tree.
  preserveOrder: true,
} satisfies X2jOptions;

const parser = new XMLParser(CODEC_PARSER_OPTIONS);

/** Parse a document that has passed the markup guard: `{ '#document': its top-level nodes }`. */
export function parseXmlTree(xml: string): XmlElement {
  try {
    return { '#document': parser.parse(xml) as XmlElement[] };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CxmlError('malformed', `XML could not be parsed: ${reason}`);
  }
}
