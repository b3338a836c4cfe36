/**
 * Elements several outbound documents share (Money, Shipping/Tax, Extrinsic, Comments, OrderReference),
 * the checks on the values that go into them, and the frame of the Fulfill.dtd requests about a buyer's
 * order. A value the DTD would refuse is a programming error in the caller, so it throws a TypeError
 * rather than producing a document the buyer rejects.
 */
import {
  buildCxmlDocument,
  type CxmlEnvelopeInput,
  cxmlTimestampAttribute,
  headerElement,
  requestElement,
  requireText,
} from './envelope.ts';
import type { CxmlHeader, DeploymentMode, Extrinsic } from './request-types.ts';
import { el, type XmlElementSpec } from './xml-writer.ts';

export interface MoneyInput {
  /** An exact decimal such as `12.50`; a string so no float rounding slips in. */
  readonly value: string;
  /** ISO 4217, e.g. `EUR`. */
  readonly currency: string;
}

export interface ChargeInput extends MoneyInput {
  readonly description: string;
}

const MONEY = /^-?(?:\d+(?:\.\d+)?)$/;
const QUANTITY = /^(?:\d+(?:\.\d+)?)$/;
const CURRENCY = /^[A-Z]{3}$/;

export function moneyElement(money: MoneyInput, field: string): XmlElementSpec {
  if (!MONEY.test(money.value))
    throw new TypeError(`${field} must be a decimal such as 12.50, got "${money.value}"`);
  if (!CURRENCY.test(money.currency)) {
    throw new TypeError(`${field} currency must be an ISO 4217 code, got "${money.currency}"`);
  }
  return el('Money', { currency: money.currency }, money.value);
}

/** `<Shipping>` or `<Tax>`: Money then Description, which both require. */
export function chargeElement(
  name: 'Shipping' | 'Tax',
  charge: ChargeInput | undefined,
  lang: string,
): XmlElementSpec | undefined {
  if (charge === undefined) return undefined;
  return el(
    name,
    {},
    moneyElement(charge, name),
    el('Description', { 'xml:lang': lang }, charge.description),
  );
}

/** What a UnitPrice is quoted for (`PriceBasisQuantity`), as the PO or the product's `priceUnit` says. */
export interface PriceBasisInput {
  readonly quantity: string | number;
  readonly conversionFactor: string | number;
  readonly unitOfMeasure: string;
  readonly description?: string;
}

const POSITIVE = /[1-9]/;

/** `<PriceBasisQuantity quantity conversionFactor><UnitOfMeasure/>`, both attributes above zero. */
export function priceBasisElement(
  basis: PriceBasisInput | undefined,
  field: string,
  lang: string,
): XmlElementSpec | undefined {
  if (basis === undefined) return undefined;
  const quantity = quantityAttribute(basis.quantity, `${field}.quantity`);
  const conversionFactor = quantityAttribute(basis.conversionFactor, `${field}.conversionFactor`);
  if (!POSITIVE.test(quantity) || !POSITIVE.test(conversionFactor)) {
    throw new TypeError(
      `${field} quantity and conversionFactor must be above zero, got ${quantity} and ${conversionFactor}`,
    );
  }
  return el(
    'PriceBasisQuantity',
    { quantity, conversionFactor },
    el('UnitOfMeasure', {}, basis.unitOfMeasure),
    basis.description !== undefined &&
      basis.description !== '' &&
      el('Description', { 'xml:lang': lang }, basis.description),
  );
}

/** cXML `%r8;` quantities: a non-negative decimal, written without exponent. */
export function quantityAttribute(quantity: string | number, field: string): string {
  const text = String(quantity);
  if (!QUANTITY.test(text)) throw new TypeError(`${field} must be a non-negative decimal, got "${text}"`);
  return text;
}

export function lineNumberAttribute(lineNumber: number | undefined, field: string): number | undefined {
  if (lineNumber === undefined) return undefined;
  if (!Number.isSafeInteger(lineNumber) || lineNumber < 1) {
    throw new TypeError(`${field} must be a whole number from 1, got ${lineNumber}`);
  }
  return lineNumber;
}

export function extrinsicElements(extrinsics: readonly Extrinsic[] | undefined): XmlElementSpec[] {
  return (extrinsics ?? []).map((extrinsic) =>
    el('Extrinsic', { name: requireText(extrinsic.name, 'Extrinsic name') }, extrinsic.value),
  );
}

export function commentsElement(comments: string | undefined, lang: string): XmlElementSpec | undefined {
  return comments === undefined || comments === ''
    ? undefined
    : el('Comments', { 'xml:lang': lang }, comments);
}

export interface OrderReferenceInput {
  /** The buyer's orderID, exactly as received. */
  readonly orderID: string;
  /** The OrderRequest's orderDate as received, or a Date. */
  readonly orderDate?: Date | string;
  /** The payloadID of the OrderRequest being answered; cXML requires it. */
  readonly orderPayloadID: string;
}

/**
 * `<OrderReference><DocumentReference payloadID/>`. The order date is echoed as the buyer sent it when
 * it is a string, since it identifies their document rather than being a time we report.
 */
export function orderReferenceElement(reference: OrderReferenceInput): XmlElementSpec {
  const orderDate =
    reference.orderDate instanceof Date
      ? cxmlTimestampAttribute(reference.orderDate, 'orderDate')
      : reference.orderDate === ''
        ? undefined
        : reference.orderDate;
  return el(
    'OrderReference',
    { orderID: requireText(reference.orderID, 'orderID'), orderDate },
    el('DocumentReference', { payloadID: requireText(reference.orderPayloadID, 'orderPayloadID') }),
  );
}

/** What every Fulfill.dtd request punchgate sends carries besides its own content: it is about one PO. */
export interface FulfillRequestInput extends CxmlEnvelopeInput, OrderReferenceInput {
  /** From = punchgate (the supplier), To = the buyer, Sender = punchgate with its SharedSecret. */
  readonly header: CxmlHeader;
  /** `test` for a document about a test order: written on the Request, as the order carried it. */
  readonly deploymentMode?: DeploymentMode;
}

/**
 * A Fulfill.dtd document (ConfirmationRequest, ShipNoticeRequest): the Header with punchgate's shared
 * secret, since it goes server to server, then `<Request>` around `request`.
 */
export function buildFulfillRequestDocument(input: FulfillRequestInput, request: XmlElementSpec): string {
  return buildCxmlDocument(input, 'Fulfill', [
    headerElement(input.header, true),
    requestElement(input.deploymentMode, request),
  ]);
}
