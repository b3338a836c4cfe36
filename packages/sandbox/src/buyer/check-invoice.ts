/**
 * The buyer's invoice check: an InvoiceDetailRequest against the purchase order the simulator sent, as
 * a procurement system matches an invoice to its PO before it accepts it. The first problem found is the
 * answer, with a text that names the figures, as real buyers reject:
 *
 * | code | when                                                                                         |
 * |------|----------------------------------------------------------------------------------------------|
 * | 400  | purpose or operation not taken here; a standard invoice without lines; several POs; a date   |
 * |      | that is no date; a figure that is no decimal; a currency that is not the PO's; a quantity    |
 * |      | over what remains to invoice; a unit price, unit or part that is not the PO line's; a line   |
 * |      | SubtotalAmount that is not quantity × price; a summary that does not add up; a credit memo   |
 * |      | without InvoiceIDInfo, not negative, or crediting more than is left of the invoice           |
 * | 417  | a PO line that does not exist; an invoiceID already taken by another document; a credit memo |
 * |      | crediting an invoice not accepted for this PO                                                 |
 *
 * Amounts are compared exactly, on the kernel's decimals; a line's SubtotalAmount may be quantity ×
 * price (÷ its PriceBasisQuantity, which must be the PO line's) rounded once to the currency's minor units.
 */
import {
  addDecimals,
  type Decimal,
  formatDecimal,
  lineAmount,
  multiplyDecimals,
  ONE,
  type PriceBasis,
  readDecimal,
} from 'punchgate/kernel';
import { type PriceBasisText, priceBasisText } from './price-basis.ts';
import type { OrderedDocument, OrderedLine } from './purchase-order-lines.ts';
import type { InvoiceContent, InvoiceItemContent, MoneyText } from './read-invoice.ts';
import type { InvoiceView, StatusAnswer } from './requisition.ts';

/** An invoice accepted earlier by the same buyer's system (invoiceIDs are unique per supplier there). */
export interface KnownInvoice {
  readonly orderID: string;
  readonly view: InvoiceView;
}

export interface InvoiceCheckInput {
  readonly invoice: InvoiceContent;
  readonly po: OrderedDocument;
  /** Every invoice the buyer's system accepted so far, for this order and its others. */
  readonly accepted: readonly KnownInvoice[];
}

/** The amounts as shown on the page, and the check's verdict. */
export interface InvoiceCheck {
  readonly answer: StatusAnswer;
  readonly view: Omit<InvoiceView, 'receivedAt' | 'endpoint' | 'answer' | 'received'>;
}

class Refusal extends Error {
  readonly code: 400 | 417;

  constructor(code: 400 | 417, message: string) {
    super(message);
    this.code = code;
  }
}

const ZERO: Decimal = { units: 0n, scale: 0 };

function read(text: string, what: string): Decimal {
  const value = readDecimal(text.trim(), { signed: true, barePoint: true });
  if (value === undefined) throw new Refusal(400, `${what} "${text}" is not a decimal amount.`);
  return value;
}

const show = (value: Decimal): string => formatDecimal(value, { minDecimals: 2 });
const negate = (value: Decimal): Decimal => ({ units: -value.units, scale: value.scale });
const minus = (a: Decimal, b: Decimal): Decimal => addDecimals([a, negate(b)]);
const sign = (value: Decimal): number => (value.units === 0n ? 0 : value.units < 0n ? -1 : 1);
const same = (a: Decimal, b: Decimal): boolean => sign(minus(a, b)) === 0;

/** A PriceBasisQuantity as exact decimals: both figures must be numbers above zero. */
function exactBasis(basis: PriceBasisText | undefined, what: string): PriceBasis | undefined {
  if (basis === undefined) return undefined;
  const syntax = { signed: true, barePoint: true, exponent: true } as const;
  const quantity = readDecimal(basis.quantity, syntax);
  const conversionFactor = readDecimal(basis.conversionFactor, syntax);
  if (
    quantity === undefined ||
    conversionFactor === undefined ||
    sign(quantity) <= 0 ||
    sign(conversionFactor) <= 0
  ) {
    throw new Refusal(
      400,
      `${what} "${basis.quantity}" / "${basis.conversionFactor}" is not a number above zero.`,
    );
  }
  return { quantity, conversionFactor };
}

/** The same basis: none on both sides (or 1 of factor 1), or the same quantity and factor. */
function sameBasis(a: PriceBasis | undefined, b: PriceBasis | undefined): boolean {
  const one = { quantity: ONE, conversionFactor: ONE };
  const x = a ?? one;
  const y = b ?? one;
  return same(x.quantity, y.quantity) && same(x.conversionFactor, y.conversionFactor);
}

function money(value: MoneyText | undefined, what: string): Decimal {
  return value === undefined ? ZERO : read(value.value, what);
}

/** Every Money of the invoice must be in the PO's currency. */
function checkCurrencies(invoice: InvoiceContent, orderID: string, currency: string): void {
  const named: [string, MoneyText | undefined][] = [];
  for (const item of invoice.items) {
    const line = `Invoice line ${item.invoiceLineNumber}`;
    named.push([`${line}'s UnitPrice`, item.unitPrice], [`${line}'s SubtotalAmount`, item.subtotal]);
    named.push([`${line}'s Tax`, item.tax]);
  }
  const s = invoice.summary;
  named.push(['SubtotalAmount', s.subtotal], ['Tax', s.tax], ['SpecialHandlingAmount', s.specialHandling]);
  named.push(['ShippingAmount', s.shipping], ['GrossAmount', s.gross], ['InvoiceDetailDiscount', s.discount]);
  named.push(['NetAmount', s.net], ['DepositAmount', s.deposit], ['DueAmount', s.due]);
  for (const [what, value] of named) {
    if (value !== undefined && value.currency !== currency) {
      throw new Refusal(
        400,
        `${what} is in ${value.currency ?? 'no currency'}; purchase order ${orderID} is in ${currency}.`,
      );
    }
  }
}

/** `YYYY-MM-DD` of the invoiceDate's own calendar day plus `days`; a refusal when it is no date. */
export function dueDateOf(invoiceDate: string, days: number): string {
  const day = /^(\d{4}-\d{2}-\d{2})(T|$)/.exec(invoiceDate)?.[1];
  if (day === undefined || Number.isNaN(Date.parse(invoiceDate))) {
    throw new Refusal(400, `invoiceDate "${invoiceDate}" is not a cXML date and time.`);
  }
  const due = new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);
  return due.toISOString().slice(0, 10);
}

function checkHeader(invoice: InvoiceContent): void {
  if (invoice.purpose !== 'standard' && invoice.purpose !== 'creditMemo') {
    throw new Refusal(
      400,
      `purpose "${invoice.purpose}" is not taken here; invoices are "standard" or "creditMemo".`,
    );
  }
  if (invoice.operation !== 'new') {
    throw new Refusal(
      400,
      `operation "${invoice.operation}" is not taken here; take an invoice back with a credit memo.`,
    );
  }
  if (invoice.orderIDs.length > 1) {
    throw new Refusal(
      400,
      `An invoice here bills one purchase order; this one names ${invoice.orderIDs.join(', ')}.`,
    );
  }
  if (invoice.purpose === 'standard' && (invoice.headerInvoice || invoice.items.length === 0)) {
    throw new Refusal(
      400,
      'A standard invoice bills the purchase order’s lines (InvoiceDetailOrder with InvoiceDetailItem); ' +
        'header invoices are taken for credit memos only.',
    );
  }
}

/** What is invoiced already of each PO line, by the accepted invoices of this order. */
function invoicedSoFar(orderID: string, accepted: readonly KnownInvoice[]): Map<string, Decimal> {
  const invoiced = new Map<string, Decimal>();
  for (const known of accepted) {
    if (known.orderID !== orderID) continue;
    for (const line of known.view.lines) {
      const quantity = readDecimal(line.quantity, { signed: true, barePoint: true, exponent: true });
      if (quantity === undefined) continue;
      invoiced.set(line.lineNumber, addDecimals([invoiced.get(line.lineNumber) ?? ZERO, quantity]));
    }
  }
  return invoiced;
}

function checkLine(item: InvoiceItemContent, ordered: OrderedLine, credit: boolean): Decimal {
  const line = `Invoice line ${item.invoiceLineNumber}`;
  const poLine = `PO line ${ordered.lineNumber}`;
  const quantity = readDecimal(item.quantity.trim(), { signed: true, barePoint: true, exponent: true });
  if (quantity === undefined) throw new Refusal(400, `${line}'s quantity "${item.quantity}" is no number.`);
  if (!credit && sign(quantity) <= 0) {
    throw new Refusal(
      400,
      `${line} bills a quantity of ${item.quantity}; a standard invoice bills more than 0.`,
    );
  }
  const price = read(item.unitPrice.value, `${line}'s UnitPrice`);
  const orderedPrice = read(ordered.unitPrice, `${poLine}'s UnitPrice`);
  if (!same(price, orderedPrice)) {
    throw new Refusal(
      400,
      `${line} bills ${poLine} at ${show(price)} ${ordered.currency}; the purchase order's price is ${show(orderedPrice)} ${ordered.currency}.`,
    );
  }
  if (item.unitOfMeasure !== ordered.unitOfMeasure) {
    throw new Refusal(
      400,
      `${line} is in ${item.unitOfMeasure || 'no unit'}; ${poLine} is in ${ordered.unitOfMeasure}.`,
    );
  }
  if (item.supplierPartID !== undefined && item.supplierPartID !== ordered.supplierPartID) {
    throw new Refusal(
      400,
      `${line} names part ${item.supplierPartID}; ${poLine} is ${ordered.supplierPartID}.`,
    );
  }
  const basis = exactBasis(item.priceBasis, `${line}'s PriceBasisQuantity`);
  const orderedBasis = exactBasis(ordered.priceBasis, `${poLine}'s PriceBasisQuantity`);
  if (!sameBasis(basis, orderedBasis)) {
    throw new Refusal(
      400,
      `${line} quotes its price ${priceBasisText(item.priceBasis)}; ${poLine} ${priceBasisText(ordered.priceBasis)}.`,
    );
  }
  // The amount a buyer's system books: quantity × price ÷ basis, rounded once to the currency's minor units.
  const expected = lineAmount(quantity, price, basis, ordered.currency);
  const exact = basis === undefined ? multiplyDecimals(quantity, price) : expected;
  const subtotal =
    item.subtotal === undefined ? expected : read(item.subtotal.value, `${line}'s SubtotalAmount`);
  if (!same(subtotal, exact) && !same(subtotal, expected)) {
    const per = basis === undefined ? '' : ` ÷ ${item.priceBasis?.quantity}`;
    throw new Refusal(
      400,
      `${line}'s SubtotalAmount is ${show(subtotal)}; ${item.quantity} × ${show(price)}${per} = ${show(expected)}.`,
    );
  }
  return subtotal;
}

/** Each line against its PO line, and the quantities against what is left to invoice. */
function checkLines(input: InvoiceCheckInput, credit: boolean): { subtotal: Decimal; lineTax: Decimal } {
  const { invoice, po } = input;
  const byNumber = new Map(po.lines.map((line) => [line.lineNumber, line]));
  const invoiced = invoicedSoFar(invoice.orderID, input.accepted);
  const billedNow = new Map<string, Decimal>();
  const subtotals: Decimal[] = [];
  const taxes: Decimal[] = [];
  for (const item of invoice.items) {
    const ordered = byNumber.get(item.lineNumber);
    if (ordered === undefined) {
      const numbers = po.lines.map((line) => line.lineNumber);
      throw new Refusal(
        417,
        `Invoice line ${item.invoiceLineNumber} refers to PO line ${item.lineNumber}; purchase order ${invoice.orderID} has line${numbers.length === 1 ? '' : 's'} ${numbers.join(', ')}.`,
      );
    }
    subtotals.push(checkLine(item, ordered, credit));
    if (item.tax !== undefined)
      taxes.push(read(item.tax.value, `Invoice line ${item.invoiceLineNumber}'s Tax`));
    const quantity =
      readDecimal(item.quantity.trim(), { signed: true, barePoint: true, exponent: true }) ?? ZERO;
    const now = addDecimals([billedNow.get(item.lineNumber) ?? ZERO, quantity]);
    billedNow.set(item.lineNumber, now);
    const before = invoiced.get(item.lineNumber) ?? ZERO;
    const orderedQuantity = read(ordered.quantity, `PO line ${ordered.lineNumber}'s quantity`);
    const left = minus(orderedQuantity, before);
    if (!credit && sign(minus(now, left)) > 0) {
      const earlier = sign(before) === 0 ? '' : ` (${formatDecimal(before)} invoiced already)`;
      throw new Refusal(
        400,
        `Invoice line ${item.invoiceLineNumber} bills ${formatDecimal(now)} of PO line ${ordered.lineNumber}, which ordered ${ordered.quantity}${earlier}: at most ${formatDecimal(left)} can be invoiced.`,
      );
    }
  }
  return { subtotal: addDecimals(subtotals), lineTax: addDecimals(taxes) };
}

interface Summary {
  readonly subtotal: Decimal;
  readonly tax: Decimal;
  readonly specialHandling: Decimal;
  readonly shipping: Decimal;
  readonly discount: Decimal;
  readonly net: Decimal;
  readonly due: Decimal;
}

/** The summary's own arithmetic: Subtotal + Tax + SpecialHandling + Shipping − Discount = Net; Net − Deposit = Due. */
function checkSummary(invoice: InvoiceContent, lines: { subtotal: Decimal; lineTax: Decimal }): Summary {
  const s = invoice.summary;
  const subtotal = money(s.subtotal, 'SubtotalAmount');
  const tax = money(s.tax, 'Tax');
  const specialHandling = money(s.specialHandling, 'SpecialHandlingAmount');
  const shipping = money(s.shipping, 'ShippingAmount');
  const discount = money(s.discount, 'InvoiceDetailDiscount');
  const net = money(s.net, 'NetAmount');
  const deposit = money(s.deposit, 'DepositAmount');
  const due = s.due === undefined ? minus(net, deposit) : money(s.due, 'DueAmount');
  if (invoice.items.length > 0 && !same(subtotal, lines.subtotal)) {
    throw new Refusal(
      400,
      `SubtotalAmount ${show(subtotal)} is not the sum of the lines, ${show(lines.subtotal)}.`,
    );
  }
  if (invoice.taxInLine && !same(tax, lines.lineTax)) {
    throw new Refusal(
      400,
      `Tax ${show(tax)} is not the sum of the line taxes, ${show(lines.lineTax)} (isTaxInLine).`,
    );
  }
  if (s.taxDetails.length > 0) {
    const details = addDecimals(s.taxDetails.map((d, i) => money(d, `TaxDetail ${i + 1}'s TaxAmount`)));
    if (!same(tax, details)) {
      throw new Refusal(400, `Tax ${show(tax)} is not the sum of its TaxDetail amounts, ${show(details)}.`);
    }
  }
  const gross = addDecimals([subtotal, tax, specialHandling, shipping]);
  if (s.gross !== undefined && !same(money(s.gross, 'GrossAmount'), gross)) {
    throw new Refusal(
      400,
      `GrossAmount ${show(money(s.gross, 'GrossAmount'))} is not SubtotalAmount + Tax + SpecialHandlingAmount + ShippingAmount = ${show(gross)}.`,
    );
  }
  const expectedNet = minus(gross, discount);
  if (!same(net, expectedNet)) {
    throw new Refusal(
      400,
      `NetAmount ${show(net)} is not SubtotalAmount + Tax + SpecialHandlingAmount + ShippingAmount − InvoiceDetailDiscount = ${show(expectedNet)}.`,
    );
  }
  if (!same(due, minus(net, deposit))) {
    throw new Refusal(
      400,
      `DueAmount ${show(due)} is not NetAmount − DepositAmount = ${show(minus(net, deposit))}.`,
    );
  }
  return { subtotal, tax, specialHandling, shipping, discount, net, due };
}

/** A credit memo: it credits an invoice accepted for this PO, is negative, and credits no more than is left. */
function checkCredit(input: InvoiceCheckInput, due: Decimal): void {
  const { invoice } = input;
  const credited = invoice.creditedInvoiceID;
  if (credited === undefined) {
    throw new Refusal(400, 'A credit memo names the invoice it credits in InvoiceIDInfo@invoiceID.');
  }
  const original = input.accepted.find(
    (known) =>
      known.orderID === invoice.orderID &&
      known.view.invoiceID === credited &&
      known.view.purpose === 'standard',
  );
  if (original === undefined) {
    throw new Refusal(
      417,
      `Credit memo ${invoice.invoiceID} credits invoice ${credited}, which is not an invoice accepted for purchase order ${invoice.orderID}.`,
    );
  }
  if (sign(due) >= 0) {
    throw new Refusal(400, `A credit memo's DueAmount is negative; this one is ${show(due)}.`);
  }
  const earlierCredits = input.accepted
    .filter((known) => known.view.purpose === 'creditMemo' && known.view.creditedInvoiceID === credited)
    .map((known) => read(known.view.due, 'DueAmount'));
  const left = addDecimals([read(original.view.due, 'DueAmount'), ...earlierCredits]);
  if (sign(addDecimals([left, due])) < 0) {
    throw new Refusal(
      400,
      `Credit memo ${invoice.invoiceID} credits ${show(negate(due))}, more than the ${show(left)} left of invoice ${credited}.`,
    );
  }
}

function lineViews(invoice: InvoiceContent) {
  return invoice.items.map((item) => ({
    invoiceLineNumber: item.invoiceLineNumber,
    lineNumber: item.lineNumber,
    quantity: item.quantity,
    unitOfMeasure: item.unitOfMeasure,
    unitPrice: item.unitPrice.value,
    ...(item.priceBasis !== undefined && { priceBasis: item.priceBasis }),
    subtotal: item.subtotal?.value ?? '',
    ...(item.tax !== undefined && { tax: item.tax.value }),
    ...(item.supplierPartID !== undefined && { supplierPartID: item.supplierPartID }),
    ...(item.description !== undefined && { description: item.description }),
  }));
}

/** The figures as the document states them, for the page, whether or not they pass. */
function statedView(invoice: InvoiceContent, currency: string): InvoiceCheck['view'] {
  const s = invoice.summary;
  const text = (value: MoneyText | undefined) => value?.value ?? '0.00';
  const due = s.due?.value ?? s.net.value;
  let dueDate: string | undefined;
  try {
    dueDate = dueDateOf(invoice.invoiceDate, invoice.paymentTermDays ?? 0);
  } catch {
    dueDate = undefined;
  }
  return {
    payloadID: invoice.payloadID,
    invoiceID: invoice.invoiceID,
    purpose: invoice.purpose,
    operation: invoice.operation,
    invoiceDate: invoice.invoiceDate,
    ...(invoice.creditedInvoiceID !== undefined && { creditedInvoiceID: invoice.creditedInvoiceID }),
    ...(invoice.orderPayloadID !== undefined && { orderPayloadID: invoice.orderPayloadID }),
    currency: s.due?.currency ?? s.net.currency ?? currency,
    taxInLine: invoice.taxInLine,
    ...(invoice.paymentTermDays !== undefined && { paymentTermDays: invoice.paymentTermDays }),
    ...(dueDate !== undefined && { dueDate }),
    lines: lineViews(invoice),
    subtotal: s.subtotal.value,
    tax: s.tax.value,
    shipping: text(s.shipping),
    specialHandling: text(s.specialHandling),
    discount: text(s.discount),
    net: s.net.value,
    due,
    comments: invoice.comments,
  };
}

/**
 * @example
 * const { answer } = checkInvoice({ invoice, po: readOrderedLines(order.document), accepted });
 * answer.code; // 200, or 400/417 with the reason in answer.detail
 */
export function checkInvoice(input: InvoiceCheckInput): InvoiceCheck {
  const { invoice, po } = input;
  const view = statedView(invoice, po.currency);
  try {
    checkHeader(invoice);
    dueDateOf(invoice.invoiceDate, 0);
    const taken = input.accepted.find((known) => known.view.invoiceID === invoice.invoiceID);
    if (taken !== undefined) {
      throw new Refusal(
        417,
        `Invoice number ${invoice.invoiceID} was taken already by payloadID ${taken.view.payloadID} (purchase order ${taken.orderID}); a new invoice needs a new invoiceID.`,
      );
    }
    checkCurrencies(invoice, invoice.orderID, po.currency);
    const credit = invoice.purpose === 'creditMemo';
    const lines = checkLines(input, credit);
    const summary = checkSummary(invoice, lines);
    if (credit) checkCredit(input, summary.due);
    else if (sign(summary.due) < 0) {
      throw new Refusal(
        400,
        `A standard invoice is not due a negative amount (DueAmount ${show(summary.due)}); send a credit memo.`,
      );
    }
    return { answer: { code: 200, text: 'OK', detail: '' }, view };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const text = error.code === 417 ? 'Expectation Failed' : 'Bad Request';
    return { answer: { code: error.code, text, detail: error.message }, view };
  }
}
