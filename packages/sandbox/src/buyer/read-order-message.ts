/**
 * Reading a PunchOutOrderMessage (the cart a catalog returns through the browser) into requisition lines,
 * the way a procurement system does: BuyerCookie to find the punch-out, Message Status (204 = the session
 * ended without change), operationAllowed, and each ItemIn with everything a requisition line shows and
 * a purchase order must echo. Values stay exactly as sent.
 */
import { readPriceBasis } from './price-basis.ts';
import type { CartCharge, RequisitionCharges, RequisitionLine } from './requisition.ts';
import { SimulatorError } from './simulator-error.ts';
import {
  all,
  attr,
  childText,
  first,
  path,
  rawText,
  readCxmlRoot,
  requiredAttr,
  text,
  type XmlNode,
} from './xml-reader.ts';

export interface OrderMessage {
  readonly payloadID: string;
  /** Message/Status; absent means 200. */
  readonly status?: { readonly code: number; readonly text: string };
  readonly buyerCookie: string;
  readonly operationAllowed: string;
  readonly total?: { readonly value: string; readonly currency: string };
  /** The header's Shipping and Tax. */
  readonly charges: RequisitionCharges;
  readonly lines: readonly RequisitionLine[];
}

/** A header's Shipping or Tax with a Money amount; absent or without an amount, none. */
function readCharge(node: XmlNode | undefined): CartCharge | undefined {
  const money = path(node, 'Money');
  const value = text(money).trim();
  if (value === '') return undefined;
  return {
    value,
    currency: attr(money, 'currency') ?? '',
    description: text(first(node, 'Description')).trim(),
  };
}

function chargesOf(shipping: CartCharge | undefined, tax: CartCharge | undefined): RequisitionCharges {
  return { ...(shipping !== undefined && { shipping }), ...(tax !== undefined && { tax }) };
}

function required(value: string | undefined, where: string): string {
  if (value === undefined || value.trim() === '')
    throw new SimulatorError('missing_field', `${where} is missing or empty.`);
  return value.trim();
}

function readItemIn(item: XmlNode, index: number): RequisitionLine {
  const where = `ItemIn ${index + 1}`;
  const itemId = first(item, 'ItemID');
  const detail = first(item, 'ItemDetail');
  if (detail === undefined) throw new SimulatorError('missing_field', `${where} has no ItemDetail.`);
  const money = path(detail, 'UnitPrice', 'Money');
  const description = first(detail, 'Description');
  const spaid = first(itemId, 'SupplierPartAuxiliaryID');
  const shortName = childText(description, 'ShortName');
  const manufacturerPartID = childText(detail, 'ManufacturerPartID');
  const manufacturerName = childText(detail, 'ManufacturerName');
  const url = childText(detail, 'URL');
  const leadTime = childText(detail, 'LeadTime');
  const priceBasis = readPriceBasis(detail);
  return {
    source: 'cxml',
    quantity: requiredAttr(item, 'quantity', where),
    supplierPartID: required(childText(itemId, 'SupplierPartID'), `${where} ItemID/SupplierPartID`),
    ...(spaid !== undefined && { supplierPartAuxiliaryID: rawText(spaid) }),
    unitPrice: required(text(money), `${where} ItemDetail/UnitPrice/Money`),
    currency: required(attr(money, 'currency'), `${where} UnitPrice Money currency`),
    description: text(description).trim(),
    ...(shortName !== undefined && { shortName }),
    unitOfMeasure: required(childText(detail, 'UnitOfMeasure'), `${where} ItemDetail/UnitOfMeasure`),
    ...(priceBasis !== undefined && { priceBasis }),
    classifications: all(detail, 'Classification').map((c) => ({
      domain: attr(c, 'domain') ?? '',
      code: text(c).trim() || (attr(c, 'code') ?? ''),
    })),
    ...(manufacturerPartID !== undefined && { manufacturerPartID }),
    ...(manufacturerName !== undefined && { manufacturerName }),
    ...(url !== undefined && { url: url.trim() }),
    ...(leadTime !== undefined && { leadTime: leadTime.trim() }),
    extrinsics: all(detail, 'Extrinsic').map((e) => ({ name: attr(e, 'name') ?? '', value: text(e).trim() })),
  };
}

/**
 * @example
 * const cart = readOrderMessage(decodedFormField);
 * if (cart.status?.code === 204) keepLinesAsTheyAre();
 */
export function readOrderMessage(xml: string): OrderMessage {
  const root = readCxmlRoot(xml);
  const message = first(root, 'Message');
  if (message === undefined) {
    const other =
      first(root, 'Request') !== undefined
        ? 'a Request'
        : first(root, 'Response') !== undefined
          ? 'a Response'
          : 'no Message';
    throw new SimulatorError(
      'unexpected_document',
      `The cart must be a cXML Message; this document holds ${other}.`,
    );
  }
  const order = first(message, 'PunchOutOrderMessage');
  if (order === undefined) {
    throw new SimulatorError('unexpected_document', 'The Message holds no PunchOutOrderMessage.');
  }
  const statusNode = first(message, 'Status');
  const statusCode = Number(attr(statusNode, 'code'));
  const header = first(order, 'PunchOutOrderMessageHeader');
  const totalMoney = path(header, 'Total', 'Money');
  const totalValue = text(totalMoney).trim();
  return {
    payloadID: attr(root, 'payloadID') ?? '',
    ...(statusNode !== undefined &&
      Number.isInteger(statusCode) && { status: { code: statusCode, text: attr(statusNode, 'text') ?? '' } }),
    buyerCookie: rawText(first(order, 'BuyerCookie')),
    operationAllowed: attr(header, 'operationAllowed') ?? '',
    ...(totalValue !== '' && { total: { value: totalValue, currency: attr(totalMoney, 'currency') ?? '' } }),
    charges: chargesOf(readCharge(first(header, 'Shipping')), readCharge(first(header, 'Tax'))),
    lines: all(order, 'ItemIn').map(readItemIn),
  };
}
