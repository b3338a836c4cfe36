/**
 * Reading back which PO lines a ShipNoticeRequest punchgate built names (`build-ship-notice.ts`): a notice
 * is sent again byte for byte, so whether the buyer's ASNInstruction still allows it is a question about the
 * lines in the document itself.
 */
import { CxmlError } from './error.ts';
import { child, children, descend, requiredAttr } from './xml-node.ts';
import { parseXmlTree } from './xml-tree.ts';

/** The lineNumber of every ShipNoticeItem of every ShipNoticePortion, in document order. */
export function readShipNoticeLineNumbers(xml: string): number[] {
  const request = descend(child(parseXmlTree(xml), 'cXML'), 'Request', 'ShipNoticeRequest');
  if (request === undefined) throw new CxmlError('malformed', 'The document is not a ShipNoticeRequest');
  return children(request, 'ShipNoticePortion').flatMap((portion) =>
    children(portion, 'ShipNoticeItem').map((item) =>
      Number(requiredAttr(item, 'lineNumber', 'ShipNoticeItem')),
    ),
  );
}
