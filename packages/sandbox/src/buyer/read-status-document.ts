/**
 * What reaches the order-status endpoint: a cXML Request holding a ConfirmationRequest, a
 * ShipNoticeRequest or an InvoiceDetailRequest, with the Sender's shared secrets for authentication. A
 * profile's own invoice URL reads InvoiceDetailRequests only.
 */
import { type ConfirmationContent, readConfirmation } from './read-confirmation.ts';
import { type InvoiceContent, readInvoice } from './read-invoice.ts';
import { readShipNotice, type ShipNoticeContent } from './read-ship-notice.ts';
import { SimulatorError } from './simulator-error.ts';
import { all, attr, childNames, first, path, readCxmlRoot, text } from './xml-reader.ts';

export type StatusDocument =
  | {
      readonly kind: 'ConfirmationRequest';
      readonly senderSecrets: readonly string[];
      readonly content: ConfirmationContent;
    }
  | {
      readonly kind: 'ShipNoticeRequest';
      readonly senderSecrets: readonly string[];
      readonly content: ShipNoticeContent;
    }
  | {
      readonly kind: 'InvoiceDetailRequest';
      readonly senderSecrets: readonly string[];
      readonly content: InvoiceContent;
    };

export type StatusDocumentKind = StatusDocument['kind'];

/** What the order-status endpoint reads. */
export const ORDER_STATUS_KINDS: readonly StatusDocumentKind[] = [
  'ConfirmationRequest',
  'ShipNoticeRequest',
  'InvoiceDetailRequest',
];

function listed(kinds: readonly string[]): string {
  return kinds.length <= 1 ? (kinds[0] ?? '') : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
}

/**
 * @example
 * const document = readStatusDocument(await c.req.text());
 * document.content.orderID; // 'PO-1001'
 */
export function readStatusDocument(
  xml: string,
  accepted: readonly StatusDocumentKind[] = ORDER_STATUS_KINDS,
): StatusDocument {
  const root = readCxmlRoot(xml);
  const request = first(root, 'Request');
  if (request === undefined) {
    throw new SimulatorError('unexpected_document', 'The document holds no <Request>.');
  }
  const payloadID = attr(root, 'payloadID') ?? '';
  const senderSecrets = all(path(root, 'Header', 'Sender'), 'Credential').map((credential) =>
    text(first(credential, 'SharedSecret')),
  );
  const kind = childNames(request)[0];
  const unexpected = () =>
    new SimulatorError(
      'unexpected_document',
      `This endpoint reads ${listed(accepted)}, not ${kind ?? 'an empty Request'}.`,
    );
  if (!accepted.includes(kind as StatusDocumentKind)) throw unexpected();
  switch (kind) {
    case 'ConfirmationRequest':
      return { kind, senderSecrets, content: readConfirmation(request, payloadID) };
    case 'ShipNoticeRequest':
      return { kind, senderSecrets, content: readShipNotice(request, payloadID) };
    case 'InvoiceDetailRequest':
      return { kind, senderSecrets, content: readInvoice(request, payloadID) };
    default:
      throw unexpected();
  }
}
