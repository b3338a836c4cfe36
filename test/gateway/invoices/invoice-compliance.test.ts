/**
 * Compliant invoices, pure: the figures `invoiceFigures` makes, stated as a storefront's and a buyer's
 * compliance settings say (`invoice-compliance.ts`), built into an InvoiceDetailRequest. Every combination
 * of tax category, taxAt, exemption, the supplier's tax ids, the remit-to code, the buyer's VAT id and
 * accounting in line is valid against InvoiceDetail.dtd, and says what a buyer's system reads: each line's
 * rate × taxable amount is its tax, the header's tax their sum, the ids where Coupa and SAP Ariba read them,
 * and nothing that was not configured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceTaxTreatment, SupplierTaxIds } from '../../../schemas/config.ts';
import {
  buildInvoiceDetailRequest,
  type CxmlHeader,
  type InvoiceDetailRequestInput,
  type InvoicePartnerInput,
} from '../../../src/cxml/index.ts';
import { attr, child, children, descend, text, type XmlNode } from '../../../src/cxml/xml-node.ts';
import { parseXmlTree } from '../../../src/cxml/xml-tree.ts';
import {
  compliantPartners,
  invoiceCompliance,
  labelTaxes,
  taxPointDate,
  treatTax,
  withDistribution,
  withTaxPoint,
} from '../../../src/gateway/invoices/invoice-compliance.ts';
import type { InvoiceFigures } from '../../../src/gateway/invoices/invoice-figures.ts';
import { addDecimals, parseDecimal } from '../../../src/kernel/decimal.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const header: CxmlHeader = {
  from: [{ domain: 'NetworkID', identity: 'AN02000000002' }],
  to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
  sender: {
    credentials: [{ domain: 'NetworkID', identity: 'AN02000000002', sharedSecret: 'punchgate-secret' }],
    userAgent: 'punchgate 0.1',
  },
};

type InvoiceLineOf = InvoiceFigures['lines'][number];

const INVOICE_DATE = new Date('2026-11-25T10:00:00Z');

/**
 * As `invoiceFigures` makes them for two PO lines (500 cards at 0.118, 2 packs of flyers at 40.00) from a
 * print order charging 8.5 % tax, 9.90 shipping and a 5.00 promotion.
 */
function figures(taxAt: 'line' | 'header'): InvoiceFigures {
  const rate = '8.5';
  return {
    currency: 'EUR',
    taxAt,
    lines: [
      {
        invoiceLineNumber: 1,
        lineNumber: 1,
        quantity: '500',
        unitOfMeasure: 'EA',
        unitPrice: '0.118',
        supplierPartID: 'BC-STD',
        description: 'Business cards',
        subtotal: '59.00',
        ...(taxAt === 'line' && { tax: { amount: '5.02', taxableAmount: '59.00', percentageRate: rate } }),
      },
      {
        invoiceLineNumber: 2,
        lineNumber: 3,
        quantity: '2',
        unitOfMeasure: 'PK',
        unitPrice: '40.00',
        supplierPartID: 'FLY-A5',
        subtotal: '80.00',
        ...(taxAt === 'line' && { tax: { amount: '6.80', taxableAmount: '80.00', percentageRate: rate } }),
      },
    ],
    summary: {
      subtotal: '139.00',
      tax: { amount: '11.82', taxableAmount: '139.00', percentageRate: rate },
      shipping: '9.90',
      discount: '5.00',
      gross: '160.72',
      net: '155.72',
      due: '155.72',
    },
    deviations: [],
    taxSource: 'print-order',
    shippingSource: 'print-order',
  };
}

/** The PO lines' accounting: line 1 split over two cost centres, line 3 one GL account without a Charge. */
const poLines = [
  {
    lineNumber: 1,
    distribution: [
      {
        accountingName: 'DistributionCharge',
        segments: [{ id: '4410', name: 'Cost Center', description: 'Marketing' }],
        charge: { value: '39.00', currency: 'EUR' },
      },
      {
        accountingName: 'DistributionCharge',
        segments: [{ id: '4420', name: 'Cost Center', description: 'Sales' }],
        charge: { value: '20.00', currency: 'EUR' },
      },
    ],
  },
  {
    lineNumber: 3,
    distribution: [
      { accountingName: '', segments: [{ id: '600100', name: 'GL Account', description: 'Printing' }] },
    ],
  },
];

/** The remit-to and bill-to partners `invoicePartners` makes from a remitTo config and the PO's BillTo. */
const basePartners: InvoicePartnerInput[] = [
  {
    role: 'remitTo',
    name: 'PrintCo GmbH',
    address: { street: ['Hauptstraße 1'], city: 'Berlin', postalCode: '10115', isoCountryCode: 'DE' },
  },
  { role: 'billTo', name: 'ACME SAS Comptabilité', addressID: '0002', address: { street: [] } },
];

const SUPPLIER_IDS: SupplierTaxIds = {
  vatId: 'DE811907980',
  taxPrefix: 'DE',
  taxNumber: '811907980',
  otherIds: [{ domain: 'companyRegistrationNumber', identifier: 'HRB 12345' }],
};
const REMIT_CODE = 'RT-4711';
const BUYER_VAT = 'FR40303265045';
const EXEMPT = {
  detail: 'exempt' as const,
  reason: 'Reverse charge: Article 196 Council Directive 2006/112/EC',
  code: 'VATEX-EU-AE',
};
const RATES = { vat: '19', gst: '10', sales: undefined } as const;

interface Case {
  category: 'vat' | 'gst' | 'sales';
  taxAt: 'line' | 'header';
  exempt: boolean;
  supplierIds: boolean;
  remitCode: boolean;
  buyerVat: boolean;
  accounting: boolean;
}

function allCases(): Case[] {
  const cases: Case[] = [];
  const both = [true, false];
  for (const category of ['vat', 'gst', 'sales'] as const) {
    for (const taxAt of ['line', 'header'] as const) {
      for (const exempt of both) {
        for (const supplierIds of both) {
          for (const remitCode of both) {
            for (const buyerVat of both) {
              for (const accounting of both) {
                cases.push({ category, taxAt, exempt, supplierIds, remitCode, buyerVat, accounting });
              }
            }
          }
        }
      }
    }
  }
  return cases;
}

/** The document the gateway would send for `c`: the storefront says VAT and the ids, the buyer the rest. */
function build(c: Case): string {
  const rate = RATES[c.category];
  const storefrontTax: InvoiceTaxTreatment = {
    category: c.category,
    ...(rate !== undefined && { percent: rate }),
    // VAT invoices state their tax point; the others leave it out.
    ...(c.category === 'vat' && { taxPointDate: 'invoice-date' as const }),
  };
  const compliance = invoiceCompliance(
    { ...(c.supplierIds && { supplierTaxIds: SUPPLIER_IDS }), tax: storefrontTax },
    {
      accountingInLine: c.accounting,
      ...(c.remitCode && { remitToAddressID: REMIT_CODE }),
      ...(c.exempt && { tax: { exempt: EXEMPT } }),
    },
  );
  const treated = treatTax({ ok: true, figures: figures(c.taxAt) }, compliance.tax);
  if (!treated.ok) throw new Error(treated.message);
  const stated = withTaxPoint(
    treated.figures,
    taxPointDate(compliance.tax, INVOICE_DATE, { shipments: [] }, { per: 'order' }),
  );
  const input: InvoiceDetailRequestInput = {
    payloadID: '1764064800000.inv@punchgate.example',
    timestamp: INVOICE_DATE,
    header,
    invoiceID: 'INV-000007',
    purpose: 'standard',
    invoiceDate: INVOICE_DATE,
    currency: stated.currency,
    orderReference: { orderID: '4500777002', orderPayloadID: '1714900000001.5551213@ariba.example' },
    supplierOrderID: '100042',
    partners: compliantPartners(basePartners, {
      compliance,
      supplierName: 'PrintCo GmbH',
      ...(c.buyerVat && { buyerVatID: BUYER_VAT }),
      buyerName: 'ACME SAS',
    }),
    paymentTermDays: 30,
    taxAt: stated.taxAt,
    ...(compliance.accountingInLine && { accountingInLine: true }),
    lines: compliance.accountingInLine ? withDistribution(stated.lines, poLines, 'EUR') : stated.lines,
    summary: stated.summary,
  };
  return buildInvoiceDetailRequest(input);
}

function request(xml: string): XmlNode | undefined {
  return descend(parseXmlTree(xml), 'cXML', 'Request', 'InvoiceDetailRequest');
}

const amountOf = (node: XmlNode | undefined): string => text(child(node, 'Money'));
const dec = (value: string) => parseDecimal(value, { signed: true });

/** rate × taxable, rounded half up to the cent, as text. */
function taxAt(rate: string, taxable: string): string {
  const exact = dec(taxable).units * dec(rate).units;
  const scale = dec(taxable).scale + dec(rate).scale + 2; // percent
  const divisor = 10n ** BigInt(scale - 2);
  const cents = (exact * 2n + divisor) / (2n * divisor);
  return (Number(cents) / 100).toFixed(2);
}

function partnerOf(root: XmlNode | undefined, role: string): XmlNode | undefined {
  const headerNode = child(root, 'InvoiceDetailRequestHeader');
  return children(headerNode, 'InvoicePartner').find((p) => attr(child(p, 'Contact'), 'role') === role);
}

const idsOf = (partner: XmlNode | undefined) =>
  children(partner, 'IdReference').map((id) => [attr(id, 'domain'), attr(id, 'identifier')]);

const name = (c: Case) =>
  `${c.category} tax at ${c.taxAt}${c.exempt ? ', exempt' : ''}${c.supplierIds ? ', supplier ids' : ''}${c.remitCode ? ', remit-to code' : ''}${c.buyerVat ? ', buyer VAT id' : ''}${c.accounting ? ', accounting in line' : ''}`;

describe('compliant invoices in every combination', () => {
  it.each(allCases().map((c) => [name(c), c] as const))('%s: DTD-valid and says what it must', (_, c) => {
    const xml = build(c);
    const verdict = validateAgainstDtd(xml, 'InvoiceDetail');
    expect(verdict.messages).toBe('');
    expect(verdict.ok).toBe(true);

    const root = request(xml);
    const headerNode = child(root, 'InvoiceDetailRequestHeader');
    const items = children(child(root, 'InvoiceDetailOrder'), 'InvoiceDetailItem');
    const summary = child(root, 'InvoiceDetailSummary');
    const lineTaxes = items.map((item) => child(item, 'Tax')).filter((tax) => tax !== undefined);
    const taxes = [...lineTaxes, child(summary, 'Tax')];
    const details = taxes.flatMap((tax) => children(tax, 'TaxDetail'));

    // Tax: the category everywhere; per line rate × taxable = tax; the header's tax the lines' sum.
    expect(lineTaxes).toHaveLength(c.taxAt === 'line' ? 2 : 0);
    expect(attr(child(headerNode, 'InvoiceDetailLineIndicator'), 'isTaxInLine')).toBe(
      c.taxAt === 'line' ? 'yes' : undefined,
    );
    for (const detail of details) {
      expect(attr(detail, 'category')).toBe(c.category);
      const rate = attr(detail, 'percentageRate') ?? '';
      const taxable = amountOf(child(detail, 'TaxableAmount'));
      const amount = amountOf(child(detail, 'TaxAmount'));
      if (c.exempt) {
        expect([rate, amount, attr(detail, 'exemptDetail')]).toEqual(['0', '0.00', 'exempt']);
        expect(text(child(detail, 'Description'))).toBe(EXEMPT.reason);
        const exemption = child(detail, 'TaxExemption');
        expect(attr(exemption, 'exemptCode')).toBe(EXEMPT.code);
        expect(text(child(exemption, 'ExemptReason'))).toBe(EXEMPT.reason);
      } else {
        expect(attr(detail, 'exemptDetail')).toBeUndefined();
        expect(child(detail, 'TaxExemption')).toBeUndefined();
        expect(child(detail, 'Description')).toBeUndefined();
        expect(amount).toBe(taxAt(rate, taxable));
        expect(rate).toBe(RATES[c.category] ?? '8.5');
      }
      expect(attr(detail, 'taxPointDate')).toBe(
        c.category === 'vat' ? '2026-11-25T10:00:00+00:00' : undefined,
      );
    }
    const summaryTax = amountOf(child(summary, 'Tax'));
    // Each Tax is its TaxDetails' sum; with the tax in the header at a stated rate, shipping is taxed too.
    for (const tax of taxes) {
      const parts = children(tax, 'TaxDetail').map((detail) => dec(amountOf(child(detail, 'TaxAmount'))));
      expect(dec(amountOf(tax))).toEqual(addDecimals(parts));
    }
    const shippingTaxed = c.taxAt === 'header' && !c.exempt && RATES[c.category] !== undefined;
    expect(
      children(child(summary, 'Tax'), 'TaxDetail').map((detail) => [
        attr(detail, 'purpose'),
        amountOf(child(detail, 'TaxableAmount')),
      ]),
    ).toEqual([['tax', '139.00'], ...(shippingTaxed ? [['shippingTax', '9.90']] : [])]);
    if (c.taxAt === 'line') {
      expect(dec(summaryTax)).toEqual(addDecimals(lineTaxes.map((tax) => dec(amountOf(tax)))));
    }
    expect(text(child(child(summary, 'Tax'), 'Description'))).toBe(
      { vat: 'VAT', gst: 'GST', sales: 'Tax' }[c.category],
    );
    // The summary adds up: gross = subtotal + tax + shipping, due = gross − the promotion.
    const gross = addDecimals([dec('139.00'), dec(summaryTax), dec('9.90')]);
    expect(dec(amountOf(child(summary, 'GrossAmount')))).toEqual(gross);
    expect(dec(amountOf(child(summary, 'DueAmount')))).toEqual(addDecimals([gross, dec('-5.00')]));

    // The supplier's ids: VAT id and others on a `from` partner, Coupa's pair on the remit-to partner.
    const from = partnerOf(root, 'from');
    const remitTo = partnerOf(root, 'remitTo');
    if (c.supplierIds) {
      expect(text(descend(from, 'Contact', 'Name'))).toBe('PrintCo GmbH');
      expect(idsOf(from)).toEqual([
        ['vatID', 'DE811907980'],
        ['companyRegistrationNumber', 'HRB 12345'],
      ]);
      expect(idsOf(remitTo)).toEqual([
        ['taxPrefix', 'DE'],
        ['taxNumber', '811907980'],
      ]);
    } else {
      expect(from).toBeUndefined();
      expect(idsOf(remitTo)).toEqual([]);
    }
    expect(attr(child(remitTo, 'Contact'), 'addressID')).toBe(c.remitCode ? REMIT_CODE : undefined);

    // The buyer's VAT id, echoed from the PO on the bill-to partner; none when the PO had none.
    const billTo = partnerOf(root, 'billTo');
    expect(attr(child(billTo, 'Contact'), 'addressID')).toBe('0002');
    expect(idsOf(billTo)).toEqual(c.buyerVat ? [['vatID', BUYER_VAT]] : []);
    expect(partnerOf(root, 'soldTo')).toBeUndefined();

    // Accounting in line: the PO lines' Distribution and the indicator, or neither.
    expect(attr(child(headerNode, 'InvoiceDetailLineIndicator'), 'isAccountingInLine')).toBe(
      c.accounting ? 'yes' : undefined,
    );
    const distributions = items.map((item) =>
      children(item, 'Distribution').map((d) => [
        attr(child(d, 'Accounting'), 'name'),
        attr(descend(d, 'Accounting', 'AccountingSegment'), 'id'),
        amountOf(child(d, 'Charge')),
      ]),
    );
    expect(distributions).toEqual(
      c.accounting
        ? [
            [
              ['DistributionCharge', '4410', '39.00'],
              ['DistributionCharge', '4420', '20.00'],
            ],
            // One Distribution without a Charge is charged the line's subtotal.
            [['DistributionCharge', '600100', '80.00']],
          ]
        : [[], []],
    );
  });
});

describe('stating the tax', () => {
  it('a configured rate restates the tax per line from it, and the amounts follow', () => {
    const result = treatTax({ ok: true, figures: figures('line') }, { category: 'vat', percent: '19' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { lines, summary } = result.figures;
    // 59.00 × 19 % = 11.21, 80.00 × 19 % = 15.20; their sum 26.41, not 139.00 × 19 % rounded once.
    expect(lines.map((line) => [line.tax?.amount, line.tax?.percentageRate, line.tax?.category])).toEqual([
      ['11.21', '19', 'vat'],
      ['15.20', '19', 'vat'],
    ]);
    expect([summary.tax.amount, summary.gross, summary.net, summary.due]).toEqual([
      '26.41',
      '175.31',
      '170.31',
      '170.31',
    ]);
  });

  it('with the tax in the header, a configured rate taxes the shipping in a TaxDetail of its own', () => {
    const result = treatTax({ ok: true, figures: figures('header') }, { category: 'vat', percent: '19' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { summary } = result.figures;
    // 139.00 × 19 % = 26.41 on the goods, 9.90 × 19 % = 1.88 on the shipping.
    expect(summary.tax).toEqual({
      amount: '28.29',
      taxableAmount: '139.00',
      percentageRate: '19',
      category: 'vat',
      description: 'VAT',
      shippingTax: { taxableAmount: '9.90', amount: '1.88' },
    });
    expect([summary.gross, summary.due]).toEqual(['177.19', '172.19']);
  });

  it('without a configured rate the print order’s amounts stay, only labelled', () => {
    const result = treatTax({ ok: true, figures: figures('header') }, { category: 'gst' });
    expect(result.ok && result.figures.summary).toEqual({
      ...figures('header').summary,
      tax: {
        amount: '11.82',
        taxableAmount: '139.00',
        percentageRate: '8.5',
        category: 'gst',
        description: 'GST',
      },
    });
  });

  it('no treatment leaves the figures as they were (the invoice before compliance settings)', () => {
    const result = treatTax({ ok: true, figures: figures('line') }, {});
    expect(result).toEqual({ ok: true, figures: figures('line') });
  });

  it('an exemption under a promotion larger than the goods holds the invoice with the figures', () => {
    const base = figures('header');
    const small = { ...base, summary: { ...base.summary, shipping: '0.00', discount: '150.00' } };
    expect(treatTax({ ok: true, figures: small }, { exempt: EXEMPT })).toEqual({
      ok: false,
      holds: [
        {
          reason: 'discount_exceeds_total',
          message: 'The promotion of 150.00 exceeds what the invoice bills without tax (139.00).',
        },
      ],
      message: 'The promotion of 150.00 exceeds what the invoice bills without tax (139.00).',
    });
  });

  it('a JPY invoice states whole yen from the currency, never from how an amount happens to be written', () => {
    // As `invoiceFigures` makes them in JPY: 500 cards at 11.8 yen (5900), a poster at 1234; 8 % tax,
    // 990 shipping. The print order's amounts carry no decimals; the stated ones must not gain any.
    const jpy = (taxAt: 'line' | 'header'): InvoiceFigures => {
      const base = figures(taxAt);
      const lineTax = (amount: string, taxable: string) =>
        taxAt === 'line' ? { tax: { amount, taxableAmount: taxable, percentageRate: '8' } } : {};
      const [cards, flyers] = base.lines;
      return {
        ...base,
        currency: 'JPY',
        lines: [
          { ...cards, unitPrice: '11.8', subtotal: '5900', ...lineTax('472', '5900') } as InvoiceLineOf,
          {
            ...flyers,
            quantity: '1',
            unitPrice: '1234',
            subtotal: '1234',
            ...lineTax('99', '1234'),
          } as InvoiceLineOf,
        ],
        summary: {
          subtotal: '7134',
          tax: { amount: '571', taxableAmount: '7134', percentageRate: '8' },
          shipping: '990',
          gross: '8695',
          net: '8695',
          due: '8695',
        },
      };
    };
    const line = treatTax({ ok: true, figures: jpy('line') }, { category: 'vat', percent: '10' });
    if (!line.ok) throw new Error(line.message);
    // 5900 × 10 % = 590, 1234 × 10 % = 123.4 → 123; the header their sum; due 7134 + 713 + 990.
    expect(line.figures.lines.map((l) => l.tax?.amount)).toEqual(['590', '123']);
    expect([line.figures.summary.tax.amount, line.figures.summary.due]).toEqual(['713', '8837']);
    const inHeader = treatTax({ ok: true, figures: jpy('header') }, { category: 'vat', percent: '10' });
    if (!inHeader.ok) throw new Error(inHeader.message);
    // 7134 × 10 % = 713.4 → 713 on the goods, 990 × 10 % = 99 on the shipping.
    expect(inHeader.figures.summary.tax).toMatchObject({
      amount: '812',
      shippingTax: { taxableAmount: '990', amount: '99' },
    });
    expect([inHeader.figures.summary.gross, inHeader.figures.summary.due]).toEqual(['8936', '8936']);
    for (const treated of [line.figures, inHeader.figures]) {
      const xml = buildInvoiceDetailRequest({
        payloadID: '1764064800000.jpy@punchgate.example',
        timestamp: INVOICE_DATE,
        header,
        invoiceID: 'INV-000008',
        purpose: 'standard',
        invoiceDate: INVOICE_DATE,
        currency: 'JPY',
        orderReference: { orderID: '4500777003', orderPayloadID: '1714900000002.5551213@ariba.example' },
        supplierOrderID: '100043',
        partners: basePartners,
        paymentTermDays: 30,
        taxAt: treated.taxAt,
        lines: treated.lines,
        summary: treated.summary,
      });
      // A unit price may keep decimals (11.8 yen a card); no amount does.
      const amounts = xml.replace(/<UnitPrice>[\s\S]*?<\/UnitPrice>/g, '');
      expect(amounts).not.toMatch(/<Money currency="JPY">-?\d+\.\d*<\/Money>/);
      expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
    }
  });

  it('a credit memo is labelled, its amounts untouched', () => {
    const labelled = labelTaxes(figures('header'), { category: 'vat', percent: '19', exempt: EXEMPT });
    expect(labelled.summary.tax).toEqual({
      amount: '11.82',
      taxableAmount: '139.00',
      percentageRate: '8.5',
      category: 'vat',
      description: 'VAT',
      exemption: EXEMPT,
    });
  });

  it('a credit memo of a compliant invoice is DTD-valid, its Tax labelled, its partners carrying the ids', () => {
    const compliance = invoiceCompliance(
      { supplierTaxIds: SUPPLIER_IDS, tax: { category: 'vat', percent: '19' } },
      { accountingInLine: true, remitToAddressID: REMIT_CODE, tax: { exempt: EXEMPT } },
    );
    const credited = labelTaxes(
      {
        ...figures('header'),
        lines: [],
        summary: {
          subtotal: '-139.00',
          tax: { amount: '0.00', taxableAmount: '-139.00' },
          shipping: '-9.90',
          discount: '-5.00',
          gross: '-148.90',
          net: '-143.90',
          due: '-143.90',
        },
      },
      compliance.tax,
    );
    const xml = buildInvoiceDetailRequest({
      payloadID: '1764064800000.cm@punchgate.example',
      timestamp: INVOICE_DATE,
      header,
      invoiceID: 'INV-000007-CR',
      purpose: 'creditMemo',
      invoiceDate: INVOICE_DATE,
      currency: 'EUR',
      orderReference: { orderID: '4500777002', orderPayloadID: '1714900000001.5551213@ariba.example' },
      originalInvoice: { invoiceID: 'INV-000007', invoiceDate: INVOICE_DATE },
      partners: compliantPartners(basePartners, {
        compliance,
        supplierName: 'PrintCo GmbH',
        buyerVatID: BUYER_VAT,
        buyerName: 'ACME SAS',
      }),
      taxAt: credited.taxAt,
      accountingInLine: true,
      lines: credited.lines,
      summary: credited.summary,
    });
    expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
    const root = request(xml);
    // A header invoice has no lines to carry accounting: the indicator stays off.
    expect(
      attr(
        child(child(root, 'InvoiceDetailRequestHeader'), 'InvoiceDetailLineIndicator'),
        'isAccountingInLine',
      ),
    ).toBeUndefined();
    const detail = descend(root, 'InvoiceDetailSummary', 'Tax', 'TaxDetail');
    expect([
      attr(detail, 'category'),
      attr(detail, 'exemptDetail'),
      amountOf(child(detail, 'TaxAmount')),
    ]).toEqual(['vat', 'exempt', '0.00']);
    expect(idsOf(partnerOf(root, 'billTo'))).toEqual([['vatID', BUYER_VAT]]);
  });

  it('the tax point is the invoice date, or the day the invoiced shipment shipped', () => {
    const order = {
      shipments: [
        { index: 1, shipped_on: '2026-11-20T08:00:00' },
        { index: 2, shipped_on: '2026-11-23T16:30:00+01:00' },
        { index: 3, shipped_on: null },
      ],
    };
    const ship = { taxPointDate: 'ship-date' } as const;
    const shipment = (index: number) =>
      ({ per: 'shipment', shipmentIndex: index, withPromotion: false }) as const;
    expect(taxPointDate({}, INVOICE_DATE, order, { per: 'order' })).toBeUndefined();
    expect(taxPointDate({ taxPointDate: 'invoice-date' }, INVOICE_DATE, order, shipment(1))).toEqual(
      INVOICE_DATE,
    );
    expect(taxPointDate(ship, INVOICE_DATE, order, shipment(1))).toEqual(new Date('2026-11-20T08:00:00Z'));
    expect(taxPointDate(ship, INVOICE_DATE, order, { per: 'order' })).toEqual(
      new Date('2026-11-23T15:30:00Z'),
    );
    expect(taxPointDate(ship, INVOICE_DATE, order, shipment(3))).toEqual(INVOICE_DATE);
  });
});

describe('partners', () => {
  it('a buyer VAT id without a BillTo goes on a soldTo partner with the buyer’s name', () => {
    const partners = compliantPartners([], {
      compliance: invoiceCompliance(undefined, { accountingInLine: false }),
      supplierName: 'PrintCo GmbH',
      buyerVatID: BUYER_VAT,
      buyerName: 'ACME SAS',
    });
    expect(partners).toEqual([
      { role: 'soldTo', name: 'ACME SAS', idReferences: [{ domain: 'vatID', identifier: BUYER_VAT }] },
    ]);
  });

  it('a remit-to code or Coupa’s pair without a remitTo config makes a remit-to partner of the supplier', () => {
    const partners = compliantPartners([], {
      compliance: invoiceCompliance(
        { supplierTaxIds: { taxPrefix: 'DE', taxNumber: '811907980', otherIds: [] } },
        { accountingInLine: false, remitToAddressID: REMIT_CODE },
      ),
      supplierName: 'PrintCo GmbH',
      buyerName: 'ACME SAS',
    });
    expect(partners).toEqual([
      {
        role: 'remitTo',
        name: 'PrintCo GmbH',
        addressID: REMIT_CODE,
        idReferences: [
          { domain: 'taxPrefix', identifier: 'DE' },
          { domain: 'taxNumber', identifier: '811907980' },
        ],
      },
    ]);
  });

  it('the buyer’s supplierTaxIds replace the storefront’s; its tax fields replace the storefront’s one by one', () => {
    const compliance = invoiceCompliance(
      { supplierTaxIds: SUPPLIER_IDS, tax: { category: 'vat', percent: '19', taxPointDate: 'ship-date' } },
      {
        accountingInLine: false,
        supplierTaxIds: { vatId: 'ATU12345678', otherIds: [] },
        tax: { percent: '20' },
      },
    );
    expect(compliance).toEqual({
      supplierTaxIds: { vatId: 'ATU12345678', otherIds: [] },
      tax: { category: 'vat', percent: '20', taxPointDate: 'ship-date' },
      accountingInLine: false,
    });
  });
});
