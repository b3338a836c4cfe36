/**
 * Invoice figures in the currency's ISO 4217 minor units (JPY none, BHD three) and for PO lines priced per
 * N (PriceBasisQuantity): the amount is quantity × price ÷ N rounded once, the basis is echoed, the print
 * service's per-piece price is held against the PO's price of one unit, and every document is
 * InvoiceDetail.dtd-valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderItem, Shipment } from '../../../schemas/print-api.ts';
import {
  buildInvoiceDetailRequest,
  type CxmlHeader,
  type PriceBasisQuantity,
} from '../../../src/cxml/index.ts';
import {
  creditMemoFigures,
  type InvoiceFigures,
  invoiceFigures,
} from '../../../src/gateway/invoices/invoice-figures.ts';
import type { PoLine } from '../../../src/gateway/orders/po-record.ts';
import { sampleOrder } from '../../print-api/sample-answers.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const PER_THOUSAND: PriceBasisQuantity = { quantity: '1000', conversionFactor: '1', unitOfMeasure: 'EA' };

function poLine(
  quantity: string,
  unitPrice: string,
  currency: string,
  priceBasis?: PriceBasisQuantity,
): PoLine {
  return {
    lineNumber: 1,
    lineRef: 'L-1',
    supplierPartID: 'BC-STD',
    description: 'Business cards',
    quantity,
    unitOfMeasure: 'EA',
    unitPrice: { value: unitPrice, currency },
    ...(priceBasis !== undefined && { priceBasis }),
    comments: '',
    storefrontId: 'main',
    userRef: 'buyer:ada',
    designId: 11,
  };
}

/** A print order of one item (design 11) of `quantity` charging `subTotal`, one shipment. */
function printOrder(quantity: number, subTotal: number, tax: number, shipping: number): Order {
  const item: OrderItem = {
    ...(sampleOrder.items[0] as OrderItem),
    id: 1,
    product_id: 11,
    quantity,
    sub_total: subTotal,
    shipment_index: 1,
  };
  const shipment: Shipment = {
    ...(sampleOrder.shipments[0] as Shipment),
    index: 1,
    shipping_total: shipping,
    tax_total: tax,
    shipped_on: '2026-11-25T10:00:00Z',
  };
  return {
    ...sampleOrder,
    id: 1042,
    items: [item],
    shipments: [shipment],
    sub_total: subTotal,
    tax_total: tax,
    shipping_total: shipping,
    promotion_total: 0,
  };
}

/** The document without the whitespace between its elements. */
const compact = (xml: string) => xml.replace(/>\s+</g, '><');

function figuresOf(line: PoLine, order: Order, currency: string, tolerance = 1): InvoiceFigures {
  const result = invoiceFigures({
    order,
    group: { index: 0, storefrontId: 'main', userRef: 'buyer:ada', lines: [line] },
    currency,
    scope: { per: 'order' },
    settings: { taxAt: 'line', priceTolerancePercent: tolerance },
  });
  if (!result.ok) throw new Error(result.message);
  return result.figures;
}

const header: CxmlHeader = {
  from: [{ domain: 'NetworkID', identity: 'AN02000000002' }],
  to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
  sender: {
    credentials: [{ domain: 'NetworkID', identity: 'AN02000000002', sharedSecret: 'secret' }],
    userAgent: 'punchgate',
  },
};

function documentOf(figures: InvoiceFigures, purpose: 'standard' | 'creditMemo' = 'standard'): string {
  return buildInvoiceDetailRequest({
    payloadID: `1764064800000.${purpose}@punchgate.example`,
    timestamp: new Date('2026-11-25T10:00:00Z'),
    header,
    invoiceID: purpose === 'standard' ? 'INV-000001' : 'INV-000001-CR',
    purpose,
    invoiceDate: new Date('2026-11-25T10:00:00Z'),
    currency: figures.currency,
    orderReference: { orderID: 'PO-4711', orderPayloadID: '1764064700000.po@ariba.example' },
    ...(purpose === 'creditMemo' && { originalInvoice: { invoiceID: 'INV-000001' } }),
    taxAt: figures.taxAt,
    lines: figures.lines,
    summary: figures.summary,
  });
}

describe('a PO line priced per thousand', () => {
  it('is invoiced at its price per 1,000 with the basis echoed, its amount rounded once', () => {
    // 2,500 at 45.27 per 1,000 = 113.175 → 113.18; the print service charges the same 113.18 for 2,500
    // pieces, although 113.18 ÷ 2,500 = 0.045272 a piece is not 0.04527: no deviation to flag.
    const figures = figuresOf(
      poLine('2500', '45.27', 'EUR', PER_THOUSAND),
      printOrder(2500, 113.18, 0, 0),
      'EUR',
    );
    expect(figures.deviations).toEqual([]);
    expect(figures.lines).toEqual([
      expect.objectContaining({
        quantity: '2500',
        unitPrice: '45.27',
        priceBasis: PER_THOUSAND,
        subtotal: '113.18',
      }),
    ]);
    expect(figures.summary.due).toBe('113.18');
    const xml = documentOf(figures);
    expect(compact(xml)).toContain(
      '<UnitPrice><Money currency="EUR">45.27</Money></UnitPrice><PriceBasisQuantity quantity="1000" conversionFactor="1"><UnitOfMeasure>EA</UnitOfMeasure></PriceBasisQuantity>',
    );
    expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
  });

  it("is held against the print service's per-piece price per ordered unit", () => {
    // A PIPO item of one piece at 0.05 against 45.27 per 1,000 (0.04527 a piece): 10.45 % off.
    const result = invoiceFigures({
      order: printOrder(1, 0.05, 0, 0),
      group: {
        index: 0,
        storefrontId: 'main',
        userRef: 'buyer:ada',
        lines: [poLine('2500', '45.27', 'EUR', PER_THOUSAND)],
      },
      currency: 'EUR',
      scope: { per: 'order' },
      settings: { taxAt: 'header', priceTolerancePercent: 1 },
    });
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.message).toBe(
      'PO line 1: the print order charges 0.05 a unit (item 1), the PO 0.04527 (10.45% off), beyond the 1% tolerance.',
    );
    // The same price per piece, 0.12, matches 120.00 per 1,000.
    const cards = figuresOf(poLine('100', '120.00', 'EUR', PER_THOUSAND), printOrder(1, 0.12, 0, 0), 'EUR');
    expect(cards.deviations).toEqual([]);
    expect(cards.lines[0]).toMatchObject({ unitPrice: '120.00', subtotal: '12.00' });
  });

  it("restates an operator-accepted per-piece price per the PO's basis", () => {
    const result = invoiceFigures({
      order: printOrder(1, 0.05, 0, 0),
      group: {
        index: 0,
        storefrontId: 'main',
        userRef: 'buyer:ada',
        lines: [poLine('2500', '45.27', 'EUR', PER_THOUSAND)],
      },
      currency: 'EUR',
      scope: { per: 'order' },
      settings: { taxAt: 'header', priceTolerancePercent: 1 },
      prices: 'print-order',
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.figures.lines[0]).toMatchObject({
      unitPrice: '50.00',
      priceBasis: PER_THOUSAND,
      subtotal: '125.00',
    });
    expect(validateAgainstDtd(documentOf(result.figures), 'InvoiceDetail').ok).toBe(true);
  });
});

describe('currency minor units', () => {
  it('a JPY invoice has no decimals anywhere and is DTD-valid, with its credit memo', () => {
    // 3 at 1,234 yen with 10 % tax (370.2 → 370) and 800 shipping.
    const figures = figuresOf(poLine('3', '1234', 'JPY'), printOrder(3, 3702, 370.2, 800), 'JPY');
    expect(figures.lines[0]).toMatchObject({
      unitPrice: '1234',
      subtotal: '3702',
      tax: { amount: '370', taxableAmount: '3702' },
    });
    expect(figures.summary).toMatchObject({
      subtotal: '3702',
      tax: { amount: '370', taxableAmount: '3702' },
      shipping: '800',
      gross: '4872',
      net: '4872',
      due: '4872',
    });
    const xml = documentOf(figures);
    expect(compact(xml)).toContain('<DueAmount><Money currency="JPY">4872</Money></DueAmount>');
    expect(xml).not.toMatch(/currency="JPY">\d+\./);
    expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
    const memo = documentOf(creditMemoFigures(figures), 'creditMemo');
    expect(compact(memo)).toContain('<DueAmount><Money currency="JPY">-4872</Money></DueAmount>');
    expect(validateAgainstDtd(memo, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
  });

  it('a BHD invoice has three decimals, rounded once', () => {
    // 7 at 0.1235 = 0.8645 → 0.865 (0.124 a unit first would give 0.868).
    const figures = figuresOf(poLine('7', '0.1235', 'BHD'), printOrder(7, 0.865, 0, 1.5), 'BHD');
    expect(figures.lines[0]).toMatchObject({ unitPrice: '0.1235', subtotal: '0.865' });
    expect(figures.summary).toMatchObject({ subtotal: '0.865', shipping: '1.500', due: '2.365' });
    expect(validateAgainstDtd(documentOf(figures), 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
  });

  it('the builder refuses an amount with more decimals than the currency has', () => {
    const figures = figuresOf(poLine('3', '1234', 'JPY'), printOrder(3, 3702, 0, 0), 'JPY');
    expect(() => documentOf({ ...figures, summary: { ...figures.summary, subtotal: '3702.00' } })).toThrow(
      'summary.subtotal "3702.00" has more decimals than JPY\'s 0',
    );
  });
});
