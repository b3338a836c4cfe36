/**
 * The purchase order: a cXML OrderRequest with the requisition's lines, as every profile sends it (SAP
 * too: OCI has no order message, so SAP's PO goes out as cXML). Header in DTD order: Total, ShipTo, BillTo,
 * Shipping, Tax, Contact, Comments, Extrinsic*; lines numbered from 1, since confirmations and ship notices refer to them
 * by lineNumber.
 */
import { el } from 'punchgate/cxml';
import { linesTotalText } from './amount-text.ts';
import {
  addressElement,
  buyerTimestamp,
  extrinsicElements,
  requestAttributes,
  writeBuyerDocument,
} from './cxml-document.ts';
import type { DemoUser } from './demo-users.ts';
import { fullName } from './demo-users.ts';
import { itemOutElement } from './item-out.ts';
import type { BuyerProfile } from './profiles.ts';
import type { CartCharge, RequisitionCharges, RequisitionLine } from './requisition.ts';

export interface OrderRequestInput {
  readonly profile: BuyerProfile;
  readonly user: DemoUser;
  readonly orderID: string;
  readonly requisitionId: string;
  readonly payloadID: string;
  readonly timestamp: Date;
  readonly lines: readonly RequisitionLine[];
  /** The carts' Shipping and Tax: the header repeats them, and its Total includes them. */
  readonly charges?: RequisitionCharges;
  /** The requester's note to the supplier. */
  readonly comments: string;
  /** `test` for a test requisition: the Request carries `deploymentMode="test"`. */
  readonly deploymentMode?: 'test';
}

/**
 * The order total: the lines' amounts (quantity × price ÷ price basis, each rounded once) plus the cart's
 * charges where there are any.
 */
export function orderTotal(lines: readonly RequisitionLine[], charges?: RequisitionCharges): string {
  const currency = lines[0]?.currency ?? '';
  const extra = [charges?.shipping?.value, charges?.tax?.value].filter((v): v is string => v !== undefined);
  return linesTotalText(lines, currency, extra) ?? '0.00';
}

function chargeElement(name: 'Shipping' | 'Tax', charge: CartCharge | undefined, lang: string) {
  if (charge === undefined) return false;
  return el(
    name,
    {},
    el('Money', { currency: charge.currency }, charge.value),
    el('Description', { 'xml:lang': lang }, charge.description),
  );
}

/**
 * @example
 * const xml = buildOrderRequest({
 *   profile: COUPA_PROFILE, user, orderID: 'PO-1001', requisitionId: 'r1',
 *   payloadID, timestamp: new Date(), lines: requisition.lines, comments: 'Deliver to reception',
 * });
 */
export function buildOrderRequest(input: OrderRequestInput): string {
  const { profile, user } = input;
  if (input.lines.length === 0) throw new TypeError('An OrderRequest needs at least one line');
  const lang = profile.style.lang;
  const currency = input.lines[0]?.currency ?? 'USD';
  const unitMap = profile.protocol === 'oci' ? profile.poUnitMap : {};
  const header = el(
    'OrderRequestHeader',
    {
      orderID: input.orderID,
      orderDate: buyerTimestamp(input.timestamp, profile.style.timeZone),
      type: 'new',
      requisitionID: input.requisitionId,
    },
    // Ariba-style: the Total is what the buyer commits to, the lines plus the cart's shipping and tax.
    el('Total', {}, el('Money', { currency }, orderTotal(input.lines, input.charges))),
    el('ShipTo', {}, addressElement(profile.shipTo, lang, { deliverTo: fullName(user), email: user.email })),
    el('BillTo', {}, addressElement(profile.billTo, lang)),
    chargeElement('Shipping', input.charges?.shipping, lang),
    chargeElement('Tax', input.charges?.tax, lang),
    el(
      'Contact',
      { role: 'endUser' },
      el('Name', { 'xml:lang': lang }, fullName(user)),
      el('Email', {}, user.email),
    ),
    input.comments.trim() !== '' && el('Comments', { 'xml:lang': lang }, input.comments.trim()),
    extrinsicElements(profile.orderExtrinsics(user)),
  );
  const items = input.lines.map((line, index) =>
    itemOutElement(line, {
      lineNumber: index + 1,
      lang,
      unitOfMeasure: unitMap[line.unitOfMeasure] ?? line.unitOfMeasure,
      ...(line.longText !== undefined && { comments: line.longText }),
    }),
  );
  return writeBuyerDocument({
    style: profile.style,
    payloadID: input.payloadID,
    timestamp: input.timestamp,
    identity: profile.cxml,
    body: el('Request', requestAttributes(input.deploymentMode), el('OrderRequest', {}, header, items)),
  });
}
