/**
 * Invoices as they ship (issue 19): `punchgate sandbox` and `punchgate serve --config FILE` as separate
 * processes, the config written from docs/configuration.md with the buyer's `"invoices": {"send":
 * "on-ship"}`, and a buyer's procurement system on its own port. The buyer orders; once the print shop marks
 * the order shipped through the print service's API, serve posts a DTD-valid InvoiceDetailRequest to the
 * buyer's orderStatusUrl, billing the PO's lines with the print order's tax and shipping (the PO carries
 * none: the config quotes no charges) —
 * exactly once, however often the print service's webhooks repeat and the background rounds look again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';
import {
  linesOf,
  orderRequest,
  parseXml,
  punchOut,
  receivedDocuments,
  type XmlTree,
} from '../support/order-flow.ts';
import type { BuyerSystem } from './buyer-system.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { acceptAtBuyer, printShopApi, serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN, BUYER_IDENTITY, SUPPLIER_SECRET } from './user-config.ts';

/** Every InvoiceDetailRequest the buyer's system received, in arrival order. */
function invoicesReceived(buyer: BuyerSystem) {
  return buyer.orderStatusPosts
    .map((post) => ({ post, doc: parseXml(post.body).cXML as XmlTree }))
    .filter(({ doc }) => doc?.Request?.InvoiceDetailRequest !== undefined);
}

const asList = (value: XmlTree): XmlTree[] => (value === undefined ? [] : [value].flat());

describe('punchgate serve as a process invoices a shipped print order once', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  beforeAll(() => requireDtdValidator());
  const stack = useServeBesideSandbox({
    adjustConfig(config) {
      // As docs/configuration.md writes it: on-ship, the rest left at their defaults (header tax,
      // gateway numbers INV-000001…, net 30, to the buyer's orderStatusUrl).
      config.buyers[0].invoices = { send: 'on-ship' };
    },
  });

  /** The buyer's user's browser: follows redirects between the gateway, the editor and back. */
  const browser = serveBrowser(() => stack.serve);

  const admin = async (path: string) => {
    const answer = await fetch(`${stack.serve.url}/admin${path}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(answer.status, `GET /admin${path}`).toBe(200);
    return (await answer.json()) as XmlTree;
  };

  /** The sandbox's webhook deliveries, as its control API lists them. */
  const deliveries = async () =>
    (
      (await (await fetch(`${stack.sandbox.url}/_sandbox/deliveries`)).json()) as { outcome: string }[]
    ).filter((d) => d.outcome !== 'pending');

  const setStatus = async (printOrderId: number, status: string) => {
    const answer = await fetch(`${stack.sandbox.url}/_sandbox/orders/${printOrderId}/status`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ status }),
    });
    expect(answer.status, `status ${status}`).toBe(200);
  };

  /** When serve's last background round completed (seconds since the epoch), from /metrics. */
  const lastRound = async () => {
    const metrics = await (await fetch(`${stack.serve.url}/metrics`)).text();
    return Number(/^punchgate_background_round_last_completed_timestamp_seconds (\S+)$/m.exec(metrics)?.[1]);
  };

  it('ships, then invoices the PO lines with the print order’s charges, DTD-valid, once', async () => {
    const { buyer, sandbox, serve } = stack;
    const processes = [serve.process, sandbox.process];
    const cart = await punchOut(browser, ['Business cards', 'A5 flyer'], {
      browserFormPost: buyer.returnUrl,
    });
    const payloadID = `po-invoice-${Date.now()}@acme.example`;
    expect(
      await browser.postCxml(orderRequest({ payloadID, orderID: 'PO-INV-1', lines: linesOf(cart) })),
    ).toMatch(/<Status code="200" text="OK"/);
    const accept = await acceptAtBuyer(buyer, processes);
    const printOrderId = Number(accept.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']);
    // Nothing is invoiced before it ships.
    expect(invoicesReceived(buyer)).toEqual([]);

    // The print shop's staff mark it shipped with their own key; the sandbox tells serve by webhook.
    const printShop = printShopApi(sandbox);
    await printShop.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    const [invoice] = await eventually(
      'the InvoiceDetailRequest at the buyer',
      () => {
        const received = invoicesReceived(buyer);
        return received.length > 0 ? received : undefined;
      },
      { processes },
    );
    if (invoice === undefined) throw new Error('no invoice');
    expect(receivedDocuments(buyer, 'ShipNoticeRequest')).toHaveLength(1);

    // As posted: text/xml to the orderStatusUrl, valid against InvoiceDetail.dtd 1.2.071.
    expect(invoice.post.url).toBe(buyer.orderStatusUrl);
    expect(invoice.post.contentType).toBe('text/xml; charset=UTF-8');
    expect(invoice.post.body).toContain(
      '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/InvoiceDetail.dtd">',
    );
    const dtd = validateAgainstDtd(invoice.post.body, 'InvoiceDetail');
    expect(dtd.ok, dtd.messages).toBe(true);
    expect(invoice.doc.Header.To.Credential[0].Identity).toBe(BUYER_IDENTITY);
    expect(invoice.doc.Header.Sender.Credential[0].SharedSecret).toBe(SUPPLIER_SECRET);

    const request = invoice.doc.Request.InvoiceDetailRequest;
    const header = request.InvoiceDetailRequestHeader;
    expect([header['@invoiceID'], header['@purpose'], header['@operation']]).toEqual([
      'INV-000001',
      'standard',
      'new',
    ]);
    expect(asList(header.PaymentTerm).map((term) => term['@payInNumberOfDays'])).toEqual(['30']);
    const order = request.InvoiceDetailOrder;
    const reference = order.InvoiceDetailOrderInfo.OrderReference;
    expect([reference['@orderID'], reference.DocumentReference['@payloadID']]).toEqual([
      'PO-INV-1',
      payloadID,
    ]);
    // The PO's lines at the PO's quantities and prices (the print order holds one item per design).
    expect(
      asList(order.InvoiceDetailItem).map((item) => [
        item['@invoiceLineNumber'],
        item.InvoiceDetailItemReference['@lineNumber'],
        item['@quantity'],
        item.UnitOfMeasure,
        item.InvoiceDetailItemReference.ItemID.SupplierPartID,
        item.UnitPrice.Money['#text'],
        item.SubtotalAmount.Money['#text'],
      ]),
    ).toEqual([
      ['1', '1', '100', 'EA', 'BC-STD', '0.12', '12.00'],
      ['2', '2', '1', 'EA', 'FLY-A5', '0.35', '0.35'],
    ]);
    // The sandbox's charges for storefront 1 (docs/sandbox.md): its items at the job ticket's quantities
    // (12.00 and 0.35), tax 8.25 % of them (1.02); one shipment's 9.95; no promotion. Due = 12.35 + 1.02 + 9.95.
    const summary = request.InvoiceDetailSummary;
    const money = (element: XmlTree) => `${element.Money['#text']} ${element.Money['@currency']}`;
    expect({
      subtotal: money(summary.SubtotalAmount),
      tax: money(summary.Tax),
      shipping: money(summary.ShippingAmount),
      discount: summary.InvoiceDetailDiscount,
      net: money(summary.NetAmount),
      due: money(summary.DueAmount),
    }).toEqual({
      subtotal: '12.35 USD',
      tax: '1.02 USD',
      shipping: '9.95 USD',
      discount: undefined,
      net: '23.32 USD',
      due: '23.32 USD',
    });

    // The webhook comes again, twice, for the same shipped print order (the shop sets its status back
    // and forth), and serve's rounds go on: no second invoice goes out.
    const before = (await deliveries()).length;
    await setStatus(printOrderId, 'In Production');
    await setStatus(printOrderId, 'Order Shipped');
    const delivered = async () => (await deliveries()).length >= before + 2 || undefined;
    await eventually('both webhooks delivered', delivered, { processes });
    // A few more rounds (one a second) after the last delivery, for anything it could still queue.
    const settled = Date.now() / 1000 + 3;
    await eventually('three more background rounds', async () => (await lastRound()) > settled || undefined, {
      processes,
    });
    expect(
      invoicesReceived(buyer).map(
        ({ doc }) => doc.Request.InvoiceDetailRequest.InvoiceDetailRequestHeader['@invoiceID'],
      ),
    ).toEqual(['INV-000001']);
    expect(receivedDocuments(buyer, 'ShipNoticeRequest')).toHaveLength(1);

    // The operator's view of the same process: one invoice, delivered once; the metrics say so too.
    const { items: orders } = await admin('/orders');
    const po = orders.find((o: XmlTree) => o.orderId === 'PO-INV-1');
    expect([po.state, po.flags]).toEqual(['ordered', []]);
    const { items: invoices } = await admin(`/orders/${po.id}/invoices`);
    expect(
      invoices.map((i: XmlTree) => [
        i.invoiceId,
        i.purpose,
        i.printOrderId,
        i.amounts.due,
        i.deliveries.map((d: XmlTree) => d.state),
      ]),
    ).toEqual([['INV-000001', 'standard', printOrderId, '23.32', ['delivered']]]);
    const metrics = await (await fetch(`${serve.url}/metrics`)).text();
    expect(metrics).toMatch(/^punchgate_invoices_total\{purpose="standard",outcome="issued"\} 1$/m);
    expect(metrics).toMatch(
      /^punchgate_buyer_document_posts_total\{kind="invoice",outcome="delivered"\} 1$/m,
    );
  });
});
