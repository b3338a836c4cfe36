import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  ORDER_STATUS_URL,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

describe('a punched-out cart’s purchase order becomes a print order', () => {
  it('PO → print order with the PO number → accept → files after the merge → shipped → ship notice', async () => {
    const stack = await createOrderStack();
    const registrations = await stack.worker.startup();
    expect(registrations.map((r) => [r.event, r.outcome])).toEqual([
      ['order_updated', 'created'],
      ['order_deleted', 'created'],
    ]);

    const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
    expect(cart).toHaveLength(2);
    const lines = linesOf(cart).map((line, i) => ({
      ...line,
      requestedDeliveryDate: '2026-12-01',
      ...(i === 0 && { comments: 'Names as in the proof.' }),
    }));
    const answer = await sendOrder(stack, {
      payloadID: 'po-1@ariba.example',
      orderID: 'PO-4500123',
      lines,
      comments: 'Deliver before the trade fair & call ahead.',
      requestedDeliveryDate: '2026-12-03',
    });
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });

    // Stored before the answer: the whole PO, with the secret blanked out of the raw document.
    const stored = await stack.store.orders.getByPayloadId('acme', 'po-1@ariba.example');
    expect(stored?.state).toBe('received');
    expect(stored?.raw).toContain('<SharedSecret>[redacted]</SharedSecret>');
    expect(stored?.raw).not.toContain('acme-secret');
    expect(stored?.raw).toContain(
      '<Comments xml:lang="en">Deliver before the trade fair &amp; call ahead.</Comments>',
    );

    await drain(stack);
    const ids = await printOrdersFor(stack, 'PO-4500123');
    expect(ids).toHaveLength(1);
    const printOrderId = ids[0] as number;
    const order = await stack.api.getOrder(printOrderId);
    expect(order.integration_id).toBe('PO-4500123');
    expect(order.po_number).toBe('PO-4500123');
    expect(order.items.map((item) => item.product_id)).toEqual(cart.map((line) => line.designId));
    expect(order.status).toBe('New Order');

    // What the platform has no field for is in the order's history, its status kept.
    const history = stack.sandbox.control.orderHistory(printOrderId).history;
    const note = history.find((h) => h.comments?.startsWith('Purchase order PO-4500123'));
    expect(note?.status).toBe('New Order');
    expect(note?.comments).toContain('Requested delivery: 2026-12-03');
    expect(note?.comments).toContain(
      'Ship to: ACME Receiving, Jane Roe, 1 Dock Road, 62701 Springfield, IL, US',
    );
    // A job ticket: per design the quantity first, the product by its configured name, the line's identity.
    expect(note?.comments?.split('\n')[0]).toBe('Purchase order PO-4500123 — JOB TICKET');
    expect(note?.comments).toContain(
      [
        '2 designs to print:',
        `1. QUANTITY 100 EA — Business cards (design ${cart[0]?.designId})`,
        `   SKU BC-STD · unit price 0.12 USD · line ref ${cart[0]?.lineRef} · proof: the item of design ${cart[0]?.designId} in this print order`,
        '   deliver by 2026-12-01 · note: Names as in the proof.',
        `2. QUANTITY 1 EA — A5 flyer (design ${cart[1]?.designId})`,
        `   SKU FLY-A5 · unit price 0.35 USD · line ref ${cart[1]?.lineRef} · proof: the item of design ${cart[1]?.designId} in this print order`,
      ].join('\n'),
    );
    expect(note?.comments).toContain('Buyer contact: Jane Roe (endUser), <jane.roe@acme.example>');
    expect(note?.comments).toContain('Buyer comments: Deliver before the trade fair & call ahead.');
    expect(note?.comments).not.toContain('CHECK');

    // The buyer hears "accept" with the print order as the supplier's reference.
    const confirmations = receivedDocuments(stack, 'ConfirmationRequest');
    expect(confirmations).toHaveLength(1);
    const accept = confirmations[0];
    expect(accept?.post.url).toBe(ORDER_STATUS_URL);
    expect(accept?.post.contentType).toBe('text/xml; charset=UTF-8');
    const header = accept?.doc.Request.ConfirmationRequest.ConfirmationHeader;
    expect(header['@type']).toBe('accept');
    expect(header['@confirmID']).toBe(String(printOrderId));
    const reference = accept?.doc.Request.ConfirmationRequest.OrderReference;
    expect(reference['@orderID']).toBe('PO-4500123');
    expect(reference.DocumentReference['@payloadID']).toBe('po-1@ariba.example');
    expect(accept?.doc.Header.From.Credential[0].Identity).toBe('PRINTCO');
    expect(accept?.doc.Header.To.Credential[0].Identity).toBe('AN01000000001');
    expect(accept?.doc.Header.Sender.Credential[0].SharedSecret).toBe('printco-secret');
    expect(validateAgainstDtd(accept?.post.body ?? '', 'Fulfill')).toEqual({ ok: true, messages: '' });

    // The print-ready files: not before the merge has finished, then a ZIP.
    await expect(stack.api.downloadOrder(printOrderId)).rejects.toMatchObject({ code: 'files_not_ready' });
    stack.clock.advance(5);
    const files = await stack.api.downloadOrder(printOrderId);
    expect(files.filename).toBe(`order-${printOrderId}.zip`);
    expect(files.contentType).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(await new Response(files.body).arrayBuffer()));
    expect(Object.keys(zip).length).toBeGreaterThan(0);

    // Shipped on the print service: the webhook brings a ship notice with the tracking number.
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    const notices = receivedDocuments(stack, 'ShipNoticeRequest');
    expect(notices).toHaveLength(1);
    const notice = notices[0]?.doc.Request.ShipNoticeRequest;
    expect(notice.ShipControl.ShipmentIdentifier).toEqual([
      { '#text': '1Z999AA10123456784', '@domain': 'trackingNumber' },
    ]);
    expect(notice.ShipNoticeHeader['@shipmentID']).toBe(`${printOrderId}-1`);
    expect(notice.ShipNoticePortion.OrderReference['@orderID']).toBe('PO-4500123');
    expect(
      notice.ShipNoticePortion.ShipNoticeItem.map((item: Record<string, unknown>) => [
        item['@lineNumber'],
        item['@quantity'],
      ]),
    ).toEqual([
      ['1', '100'],
      ['2', '1'],
    ]);
    expect(validateAgainstDtd(notices[0]?.post.body ?? '', 'Fulfill')).toEqual({ ok: true, messages: '' });

    // Nothing doubled: another look changes nothing, and the admin shows the print order closed.
    await drain(stack);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(1);
    const { body } = await adminJson(stack, `/admin/orders/${stored?.id}`);
    expect(body.state).toBe('ordered');
    expect(body.printOrders).toMatchObject([
      { printOrderId, state: 'closed', lastStatus: 'Order Shipped', confirmed: true, shipmentsNotified: [1] },
    ]);
    expect(body.outbox.map((m: { kind: string; state: string }) => [m.kind, m.state])).toEqual([
      ['ship_notice', 'delivered'],
      ['confirmation', 'delivered'],
    ]);
  });
});
