/**
 * Reading back a ConfirmationRequest punchgate built (`build-confirmation.ts`): a confirmation is changed
 * only by an `operation="update"` that restates it whole, so the gateway reads what the version it replaces
 * said — the document as sent is the one record of it. Only the parts the builder writes are read; the
 * answer has the builder's own input shapes, so an update is the old items with some statuses replaced.
 */
import {
  CONFIRMATION_TYPES,
  type ConfirmationItemInput,
  type ConfirmationStatusInput,
  type ConfirmationStatusType,
  type ConfirmationType,
  STATUS_TYPES,
} from './build-confirmation.ts';
import { CxmlError } from './error.ts';
import { attr, child, childText, children, descend, requiredAttr, text, type XmlNode } from './xml-node.ts';
import { parseXmlTree } from './xml-tree.ts';

export interface ConfirmationRead {
  /** The envelope's payloadID: what an update's DocumentReference names. */
  readonly payloadID: string;
  /** The OrderRequest confirmed (OrderReference/DocumentReference). */
  readonly orderPayloadID: string;
  readonly confirmID?: string;
  readonly operation: 'new' | 'update';
  readonly type: ConfirmationType;
  readonly version?: number;
  readonly items: readonly ConfirmationItemInput[];
}

function malformed(what: string): CxmlError {
  return new CxmlError('malformed', `ConfirmationRequest: ${what}`);
}

function oneOf<T extends string>(value: string, allowed: ReadonlySet<string>, where: string): T {
  if (!allowed.has(value)) throw malformed(`${where} "${value}" is not a Fulfill.dtd type`);
  return value as T;
}

function statusOf(node: XmlNode, where: string): ConfirmationStatusInput {
  // A price per a basis comes inside an ItemIn: it is a price all the same.
  const money =
    descend(node, 'UnitPrice', 'Money') ?? descend(node, 'ItemIn', 'ItemDetail', 'UnitPrice', 'Money');
  const shipmentDate = attr(node, 'shipmentDate');
  const deliveryDate = attr(node, 'deliveryDate');
  const comments = childText(node, 'Comments');
  return {
    type: oneOf<ConfirmationStatusType>(requiredAttr(node, 'type', where), STATUS_TYPES, `${where} type`),
    quantity: requiredAttr(node, 'quantity', where),
    ...(shipmentDate !== undefined && { shipmentDate }),
    ...(deliveryDate !== undefined && { deliveryDate }),
    ...(money !== undefined && {
      unitPrice: { value: text(money), currency: requiredAttr(money, 'currency', `${where} UnitPrice`) },
    }),
    ...(comments !== undefined && { comments }),
  };
}

function itemOf(node: XmlNode, index: number): ConfirmationItemInput {
  const where = `ConfirmationItem ${index + 1}`;
  const lineNumber = Number(requiredAttr(node, 'lineNumber', where));
  if (!Number.isSafeInteger(lineNumber)) throw malformed(`${where} lineNumber is not a whole number`);
  return {
    lineNumber,
    quantity: requiredAttr(node, 'quantity', where),
    unitOfMeasure: childText(node, 'UnitOfMeasure') ?? '',
    statuses: children(node, 'ConfirmationStatus').map((status, at) =>
      statusOf(status, `${where} ConfirmationStatus ${at + 1}`),
    ),
  };
}

/**
 * What a ConfirmationRequest document says: its envelope payloadID, the order it confirms, the header's
 * confirmID, operation, type and version, and every item with its statuses.
 */
export function readConfirmationRequest(xml: string): ConfirmationRead {
  const root = child(parseXmlTree(xml), 'cXML');
  const request = descend(root, 'Request', 'ConfirmationRequest');
  const header = child(request, 'ConfirmationHeader');
  if (header === undefined) throw malformed('no ConfirmationHeader');
  const orderPayloadID = attr(descend(request, 'OrderReference', 'DocumentReference'), 'payloadID');
  if (orderPayloadID === undefined) throw malformed('no OrderReference/DocumentReference payloadID');
  const confirmID = attr(header, 'confirmID');
  const version = attr(header, 'version');
  return {
    payloadID: requiredAttr(root, 'payloadID', 'cXML'),
    orderPayloadID,
    ...(confirmID !== undefined && confirmID !== '' && { confirmID }),
    operation: attr(header, 'operation') === 'update' ? 'update' : 'new',
    type: oneOf<ConfirmationType>(
      requiredAttr(header, 'type', 'ConfirmationHeader'),
      CONFIRMATION_TYPES,
      'type',
    ),
    ...(version !== undefined && { version: Number(version) }),
    items: children(request, 'ConfirmationItem').map(itemOf),
  };
}
