/**
 * The buyer's word on an invoice, as it ships: `punchgate sandbox` and `punchgate serve --config FILE` as
 * separate processes, the buyer invoiced on ship. Once the buyer's system has the invoice, its accounts
 * payable rejects it with a StatusUpdateRequest: serve records it, the admin API shows the invoice's status
 * and history and the PO waiting for an operator with the buyer's comments, and so does the console (the
 * overview says why). Then the buyer reports it paid: the invoice is marked paid and the PO is let go.
 */
import { describe, expect, it } from 'vitest';
import { linesOf, orderRequest, parseXml, punchOut, type XmlTree } from '../support/order-flow.ts';
import type { BuyerSystem } from './buyer-system.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { acceptAtBuyer, printShopApi, serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN, BUYER_IDENTITY, BUYER_SECRET } from './user-config.ts';

function invoiceAt(buyer: BuyerSystem) {
  return buyer.orderStatusPosts
    .map((post) => parseXml(post.body).cXML as XmlTree)
    .find((doc) => doc?.Request?.InvoiceDetailRequest !== undefined);
}

/** The StatusUpdateRequest a buyer's accounts payable sends about an invoice it received. */
function invoiceStatus(payloadID: string, invoice: XmlTree, type: string, comments: string): string {
  const header = invoice.Request.InvoiceDetailRequest.InvoiceDetailRequestHeader;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.044/cXML.dtd">
<cXML payloadID="${payloadID}" timestamp="2026-11-23T10:00:00-08:00" xml:lang="en-US">
<Header>
<From><Credential domain="NetworkID"><Identity>${BUYER_IDENTITY}</Identity></Credential></From>
<To><Credential domain="DUNS"><Identity>PRINTCO</Identity></Credential></To>
<Sender><Credential domain="NetworkID"><Identity>${BUYER_IDENTITY}</Identity><SharedSecret>${BUYER_SECRET}</SharedSecret></Credential><UserAgent>Buyer 14s2</UserAgent></Sender>
</Header>
<Request><StatusUpdateRequest>
<DocumentReference payloadID="${invoice['@payloadID']}"/>
<Status code="200" text="OK"/>
<InvoiceStatus type="${type}"><InvoiceIDInfo invoiceID="${header['@invoiceID']}" invoiceDate="${header['@invoiceDate']}"/>${
    comments === '' ? '' : `<Comments xml:lang="en">${comments}</Comments>`
  }</InvoiceStatus>
</StatusUpdateRequest></Request>
</cXML>`;
}

describe('punchgate serve as a process takes the buyer’s invoice status', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  const stack = useServeBesideSandbox({
    adjustConfig(config) {
      config.buyers[0].invoices = { send: 'on-ship' };
    },
  });
  const browser = serveBrowser(() => stack.serve);

  const admin = async (path: string) => {
    const answer = await fetch(`${stack.serve.url}/admin${path}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(answer.status, `GET /admin${path}`).toBe(200);
    return (await answer.json()) as XmlTree;
  };

  /** The console as an operator's browser reads it: signed in with the admin token, then by cookie. */
  const consolePage = async (path: string) => {
    const signIn = await fetch(`${stack.serve.url}/admin/ui/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
      redirect: 'manual',
    });
    expect(signIn.status).toBe(303);
    const cookie = (signIn.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';
    const page = await fetch(`${stack.serve.url}${path}`, { headers: { Cookie: cookie } });
    expect(page.status, `GET ${path}`).toBe(200);
    return page.text();
  };

  it('an invoice the buyer rejects parks its PO, shown in the admin API and the console; paid, it is marked paid', async () => {
    const { buyer, sandbox, serve } = stack;
    const processes = [serve.process, sandbox.process];
    const cart = await punchOut(browser, ['Business cards'], { browserFormPost: buyer.returnUrl });
    const payloadID = `po-status-${Date.now()}@acme.example`;
    expect(
      await browser.postCxml(orderRequest({ payloadID, orderID: 'PO-STATUS-1', lines: linesOf(cart) })),
    ).toMatch(/<Status code="200" text="OK"/);
    const accept = await acceptAtBuyer(buyer, processes);
    const printOrderId = Number(accept.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']);
    await printShopApi(sandbox).markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    const invoice = await eventually('the InvoiceDetailRequest at the buyer', () => invoiceAt(buyer), {
      processes,
    });
    const invoiceID = invoice.Request.InvoiceDetailRequest.InvoiceDetailRequestHeader['@invoiceID'];
    expect(invoiceID).toBe('INV-000001');

    const rejected = await browser.postCxml(
      invoiceStatus('ap-reject-1@acme.example', invoice, 'rejected', 'Shipping is not on our PO.'),
    );
    expect(rejected).toMatch(/<Status code="200" text="OK"\/>/);

    const { items: orders } = await admin('/orders');
    const { id } = orders.find((o: XmlTree) => o.orderId === 'PO-STATUS-1');
    const reason =
      'Invoice rejected by the buyer: INV-000001 (their comments: Shipping is not on our PO.). ' +
      'Answer the buyer (a credit memo, a corrected invoice), then mark the PO handled.';
    const parked = await admin(`/orders/${id}`);
    expect([parked.state, parked.flags, parked.lastError]).toEqual([
      'needs_operator',
      ['invoice_rejected'],
      reason,
    ]);
    expect(
      parked.invoices.map((i: XmlTree) => [
        i.invoiceId,
        i.buyerStatus,
        i.paid,
        i.buyerStatusHistory.map((u: XmlTree) => [u.invoiceStatus, u.comments, u.payloadId]),
      ]),
    ).toEqual([
      [
        'INV-000001',
        'rejected',
        false,
        [['rejected', 'Shipping is not on our PO.', 'ap-reject-1@acme.example']],
      ],
    ]);
    const overview = await admin('/overview');
    expect(overview.waitingForOperator.map((o: XmlTree) => [o.orderId, o.reason, o.flags])).toEqual([
      ['PO-STATUS-1', reason, ['invoice_rejected']],
    ]);

    expect(await consolePage('/admin/')).toContain(`<td>${reason}</td><td>invoice_rejected</td>`);
    const page = await consolePage(`/admin/ui/orders/${id}`);
    expect(page).toContain('<td>INV-000001</td>');
    expect(page).toContain(
      '<td>invoice INV-000001</td><td>rejected · Status 200 OK</td><td>Shipping is not on our PO.</td><td>ap-reject-1@acme.example</td>',
    );

    const paid = await browser.postCxml(invoiceStatus('ap-paid-1@acme.example', invoice, 'paid', ''));
    expect(paid).toMatch(/<Status code="200" text="OK"\/>/);
    const settled = await admin(`/orders/${id}`);
    expect([settled.state, settled.flags]).toEqual(['ordered', ['invoice_rejected']]);
    expect(settled.invoices.map((i: XmlTree) => [i.buyerStatus, i.paid])).toEqual([['paid', true]]);
    expect(settled.invoices[0].buyerStatusHistory.map((u: XmlTree) => u.invoiceStatus)).toEqual([
      'rejected',
      'paid',
    ]);
    expect(await consolePage(`/admin/ui/orders/${id}`)).toMatch(
      /<td>INV-000001<\/td>[\s\S]*?<td>paid<\/td><\/tr>/,
    );
  });
});
