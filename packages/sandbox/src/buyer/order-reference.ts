/**
 * What a ConfirmationRequest and a ShipNoticeRequest (Fulfill.dtd) share and the simulator reads the same
 * way in both: the OrderReference that names the purchase order, and the header's Comments.
 */
import { all, attr, first, requiredAttr, text, type XmlNode } from './xml-reader.ts';

/** The order an OrderReference names: its orderID (required) and the OrderRequest's payloadID if given. */
export function readOrderReference(reference: XmlNode): {
  orderID: string;
  orderPayloadID: string | undefined;
} {
  return {
    orderID: requiredAttr(reference, 'orderID', 'OrderReference'),
    orderPayloadID: attr(first(reference, 'DocumentReference'), 'payloadID'),
  };
}

/** The Comments elements' text, trimmed, empty ones left out, joined by line breaks. */
export function commentsText(node: XmlNode | undefined): string {
  return all(node, 'Comments')
    .map((c) => text(c).trim())
    .filter((c) => c !== '')
    .join('\n');
}
