/**
 * What ships, run as a print shop runs it: `punchgate sandbox` and `punchgate serve --config FILE` as
 * separate processes, the config written from docs/configuration.md with its secrets in the environment,
 * and a buyer's procurement system on its own port. The buyer punches out, designs in the sandbox's editor,
 * gets the cart back, orders it; with nothing else running, `serve` turns the PO into a print order and
 * sends the accept, and once the print shop marks the order shipped, the ship notice. Then another user
 * reorders the ordered design by a level-2 setup, and its PO prints that very design.
 */
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../support/cxml-documents.ts';
import {
  type CartLineOut,
  linesOf,
  orderRequest,
  parseXml,
  punchOut,
  receivedDocuments,
  type XmlTree,
} from '../support/order-flow.ts';
import { clickButton, cxmlFromForm, returnFormOf, startUrlOf } from '../support/punchout-flow.ts';
import { eventually, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { acceptAtBuyer, printShopApi, serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN, BUYER_IDENTITY, SUPPLIER_SECRET } from './user-config.ts';

describe('punchgate serve as a process, with punchgate sandbox as the print service', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  const stack = useServeBesideSandbox({
    adjustConfig(config) {
      // The buyer reorders its designs (the reorder case below), as docs/configuration.md writes it.
      config.buyers[0].catalog = { reorders: true };
    },
  });

  /** The buyer's user's browser: follows redirects between the gateway, the editor and back. */
  const browser = serveBrowser(() => stack.serve);
  /** The lines the first case's PO ordered, for the reorder case. */
  let ordered: CartLineOut[] = [];

  it('turns a punch-out and its PO into a print order, an accept and, once shipped, a ship notice', async () => {
    const { buyer, sandbox, serve } = stack;
    const processes = [serve.process, sandbox.process];
    const cart = await punchOut(browser, ['Business cards', 'A5 flyer'], {
      browserFormPost: buyer.returnUrl,
    });
    expect(cart.map((line) => [line.sku, line.quantity, line.unitPrice])).toEqual([
      ['BC-STD', '100', '0.12'],
      ['FLY-A5', '1', '0.35'],
    ]);
    ordered = cart;

    const payloadID = `po-ship-${Date.now()}@acme.example`;
    const answer = await browser.postCxml(
      orderRequest({ payloadID, orderID: 'PO-SHIP-1', lines: linesOf(cart) }),
    );
    expect(answer).toMatch(/<Status code="200" text="OK"/);

    // serve's own background rounds create the print order and send the accept; nothing else runs.
    const accept = await acceptAtBuyer(buyer, processes);
    expect(accept.post.contentType).toBe('text/xml; charset=UTF-8');
    const confirmation = accept.doc.Request.ConfirmationRequest;
    const printOrderId = Number(confirmation.ConfirmationHeader['@confirmID']);
    expect(Number.isInteger(printOrderId) && printOrderId > 0, `confirmID ${printOrderId}`).toBe(true);
    expect(confirmation.OrderReference['@orderID']).toBe('PO-SHIP-1');
    expect(confirmation.OrderReference.DocumentReference['@payloadID']).toBe(payloadID);
    expect(accept.doc.Header.From.Credential[0].Identity).toBe('PRINTCO');
    expect(accept.doc.Header.To.Credential[0].Identity).toBe(BUYER_IDENTITY);
    expect(accept.doc.Header.Sender.Credential[0].SharedSecret).toBe(SUPPLIER_SECRET);

    // The print order on the print service, seen by the print shop's staff with their own key.
    const printShop = printShopApi(sandbox);
    const printOrder = await printShop.getOrder(printOrderId);
    expect(printOrder.integration_id).toBe('PO-SHIP-1');
    expect(printOrder.items.map((item) => item.product_id)).toEqual(cart.map((line) => line.designId));
    // The PO's lines in the print order's history, for the shop's staff, and the print-ready files.
    const history = (await (
      await fetch(`${sandbox.url}/_sandbox/orders/${printOrderId}/history`)
    ).json()) as { history: { comments: string | null }[] };
    const note = history.history.find((h) => h.comments?.startsWith('Purchase order PO-SHIP-1'));
    expect(note?.comments).toContain(
      [
        `1. QUANTITY 100 EA — Business cards (design ${cart[0]?.designId})`,
        `   SKU BC-STD · unit price 0.12 USD · line ref ${cart[0]?.lineRef}`,
      ].join('\n'),
    );
    const files = await printShop.downloadOrder(printOrderId);
    expect([files.filename, files.contentType]).toEqual([`order-${printOrderId}.zip`, 'application/zip']);
    const zip = new Uint8Array(await new Response(files.body).arrayBuffer());
    expect(new TextDecoder().decode(zip.subarray(0, 2))).toBe('PK');

    // The shop ships it: the sandbox tells serve by webhook, serve tells the buyer.
    await printShop.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    const shipped = await eventually(
      'the ShipNoticeRequest at the buyer',
      () => receivedDocuments(buyer, 'ShipNoticeRequest')[0],
      { processes },
    );
    const notice = shipped.doc.Request.ShipNoticeRequest;
    expect(notice.ShipNoticeHeader['@shipmentID']).toBe(`${printOrderId}-1`);
    expect(notice.ShipControl.ShipmentIdentifier).toEqual([
      { '#text': '1Z999AA10123456784', '@domain': 'trackingNumber' },
    ]);
    expect(notice.ShipNoticePortion.OrderReference['@orderID']).toBe('PO-SHIP-1');
    expect(
      notice.ShipNoticePortion.ShipNoticeItem.map((item: XmlTree) => [
        item['@lineNumber'],
        item['@quantity'],
      ]),
    ).toEqual([
      ['1', '100'],
      ['2', '1'],
    ]);
    expect(shipped.doc.Header.Sender.Credential[0].SharedSecret).toBe(SUPPLIER_SECRET);

    // The admin API of the same process: the PO ordered as that one print order; nothing doubled.
    const admin = await fetch(`${serve.url}/admin/orders`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(admin.status).toBe(200);
    const { items } = (await admin.json()) as { items: XmlTree[] };
    expect(items.map((po) => [po.orderId, po.state, po.printOrderIds])).toEqual([
      ['PO-SHIP-1', 'ordered', [printOrderId]],
    ]);
    const types = receivedDocuments(buyer, 'ConfirmationRequest').map(
      ({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'],
    );
    expect(types).toEqual(['accept']);
    expect(receivedDocuments(buyer, 'ShipNoticeRequest')).toHaveLength(1);
  });

  it('reorders the business cards that PO ordered: a level-2 setup by another user opens the cart with them, and its PO prints that very design', async () => {
    const { buyer, sandbox, serve } = stack;
    const [cards] = ordered;
    expect(cards?.sku).toBe('BC-STD');
    const setup = setupRequest({
      browserFormPost: buyer.returnUrl,
      selectedSku: `R-BC-STD-${cards?.designId}`,
      uniqueName: 'mmax',
      userEmail: 'max@acme.example',
    });
    const cart = await browser.browse(startUrlOf(await browser.postCxml(setup)));
    expect(cart.url).toMatch(/\/cart$/);
    const transfer = await clickButton(browser, cart, 'Transfer cart to procurement system');
    const item = parseXml(cxmlFromForm(returnFormOf(transfer))).cXML.Message.PunchOutOrderMessage.ItemIn[0];
    const line: CartLineOut = {
      lineRef: item.ItemID.SupplierPartAuxiliaryID,
      sku: item.ItemID.SupplierPartID,
      quantity: item['@quantity'],
      unitPrice: item.ItemDetail.UnitPrice.Money['#text'],
      currency: item.ItemDetail.UnitPrice.Money['@currency'],
      uom: item.ItemDetail.UnitOfMeasure,
      designId: cards?.designId ?? 0,
    };
    expect([line.sku, line.quantity, line.unitPrice]).toEqual(['BC-STD', '100', '0.12']);
    const answer = await browser.postCxml(orderRequest({ orderID: 'PO-SHIP-2', lines: linesOf([line]) }));
    expect(answer).toMatch(/<Status code="200" text="OK"/);
    const accept = await eventually(
      'the accept of PO-SHIP-2 at the buyer',
      () =>
        receivedDocuments(buyer, 'ConfirmationRequest').find(
          ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'] === 'PO-SHIP-2',
        ),
      { processes: [serve.process, sandbox.process] },
    );
    const header = accept.doc.Request.ConfirmationRequest.ConfirmationHeader;
    expect(header['@type']).toBe('accept');
    const printOrder = await printShopApi(sandbox).getOrder(Number(header['@confirmID']));
    expect(printOrder.integration_id).toBe('PO-SHIP-2');
    expect(printOrder.items.map((i) => i.product_id)).toEqual([cards?.designId]);
  });

  it('is healthy and ready, and /metrics shows its background rounds completing', async () => {
    const { serve } = stack;
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${serve.url}/readyz`)).status).toBe(200);
    const metrics = await (await fetch(`${serve.url}/metrics`)).text();
    expect(metrics).toMatch(/^punchgate_background_round_last_completed_timestamp_seconds \d/m);
    expect(metrics).toMatch(/^punchgate_background_round_overdue 0$/m);
  });

  it('stops cleanly on SIGTERM, having logged no secret and no stack trace', async () => {
    const { sandbox, serve, secrets } = stack;
    const exit = await serve.process.stop();
    expect(exit, serve.process.tail()).toEqual({ code: 0, signal: null });
    const log = serve.process.stderr() + serve.process.stdout();
    for (const [name, value] of Object.entries(secrets)) {
      expect(log.includes(value), `${name}'s value in serve's output`).toBe(false);
    }
    expect(log).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    await sandbox.process.stop();
  });
});
