/**
 * Money as it ships: `punchgate serve --config FILE` beside `punchgate sandbox`, the business cards priced
 * per 1,000 (`priceUnit`, the sandbox charging 0.12 a piece), the storefront's charges quoting what the
 * sandbox's demo shop charges, and the compliant-invoicing settings of docs/configuration.md (the
 * supplier's VAT id and Coupa's taxPrefix/taxNumber, the remit-to addressID). The cart sends 120.00 per
 * 1,000 with PriceBasisQuantity, the PO repeats it, the print order is placed at the print service's
 * per-piece price without a deviation, and the invoice echoes the basis with totals exact to the cent,
 * carrying the ids where Coupa and SAP Ariba read them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';
import { linesOf, orderRequest, parseXml, punchOutCart, type XmlTree } from '../support/order-flow.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { acceptAtBuyer, printShopApi, serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';

const PER_THOUSAND_XML =
  '<PriceBasisQuantity quantity="1000" conversionFactor="1"><UnitOfMeasure>EA</UnitOfMeasure></PriceBasisQuantity>';

const asList = (value: XmlTree): XmlTree[] => (value === undefined ? [] : [value].flat());

describe('punchgate serve round-trips a price per 1,000 into a compliant invoice', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  beforeAll(() => requireDtdValidator());
  const stack = useServeBesideSandbox({
    adjustConfig(config) {
      const [storefront] = config.storefronts;
      storefront.products[0] = {
        ...storefront.products[0],
        priceUnit: 1000,
        prices: [
          { minQuantity: 1, unitPrice: 120 },
          { minQuantity: 500, unitPrice: 90 },
        ],
      };
      storefront.charges = { shipping: { kind: 'flat', amount: '9.95' }, tax: { percent: '8.25' } };
      storefront.invoicing = {
        supplierTaxIds: { vatId: 'DE123456789', taxPrefix: 'DE', taxNumber: '123456789' },
      };
      config.buyers[0].invoices = { send: 'on-ship', remitToAddressID: 'RT-4711' };
    },
  });
  const browser = serveBrowser(() => stack.serve);

  it('cart → PO → print order → invoice: the basis echoed, totals exact, tax ids and remit-to code', async () => {
    const { buyer, sandbox, serve } = stack;
    const processes = [serve.process, sandbox.process];
    const cart = await punchOutCart(browser, ['Business cards'], { browserFormPost: buyer.returnUrl });
    // 100 at 120.00 per 1,000 = 12.00; 8.25 % of it = 0.99.
    expect(cart.lines.map((line) => [line.sku, line.quantity, line.unitPrice])).toEqual([
      ['BC-STD', '100', '120.00'],
    ]);
    expect([cart.shipping, cart.tax]).toEqual(['9.95', '0.99']);
    const payloadID = `po-money-${Date.now()}@acme.example`;
    const po = orderRequest({
      payloadID,
      orderID: 'PO-MONEY-SHIP',
      lines: linesOf(cart.lines).map((line) => ({ ...line, detailXml: PER_THOUSAND_XML })),
      charges: { shipping: '9.95', tax: '0.99', total: '22.94' },
    });
    expect(await browser.postCxml(po)).toMatch(/<Status code="200" text="OK"/);
    const accept = await acceptAtBuyer(buyer, processes);
    const printOrderId = Number(accept.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']);

    // The print order: 100 pieces at the service's 0.12 each, the same 12.00 as the PO's line.
    const printShop = printShopApi(sandbox);
    const printOrder = await printShop.getOrder(printOrderId);
    expect(printOrder.items.map((item) => [item.quantity, item.sub_total])).toEqual([[100, 12]]);

    await printShop.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    const invoice = await eventually(
      'the InvoiceDetailRequest at the buyer',
      () =>
        buyer.orderStatusPosts
          .map((post) => ({ post, doc: parseXml(post.body).cXML as XmlTree }))
          .find(({ doc }) => doc?.Request?.InvoiceDetailRequest !== undefined),
      { processes },
    );
    const dtd = validateAgainstDtd(invoice.post.body, 'InvoiceDetail');
    expect(dtd.ok, dtd.messages).toBe(true);
    const request = invoice.doc.Request.InvoiceDetailRequest;

    // The line at the PO's price per 1,000, its basis echoed; no deviation to explain.
    const item = request.InvoiceDetailOrder.InvoiceDetailItem;
    expect([item['@quantity'], item.UnitPrice.Money['#text'], item.SubtotalAmount.Money['#text']]).toEqual([
      '100',
      '120.00',
      '12.00',
    ]);
    expect([item.PriceBasisQuantity['@quantity'], item.PriceBasisQuantity['@conversionFactor']]).toEqual([
      '1000',
      '1',
    ]);
    expect(request.InvoiceDetailRequestHeader.Comments).toBeUndefined();
    const summary = request.InvoiceDetailSummary;
    const money = (element: XmlTree) => element?.Money['#text'];
    expect([
      money(summary.SubtotalAmount),
      money(summary.Tax),
      money(summary.ShippingAmount),
      money(summary.DueAmount),
    ]).toEqual(['12.00', '0.99', '9.95', '22.94']);

    // Compliant: the remit-to code and Coupa's pair on the remitTo partner, the VAT id on the supplier's.
    const partners = asList(request.InvoiceDetailRequestHeader.InvoicePartner);
    const partner = (role: string) => partners.find((p) => p.Contact['@role'] === role);
    const ids = (p: XmlTree) =>
      asList(p?.IdReference).map((id: XmlTree) => [id['@domain'], id['@identifier']]);
    expect(partner('remitTo')?.Contact['@addressID']).toBe('RT-4711');
    expect(ids(partner('remitTo'))).toEqual([
      ['taxPrefix', 'DE'],
      ['taxNumber', '123456789'],
    ]);
    expect(ids(partner('from'))).toEqual([['vatID', 'DE123456789']]);
  });
});
