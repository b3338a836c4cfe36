/**
 * Reading an InvoiceDetailRequest (InvoiceDetail.dtd) as a buyer's invoice inbox does: the header
 * (invoiceID, purpose, operation, invoiceDate, the invoice a credit memo credits, payment terms,
 * comments, the line indicators), the purchase order each InvoiceDetailOrder or InvoiceDetailHeaderOrder
 * names, every InvoiceDetailItem with its PO line reference and amounts, and the InvoiceDetailSummary.
 * Amounts stay text with their currency; `check-invoice.ts` judges them against the purchase order.
 * Only what the DTD requires and the check needs is required here (a missing one is a 400).
 */
import { type PriceBasisText, readPriceBasis } from './price-basis.ts';
import { commentsText } from './order-reference.ts';
import { SimulatorError } from './simulator-error.ts';
import { all, attr, childText, first, rawText, requiredAttr, text, type XmlNode } from './xml-reader.ts';

/** A Money element's amount as written and its currency attribute. */
export interface MoneyText {
  readonly value: string;
  readonly currency: string | undefined;
}

export interface InvoiceItemContent {
  readonly invoiceLineNumber: string;
  readonly lineNumber: string;
  readonly quantity: string;
  readonly unitOfMeasure: string;
  readonly unitPrice: MoneyText;
  /** What the price is for (InvoiceDetailItem/PriceBasisQuantity), when more than one unit. */
  readonly priceBasis?: PriceBasisText;
  readonly subtotal?: MoneyText;
  readonly tax?: MoneyText;
  readonly supplierPartID?: string;
  readonly supplierPartAuxiliaryID?: string;
  readonly description?: string;
}

export interface InvoiceSummaryContent {
  readonly subtotal: MoneyText;
  readonly tax: MoneyText;
  /** The TaxDetail/TaxAmount of the summary's Tax. */
  readonly taxDetails: readonly MoneyText[];
  readonly specialHandling?: MoneyText;
  readonly shipping?: MoneyText;
  readonly gross?: MoneyText;
  readonly discount?: MoneyText;
  readonly net: MoneyText;
  readonly deposit?: MoneyText;
  readonly due?: MoneyText;
}

export interface InvoiceContent {
  /** The purchase order billed: the first orderID named. */
  readonly orderID: string;
  /** Every orderID the invoice names, in order, without repeats. */
  readonly orderIDs: readonly string[];
  /** The OrderReference's DocumentReference payloadID, if given. */
  readonly orderPayloadID?: string;
  readonly payloadID: string;
  readonly invoiceID: string;
  readonly purpose: string;
  readonly operation: string;
  readonly invoiceDate: string;
  /** InvoiceIDInfo@invoiceID: the invoice a credit memo credits. */
  readonly creditedInvoiceID?: string;
  /** InvoiceDetailHeaderOrder instead of InvoiceDetailOrder: a header invoice without lines. */
  readonly headerInvoice: boolean;
  readonly taxInLine: boolean;
  readonly paymentTermDays?: number;
  readonly comments: string;
  readonly items: readonly InvoiceItemContent[];
  readonly summary: InvoiceSummaryContent;
}

function moneyOf(node: XmlNode | undefined): MoneyText | undefined {
  const money = first(node, 'Money');
  if (money === undefined) return undefined;
  return { value: text(money).trim(), currency: attr(money, 'currency') };
}

function requiredMoney(node: XmlNode | undefined, name: string, where: string): MoneyText {
  const money = moneyOf(first(node, name));
  if (money === undefined || money.value === '') {
    throw new SimulatorError('missing_field', `${where} has no ${name} with Money.`);
  }
  return money;
}

function optionalMoney(node: XmlNode | undefined, name: string): MoneyText | undefined {
  return moneyOf(first(node, name));
}

/** The orderID an InvoiceDetailOrderInfo names: OrderReference's, else OrderIDInfo's. */
function orderOf(info: XmlNode | undefined): { orderID: string; payloadID: string | undefined } {
  const reference = first(info, 'OrderReference');
  const orderID = attr(reference, 'orderID') ?? attr(first(info, 'OrderIDInfo'), 'orderID');
  if (orderID === undefined || orderID === '') {
    throw new SimulatorError(
      'missing_field',
      'InvoiceDetailOrderInfo names no orderID (OrderReference or OrderIDInfo).',
    );
  }
  return { orderID, payloadID: attr(first(reference, 'DocumentReference'), 'payloadID') };
}

function readItem(item: XmlNode): InvoiceItemContent {
  const invoiceLineNumber = requiredAttr(item, 'invoiceLineNumber', 'InvoiceDetailItem');
  const where = `InvoiceDetailItem ${invoiceLineNumber}`;
  const reference = first(item, 'InvoiceDetailItemReference');
  if (reference === undefined) {
    throw new SimulatorError('missing_field', `${where} has no InvoiceDetailItemReference.`);
  }
  const itemID = first(reference, 'ItemID');
  const supplierPartID = childText(itemID, 'SupplierPartID');
  const auxiliary = first(itemID, 'SupplierPartAuxiliaryID');
  const description = childText(reference, 'Description');
  const subtotal = optionalMoney(item, 'SubtotalAmount');
  const tax = optionalMoney(item, 'Tax');
  const priceBasis = readPriceBasis(item);
  return {
    invoiceLineNumber,
    lineNumber: requiredAttr(reference, 'lineNumber', `${where}'s InvoiceDetailItemReference`),
    quantity: requiredAttr(item, 'quantity', where),
    unitOfMeasure: childText(item, 'UnitOfMeasure')?.trim() ?? '',
    unitPrice: requiredMoney(item, 'UnitPrice', where),
    ...(priceBasis !== undefined && { priceBasis }),
    ...(subtotal !== undefined && { subtotal }),
    ...(tax !== undefined && { tax }),
    ...(supplierPartID !== undefined && { supplierPartID: supplierPartID.trim() }),
    ...(auxiliary !== undefined && { supplierPartAuxiliaryID: rawText(auxiliary) }),
    ...(description !== undefined && { description: description.trim() }),
  };
}

function readSummary(summary: XmlNode | undefined): InvoiceSummaryContent {
  if (summary === undefined) {
    throw new SimulatorError('missing_field', 'InvoiceDetailRequest has no InvoiceDetailSummary.');
  }
  const where = 'InvoiceDetailSummary';
  const optional = (name: string) => optionalMoney(summary, name);
  const specialHandling = optional('SpecialHandlingAmount');
  const shipping = optional('ShippingAmount');
  const gross = optional('GrossAmount');
  const discount = optional('InvoiceDetailDiscount');
  const deposit = optional('DepositAmount');
  const due = optional('DueAmount');
  return {
    subtotal: requiredMoney(summary, 'SubtotalAmount', where),
    tax: requiredMoney(summary, 'Tax', where),
    taxDetails: all(first(summary, 'Tax'), 'TaxDetail').flatMap((detail) => {
      const amount = moneyOf(first(detail, 'TaxAmount'));
      return amount === undefined ? [] : [amount];
    }),
    ...(specialHandling !== undefined && { specialHandling }),
    ...(shipping !== undefined && { shipping }),
    ...(gross !== undefined && { gross }),
    ...(discount !== undefined && { discount }),
    net: requiredMoney(summary, 'NetAmount', where),
    ...(deposit !== undefined && { deposit }),
    ...(due !== undefined && { due }),
  };
}

/** The net days of the payment terms: the longest payInNumberOfDays given, as a whole number. */
function paymentTermDays(header: XmlNode): number | undefined {
  const days = [...all(header, 'PaymentTerm'), ...all(header, 'InvoiceDetailPaymentTerm')]
    .map((term) => attr(term, 'payInNumberOfDays'))
    .filter((value): value is string => value !== undefined && /^\d{1,5}$/.test(value))
    .map(Number);
  return days.length === 0 ? undefined : Math.max(...days);
}

/** Reads the InvoiceDetailRequest inside a cXML `<Request>`; `payloadID` is the envelope's. */
export function readInvoice(request: XmlNode, payloadID: string): InvoiceContent {
  const invoice = first(request, 'InvoiceDetailRequest');
  const header = first(invoice, 'InvoiceDetailRequestHeader');
  if (header === undefined) {
    throw new SimulatorError('missing_field', 'InvoiceDetailRequest has no InvoiceDetailRequestHeader.');
  }
  const detailOrders = all(invoice, 'InvoiceDetailOrder');
  const headerOrders = all(invoice, 'InvoiceDetailHeaderOrder');
  const orders = [...detailOrders, ...headerOrders].map((order) =>
    orderOf(first(order, 'InvoiceDetailOrderInfo')),
  );
  if (orders.length === 0) {
    throw new SimulatorError(
      'missing_field',
      'InvoiceDetailRequest has no InvoiceDetailOrder (or InvoiceDetailHeaderOrder) naming the purchase order.',
    );
  }
  const [billed] = orders as [(typeof orders)[number], ...typeof orders];
  const credited = attr(first(header, 'InvoiceIDInfo'), 'invoiceID');
  const days = paymentTermDays(header);
  const orderPayloadID = billed.payloadID;
  return {
    orderID: billed.orderID,
    orderIDs: [...new Set(orders.map((order) => order.orderID))],
    ...(orderPayloadID !== undefined && { orderPayloadID }),
    payloadID,
    invoiceID: requiredAttr(header, 'invoiceID', 'InvoiceDetailRequestHeader'),
    purpose: attr(header, 'purpose') ?? 'standard',
    operation: attr(header, 'operation') ?? 'new',
    invoiceDate: requiredAttr(header, 'invoiceDate', 'InvoiceDetailRequestHeader'),
    ...(credited !== undefined && credited !== '' && { creditedInvoiceID: credited }),
    headerInvoice: detailOrders.length === 0,
    taxInLine: attr(first(header, 'InvoiceDetailLineIndicator'), 'isTaxInLine') === 'yes',
    ...(days !== undefined && { paymentTermDays: days }),
    comments: commentsText(header),
    items: detailOrders.flatMap((order) => all(order, 'InvoiceDetailItem').map(readItem)),
    summary: readSummary(first(invoice, 'InvoiceDetailSummary')),
  };
}
