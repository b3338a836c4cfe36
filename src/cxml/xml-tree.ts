/**
 * The fast-xml-parser set-up for inbound cXML: nothing coerced (`0100` stays `0100`), entities never
 * expanded, comments dropped, repeatable elements always arrays, and BuyerCookie and
 * SupplierPartAuxiliaryID kept raw because they are echoed back to the buyer unchanged.
 */
import { XMLParser } from 'fast-xml-parser';
import { CxmlError } from './error.ts';
import type { XmlElement } from './xml-node.ts';

/** Elements the cXML DTDs allow more than once where punchgate reads them. */
const REPEATABLE = new Set([
  'AccountingSegment',
  'Attachment',
  'CarrierIdentifier',
  'Classification',
  'Comments',
  'Contact',
  'Credential',
  'DeliverTo',
  'Description',
  'Distribution',
  'Email',
  'Extrinsic',
  'Fax',
  'IdReference',
  'ItemIn',
  'ItemOut',
  'Option',
  'Phone',
  'Segment',
  'ShipmentIdentifier',
  'Street',
  'Transaction',
]);

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
  // Callbacks get a matcher instead of a jPath string built for every tag: a third faster.
  jPath: false,
  // The markup guard enforces the configured depth before parsing; this must never be the tighter cap.
  maxNestedTags: Number.MAX_SAFE_INTEGER,
  stopNodes: ['..BuyerCookie', '..SupplierPartAuxiliaryID'],
  isArray: (tagName) => REPEATABLE.has(tagName),
});

/** Parse a document that has passed the markup guard. */
export function parseXmlTree(xml: string): XmlElement {
  try {
    return parser.parse(xml) as XmlElement;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CxmlError('malformed', `XML could not be parsed: ${reason}`);
  }
}
