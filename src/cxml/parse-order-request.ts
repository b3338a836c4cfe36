/**
 * Mapping `<OrderRequest>`: the purchase order. Identifiers stay exactly as sent (`0001549923`),
 * amounts and quantities stay exact decimals, and a 1.1-style order without BillTo or line numbers is
 * still read: a purchase order must never be lost to strictness.
 */
import { readCharge, readMoney } from './read-money.ts';
import { CxmlError } from './error.ts';
import { readExtrinsics } from './extrinsics.ts';
import { readAddress, readContacts } from './read-address.ts';
import { readControlKeys } from './read-control-keys.ts';
import { readComments, readOrderItem } from './read-item-out.ts';
import type { CxmlRequestCommon, OrderItem, OrderRequest, OrderType } from './request-types.ts';
import { readTimestampValue } from './timestamp.ts';
import { attr, child, children, requiredAttr, text, type XmlNode } from './xml-node.ts';

const ORDER_TYPES: ReadonlySet<string> = new Set<OrderType>(['new', 'update', 'delete']);

function readOrderType(header: XmlNode): OrderType {
  const raw = attr(header, 'type');
  if (raw === undefined || raw === '') return 'new';
  const type = raw.toLowerCase();
  if (!ORDER_TYPES.has(type)) {
    throw new CxmlError(
      'invalid_value',
      `OrderRequestHeader type "${raw}" is not one of new, update, delete`,
    );
  }
  return type as OrderType;
}

export function readOrderRequest(request: XmlNode): Omit<OrderRequest, keyof CxmlRequestCommon> {
  const header = child(request, 'OrderRequestHeader');
  if (header === undefined) throw new CxmlError('missing_field', 'OrderRequest has no OrderRequestHeader');
  const orderID = requiredAttr(header, 'orderID', 'OrderRequestHeader');
  const type = readOrderType(header);
  const lines = children(request, 'ItemOut');
  // cXML requires ItemOut+; only a delete can do without lines, because it cancels the whole order.
  if (lines.length === 0 && type !== 'delete') {
    throw new CxmlError('missing_field', 'OrderRequest has no ItemOut');
  }
  const orderDate = attr(header, 'orderDate');
  const orderVersion = attr(header, 'orderVersion');
  const previousPayloadID = attr(child(header, 'DocumentReference'), 'payloadID');
  const shipTo = readAddress(child(header, 'ShipTo'));
  const billTo = readAddress(child(header, 'BillTo'));
  const shipping = readCharge(child(header, 'Shipping'), 'OrderRequestHeader/Shipping');
  const tax = readCharge(child(header, 'Tax'), 'OrderRequestHeader/Tax');
  const requestedDeliveryDate = attr(header, 'requestedDeliveryDate');
  const controlKeys = readControlKeys(header, 'OrderRequestHeader');
  const buyerVatID = readBuyerVatId(header);
  const total = child(header, 'Total');
  if (total === undefined) throw new CxmlError('missing_field', 'OrderRequestHeader has no Total');
  return {
    kind: 'OrderRequest',
    orderID,
    ...(orderDate ? { orderDate: readTimestampValue(orderDate) } : {}),
    type,
    ...(orderVersion ? { orderVersion } : {}),
    ...(previousPayloadID ? { previousPayloadID } : {}),
    total: readMoney(total, 'OrderRequestHeader/Total'),
    ...(shipTo === undefined ? {} : { shipTo }),
    ...(billTo === undefined ? {} : { billTo }),
    ...(shipping === undefined ? {} : { shipping }),
    ...(tax === undefined ? {} : { tax }),
    contacts: readContacts(header),
    comments: readComments(header),
    extrinsics: readExtrinsics(header),
    ...(requestedDeliveryDate ? { requestedDeliveryDate: readTimestampValue(requestedDeliveryDate) } : {}),
    ...(controlKeys !== undefined && { controlKeys }),
    ...(buyerVatID !== undefined && { buyerVatID }),
    items: readOrderItems(lines),
  };
}

const VAT_ID_DOMAIN = 'vatid';
const VAT_ID_EXTRINSIC = 'buyervatid';

/** The first non-blank `IdReference domain="vatID"` of a node (domain case ignored, as buyers vary it). */
function vatIdReference(node: XmlNode | undefined): string | undefined {
  for (const reference of children(node, 'IdReference')) {
    const identifier = attr(reference, 'identifier')?.trim();
    if (attr(reference, 'domain')?.toLowerCase() === VAT_ID_DOMAIN && identifier) return identifier;
  }
  return undefined;
}

/**
 * The buyer's VAT id: BillTo's IdReference (the cXML place for the invoiced party's ids), else a soldTo
 * Contact's, else the header Extrinsic SAP Ariba maps it to (`buyerVatID`). Where the PO has none, none.
 */
function readBuyerVatId(header: XmlNode): string | undefined {
  const soldTo = children(header, 'Contact').filter((contact) => attr(contact, 'role') === 'soldTo');
  const fromExtrinsic = children(header, 'Extrinsic')
    .filter((extrinsic) => attr(extrinsic, 'name')?.toLowerCase() === VAT_ID_EXTRINSIC)
    .map((extrinsic) => text(extrinsic).trim())
    .find((value) => value !== '');
  return vatIdReference(child(header, 'BillTo')) ?? soldTo.map(vatIdReference).find(Boolean) ?? fromExtrinsic;
}

/**
 * Every ItemOut read; when some cannot be, one CxmlError naming each of them (in document order, with the
 * first one's code), so the buyer's operator fixes the whole PO from one Status rather than line by line.
 */
function readOrderItems(lines: readonly XmlNode[]): OrderItem[] {
  const items: OrderItem[] = [];
  const errors: CxmlError[] = [];
  for (const [index, line] of lines.entries()) {
    try {
      items.push(readOrderItem(line, index + 1));
    } catch (error) {
      if (!(error instanceof CxmlError)) throw error;
      errors.push(error);
    }
  }
  const [first] = errors;
  if (first === undefined) return items;
  if (errors.length === 1) throw first;
  throw new CxmlError(first.code, errors.map((error) => error.message).join('; '));
}
