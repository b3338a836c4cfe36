/**
 * Reading a ConfirmationRequest (Fulfill.dtd): the supplier accepting, rejecting or detailing a purchase
 * order, as the requisition page shows it: header type, comments and extrinsics, and each line's
 * statuses with quantities, dates and changed prices.
 */
import { commentsText, readOrderReference } from './order-reference.ts';
import type { ConfirmationView } from './requisition.ts';
import { SimulatorError } from './simulator-error.ts';
import { all, attr, childText, first, path, requiredAttr, text, type XmlNode } from './xml-reader.ts';

export type ConfirmationContent = Omit<ConfirmationView, 'receivedAt'> & { readonly orderID: string };

function money(node: XmlNode | undefined): string | undefined {
  const amount = childText(node, 'Money');
  if (amount === undefined) return undefined;
  const currency = attr(first(node, 'Money'), 'currency');
  return currency === undefined ? amount.trim() : `${amount.trim()} ${currency}`;
}

/** Reads the ConfirmationRequest inside a cXML `<Request>`; `payloadID` is the envelope's. */
export function readConfirmation(request: XmlNode, payloadID: string): ConfirmationContent {
  const confirmation = first(request, 'ConfirmationRequest');
  const header = first(confirmation, 'ConfirmationHeader');
  if (header === undefined)
    throw new SimulatorError('missing_field', 'ConfirmationRequest has no ConfirmationHeader.');
  const reference = first(confirmation, 'OrderReference');
  if (reference === undefined)
    throw new SimulatorError('missing_field', 'ConfirmationRequest has no OrderReference.');
  const confirmID = attr(header, 'confirmID');
  const { orderID, orderPayloadID } = readOrderReference(reference);
  return {
    orderID,
    payloadID,
    type: requiredAttr(header, 'type', 'ConfirmationHeader'),
    operation: attr(header, 'operation') ?? 'new',
    ...(confirmID !== undefined && confirmID !== '' && { confirmID }),
    noticeDate: attr(header, 'noticeDate') ?? '',
    comments: commentsText(header),
    ...(orderPayloadID !== undefined && { orderPayloadID }),
    extrinsics: all(header, 'Extrinsic').map((e) => ({ name: attr(e, 'name') ?? '', value: text(e).trim() })),
    items: all(confirmation, 'ConfirmationItem').map((item) => ({
      lineNumber: attr(item, 'lineNumber') ?? '',
      quantity: attr(item, 'quantity') ?? '',
      unitOfMeasure: childText(item, 'UnitOfMeasure') ?? '',
      statuses: all(item, 'ConfirmationStatus').map((status) => {
        const shipmentDate = attr(status, 'shipmentDate');
        const deliveryDate = attr(status, 'deliveryDate');
        const unitPrice = money(path(status, 'UnitPrice'));
        return {
          type: attr(status, 'type') ?? '',
          quantity: attr(status, 'quantity') ?? '',
          ...(shipmentDate !== undefined && { shipmentDate }),
          ...(deliveryDate !== undefined && { deliveryDate }),
          ...(unitPrice !== undefined && { unitPrice }),
          comments: commentsText(status),
        };
      }),
    })),
  };
}
