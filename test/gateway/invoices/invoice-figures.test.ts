import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceConfig } from '../../../schemas/config.ts';
import type { Order, OrderItem, Shipment } from '../../../schemas/print-api.ts';
import { buildInvoiceDetailRequest, type CxmlHeader } from '../../../src/cxml/index.ts';
import {
  creditMemoFigures,
  creditMemoInvoiceId,
  deviationComments,
  gatewayInvoiceId,
  type InvoiceFigures,
  type InvoiceFiguresInput,
  type InvoiceScope,
  invoiceFigures,
  invoicePartners,
  invoicesDue,
  printServiceInvoiceId,
} from '../../../src/gateway/invoices/invoice-figures.ts';
import type { OwnerGroup, PoLine } from '../../../src/gateway/orders/po-record.ts';
import { addDecimals, parseDecimal } from '../../../src/kernel/decimal.ts';
import { sampleOrder } from '../../print-api/sample-answers.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';

function poLine(lineNumber: number, designId: number, quantity: string, unitPrice: string): PoLine {
  return {
    lineNumber,
    lineRef: `L-${lineNumber}`,
    supplierPartID: `SKU-${designId}`,
    description: `Design ${designId}`,
    quantity,
    unitOfMeasure: 'EA',
    unitPrice: { value: unitPrice, currency: 'EUR' },
    comments: '',
    storefrontId: 'main',
    userRef: 'buyer:ada',
    designId,
    cart: {
      sku: `SKU-${designId}`,
      quantity: Number(quantity),
      unitPrice,
      currency: 'EUR',
      state: 'ordered',
    },
  };
}

function groupOf(lines: PoLine[]): OwnerGroup {
  return { index: 0, storefrontId: 'main', userRef: 'buyer:ada', lines };
}

const baseItem = sampleOrder.items[0] as OrderItem;
const baseShipment = sampleOrder.shipments[0] as Shipment;

/** The quantities the PO orders of designs 11 and 12: the print order's items here are for as many. */
const QUANTITY_OF_DESIGN: Readonly<Record<number, number>> = { 11: 500, 12: 2 };

function item(
  id: number,
  designId: number,
  subTotal: number,
  shipmentIndex = 1,
  quantity = QUANTITY_OF_DESIGN[designId] ?? 1,
): OrderItem {
  return {
    ...baseItem,
    id,
    product_id: designId,
    quantity,
    sub_total: subTotal,
    shipment_index: shipmentIndex,
  };
}

function shipment(index: number, shipping: number, tax: number, shippedOn: string | null = null): Shipment {
  return { ...baseShipment, index, shipping_total: shipping, tax_total: tax, shipped_on: shippedOn };
}

/** A print order whose sub_total is its items' sum unless given, shipping_total the primary shipment's. */
function printOrder(fields: {
  items: OrderItem[];
  shipments: Shipment[];
  tax?: number;
  promotion?: number;
  subTotal?: number;
  invoiceNumber?: string;
  status?: string;
}): Order {
  const subTotal = addDecimals(fields.items.map((i) => parseDecimal(String(i.sub_total))));
  return {
    ...sampleOrder,
    id: 1042,
    status: fields.status ?? 'Shipped',
    items: fields.items,
    shipments: fields.shipments,
    sub_total: fields.subTotal ?? Number(`${subTotal.units}e-${subTotal.scale}`),
    tax_total: fields.tax ?? fields.shipments.reduce((sum, s) => sum + s.tax_total, 0),
    shipping_total: fields.shipments[0]?.shipping_total ?? 0,
    promotion_total: fields.promotion ?? 0,
    invoice_number: fields.invoiceNumber ?? '',
  };
}

const settings = {
  taxAt: 'header',
  priceTolerancePercent: 1,
} as const satisfies InvoiceFiguresInput['settings'];

/** PO: 500 × 0.118 (design 11) and 2 × 40.00 (design 12, PO line 3); 19% tax, shipping 9.90. */
const lines = [poLine(1, 11, '500', '0.118'), poLine(3, 12, '2', '40.00')];
const group = groupOf(lines);
const wholeOrder = printOrder({
  items: [item(501, 11, 59), item(502, 12, 80)],
  shipments: [shipment(1, 9.9, 26.41, '2024-05-02T10:00:00Z')],
});

/** The whole order's figures for the PO, in EUR, per order, at `settings`, unless `input` says otherwise. */
function figuresFor(input: Partial<InvoiceFiguresInput>) {
  return invoiceFigures({
    order: wholeOrder,
    group,
    currency: 'EUR',
    scope: { per: 'order' },
    settings,
    ...input,
  });
}

function figuresOf(input: Partial<InvoiceFiguresInput>): InvoiceFigures {
  const result = figuresFor(input);
  if (!result.ok) throw new Error(`held: ${result.message}`);
  return result.figures;
}

function holdsOf(input: Partial<InvoiceFiguresInput>) {
  const result = figuresFor(input);
  return result.ok ? [] : result.holds;
}

const supplierHeader: CxmlHeader = {
  from: [{ domain: 'NetworkID', identity: 'AN02000000002' }],
  to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
  sender: {
    credentials: [{ domain: 'NetworkID', identity: 'AN02000000002', sharedSecret: 'secret' }],
    userAgent: 'punchgate',
  },
};

function documentOf(figures: InvoiceFigures, purpose: 'standard' | 'creditMemo' = 'standard'): string {
  return buildInvoiceDetailRequest({
    payloadID: `1714557600000.${purpose}@punchgate.example`,
    timestamp: new Date('2024-05-03T10:00:00Z'),
    header: supplierHeader,
    invoiceID: purpose === 'standard' ? 'INV-000001' : creditMemoInvoiceId('INV-000001'),
    purpose,
    invoiceDate: new Date('2024-05-03T10:00:00Z'),
    currency: figures.currency,
    orderReference: { orderID: 'PO-4711', orderPayloadID: '1714557500000.po@ariba.example' },
    ...(purpose === 'creditMemo' && { originalInvoice: { invoiceID: 'INV-000001' } }),
    partners: invoicePartners(undefined, 'PrintCo GmbH', undefined),
    paymentTermDays: 30,
    taxAt: figures.taxAt,
    lines: figures.lines,
    summary: figures.summary,
    ...(figures.deviations.length > 0 && { comments: deviationComments(figures.deviations) ?? '' }),
  });
}

describe('invoice figures', () => {
  beforeAll(() => requireDtdValidator());
  afterAll(() => disposeDtdValidators());

  it("bills the PO's quantities at the PO's prices with the print order's tax rate and shipping", () => {
    const figures = figuresOf({});
    expect(figures.lines).toEqual([
      {
        invoiceLineNumber: 1,
        lineNumber: 1,
        quantity: '500',
        unitOfMeasure: 'EA',
        unitPrice: '0.118',
        supplierPartID: 'SKU-11',
        supplierPartAuxiliaryID: 'L-1',
        description: 'Design 11',
        subtotal: '59.00',
      },
      {
        invoiceLineNumber: 2,
        lineNumber: 3,
        quantity: '2',
        unitOfMeasure: 'EA',
        unitPrice: '40.00',
        supplierPartID: 'SKU-12',
        supplierPartAuxiliaryID: 'L-3',
        description: 'Design 12',
        subtotal: '80.00',
      },
    ]);
    expect(figures.summary).toEqual({
      subtotal: '139.00',
      tax: { amount: '26.41', taxableAmount: '139.00', percentageRate: '19' },
      shipping: '9.90',
      gross: '175.31',
      net: '175.31',
      due: '175.31',
    });
    expect([figures.taxSource, figures.shippingSource, figures.deviations]).toEqual([
      'print-order',
      'print-order',
      [],
    ]);
    expect(validateAgainstDtd(documentOf(figures), 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
  });

  it('with line tax, rounds each line and sums them into the header tax', () => {
    // Tax 10.00 on 30.00 of items: a third, which no finite decimal holds.
    const thirds = [poLine(1, 21, '1', '10.01'), poLine(2, 22, '1', '9.99'), poLine(3, 23, '1', '10.00')];
    const order = printOrder({
      items: [item(1, 21, 10.01), item(2, 22, 9.99), item(3, 23, 10)],
      shipments: [shipment(1, 0, 10)],
    });
    const header = figuresOf({ order, group: groupOf(thirds) });
    expect(header.summary.tax).toEqual({
      amount: '10.00',
      taxableAmount: '30.00',
      percentageRate: '33.33',
    });
    const line = figuresOf({ order, group: groupOf(thirds), settings: { ...settings, taxAt: 'line' } });
    expect(line.lines.map((l) => l.tax?.amount)).toEqual(['3.34', '3.33', '3.33']);
    expect(line.summary.tax.amount).toBe('10.00');
    expect(line.taxAt).toBe('line');
    const xml = documentOf(line);
    expect(xml).toContain('isTaxInLine="yes"');
    expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
  });

  it('states a rate read back from rounded amounts with the fewest decimals that still give its tax', () => {
    // 3.71 of 45.00 is 8.2444…%; 8.24 % of 45.00 is 3.708, the same 3.71 once rounded.
    const lines = [poLine(1, 31, '1', '45.00')];
    const order = printOrder({ items: [item(1, 31, 45)], shipments: [shipment(1, 0, 3.71)] });
    const { tax } = figuresOf({ order, group: groupOf(lines) }).summary;
    expect(tax).toEqual({ amount: '3.71', taxableAmount: '45.00', percentageRate: '8.24' });
    // A rate that is a configured percent keeps all its decimals.
    const configured = printOrder({ items: [item(1, 31, 45)], shipments: [shipment(1, 0, 0)] });
    const settingsAt = { ...settings, defaultTaxPercent: '8.125' };
    const fromConfig = figuresOf({ order: configured, group: groupOf(lines), settings: settingsAt });
    expect(fromConfig.summary.tax).toEqual({
      amount: '3.66',
      taxableAmount: '45.00',
      percentageRate: '8.125',
    });
  });

  it("per shipment: the shipment's lines, its own shipping and tax, the promotion on the first invoice only", () => {
    const order = printOrder({
      items: [item(501, 11, 59), item(502, 12, 80, 2)],
      shipments: [
        shipment(1, 9.9, 11.21, '2024-05-02T10:00:00Z'),
        shipment(2, 4.95, 15.2, '2024-05-03T10:00:00Z'),
      ],
      promotion: 10,
    });
    const second = figuresOf({ order, scope: { per: 'shipment', shipmentIndex: 2, withPromotion: false } });
    expect(second.lines.map((l) => [l.invoiceLineNumber, l.lineNumber, l.subtotal])).toEqual([
      [1, 3, '80.00'],
    ]);
    expect(second.summary).toEqual({
      subtotal: '80.00',
      tax: { amount: '15.20', taxableAmount: '80.00', percentageRate: '19' },
      shipping: '4.95',
      gross: '100.15',
      net: '100.15',
      due: '100.15',
    });
    const first = figuresOf({ order, scope: { per: 'shipment', shipmentIndex: 1, withPromotion: true } });
    expect(first.lines.map((l) => l.lineNumber)).toEqual([1]);
    expect(first.summary).toMatchObject({
      subtotal: '59.00',
      shipping: '9.90',
      discount: '10.00',
      gross: '80.11',
      due: '70.11',
    });
    expect(validateAgainstDtd(documentOf(second), 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
    expect(validateAgainstDtd(documentOf(first), 'InvoiceDetail')).toEqual({ ok: true, messages: '' });

    // Per order: every line, every shipment's shipping (shipping_total is the primary shipment's only).
    const whole = figuresOf({ order });
    expect(whole.summary).toMatchObject({ subtotal: '139.00', shipping: '14.85', discount: '10.00' });
    expect(whole.summary.tax.amount).toBe('26.41');
  });

  it('invoices a single-shipment order per shipment exactly as per order', () => {
    const order = printOrder({
      ...wholeOrder,
      items: wholeOrder.items,
      shipments: wholeOrder.shipments,
      promotion: 5,
    });
    expect(figuresOf({ order, scope: { per: 'shipment', shipmentIndex: 1, withPromotion: false } })).toEqual(
      figuresOf({ order }),
    );
  });

  it('takes the promotion as InvoiceDetailDiscount: Due = Subtotal + Tax + Shipping − Discount', () => {
    const order = printOrder({ items: wholeOrder.items, shipments: wholeOrder.shipments, promotion: 12.5 });
    const figures = figuresOf({ order });
    expect(figures.summary).toMatchObject({
      discount: '12.50',
      gross: '175.31',
      net: '162.81',
      due: '162.81',
    });
    const xml = documentOf(figures);
    expect(xml).toContain('<InvoiceDetailDiscount>');
    expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
  });

  it("uses the buyer's default tax and shipping only where the print order has none", () => {
    const bare = printOrder({ items: wholeOrder.items, shipments: [shipment(1, 0, 0)] });
    const withDefaults = { ...settings, defaultTaxPercent: '7.7', defaultShipping: '4.95' };
    const figures = figuresOf({ order: bare, settings: withDefaults });
    expect(figures.summary).toMatchObject({
      tax: { amount: '10.70', taxableAmount: '139.00', percentageRate: '7.7' },
      shipping: '4.95',
      gross: '154.65',
    });
    expect([figures.taxSource, figures.shippingSource]).toEqual(['config', 'config']);
    // Without defaults: no tax, no shipping.
    expect(figuresOf({ order: bare }).summary).toMatchObject({ tax: { amount: '0.00' }, shipping: '0.00' });
    // A shipment without tax or shipping of an order that has them elsewhere is not given the defaults.
    const split = printOrder({
      items: [item(501, 11, 59), item(502, 12, 80, 2)],
      shipments: [shipment(1, 9.9, 11.21), shipment(2, 0, 0)],
    });
    const second = figuresOf({
      order: split,
      settings: withDefaults,
      scope: { per: 'shipment', shipmentIndex: 2, withPromotion: false },
    });
    expect(second.summary).toMatchObject({ tax: { amount: '0.00' }, shipping: '0.00' });
    expect([second.taxSource, second.shippingSource]).toEqual(['print-order', 'print-order']);
  });

  it('negates every amount for a credit memo, which is a valid header invoice', () => {
    const order = printOrder({ items: wholeOrder.items, shipments: wholeOrder.shipments, promotion: 10 });
    const figures = creditMemoFigures(figuresOf({ order, settings: { ...settings, taxAt: 'line' } }));
    expect(figures.summary).toEqual({
      subtotal: '-139.00',
      tax: { amount: '-26.41', taxableAmount: '-139.00', percentageRate: '19' },
      shipping: '-9.90',
      discount: '-10.00',
      gross: '-175.31',
      net: '-165.31',
      due: '-165.31',
    });
    expect(figures.lines.map((l) => [l.unitPrice, l.subtotal, l.tax?.amount])).toEqual([
      ['0.118', '-59.00', '-11.21'],
      ['40.00', '-80.00', '-15.20'],
    ]);
    const xml = documentOf(figures, 'creditMemo');
    expect(xml).toContain('purpose="creditMemo"');
    expect(xml).toContain('<InvoiceIDInfo invoiceID="INV-000001"/>');
    expect(validateAgainstDtd(xml, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
  });

  describe('holds for an operator', () => {
    it('a print order whose items do not add up to its sub_total', () => {
      const order = { ...wholeOrder, sub_total: 140 };
      expect(holdsOf({ order })).toEqual([
        {
          reason: 'totals_do_not_add_up',
          message: "Print order 1042's items add up to 139.00 but its sub_total is 140.00.",
        },
      ]);
      // Rounding is not a difference.
      expect(holdsOf({ order: { ...wholeOrder, sub_total: 139.004 } })).toEqual([]);
    });

    /** The whole order with its second item (502) for `designId` at `subTotal`. */
    const withSecondItem = (designId: number, subTotal: number) =>
      printOrder({
        items: [item(501, 11, 59), item(502, designId, subTotal)],
        shipments: wholeOrder.shipments,
      });

    it('a price beyond the tolerance, naming the line and both amounts', () => {
      const order = withSecondItem(12, 82);
      expect(holdsOf({ order })).toEqual([
        {
          reason: 'price_beyond_tolerance',
          message:
            'PO line 3: the print order charges 41.00 a unit (item 502), the PO 40.00 (2.50% off), beyond the 1% tolerance.',
        },
      ]);
      // A wider tolerance lets it through, flagged.
      const figures = figuresOf({ order, settings: { ...settings, priceTolerancePercent: 2.5 } });
      expect(figures.deviations).toEqual([
        {
          lineNumbers: [3],
          printOrder: '41.00',
          po: '40.00',
          percent: '2.50',
          billed: 'po',
          beyondTolerance: false,
        },
      ]);
      expect(figures.summary.subtotal).toBe('139.00');
    });

    it("an operator's release bills the PO's price, or the print order's for the line concerned", () => {
      const order = withSecondItem(12, 82);
      const atPo = figuresOf({ order, prices: 'po' });
      expect(atPo.lines.map((l) => [l.lineNumber, l.unitPrice, l.subtotal])).toEqual([
        [1, '0.118', '59.00'],
        [3, '40.00', '80.00'],
      ]);
      expect(atPo.summary.subtotal).toBe('139.00');
      expect(deviationComments(atPo.deviations)).toBe(
        "Invoiced at the PO's prices, as the supplier's operator decided; the print order's differ beyond tolerance: line 3: print order 41.00, PO 40.00 (2.50%).",
      );
      const atPrintOrder = figuresOf({ order, prices: 'print-order' });
      expect(atPrintOrder.lines.map((l) => [l.lineNumber, l.unitPrice, l.subtotal])).toEqual([
        [1, '0.118', '59.00'],
        [3, '41.00', '82.00'],
      ]);
      expect(atPrintOrder.summary.subtotal).toBe('141.00');
      expect(deviationComments(atPrintOrder.deviations)).toBe(
        "Invoiced at the print order's prices, as the supplier's operator agreed: line 3: print order 41.00, PO 40.00 (2.50%).",
      );
      // A release changes nothing about the other reasons to hold.
      const inconsistent = { ...order, sub_total: 1 };
      expect(holdsOf({ order: inconsistent, prices: 'po' }).map((h) => h.reason)).toEqual([
        'totals_do_not_add_up',
      ]);
    });

    it('items that match no PO line, compared as a whole', () => {
      const order = withSecondItem(99, 95);
      expect(holdsOf({ order })).toEqual([
        {
          reason: 'price_beyond_tolerance',
          message:
            'PO line 3: the print order charges 95.00 a unit (item 502 (not matched to PO lines by design)), the PO 40.00 (137.50% off), beyond the 1% tolerance.',
        },
      ]);
    });

    it('nothing to invoice, a foreign currency, tax on nothing, a promotion beyond the total', () => {
      expect(
        holdsOf({
          order: printOrder({
            items: [item(501, 11, 59), item(502, 12, 80, 2)],
            shipments: [shipment(1, 0, 0), shipment(2, 0, 0)],
          }),
          scope: { per: 'shipment', shipmentIndex: 3, withPromotion: false },
        }),
      ).toEqual([{ reason: 'no_lines', message: 'Print order 1042 has no shipment 3: nothing to invoice.' }]);
      expect(holdsOf({ currency: 'USD' })).toEqual([
        { reason: 'currency_mismatch', message: 'PO lines 1, 3 are priced in EUR, the PO in USD.' },
      ]);
      const free = [poLine(1, 11, '1', '0')];
      expect(
        holdsOf({
          group: groupOf(free),
          order: printOrder({ items: [item(1, 11, 0)], shipments: [shipment(1, 0, 1)] }),
        }),
      ).toEqual([
        {
          reason: 'tax_without_items',
          message: 'Print order 1042 carries tax 1.00 on items totalling 0.00.',
        },
      ]);
      const generous = printOrder({
        items: wholeOrder.items,
        shipments: wholeOrder.shipments,
        promotion: 200,
      });
      expect(holdsOf({ order: generous })).toEqual([
        {
          reason: 'discount_exceeds_total',
          message: 'The promotion of 200.00 exceeds what print order 1042 bills (175.31).',
        },
      ]);
    });

    it('every reason at once, in one message', () => {
      const result = figuresFor({
        order: {
          ...printOrder({ items: [item(501, 11, 70), item(502, 12, 80)], shipments: wholeOrder.shipments }),
          sub_total: 1,
        },
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.holds.map((h) => h.reason)).toEqual(['totals_do_not_add_up', 'price_beyond_tolerance']);
      expect(result.message).toBe(
        "Print order 1042's items add up to 150.00 but its sub_total is 1.00. PO line 1: the print order charges 0.14 a unit (item 501), the PO 0.118 (18.64% off), beyond the 1% tolerance.",
      );
    });
  });

  it('writes deviations within tolerance as the Comments of the invoice', () => {
    expect(deviationComments([])).toBeUndefined();
    expect(
      deviationComments([
        {
          lineNumbers: [3],
          printOrder: '80.50',
          po: '80.00',
          percent: '0.63',
          billed: 'po',
          beyondTolerance: false,
        },
      ]),
    ).toBe(
      "Invoiced at the PO's prices; the print order's differ within tolerance: line 3: print order 80.50, PO 80.00 (0.63%).",
    );
  });

  it('adds up to the cent for any quantities, prices, tax, shipping and promotion', () => {
    const cents = (max: number) => fc.integer({ min: 0, max }).map((n) => (n / 100).toFixed(2));
    const lineArb = fc.record({
      quantity: fc.integer({ min: 1, max: 10_000 }),
      price: fc
        .tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 999 }))
        .map(([w, f]) => `${w}.${String(f).padStart(3, '0')}`),
    });
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 6 }),
        cents(100_000),
        cents(5_000),
        fc.integer({ min: 0, max: 100 }),
        fc.constantFrom('header', 'line'),
        (generated, taxText, shippingText, promotionPercent, taxAt) => {
          const poLines = generated.map((g, i) => poLine(i + 1, 100 + i, String(g.quantity), g.price));
          const itemTotals = poLines
            .map((l) => parseDecimal(l.quantity))
            .map((q, i) => {
              const total = addDecimals([
                { units: q.units * parseDecimal(poLines[i]!.unitPrice.value).units, scale: 3 },
              ]);
              return Number(`${total.units}e-${total.scale}`);
            });
          const order = printOrder({
            items: itemTotals.map((total, i) => item(900 + i, 100 + i, total, 1, generated[i]!.quantity)),
            shipments: [shipment(1, Number(shippingText), Number(taxText))],
          });
          // A promotion up to the order's items total, so the invoice never goes below zero.
          const promotion = Math.floor((order.sub_total * promotionPercent) / 100);
          const result = figuresFor({
            order: { ...order, promotion_total: promotion },
            group: groupOf(poLines),
            settings: { taxAt, priceTolerancePercent: 1 },
          });
          if (!result.ok) throw new Error(result.message);
          const { summary, lines: invoiced } = result.figures;
          const d = (text: string | undefined) => parseDecimal(text ?? '0', { signed: true });
          const same = (a: ReturnType<typeof d>, b: ReturnType<typeof d>) =>
            expect(addDecimals([a, { units: -b.units, scale: b.scale }]).units).toBe(0n);
          same(
            d(summary.due),
            addDecimals([
              d(summary.subtotal),
              d(summary.tax.amount),
              d(summary.shipping),
              { ...d(summary.discount), units: -d(summary.discount).units },
            ]),
          );
          same(d(summary.net), d(summary.due));
          same(
            d(summary.gross),
            addDecimals([d(summary.subtotal), d(summary.tax.amount), d(summary.shipping)]),
          );
          same(d(summary.subtotal), addDecimals(invoiced.map((l) => d(l.subtotal))));
          if (taxAt === 'line')
            same(d(summary.tax.amount), addDecimals(invoiced.map((l) => d(l.tax?.amount))));
          const amounts = [
            summary.subtotal,
            summary.tax.amount,
            summary.shipping,
            summary.discount ?? '0.00',
            summary.gross,
            summary.net,
            summary.due,
            ...invoiced.flatMap((l) => [l.subtotal, ...(l.tax === undefined ? [] : [l.tax.amount])]),
          ];
          for (const amount of amounts) expect(amount).toMatch(/^\d+\.\d{2}$/);
          expect(result.figures.deviations).toEqual([]);
          // The builder's own checks agree.
          expect(() => documentOf(result.figures)).not.toThrow();
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('which invoices are due, and their ids', () => {
  const shipped = printOrder({
    items: [item(501, 11, 59), item(502, 12, 80, 2)],
    shipments: [shipment(1, 0, 0, null), shipment(2, 0, 0, '2024-05-03T10:00:00Z')],
    invoiceNumber: ' 2024-117 ',
    status: 'Partially Shipped',
  });
  const on = (extra: Partial<InvoiceConfig>) => ({ send: 'on-ship' as const, ...extra });
  /** The same print order once its first shipment has shipped too. */
  const allShipped = {
    ...shipped,
    shipments: shipped.shipments.map((s) => ({ ...s, shipped_on: '2024-05-04T10:00:00Z' })),
  };

  it('per shipment: each shipped shipment once, the first one invoiced with the promotion', () => {
    expect(invoicesDue(shipped, on({}), [])).toEqual([
      { per: 'shipment', shipmentIndex: 2, withPromotion: true },
    ]);
    expect(invoicesDue(allShipped, on({}), ['shipment:2'])).toEqual([
      { per: 'shipment', shipmentIndex: 1, withPromotion: false },
    ]);
    expect(invoicesDue(allShipped, on({}), [])).toEqual([
      { per: 'shipment', shipmentIndex: 1, withPromotion: true },
      { per: 'shipment', shipmentIndex: 2, withPromotion: false },
    ]);
  });

  it('per order once every shipment has shipped; on-status when the status is reached, case ignored', () => {
    expect(invoicesDue(shipped, on({ per: 'order' }), [])).toEqual([]);
    expect(invoicesDue(allShipped, on({ per: 'order' }), [])).toEqual([{ per: 'order' }]);
    expect(invoicesDue(allShipped, on({ per: 'order' }), ['order'])).toEqual([]);
    const status = { send: 'on-status' as const, status: 'partially shipped' };
    expect(invoicesDue(shipped, status, [])).toEqual([{ per: 'order' }]);
    expect(invoicesDue({ ...shipped, status: 'Printing' }, status, [])).toEqual([]);
    expect(invoicesDue(shipped, { send: 'off' }, [])).toEqual([]);
  });

  it('makes gateway ids, print-service ids and credit memo ids', () => {
    expect(gatewayInvoiceId('INV-', 42)).toBe('INV-000042');
    expect(gatewayInvoiceId('', 1234567)).toBe('1234567');
    expect(() => gatewayInvoiceId('INV-', 0)).toThrow(RangeError);
    const scope: InvoiceScope = { per: 'shipment', shipmentIndex: 2, withPromotion: false };
    expect(printServiceInvoiceId(shipped, scope)).toBe('2024-117-2');
    expect(printServiceInvoiceId(shipped, { per: 'order' })).toBe('2024-117');
    expect(printServiceInvoiceId({ ...shipped, invoice_number: '  ' }, scope)).toBeUndefined();
    expect(creditMemoInvoiceId('INV-000042')).toBe('INV-000042-CR');
  });

  it("names the remit-to from the buyer's settings, else the supplier, and the bill-to from the PO", () => {
    expect(invoicePartners(undefined, undefined, undefined)).toEqual([]);
    expect(invoicePartners(undefined, 'PrintCo', undefined)).toEqual([{ role: 'remitTo', name: 'PrintCo' }]);
    expect(
      invoicePartners(
        {
          name: 'PrintCo GmbH',
          street: ['Hauptstraße 1'],
          city: 'Berlin',
          postalCode: '10115',
          country: 'DE',
        },
        'ignored',
        {
          name: 'Acme AP',
          deliverTo: [],
          street: ['1 Main St'],
          city: 'Springfield',
          isoCountryCode: 'US',
          email: 'ap@acme.example',
        },
      ),
    ).toEqual([
      {
        role: 'remitTo',
        name: 'PrintCo GmbH',
        address: { street: ['Hauptstraße 1'], city: 'Berlin', postalCode: '10115', isoCountryCode: 'DE' },
      },
      {
        role: 'billTo',
        name: 'Acme AP',
        address: { deliverTo: [], street: ['1 Main St'], city: 'Springfield', isoCountryCode: 'US' },
        email: 'ap@acme.example',
      },
    ]);
  });
});

describe('the PO’s charges', () => {
  /** The PO above with the cart's charges: 9.90 shipping, 19 % of 139.00 = 26.41 tax. */
  const poCharges = {
    shipping: { value: '9.90', currency: 'EUR' },
    tax: { value: '26.41', currency: 'EUR' },
    linesTotal: '139.00',
  };
  const dearerShipping = printOrder({
    items: [item(501, 11, 59), item(502, 12, 80)],
    shipments: [shipment(1, 12, 26.41, '2024-05-02T10:00:00Z')],
  });

  it('where the print order charges the same, the PO’s figures are billed, nothing flagged', () => {
    const figures = figuresOf({ poCharges });
    expect([figures.summary.shipping, figures.summary.tax.amount, figures.summary.due]).toEqual([
      '9.90',
      '26.41',
      '175.31',
    ]);
    expect([figures.taxSource, figures.shippingSource, figures.deviations]).toEqual(['po', 'po', []]);
  });

  it('beyond the tolerance held with both figures; an operator bills either side', () => {
    expect(figuresFor({ order: dearerShipping, poCharges })).toMatchObject({
      ok: false,
      message: 'The print order charges shipping 12.00, the PO 9.90 (21.21% off), beyond the 1% tolerance.',
    });
    const atPo = figuresOf({ order: dearerShipping, poCharges, prices: 'po' });
    const atPrintOrder = figuresOf({ order: dearerShipping, poCharges, prices: 'print-order' });
    expect([atPo.summary.shipping, atPrintOrder.summary.shipping]).toEqual(['9.90', '12.00']);
    expect(deviationComments(atPrintOrder.deviations)).toBe(
      "Invoiced at the print order's prices, as the supplier's operator agreed: shipping: print order 12.00, PO 9.90 (21.21%).",
    );
  });

  it('a charge the PO lacks: billed from the print order, or held with chargesNotOnPo hold', () => {
    const noTax = { shipping: poCharges.shipping, linesTotal: poCharges.linesTotal };
    expect(figuresOf({ poCharges: noTax }).summary.tax.amount).toBe('26.41');
    expect(figuresFor({ poCharges: noTax, settings: { ...settings, chargesNotOnPo: 'hold' } })).toMatchObject(
      {
        ok: false,
        message:
          "The print order charges tax 26.41 and the PO carries none; the buyer's invoices hold charges not on the PO.",
      },
    );
    const waived = figuresOf({
      poCharges: noTax,
      settings: { ...settings, chargesNotOnPo: 'hold' },
      prices: 'po',
    });
    expect([waived.summary.tax.amount, waived.summary.due]).toEqual(['0.00', '148.90']);
  });
});
