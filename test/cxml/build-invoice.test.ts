import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildInvoiceDetailRequest,
  type CxmlHeader,
  type InvoiceDetailRequestInput,
} from '../../src/cxml/index.ts';
import { parseXmlTree } from '../../src/cxml/xml-tree.ts';
import { attr, child, children, descend, rawText, text, type XmlNode } from '../../src/cxml/xml-node.ts';
import { disposeDtdValidators, requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';

const supplierHeader: CxmlHeader = {
  from: [{ domain: 'NetworkID', identity: 'AN02000000002' }],
  to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
  sender: {
    credentials: [{ domain: 'NetworkID', identity: 'AN02000000002', sharedSecret: 'punchgate-secret' }],
    userAgent: 'punchgate 0.1',
  },
};

/** Two PO lines at the PO's prices, 19% tax at the header, shipping 9.90. */
const invoice: InvoiceDetailRequestInput = {
  payloadID: '1714557600000.inv1@punchgate.example',
  timestamp: new Date('2024-05-03T10:00:00Z'),
  header: supplierHeader,
  invoiceID: 'INV-000001',
  purpose: 'standard',
  invoiceDate: new Date('2024-05-03T09:59:00Z'),
  currency: 'EUR',
  orderReference: {
    orderID: 'PO-4711',
    orderDate: '2024-05-01T10:00:00+02:00',
    orderPayloadID: '1714557500000.po@ariba.example',
  },
  supplierOrderID: '100042',
  partners: [
    {
      role: 'remitTo',
      name: 'PrintCo GmbH',
      address: { street: ['Hauptstraße 1'], city: 'Berlin', postalCode: '10115', isoCountryCode: 'DE' },
    },
    {
      role: 'billTo',
      name: 'Acme Accounts Payable',
      addressID: 'AP-1',
      address: {
        street: ['1 Main St'],
        city: 'Springfield',
        state: 'IL',
        country: 'USA',
        isoCountryCode: 'US',
      },
      email: 'ap@acme.example',
    },
    // Without a city the address is left out, the Contact stays.
    { role: 'soldTo', name: 'Acme', address: { street: ['somewhere'] } },
  ],
  paymentTermDays: 30,
  taxAt: 'header',
  lines: [
    {
      invoiceLineNumber: 1,
      lineNumber: 1,
      quantity: '500',
      unitOfMeasure: 'EA',
      unitPrice: '0.118',
      supplierPartID: 'BC-STD',
      supplierPartAuxiliaryID: ' L-7K2M9Q & <co> ',
      description: 'Business cards',
      subtotal: '59.00',
    },
    {
      invoiceLineNumber: 2,
      lineNumber: 3,
      quantity: '2',
      unitOfMeasure: 'PK',
      unitPrice: '40.00',
      supplierPartID: 'FLY-A5',
      subtotal: '80.00',
    },
  ],
  summary: {
    subtotal: '139.00',
    tax: { amount: '26.41', taxableAmount: '139.00', percentageRate: '19', description: 'VAT 19%' },
    shipping: '9.90',
    gross: '175.31',
    net: '175.31',
    due: '175.31',
  },
};

const lineTax: InvoiceDetailRequestInput = {
  ...invoice,
  invoiceID: 'INV-000002',
  taxAt: 'line',
  lines: [
    {
      ...(invoice.lines[0] as InvoiceDetailRequestInput['lines'][number]),
      tax: { amount: '11.21', taxableAmount: '59.00', percentageRate: '19' },
    },
    {
      ...(invoice.lines[1] as InvoiceDetailRequestInput['lines'][number]),
      tax: { amount: '15.20', taxableAmount: '80.00', percentageRate: '19' },
    },
  ],
};

const discounted: InvoiceDetailRequestInput = {
  ...invoice,
  invoiceID: 'INV-000003',
  comments: "Invoiced at the PO's prices; line 3: print order 81.00, PO 80.00 (1.25%).",
  summary: { ...invoice.summary, discount: '10.00', net: '165.31', due: '165.31' },
};

/** Only shipment 2's line, its own shipping and tax. */
const perShipment: InvoiceDetailRequestInput = {
  ...invoice,
  invoiceID: 'INV-000004',
  lines: [{ ...(invoice.lines[1] as InvoiceDetailRequestInput['lines'][number]), invoiceLineNumber: 1 }],
  summary: {
    subtotal: '80.00',
    tax: { amount: '15.20', taxableAmount: '80.00', percentageRate: '19' },
    shipping: '4.95',
    gross: '100.15',
    net: '100.15',
    due: '100.15',
  },
};

const creditMemo: InvoiceDetailRequestInput = {
  ...invoice,
  payloadID: '1714557600000.cm1@punchgate.example',
  invoiceID: 'INV-000001-CR',
  purpose: 'creditMemo',
  originalInvoice: {
    invoiceID: 'INV-000001',
    invoiceDate: new Date('2024-05-03T09:59:00Z'),
    payloadID: '1714557600000.inv1@punchgate.example',
  },
  lines: invoice.lines.map((line) => ({ ...line, subtotal: `-${line.subtotal}` })),
  summary: {
    subtotal: '-139.00',
    tax: { amount: '-26.41', taxableAmount: '-139.00', percentageRate: '19' },
    shipping: '-9.90',
    discount: '-10.00',
    gross: '-175.31',
    net: '-165.31',
    due: '-165.31',
  },
};

const documents: Record<string, InvoiceDetailRequestInput> = {
  'header tax': invoice,
  'line tax': lineTax,
  'with a discount and comments': discounted,
  'one shipment': perShipment,
  'credit memo': creditMemo,
};

function request(xml: string): XmlNode | undefined {
  return descend(parseXmlTree(xml), 'cXML', 'Request', 'InvoiceDetailRequest');
}

const moneyOf = (node: XmlNode | undefined) => text(child(node, 'Money'));

describe('InvoiceDetailRequest', () => {
  beforeAll(() => requireDtdValidator());
  afterAll(() => disposeDtdValidators());

  for (const [name, input] of Object.entries(documents)) {
    it(`is valid against InvoiceDetail.dtd 1.2.071: ${name}`, () => {
      const xml = buildInvoiceDetailRequest(input);
      expect(xml).toContain(
        '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/InvoiceDetail.dtd">',
      );
      const verdict = validateAgainstDtd(xml, 'InvoiceDetail');
      expect(verdict.messages).toBe('');
      expect(verdict.ok).toBe(true);
    });
  }

  it('is refused by the DTD when an element is out of order (the validation is real)', () => {
    const xml = buildInvoiceDetailRequest(invoice).replace(
      /(<InvoiceDetailHeaderIndicator\/>)\s*(<InvoiceDetailLineIndicator\/>)/,
      '$2$1',
    );
    expect(validateAgainstDtd(xml, 'InvoiceDetail').ok).toBe(false);
  });

  it('references the PO and its lines, read back with the gateway parser', () => {
    const xml = buildInvoiceDetailRequest(invoice);
    const root = request(xml);
    const header = child(root, 'InvoiceDetailRequestHeader');
    expect([attr(header, 'invoiceID'), attr(header, 'purpose'), attr(header, 'operation')]).toEqual([
      'INV-000001',
      'standard',
      'new',
    ]);
    expect(attr(header, 'invoiceDate')).toBe('2024-05-03T09:59:00+00:00');
    expect(attr(child(header, 'PaymentTerm'), 'payInNumberOfDays')).toBe('30');
    const contacts = children(header, 'InvoicePartner').map((p) => child(p, 'Contact'));
    expect(contacts.map((c) => attr(c, 'role'))).toEqual(['remitTo', 'billTo', 'soldTo']);
    expect(text(descend(contacts[1], 'PostalAddress', 'City'))).toBe('Springfield');
    expect(attr(descend(contacts[1], 'PostalAddress', 'Country'), 'isoCountryCode')).toBe('US');
    expect(child(contacts[2], 'PostalAddress')).toBeUndefined();

    const order = child(root, 'InvoiceDetailOrder');
    const reference = descend(order, 'InvoiceDetailOrderInfo', 'OrderReference');
    expect(attr(reference, 'orderID')).toBe('PO-4711');
    expect(attr(reference, 'orderDate')).toBe('2024-05-01T10:00:00+02:00');
    expect(attr(child(reference, 'DocumentReference'), 'payloadID')).toBe('1714557500000.po@ariba.example');
    expect(attr(descend(order, 'InvoiceDetailOrderInfo', 'SupplierOrderInfo'), 'orderID')).toBe('100042');

    const items = children(order, 'InvoiceDetailItem');
    expect(
      items.map((item) => {
        const ref = child(item, 'InvoiceDetailItemReference');
        return {
          invoiceLineNumber: attr(item, 'invoiceLineNumber'),
          quantity: attr(item, 'quantity'),
          lineNumber: attr(ref, 'lineNumber'),
          part: text(descend(ref, 'ItemID', 'SupplierPartID')),
          aux: rawText(descend(ref, 'ItemID', 'SupplierPartAuxiliaryID'), 'aux'),
          unitPrice: moneyOf(child(item, 'UnitPrice')),
          subtotal: moneyOf(child(item, 'SubtotalAmount')),
        };
      }),
    ).toEqual([
      {
        invoiceLineNumber: '1',
        quantity: '500',
        lineNumber: '1',
        part: 'BC-STD',
        aux: ' L-7K2M9Q & <co> ',
        unitPrice: '0.118',
        subtotal: '59.00',
      },
      {
        invoiceLineNumber: '2',
        quantity: '2',
        lineNumber: '3',
        part: 'FLY-A5',
        aux: '',
        unitPrice: '40.00',
        subtotal: '80.00',
      },
    ]);
    // Header tax: no Tax on the lines.
    expect(items.map((item) => child(item, 'Tax'))).toEqual([undefined, undefined]);

    const summary = child(root, 'InvoiceDetailSummary');
    expect({
      subtotal: moneyOf(child(summary, 'SubtotalAmount')),
      tax: moneyOf(child(summary, 'Tax')),
      shipping: moneyOf(child(summary, 'ShippingAmount')),
      gross: moneyOf(child(summary, 'GrossAmount')),
      net: moneyOf(child(summary, 'NetAmount')),
      due: moneyOf(child(summary, 'DueAmount')),
    }).toEqual({
      subtotal: '139.00',
      tax: '26.41',
      shipping: '9.90',
      gross: '175.31',
      net: '175.31',
      due: '175.31',
    });
    const detail = descend(summary, 'Tax', 'TaxDetail');
    expect([attr(detail, 'purpose'), attr(detail, 'category'), attr(detail, 'percentageRate')]).toEqual([
      'tax',
      'sales',
      '19',
    ]);
    expect(moneyOf(child(detail, 'TaxableAmount'))).toBe('139.00');
    expect(attr(child(descend(summary, 'DueAmount'), 'Money'), 'currency')).toBe('EUR');
    expect(child(summary, 'InvoiceDetailDiscount')).toBeUndefined();
  });

  it('puts the tax on each line with taxAt line', () => {
    const root = request(buildInvoiceDetailRequest(lineTax));
    expect(
      attr(descend(root, 'InvoiceDetailRequestHeader', 'InvoiceDetailLineIndicator'), 'isTaxInLine'),
    ).toBe('yes');
    const items = children(child(root, 'InvoiceDetailOrder'), 'InvoiceDetailItem');
    expect(items.map((item) => moneyOf(child(item, 'Tax')))).toEqual(['11.21', '15.20']);
    expect(moneyOf(descend(root, 'InvoiceDetailSummary', 'Tax'))).toBe('26.41');
  });

  it('writes the promotion as InvoiceDetailDiscount and the comments in the header', () => {
    const root = request(buildInvoiceDetailRequest(discounted));
    expect(moneyOf(descend(root, 'InvoiceDetailSummary', 'InvoiceDetailDiscount'))).toBe('10.00');
    expect(moneyOf(descend(root, 'InvoiceDetailSummary', 'DueAmount'))).toBe('165.31');
    expect(text(descend(root, 'InvoiceDetailRequestHeader', 'Comments'))).toContain(
      'line 3: print order 81.00',
    );
  });

  it('writes a credit memo as the header invoice the DTD requires, referencing the invoice it credits', () => {
    const root = request(buildInvoiceDetailRequest(creditMemo));
    const header = child(root, 'InvoiceDetailRequestHeader');
    expect(attr(header, 'purpose')).toBe('creditMemo');
    expect(attr(child(header, 'InvoiceDetailHeaderIndicator'), 'isHeaderInvoice')).toBe('yes');
    expect(attr(child(header, 'InvoiceIDInfo'), 'invoiceID')).toBe('INV-000001');
    expect(attr(child(header, 'InvoiceIDInfo'), 'invoiceDate')).toBe('2024-05-03T09:59:00+00:00');
    expect(attr(child(header, 'DocumentReference'), 'payloadID')).toBe(
      '1714557600000.inv1@punchgate.example',
    );
    expect(child(root, 'InvoiceDetailOrder')).toBeUndefined();
    const order = child(root, 'InvoiceDetailHeaderOrder');
    expect(attr(descend(order, 'InvoiceDetailOrderInfo', 'OrderReference'), 'orderID')).toBe('PO-4711');
    expect(moneyOf(descend(order, 'InvoiceDetailOrderSummary', 'SubtotalAmount'))).toBe('-139.00');
    expect(moneyOf(descend(root, 'InvoiceDetailSummary', 'DueAmount'))).toBe('-165.31');
  });

  it('refuses compliance data it cannot write, naming the field', () => {
    const [first, second] = lineTax.lines as [
      InvoiceDetailRequestInput['lines'][number],
      InvoiceDetailRequestInput['lines'][number],
    ];
    const withFirst = (line: InvoiceDetailRequestInput['lines'][number]) => ({
      ...lineTax,
      accountingInLine: true,
      lines: [line, second],
    });
    expect(() =>
      buildInvoiceDetailRequest(
        withFirst({
          ...first,
          distribution: [{ accountingName: 'CostCenter', segments: [], charge: '59.00' }],
        }),
      ),
    ).toThrow('lines[0].distribution[0].segments must not be empty');
    expect(() =>
      buildInvoiceDetailRequest(
        withFirst({
          ...first,
          tax: {
            amount: '11.21',
            taxableAmount: '59.00',
            exemption: { detail: 'reverseCharge' as 'exempt', reason: 'x' },
          },
        }),
      ),
    ).toThrow('lines[0].tax.exemption.detail must be exempt or zeroRated, got "reverseCharge"');
    expect(() =>
      buildInvoiceDetailRequest({
        ...invoice,
        partners: [{ role: 'from', name: 'PrintCo', idReferences: [{ domain: 'vatID', identifier: ' ' }] }],
      }),
    ).toThrow('partners[0].idReferences[0].identifier');
  });

  it('a Tax with shipping tax writes two TaxDetails that add up to it', () => {
    const xml = buildInvoiceDetailRequest({
      ...invoice,
      summary: {
        ...invoice.summary,
        tax: {
          amount: '28.29',
          taxableAmount: '139.00',
          percentageRate: '19',
          category: 'vat',
          shippingTax: { taxableAmount: '9.90', amount: '1.88' },
        },
        gross: '177.19',
        net: '177.19',
        due: '177.19',
      },
    });
    expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
    const details = children(descend(request(xml), 'InvoiceDetailSummary', 'Tax'), 'TaxDetail');
    expect(
      details.map((d) => [
        attr(d, 'purpose'),
        moneyOf(child(d, 'TaxableAmount')),
        moneyOf(child(d, 'TaxAmount')),
      ]),
    ).toEqual([
      ['tax', '139.00', '26.41'],
      ['shippingTax', '9.90', '1.88'],
    ]);
  });

  it('refuses figures that do not add up, naming them', () => {
    expect(() =>
      buildInvoiceDetailRequest({ ...invoice, summary: { ...invoice.summary, gross: '175.30' } }),
    ).toThrow('summary.gross must be subtotal + tax + shipping: expected 175.31, got 175.30');
    expect(() =>
      buildInvoiceDetailRequest({ ...invoice, summary: { ...invoice.summary, discount: '1.00' } }),
    ).toThrow('summary.net must be gross − discount: expected 174.31, got 175.31');
    expect(() =>
      buildInvoiceDetailRequest({
        ...invoice,
        lines: [invoice.lines[0] as InvoiceDetailRequestInput['lines'][number]],
      }),
    ).toThrow('summary.subtotal must be the sum of the lines: expected 59.00, got 139.00');
    expect(() =>
      buildInvoiceDetailRequest({
        ...lineTax,
        lines: lineTax.lines.map((line, i) => (i === 0 ? { ...line, tax: { amount: '11.20' } } : line)),
      }),
    ).toThrow('summary.tax must be the sum of the line taxes with taxAt "line": expected 26.40, got 26.41');
    expect(() => buildInvoiceDetailRequest({ ...lineTax, lines: invoice.lines })).toThrow(
      'lines[0].tax is required with taxAt "line"',
    );
  });

  it('refuses a credit memo without the invoice it credits, or with a positive amount due', () => {
    const { originalInvoice: _original, ...withoutOriginal } = creditMemo;
    expect(() => buildInvoiceDetailRequest(withoutOriginal)).toThrow(
      'A credit memo needs the originalInvoice',
    );
    expect(() => buildInvoiceDetailRequest({ ...creditMemo, summary: invoice.summary })).toThrow(
      'summary.due of a credit memo must be negative, got 175.31',
    );
    expect(() => buildInvoiceDetailRequest({ ...invoice, lines: [] })).toThrow(
      'An invoice needs at least one line',
    );
  });
});
