/**
 * Charges on the requisition, end to end in process: the storefront's shipping and tax rules quoted in the
 * cXML cart (header Shipping/Tax beside a Total that stays the lines' sum, per-line Tax where the buyer
 * asks), a cart the rules cannot quote refused, an OCI buyer's PO with its freight line, and the invoice
 * billing the PO's charges against what the sandbox print order charges (the demo shop: 9.95 shipping per
 * shipment, 8.25 % tax, items priced at the job ticket's quantity).
 */
import type { SandboxSeedInput } from '@punchgate/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeRules, GatewayConfigInput, InvoiceConfig } from '../../../schemas/config.ts';
import {
  adminRequest,
  type CartLineOut,
  createOrderStack,
  drain,
  linesOf,
  type OrderOptions,
  type OrderStack,
  orderConfig,
  parseXml,
  printOrdersFor,
  sendOrder,
  type XmlTree,
} from '../../support/order-flow.ts';
import {
  changeQuantity,
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
} from '../../support/punchout-flow.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { findLinks } from '../../support/html-forms.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const DEMO_CHARGES: ChargeRules = {
  shipping: { kind: 'flat', amount: '9.95' },
  shippingDescription: 'Shipping',
  tax: { percent: '8.25', onShipping: false, byShipTo: [], description: 'Sales tax' },
};

type BuyerChange = Record<string, unknown>;

function chargesConfig(
  charges: ChargeRules,
  buyers: Record<string, BuyerChange> = {},
  invoices: Partial<InvoiceConfig> = { send: 'on-ship' },
): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    storefronts: base.storefronts.map((s) => (s.id === 'demo' ? { ...s, charges } : s)),
    buyers: base.buyers.map((b) => ({
      ...b,
      ...(b.id === 'acme' ? { invoices } : {}),
      ...buyers[b.id],
    })) as GatewayConfigInput['buyers'],
  };
}

/** A punch-out of `products` by acme, transferred: the PunchOutOrderMessage as the browser posts it. */
async function transferredCart(
  stack: OrderStack,
  products: readonly string[],
  quantity?: string,
  shipToXml = '',
) {
  const setup = setupRequest({}).replace('</SupplierSetup>', `</SupplierSetup>${shipToXml}`);
  let page = await stack.browse(startUrlOf(await stack.postCxml(setup)));
  for (const [index, product] of products.entries()) {
    if (index > 0) {
      const more = findLinks(page.text).find((l) => l.text === 'Add another product');
      page = await stack.browse(new URL(more?.href ?? '', page.url).toString());
    }
    page = await designProduct(stack, page, product, { Name: `Design ${index + 1}` });
  }
  if (quantity !== undefined) page = await changeQuantity(stack, page, quantity);
  return { page, transfer: await clickButton(stack, page, 'Transfer cart to procurement system') };
}

function cartOf(transfer: Awaited<ReturnType<typeof transferredCart>>['transfer']) {
  const xml = cxmlFromForm(returnFormOf(transfer));
  const message = parseXml(xml).cXML.Message.PunchOutOrderMessage;
  const header = message.PunchOutOrderMessageHeader;
  const money = (node: XmlTree) =>
    node === undefined ? undefined : `${node.Money['#text']} ${node.Money['@currency']}`;
  const lines: CartLineOut[] = message.ItemIn.map((item: XmlTree) => ({
    lineRef: item.ItemID.SupplierPartAuxiliaryID,
    sku: item.ItemID.SupplierPartID,
    quantity: item['@quantity'],
    unitPrice: item.ItemDetail.UnitPrice.Money['#text'],
    currency: item.ItemDetail.UnitPrice.Money['@currency'],
    uom: item.ItemDetail.UnitOfMeasure,
    designId: 0,
  }));
  return {
    xml,
    lines,
    total: money(header.Total),
    shipping: money(header.Shipping),
    shippingDescription: header.Shipping?.Description?.['#text'],
    tax: money(header.Tax),
    taxDescription: header.Tax?.Description?.['#text'],
    lineTaxes: message.ItemIn.map((item: XmlTree) => money(item.Tax)),
  };
}

/** The InvoiceDetailRequests acme received: id, summary and Comments. */
function invoices(stack: OrderStack) {
  return stack.orderStatusPosts
    .filter((p) => p.body.includes('<InvoiceDetailRequest'))
    .map((p) => {
      const request = parseXml(p.body).cXML.Request.InvoiceDetailRequest;
      const s = request.InvoiceDetailSummary;
      const money = (node: XmlTree) => (node === undefined ? undefined : node.Money['#text']);
      return {
        subtotal: money(s.SubtotalAmount),
        tax: money(s.Tax),
        shipping: money(s.ShippingAmount),
        discount: money(s.InvoiceDetailDiscount),
        due: money(s.DueAmount),
        comments: request.InvoiceDetailRequestHeader.Comments?.['#text'] as string | undefined,
        dtd: validateAgainstDtd(p.body, 'InvoiceDetail').ok,
      };
    });
}

/** The summary's TaxDetail for the shipping (`purpose="shippingTax"`): its taxable amount and tax. */
function shippingTaxDetail(xml: string) {
  const detail = /<TaxDetail[^>]*purpose="shippingTax"[^>]*>([\s\S]*?)<\/TaxDetail>/.exec(xml)?.[1] ?? '';
  const money = (element: string) =>
    new RegExp(`<${element}>\\s*<Money[^>]*>([^<]*)</Money>`).exec(detail)?.[1];
  return { taxable: money('TaxableAmount'), tax: money('TaxAmount') };
}

async function orderOf(stack: OrderStack, orderID: string) {
  const answer = await adminRequest(stack, '/admin/orders');
  const { items } = (await answer.json()) as { items: XmlTree[] };
  return items.find((o) => o.orderId === orderID);
}

/** Sends acme's PO of `cart` with `charges`, lets the sandbox ship its print order, and settles. */
async function chargesStack(
  config: GatewayConfigInput,
  seed?: (seed: SandboxSeedInput) => SandboxSeedInput,
): Promise<OrderStack> {
  const stack = await createOrderStack(config, seed === undefined ? {} : { seed });
  // The print service's webhooks, as the gateway registers them at startup.
  await stack.worker.startup();
  return stack;
}

async function orderedAndShipped(
  stack: OrderStack,
  orderID: string,
  lines: OrderOptions['lines'],
  charges?: OrderOptions['charges'],
) {
  const answer = await sendOrder(stack, {
    payloadID: `${orderID}@ariba.example`,
    orderID,
    lines,
    ...(charges && { charges }),
  });
  expect(answer).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  await stack.api.markShipped(printOrderId ?? 0, { trackingNumber: '1Z999AA10123456784' });
  await drain(stack);
  return orderOf(stack, orderID);
}

describe('the cXML cart carries the storefront’s charges', () => {
  it('header Shipping and Tax beside a Total that stays the sum of the lines; DTD-valid', async () => {
    const stack = await createOrderStack(chargesConfig(DEMO_CHARGES));
    const { transfer } = await transferredCart(stack, ['Business cards', 'A5 flyer'], '500');
    const cart = cartOf(transfer);
    // 500 × 0.09 + 1 × 0.35 = 45.35; tax 8.25 % of it = 3.741… → 3.74.
    expect(cart.lines.map((l) => [l.sku, l.quantity, l.unitPrice])).toEqual([
      ['BC-STD', '500', '0.09'],
      ['FLY-A5', '1', '0.35'],
    ]);
    expect([cart.total, cart.shipping, cart.shippingDescription, cart.tax, cart.taxDescription]).toEqual([
      '45.35 USD',
      '9.95 USD',
      'Shipping',
      '3.74 USD',
      'Sales tax',
    ]);
    expect(cart.lineTaxes).toEqual([undefined, undefined]);
    expect(validateAgainstDtd(cart.xml, 'cXML')).toEqual({ ok: true, messages: '' });
  });

  it('a buyer with line tax gets a Tax per ItemIn, the header’s their sum; a tax-exempt buyer none', async () => {
    const lineTax = await createOrderStack(
      chargesConfig(DEMO_CHARGES, { acme: { cartCharges: { taxAt: 'line' } } }),
    );
    const cart = cartOf((await transferredCart(lineTax, ['Business cards', 'A5 flyer'])).transfer);
    // 12.00 → 0.99 and 0.35 → 0.028875 → 0.03; the header's Tax is their sum, the Total still the lines'.
    expect([cart.lineTaxes, cart.tax, cart.total]).toEqual([
      ['0.99 USD', '0.03 USD'],
      '1.02 USD',
      '12.35 USD',
    ]);
    expect(validateAgainstDtd(cart.xml, 'cXML')).toEqual({ ok: true, messages: '' });

    const exempt = await createOrderStack(
      chargesConfig(DEMO_CHARGES, { acme: { cartCharges: { taxExempt: true } } }),
    );
    const exemptCart = cartOf((await transferredCart(exempt, ['Business cards'])).transfer);
    expect([exemptCart.shipping, exemptCart.tax, exemptCart.lineTaxes]).toEqual([
      '9.95 USD',
      undefined,
      [undefined],
    ]);
  });

  it('tax by the punch-out’s ship-to, and shipping from a table by quantity or weight', async () => {
    const rules: ChargeRules = {
      shipping: {
        kind: 'table',
        byQuantity: [
          { upTo: 100, amount: '4.00' },
          { upTo: 1000, amount: '7.50' },
        ],
      },
      shippingDescription: 'Parcel',
      // The default setup request ships to Springfield, IL, US.
      tax: {
        percent: '19',
        onShipping: false,
        byShipTo: [
          { country: 'US', percent: '5' },
          { country: 'US', region: 'IL', percent: '6.25' },
        ],
        description: 'Sales tax',
      },
    };
    const stack = await createOrderStack(chargesConfig(rules));
    const shipTo = (state: string) =>
      `<ShipTo><Address isoCountryCode="US"><Name xml:lang="en">ACME</Name><PostalAddress><Street>1 Dock Road</Street><City>Springfield</City><State>${state}</State><PostalCode>62701</PostalCode><Country isoCountryCode="US">United States</Country></PostalAddress></Address></ShipTo>`;
    const illinois = cartOf(
      (await transferredCart(stack, ['Business cards', 'A5 flyer'], undefined, shipTo('IL'))).transfer,
    );
    // Business cards 100 and the flyer's 1 → the first row each; 6.25 % of 12.35 = 0.771875 → 0.77.
    expect([illinois.shipping, illinois.tax]).toEqual(['8.00 USD', '0.77 USD']);
    // Another state: the country's 5 %; no ship-to: the 19 % default.
    const ohio = cartOf((await transferredCart(stack, ['Business cards'], undefined, shipTo('OH'))).transfer);
    expect([ohio.shipping, ohio.tax]).toEqual(['4.00 USD', '0.60 USD']);
    const unknown = cartOf((await transferredCart(stack, ['Business cards'], '500')).transfer);
    // 500 → the second row; 19 % of 45.00 = 8.55.
    expect([unknown.shipping, unknown.tax]).toEqual(['7.50 USD', '8.55 USD']);
  });

  it('a JPY storefront quotes whole yen in Shipping and Tax, per line too; DTD-valid', async () => {
    const yen: ChargeRules = {
      shipping: { kind: 'flat', amount: '990' },
      shippingDescription: 'Shipping',
      tax: { percent: '10', onShipping: false, byShipTo: [], description: 'Consumption tax' },
    };
    const config = chargesConfig(yen, { acme: { cartCharges: { taxAt: 'line' } } });
    const stack = await createOrderStack({
      ...config,
      storefronts: config.storefronts.map((s) => (s.id === 'demo' ? { ...s, currency: 'JPY' } : s)),
    });
    const cart = cartOf((await transferredCart(stack, ['Business cards', 'A5 flyer'], '500')).transfer);
    // 500 × 0.09 = 45 yen, tax 4.5 → 5; 1 × 0.35 → 0 yen, tax 0.
    expect([cart.total, cart.shipping, cart.tax, cart.lineTaxes]).toEqual([
      '45 JPY',
      '990 JPY',
      '5 JPY',
      ['5 JPY', '0 JPY'],
    ]);
    expect(validateAgainstDtd(cart.xml, 'cXML')).toEqual({ ok: true, messages: '' });
  });

  it('rules that cannot quote the cart refuse the transfer with the cart page naming the product', async () => {
    const rules: ChargeRules = {
      shipping: { kind: 'table', byQuantity: [{ upTo: 250, amount: '4.00' }] },
      shippingDescription: 'Shipping',
    };
    const stack = await createOrderStack(chargesConfig(rules));
    const { transfer } = await transferredCart(stack, ['Business cards'], '500');
    expect(transfer.status).toBe(409);
    expect(transfer.text).toContain(
      'The shipping of Business cards at quantity 500 cannot be quoted: the shop&#39;s shipping table has no row for it.',
    );
    // No cart went to the buyer: the page is the cart again, not an auto-submitting hand-back.
    expect(transfer.text).not.toContain('data-autosubmit');
    expect(transfer.text).toContain('Transfer cart to procurement system');
  });
});

describe('the invoice bills the PO’s charges', () => {
  it('the PO carries the cart’s shipping and tax: the invoice’s DueAmount is the PO’s Total', async () => {
    const stack = await chargesStack(chargesConfig(DEMO_CHARGES));
    const cart = cartOf((await transferredCart(stack, ['Business cards'], '500')).transfer);
    expect([cart.total, cart.shipping, cart.tax]).toEqual(['45.00 USD', '9.95 USD', '3.71 USD']);
    // As Ariba sends it: the header repeats Shipping and Tax, its Total the lines plus them.
    const po = await orderedAndShipped(stack, 'PO-CHARGES-1', linesOf(cart.lines), {
      shipping: '9.95',
      tax: '3.71',
      total: '58.66',
    });
    expect(invoices(stack)).toEqual([
      {
        subtotal: '45.00',
        tax: '3.71',
        shipping: '9.95',
        discount: undefined,
        due: '58.66',
        comments: undefined,
        dtd: true,
      },
    ]);
    expect([po.state, po.flags]).toEqual(['ordered', []]);
  });

  it('tax on shipping: the cart’s Tax holds the shipping’s, and the invoice bills the PO’s figures to the cent', async () => {
    const vat: ChargeRules = {
      ...DEMO_CHARGES,
      tax: { percent: '8.25', onShipping: true, byShipTo: [], description: 'Sales tax' },
    };
    // The demo shop taxes its shipping too, as the storefront's rules quote it.
    const shopTaxesShipping = (seed: SandboxSeedInput) => {
      const storefront = seed.licenses[0]?.storefronts?.[0];
      if (storefront === undefined) throw new Error('the seed has no demo storefront');
      storefront.pipoCharges = { ...storefront.pipoCharges, taxOnShipping: true };
      return seed;
    };
    // Header tax: 8.25 % of 45.00 + 9.95 = 4.533… → 4.53, one rounding.
    const header = await chargesStack(chargesConfig(vat), shopTaxesShipping);
    const cart = cartOf((await transferredCart(header, ['Business cards'], '500')).transfer);
    expect([cart.total, cart.shipping, cart.tax, cart.taxDescription]).toEqual([
      '45.00 USD',
      '9.95 USD',
      '4.53 USD',
      'Sales tax',
    ]);
    await orderedAndShipped(header, 'PO-VAT-1', linesOf(cart.lines), {
      shipping: '9.95',
      tax: '4.53',
      total: '59.48',
    });
    const [headerInvoice] = header.orderStatusPosts.filter((p) => p.body.includes('<InvoiceDetailRequest'));
    expect(invoices(header)).toEqual([
      {
        subtotal: '45.00',
        tax: '4.53',
        shipping: '9.95',
        discount: undefined,
        due: '59.48',
        comments: undefined,
        dtd: true,
      },
    ]);
    // 45.00 × 4.53 / 54.95 = 3.71 on the goods; the shipping's 0.82 a TaxDetail of its own.
    expect(shippingTaxDetail(headerInvoice?.body ?? '')).toEqual({ taxable: '9.95', tax: '0.82' });

    // Line tax: 0.99 and 0.03 on the lines, 0.82 on the shipping; the header's 1.84 their sum, saying so.
    const line = await chargesStack(
      chargesConfig(vat, { acme: { cartCharges: { taxAt: 'line' } } }, { send: 'on-ship', taxAt: 'line' }),
      shopTaxesShipping,
    );
    const lineCart = cartOf((await transferredCart(line, ['Business cards', 'A5 flyer'])).transfer);
    expect([lineCart.lineTaxes, lineCart.tax, lineCart.taxDescription, lineCart.total]).toEqual([
      ['0.99 USD', '0.03 USD'],
      '1.84 USD',
      'Sales tax (incl. 0.82 on shipping)',
      '12.35 USD',
    ]);
    expect(validateAgainstDtd(lineCart.xml, 'cXML')).toEqual({ ok: true, messages: '' });
    const po = await orderedAndShipped(line, 'PO-VAT-2', linesOf(lineCart.lines), {
      shipping: '9.95',
      tax: '1.84',
      total: '24.14',
    });
    expect(invoices(line)).toEqual([
      {
        subtotal: '12.35',
        tax: '1.84',
        shipping: '9.95',
        discount: undefined,
        due: '24.14',
        comments: undefined,
        dtd: true,
      },
    ]);
    const [lineInvoice] = line.orderStatusPosts.filter((p) => p.body.includes('<InvoiceDetailRequest'));
    expect(shippingTaxDetail(lineInvoice?.body ?? '')).toEqual({ taxable: '9.95', tax: '0.82' });
    expect([po.state, po.flags]).toEqual(['ordered', []]);
  });

  it('within the tolerance the PO’s figure is billed and the difference flagged; beyond it the invoice is held naming both', async () => {
    const stack = await chargesStack(
      chargesConfig(DEMO_CHARGES, {}, { send: 'on-ship', priceTolerancePercent: 1 }),
    );
    const cart = cartOf((await transferredCart(stack, ['Business cards'])).transfer);
    // The print order charges 9.95; the PO says 9.90 (0.51 % off): billed 9.90, flagged.
    const within = await orderedAndShipped(stack, 'PO-CHARGES-2', linesOf(cart.lines), {
      shipping: '9.90',
      tax: '0.99',
    });
    expect(invoices(stack)).toEqual([
      {
        subtotal: '12.00',
        tax: '0.99',
        shipping: '9.90',
        discount: undefined,
        due: '22.89',
        comments:
          "Invoiced at the PO's prices; the print order's differ within tolerance: shipping: print order 9.95, PO 9.90 (0.51%).",
        dtd: true,
      },
    ]);
    expect(within.flags).toEqual(['invoice_price_deviation']);

    // The PO's shipping 5.00 is 99 % off what the print order charges: held, both figures named.
    const cart2 = cartOf((await transferredCart(stack, ['Business cards'])).transfer);
    const beyond = await orderedAndShipped(stack, 'PO-CHARGES-3', linesOf(cart2.lines), {
      shipping: '5.00',
      tax: '0.99',
    });
    expect(invoices(stack)).toHaveLength(1);
    expect([beyond.state, beyond.flags, beyond.lastError]).toEqual([
      'needs_operator',
      ['invoice_held'],
      'Invoice not sent: The print order charges shipping 9.95, the PO 5.00 (99.00% off), beyond the 1% tolerance.',
    ]);
    // The operator invoices it at the PO's figures: due is the PO's lines plus its charges.
    const released = await adminRequest(stack, `/admin/orders/${beyond.id}/invoice`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ prices: 'po' }),
    });
    expect(released.status).toBe(200);
    await drain(stack);
    expect(invoices(stack).map((i) => [i.shipping, i.due])).toEqual([
      ['9.90', '22.89'],
      ['5.00', '17.99'],
    ]);
  });

  it('charges the PO does not carry are billed from the print order, or held where the buyer says so', async () => {
    const billing = await chargesStack(chargesConfig(DEMO_CHARGES));
    const cart = cartOf((await transferredCart(billing, ['Business cards'])).transfer);
    await orderedAndShipped(billing, 'PO-NOCHARGES-1', linesOf(cart.lines));
    expect(invoices(billing).map((i) => [i.tax, i.shipping, i.due])).toEqual([['0.99', '9.95', '22.94']]);

    const holding = await chargesStack(
      chargesConfig(DEMO_CHARGES, {}, { send: 'on-ship', chargesNotOnPo: 'hold' }),
    );
    const cart2 = cartOf((await transferredCart(holding, ['Business cards'])).transfer);
    const held = await orderedAndShipped(holding, 'PO-NOCHARGES-2', linesOf(cart2.lines));
    expect(invoices(holding)).toEqual([]);
    expect([held.state, held.lastError]).toEqual([
      'needs_operator',
      "Invoice not sent: The print order charges shipping 9.95 and the PO carries none; the buyer's invoices hold charges not on the PO. The print order charges tax 0.99 and the PO carries none; the buyer's invoices hold charges not on the PO.",
    ]);
  });

  it('an OCI buyer’s freight line on a PO is its charge, never a line to produce', async () => {
    const sap1 = { identity: 'SAP1-ORDERS', domain: 'NetworkID', secret: 'sap1-order-secret' };
    const freightOnly = { ...sap1, payloadID: 'PO-OCI-1@sap.example', orderID: 'PO-OCI-1' };
    const lines = [{ sku: 'FREIGHT', quantity: '1', unitPrice: '9.95', currency: 'USD' }];
    // Without chargeLines, FREIGHT is a part the catalog does not have; with them it is the PO's shipping,
    // so a PO of nothing else has no line to produce.
    const plain = await chargesStack(chargesConfig(DEMO_CHARGES));
    expect(await sendOrder(plain, { ...freightOnly, lines })).toMatchObject({
      code: 400,
      detail: 'Line 1 (SupplierPartID FREIGHT) is not a product of this catalog.',
    });
    const withFreight = await chargesStack(
      chargesConfig(DEMO_CHARGES, {
        sap1: { chargeLines: { shipping: { partId: 'FREIGHT', description: 'Freight' } } },
      }),
    );
    expect(await sendOrder(withFreight, { ...freightOnly, lines })).toMatchObject({
      code: 400,
      detail: 'The purchase order has no lines.',
    });
  });
});
