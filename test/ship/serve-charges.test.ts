/**
 * Charges on the requisition as they ship: `punchgate serve --config FILE` beside `punchgate sandbox`, the
 * config written from docs/configuration.md with the storefront's `charges` quoting what the sandbox's demo
 * shop charges (9.95 shipping, 8.25 % tax). The cart carries Shipping and Tax, the Ariba-style PO repeats
 * them (its Total the lines plus them), and once shipped the invoice's DueAmount is the PO's Total.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';
import { linesOf, orderRequest, parseXml, punchOutCart, type XmlTree } from '../support/order-flow.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { acceptAtBuyer, printShopApi, serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';

describe('punchgate serve quotes charges in the cart and invoices the PO’s', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  beforeAll(() => requireDtdValidator());
  const stack = useServeBesideSandbox({
    adjustConfig(config) {
      config.storefronts[0].charges = {
        shipping: { kind: 'flat', amount: '9.95' },
        tax: { percent: '8.25' },
      };
      config.buyers[0].invoices = { send: 'on-ship' };
    },
  });
  const browser = serveBrowser(() => stack.serve);

  it('the Ariba-style PO carries the cart’s shipping and tax, and the invoice is due its Total', async () => {
    const { buyer, sandbox, serve } = stack;
    const processes = [serve.process, sandbox.process];
    const cart = await punchOutCart(browser, ['Business cards', 'A5 flyer'], {
      browserFormPost: buyer.returnUrl,
    });
    // 100 × 0.12 + 1 × 0.35 = 12.35; 8.25 % of it = 1.018875 → 1.02.
    expect([cart.shipping, cart.tax]).toEqual(['9.95', '1.02']);
    const payloadID = `po-charges-${Date.now()}@acme.example`;
    const po = orderRequest({
      payloadID,
      orderID: 'PO-CHARGES-SHIP',
      lines: linesOf(cart.lines),
      charges: { shipping: cart.shipping ?? '', tax: cart.tax ?? '', total: '23.32' },
    });
    expect(await browser.postCxml(po)).toMatch(/<Status code="200" text="OK"/);
    const accept = await acceptAtBuyer(buyer, processes);
    const printOrderId = Number(accept.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']);

    await printShopApi(sandbox).markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    const invoice = await eventually(
      'the InvoiceDetailRequest at the buyer',
      () =>
        buyer.orderStatusPosts
          .map((post) => ({ post, doc: parseXml(post.body).cXML as XmlTree }))
          .find(({ doc }) => doc?.Request?.InvoiceDetailRequest !== undefined),
      { processes },
    );
    expect(validateAgainstDtd(invoice.post.body, 'InvoiceDetail').ok).toBe(true);
    const summary = invoice.doc.Request.InvoiceDetailRequest.InvoiceDetailSummary;
    const money = (element: XmlTree) => element?.Money['#text'];
    expect({
      subtotal: money(summary.SubtotalAmount),
      tax: money(summary.Tax),
      shipping: money(summary.ShippingAmount),
      discount: summary.InvoiceDetailDiscount,
      due: money(summary.DueAmount),
    }).toEqual({ subtotal: '12.35', tax: '1.02', shipping: '9.95', discount: undefined, due: '23.32' });
    // Nothing to flag: the print order charged what the PO says.
    expect(invoice.doc.Request.InvoiceDetailRequest.InvoiceDetailRequestHeader.Comments).toBeUndefined();
  });
});
