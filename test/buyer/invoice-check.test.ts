/**
 * The buyer simulator's invoice reader and check (issue 19, deliverable 5), on hand-written
 * InvoiceDetailRequests that are valid against InvoiceDetail.dtd 1.2.071, against the OrderRequest the
 * simulator sends for fake-gateway's two cart lines.
 */
import {
  ARIBA_PROFILE,
  buildOrderRequest,
  checkInvoice,
  DEMO_USERS,
  type InvoiceView,
  type KnownInvoice,
  readOrderedLines,
  readStatusDocument,
  type RequisitionLine,
} from '@punchgate/sandbox/buyer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeDtdValidators, requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';
import { CARD_LINE, FLYER_LINE, NOW } from './fake-gateway.ts';
import {
  CARD_INVOICE_LINE,
  FLYER_INVOICE_LINE,
  type InvoiceSpec,
  invoiceDocument,
} from './invoice-documents.ts';

const [JANE] = DEMO_USERS as [(typeof DEMO_USERS)[number]];

function requisitionLine(line: typeof CARD_LINE): RequisitionLine {
  return {
    source: 'cxml',
    supplierPartID: line.supplierPartID,
    supplierPartAuxiliaryID: line.supplierPartAuxiliaryID ?? '',
    description: line.description,
    quantity: String(line.quantity),
    unitPrice: line.unitPrice.value,
    currency: line.unitPrice.currency,
    unitOfMeasure: line.unitOfMeasure,
    classifications: [],
    extrinsics: [],
  };
}

const PO_DOCUMENT = buildOrderRequest({
  profile: ARIBA_PROFILE,
  user: JANE,
  orderID: 'PO-1001',
  requisitionId: 'REQ-1',
  payloadID: 'po-payload@buyer.test',
  timestamp: NOW,
  lines: [requisitionLine(CARD_LINE), requisitionLine(FLYER_LINE)],
  comments: '',
});
const PO = readOrderedLines(PO_DOCUMENT);

function read(spec: InvoiceSpec = {}) {
  const document = readStatusDocument(invoiceDocument(spec));
  if (document.kind !== 'InvoiceDetailRequest') throw new Error(`read as ${document.kind}`);
  return document.content;
}

function check(spec: InvoiceSpec = {}, accepted: readonly KnownInvoice[] = []) {
  return checkInvoice({ invoice: read(spec), po: PO, accepted });
}

/** An invoice accepted earlier, as the simulator keeps it. */
function acceptedEarlier(spec: InvoiceSpec = {}, orderID = 'PO-1001'): KnownInvoice {
  const { view, answer } = check(spec);
  expect(answer.code).toBe(200);
  const kept: InvoiceView = { ...view, receivedAt: NOW.toISOString(), endpoint: 'x', answer, received: 1 };
  return { orderID, view: kept };
}

/** A credit memo of 10.83 (tax 0.83) for INV-70001, as a header invoice. */
const CREDIT_MEMO: InvoiceSpec = {
  purpose: 'creditMemo',
  creditedInvoiceID: 'INV-70001',
  headerOrder: true,
  subtotal: '-10.00',
  tax: '-0.83',
  shipping: '0.00',
  discount: '0.00',
};

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

describe('hand-written invoices', () => {
  it.each([
    ['header tax', {}],
    ['line tax', { taxInLine: true }],
    ['no discount, net 45', { discount: '0.00', paymentTermDays: 45 }],
    ['a credit memo as a header invoice', CREDIT_MEMO],
  ] as const)('are valid against InvoiceDetail.dtd: %s', (_name, spec) => {
    const verdict = validateAgainstDtd(invoiceDocument(spec), 'InvoiceDetail');
    expect(verdict.messages).toBe('');
    expect(verdict.ok).toBe(true);
  });
});

describe('readOrderedLines', () => {
  it('reads back the PO the simulator sent: line numbers, quantities, units, prices, parts, currency', () => {
    expect(PO.currency).toBe('USD');
    expect(
      PO.lines.map((l) => [l.lineNumber, l.quantity, l.unitOfMeasure, l.unitPrice, l.supplierPartID]),
    ).toEqual([
      ['1', '500', 'EA', '0.09', 'BC-STD'],
      ['2', '250', 'EA', '0.35', 'FLY-A5'],
    ]);
  });
});

describe('readInvoice', () => {
  it('reads header, order reference, lines with their references and the summary', () => {
    const invoice = read({ taxInLine: true, comments: 'Thank you' });
    expect(invoice).toMatchObject({
      orderID: 'PO-1001',
      orderIDs: ['PO-1001'],
      orderPayloadID: 'po-payload@buyer.test',
      payloadID: 'inv-1@printco.test',
      invoiceID: 'INV-70001',
      purpose: 'standard',
      operation: 'new',
      invoiceDate: '2026-11-22T09:00:00+00:00',
      headerInvoice: false,
      taxInLine: true,
      paymentTermDays: 30,
      comments: 'Thank you',
    });
    expect(invoice.items[0]).toEqual({
      invoiceLineNumber: '1',
      lineNumber: '1',
      quantity: '500',
      unitOfMeasure: 'EA',
      unitPrice: { value: '0.09', currency: 'USD' },
      subtotal: { value: '45.00', currency: 'USD' },
      tax: { value: '3.71', currency: 'USD' },
      supplierPartID: 'BC-STD',
      description: 'Line 1',
    });
    expect(invoice.summary).toEqual({
      subtotal: { value: '132.50', currency: 'USD' },
      tax: { value: '10.93', currency: 'USD' },
      taxDetails: [{ value: '10.93', currency: 'USD' }],
      shipping: { value: '9.95', currency: 'USD' },
      gross: { value: '153.38', currency: 'USD' },
      discount: { value: '5.00', currency: 'USD' },
      net: { value: '148.38', currency: 'USD' },
      due: { value: '148.38', currency: 'USD' },
    });
  });

  it('reads the credit memo of a header invoice: no lines, the invoice it credits', () => {
    const memo = read({ purpose: 'creditMemo', creditedInvoiceID: 'INV-70001', headerOrder: true });
    expect(memo).toMatchObject({
      purpose: 'creditMemo',
      creditedInvoiceID: 'INV-70001',
      headerInvoice: true,
    });
    expect(memo.items).toEqual([]);
  });

  it('answers a missing invoiceID or summary as a missing field', () => {
    const request = (xml: string) => () => readStatusDocument(xml);
    expect(request(invoiceDocument().replace(' invoiceID="INV-70001"', ''))).toThrow(
      'InvoiceDetailRequestHeader has no invoiceID attribute.',
    );
    expect(
      request(invoiceDocument().replace(/<InvoiceDetailSummary>[\s\S]*<\/InvoiceDetailSummary>/, '')),
    ).toThrow('InvoiceDetailRequest has no InvoiceDetailSummary.');
    expect(request(invoiceDocument().replace(' lineNumber="2"', ''))).toThrow(
      "InvoiceDetailItem 2's InvoiceDetailItemReference has no lineNumber attribute.",
    );
  });
});

describe('checkInvoice', () => {
  it('accepts an invoice that matches the PO and adds up; due date = invoice date + net days', () => {
    const { answer, view } = check();
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
    expect(view).toMatchObject({
      invoiceID: 'INV-70001',
      currency: 'USD',
      paymentTermDays: 30,
      dueDate: '2026-12-22',
      subtotal: '132.50',
      tax: '10.93',
      shipping: '9.95',
      discount: '5.00',
      net: '148.38',
      due: '148.38',
    });
    expect(check({ taxInLine: true }).answer.code).toBe(200);
    // A local invoice date counts its own calendar day.
    expect(check({ invoiceDate: '2026-11-30T23:30:00-08:00', paymentTermDays: 15 }).view.dueDate).toBe(
      '2026-12-15',
    );
    // Part of a line, and the rest later.
    const part = { ...CARD_INVOICE_LINE, quantity: '200', subtotal: '18.00' };
    expect(check({ lines: [part] }).answer.code).toBe(200);
  });

  it.each([
    {
      name: 'an unknown PO line',
      spec: { lines: [{ ...CARD_INVOICE_LINE, lineNumber: 3 }] },
      code: 417,
      detail: 'Invoice line 1 refers to PO line 3; purchase order PO-1001 has lines 1, 2.',
    },
    {
      name: 'more than was ordered',
      spec: { lines: [{ ...CARD_INVOICE_LINE, quantity: '600', subtotal: '54.00' }] },
      code: 400,
      detail: 'Invoice line 1 bills 600 of PO line 1, which ordered 500: at most 500 can be invoiced.',
    },
    {
      name: 'two invoice lines for one PO line, over the ordered quantity together',
      spec: {
        lines: [
          { ...CARD_INVOICE_LINE, quantity: '300', subtotal: '27.00' },
          { ...CARD_INVOICE_LINE, quantity: '300', subtotal: '27.00' },
        ],
      },
      code: 400,
      detail: 'Invoice line 2 bills 600 of PO line 1, which ordered 500: at most 500 can be invoiced.',
    },
    {
      name: 'another unit price',
      spec: { lines: [{ ...CARD_INVOICE_LINE, unitPrice: '0.12', subtotal: '60.00' }] },
      code: 400,
      detail: "Invoice line 1 bills PO line 1 at 0.12 USD; the purchase order's price is 0.09 USD.",
    },
    {
      name: 'another unit',
      spec: { lines: [{ ...CARD_INVOICE_LINE, unitOfMeasure: 'BX' }] },
      code: 400,
      detail: 'Invoice line 1 is in BX; PO line 1 is in EA.',
    },
    {
      name: 'another part',
      spec: { lines: [{ ...CARD_INVOICE_LINE, supplierPartID: 'BC-LUX' }] },
      code: 400,
      detail: 'Invoice line 1 names part BC-LUX; PO line 1 is BC-STD.',
    },
    {
      name: 'a line subtotal that is not quantity × price',
      spec: { lines: [{ ...CARD_INVOICE_LINE, subtotal: '45.01' }] },
      code: 400,
      detail: "Invoice line 1's SubtotalAmount is 45.01; 500 × 0.09 = 45.00.",
    },
    {
      name: 'a subtotal that is not the sum of the lines',
      spec: { subtotal: '132.60' },
      code: 400,
      detail: 'SubtotalAmount 132.60 is not the sum of the lines, 132.50.',
    },
    {
      name: 'line taxes that do not sum to the tax',
      spec: { taxInLine: true, tax: '10.94' },
      code: 400,
      detail: 'Tax 10.94 is not the sum of the line taxes, 10.93 (isTaxInLine).',
    },
    {
      name: 'a gross amount that does not add up',
      spec: { gross: '153.48', net: '148.48' },
      code: 400,
      detail:
        'GrossAmount 153.48 is not SubtotalAmount + Tax + SpecialHandlingAmount + ShippingAmount = 153.38.',
    },
    {
      name: 'a net amount that does not add up',
      spec: { net: '153.38' },
      code: 400,
      detail:
        'NetAmount 153.38 is not SubtotalAmount + Tax + SpecialHandlingAmount + ShippingAmount − InvoiceDetailDiscount = 148.38.',
    },
    {
      name: 'a due amount that is not the net',
      spec: { due: '150.00' },
      code: 400,
      detail: 'DueAmount 150.00 is not NetAmount − DepositAmount = 148.38.',
    },
    {
      name: 'another currency',
      spec: { currency: 'EUR' },
      code: 400,
      detail: "Invoice line 1's UnitPrice is in EUR; purchase order PO-1001 is in USD.",
    },
    {
      name: 'another currency in the summary only',
      spec: { dueCurrency: 'EUR' },
      code: 400,
      detail: 'DueAmount is in EUR; purchase order PO-1001 is in USD.',
    },
    {
      name: 'a debit memo',
      spec: { purpose: 'debitMemo' },
      code: 400,
      detail: 'purpose "debitMemo" is not taken here; invoices are "standard" or "creditMemo".',
    },
    {
      name: 'a delete',
      spec: { operation: 'delete' },
      code: 400,
      detail: 'operation "delete" is not taken here; take an invoice back with a credit memo.',
    },
    {
      name: 'a standard header invoice',
      spec: { headerOrder: true },
      code: 400,
      detail:
        'A standard invoice bills the purchase order’s lines (InvoiceDetailOrder with InvoiceDetailItem); header invoices are taken for credit memos only.',
    },
    {
      name: 'a date that is no date',
      spec: { invoiceDate: 'yesterday' },
      code: 400,
      detail: 'invoiceDate "yesterday" is not a cXML date and time.',
    },
    {
      name: 'a negative standard invoice',
      spec: { shipping: '0.00', discount: '150.00' },
      code: 400,
      detail: 'A standard invoice is not due a negative amount (DueAmount -6.57); send a credit memo.',
    },
  ])('refuses $name: $code', ({ spec, code, detail }) => {
    const { answer } = check(spec as InvoiceSpec);
    expect(answer).toEqual({ code, text: code === 417 ? 'Expectation Failed' : 'Bad Request', detail });
  });

  it('counts what earlier invoices billed, and refuses an invoiceID taken by another document', () => {
    const first = acceptedEarlier({ lines: [{ ...CARD_INVOICE_LINE, quantity: '400', subtotal: '36.00' }] });
    expect(
      check(
        {
          invoiceID: 'INV-70002',
          payloadID: 'inv-2@printco.test',
          lines: [{ ...CARD_INVOICE_LINE, quantity: '150', subtotal: '13.50' }],
        },
        [first],
      ).answer.detail,
    ).toBe(
      'Invoice line 1 bills 150 of PO line 1, which ordered 500 (400 invoiced already): at most 100 can be invoiced.',
    );
    expect(
      check({ invoiceID: 'INV-70002', payloadID: 'inv-2@printco.test', lines: [FLYER_INVOICE_LINE] }, [first])
        .answer.code,
    ).toBe(200);
    expect(check({ payloadID: 'inv-other@printco.test' }, [first]).answer).toEqual({
      code: 417,
      text: 'Expectation Failed',
      detail:
        'Invoice number INV-70001 was taken already by payloadID inv-1@printco.test (purchase order PO-1001); a new invoice needs a new invoiceID.',
    });
  });

  it('takes a credit memo for an accepted invoice, negative and no more than is left of it', () => {
    const invoice = acceptedEarlier();
    const memo = (spec: InvoiceSpec) =>
      check({ invoiceID: 'CM-1', payloadID: 'cm-1@printco.test', ...CREDIT_MEMO, ...spec }, [invoice]).answer;
    expect(memo({})).toEqual({ code: 200, text: 'OK', detail: '' });
    expect(memo({ creditedInvoiceID: 'INV-9' }).detail).toBe(
      'Credit memo CM-1 credits invoice INV-9, which is not an invoice accepted for purchase order PO-1001.',
    );
    expect(memo({ subtotal: '10.00', tax: '0.83' }).detail).toBe(
      "A credit memo's DueAmount is negative; this one is 10.83.",
    );
    expect(memo({ subtotal: '-150.00', tax: '0.00' }).detail).toBe(
      'Credit memo CM-1 credits 150.00, more than the 148.38 left of invoice INV-70001.',
    );
    const withoutReference = check(
      {
        invoiceID: 'CM-2',
        payloadID: 'cm-2@printco.test',
        purpose: 'creditMemo',
        headerOrder: true,
        subtotal: '-1.00',
        tax: '0.00',
        shipping: '0.00',
        discount: '0.00',
      },
      [invoice],
    );
    expect(withoutReference.answer.detail).toBe(
      'A credit memo names the invoice it credits in InvoiceIDInfo@invoiceID.',
    );
  });
});
