/**
 * Reading a ShipNoticeRequest (Fulfill.dtd): carriers and tracking numbers from ShipControl (a sibling of
 * the portions, not a child), dates and comments from the header, and the shipped lines from the
 * ShipNoticePortion of the order. A portion without items means the whole order shipped.
 */
import { commentsText, readOrderReference } from './order-reference.ts';
import type { ShipNoticeView } from './requisition.ts';
import { SimulatorError } from './simulator-error.ts';
import { all, attr, childText, first, path, requiredAttr, text, type XmlNode } from './xml-reader.ts';

export type ShipNoticeContent = Omit<ShipNoticeView, 'receivedAt'> & { readonly orderID: string };

/** Reads the ShipNoticeRequest inside a cXML `<Request>`; `payloadID` is the envelope's. */
export function readShipNotice(request: XmlNode, payloadID: string): ShipNoticeContent {
  const notice = first(request, 'ShipNoticeRequest');
  const header = first(notice, 'ShipNoticeHeader');
  if (header === undefined)
    throw new SimulatorError('missing_field', 'ShipNoticeRequest has no ShipNoticeHeader.');
  const portion = first(notice, 'ShipNoticePortion');
  const reference = first(portion, 'OrderReference');
  if (reference === undefined) {
    throw new SimulatorError('missing_field', 'ShipNoticeRequest has no ShipNoticePortion/OrderReference.');
  }
  const controls = all(notice, 'ShipControl');
  const shipmentDate = attr(header, 'shipmentDate');
  const deliveryDate = attr(header, 'deliveryDate');
  const serviceLevel = childText(header, 'ServiceLevel');
  const { orderID, orderPayloadID } = readOrderReference(reference);
  return {
    orderID,
    payloadID,
    shipmentID: requiredAttr(header, 'shipmentID', 'ShipNoticeHeader'),
    operation: attr(header, 'operation') ?? 'new',
    noticeDate: attr(header, 'noticeDate') ?? '',
    ...(shipmentDate !== undefined && { shipmentDate }),
    ...(deliveryDate !== undefined && { deliveryDate }),
    ...(serviceLevel !== undefined && { serviceLevel }),
    comments: commentsText(header),
    ...(orderPayloadID !== undefined && { orderPayloadID }),
    carriers: controls.flatMap((control) =>
      all(control, 'CarrierIdentifier').map((carrier: XmlNode) => ({
        domain: attr(carrier, 'domain') ?? '',
        name: text(carrier).trim(),
      })),
    ),
    tracking: controls.flatMap((control) =>
      all(control, 'ShipmentIdentifier').map((identifier: XmlNode) => {
        const url = attr(identifier, 'trackingURL');
        return { number: text(identifier).trim(), ...(url !== undefined && url !== '' && { url }) };
      }),
    ),
    items: all(portion, 'ShipNoticeItem').map((item) => {
      const supplierPartID = childText(path(item, 'ItemID'), 'SupplierPartID');
      return {
        lineNumber: attr(item, 'lineNumber') ?? '',
        quantity: attr(item, 'quantity') ?? '',
        unitOfMeasure: childText(item, 'UnitOfMeasure') ?? '',
        ...(supplierPartID !== undefined && { supplierPartID }),
      };
    }),
  };
}
