/**
 * Reading `<ItemOut>` lines, in a setup request (edit/inspect carries the current cart) and in an
 * OrderRequest (where price and unit of measure are required).
 */
import { readMoney, readPriceBasis, readQuantity } from './read-money.ts';
import { CxmlError } from './error.ts';
import { readExtrinsics } from './extrinsics.ts';
import { readAddress } from './read-address.ts';
import { readControlKeys } from './read-control-keys.ts';
import { readDistribution } from './read-distribution.ts';
import type { Classification, ItemOut, ItemReference, OrderItem } from './request-types.ts';
import { readTimestampValue } from './timestamp.ts';
import { attr, child, children, childText, rawText, text, type XmlNode } from './xml-node.ts';

const WHOLE_NUMBER = /^\d{1,9}$/;

/**
 * `<ItemID>`: SupplierPartID trimmed, SupplierPartAuxiliaryID raw. An empty SupplierPartID is read as ''
 * (a line typed into the requisition has no supplier part number; the DTD allows the element empty), so
 * the gateway, not the codec, decides what such a line means; a missing one is refused.
 */
export function readItemReference(container: XmlNode | undefined, where: string): ItemReference {
  const itemID = child(container, 'ItemID');
  const partNode = child(itemID, 'SupplierPartID');
  const supplierPartID = partNode === undefined ? undefined : text(partNode);
  if (supplierPartID === undefined) {
    throw new CxmlError('missing_field', `${where} has no ItemID/SupplierPartID`);
  }
  const auxiliary = child(itemID, 'SupplierPartAuxiliaryID');
  return auxiliary === undefined
    ? { supplierPartID }
    : {
        supplierPartID,
        supplierPartAuxiliaryID: rawText(auxiliary, `${where}/ItemID/SupplierPartAuxiliaryID`),
      };
}

function readClassifications(detail: XmlNode | undefined): Classification[] {
  return children(detail, 'Classification').map((node) => ({
    domain: attr(node, 'domain') ?? '',
    code: text(node) || (attr(node, 'code') ?? ''),
  }));
}

function joinedText(nodes: readonly XmlNode[]): string {
  return nodes
    .map((node) => text(node))
    .filter((value) => value !== '')
    .join('\n');
}

function lineNumberOf(node: XmlNode, position: number): number {
  const value = attr(node, 'lineNumber');
  if (value === undefined || value === '') return position;
  if (!WHOLE_NUMBER.test(value)) {
    throw new CxmlError('invalid_value', `ItemOut #${position} lineNumber "${value}" is not a whole number`);
  }
  return Number(value);
}

/** One ItemOut; `position` counts from 1 and stands in for a missing lineNumber. */
export function readItemOut(node: XmlNode, position: number): ItemOut {
  const lineNumber = lineNumberOf(node, position);
  const reference = readItemReference(node, `ItemOut line ${lineNumber}`);
  const where = lineName(lineNumber, reference);
  const quantity = readQuantity(attr(node, 'quantity'), where);
  const detail = child(node, 'ItemDetail');
  const unitPrice = child(detail, 'UnitPrice');
  const description = child(detail, 'Description');
  const shortName = childText(description, 'ShortName');
  const requestedDeliveryDate = attr(node, 'requestedDeliveryDate');
  const unitOfMeasure = childText(detail, 'UnitOfMeasure');
  const priceBasis = readPriceBasis(detail, unitOfMeasure, where);
  const manufacturerPartID = childText(detail, 'ManufacturerPartID');
  const manufacturerName = childText(detail, 'ManufacturerName');
  const shipTo = readAddress(child(node, 'ShipTo'));
  const distribution = readDistribution(node, where);
  const controlKeys = readControlKeys(node, where);
  return {
    lineNumber,
    quantity,
    ...reference,
    ...(requestedDeliveryDate ? { requestedDeliveryDate: readTimestampValue(requestedDeliveryDate) } : {}),
    ...(unitPrice === undefined ? {} : { unitPrice: readMoney(unitPrice, `${where}/UnitPrice`) }),
    description: text(description) || (shortName ?? ''),
    ...(shortName === undefined ? {} : { shortName }),
    ...(unitOfMeasure === undefined ? {} : { unitOfMeasure }),
    ...(priceBasis !== undefined && { priceBasis }),
    classifications: readClassifications(detail),
    ...(manufacturerPartID === undefined ? {} : { manufacturerPartID }),
    ...(manufacturerName === undefined ? {} : { manufacturerName }),
    extrinsics: readExtrinsics(detail),
    comments: readComments(node),
    ...(shipTo === undefined ? {} : { shipTo }),
    ...(distribution.length > 0 && { distribution }),
    ...(controlKeys !== undefined && { controlKeys }),
  };
}

/**
 * How errors name a line: its number and, when it has one, its SupplierPartAuxiliaryID, the reference the
 * supplier handed out and the buyer's operator searches for (`ItemOut line 2 (SupplierPartAuxiliaryID L-1)`).
 */
function lineName(lineNumber: number, reference: ItemReference): string {
  const auxiliary = reference.supplierPartAuxiliaryID?.trim();
  return auxiliary
    ? `ItemOut line ${lineNumber} (SupplierPartAuxiliaryID ${auxiliary})`
    : `ItemOut line ${lineNumber}`;
}

/** An OrderRequest line: as `readItemOut`, and the price and unit of measure must be there. */
export function readOrderItem(node: XmlNode, position: number): OrderItem {
  const item = readItemOut(node, position);
  const where = lineName(item.lineNumber, item);
  if (item.unitPrice === undefined) {
    throw new CxmlError('missing_field', `${where} has no ItemDetail/UnitPrice`);
  }
  if (item.unitOfMeasure === undefined) {
    throw new CxmlError('missing_field', `${where} has no ItemDetail/UnitOfMeasure`);
  }
  return { ...item, unitPrice: item.unitPrice, unitOfMeasure: item.unitOfMeasure };
}

/** Comments elements' text, several joined by a line break. */
export function readComments(parent: XmlNode | undefined): string {
  return joinedText(children(parent, 'Comments'));
}
