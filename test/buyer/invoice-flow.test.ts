/**
 * Invoices at the buyer simulator's endpoints (issue 19, deliverable 5): the order-status endpoint takes
 * InvoiceDetailRequests for Ariba-style and SAP-style orders, the Coupa-style profile only at its own
 * `/coupa/invoices`; each is checked against the PO the simulator sent, answered with a cXML Status, and
 * shown on the requisition with its figures, due date and verdict.
 */
import { ARIBA_PROFILE, COUPA_PROFILE, SAP_PROFILE } from '@punchgate/sandbox/buyer';
import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../src/cxml/index.ts';
import { confirmation, createTestSimulator, form, PUBLIC } from './fake-gateway.ts';
import { CARD_INVOICE_LINE, type InvoiceSpec, invoiceDocument } from './invoice-documents.ts';
import { postCxmlAt, requisitionPage, requisitionWithCart, type Simulator } from './requisitions.ts';

/** A requisition of the profile with both cart lines, ordered as PO-1001 (the first order number). */
async function ordered(sim: Simulator, profile: string): Promise<{ id: string; po: OrderRequest }> {
  const id = await requisitionWithCart(sim, profile);
  const sent = await sim.request(`/requisitions/${id}/order`, form([['comments', '']]));
  expect(sent.status).toBe(303);
  return { id, po: sim.gateway.requests.at(-1) as OrderRequest };
}

const OK = { code: 200, text: 'OK', detail: '' };

function invoice(po: OrderRequest, spec: InvoiceSpec = {}): string {
  return invoiceDocument({ orderPayloadID: po.payloadID, ...spec });
}

describe('invoices at the order-status endpoint', () => {
  it('accepts an invoice that matches the PO and shows it on the requisition with its due date', async () => {
    const sim = createTestSimulator();
    const { id, po } = await ordered(sim, 'ariba');
    await postCxmlAt(sim, '/order-status', confirmation('PO-1001', po.payloadID, 'accept'));
    expect(
      await postCxmlAt(sim, '/order-status', invoice(po, { comments: 'Thank you &amp; see you' })),
    ).toEqual(OK);

    const html = await requisitionPage(sim, id);
    expect(html).toContain('<span class="pill good">Invoiced</span>');
    expect(html).toContain(
      '<h3 id="invoice-1">Invoice <span class="mono">INV-70001</span> <span class="pill good">accepted</span></h3>',
    );
    expect(html).toContain('<dt>Purpose</dt><dd>standard</dd>');
    expect(html).toContain('<dt>Invoice date</dt><dd class="mono">2026-11-22T09:00:00+00:00</dd>');
    expect(html).toContain('<dt>Payment term</dt><dd>net 30 days</dd>');
    expect(html).toContain('<dt>Due date</dt><dd class="mono">2026-12-22</dd>');
    expect(html).toContain('<dt>Amount due</dt><dd><strong>148.38 USD</strong></dd>');
    expect(html).toContain('<dt>Comments</dt><dd class="long">Thank you &amp; see you</dd>');
    expect(html).toContain(
      '<tr><td class="num">1</td><td class="num">1</td><td class="mono">BC-STD</td><td>Line 1</td><td class="num">500</td><td>EA</td><td class="num">0.09 USD</td><td class="num">45.00 USD</td></tr>',
    );
    for (const [name, value] of [
      ['Subtotal', '132.50'],
      ['Tax', '10.93'],
      ['Shipping', '9.95'],
      ['Discount', '−5.00'],
      ['Net', '148.38'],
    ]) {
      expect(html).toContain(`<tr><th scope="row">${name}</th><td class="num">${value} USD</td></tr>`);
    }
    expect(html).toContain('<tfoot><tr><th scope="row">Due</th><td class="num">148.38 USD</td></tr></tfoot>');
    expect(html).toContain('Invoice INV-70001 for PO-1001, due 148.38 USD. Answered 200 OK.');
    expect(html).toContain('&lt;InvoiceDetailRequest&gt;');
    expect(html).toContain('Response to InvoiceDetailRequest');

    const home = await (await sim.request('/')).text();
    expect(home).toContain(
      `<td>InvoiceDetailRequest</td><td><a href="${PUBLIC}/requisitions/${id}">PO-1001</a></td><td><span class="pill good">200 OK</span>`,
    );
  });

  it('shows line taxes with isTaxInLine', async () => {
    const sim = createTestSimulator();
    const { id, po } = await ordered(sim, 'coupa');
    expect(await postCxmlAt(sim, '/coupa/invoices', invoice(po, { taxInLine: true }))).toEqual(OK);
    const html = await requisitionPage(sim, id);
    expect(html).toContain('<th scope="col" class="num">Tax</th>');
    expect(html).toContain('<td class="num">45.00 USD</td><td class="num">3.71 USD</td></tr>');
  });

  it('keeps one copy of a resend (same invoiceID and payloadID) and refuses the invoiceID on another document', async () => {
    const sim = createTestSimulator();
    const { id, po } = await ordered(sim, 'ariba');
    expect(await postCxmlAt(sim, '/order-status', invoice(po))).toEqual(OK);
    expect(await postCxmlAt(sim, '/order-status', invoice(po))).toEqual(OK);
    let html = await requisitionPage(sim, id);
    expect(html.match(/<h3 id="invoice-\d+">/g)).toEqual(['<h3 id="invoice-1">']);
    expect(html).toContain('<span class="muted">(2 times, same payloadID)</span>');
    expect(html).toContain(
      'Invoice INV-70001 for PO-1001, due 148.38 USD. It arrived again with the same payloadID and is kept once. Answered 200 OK.',
    );

    const detail =
      'Invoice number INV-70001 was taken already by payloadID inv-1@printco.test (purchase order PO-1001); a new invoice needs a new invoiceID.';
    expect(
      await postCxmlAt(sim, '/order-status', invoice(po, { payloadID: 'inv-again@printco.test' })),
    ).toEqual({
      code: 417,
      text: 'Expectation Failed',
      detail,
    });
    html = await requisitionPage(sim, id);
    expect(html).toContain(
      '<h3 id="invoice-2">Invoice <span class="mono">INV-70001</span> <span class="pill bad">refused: 417 Expectation Failed</span></h3>',
    );
    expect(html).toContain(`<div class="notice error" role="alert">${detail}</div>`);
    // Still invoiced by the first.
    expect(html).toContain('<span class="pill good">Invoiced</span>');
  });

  it('refuses an invoice that does not match the PO, records it, and takes the corrected resend', async () => {
    const sim = createTestSimulator();
    const { id, po } = await ordered(sim, 'ariba');
    const wrong = invoice(po, { lines: [{ ...CARD_INVOICE_LINE, unitPrice: '0.12', subtotal: '60.00' }] });
    const refusal = {
      code: 400,
      text: 'Bad Request',
      detail: "Invoice line 1 bills PO line 1 at 0.12 USD; the purchase order's price is 0.09 USD.",
    };
    expect(await postCxmlAt(sim, '/order-status', wrong)).toEqual(refusal);
    let html = await requisitionPage(sim, id);
    expect(html).toContain('<span class="pill bad">refused: 400 Bad Request</span>');
    expect(html).toContain(
      'Invoice INV-70001 for PO-1001, due 69.90 USD. Refused: 400 Bad Request. Invoice line 1 bills PO line 1 at 0.12 USD; the purchase order&#39;s price is 0.09 USD.',
    );
    expect(html).not.toContain('<span class="pill good">Invoiced</span>');
    const home = await (await sim.request('/')).text();
    expect(home).toContain('<span class="pill bad">400 Bad Request</span>');

    // The supplier corrects it and sends it again with the same invoiceID and a new payloadID.
    expect(
      await postCxmlAt(sim, '/order-status', invoice(po, { payloadID: 'inv-fixed@printco.test' })),
    ).toEqual(OK);
    html = await requisitionPage(sim, id);
    expect(html.match(/<h3 id="invoice-\d+">/g)).toEqual(['<h3 id="invoice-1">', '<h3 id="invoice-2">']);
    expect(html).toContain('<span class="pill good">Invoiced</span>');
  });

  it('takes a credit memo for the invoice, shown as such', async () => {
    const sim = createTestSimulator();
    const { id, po } = await ordered(sim, 'ariba');
    expect(await postCxmlAt(sim, '/order-status', invoice(po))).toEqual(OK);
    const memo = invoice(po, {
      invoiceID: 'CM-70001',
      payloadID: 'cm-1@printco.test',
      purpose: 'creditMemo',
      creditedInvoiceID: 'INV-70001',
      headerOrder: true,
      subtotal: '-132.50',
      tax: '-10.93',
      shipping: '-9.95',
      discount: '-5.00',
      paymentTermDays: -1,
    });
    expect(await postCxmlAt(sim, '/order-status', memo)).toEqual(OK);
    const html = await requisitionPage(sim, id);
    expect(html).toContain(
      '<h3 id="invoice-2">Credit memo <span class="mono">CM-70001</span> <span class="pill good">accepted</span></h3>',
    );
    expect(html).toContain('<dt>Credits invoice</dt><dd class="mono">INV-70001</dd>');
    expect(html).toContain('<dt>Payment term</dt><dd>none given (due on receipt)</dd>');
    expect(html).toContain('<dt>Due date</dt><dd class="mono">2026-11-22</dd>');
    expect(html).toContain('<p>No lines: a header credit memo for the whole order.</p>');
    expect(html).toContain('<dt>Amount due</dt><dd><strong>-148.38 USD</strong></dd>');
  });

  it('answers 417 for an unknown PO and 401 without the agreed supplier secret', async () => {
    const sim = createTestSimulator({
      profiles: [{ ...ARIBA_PROFILE, supplierSecret: 'agreed-secret' }, COUPA_PROFILE, SAP_PROFILE],
    });
    const { id, po } = await ordered(sim, 'ariba');
    expect(await postCxmlAt(sim, '/order-status', invoice(po, { orderID: 'PO-9999' }))).toEqual({
      code: 417,
      text: 'Expectation Failed',
      detail: 'No purchase order PO-9999 is known here.',
    });
    expect(await postCxmlAt(sim, '/order-status', invoice(po))).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'No Sender credential carries the SharedSecret agreed with this buyer.',
    });
    expect(await postCxmlAt(sim, '/order-status', invoice(po, { sharedSecret: 'agreed-secret' }))).toEqual(
      OK,
    );
    expect((await requisitionPage(sim, id)).match(/<h3 id="invoice-\d+">/g)).toEqual(['<h3 id="invoice-1">']);
  });
});

describe('invoice numbers', () => {
  it('are unique within one buyer system: another profile may get the same invoiceID', async () => {
    const sim = createTestSimulator();
    const ariba = await ordered(sim, 'ariba');
    const coupa = await ordered(sim, 'coupa');
    expect(coupa.po.orderID).toBe('PO-1002');
    expect(await postCxmlAt(sim, '/order-status', invoice(ariba.po, { invoiceID: 'INV-000001' }))).toEqual(
      OK,
    );
    const second = invoice(coupa.po, {
      invoiceID: 'INV-000001',
      payloadID: 'inv-coupa@printco.test',
      orderID: 'PO-1002',
    });
    expect(await postCxmlAt(sim, '/coupa/invoices', second)).toEqual(OK);
    const third = await ordered(sim, 'ariba');
    expect(
      await postCxmlAt(
        sim,
        '/order-status',
        invoice(third.po, { invoiceID: 'INV-000001', payloadID: 'inv-3@printco.test', orderID: 'PO-1003' }),
      ),
    ).toEqual({
      code: 417,
      text: 'Expectation Failed',
      detail:
        'Invoice number INV-000001 was taken already by payloadID inv-1@printco.test (purchase order PO-1001); a new invoice needs a new invoiceID.',
    });
  });
});

describe("the Coupa-style profile's own invoice URL", () => {
  it('takes its invoices at /coupa/invoices only', async () => {
    const sim = createTestSimulator();
    const { id, po } = await ordered(sim, 'coupa');
    expect(await postCxmlAt(sim, '/order-status', invoice(po))).toEqual({
      code: 403,
      text: 'Forbidden',
      detail: `Invoices for purchase orders of Coupa-style cXML go to ${PUBLIC}/coupa/invoices; this endpoint takes its ConfirmationRequests and ShipNoticeRequests.`,
    });
    let html = await requisitionPage(sim, id);
    expect(html).toContain('<span class="pill bad">refused: 403 Forbidden</span>');
    expect(html).toContain(`<dt>At</dt><dd class="mono">${PUBLIC}/order-status</dd>`);

    expect(
      await postCxmlAt(sim, '/coupa/invoices', invoice(po, { payloadID: 'inv-coupa@printco.test' })),
    ).toEqual(OK);
    html = await requisitionPage(sim, id);
    expect(html).toContain(`<dt>At</dt><dd class="mono">${PUBLIC}/coupa/invoices</dd>`);
    expect(html).toContain('<span class="pill good">Invoiced</span>');
    // Confirmations still go to the order-status endpoint.
    expect(await postCxmlAt(sim, '/order-status', confirmation('PO-1001', po.payloadID, 'accept'))).toEqual(
      OK,
    );

    const home = await (await sim.request('/')).text();
    expect(home).toContain(
      `<dt>Invoices (Coupa-style cXML)</dt><dd><code>${PUBLIC}/coupa/invoices</code></dd>`,
    );
  });

  it('reads nothing but invoices, and knows only Coupa-style purchase orders', async () => {
    const sim = createTestSimulator();
    const { po } = await ordered(sim, 'ariba');
    expect(await postCxmlAt(sim, '/coupa/invoices', confirmation('PO-1001', po.payloadID, 'accept'))).toEqual(
      {
        code: 450,
        text: 'Not Implemented',
        detail: 'This endpoint reads InvoiceDetailRequest, not ConfirmationRequest.',
      },
    );
    expect(await postCxmlAt(sim, '/coupa/invoices', invoice(po))).toEqual({
      code: 417,
      text: 'Expectation Failed',
      detail: 'No purchase order PO-1001 is known here.',
    });
    expect(await postCxmlAt(sim, '/coupa/invoices', `<cXML>${' '.repeat(2 * 1024 * 1024)}</cXML>`)).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is larger than 2 MiB.',
    });
  });
});
