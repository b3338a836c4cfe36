/**
 * InvoiceDetailRequest (InvoiceDetail.dtd): punchgate billing a buyer for a purchase order it answered,
 * one InvoiceDetailItem per PO line invoiced, or a credit memo taking such an invoice back.
 *
 * Amounts are decimal strings in one currency, and the builder refuses a summary that does not add up
 * (GrossAmount = SubtotalAmount + Tax + ShippingAmount, NetAmount = GrossAmount − discount, DueAmount =
 * NetAmount; the lines' subtotals, and with line tax their taxes, sum to the summary's): a buyer's
 * invoice check rejects such a document, so it is a programming error here, a TypeError.
 *
 * Compliant invoicing (EU VAT, Coupa's compliance): each Tax's TaxDetail carries its category, rate, tax
 * point date and, for a tax-exempt or zero-rated supply, `exemptDetail` with the reason (TaxDetail
 * Description, and TaxExemption when there is an exemption code); an InvoicePartner carries the party's tax
 * ids as IdReference; with `accountingInLine` each line echoes the PO line's Distribution and the header
 * says so (`isAccountingInLine`). None of it is written when it is not given.
 *
 * A credit memo is written the way the DTD defines `purpose="creditMemo"`: a header invoice
 * (`isHeaderInvoice="yes"`, InvoiceDetailHeaderOrder with an InvoiceDetailOrderSummary instead of the
 * lines), negative amounts, and the invoice it credits as InvoiceIDInfo (and DocumentReference when its
 * payloadID is known).
 */
import {
  addDecimals,
  compareDecimals,
  type Decimal,
  equalDecimals,
  formatDecimal,
  parseDecimal,
} from '../kernel/decimal.ts';
import { minorUnits } from '../kernel/money.ts';
import {
  commentsElement,
  lineNumberAttribute,
  moneyElement,
  type OrderReferenceInput,
  orderReferenceElement,
  type PriceBasisInput,
  priceBasisElement,
  quantityAttribute,
} from './build-common-elements.ts';
import {
  buildCxmlDocument,
  type CxmlEnvelopeInput,
  cxmlTimestampAttribute,
  envelopeLang,
  headerElement,
  optionalTimestampAttribute,
  requestElement,
  requireText,
} from './envelope.ts';
import type { CxmlHeader, DeploymentMode } from './request-types.ts';
import { el, type XmlElementSpec } from './xml-writer.ts';

export type InvoicePurpose = 'standard' | 'creditMemo';
export type InvoiceTaxAt = 'header' | 'line';

/** Why a TaxDetail bills no tax: `exempt` (exempt from the tax) or `zeroRated` (taxed at 0 %). */
export interface InvoiceTaxExemptionInput {
  readonly detail: 'exempt' | 'zeroRated';
  /** The legal reason, e.g. "Reverse charge: Article 196 Council Directive 2006/112/EC". */
  readonly reason: string;
  /** The exemption code the tax authority defines (TaxExemption@exemptCode); without one no TaxExemption is written. */
  readonly code?: string;
}

/** A Tax element: its amount and one TaxDetail. */
export interface InvoiceTaxInput {
  /** The tax, e.g. `3.80`. */
  readonly amount: string;
  /** What was taxed, written as TaxDetail/TaxableAmount. */
  readonly taxableAmount?: string;
  /** The rate in percent, e.g. `19` (not `0.19`). */
  readonly percentageRate?: string;
  /** TaxDetail@category: `sales` (default), `vat`, `gst`, … */
  readonly category?: string;
  /** Tax/Description; default `Tax`. */
  readonly description?: string;
  /** TaxDetail@taxPointDate: when the tax became due (the date of supply). */
  readonly taxPointDate?: Date | string;
  /** The supply is exempt or zero-rated: TaxDetail@exemptDetail with its reason. */
  readonly exemption?: InvoiceTaxExemptionInput;
  /**
   * The part of `amount` that is tax on shipping, in the summary: a TaxDetail of its own (`purpose`
   * `shippingTax`, same category and rate), the first TaxDetail then holding the rest.
   */
  readonly shippingTax?: { readonly taxableAmount: string; readonly amount: string };
}

/** An `IdReference` of an InvoicePartner: a tax id (`vatID`, Coupa's `taxPrefix`/`taxNumber`, …). */
export interface InvoiceIdReferenceInput {
  readonly domain: string;
  readonly identifier: string;
}

/** One accounting Distribution of a line, as the PO line carried it; its charge in the invoice currency. */
export interface InvoiceDistributionInput {
  /** Accounting@name. */
  readonly accountingName: string;
  /** AccountingSegment id, Name and Description; at least one. */
  readonly segments: readonly { readonly id: string; readonly name: string; readonly description: string }[];
  /** Charge/Money. */
  readonly charge: string;
}

/** One invoiced PO line. */
export interface InvoiceLineInput {
  /** Unique within the invoice, from 1. */
  readonly invoiceLineNumber: number;
  /** The OrderRequest line's lineNumber (InvoiceDetailItemReference@lineNumber). */
  readonly lineNumber: number;
  readonly quantity: string | number;
  readonly unitOfMeasure: string;
  readonly unitPrice: string;
  /** The PO line's PriceBasisQuantity, echoed: what `unitPrice` is for. */
  readonly priceBasis?: PriceBasisInput;
  readonly supplierPartID?: string;
  readonly supplierPartAuxiliaryID?: string;
  readonly description?: string;
  /** quantity × unitPrice in the currency's decimals. */
  readonly subtotal: string;
  /** The line's tax; required for every line with `taxAt: 'line'`, not written otherwise. */
  readonly tax?: InvoiceTaxInput;
  /** The PO line's accounting, written (as Distribution) only with `accountingInLine`. */
  readonly distribution?: readonly InvoiceDistributionInput[];
  readonly comments?: string;
}

export interface InvoiceSummaryInput {
  readonly subtotal: string;
  readonly tax: InvoiceTaxInput;
  readonly shipping?: string;
  /** A discount (the print order's promotion), written as InvoiceDetailDiscount when not zero. */
  readonly discount?: string;
  /** subtotal + tax + shipping. */
  readonly gross: string;
  /** gross − discount. */
  readonly net: string;
  /** What the buyer pays: net (negative for a credit memo). */
  readonly due: string;
}

/** An address for an InvoicePartner's Contact; it is written as PostalAddress only when complete. */
export interface InvoicePartnerAddress {
  readonly deliverTo?: readonly string[];
  readonly street: readonly string[];
  readonly city?: string;
  readonly state?: string;
  readonly postalCode?: string;
  /** The country as text; default the ISO code. */
  readonly country?: string;
  readonly isoCountryCode?: string;
}

export interface InvoicePartnerInput {
  /** Contact@role: `remitTo`, `billTo`, `soldTo`, `from`, `issuerOfInvoice`, … */
  readonly role: string;
  readonly name: string;
  readonly addressID?: string;
  readonly address?: InvoicePartnerAddress;
  readonly email?: string;
  /** The partner's ids after its Contact: tax ids, in this order. */
  readonly idReferences?: readonly InvoiceIdReferenceInput[];
}

export interface OriginalInvoiceInput {
  readonly invoiceID: string;
  readonly invoiceDate?: Date | string;
  /** The original InvoiceDetailRequest's payloadID, written as DocumentReference when given. */
  readonly payloadID?: string;
}

export interface InvoiceDetailRequestInput extends CxmlEnvelopeInput {
  /** From = punchgate (the supplier), To = the buyer, Sender = punchgate with its SharedSecret. */
  readonly header: CxmlHeader;
  /** `test` for an invoice of a test order: written on the Request, as the order carried it. */
  readonly deploymentMode?: DeploymentMode;
  readonly invoiceID: string;
  readonly purpose: InvoicePurpose;
  readonly invoiceDate: Date | string;
  /** ISO 4217 code of every amount. */
  readonly currency: string;
  /** The PO: orderID, orderDate as received, the OrderRequest's payloadID. */
  readonly orderReference: OrderReferenceInput;
  /** The supplier's order number (the print order id), as SupplierOrderInfo. */
  readonly supplierOrderID?: string;
  /** The invoice a credit memo takes back; required for `creditMemo`. */
  readonly originalInvoice?: OriginalInvoiceInput;
  readonly partners?: readonly InvoicePartnerInput[];
  /** Net days (PaymentTerm payInNumberOfDays). */
  readonly paymentTermDays?: number;
  readonly taxAt: InvoiceTaxAt;
  /** The lines carry the PO lines' Distribution (`isAccountingInLine="yes"`); not for a credit memo. */
  readonly accountingInLine?: boolean;
  readonly lines: readonly InvoiceLineInput[];
  readonly summary: InvoiceSummaryInput;
  readonly comments?: string;
}

const ROLE = /^[A-Za-z0-9._:-]+$/;
const ISO_COUNTRY = /^[A-Z]{2}$/;

function amount(text: string, field: string): Decimal {
  try {
    return parseDecimal(text, { signed: true });
  } catch {
    throw new TypeError(`${field} must be a decimal such as 12.50, got "${text}"`);
  }
}

function money(value: string, currency: string, field: string): XmlElementSpec {
  return moneyElement({ value, currency }, field);
}

const EXEMPT_DETAILS: ReadonlySet<string> = new Set(['exempt', 'zeroRated']);

/** One TaxDetail of `tax`: its category, rate, tax point and exemption, with `part`'s amounts. */
function taxDetailElement(
  tax: InvoiceTaxInput,
  part: { readonly purpose: string; readonly taxableAmount?: string; readonly amount: string },
  currency: string,
  lang: string,
  field: string,
): XmlElementSpec {
  const { exemption } = tax;
  if (exemption !== undefined && !EXEMPT_DETAILS.has(exemption.detail)) {
    throw new TypeError(`${field}.exemption.detail must be exempt or zeroRated, got "${exemption.detail}"`);
  }
  return el(
    'TaxDetail',
    {
      purpose: part.purpose,
      category: requireText(tax.category ?? 'sales', `${field}.category`),
      percentageRate: tax.percentageRate,
      taxPointDate: optionalTimestampAttribute(tax.taxPointDate, `${field}.taxPointDate`),
      exemptDetail: exemption?.detail,
    },
    part.taxableAmount !== undefined &&
      el('TaxableAmount', {}, money(part.taxableAmount, currency, `${field}.taxableAmount`)),
    el('TaxAmount', {}, money(part.amount, currency, `${field}.amount`)),
    // Coupa reads the exemption reason from the TaxDetail's Description, right after the amounts.
    exemption !== undefined &&
      el('Description', { 'xml:lang': lang }, requireText(exemption.reason, `${field}.exemption.reason`)),
    exemption?.code !== undefined &&
      el(
        'TaxExemption',
        { exemptCode: requireText(exemption.code, `${field}.exemption.code`) },
        el('ExemptReason', { 'xml:lang': lang }, exemption.reason),
      ),
  );
}

/** `a − b`, written with as many decimals as the more precise of the two. */
function difference(a: string, b: string, field: string): string {
  const left = amount(a, field);
  const right = amount(b, field);
  return formatDecimal(sum([left, { units: -right.units, scale: right.scale }]), {
    minDecimals: Math.max(left.scale, right.scale),
  });
}

function taxElement(tax: InvoiceTaxInput, currency: string, lang: string, field: string): XmlElementSpec {
  const shipping = tax.shippingTax;
  const goods =
    shipping === undefined ? tax.amount : difference(tax.amount, shipping.amount, `${field}.shippingTax`);
  return el(
    'Tax',
    {},
    money(tax.amount, currency, `${field}.amount`),
    el('Description', { 'xml:lang': lang }, tax.description ?? 'Tax'),
    taxDetailElement(
      tax,
      {
        purpose: 'tax',
        ...(tax.taxableAmount !== undefined && { taxableAmount: tax.taxableAmount }),
        amount: goods,
      },
      currency,
      lang,
      field,
    ),
    shipping !== undefined &&
      taxDetailElement(tax, { purpose: 'shippingTax', ...shipping }, currency, lang, `${field}.shippingTax`),
  );
}

function idReferenceElement(id: InvoiceIdReferenceInput, field: string): XmlElementSpec {
  return el('IdReference', {
    identifier: requireText(id.identifier, `${field}.identifier`),
    domain: requireText(id.domain, `${field}.domain`),
  });
}

/** A Distribution needs an accounting segment: one without is a programming error, as is a blank name. */
function distributionElement(
  distribution: InvoiceDistributionInput,
  currency: string,
  lang: string,
  field: string,
): XmlElementSpec {
  if (distribution.segments.length === 0) throw new TypeError(`${field}.segments must not be empty`);
  return el(
    'Distribution',
    {},
    el(
      'Accounting',
      { name: requireText(distribution.accountingName, `${field}.accountingName`) },
      distribution.segments.map((segment, index) =>
        el(
          'AccountingSegment',
          { id: requireText(segment.id, `${field}.segments[${index}].id`) },
          el('Name', { 'xml:lang': lang }, segment.name),
          el('Description', { 'xml:lang': lang }, segment.description),
        ),
      ),
    ),
    el('Charge', {}, money(distribution.charge, currency, `${field}.charge`)),
  );
}

/** PostalAddress needs a street, a city and a country code: a partial address is left out. */
function postalAddressElement(address: InvoicePartnerAddress): XmlElementSpec | undefined {
  const street = address.street.filter((line) => line.trim() !== '');
  const { city, isoCountryCode } = address;
  if (street.length === 0 || city === undefined || city.trim() === '') return undefined;
  if (isoCountryCode === undefined || !ISO_COUNTRY.test(isoCountryCode)) return undefined;
  return el(
    'PostalAddress',
    {},
    (address.deliverTo ?? []).map((line) => el('DeliverTo', {}, line)),
    street.map((line) => el('Street', {}, line)),
    el('City', {}, city),
    address.state !== undefined && address.state !== '' && el('State', {}, address.state),
    address.postalCode !== undefined && address.postalCode !== '' && el('PostalCode', {}, address.postalCode),
    el(
      'Country',
      { isoCountryCode },
      address.country !== undefined && address.country !== '' ? address.country : isoCountryCode,
    ),
  );
}

function partnerElement(partner: InvoicePartnerInput, index: number, lang: string): XmlElementSpec {
  const field = `partners[${index}]`;
  if (!ROLE.test(partner.role)) throw new TypeError(`${field}.role must be a cXML role such as remitTo`);
  const postal = partner.address === undefined ? undefined : postalAddressElement(partner.address);
  return el(
    'InvoicePartner',
    {},
    el(
      'Contact',
      { role: partner.role, addressID: partner.addressID },
      el('Name', { 'xml:lang': lang }, requireText(partner.name, `${field}.name`)),
      postal,
      partner.email !== undefined && partner.email !== '' && el('Email', {}, partner.email),
    ),
    (partner.idReferences ?? []).map((id, i) => idReferenceElement(id, `${field}.idReferences[${i}]`)),
  );
}

function lineElement(
  line: InvoiceLineInput,
  index: number,
  input: InvoiceDetailRequestInput,
  lang: string,
): XmlElementSpec {
  const field = `lines[${index}]`;
  const { currency } = input;
  return el(
    'InvoiceDetailItem',
    {
      invoiceLineNumber: lineNumberAttribute(line.invoiceLineNumber, `${field}.invoiceLineNumber`),
      quantity: quantityAttribute(line.quantity, `${field}.quantity`),
    },
    el('UnitOfMeasure', {}, requireText(line.unitOfMeasure, `${field}.unitOfMeasure`)),
    el('UnitPrice', {}, money(line.unitPrice, currency, `${field}.unitPrice`)),
    priceBasisElement(line.priceBasis, `${field}.priceBasis`, lang),
    el(
      'InvoiceDetailItemReference',
      { lineNumber: lineNumberAttribute(line.lineNumber, `${field}.lineNumber`) },
      line.supplierPartID !== undefined &&
        el(
          'ItemID',
          {},
          el('SupplierPartID', {}, requireText(line.supplierPartID, `${field}.supplierPartID`)),
          line.supplierPartAuxiliaryID !== undefined &&
            el('SupplierPartAuxiliaryID', {}, line.supplierPartAuxiliaryID),
        ),
      line.description !== undefined &&
        line.description !== '' &&
        el('Description', { 'xml:lang': lang }, line.description),
    ),
    el('SubtotalAmount', {}, money(line.subtotal, currency, `${field}.subtotal`)),
    input.taxAt === 'line' && line.tax !== undefined && taxElement(line.tax, currency, lang, `${field}.tax`),
    input.accountingInLine === true &&
      (line.distribution ?? []).map((distribution, i) =>
        distributionElement(distribution, currency, lang, `${field}.distribution[${i}]`),
      ),
    commentsElement(line.comments, lang),
  );
}

function sum(values: readonly Decimal[]): Decimal {
  return addDecimals(values);
}

/**
 * Every amount in the currency's ISO 4217 minor units at most (`1200` JPY, `1.250` BHD): a buyer's
 * invoice check reads `1200.50` JPY as a sum no yen coin pays. Unit prices may have more (`0.0452` EUR).
 */
function checkMinorUnits(input: InvoiceDetailRequestInput): void {
  const decimals = minorUnits(input.currency);
  const check = (text: string | undefined, field: string) => {
    if (text === undefined || amount(text, field).scale <= decimals) return;
    throw new TypeError(`${field} "${text}" has more decimals than ${input.currency}'s ${decimals}`);
  };
  const { summary } = input;
  for (const [field, text] of Object.entries(summary)) {
    if (typeof text === 'string') check(text, `summary.${field}`);
  }
  check(summary.tax.amount, 'summary.tax.amount');
  check(summary.tax.taxableAmount, 'summary.tax.taxableAmount');
  input.lines.forEach((line, i) => {
    check(line.subtotal, `lines[${i}].subtotal`);
    check(line.tax?.amount, `lines[${i}].tax.amount`);
    check(line.tax?.taxableAmount, `lines[${i}].tax.taxableAmount`);
  });
}

/** The summary's own arithmetic, and the lines' against it; a mismatch names both figures. */
function checkFigures(input: InvoiceDetailRequestInput): void {
  const { summary } = input;
  const show = (value: Decimal) => formatDecimal(value, { minDecimals: minorUnits(input.currency) });
  const subtotal = amount(summary.subtotal, 'summary.subtotal');
  const tax = amount(summary.tax.amount, 'summary.tax.amount');
  const shipping = amount(summary.shipping ?? '0', 'summary.shipping');
  const discount = amount(summary.discount ?? '0', 'summary.discount');
  const gross = amount(summary.gross, 'summary.gross');
  const net = amount(summary.net, 'summary.net');
  const due = amount(summary.due, 'summary.due');
  const expect = (actual: Decimal, wanted: Decimal, what: string) => {
    if (!equalDecimals(actual, wanted)) {
      throw new TypeError(`${what}: expected ${show(wanted)}, got ${show(actual)}`);
    }
  };
  expect(gross, sum([subtotal, tax, shipping]), 'summary.gross must be subtotal + tax + shipping');
  expect(
    net,
    sum([gross, { units: -discount.units, scale: discount.scale }]),
    'summary.net must be gross − discount',
  );
  expect(due, net, 'summary.due must be net');
  const zero = { units: 0n, scale: 0 };
  if (input.purpose === 'standard' && compareDecimals(due, zero) < 0) {
    throw new TypeError(`summary.due of a standard invoice must not be negative, got ${summary.due}`);
  }
  if (input.purpose === 'creditMemo' && compareDecimals(due, zero) >= 0) {
    throw new TypeError(`summary.due of a credit memo must be negative, got ${summary.due}`);
  }
  if (input.purpose === 'creditMemo') return;
  expect(
    subtotal,
    sum(input.lines.map((line, i) => amount(line.subtotal, `lines[${i}].subtotal`))),
    'summary.subtotal must be the sum of the lines',
  );
  if (input.taxAt === 'line') {
    const lineTaxes = input.lines.map((line, i) => {
      if (line.tax === undefined) throw new TypeError(`lines[${i}].tax is required with taxAt "line"`);
      return amount(line.tax.amount, `lines[${i}].tax.amount`);
    });
    const shippingTax = amount(summary.tax.shippingTax?.amount ?? '0', 'summary.tax.shippingTax.amount');
    expect(
      tax,
      sum([...lineTaxes, shippingTax]),
      'summary.tax must be the sum of the line taxes with taxAt "line"',
    );
  }
}

function summaryElement(input: InvoiceDetailRequestInput, lang: string): XmlElementSpec {
  const { summary, currency } = input;
  const discount =
    summary.discount !== undefined && amount(summary.discount, 'summary.discount').units !== 0n;
  return el(
    'InvoiceDetailSummary',
    {},
    el('SubtotalAmount', {}, money(summary.subtotal, currency, 'summary.subtotal')),
    taxElement(summary.tax, currency, lang, 'summary.tax'),
    summary.shipping !== undefined &&
      el('ShippingAmount', {}, money(summary.shipping, currency, 'summary.shipping')),
    el('GrossAmount', {}, money(summary.gross, currency, 'summary.gross')),
    discount && el('InvoiceDetailDiscount', {}, money(summary.discount ?? '0', currency, 'summary.discount')),
    el('NetAmount', {}, money(summary.net, currency, 'summary.net')),
    el('DueAmount', {}, money(summary.due, currency, 'summary.due')),
  );
}

function orderInfoElement(input: InvoiceDetailRequestInput): XmlElementSpec {
  return el(
    'InvoiceDetailOrderInfo',
    {},
    orderReferenceElement(input.orderReference),
    input.supplierOrderID !== undefined &&
      el('SupplierOrderInfo', { orderID: requireText(input.supplierOrderID, 'supplierOrderID') }),
  );
}

/** The credit memo's one "line": the whole order, as the header invoice the DTD asks for. */
function headerOrderElement(input: InvoiceDetailRequestInput): XmlElementSpec {
  const { summary, currency } = input;
  return el(
    'InvoiceDetailHeaderOrder',
    {},
    orderInfoElement(input),
    el(
      'InvoiceDetailOrderSummary',
      { invoiceLineNumber: 1 },
      el('SubtotalAmount', {}, money(summary.subtotal, currency, 'summary.subtotal')),
      el('GrossAmount', {}, money(summary.gross, currency, 'summary.gross')),
      el('NetAmount', {}, money(summary.net, currency, 'summary.net')),
    ),
  );
}

/**
 * An InvoiceDetailRequest, element order as InvoiceDetail.dtd: InvoiceDetailRequestHeader
 * (indicators, InvoicePartner*, DocumentReference/InvoiceIDInfo of a credited invoice, PaymentTerm,
 * Comments), InvoiceDetailOrder (OrderReference, InvoiceDetailItem per line) or, for a credit memo,
 * InvoiceDetailHeaderOrder, and InvoiceDetailSummary.
 *
 * @example
 * buildInvoiceDetailRequest({
 *   payloadID, timestamp, header, invoiceID: 'INV-000001', purpose: 'standard', invoiceDate: now,
 *   currency: 'EUR', taxAt: 'header', paymentTermDays: 30,
 *   orderReference: { orderID: po.orderID, orderDate: po.orderDate.raw, orderPayloadID: po.payloadID },
 *   partners: [{ role: 'remitTo', name: 'PrintCo GmbH' }],
 *   ...invoiceFigures(...).figures, // lines and summary
 * });
 */
export function buildInvoiceDetailRequest(input: InvoiceDetailRequestInput): string {
  if (input.purpose !== 'standard' && input.purpose !== 'creditMemo') {
    throw new TypeError(`purpose "${String(input.purpose)}" is not standard or creditMemo`);
  }
  if (input.taxAt !== 'header' && input.taxAt !== 'line') {
    throw new TypeError(`taxAt "${String(input.taxAt)}" is not header or line`);
  }
  const creditMemo = input.purpose === 'creditMemo';
  if (creditMemo && input.originalInvoice === undefined) {
    throw new TypeError('A credit memo needs the originalInvoice it credits');
  }
  if (!creditMemo && input.lines.length === 0) {
    throw new TypeError('An invoice needs at least one line');
  }
  const numbers = input.lines.map((line) => line.invoiceLineNumber);
  if (new Set(numbers).size !== numbers.length) {
    throw new TypeError('lines[].invoiceLineNumber must be unique within the invoice');
  }
  if (
    input.paymentTermDays !== undefined &&
    (!Number.isSafeInteger(input.paymentTermDays) || input.paymentTermDays < 0)
  ) {
    throw new TypeError(`paymentTermDays must be a whole number from 0, got ${input.paymentTermDays}`);
  }
  checkMinorUnits(input);
  checkFigures(input);
  const lang = envelopeLang(input);
  const original = input.originalInvoice;
  const header = el(
    'InvoiceDetailRequestHeader',
    {
      invoiceID: requireText(input.invoiceID, 'invoiceID'),
      purpose: input.purpose,
      operation: 'new',
      invoiceDate: cxmlTimestampAttribute(input.invoiceDate, 'invoiceDate'),
    },
    el('InvoiceDetailHeaderIndicator', { isHeaderInvoice: creditMemo ? 'yes' : undefined }),
    el('InvoiceDetailLineIndicator', {
      isTaxInLine: !creditMemo && input.taxAt === 'line' ? 'yes' : undefined,
      isAccountingInLine: !creditMemo && input.accountingInLine === true ? 'yes' : undefined,
    }),
    (input.partners ?? []).map((partner, index) => partnerElement(partner, index, lang)),
    original?.payloadID !== undefined &&
      el('DocumentReference', {
        payloadID: requireText(original.payloadID, 'originalInvoice.payloadID'),
      }),
    original !== undefined &&
      el('InvoiceIDInfo', {
        invoiceID: requireText(original.invoiceID, 'originalInvoice.invoiceID'),
        invoiceDate: optionalTimestampAttribute(original.invoiceDate, 'originalInvoice.invoiceDate'),
      }),
    input.paymentTermDays !== undefined && el('PaymentTerm', { payInNumberOfDays: input.paymentTermDays }),
    commentsElement(input.comments, lang),
  );
  const request = el(
    'InvoiceDetailRequest',
    {},
    header,
    creditMemo
      ? headerOrderElement(input)
      : el(
          'InvoiceDetailOrder',
          {},
          orderInfoElement(input),
          input.lines.map((line, index) => lineElement(line, index, input, lang)),
        ),
    summaryElement(input, lang),
  );
  return buildCxmlDocument(input, 'InvoiceDetail', [
    headerElement(input.header, true),
    requestElement(input.deploymentMode, request),
  ]);
}
