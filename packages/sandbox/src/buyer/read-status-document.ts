/**
 * What reaches the order-status endpoint: a cXML Request holding a ConfirmationRequest or a
 * ShipNoticeRequest, with the Sender's shared secrets for authentication.
 */
import { type ConfirmationContent, readConfirmation } from './read-confirmation.ts';
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
    };

/**
 * @example
 * const document = readStatusDocument(await c.req.text());
 * document.content.orderID; // 'PO-1001'
 */
export function readStatusDocument(xml: string): StatusDocument {
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
  switch (kind) {
    case 'ConfirmationRequest':
      return { kind, senderSecrets, content: readConfirmation(request, payloadID) };
    case 'ShipNoticeRequest':
      return { kind, senderSecrets, content: readShipNotice(request, payloadID) };
    default:
      throw new SimulatorError(
        'unexpected_document',
        `This endpoint reads ConfirmationRequest and ShipNoticeRequest, not ${kind ?? 'an empty Request'}.`,
      );
  }
}
