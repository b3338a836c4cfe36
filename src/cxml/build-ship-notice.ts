/**
 * ShipNoticeRequest (Fulfill.dtd): a shipment of a purchase order with its carrier and tracking
 * numbers. Lines are always listed, because a ShipNoticePortion without ShipNoticeItems means "the
 * whole order shipped" to the buyer.
 */
import {
  buildFulfillRequestDocument,
  commentsElement,
  type FulfillRequestInput,
  lineNumberAttribute,
  orderReferenceElement,
  quantityAttribute,
} from './build-common-elements.ts';
import { cxmlTimestampAttribute, envelopeLang, optionalTimestampAttribute, requireText } from './envelope.ts';
import { el, type XmlElementSpec } from './xml-writer.ts';

export interface ShipNoticeCarrier {
  /** The carrier's name, e.g. `DHL`. */
  readonly name: string;
  /** CarrierIdentifier domain for `name`; default `companyName`. */
  readonly domain?: string;
  /** Standard Carrier Alpha Code, sent as a second CarrierIdentifier when known. */
  readonly scac?: string;
}

export interface ShipNoticeLine {
  /** The OrderRequest line's lineNumber. */
  readonly lineNumber: number;
  readonly quantity: string | number;
  readonly unitOfMeasure: string;
  readonly supplierPartID?: string;
  readonly supplierPartAuxiliaryID?: string;
}

export interface ShipNoticeRequestInput extends FulfillRequestInput {
  readonly shipmentID: string;
  readonly operation?: 'new' | 'update' | 'delete';
  readonly noticeDate: Date | string;
  readonly shipmentDate?: Date | string;
  readonly deliveryDate?: Date | string;
  readonly carrier?: ShipNoticeCarrier;
  /** The service level, e.g. `Express`. */
  readonly service?: string;
  /**
   * Tracking numbers. ShipControl needs at least one, so a shipment without tracking is sent
   * without a ShipControl (and so without the carrier).
   */
  readonly trackingNumbers: readonly string[];
  readonly trackingUrl?: string;
  readonly comments?: string;
  readonly lines: readonly ShipNoticeLine[];
}

function shipControlElement(input: ShipNoticeRequestInput): XmlElementSpec | undefined {
  if (input.carrier === undefined || input.trackingNumbers.length === 0) return undefined;
  const { carrier } = input;
  return el(
    'ShipControl',
    {},
    el(
      'CarrierIdentifier',
      { domain: carrier.domain ?? 'companyName' },
      requireText(carrier.name, 'carrier.name'),
    ),
    carrier.scac !== undefined && el('CarrierIdentifier', { domain: 'SCAC' }, carrier.scac),
    input.trackingNumbers.map((tracking, index) =>
      el(
        'ShipmentIdentifier',
        { domain: 'trackingNumber', trackingURL: input.trackingUrl },
        requireText(tracking, `trackingNumbers[${index}]`),
      ),
    ),
  );
}

function lineElement(line: ShipNoticeLine, index: number): XmlElementSpec {
  const field = `lines[${index}]`;
  return el(
    'ShipNoticeItem',
    {
      quantity: quantityAttribute(line.quantity, `${field}.quantity`),
      lineNumber: lineNumberAttribute(line.lineNumber, `${field}.lineNumber`),
    },
    line.supplierPartID !== undefined &&
      el(
        'ItemID',
        {},
        el('SupplierPartID', {}, line.supplierPartID),
        line.supplierPartAuxiliaryID !== undefined &&
          el('SupplierPartAuxiliaryID', {}, line.supplierPartAuxiliaryID),
      ),
    el('UnitOfMeasure', {}, requireText(line.unitOfMeasure, `${field}.unitOfMeasure`)),
  );
}

/**
 * A ShipNoticeRequest, element order as Fulfill.dtd: ShipNoticeHeader (ServiceLevel, Comments),
 * ShipControl (CarrierIdentifier, ShipmentIdentifier), ShipNoticePortion (OrderReference,
 * ShipNoticeItem).
 *
 * @example
 * buildShipNoticeRequest({
 *   payloadID, timestamp, header, shipmentID: 'SH-1', noticeDate: now, shipmentDate: now,
 *   carrier: { name: 'DHL' }, service: 'Express', trackingNumbers: ['00340434161094042557'],
 *   orderID: po.orderID, orderPayloadID: po.payloadID,
 *   lines: [{ lineNumber: 1, quantity: 2, unitOfMeasure: 'PK' }],
 * });
 */
export function buildShipNoticeRequest(input: ShipNoticeRequestInput): string {
  if (input.lines.length === 0) {
    throw new TypeError('A ship notice needs its lines: an empty portion means the whole order shipped');
  }
  const lang = envelopeLang(input);
  const header = el(
    'ShipNoticeHeader',
    {
      shipmentID: requireText(input.shipmentID, 'shipmentID'),
      operation: input.operation,
      noticeDate: cxmlTimestampAttribute(input.noticeDate, 'noticeDate'),
      shipmentDate: optionalTimestampAttribute(input.shipmentDate, 'shipmentDate'),
      deliveryDate: optionalTimestampAttribute(input.deliveryDate, 'deliveryDate'),
    },
    input.service !== undefined && el('ServiceLevel', { 'xml:lang': lang }, input.service),
    commentsElement(input.comments, lang),
  );
  const request = el(
    'ShipNoticeRequest',
    {},
    header,
    shipControlElement(input),
    el('ShipNoticePortion', {}, orderReferenceElement(input), input.lines.map(lineElement)),
  );
  return buildFulfillRequestDocument(input, request);
}
