/**
 * ConfirmationRequest (Fulfill.dtd): punchgate telling the buyer it accepted, rejected or detailed a
 * purchase order. One `accept` or `reject` per order replaces all earlier confirmations; `detail` may
 * follow for changed dates or prices, each line at most once. A line confirmed once is changed only by an
 * `operation="update"` of that confirmation: the same confirmID, a DocumentReference to the version it
 * replaces, and every item again (an update is complete).
 */
import {
  buildFulfillRequestDocument,
  type ChargeInput,
  chargeElement,
  commentsElement,
  extrinsicElements,
  type FulfillRequestInput,
  type MoneyInput,
  moneyElement,
  orderReferenceElement,
  quantityAttribute,
} from './build-common-elements.ts';
import { itemInElement, type OrderMessageLine } from './build-order-message.ts';
import { cxmlTimestampAttribute, envelopeLang, optionalTimestampAttribute, requireText } from './envelope.ts';
import type { Extrinsic } from './request-types.ts';
import { el, type XmlElementSpec } from './xml-writer.ts';

/** ConfirmationHeader types (Fulfill.dtd); the list and the type are one so they cannot drift apart. */
const CONFIRMATION_TYPE_LIST = [
  'accept',
  'allDetail',
  'detail',
  'backordered',
  'except',
  'reject',
  'requestToPay',
  'replace',
] as const;
export type ConfirmationType = (typeof CONFIRMATION_TYPE_LIST)[number];

/** ConfirmationStatus types: a line's status, which has `unknown` but not `except` or `replace`. */
const STATUS_TYPE_LIST = [
  'accept',
  'allDetail',
  'detail',
  'backordered',
  'reject',
  'unknown',
  'requestToPay',
] as const;
export type ConfirmationStatusType = (typeof STATUS_TYPE_LIST)[number];

export const STATUS_TYPES: ReadonlySet<string> = new Set(STATUS_TYPE_LIST);
export const CONFIRMATION_TYPES: ReadonlySet<string> = new Set(CONFIRMATION_TYPE_LIST);

export interface ConfirmationStatusInput {
  readonly type: ConfirmationStatusType;
  /** Defaults to the line's quantity; the statuses of a line must add up to it. */
  readonly quantity?: string | number;
  readonly shipmentDate?: Date | string;
  readonly deliveryDate?: Date | string;
  /** A changed unit price (type `detail`), of one unit of the line's UnitOfMeasure. */
  readonly unitPrice?: MoneyInput;
  /**
   * The line as confirmed, instead of `unitPrice`, where its price is per a basis (PriceBasisQuantity,
   * e.g. per 1,000): Fulfill.dtd gives a ConfirmationStatus's bare UnitPrice no basis, so a price per N
   * goes in an ItemIn, whose ItemDetail carries UnitPrice and PriceBasisQuantity together.
   */
  readonly itemIn?: OrderMessageLine;
  readonly comments?: string;
  readonly extrinsics?: readonly Extrinsic[];
}

export interface ConfirmationItemInput {
  /** The OrderRequest line's lineNumber. */
  readonly lineNumber: number;
  readonly quantity: string | number;
  readonly unitOfMeasure: string;
  /** Defaults to one status of the confirmation's own type covering the whole quantity. */
  readonly statuses?: readonly ConfirmationStatusInput[];
}

export interface ConfirmationRequestInput extends FulfillRequestInput {
  readonly type: ConfirmationType;
  /** The supplier's order reference, e.g. the print order id. */
  readonly confirmID?: string;
  /** Which confirmation of the order this is, from 1 (a later one replaces what it restates). */
  readonly version?: number;
  readonly operation?: 'new' | 'update';
  /**
   * For `operation: 'update'` (and only then): the payloadID of the version this one replaces, sent as the
   * header's DocumentReference, the only link between the versions a buyer may have.
   */
  readonly amends?: string;
  readonly noticeDate: Date | string;
  readonly total?: MoneyInput;
  readonly shipping?: ChargeInput;
  readonly tax?: ChargeInput;
  /** Free text for the buyer, e.g. why an order was rejected. */
  readonly comments?: string;
  readonly extrinsics?: readonly Extrinsic[];
  readonly items?: readonly ConfirmationItemInput[];
}

function statusElementFor(
  status: ConfirmationStatusInput,
  item: ConfirmationItemInput,
  field: string,
  lang: string,
): XmlElementSpec {
  if (!STATUS_TYPES.has(status.type))
    throw new TypeError(`${field}.type "${status.type}" is not a status type`);
  return el(
    'ConfirmationStatus',
    {
      quantity: quantityAttribute(status.quantity ?? item.quantity, `${field}.quantity`),
      type: status.type,
      shipmentDate: optionalTimestampAttribute(status.shipmentDate, `${field}.shipmentDate`),
      deliveryDate: optionalTimestampAttribute(status.deliveryDate, `${field}.deliveryDate`),
    },
    el('UnitOfMeasure', {}, item.unitOfMeasure),
    status.itemIn !== undefined && itemInElement(status.itemIn, 0, lang, `${field}.itemIn`),
    status.itemIn === undefined &&
      status.unitPrice !== undefined &&
      el('UnitPrice', {}, moneyElement(status.unitPrice, `${field}.unitPrice`)),
    commentsElement(status.comments, lang),
    extrinsicElements(status.extrinsics),
  );
}

function itemElement(
  item: ConfirmationItemInput,
  index: number,
  type: ConfirmationType,
  lang: string,
): XmlElementSpec {
  const field = `items[${index}]`;
  if (!Number.isSafeInteger(item.lineNumber) || item.lineNumber < 0) {
    throw new TypeError(`${field}.lineNumber must be a whole number, got ${item.lineNumber}`);
  }
  requireText(item.unitOfMeasure, `${field}.unitOfMeasure`);
  let statuses = item.statuses;
  if (statuses === undefined) {
    if (!STATUS_TYPES.has(type)) {
      throw new TypeError(`${field} needs explicit statuses: "${type}" is not a line status type`);
    }
    statuses = [{ type: type as ConfirmationStatusType }];
  }
  if (statuses.length === 0) throw new TypeError(`${field}.statuses needs at least one status`);
  return el(
    'ConfirmationItem',
    { quantity: quantityAttribute(item.quantity, `${field}.quantity`), lineNumber: item.lineNumber },
    el('UnitOfMeasure', {}, item.unitOfMeasure),
    statuses.map((status, at) => statusElementFor(status, item, `${field}.statuses[${at}]`, lang)),
  );
}

/**
 * A ConfirmationRequest, element order as Fulfill.dtd: ConfirmationHeader, OrderReference,
 * ConfirmationItem*.
 *
 * @example
 * buildConfirmationRequest({
 *   payloadID, timestamp, header, type: 'accept', confirmID: 'PO-100042', noticeDate: clock.now(),
 *   orderID: po.orderID, orderDate: po.orderDate.raw, orderPayloadID: po.payloadID,
 * });
 */
export function buildConfirmationRequest(input: ConfirmationRequestInput): string {
  if (!CONFIRMATION_TYPES.has(input.type)) {
    throw new TypeError(`type "${input.type}" is not a ConfirmationHeader type`);
  }
  const update = input.operation === 'update';
  if (update !== (input.amends !== undefined)) {
    throw new TypeError('amends (the DocumentReference) is given with operation "update" and only then');
  }
  // Fulfill.dtd: a `reject` rejects the entire order and "must not contain ConfirmationItem elements".
  if (input.type === 'reject' && (input.items ?? []).length > 0) {
    throw new TypeError('a reject confirmation has no items; reject lines in a detail instead');
  }
  const lang = envelopeLang(input);
  const header = el(
    'ConfirmationHeader',
    {
      confirmID: input.confirmID,
      operation: input.operation,
      type: input.type,
      noticeDate: cxmlTimestampAttribute(input.noticeDate, 'noticeDate'),
      version: input.version,
    },
    input.amends !== undefined && el('DocumentReference', { payloadID: requireText(input.amends, 'amends') }),
    input.total !== undefined && el('Total', {}, moneyElement(input.total, 'total')),
    chargeElement('Shipping', input.shipping, lang),
    chargeElement('Tax', input.tax, lang),
    commentsElement(input.comments, lang),
    extrinsicElements(input.extrinsics),
  );
  const request = el(
    'ConfirmationRequest',
    {},
    header,
    orderReferenceElement(input),
    (input.items ?? []).map((item, index) => itemElement(item, index, input.type, lang)),
  );
  return buildFulfillRequestDocument(input, request);
}
