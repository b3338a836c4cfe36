import { ARIBA_PROFILE, COUPA_PROFILE, SAP_PROFILE } from '@punchgate/sandbox/buyer';
import { describe, expect, it } from 'vitest';
import {
  buildOrderMessage,
  extrinsicValue,
  type OrderMessageLine,
  type OrderRequest,
  type PunchOutSetupRequest,
} from '../../src/cxml/index.ts';
import { buildOciItems } from '../../src/oci/index.ts';
import {
  base64,
  CARD_LINE,
  confirmation,
  createTestSimulator,
  form,
  lineConfirmation,
  PUBLIC,
  SUPPLIER_HEADER,
  shipNotice,
} from './fake-gateway.ts';
import { postCxmlAt, requisitionPage, requisitionWithCart, type Simulator } from './requisitions.ts';

const postStatus = (sim: Simulator, xml: string) => postCxmlAt(sim, '/order-status', xml);

async function order(sim: Simulator, id: string, comments = 'Ring twice'): Promise<OrderRequest> {
  const res = await sim.request(`/requisitions/${id}/order`, form([['comments', comments]]));
  expect(res.status).toBe(303);
  expect(res.headers.get('Location')).toBe(`${PUBLIC}/requisitions/${id}`);
  return sim.gateway.requests.at(-1) as OrderRequest;
}

describe('purchase order', () => {
  it('sends the requisition as an OrderRequest echoing the cart lines and shows the accepted answer', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id, 'Deliver to "Dock 3" <east>');
    expect(po.kind).toBe('OrderRequest');
    expect(po.orderID).toBe('PO-1001');
    expect(po.header.from.map((c) => c.identity)).toContain('AN01000000001');
    expect(po.total.value).toBe('132.50');
    expect(po.comments).toBe('Deliver to "Dock 3" <east>');
    expect(
      po.items.map((i) => [
        i.lineNumber,
        i.supplierPartID,
        i.supplierPartAuxiliaryID,
        i.quantity,
        i.unitPrice.value,
      ]),
    ).toEqual([
      [1, 'BC-STD', 'L7K2QX', '500', '0.09'],
      [2, 'FLY-A5', 'M3P9ZA', '250', '0.35'],
    ]);
    expect(extrinsicValue(po.items[0]?.extrinsics ?? [], 'designId')).toBe('9');
    expect(po.items[0]?.classifications).toEqual([{ domain: 'UNSPSC', code: '82121512' }]);

    const html = await requisitionPage(sim, id);
    expect(html).toContain('Purchase order PO-1001 was accepted: 200 OK.');
    expect(html).toContain('<dt>Purchase order</dt><dd class="mono">PO-1001</dd>');
    expect(html).toContain(`<dt>payloadID</dt><dd class="mono">${po.payloadID}</dd>`);
    expect(html).toContain('<span class="pill good">200 OK</span>');
    expect(html).toContain('OrderRequest PO-1001');
    expect(html).toContain("Waiting for the supplier's ConfirmationRequest and ShipNoticeRequest");
    expect(html).toContain(`data-poll-url="${PUBLIC}/requisitions/${id}/revision"`);
    // Ordered: no more punch-outs, edits or order form.
    expect(html).not.toContain('Submit purchase order');
    expect(html).not.toContain('value="edit"');
  });

  it('re-sends the same document (same payloadID) after a refusal, and shows the refusal', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'coupa');
    sim.gateway.answers.push({ code: 500, text: 'Internal Server Error', detail: 'try again' });
    const first = await order(sim, id);
    let html = await requisitionPage(sim, id);
    expect(html).toContain('Purchase order PO-1001 was not accepted. 500 Internal Server Error: try again');
    expect(html).toContain('Send the OrderRequest again (same payloadID)');
    const again = await order(sim, id);
    expect(again.payloadID).toBe(first.payloadID);
    expect(again.raw).toBe(first.raw);
    html = await requisitionPage(sim, id);
    expect(html).toContain('after 2 attempts');
    expect(html).toContain('OrderRequest PO-1001 (attempt 2, same payloadID)');
  });

  it("sends SAP's order as cXML with the order credentials, after an OCI cart", async () => {
    const sim = createTestSimulator();
    const res = await sim.request(
      '/requisitions',
      form([
        ['profile', 'sap'],
        ['user', 'jroe'],
      ]),
    );
    const id = /(REQ-[A-Z0-9]+)/.exec(res.headers.get('Location') ?? '')?.[1] ?? '';
    const fields = buildOciItems(
      [
        {
          lineRef: 'M3P9ZA',
          sku: 'FLY-A5',
          description: 'A5 flyer',
          quantity: 250,
          unitPrice: '0.35',
          currency: 'EUR',
          uom: 'EA',
          unspsc: '82121503',
        },
      ],
      { unitMap: { EA: 'ST' } },
    );
    await sim.request(`/requisitions/${id}/oci-cart`, form(fields));
    const po = await order(sim, id);
    expect(po.header.from).toEqual([{ domain: 'NetworkID', identity: 'SAP1-ORDERS' }]);
    expect(po.header.sender.credentials[0]?.sharedSecret).toBe('sap1-order-secret');
    expect(
      po.items.map((i) => [i.supplierPartID, i.supplierPartAuxiliaryID, i.unitOfMeasure, i.quantity]),
    ).toEqual([['FLY-A5', 'M3P9ZA', 'EA', '250']]);
  });

  it('refuses to order an empty requisition', async () => {
    const sim = createTestSimulator();
    const res = await sim.request(
      '/requisitions',
      form([
        ['profile', 'ariba'],
        ['user', 'jroe'],
      ]),
    );
    const id = /(REQ-[A-Z0-9]+)/.exec(res.headers.get('Location') ?? '')?.[1] ?? '';
    await sim.request(`/requisitions/${id}/order`, form([['comments', '']]));
    expect(sim.gateway.requests.map((r) => r.kind)).toEqual(['PunchOutSetupRequest']);
    expect(await requisitionPage(sim, id)).toContain(
      'A purchase order needs at least one line; punch out to add some.',
    );
  });
});

describe('order-status endpoint', () => {
  it('stores a confirmation and a ship notice on the order and shows them', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id);

    expect(
      await postStatus(
        sim,
        confirmation('PO-1001', po.payloadID, 'accept', 'Printing starts today & ships Friday'),
      ),
    ).toEqual({
      code: 200,
      text: 'OK',
      detail: '',
    });
    let html = await requisitionPage(sim, id);
    expect(html).toContain('Confirmed (accept)');
    expect(html).toContain('Confirmation <span class="pill good">accept</span>');
    expect(html).toContain('<dt>Comments</dt><dd class="long">Printing starts today &amp; ships Friday</dd>');
    expect(html).toContain('<dt>Supplier order</dt><dd class="mono">PRINT-4711, 4711</dd>');
    expect(html).toContain(
      'Confirmation &quot;accept&quot; for PO-1001: Printing starts today &amp; ships Friday. Answered 200 OK.',
    );

    expect((await postStatus(sim, shipNotice('PO-1001', po.payloadID))).code).toBe(200);
    html = await requisitionPage(sim, id);
    expect(html).toContain('<span class="pill good">Shipped</span>');
    expect(html).toContain('Ship notice <span class="mono">SH-4711-1</span>');
    expect(html).toContain(
      '<dt>Carrier</dt><dd>DHL <span class="muted">(companyName)</span>, DHLC <span class="muted">(SCAC)</span></dd>',
    );
    expect(html).toContain(
      '<span class="mono">00340434161094042557</span> <a href="https://tracking.example/00340434161094042557" target="_blank" rel="noopener noreferrer">track</a>',
    );
    expect(html).toContain('<dt>Shipment date</dt><dd class="mono">2026-11-22T09:00:00+00:00</dd>');
    expect(html).toContain(
      '<tr><td class="num">1</td><td class="mono">BC-STD</td><td>Business cards, 85 × 55 mm</td><td class="num">500</td><td>EA</td></tr>',
    );
    // The raw documents, and the answers sent, are on the page too.
    expect(html).toContain('&lt;ShipNoticeRequest&gt;');
    expect(html).toContain('Response to ShipNoticeRequest');

    const home = await (await sim.request('/')).text();
    expect(home).toContain(`<a href="${PUBLIC}/requisitions/${id}">PO-1001</a>`);
  });

  it('ends the activity line with one full stop when the comments bring their own', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id);
    await postStatus(sim, confirmation('PO-1001', po.payloadID, 'accept', 'Accepted as print order 4711.'));
    const html = await requisitionPage(sim, id);
    expect(html).toContain(
      'Confirmation &quot;accept&quot; for PO-1001: Accepted as print order 4711. Answered 200 OK.',
    );
    expect(html).not.toContain('4711..');
  });

  it('shows a rejection with its reason', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'coupa');
    const po = await order(sim, id);
    await postStatus(sim, confirmation('PO-1001', po.payloadID, 'reject', 'Artwork missing <bleed>'));
    const html = await requisitionPage(sim, id);
    expect(html).toContain('Rejected by supplier');
    expect(html).toContain('Confirmation <span class="pill bad">reject</span>');
    expect(html).toContain('Artwork missing &lt;bleed&gt;');
  });

  it('shows each line’s status as its ConfirmationStatus says, a rejected line with its reason', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id);
    let html = await requisitionPage(sim, id);
    expect(html).toContain('<th scope="col">Supplier status</th>');
    expect(html.match(/<span class="muted">not confirmed<\/span>/g)).toHaveLength(2);

    await postStatus(sim, confirmation('PO-1001', po.payloadID, 'accept', 'Accepted as print order 4711.'));
    await postStatus(
      sim,
      lineConfirmation('PO-1001', po.payloadID, [
        { lineNumber: 2, quantity: 250, type: 'reject', comments: 'Print order 4712 was <cancelled>.' },
      ]),
    );
    html = await requisitionPage(sim, id);
    expect(html).toContain('Partly rejected (1 of 2 lines)');
    const rows = [...html.matchAll(/<tr><td class="num">(\d)<\/td>[\s\S]*?<\/tr>/g)].map((m) => m[0]);
    expect(rows[0]).toContain('<span class="pill good">accept</span>');
    expect(rows[1]).toContain(
      '<span class="pill bad">reject</span><div class="long">Print order 4712 was &lt;cancelled&gt;.</div>',
    );

    // An update of that confirmation restates it: line 2 accepted again after all.
    await postStatus(
      sim,
      lineConfirmation('PO-1001', po.payloadID, [{ lineNumber: 2, quantity: 250, type: 'accept' }], {
        payloadID: '3.update@gateway.test',
        amends: '3.detail@gateway.test',
      }),
    );
    html = await requisitionPage(sim, id);
    expect(html).toContain('Confirmed (accept)');
    expect(html).not.toContain('<span class="pill bad">reject</span>');
  });

  it('reads line statuses, not Comments: lines accepted under a comment that says "Cancelled" stay accepted', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id);
    await postStatus(
      sim,
      lineConfirmation(
        'PO-1001',
        po.payloadID,
        [
          { lineNumber: 1, quantity: 500, type: 'accept', comments: 'Cancelled' },
          { lineNumber: 2, quantity: 250, type: 'reject' },
        ],
        { comments: 'Print order 4711 is now "Cancelled".' },
      ),
    );
    const html = await requisitionPage(sim, id);
    const rows = [...html.matchAll(/<tr><td class="num">(\d)<\/td>[\s\S]*?<\/tr>/g)].map((m) => m[0]);
    expect(rows[0]).toContain('<span class="pill good">accept</span>');
    expect(rows[1]).toContain('<span class="pill bad">reject</span>');
    expect(html).toContain('Partly rejected (1 of 2 lines)');
  });

  it('a whole-order reject rejects every line, its header Comments the reason', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'coupa');
    const po = await order(sim, id);
    await postStatus(sim, confirmation('PO-1001', po.payloadID, 'reject', 'Print order 4711 was cancelled.'));
    const html = await requisitionPage(sim, id);
    expect(
      html.match(
        /<span class="pill bad">reject<\/span><div class="long">Print order 4711 was cancelled\.<\/div>/g,
      ),
    ).toHaveLength(2);
  });

  it('warns when a document refers to another payloadID than the OrderRequest had', async () => {
    const sim = createTestSimulator();
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id);
    await postStatus(sim, confirmation('PO-1001', 'some-other@payload', 'accept'));
    expect(await requisitionPage(sim, id)).toContain(
      `ConfirmationRequest refers to payloadID some-other@payload, but OrderRequest PO-1001 had payloadID ${po.payloadID}.`,
    );
  });

  it.each([
    {
      name: 'not XML',
      body: 'hello',
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is not well-formed XML',
    },
    {
      name: 'not cXML',
      body: '<order/>',
      code: 406,
      text: 'Not Acceptable',
      detail: 'The root element is <order>, not <cXML>.',
    },
    {
      name: 'another request',
      body: '<cXML payloadID="1@x" timestamp="2026-01-01T00:00:00Z"><Header/><Request><OrderRequest/></Request></cXML>',
      code: 450,
      text: 'Not Implemented',
      detail:
        'This endpoint reads ConfirmationRequest, ShipNoticeRequest and InvoiceDetailRequest, not OrderRequest.',
    },
    {
      name: 'no orderID',
      body: '<cXML payloadID="1@x" timestamp="2026-01-01T00:00:00Z"><Request><ConfirmationRequest><ConfirmationHeader type="accept"/><OrderReference><DocumentReference payloadID="p"/></OrderReference></ConfirmationRequest></Request></cXML>',
      code: 400,
      text: 'Bad Request',
      detail: 'OrderReference has no orderID attribute.',
    },
  ])('answers $name with $code', async ({ body, code, text, detail }) => {
    const sim = createTestSimulator();
    const status = await postStatus(sim, body);
    expect(status.code).toBe(code);
    expect(status.text).toBe(text);
    expect(status.detail.startsWith(detail)).toBe(true);
  });

  it('answers 406 in cXML for a document over 2 MiB', async () => {
    const sim = createTestSimulator();
    expect(await postStatus(sim, `<cXML>${' '.repeat(2 * 1024 * 1024)}</cXML>`)).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is larger than 2 MiB.',
    });
  });

  it('answers 417 for an order it does not know, and lists it in the inbox', async () => {
    const sim = createTestSimulator();
    expect(await postStatus(sim, shipNotice('PO-9999', 'p@x'))).toEqual({
      code: 417,
      text: 'Expectation Failed',
      detail: 'No purchase order PO-9999 is known here.',
    });
    const home = await (await sim.request('/')).text();
    expect(home).toContain(
      '<td>ShipNoticeRequest</td><td>PO-9999</td><td><span class="pill bad">417 Expectation Failed</span>',
    );
  });

  it('answers 401 when the profile expects a supplier secret and the Sender has another', async () => {
    const sim = createTestSimulator({
      profiles: [{ ...ARIBA_PROFILE, supplierSecret: 'agreed-secret' }, COUPA_PROFILE, SAP_PROFILE],
    });
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id);
    expect(await postStatus(sim, confirmation('PO-1001', po.payloadID, 'accept'))).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'No Sender credential carries the SharedSecret agreed with this buyer.',
    });
    expect(await requisitionPage(sim, id)).not.toContain('Confirmation <span');
  });
});

describe('advance print order control', () => {
  it('is shown only when the demo provides it, and passes the print order ids the confirmations named', async () => {
    const plain = createTestSimulator();
    const plainId = await requisitionWithCart(plain, 'ariba');
    await order(plain, plainId);
    expect(await requisitionPage(plain, plainId)).not.toContain('Advance print order');

    const calls: unknown[] = [];
    const sim = createTestSimulator({
      advanceOrder: async (ids, context) => {
        calls.push({ ids, context });
        return 'Merged and shipped with tracking 1Z999.';
      },
    });
    const id = await requisitionWithCart(sim, 'ariba');
    const po = await order(sim, id);
    // Until a confirmation names the print order there is nothing to advance.
    expect(await requisitionPage(sim, id)).toContain(
      '<button type="submit" disabled>Advance print order: merge files and ship</button>',
    );
    await sim.request(`/requisitions/${id}/advance`, { method: 'POST' });
    expect(calls).toEqual([]);
    expect(await requisitionPage(sim, id)).toContain(
      'No print order is known yet: the supplier&#39;s confirmation names it; wait for it to arrive.',
    );
    await postStatus(sim, confirmation('PO-1001', po.payloadID, 'accept'));
    expect(await requisitionPage(sim, id)).toContain(
      '<button type="submit">Advance print order: merge files and ship</button>',
    );
    const res = await sim.request(`/requisitions/${id}/advance`, { method: 'POST' });
    expect(res.status).toBe(303);
    expect(calls).toEqual([
      {
        ids: ['PRINT-4711', '4711'],
        context: { orderID: 'PO-1001', payloadID: po.payloadID, profileId: 'ariba', gatewayBuyerId: 'acme' },
      },
    ]);
    expect(await requisitionPage(sim, id)).toContain('Merged and shipped with tracking 1Z999.');
    // Once the ship notice is in, there is nothing left to advance.
    await postStatus(sim, shipNotice('PO-1001', po.payloadID));
    expect(await requisitionPage(sim, id)).not.toContain('Advance print order');
  });

  it('shows a failing control as an error', async () => {
    const sim = createTestSimulator({
      advanceOrder: () => Promise.reject(new Error('print order 4711 not found')),
    });
    const id = await requisitionWithCart(sim, 'coupa');
    const po = await order(sim, id);
    await postStatus(sim, confirmation('PO-1001', po.payloadID, 'accept'));
    await sim.request(`/requisitions/${id}/advance`, { method: 'POST' });
    expect(await requisitionPage(sim, id)).toContain(
      'Advancing the print order failed: print order 4711 not found',
    );
  });
});

describe('a price per thousand', () => {
  it('shows the cart line "per 1,000" with its exact total, and the PO repeats the PriceBasisQuantity', async () => {
    const sim = createTestSimulator();
    const res = await sim.request(
      '/requisitions',
      form([
        ['profile', 'ariba'],
        ['user', 'jroe'],
      ]),
    );
    const id = /(REQ-[A-Z0-9]+)/.exec(res.headers.get('Location') ?? '')?.[1] ?? '';
    const setup = sim.gateway.requests.at(-1) as PunchOutSetupRequest;
    const line: OrderMessageLine = {
      ...CARD_LINE,
      quantity: 2500,
      unitPrice: { value: '45.27', currency: 'USD' },
      priceBasis: { quantity: 1000, conversionFactor: 1, unitOfMeasure: 'EA' },
    };
    const cart = buildOrderMessage({
      payloadID: '1.cart@gateway.test',
      timestamp: new Date('2026-11-22T09:00:00Z'),
      header: SUPPLIER_HEADER,
      buyerCookie: setup.buyerCookie,
      operationAllowed: 'edit',
      // 2,500 × 45.27 ÷ 1,000 = 113.175, rounded once.
      total: { value: '113.18', currency: 'USD' },
      items: [line],
    });
    await sim.request(`/requisitions/${id}/cart`, form([['cxml-base64', base64(cart)]]));
    const html = await requisitionPage(sim, id);
    expect(html).toContain(
      '<td class="num">2500</td><td class="num">45.27 USD<div class="muted">per 1,000 EA</div></td><td>EA</td><td class="num">113.18 USD</td>',
    );
    expect(html).toContain('<td colspan="6">Total</td><td class="num">113.18 USD</td>');
    expect(html).not.toContain('differs from the sum of its lines');

    const po = await order(sim, id);
    expect(po.total.value).toBe('113.18');
    expect(po.items[0]?.unitPrice.value).toBe('45.27');
    expect(po.items[0]?.priceBasis).toEqual({ quantity: '1000', conversionFactor: '1', unitOfMeasure: 'EA' });
  });
});
