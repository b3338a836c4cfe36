/**
 * Invoices end to end in process (issue 19): a punched-out PO placed on the sandbox print service (which
 * charges PIPO orders tax, shipping and a promotion from its seed), shipped or moved on by the print
 * shop, and the InvoiceDetailRequests (and credit memos) the gateway posts to the buyer: DTD-valid, their
 * lines the PO's, their amounts the print order's shipping, tax and promotion, exactly once however often
 * the webhook comes or the reconciliation looks; held for an operator when the print order's figures are
 * wrong; retried while the buyer refuses them; re-sent byte for byte.
 */
import type { SandboxSeedInput } from '@punchgate/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput, InvoiceConfig } from '../../../schemas/config.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  adminJson,
  type CartLineOut,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  parseXml,
  printOrdersFor,
  punchOut,
  sendOrder,
  type XmlTree,
} from '../../support/order-flow.ts';
import { cxmlStatusAnswer, GATEWAY_ORIGIN, type StackOptions } from '../../support/stack.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

type InvoiceSettings = Partial<InvoiceConfig>;

/** The order config with the acme buyer (and any other named) invoiced as `invoices` says. */
function invoiceConfig(invoices: InvoiceSettings, buyers: string[] = ['acme']): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    buyers: base.buyers.map((b) => (buyers.includes(b.id) ? { ...b, invoices } : b)),
  };
}

/**
 * The demo seed as these tests price it: the demo shop with the PUNCHOUT5 promotion (5.00 off every PIPO
 * order) and its PIPO items at quantity 1, whatever the job ticket says, so the print order's figures differ
 * from the PO's in every way an invoice must handle.
 */
function withPromotionAndUnitItems(seed: SandboxSeedInput): SandboxSeedInput {
  const storefront = seed.licenses[0]?.storefronts?.[0];
  if (storefront === undefined) throw new Error('the seed has no demo storefront');
  storefront.pipoCharges = { ...storefront.pipoCharges, promotion: { code: 'PUNCHOUT5', amount: 5 } };
  for (const product of storefront.products ?? []) product.priceTiers = [];
  return seed;
}

async function invoiceStack(invoices: InvoiceSettings, options: StackOptions = {}): Promise<OrderStack> {
  const seed = (input: SandboxSeedInput) => withPromotionAndUnitItems(options.seed?.(input) ?? input);
  const stack = await createOrderStack(invoiceConfig(invoices), { ...options, seed });
  await stack.worker.startup();
  return stack;
}

interface Placed {
  po: { id: string };
  printOrderId: number;
  cart: CartLineOut[];
  payloadID: string;
  orderID: string;
}

/** A punched-out cart of `products` ordered by acme as `orderID` and placed on the print service. */
async function placedOrder(
  stack: OrderStack,
  orderID: string,
  products: string[] = ['Business cards'],
): Promise<Placed> {
  const cart = await punchOut(stack, products);
  const payloadID = `${orderID}@ariba.example`;
  expect(await sendOrder(stack, { payloadID, orderID, lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  const po = await stack.store.orders.getByPayloadId('acme', payloadID);
  if (po === undefined || printOrderId === undefined) throw new Error('the order was not placed');
  return { po, printOrderId, cart, payloadID, orderID };
}

const asList = (value: XmlTree): XmlTree[] => (value === undefined ? [] : [value].flat());
const money = (node: XmlTree): string => `${node.Money['#text']} ${node.Money['@currency']}`;

/** The InvoiceDetailRequests the buyer received, read for assertions. */
function invoicesReceived(stack: Pick<OrderStack, 'orderStatusPosts'>) {
  return stack.orderStatusPosts
    .map((post) => ({ post, doc: parseXml(post.body).cXML as XmlTree }))
    .filter(({ doc }) => doc?.Request?.InvoiceDetailRequest !== undefined)
    .map(({ post, doc }) => {
      const request = doc.Request.InvoiceDetailRequest;
      const header = request.InvoiceDetailRequestHeader;
      const order = request.InvoiceDetailOrder ?? request.InvoiceDetailHeaderOrder;
      const summary = request.InvoiceDetailSummary;
      const reference = order.InvoiceDetailOrderInfo.OrderReference;
      return {
        url: post.url,
        body: post.body,
        payloadID: doc['@payloadID'],
        invoiceID: header['@invoiceID'],
        purpose: header['@purpose'],
        isTaxInLine: header.InvoiceDetailLineIndicator['@isTaxInLine'],
        isHeaderInvoice: header.InvoiceDetailHeaderIndicator['@isHeaderInvoice'],
        credits: header.InvoiceIDInfo?.['@invoiceID'],
        comments: header.Comments?.['#text'],
        orderReference: {
          orderID: reference['@orderID'],
          payloadID: reference.DocumentReference['@payloadID'],
        },
        supplierOrderID: order.InvoiceDetailOrderInfo.SupplierOrderInfo?.['@orderID'],
        lines: asList(order.InvoiceDetailItem).map((item) => ({
          invoiceLineNumber: item['@invoiceLineNumber'],
          lineNumber: item.InvoiceDetailItemReference['@lineNumber'],
          quantity: item['@quantity'],
          unitPrice: money(item.UnitPrice),
          part: item.InvoiceDetailItemReference.ItemID.SupplierPartID,
          aux: item.InvoiceDetailItemReference.ItemID.SupplierPartAuxiliaryID,
          subtotal: money(item.SubtotalAmount),
          ...(item.Tax !== undefined && { tax: money(item.Tax) }),
        })),
        summary: {
          subtotal: money(summary.SubtotalAmount),
          tax: money(summary.Tax),
          shipping: summary.ShippingAmount === undefined ? undefined : money(summary.ShippingAmount),
          gross: money(summary.GrossAmount),
          discount:
            summary.InvoiceDetailDiscount === undefined ? undefined : money(summary.InvoiceDetailDiscount),
          net: money(summary.NetAmount),
          due: money(summary.DueAmount),
        },
        dtd: validateAgainstDtd(post.body, 'InvoiceDetail'),
      };
    });
}

const DTD_OK = { ok: true, messages: '' };

async function webhookUrl(stack: OrderStack): Promise<string> {
  return (await stack.api.listHooks()).find((h) => h.event === 'order_updated')?.target_url ?? '';
}

/** The print service's order_updated delivery for the order again, as a service that repeats itself. */
async function repeatWebhook(stack: OrderStack, printOrderId: number): Promise<void> {
  const answer = await stack.gateway.app.fetch(
    new Request(await webhookUrl(stack), {
      method: 'POST',
      body: JSON.stringify([await stack.api.getOrder(printOrderId)]),
      headers: { 'Content-Type': 'application/json' },
    }),
  );
  expect(answer.status).toBe(202);
  await drain(stack);
}

async function invoiceHolds(stack: OrderStack, poId: string) {
  const answer = await adminJson(stack, `/admin/orders/${poId}/invoices`);
  return answer.body.holds;
}

async function invoiceList(stack: OrderStack, poId: string) {
  const { status, body } = await adminJson(stack, `/admin/orders/${poId}/invoices`);
  expect(status).toBe(200);
  return body.items as XmlTree[];
}

/**
 * A punched-out order of two products, placed as one print order, whose second product the print shop
 * then splits into a shipment of its own (shipment 2); answers the items of the two shipments.
 */
async function splitOrder(stack: OrderStack, orderID: string, products = ['Business cards', 'A5 flyer']) {
  const placed = await placedOrder(stack, orderID, products);
  const order = await stack.api.getOrder(placed.printOrderId);
  const itemOf = (line: CartLineOut | undefined) => {
    const item = order.items.find((i) => i.product_id === line?.designId);
    if (item === undefined) throw new Error('no print item for the line');
    return item.id;
  };
  const [first, second] = placed.cart;
  stack.sandbox.control.splitShipment(placed.printOrderId, {
    itemIds: [itemOf(second)],
    provider: 'FedEx',
    service: '2Day',
  });
  await drain(stack);
  return { ...placed, firstItem: itemOf(first), secondItem: itemOf(second) };
}

/** The buyer answers invoices with `answer`, everything else with a cXML 200. */
function answerInvoices(stack: OrderStack, answer: () => Response): void {
  stack.answerOrderStatus = (post) =>
    post.body.includes('<InvoiceDetailRequest>') ? answer() : cxmlStatusAnswer(200, 'OK');
}

async function metricLines(stack: OrderStack, name: string): Promise<string[]> {
  const text = await (await stack.request(`${GATEWAY_ORIGIN}/metrics`)).text();
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

const SHIPPED = { trackingNumber: '1Z999AA10123456784' };

/**
 * The invoice of the business cards (100 at 0.12 USD) shipped alone: the print order's tax rate (0.01 on
 * 0.12) on the PO's 12.00, its shipping, its promotion off.
 */
const CARDS_SUMMARY = {
  subtotal: '12.00 USD',
  tax: '1.00 USD',
  shipping: '9.95 USD',
  gross: '22.95 USD',
  discount: '5.00 USD',
  net: '17.95 USD',
  due: '17.95 USD',
};

/** Marks the print order shipped and lets the gateway work; answers the one invoice the buyer received. */
async function invoiceOnShipping(stack: OrderStack, printOrderId: number) {
  await stack.api.markShipped(printOrderId, SHIPPED);
  await drain(stack);
  const invoices = invoicesReceived(stack);
  expect(invoices).toHaveLength(1);
  return invoices[0]!;
}

/** Marks the print order shipped and lets the gateway work, then again an hour later. */
async function shippedAnHourAgo(stack: OrderStack, printOrderId: number): Promise<void> {
  await stack.api.markShipped(printOrderId, SHIPPED);
  await drain(stack);
  stack.clock.advance(3600);
  await drain(stack);
}

describe('invoices on ship', () => {
  it('shipping a punched-out order sends one DTD-valid invoice of the PO lines with the print order’s shipping, tax and promotion', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId, cart, payloadID } = await placedOrder(stack, 'PO-INV-SHIP');
    expect(invoicesReceived(stack)).toEqual([]);
    // As the sandbox charges a PIPO order: one card at 0.12, 8.25 % tax (0.01), 9.95 shipping, PUNCHOUT5.
    const charged = await stack.api.getOrder(printOrderId);
    expect([charged.sub_total, charged.tax_total, charged.shipping_total, charged.promotion_total]).toEqual([
      0.12, 0.01, 9.95, 5,
    ]);

    const invoice = await invoiceOnShipping(stack, printOrderId);
    expect(invoice).toMatchObject({
      url: 'https://s1-eu.ariba.example/cxml/order-status',
      invoiceID: 'INV-000001',
      purpose: 'standard',
      isTaxInLine: undefined,
      isHeaderInvoice: undefined,
      orderReference: { orderID: 'PO-INV-SHIP', payloadID },
      supplierOrderID: String(printOrderId),
      comments: undefined,
      dtd: DTD_OK,
    });
    expect(invoice.lines).toEqual([
      {
        invoiceLineNumber: '1',
        lineNumber: '1',
        quantity: '100',
        unitPrice: '0.12 USD',
        part: 'BC-STD',
        aux: cart[0]?.lineRef,
        subtotal: '12.00 USD',
      },
    ]);
    // The print order's tax rate (0.01 on 0.12) on the PO's 12.00, its shipping, its promotion off.
    expect(invoice.summary).toEqual(CARDS_SUMMARY);
    expect(await invoiceList(stack, po.id)).toMatchObject([
      {
        invoiceId: 'INV-000001',
        purpose: 'standard',
        scope: 'shipment:1',
        printOrderId,
        amounts: {
          currency: 'USD',
          subtotal: '12.00',
          tax: '1.00',
          shipping: '9.95',
          discount: '5.00',
          due: '17.95',
        },
        creditsInvoice: null,
        sequence: 1,
        deliveries: [{ kind: 'invoice', state: 'delivered', attempts: 1, lastError: null }],
      },
    ]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });
    expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'ordered', flags: [] });
    expect(await metricLines(stack, 'punchgate_invoices_total')).toEqual([
      'punchgate_invoices_total{purpose="standard",outcome="issued"} 1',
    ]);
  });

  it('a repeated webhook, the reconciliation and more ticks send no second invoice', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-ONCE');
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(invoicesReceived(stack)).toHaveLength(1);

    await repeatWebhook(stack, printOrderId);
    await repeatWebhook(stack, printOrderId);
    stack.clock.advance(3600);
    await drain(stack);
    await stack.worker.tick();
    await drain(stack);

    expect(invoicesReceived(stack)).toHaveLength(1);
    const messages = (await stack.store.outbox.list({ poId: po.id })).items;
    expect(messages.filter((m) => m.kind === 'invoice')).toHaveLength(1);
    const listed = await invoiceList(stack, po.id);
    expect(listed.map((i) => [i.invoiceId, i.deliveries.map((d: XmlTree) => d.state)])).toEqual([
      ['INV-000001', ['delivered']],
    ]);
  });

  it('taxAt line: each line carries its share of the tax, summed in the summary, with isTaxInLine', async () => {
    const stack = await invoiceStack({ send: 'on-ship', taxAt: 'line' });
    const { printOrderId } = await placedOrder(stack, 'PO-INV-LINE', ['Business cards', 'A5 flyer']);
    // 0.12 + 0.35 taxed 0.04 (8.25 % of 0.47, rounded): 8.5106 % on each PO line.
    expect((await stack.api.getOrder(printOrderId)).tax_total).toBe(0.04);
    const invoice = await invoiceOnShipping(stack, printOrderId);
    expect(invoice).toMatchObject({ isTaxInLine: 'yes', dtd: DTD_OK });
    expect(invoice.lines.map((l) => [l.lineNumber, l.quantity, l.subtotal, l.tax])).toEqual([
      ['1', '100', '12.00 USD', '1.02 USD'],
      ['2', '1', '0.35 USD', '0.03 USD'],
    ]);
    expect(invoice.summary).toEqual({
      subtotal: '12.35 USD',
      tax: '1.05 USD',
      shipping: '9.95 USD',
      gross: '23.35 USD',
      discount: '5.00 USD',
      net: '18.35 USD',
      due: '18.35 USD',
    });
  });

  it('taxAt header: one Tax in the summary, none on the lines', async () => {
    const stack = await invoiceStack({ send: 'on-ship', taxAt: 'header' });
    const { printOrderId } = await placedOrder(stack, 'PO-INV-HEADER', ['Business cards', 'A5 flyer']);
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    const [invoice] = invoicesReceived(stack);
    expect(invoice).toMatchObject({ isTaxInLine: undefined, dtd: DTD_OK });
    expect(invoice?.lines.map((l) => l.tax)).toEqual([undefined, undefined]);
    expect(invoice?.summary).toMatchObject({ subtotal: '12.35 USD', tax: '1.05 USD', due: '18.35 USD' });
  });
});

describe('split shipments', () => {
  it('per shipment: an invoice per shipment with its own shipping and tax, the promotion on the first', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const split = await splitOrder(stack, 'PO-INV-SPLIT');
    const { po, printOrderId, firstItem: cardsItem, secondItem: flyersItem } = split;
    const charged = await stack.api.getOrder(printOrderId);
    expect(charged.shipments.map((s) => [s.index, s.shipping_total, s.tax_total])).toEqual([
      [1, 9.95, 0.01],
      [2, 9.95, 0.03],
    ]);
    await stack.api.markShipped(printOrderId, { itemId: cardsItem, trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    expect(invoicesReceived(stack).map((i) => i.invoiceID)).toEqual(['INV-000001']);
    // The second shipment is still to come: the print order is open, and a repeated webhook adds nothing.
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'open' });
    await repeatWebhook(stack, printOrderId);
    expect(invoicesReceived(stack)).toHaveLength(1);

    await stack.api.markShipped(printOrderId, { itemId: flyersItem, trackingNumber: '7489 2200 1234' });
    await drain(stack);
    const [first, second] = invoicesReceived(stack);
    expect(invoicesReceived(stack)).toHaveLength(2);
    expect(first).toMatchObject({ invoiceID: 'INV-000001', dtd: DTD_OK });
    expect(first?.lines.map((l) => [l.lineNumber, l.part, l.quantity])).toEqual([['1', 'BC-STD', '100']]);
    expect(first?.summary).toEqual(CARDS_SUMMARY);
    expect(second).toMatchObject({ invoiceID: 'INV-000002', dtd: DTD_OK });
    expect(second?.lines.map((l) => [l.invoiceLineNumber, l.lineNumber, l.part, l.quantity])).toEqual([
      ['1', '2', 'FLY-A5', '1'],
    ]);
    expect(second?.summary).toEqual({
      subtotal: '0.35 USD',
      tax: '0.03 USD',
      shipping: '9.95 USD',
      gross: '10.33 USD',
      discount: undefined,
      net: '10.33 USD',
      due: '10.33 USD',
    });
    expect((await invoiceList(stack, po.id)).map((i) => [i.invoiceId, i.scope, i.amounts.due])).toEqual([
      ['INV-000001', 'shipment:1', '17.95'],
      ['INV-000002', 'shipment:2', '10.33'],
    ]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });
  });

  it('per order: one invoice once every shipment has shipped, with both shipments’ shipping and tax', async () => {
    const stack = await invoiceStack({ send: 'on-ship', per: 'order' });
    const split = await splitOrder(stack, 'PO-INV-PERORDER');
    const { printOrderId, firstItem: cardsItem, secondItem: flyersItem } = split;
    await stack.api.markShipped(printOrderId, { itemId: cardsItem, trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    expect(invoicesReceived(stack)).toEqual([]);
    await stack.api.markShipped(printOrderId, { itemId: flyersItem, trackingNumber: '7489 2200 1234' });
    await drain(stack);
    const invoices = invoicesReceived(stack);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ invoiceID: 'INV-000001', dtd: DTD_OK });
    expect(invoices[0]?.lines.map((l) => l.lineNumber)).toEqual(['1', '2']);
    expect(invoices[0]?.summary).toEqual({
      subtotal: '12.35 USD',
      tax: '1.05 USD',
      shipping: '19.90 USD',
      gross: '33.30 USD',
      discount: '5.00 USD',
      net: '28.30 USD',
      due: '28.30 USD',
    });
  });
  it('a held first shipment passes the promotion on to the next invoice rather than lose it', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const split = await splitOrder(stack, 'PO-INV-SPLITHELD', ['Custom-size poster', 'Business cards']);
    const { po, printOrderId, firstItem: posterItem, secondItem: cardsItem } = split;
    // Both shipments ship while the webhooks are lost: the poll sees them at one look.
    stack.webhooksLost = true;
    await stack.api.markShipped(printOrderId, { itemId: posterItem, trackingNumber: '1Z999AA10123456784' });
    await stack.api.markShipped(printOrderId, { itemId: cardsItem, trackingNumber: '7489 2200 1234' });
    await drain(stack);
    stack.webhooksLost = false;
    stack.clock.advance(3600);
    await drain(stack);

    const invoices = invoicesReceived(stack);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]?.lines.map((l) => l.part)).toEqual(['BC-STD']);
    expect(invoices[0]?.summary).toEqual(CARDS_SUMMARY);
    expect((await invoiceList(stack, po.id)).map((i) => i.scope)).toEqual(['shipment:2']);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_held'],
    });
  });
});

/** Storefront 1's statuses with "Delivered" after "Order Shipped", for an invoice on a later status. */
const withDelivered = (seed: SandboxSeedInput): SandboxSeedInput => {
  const storefront = seed.licenses[0]?.storefronts?.[0] as XmlTree;
  const shipped = storefront.statuses.findIndex((s: XmlTree) => s.name === 'Order Shipped');
  storefront.statuses.splice(shipped + 1, 0, { name: 'Delivered' });
  return seed;
};

describe('invoices on status', () => {
  it('the invoice waits for the status, after shipping too, and the print order stays open until then', async () => {
    const stack = await invoiceStack({ send: 'on-status', status: 'delivered' }, { seed: withDelivered });
    const { printOrderId } = await placedOrder(stack, 'PO-INV-STATUS');
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'In Production' });
    await drain(stack);
    await shippedAnHourAgo(stack, printOrderId);
    expect(invoicesReceived(stack)).toEqual([]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      state: 'open',
      lastStatus: 'Order Shipped',
    });

    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Delivered' });
    await drain(stack);
    await repeatWebhook(stack, printOrderId);
    const invoices = invoicesReceived(stack);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ invoiceID: 'INV-000001', dtd: DTD_OK });
    expect(invoices[0]?.summary.due).toBe('17.95 USD');
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });
  });
});

describe('invoices held for an operator', () => {
  it('totals that do not add up hold the invoice; once restored, invoice now issues it once', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-HELD');
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: 99.99 });
    await drain(stack);
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(invoicesReceived(stack)).toEqual([]);
    const reason = `Invoice not sent: Print order ${printOrderId}'s items add up to 0.12 but its sub_total is 99.99.`;
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_held'],
      lastError: reason,
    });
    expect(await invoiceList(stack, po.id)).toEqual([]);
    // Held keeps the print order open (the poll looks again), and is counted once.
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'open' });
    stack.clock.advance(3600);
    await drain(stack);
    expect(await metricLines(stack, 'punchgate_invoices_total')).toEqual([
      'punchgate_invoices_total{purpose="standard",outcome="held"} 1',
    ]);

    // The print shop puts its figures right while the webhooks are lost; the operator invoices now.
    stack.webhooksLost = true;
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: null });
    await drain(stack);
    const now = await adminJson(stack, `/admin/orders/${po.id}/invoice`, { method: 'POST' });
    expect(now.status).toBe(200);
    expect(now.body.items.map((i: XmlTree) => [i.invoiceId, i.amounts.due])).toEqual([
      ['INV-000001', '17.95'],
    ]);
    await drain(stack);
    const again = await adminJson(stack, `/admin/orders/${po.id}/invoice`, { method: 'POST' });
    expect(again.body.items.map((i: XmlTree) => i.invoiceId)).toEqual(['INV-000001']);
    stack.webhooksLost = false;
    stack.clock.advance(3600);
    await drain(stack);
    await repeatWebhook(stack, printOrderId);

    const invoices = invoicesReceived(stack);
    expect(invoices.map((i) => [i.invoiceID, i.summary.due, i.dtd.ok])).toEqual([
      ['INV-000001', '17.95 USD', true],
    ]);
    // Nothing is left for the operator: the PO is ordered again, the flag its record.
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'ordered',
      flags: ['invoice_held'],
      lastError: `Invoice INV-000001 sent after it waited: ${reason}`,
    });
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });
  });

  it('a held invoice outlives mark handled, a retry and every later look, until an operator waives it', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-HANDLED');
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: 99.99 });
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    const reason = "Invoice not sent: Print order 4711's items add up to 0.12 but its sub_total is 99.99.";
    const waiting = { state: 'needs_operator', lastError: reason.replace('4711', String(printOrderId)) };
    expect(await stack.store.orders.get(po.id)).toMatchObject(waiting);
    expect(await metricLines(stack, 'punchgate_invoices_held')).toEqual(['punchgate_invoices_held 1']);

    const handled = await adminJson(stack, `/admin/orders/${po.id}/handled`, {
      method: 'POST',
      body: JSON.stringify({ note: 'Called the buyer.' }),
    });
    expect(handled.status).toBe(200);
    expect(handled.body.order).toMatchObject({ state: 'needs_operator' });
    const retried = await adminJson(stack, `/admin/orders/${po.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    stack.clock.advance(3600);
    await drain(stack);
    await repeatWebhook(stack, printOrderId);
    await drain(stack);
    expect(await stack.store.orders.get(po.id)).toMatchObject(waiting);
    expect(invoicesReceived(stack)).toEqual([]);
    // One hold, counted once however often it was looked at.
    expect(await metricLines(stack, 'punchgate_invoices_total')).toEqual([
      'punchgate_invoices_total{purpose="standard",outcome="held"} 1',
    ]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'open' });

    // Its figures cannot be released at either price: refused, nothing changed.
    const release = await adminJson(stack, `/admin/orders/${po.id}/invoice`, {
      method: 'POST',
      body: JSON.stringify({ prices: 'po' }),
    });
    expect(release.status).toBe(409);
    expect(release.body.error.message).toBe(
      `Nothing was invoiced: at the PO's prices the invoice would still be held — print order ${printOrderId} (shipment 1): Print order ${printOrderId}'s items add up to 0.12 but its sub_total is 99.99. Put the print order right, or waive the invoice.`,
    );
    const waived = await adminJson(stack, `/admin/orders/${po.id}/waive-invoice`, {
      method: 'POST',
      body: JSON.stringify({ note: 'Invoiced by hand in the buyer portal.' }),
    });
    expect(waived.status).toBe(200);
    expect(waived.body.holds).toMatchObject([
      { state: 'waived', note: 'Invoiced by hand in the buyer portal.', invoiceId: null },
    ]);
    expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'ordered' });
    expect(await metricLines(stack, 'punchgate_invoices_held')).toEqual(['punchgate_invoices_held 0']);
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: null });
    stack.clock.advance(3600);
    await drain(stack);
    await repeatWebhook(stack, printOrderId);
    await drain(stack);
    expect(invoicesReceived(stack)).toEqual([]);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });
    const again = await adminJson(stack, `/admin/orders/${po.id}/waive-invoice`, {
      method: 'POST',
      body: JSON.stringify({ note: 'again' }),
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`Purchase order record ${po.id} has no held invoice to waive.`);
  });

  it('a retry after the print order was put right sends the held invoice at once and ends the wait', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-RIGHTED');
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: 99.99 });
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'needs_operator' });
    // Put right at the print service; the retry reads it as it stands now, with no round in between.
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: null });
    const retried = await adminJson(stack, `/admin/orders/${po.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'ordered' });
    expect(await invoiceHolds(stack, po.id)).toMatchObject([{ state: 'invoiced', invoiceId: 'INV-000001' }]);
    await drain(stack);
    expect(invoicesReceived(stack).map((invoice) => invoice.summary.due)).toEqual(['17.95 USD']);
    expect(await metricLines(stack, 'punchgate_invoices_held')).toEqual(['punchgate_invoices_held 0']);
  });

  it("a held price is released at the PO's price or the print order's, once, by the operator's choice", async () => {
    for (const [prices, unitPrice, due] of [
      ['po', '18.50 USD', '24.98 USD'],
      ['print-order', '19.75 USD', '26.33 USD'],
    ] as const) {
      const stack = await invoiceStack({ send: 'on-ship' });
      const { po, printOrderId } = await placedOrder(stack, `PO-INV-RELEASE-${prices}`, [
        'Custom-size poster',
      ]);
      await stack.api.markShipped(printOrderId, SHIPPED);
      await drain(stack);
      expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'needs_operator' });
      const [hold] = (await invoiceHolds(stack, po.id)) as XmlTree[];
      expect(hold).toMatchObject({
        state: 'held',
        amounts: { currency: 'USD', atPoPrices: '24.98', atPrintOrderPrices: '26.33' },
      });
      // A retry looks at the invoice again; the hold keeps the PO waiting, in the queue throughout.
      expect((await adminJson(stack, `/admin/orders/${po.id}/retry`, { method: 'POST' })).status).toBe(202);
      expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'needs_operator' });
      await drain(stack);
      expect(await stack.store.orders.get(po.id)).toMatchObject({
        state: 'needs_operator',
        flags: ['invoice_held'],
      });

      const released = await adminJson(stack, `/admin/orders/${po.id}/invoice`, {
        method: 'POST',
        body: JSON.stringify({ prices }),
      });
      expect(released.status).toBe(200);
      expect(released.body.holds).toMatchObject([{ state: 'invoiced', prices, invoiceId: 'INV-000001' }]);
      await drain(stack);
      const [invoice] = invoicesReceived(stack);
      expect(invoice?.lines.map((l) => l.unitPrice)).toEqual([unitPrice]);
      expect(invoice?.summary).toMatchObject({ due });
      expect(invoice?.dtd).toEqual(DTD_OK);
      expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'ordered' });
      // Asked again: the invoice is found, never a second one.
      await adminJson(stack, `/admin/orders/${po.id}/invoice`, {
        method: 'POST',
        body: JSON.stringify({ prices }),
      });
      await drain(stack);
      expect(invoicesReceived(stack)).toHaveLength(1);
      const bad = await adminJson(stack, `/admin/orders/${po.id}/invoice`, {
        method: 'POST',
        body: JSON.stringify({ prices: 'cheapest' }),
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe('prices must be "po" or "print-order".');
    }
  });

  it('a PO already waiting for an operator over something else keeps that reason through a hold', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-OTHERWAIT');
    const other = 'Print order 4711 was deleted on the print service.';
    await stack.store.orders.update(po.id, { state: 'needs_operator', lastError: other });
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: 99.99 });
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_held'],
      lastError: other,
    });
    // Once the figures are right the invoice goes out, and the other matter still waits.
    stack.sandbox.control.overrideTotals(printOrderId, { subTotal: null });
    await drain(stack);
    expect(invoicesReceived(stack).map((i) => i.invoiceID)).toEqual(['INV-000001']);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_held'],
      lastError: other,
    });
  });

  it('a price beyond the tolerance holds the invoice (poster 19.75 on the print order, 18.50 on the PO)', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-POSTER', ['Custom-size poster']);
    const [item] = (await stack.api.getOrder(printOrderId)).items;
    expect(item?.sub_total).toBe(19.75);
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(invoicesReceived(stack)).toEqual([]);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_held'],
      lastError: `Invoice not sent: PO line 1: the print order charges 19.75 a unit (item ${item?.id}), the PO 18.50 (6.76% off), beyond the 1% tolerance.`,
    });
  });

  it('within a wider tolerance the invoice goes out at the PO’s prices, flagged, its Comments naming the difference', async () => {
    const stack = await invoiceStack({ send: 'on-ship', priceTolerancePercent: 10 });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-POSTER10', ['Custom-size poster']);
    const invoice = await invoiceOnShipping(stack, printOrderId);
    expect(invoice).toMatchObject({
      invoiceID: 'INV-000001',
      comments:
        "Invoiced at the PO's prices; the print order's differ within tolerance: line 1: print order 19.75, PO 18.50 (6.76%).",
      dtd: DTD_OK,
    });
    expect(invoice.lines.map((l) => [l.part, l.quantity, l.unitPrice, l.subtotal])).toEqual([
      ['POS-CUSTOM', '1', '18.50 USD', '18.50 USD'],
    ]);
    // 1.63 tax on 19.75 is 8.2532 %: 1.53 on 18.50.
    expect(invoice.summary).toMatchObject({ subtotal: '18.50 USD', tax: '1.53 USD', due: '24.98 USD' });
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'ordered',
      flags: ['invoice_price_deviation'],
    });
  });
});

describe('print-service invoice numbers', () => {
  it('invoiceIds print-service: the invoice carries the print order’s invoice_number', async () => {
    const stack = await invoiceStack({ send: 'on-ship', invoiceIds: 'print-service' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-DPS');
    expect((await stack.api.getOrder(printOrderId)).invoice_number).toBe('DPS-70001');
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(invoicesReceived(stack).map((i) => [i.invoiceID, i.dtd.ok])).toEqual([['DPS-70001', true]]);
    expect(await invoiceList(stack, po.id)).toMatchObject([{ invoiceId: 'DPS-70001', sequence: null }]);
  });

  it('a storefront without invoice numbers: flagged invoice_number_missing, nothing sent', async () => {
    const withoutNumbers = (seed: SandboxSeedInput): SandboxSeedInput => {
      const storefront = seed.licenses[0]?.storefronts?.[0] as XmlTree;
      delete storefront.pipoCharges.invoiceNumbers;
      return seed;
    };
    const stack = await invoiceStack(
      { send: 'on-ship', invoiceIds: 'print-service' },
      { seed: withoutNumbers },
    );
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-NONUMBER');
    expect((await stack.api.getOrder(printOrderId)).invoice_number).toBe('');
    await shippedAnHourAgo(stack, printOrderId);
    expect(invoicesReceived(stack)).toEqual([]);
    expect(await invoiceList(stack, po.id)).toEqual([]);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_number_missing'],
      lastError: `Invoice not sent: print order ${printOrderId} has no invoice_number yet; the buyer's invoices carry the print service's numbers, so its invoice waits for one.`,
    });
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'open' });
  });
});

describe('credit memos', () => {
  it('a print order cancelled after it was invoiced gets one DTD-valid credit memo naming the invoice', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId, payloadID } = await placedOrder(stack, 'PO-INV-CANCEL');
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });

    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
    await drain(stack);
    await repeatWebhook(stack, printOrderId);
    stack.clock.advance(3600);
    await drain(stack);

    const invoices = invoicesReceived(stack);
    expect(invoices.map((i) => [i.invoiceID, i.purpose])).toEqual([
      ['INV-000001', 'standard'],
      ['INV-000001-CR', 'creditMemo'],
    ]);
    const memo = invoices[1]!;
    expect(memo).toMatchObject({
      isHeaderInvoice: 'yes',
      credits: 'INV-000001',
      orderReference: { orderID: 'PO-INV-CANCEL', payloadID },
      comments: `Print order ${printOrderId} was cancelled ("Cancelled"); this credit memo takes back invoice INV-000001.`,
      lines: [],
      dtd: DTD_OK,
    });
    expect(memo.summary).toEqual({
      subtotal: '-12.00 USD',
      tax: '-1.00 USD',
      shipping: '-9.95 USD',
      gross: '-22.95 USD',
      discount: '-5.00 USD',
      net: '-17.95 USD',
      due: '-17.95 USD',
    });
    const listed = await invoiceList(stack, po.id);
    expect(listed.map((i) => [i.invoiceId, i.purpose, i.amounts.due, i.deliveries.length])).toEqual([
      ['INV-000001', 'standard', '17.95', 1],
      ['INV-000001-CR', 'creditMemo', '-17.95', 1],
    ]);
    expect(listed[1].creditsInvoice).toBe(listed[0].id);
    expect(await stack.store.orders.get(po.id)).toMatchObject({ flags: ['cancelled_by_supplier'] });
    expect(await metricLines(stack, 'punchgate_invoices_total')).toEqual([
      'punchgate_invoices_total{purpose="standard",outcome="issued"} 1',
      'punchgate_invoices_total{purpose="creditMemo",outcome="issued"} 1',
    ]);
    // Credited, the closed print order is left alone again: nothing reads it for a later delivery.
    const reads = stack.upstreamCalls.length;
    await repeatWebhook(stack, printOrderId);
    expect(stack.upstreamCalls.slice(reads).filter((c) => c === `GET /api/v2/order/${printOrderId}`)).toEqual(
      [],
    );
  });
  it('the buyer’s own cancellation (OrderRequest delete) of an invoiced order is credited once an operator cancels it', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId, payloadID } = await placedOrder(stack, 'PO-INV-BUYERCANCEL');
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    const cancel = {
      payloadID: 'cancel-inv@ariba.example',
      orderID: 'PO-INV-BUYERCANCEL',
      type: 'delete' as const,
      previousPayloadID: payloadID,
      lines: [],
    };
    expect(await sendOrder(stack, cancel)).toEqual({ code: 200, text: 'OK', detail: '' });
    await drain(stack);
    // Shipped and invoiced: nothing is voided or credited until an operator decides.
    expect((await stack.api.getOrder(printOrderId)).status).toBe('Order Shipped');
    expect(invoicesReceived(stack).map((i) => i.purpose)).toEqual(['standard']);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['cancel_after_ship'],
    });
    const decided = await adminJson(stack, `/admin/orders/${po.id}/cancellation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ decision: 'cancel', note: 'Returned unopened.' }),
    });
    expect(decided.status).toBe(200);
    await drain(stack);
    expect((await stack.api.getOrder(printOrderId)).status).toBe('Cancelled');
    expect(invoicesReceived(stack).map((i) => [i.invoiceID, i.purpose, i.summary.due, i.dtd.ok])).toEqual([
      ['INV-000001', 'standard', '17.95 USD', true],
      ['INV-000001-CR', 'creditMemo', '-17.95 USD', true],
    ]);
    // The buyer cancelled: not flagged as the supplier's doing.
    expect(await stack.store.orders.get(po.id)).toMatchObject({ state: 'cancelled', flags: [] });
  });
});

describe('delivery to the buyer', () => {
  it('a refused invoice keeps retrying and shows in the admin API and metrics; resend posts the same bytes', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-RETRY');
    answerInvoices(stack, () => new Response('unavailable', { status: 500 }));
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);

    const [held] = await invoiceList(stack, po.id);
    expect(held.deliveries).toMatchObject([{ state: 'pending', attempts: 1, lastError: 'HTTP 500' }]);
    expect(await metricLines(stack, 'punchgate_buyer_document_posts_total')).toContain(
      'punchgate_buyer_document_posts_total{kind="invoice",outcome="retry"} 1',
    );
    const busy = await adminJson(stack, `/admin/invoices/${held.id}/resend`, { method: 'POST' });
    expect(busy).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: `Invoice INV-000001 is still being delivered (outbox message ${held.deliveries[0].id} is pending).`,
        },
      },
    });

    // A cXML 4xx Status is a refusal too.
    answerInvoices(stack, () => cxmlStatusAnswer(400, 'Bad Request'));
    stack.clock.advance(60);
    await drain(stack);
    expect((await invoiceList(stack, po.id))[0].deliveries).toMatchObject([
      { state: 'pending', attempts: 2, lastError: 'cXML Status 400 Bad Request' },
    ]);
    answerInvoices(stack, () => cxmlStatusAnswer(200, 'OK'));
    stack.clock.advance(120);
    await drain(stack);
    // Delivered at the third try; the last refusal stays on the message as its record.
    expect((await invoiceList(stack, po.id))[0].deliveries).toMatchObject([
      { state: 'delivered', attempts: 3, lastError: 'cXML Status 400 Bad Request' },
    ]);

    const resent = await adminJson(stack, `/admin/invoices/${held.id}/resend`, { method: 'POST' });
    expect(resent.status).toBe(202);
    expect(resent.body.message).toMatchObject({ kind: 'invoice', state: 'pending' });
    await drain(stack);
    const posts = invoicesReceived(stack);
    expect(posts).toHaveLength(4);
    expect(new Set(posts.map((p) => p.body)).size).toBe(1);
    expect(posts[3]).toMatchObject({ invoiceID: 'INV-000001', payloadID: posts[0]?.payloadID });
    expect((await invoiceList(stack, po.id))[0].deliveries.map((d: XmlTree) => d.state)).toEqual([
      'delivered',
      'delivered',
    ]);
    expect(await metricLines(stack, 'punchgate_buyer_document_posts_total')).toEqual(
      expect.arrayContaining([
        'punchgate_buyer_document_posts_total{kind="invoice",outcome="retry"} 2',
        'punchgate_buyer_document_posts_total{kind="invoice",outcome="delivered"} 2',
      ]),
    );
    const unknown = await adminJson(stack, '/admin/invoices/999999/resend', { method: 'POST' });
    expect(unknown).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No invoice record 999999.' } },
    });
  });
});

describe('who is not invoiced', () => {
  it('a buyer with invoices off gets none, and invoice now says why', async () => {
    const stack = await createOrderStack();
    await stack.worker.startup();
    const { po, printOrderId } = await placedOrder(stack, 'PO-INV-OFF');
    await stack.api.markShipped(printOrderId, SHIPPED);
    await drain(stack);
    expect(invoicesReceived(stack)).toEqual([]);
    expect(await invoiceList(stack, po.id)).toEqual([]);
    expect(await adminJson(stack, `/admin/orders/${po.id}/invoice`, { method: 'POST' })).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: 'Buyer acme is not invoiced through the gateway (invoices.send is off).',
        },
      },
    });
  });

  it('a storefront order that did not come through a PO is never invoiced', async () => {
    const stack = await invoiceStack({ send: 'on-ship' });
    const order = stack.sandbox.control.checkout({
      customerId: 202,
      items: [{ productId: 101, quantity: 250 }],
    });
    await drain(stack);
    await stack.api.markShipped(order.id, SHIPPED);
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    expect(invoicesReceived(stack)).toEqual([]);
    expect(await stack.store.printOrders.get('demo', order.id)).toBeUndefined();
  });
});

describe('a separate invoice URL (Coupa style)', () => {
  it('invoices go to invoices.url, the other documents to the orderStatusUrl', async () => {
    const stack = await createOrderStack(
      invoiceConfig({ send: 'on-ship', taxAt: 'line', url: 'https://acme.coupahost.example/cxml/invoices' }, [
        'coupa',
      ]),
    );
    await stack.worker.startup();
    const coupa = { identity: 'COUPA-ACME', domain: 'DUNS', secret: 'coupa-secret' };
    const cart = await punchOut(stack, ['Business cards'], {
      ...coupa,
      browserFormPost: 'https://acme.coupahost.example/punchout/return',
    });
    const payloadID = 'PO-COUPA-INV@coupahost.example';
    expect(
      await sendOrder(stack, { ...coupa, payloadID, orderID: 'PO-COUPA-INV', lines: linesOf(cart) }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-COUPA-INV');
    await stack.api.markShipped(printOrderId ?? 0, SHIPPED);
    await drain(stack);

    expect(stack.orderStatusPosts.map((p) => [p.url, /<(\w+Request)>/.exec(p.body)?.[1]])).toEqual([
      ['https://acme.coupahost.example/cxml/status', 'ConfirmationRequest'],
      ['https://acme.coupahost.example/cxml/status', 'ShipNoticeRequest'],
      ['https://acme.coupahost.example/cxml/invoices', 'InvoiceDetailRequest'],
    ]);
    const [invoice] = invoicesReceived(stack);
    expect(invoice).toMatchObject({
      invoiceID: 'INV-000001',
      isTaxInLine: 'yes',
      orderReference: { orderID: 'PO-COUPA-INV', payloadID },
      dtd: DTD_OK,
    });
    // The demo shop prices the item at the ticket's quantity 100 (12.00) and taxes it 8.25 %: 0.99.
    expect(invoice?.lines.map((l) => l.tax)).toEqual(['0.99 USD']);
  });
});
