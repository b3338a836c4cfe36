/**
 * What a compliant invoice states beside its figures (EU VAT, Coupa's compliant invoicing), with no I/O:
 * the supplier's tax ids and the remit-to code on the invoice's partners, the buyer's VAT id as the PO
 * named it, the tax category, rate, tax point and exemption of every Tax, and the PO lines' accounting.
 *
 * A storefront says it once (`storefronts[].invoicing`); a buyer's `invoices` replaces the supplier's tax
 * ids as a whole and the tax treatment field by field. Nothing is written that is not configured (or, for
 * the buyer's VAT id, sent on the PO): an invoice without compliance settings is the invoice it was.
 *
 * The amounts stay `invoiceFigures`' except where the treatment changes what is billed: an exempt supply
 * bills no tax, and a configured rate is the one the tax is worked out from, per line to the currency's
 * decimals (in the header, the shipping's too), so each TaxDetail's rate × taxable amount is its tax
 * amount, as VAT law and the buyer's check want (the print order's own rate is a quotient of its rounded
 * totals).
 */
import type {
  InvoiceConfig,
  InvoiceTaxTreatment,
  StorefrontInvoicing,
  SupplierTaxIds,
} from '../../../schemas/config.ts';
import type { Shipment } from '../../../schemas/print-api.ts';
import type {
  Distribution,
  InvoiceDistributionInput,
  InvoiceIdReferenceInput,
  InvoiceLineInput,
  InvoicePartnerInput,
  InvoiceTaxInput,
} from '../../cxml/index.ts';
import {
  addDecimals,
  compareDecimals,
  type Decimal,
  divideDecimals,
  formatDecimal,
  multiplyDecimals,
  parseDecimal,
} from '../../kernel/decimal.ts';
import { formatMoney, minorUnits } from '../../kernel/money.ts';
import type { PoLine } from '../orders/po-record.ts';
import type { InvoiceFigures, InvoiceFiguresResult, InvoiceScope } from './invoice-figures.ts';

/** A buyer's invoices' compliance settings, the storefront's filled in. */
export interface InvoiceCompliance {
  readonly supplierTaxIds?: SupplierTaxIds;
  readonly tax: InvoiceTaxTreatment;
  readonly remitToAddressID?: string;
  readonly accountingInLine: boolean;
}

/** The storefront's `invoicing` with the buyer's `invoices` over it. */
export function invoiceCompliance(
  storefront: StorefrontInvoicing | undefined,
  invoices: Pick<InvoiceConfig, 'supplierTaxIds' | 'tax' | 'remitToAddressID' | 'accountingInLine'>,
): InvoiceCompliance {
  const supplierTaxIds = invoices.supplierTaxIds ?? storefront?.supplierTaxIds;
  return {
    ...(supplierTaxIds !== undefined && { supplierTaxIds }),
    tax: { ...storefront?.tax, ...invoices.tax },
    ...(invoices.remitToAddressID !== undefined && { remitToAddressID: invoices.remitToAddressID }),
    accountingInLine: invoices.accountingInLine,
  };
}

const lenient = { barePoint: true, exponent: true, signed: true } as const;
const HUNDRED: Decimal = { units: 100n, scale: 0 };
const ZERO: Decimal = { units: 0n, scale: 0 };

const TAX_NAMES: Readonly<Record<string, string>> = { vat: 'VAT', gst: 'GST' };

/** A Tax labelled as the treatment says: its category, description and (exempt) why it bills nothing. */
function labelled(tax: InvoiceTaxInput, treatment: InvoiceTaxTreatment): InvoiceTaxInput {
  const { category, exempt } = treatment;
  const name = category === undefined ? undefined : TAX_NAMES[category];
  return {
    ...tax,
    ...(category !== undefined && { category }),
    ...(name !== undefined && tax.description === undefined && { description: name }),
    ...(exempt !== undefined && {
      exemption: {
        detail: exempt.detail,
        reason: exempt.reason,
        ...(exempt.code !== undefined && { code: exempt.code }),
      },
    }),
  };
}

/**
 * The figures with their taxes stated as `treatment` says, or the hold when its tax leaves the invoice
 * below zero (an exemption under a promotion larger than the goods). A hold stays the hold it was.
 */
export function treatTax(result: InvoiceFiguresResult, treatment: InvoiceTaxTreatment): InvoiceFiguresResult {
  if (!result.ok) return result;
  const { figures } = result;
  const decimals = minorUnits(figures.currency);
  const money = (value: Decimal) => formatMoney(value, figures.currency);
  const rate = treatment.exempt !== undefined ? ZERO : parseOptional(treatment.percent);
  const percentageRate = rate === undefined ? undefined : formatDecimal(rate);
  const taxOn = (taxable: string, tax: InvoiceTaxInput | undefined): InvoiceTaxInput => {
    const base: InvoiceTaxInput = tax ?? { amount: money(ZERO) };
    if (rate === undefined) return labelled(base, treatment);
    const amount = divideDecimals(multiplyDecimals(parseDecimal(taxable, lenient), rate), HUNDRED, decimals);
    return labelled(
      { ...base, amount: money(amount), taxableAmount: taxable, percentageRate: percentageRate ?? '0' },
      treatment,
    );
  };
  const lines: InvoiceLineInput[] = figures.lines.map((line) =>
    figures.taxAt === 'line' ? { ...line, tax: taxOn(line.subtotal, line.tax) } : line,
  );
  const { summary } = figures;
  const { shippingTax: _restated, ...linesSummaryTax } = summary.tax;
  const tax =
    figures.taxAt === 'line' && rate !== undefined
      ? withShippingTax(
          labelled(
            {
              ...linesSummaryTax,
              amount: money(addDecimals(lines.map((line) => parseDecimal(line.tax?.amount ?? '0', lenient)))),
              taxableAmount: summary.subtotal,
              percentageRate: percentageRate ?? '0',
            },
            treatment,
          ),
          // The PO taxed the shipping (its Tax holds the shipping's): so does the restated rate.
          summary.tax.shippingTax === undefined ? undefined : summary.shipping,
          rate,
          money,
          decimals,
        )
      : withShippingTax(
          // A stated rate restates the shipping's tax too (or, exempt, drops it).
          taxOn(summary.subtotal, rate === undefined ? summary.tax : linesSummaryTax),
          summary.shipping,
          rate,
          money,
          decimals,
        );
  const gross = addDecimals(
    [summary.subtotal, tax.amount, summary.shipping ?? '0'].map((value) => parseDecimal(value, lenient)),
  );
  const discount = parseDecimal(summary.discount ?? '0', lenient);
  const net = addDecimals([gross, { units: -discount.units, scale: discount.scale }]);
  if (compareDecimals(net, ZERO) < 0) {
    const message = `The promotion of ${summary.discount} exceeds what the invoice bills without tax (${money(gross)}).`;
    return { ok: false, holds: [{ reason: 'discount_exceeds_total', message }], message };
  }
  const treated: InvoiceFigures = {
    ...figures,
    lines,
    summary: { ...summary, tax, gross: money(gross), net: money(net), due: money(net) },
  };
  return { ok: true, figures: treated };
}

/**
 * The figures' taxes labelled as `treatment` says (category, exemption), their amounts untouched: for a
 * credit memo, which takes back exactly what its invoice billed.
 */
export function labelTaxes(figures: InvoiceFigures, treatment: InvoiceTaxTreatment): InvoiceFigures {
  return {
    ...figures,
    lines: figures.lines.map((line) =>
      line.tax === undefined ? line : { ...line, tax: labelled(line.tax, treatment) },
    ),
    summary: { ...figures.summary, tax: labelled(figures.summary.tax, treatment) },
  };
}

/**
 * The header's Tax with the tax on shipping at the stated rate, as a TaxDetail of its own: with the tax in
 * the header, the summary's Tax is its details' sum and may hold it. (With the tax on the lines a buyer
 * reads the summary's Tax as the lines' sum, so shipping is taxed there only where the PO's Tax held the
 * shipping's, as a cart with `charges.tax.onShipping` quotes it.)
 */
function withShippingTax(
  tax: InvoiceTaxInput,
  shipping: string | undefined,
  rate: Decimal | undefined,
  money: (value: Decimal) => string,
  decimals: number,
): InvoiceTaxInput {
  if (rate === undefined || rate.units === 0n || shipping === undefined) return tax;
  const taxable = parseDecimal(shipping, lenient);
  if (taxable.units === 0n) return tax;
  const shippingTax = divideDecimals(multiplyDecimals(taxable, rate), HUNDRED, decimals);
  return {
    ...tax,
    amount: money(addDecimals([parseDecimal(tax.amount, lenient), shippingTax])),
    shippingTax: { taxableAmount: shipping, amount: money(shippingTax) },
  };
}

function parseOptional(percent: string | undefined): Decimal | undefined {
  return percent === undefined ? undefined : parseDecimal(percent);
}

/** A print-service date-time as an instant; one written without a zone is UTC, as the service keeps time. */
function instantOf(value: string): Date | undefined {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const date = new Date(zoned);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * The tax point an invoice states: its own date, or the day what it bills shipped (the shipment's, or
 * for a whole print order its last shipment's), else its date; undefined when none is configured.
 */
export function taxPointDate(
  treatment: InvoiceTaxTreatment,
  invoiceDate: Date,
  order: { readonly shipments: readonly Pick<Shipment, 'index' | 'shipped_on'>[] },
  scope: InvoiceScope,
): Date | undefined {
  if (treatment.taxPointDate === undefined) return undefined;
  if (treatment.taxPointDate === 'invoice-date') return invoiceDate;
  const shipments =
    scope.per === 'shipment'
      ? order.shipments.filter((s) => s.index === scope.shipmentIndex)
      : order.shipments;
  const shipped = shipments
    .map((s) => (s.shipped_on === null ? undefined : instantOf(s.shipped_on)))
    .filter((date): date is Date => date !== undefined);
  if (shipped.length === 0) return invoiceDate;
  return new Date(Math.max(...shipped.map((date) => date.getTime())));
}

/** The figures' taxes with their tax point; the same figures without one. */
export function withTaxPoint(figures: InvoiceFigures, date: Date | undefined): InvoiceFigures {
  if (date === undefined) return figures;
  const stamp = (tax: InvoiceTaxInput): InvoiceTaxInput => ({ ...tax, taxPointDate: date });
  return {
    ...figures,
    lines: figures.lines.map((line) => (line.tax === undefined ? line : { ...line, tax: stamp(line.tax) })),
    summary: { ...figures.summary, tax: stamp(figures.summary.tax) },
  };
}

/**
 * Each invoice line with the accounting of its PO line, for `accountingInLine`. A Distribution's Charge is
 * the PO's where it is in the invoice's currency; one without (or in another) is charged the line's
 * subtotal when it is the line's only one, and left out otherwise, since the split is not ours to guess.
 * A Distribution without segments cannot be written (Accounting needs one) and is left out too.
 */
export function withDistribution(
  lines: readonly InvoiceLineInput[],
  poLines: readonly Pick<PoLine, 'lineNumber' | 'distribution'>[],
  currency: string,
): InvoiceLineInput[] {
  return lines.map((line) => {
    const sent = poLines.find((po) => po.lineNumber === line.lineNumber)?.distribution ?? [];
    const distribution = sent
      .map((d) => distributionOf(d, sent.length === 1 ? line.subtotal : undefined, currency))
      .filter((d): d is InvoiceDistributionInput => d !== undefined);
    return distribution.length === 0 ? line : { ...line, distribution };
  });
}

function distributionOf(
  distribution: Distribution,
  whole: string | undefined,
  currency: string,
): InvoiceDistributionInput | undefined {
  const charge = distribution.charge?.currency === currency ? distribution.charge.value : whole;
  if (charge === undefined || distribution.segments.length === 0) return undefined;
  const segments = distribution.segments
    .filter((segment) => segment.id !== '')
    .map(({ id, name, description }) => ({ id, name, description }));
  if (segments.length === 0) return undefined;
  return { accountingName: distribution.accountingName || 'DistributionCharge', segments, charge };
}

/** What the partners need beside `invoicePartners`' remit-to and bill-to. */
export interface PartyFacts {
  readonly compliance: InvoiceCompliance;
  /** Who the supplier is on the invoice: the storefront's vendor name. */
  readonly supplierName: string;
  /** The buyer's VAT id from the PO, if it named one. */
  readonly buyerVatID?: string;
  /** The buyer's name, for a soldTo partner when the PO has a VAT id but no BillTo to carry it. */
  readonly buyerName: string;
}

/**
 * The invoice's partners with their ids: the remit-to code and Coupa's `taxPrefix`/`taxNumber` on the
 * remit-to partner (where Coupa reads them), the supplier's VAT id and other ids on a `from` partner
 * (where SAP Ariba and the DTD put the invoicing supplier), the buyer's VAT id on the bill-to partner (a
 * `soldTo` one when the PO had no BillTo). A partner is added only to carry an id.
 */
export function compliantPartners(
  partners: readonly InvoicePartnerInput[],
  facts: PartyFacts,
): InvoicePartnerInput[] {
  const ids = facts.compliance.supplierTaxIds;
  const { remitToAddressID } = facts.compliance;
  const coupaIds: InvoiceIdReferenceInput[] =
    ids?.taxPrefix !== undefined && ids.taxNumber !== undefined
      ? [
          { domain: 'taxPrefix', identifier: ids.taxPrefix },
          { domain: 'taxNumber', identifier: ids.taxNumber },
        ]
      : [];
  const supplierIds: InvoiceIdReferenceInput[] = [
    ...(ids?.vatId === undefined ? [] : [{ domain: 'vatID', identifier: ids.vatId }]),
    ...(ids?.otherIds ?? []),
  ];
  const buyerIds = facts.buyerVatID === undefined ? [] : [{ domain: 'vatID', identifier: facts.buyerVatID }];
  const result = partners.map((partner): InvoicePartnerInput => {
    if (partner.role === 'remitTo') {
      return {
        ...partner,
        ...(remitToAddressID !== undefined && { addressID: remitToAddressID }),
        ...(coupaIds.length > 0 && { idReferences: coupaIds }),
      };
    }
    if (partner.role === 'billTo' && buyerIds.length > 0) return { ...partner, idReferences: buyerIds };
    return partner;
  });
  if (!result.some((p) => p.role === 'remitTo') && (remitToAddressID !== undefined || coupaIds.length > 0)) {
    result.unshift({
      role: 'remitTo',
      name: facts.supplierName,
      ...(remitToAddressID !== undefined && { addressID: remitToAddressID }),
      ...(coupaIds.length > 0 && { idReferences: coupaIds }),
    });
  }
  if (supplierIds.length > 0) {
    const remitTo = partners.find((p) => p.role === 'remitTo');
    result.unshift({
      role: 'from',
      name: facts.supplierName,
      ...(remitTo?.address !== undefined && { address: remitTo.address }),
      idReferences: supplierIds,
    });
  }
  if (buyerIds.length > 0 && !result.some((p) => p.role === 'billTo')) {
    result.push({ role: 'soldTo', name: facts.buyerName, idReferences: buyerIds });
  }
  return result;
}
