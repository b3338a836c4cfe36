/**
 * The buyer's word on what we sent, in process through `/cxml`: a StatusUpdateRequest with an InvoiceStatus
 * is recorded against the invoice it names (by InvoiceIDInfo or by the invoice document's payloadID), shown
 * by the admin API with its history; `rejected` parks the PO for an operator with the buyer's comments,
 * `paid` marks the invoice paid; a buyer's Status for another document is recorded on that document. What a
 * buyer may not report on (unknown, another buyer's, not an invoice) and what cannot be read get a 4xx
 * naming the field, and change nothing.
 */
import { describe, expect, it } from 'vitest';
import { statusOf } from '../../support/punchout-flow.ts';
import { signIn } from '../operator/console/console-support.ts';
import {
  adminJson,
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
  buyersWith,
} from '../../support/order-flow.ts';

interface Sent {
  poId: string;
  invoiceID: string;
  invoicePayloadID: string;
  confirmationPayloadID: string;
}

/** acme's PO placed and shipped, so the buyer has its confirmation and its invoice. */
async function invoicedOrder(orderID = 'PO-STATUS-1'): Promise<{ stack: OrderStack; sent: Sent }> {
  const base = orderConfig();
  const stack = await createOrderStack({
    ...base,
    buyers: buyersWith(base.buyers, 'acme', { invoices: { send: 'on-ship' } }),
  });
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  const payloadID = `${orderID}@ariba.example`;
  expect(await sendOrder(stack, { payloadID, orderID, lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  await stack.api.markShipped(printOrderId!, { trackingNumber: '1Z999AA10123456784' });
  await drain(stack);
  const docs = stack.orderStatusPosts.map((post) => parseXml(post.body).cXML as XmlTree);
  const invoice = docs.find((d) => d.Request.InvoiceDetailRequest !== undefined);
  const confirmation = docs.find((d) => d.Request.ConfirmationRequest !== undefined);
  const po = await stack.store.orders.getByPayloadId('acme', payloadID);
  return {
    stack,
    sent: {
      poId: po!.id,
      invoiceID: invoice.Request.InvoiceDetailRequest.InvoiceDetailRequestHeader['@invoiceID'],
      invoicePayloadID: invoice['@payloadID'],
      confirmationPayloadID: confirmation['@payloadID'],
    },
  };
}

const ACME = { domain: 'NetworkID', identity: 'AN01000000001', secret: 'acme-secret' };
const COUPA = { domain: 'DUNS', identity: 'COUPA-ACME', secret: 'coupa-secret' };

/** A StatusUpdateRequest as a buyer's system sends one: `body` is what follows the Status. */
function statusUpdate(options: {
  payloadID: string;
  reference?: string;
  status?: string;
  body?: string;
  sender?: typeof ACME;
  deploymentMode?: 'test';
}): string {
  const { domain, identity, secret } = options.sender ?? ACME;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/Fulfill.dtd">
<cXML payloadID="${options.payloadID}" timestamp="2026-11-23T10:00:00-05:00" xml:lang="en-US">
<Header>
<From><Credential domain="${domain}"><Identity>${identity}</Identity></Credential></From>
<To><Credential domain="DUNS"><Identity>PRINTCO</Identity></Credential></To>
<Sender><Credential domain="${domain}"><Identity>${identity}</Identity><SharedSecret>${secret}</SharedSecret></Credential><UserAgent>Buyer AP 1.0</UserAgent></Sender>
</Header>
<Request${options.deploymentMode === undefined ? '' : ` deploymentMode="${options.deploymentMode}"`}><StatusUpdateRequest>
${options.reference === undefined ? '' : `<DocumentReference payloadID="${options.reference}"/>`}
${options.status ?? '<Status code="200" text="OK"/>'}
${options.body ?? ''}
</StatusUpdateRequest></Request>
</cXML>`;
}

const rejected = (invoiceID: string, comments = 'Shipping was not on the PO.') =>
  `<InvoiceStatus type="rejected"><InvoiceIDInfo invoiceID="${invoiceID}"/><Comments xml:lang="en">${comments}</Comments></InvoiceStatus>`;

async function send(stack: OrderStack, document: string) {
  return statusOf(await stack.postCxml(document));
}

async function order(stack: OrderStack, poId: string) {
  const { status, body } = await adminJson(stack, `/admin/orders/${poId}`);
  expect(status).toBe(200);
  return body as XmlTree;
}

describe('StatusUpdateRequest: InvoiceStatus from the buyer', () => {
  it('a rejected invoice is recorded with the buyer’s comments and parks the PO for an operator, once however often it comes', async () => {
    const { stack, sent } = await invoicedOrder();
    const document = statusUpdate({ payloadID: 'ap-1@acme.example', body: rejected(sent.invoiceID) });
    expect(await send(stack, document)).toEqual({ code: 200, text: 'OK', detail: '' });
    // The buyer's system retries: the same answer, nothing recorded twice.
    expect(await send(stack, document)).toEqual({ code: 200, text: 'OK', detail: '' });

    const po = await order(stack, sent.poId);
    expect(po.state).toBe('needs_operator');
    expect(po.flags).toContain('invoice_rejected');
    expect(po.lastError).toBe(
      `Invoice rejected by the buyer: ${sent.invoiceID} (their comments: Shipping was not on the PO.). ` +
        'Answer the buyer (a credit memo, a corrected invoice), then mark the PO handled.',
    );
    const [invoice] = po.invoices;
    expect(invoice.buyerStatus).toBe('rejected');
    expect(invoice.paid).toBe(false);
    expect(invoice.buyerStatusHistory).toEqual([
      {
        id: expect.any(String),
        payloadId: 'ap-1@acme.example',
        documentId: null,
        invoiceId: sent.invoiceID,
        status: { code: 200, text: 'OK', message: '' },
        invoiceStatus: 'rejected',
        partialAmount: null,
        comments: 'Shipping was not on the PO.',
        receivedAt: expect.any(String),
      },
    ]);
    expect(po.timeline).toContainEqual({
      at: invoice.buyerStatusHistory[0].receivedAt,
      event: 'status_update_received',
      detail: `invoice ${sent.invoiceID}: rejected (Shipping was not on the PO.)`,
    });
    const overview = await adminJson(stack, '/admin/overview');
    expect(overview.body.waitingForOperator).toEqual([
      expect.objectContaining({ id: sent.poId, reason: po.lastError, flags: po.flags }),
    ]);
  });

  it('paid, named by the invoice document’s payloadID, marks the invoice paid and lets a PO that waited only for its rejection go', async () => {
    const { stack, sent } = await invoicedOrder();
    await send(stack, statusUpdate({ payloadID: 'ap-1@acme.example', body: rejected(sent.invoiceID) }));
    const paid = statusUpdate({
      payloadID: 'ap-2@acme.example',
      reference: sent.invoicePayloadID,
      status: '<Status code="200" text="OK">Paid by bank transfer</Status>',
      body: '<InvoiceStatus type="paid"><PartialAmount><Money currency="USD">15.50</Money></PartialAmount></InvoiceStatus>',
    });
    expect(await send(stack, paid)).toEqual({ code: 200, text: 'OK', detail: '' });
    const po = await order(stack, sent.poId);
    expect(po.state).toBe('ordered');
    expect(po.flags).toContain('invoice_rejected');
    const [invoice] = po.invoices;
    expect([invoice.buyerStatus, invoice.paid]).toEqual(['paid', true]);
    expect(invoice.buyerStatusHistory.map((u: XmlTree) => [u.invoiceStatus, u.partialAmount])).toEqual([
      ['rejected', null],
      ['paid', { value: '15.50', currency: 'USD' }],
    ]);
    expect(invoice.buyerStatusHistory[1]).toMatchObject({
      documentId: invoice.deliveries[0].id,
      status: { code: 200, text: 'OK', message: 'Paid by bank transfer' },
    });
  });

  it('with two invoices rejected, paying one leaves the PO waiting over the other; paying both lets it go', async () => {
    const { stack, sent } = await invoicedOrder();
    // A second invoice of the PO (as a per-shipment invoice would be), known to the buyer by its invoiceID.
    const { invoice: second } = await stack.store.invoices.issue({
      buyerId: 'acme',
      poId: sent.poId,
      storefrontId: 'demo',
      printOrderId: 1,
      scope: 'shipment:2',
      purpose: 'standard',
      invoiceId: 'INV-SHIP-2',
      invoiceDate: stack.clock.now(),
      amounts: {
        currency: 'USD',
        subtotal: '1.00',
        tax: '0.00',
        shipping: '0.00',
        discount: '0.00',
        due: '1.00',
      },
    });
    const paid = (invoiceID: string) =>
      `<InvoiceStatus type="paid"><InvoiceIDInfo invoiceID="${invoiceID}"/></InvoiceStatus>`;
    const reason = (invoiceID: string, comments: string) =>
      `Invoice rejected by the buyer: ${invoiceID} (their comments: ${comments}). ` +
      'Answer the buyer (a credit memo, a corrected invoice), then mark the PO handled.';
    await send(
      stack,
      statusUpdate({ payloadID: 'r-1@acme.example', body: rejected(sent.invoiceID, 'Too much.') }),
    );
    await send(
      stack,
      statusUpdate({ payloadID: 'r-2@acme.example', body: rejected(second.invoiceId, 'Twice.') }),
    );
    expect((await order(stack, sent.poId)).lastError).toBe(reason('INV-SHIP-2', 'Twice.'));

    await send(stack, statusUpdate({ payloadID: 'p-2@acme.example', body: paid(second.invoiceId) }));
    const waiting = await order(stack, sent.poId);
    expect([waiting.state, waiting.lastError]).toEqual([
      'needs_operator',
      reason(sent.invoiceID, 'Too much.'),
    ]);

    await send(stack, statusUpdate({ payloadID: 'p-1@acme.example', body: paid(sent.invoiceID) }));
    const settled = await order(stack, sent.poId);
    expect([settled.state, settled.lastError]).toEqual([
      'ordered',
      `Paid by the buyer after it was rejected: ${reason(sent.invoiceID, 'Too much.')}`,
    ]);
  });

  it('processing and reconciled are recorded and change nothing else', async () => {
    const { stack, sent } = await invoicedOrder();
    for (const [i, type] of ['processing', 'reconciled'].entries()) {
      const body = `<InvoiceStatus type="${type}"><InvoiceIDInfo invoiceID="${sent.invoiceID}"/></InvoiceStatus>`;
      expect(await send(stack, statusUpdate({ payloadID: `ap-${i}@acme.example`, body }))).toMatchObject({
        code: 200,
      });
    }
    const po = await order(stack, sent.poId);
    expect([po.state, po.flags.includes('invoice_rejected')]).toEqual(['ordered', false]);
    expect(po.invoices[0].buyerStatus).toBe('reconciled');
    expect(po.invoices[0].buyerStatusHistory.map((u: XmlTree) => u.invoiceStatus)).toEqual([
      'processing',
      'reconciled',
    ]);
  });

  it('a buyer’s Status for another document we sent is recorded on that document', async () => {
    const { stack, sent } = await invoicedOrder();
    const document = statusUpdate({
      payloadID: 'ap-9@acme.example',
      reference: sent.confirmationPayloadID,
      status: '<Status code="500" text="Internal Server Error">Line 1 could not be matched</Status>',
    });
    expect(await send(stack, document)).toEqual({ code: 200, text: 'OK', detail: '' });
    const po = await order(stack, sent.poId);
    const confirmation = po.outbox.find((m: XmlTree) => m.kind === 'confirmation');
    expect(po.statusUpdates).toEqual([
      expect.objectContaining({
        documentId: confirmation.id,
        invoiceId: null,
        invoiceStatus: null,
        status: { code: 500, text: 'Internal Server Error', message: 'Line 1 could not be matched' },
      }),
    ]);
    expect(po.invoices[0].buyerStatusHistory).toEqual([]);
    expect(po.state).toBe('ordered');
  });
});

describe('StatusUpdateRequest in the console', () => {
  it('the overview says why a PO waits over a rejected invoice; the PO page shows the invoice’s status and history', async () => {
    const { stack, sent } = await invoicedOrder('PO-STATUS-UI');
    await send(
      stack,
      statusUpdate({
        payloadID: 'ap-1@acme.example',
        body: rejected(sent.invoiceID, 'Price &amp; shipping wrong'),
      }),
    );
    const operator = await signIn(stack);
    const overview = await (await operator.get('/admin/')).text();
    expect(overview).toContain(
      `<td>Invoice rejected by the buyer: ${sent.invoiceID} (their comments: Price &amp; shipping wrong). ` +
        'Answer the buyer (a credit memo, a corrected invoice), then mark the PO handled.</td>',
    );
    expect(overview).toContain('invoice_rejected');
    const page = await (await operator.get(`/admin/ui/orders/${sent.poId}`)).text();
    expect(page).toContain('<th scope="col">Buyer\'s status</th>');
    expect(page).toMatch(new RegExp(`<td>${sent.invoiceID}</td>[\\s\\S]*?<td>rejected</td></tr>`));
    expect(page).toContain('What the buyer reported on our documents (StatusUpdateRequest)');
    expect(page).toContain(
      `<td>invoice ${sent.invoiceID}</td><td>rejected · Status 200 OK</td><td>Price &amp; shipping wrong</td><td>ap-1@acme.example</td>`,
    );
    // The buyer's summary counts the invoice by what its accounts payable said, not by its delivery.
    const buyers = await (await operator.get('/admin/ui/buyers')).text();
    expect(buyers).toContain('<dt>Invoices and credit memos</dt><dd>1 invoice rejected by the buyer</dd>');
  });
});

describe('StatusUpdateRequest: what is refused, and changes nothing', () => {
  const cases: [
    string,
    (sent: Sent) => string,
    { code: number; text: string; detail: (sent: Sent) => string },
  ][] = [
    [
      'an unknown invoiceID',
      () => statusUpdate({ payloadID: 'x-1@acme.example', body: rejected('INV-999999') }),
      {
        code: 404,
        text: 'Not Found',
        detail: () =>
          'InvoiceStatus/InvoiceIDInfo invoiceID "INV-999999" names no invoice sent to this buyer.',
      },
    ],
    [
      'another buyer’s invoice (coupa reporting on acme’s)',
      (sent) =>
        statusUpdate({ payloadID: 'x-2@coupa.example', body: rejected(sent.invoiceID), sender: COUPA }),
      {
        code: 404,
        text: 'Not Found',
        detail: (sent) =>
          `InvoiceStatus/InvoiceIDInfo invoiceID "${sent.invoiceID}" names no invoice sent to this buyer.`,
      },
    ],
    [
      'another buyer’s invoice document (by payloadID)',
      (sent) =>
        statusUpdate({
          payloadID: 'x-3@coupa.example',
          reference: sent.invoicePayloadID,
          body: '<InvoiceStatus type="rejected"/>',
          sender: COUPA,
        }),
      {
        code: 404,
        text: 'Not Found',
        detail: (sent) =>
          `StatusUpdateRequest/DocumentReference payloadID "${sent.invoicePayloadID}" names no document sent to this buyer.`,
      },
    ],
    [
      'an InvoiceStatus about a confirmation',
      (sent) =>
        statusUpdate({
          payloadID: 'x-4@acme.example',
          reference: sent.confirmationPayloadID,
          body: '<InvoiceStatus type="rejected"/>',
        }),
      {
        code: 400,
        text: 'Bad Request',
        detail: (sent) =>
          `StatusUpdateRequest/DocumentReference payloadID "${sent.confirmationPayloadID}" names a confirmation ` +
          'document, not an invoice; an InvoiceStatus reports on an InvoiceDetailRequest.',
      },
    ],
    [
      'an InvoiceIDInfo that is not the invoice its DocumentReference names',
      (sent) =>
        statusUpdate({
          payloadID: 'x-5@acme.example',
          reference: sent.invoicePayloadID,
          body: '<InvoiceStatus type="rejected"><InvoiceIDInfo invoiceID="INV-999999"/></InvoiceStatus>',
        }),
      {
        code: 404,
        text: 'Not Found',
        detail: () =>
          'InvoiceStatus/InvoiceIDInfo invoiceID "INV-999999" names no invoice sent to this buyer.',
      },
    ],
    [
      'an unknown status type',
      (sent) =>
        statusUpdate({
          payloadID: 'x-6@acme.example',
          body: `<InvoiceStatus type="disputed"><InvoiceIDInfo invoiceID="${sent.invoiceID}"/></InvoiceStatus>`,
        }),
      {
        code: 400,
        text: 'Bad Request',
        detail: () =>
          'InvoiceStatus type "disputed" is not one of processing, canceled, reconciled, rejected, paying, paid',
      },
    ],
    [
      'a StatusUpdateRequest without a Status',
      (sent) => statusUpdate({ payloadID: 'x-7@acme.example', status: '', body: rejected(sent.invoiceID) }),
      { code: 400, text: 'Bad Request', detail: () => 'StatusUpdateRequest has no Status' },
    ],
    [
      'a test document about a production order',
      (sent) =>
        statusUpdate({
          payloadID: 'x-9@acme.example',
          body: rejected(sent.invoiceID),
          deploymentMode: 'test',
        }),
      {
        code: 400,
        text: 'Bad Request',
        detail: () =>
          'This StatusUpdateRequest carries deploymentMode "test" but names a document of production purchase ' +
          "order PO-STATUS-1; send it in the order's mode.",
      },
    ],
    [
      'a wrong SharedSecret',
      (sent) =>
        statusUpdate({
          payloadID: 'x-8@acme.example',
          body: rejected(sent.invoiceID),
          sender: { ...ACME, secret: 'guess' },
        }),
      {
        code: 401,
        text: 'Unauthorized',
        detail: () => 'Authentication failed: the Sender SharedSecret is not valid.',
      },
    ],
  ];

  it.each(cases)('%s', async (_name, document, answer) => {
    const { stack, sent } = await invoicedOrder();
    const before = await order(stack, sent.poId);
    expect(await send(stack, document(sent))).toEqual({
      code: answer.code,
      text: answer.text,
      detail: answer.detail(sent),
    });
    const after = await order(stack, sent.poId);
    expect([after.state, after.flags, after.updatedAt]).toEqual([
      before.state,
      before.flags,
      before.updatedAt,
    ]);
    expect(after.statusUpdates).toEqual([]);
    expect(await stack.store.statusUpdates.listByPo(sent.poId)).toEqual([]);
  });
});
