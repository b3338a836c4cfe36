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
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  type XmlTree,
} from '../../support/order-flow.ts';
import { testConfig } from '../../support/stack.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

/** A punched-out cart ordered and placed; answers the PO record and its print order. */
async function placedOrder(stack: OrderStack, orderID: string) {
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  const payloadID = `${orderID}@ariba.example`;
  expect(await sendOrder(stack, { payloadID, orderID, lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  const po = await stack.store.orders.getByPayloadId('acme', payloadID);
  if (po === undefined || printOrderId === undefined) throw new Error('the order was not placed');
  return { po, printOrderId, cart, payloadID };
}

const itemsOf = (notice: XmlTree) =>
  notice.ShipNoticePortion.ShipNoticeItem.map((item: XmlTree) => ({
    lineNumber: item['@lineNumber'],
    quantity: item['@quantity'],
    lineRef: item.ItemID.SupplierPartAuxiliaryID,
  }));

describe('ship notices', () => {
  it('a split-shipment order gives one notice per shipment, each with its carrier, tracking and lines', async () => {
    // A two-design cart becomes one print order, which the print shop's admin then splits: the flyers go
    // to another destination by FedEx while the business cards stay in the primary shipment.
    const stack = await createOrderStack();
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
    const [cards, flyers] = cart;
    if (cards === undefined || flyers === undefined) throw new Error('the cart has two lines');
    expect(
      await sendOrder(stack, { payloadID: 'split@ariba.example', orderID: 'PO-SPLIT', lines: linesOf(cart) }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    const printOrderIds = await printOrdersFor(stack, 'PO-SPLIT');
    expect(printOrderIds).toHaveLength(1);
    const printOrderId = printOrderIds[0]!;
    const itemOf = async (designId: number) => {
      const item = (await stack.api.getOrder(printOrderId)).items.find((i) => i.product_id === designId);
      if (item === undefined) throw new Error(`no print item for design ${designId}`);
      return item.id;
    };
    const cardsItem = await itemOf(cards.designId);
    const flyersItem = await itemOf(flyers.designId);
    const split = stack.sandbox.control.splitShipment(printOrderId, {
      itemIds: [flyersItem],
      provider: 'FedEx',
      service: '2Day',
      shipTo: {
        id: 9101,
        firstName: 'Receiving',
        lastName: 'Dock 2',
        line1: '40 Harbor Road',
        city: 'Savannah',
        state: 'GA',
        postalCode: '31401',
        countryCode: 'US',
      },
    });
    expect(split.items.map((i) => [i.id, i.shipment_index])).toEqual([
      [cardsItem, 1],
      [flyersItem, 2],
    ]);
    await drain(stack);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(0);

    await stack.api.markShipped(printOrderId, { itemId: cardsItem, trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    await stack.api.markShipped(printOrderId, { itemId: flyersItem, trackingNumber: '7489 2200 1234' });
    await drain(stack);

    const notices = receivedDocuments(stack, 'ShipNoticeRequest');
    expect(notices).toHaveLength(2);
    const [first, second] = notices.map((n) => n.doc.Request.ShipNoticeRequest);
    expect(first.ShipNoticeHeader['@shipmentID']).toBe(`${printOrderId}-1`);
    // The primary shipment of a PIPO order names no carrier or service level.
    expect(first.ShipNoticeHeader.ServiceLevel).toBeUndefined();
    expect(first.ShipControl.CarrierIdentifier).toEqual([
      { '#text': 'Carrier not specified', '@domain': 'companyName' },
    ]);
    expect(first.ShipControl.ShipmentIdentifier.map((s: XmlTree) => s['#text'])).toEqual([
      '1Z999AA10123456784',
    ]);
    expect(itemsOf(first)).toEqual([{ lineNumber: '1', quantity: cards.quantity, lineRef: cards.lineRef }]);
    expect(second.ShipNoticeHeader['@shipmentID']).toBe(`${printOrderId}-2`);
    expect(second.ShipNoticeHeader.ServiceLevel['#text']).toBe('2Day');
    expect(second.ShipControl.CarrierIdentifier).toEqual([{ '#text': 'FedEx', '@domain': 'companyName' }]);
    expect(second.ShipControl.ShipmentIdentifier.map((s: XmlTree) => s['#text'])).toEqual(['7489 2200 1234']);
    expect(itemsOf(second)).toEqual([
      { lineNumber: '2', quantity: flyers.quantity, lineRef: flyers.lineRef },
    ]);
    for (const notice of notices) {
      expect(validateAgainstDtd(notice.post.body, 'Fulfill')).toEqual({ ok: true, messages: '' });
    }
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      state: 'closed',
      shipmentsNotified: [1, 2],
    });
  });

  it('a lost webhook is caught by the reconciliation poll', async () => {
    const stack = await createOrderStack();
    const { printOrderId } = await placedOrder(stack, 'PO-LOSTHOOK');
    stack.webhooksLost = true;
    await stack.api.markShipped(printOrderId, { trackingNumber: 'JD014600006281234567' });
    await drain(stack);
    const lost = stack.sandbox.control
      .deliveries()
      .filter((d) => d.event === 'order_updated')
      .at(-1);
    expect(lost?.outcome).toBe('unreachable');
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(0);

    // Not before the interval (300 s) has passed since the order was last looked at.
    stack.clock.advance(299);
    await drain(stack);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(0);
    stack.clock.advance(1);
    await drain(stack);
    const notices = receivedDocuments(stack, 'ShipNoticeRequest');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.doc.Request.ShipNoticeRequest.ShipControl.ShipmentIdentifier[0]['#text']).toBe(
      'JD014600006281234567',
    );
    expect(notices[0]?.doc.Request.ShipNoticeRequest.ShipControl.CarrierIdentifier[0]['#text']).toBe(
      'Carrier not specified',
    );
  });
});

describe('status changes and buyer changes', () => {
  it('a buyer with confirmDetails hears of later status changes as ConfirmationRequest detail', async () => {
    const base = orderConfig();
    const stack = await createOrderStack({
      ...base,
      buyers: (base.buyers ?? []).map((b) => (b.id === 'acme' ? { ...b, confirmDetails: true } : b)),
    });
    const { printOrderId, payloadID } = await placedOrder(stack, 'PO-DETAIL');
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'In Production' });
    await drain(stack);
    const confirmations = receivedDocuments(stack, 'ConfirmationRequest');
    expect(confirmations.map((c) => c.doc.Request.ConfirmationRequest.ConfirmationHeader['@type'])).toEqual([
      'accept',
      'detail',
    ]);
    const detail = confirmations[1]?.doc.Request.ConfirmationRequest;
    // A confirmation of its own, naming no line: "In Production" changes nothing the PO says of a line.
    expect(detail.ConfirmationHeader['@confirmID']).toBe(`${printOrderId}-2`);
    expect(detail.ConfirmationHeader['@version']).toBe('1');
    expect(detail.ConfirmationItem).toBeUndefined();
    expect(detail.ConfirmationHeader.Comments['#text']).toBe(
      `Print order ${printOrderId} is now "In Production".`,
    );
    expect(detail.OrderReference.DocumentReference['@payloadID']).toBe(payloadID);
    expect(validateAgainstDtd(confirmations[1]?.post.body ?? '', 'Fulfill')).toEqual({
      ok: true,
      messages: '',
    });

    // The same status again tells nothing new.
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'In Production' });
    await drain(stack);
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(2);
  });

  it('a buyer without confirmDetails hears nothing of status changes', async () => {
    const stack = await createOrderStack();
    const { printOrderId } = await placedOrder(stack, 'PO-NODETAIL');
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'In Production' });
    await drain(stack);
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(1);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      lastStatus: 'In Production',
    });
  });

  it('OrderRequest type delete sets the storefront’s cancel status and records the cancellation', async () => {
    const stack = await createOrderStack();
    const { po, printOrderId, payloadID, cart } = await placedOrder(stack, 'PO-CANCEL');
    const answer = await sendOrder(stack, {
      payloadID: 'cancel@ariba.example',
      orderID: 'PO-CANCEL',
      type: 'delete',
      previousPayloadID: payloadID,
      lines: linesOf(cart),
    });
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
    await drain(stack);
    expect((await stack.api.getOrder(printOrderId)).status).toBe('Cancelled');
    const entry = stack.sandbox.control.orderHistory(printOrderId).history.at(-1);
    expect(entry).toMatchObject({
      status: 'Cancelled',
      comments:
        'Cancelled by the buyer: OrderRequest type delete for purchase order PO-CANCEL (cXML payloadID cancel@ariba.example).',
    });
    expect((await stack.store.orders.get(po.id))?.state).toBe('cancelled');
    const cancellation = await stack.store.orders.getByPayloadId('acme', 'cancel@ariba.example');
    expect(cancellation).toMatchObject({ type: 'delete', state: 'cancelled' });
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({
      state: 'closed',
      lastStatus: 'Cancelled',
    });
    // The status change the cancellation caused is not mistaken for the supplier cancelling.
    expect((await stack.store.orders.get(po.id))?.flags).toEqual([]);
  });

  it('a delete that arrives before the order was placed still leaves nothing in production', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { payloadID: 'early@ariba.example', orderID: 'PO-EARLY', lines: linesOf(cart) });
    await sendOrder(stack, {
      payloadID: 'early-cancel@ariba.example',
      orderID: 'PO-EARLY',
      type: 'delete',
      previousPayloadID: 'early@ariba.example',
      lines: [],
    });
    await drain(stack);
    const original = await stack.store.orders.getByPayloadId('acme', 'early@ariba.example');
    expect(original?.state).toBe('cancelled');
    for (const id of await printOrdersFor(stack, 'PO-EARLY')) {
      expect((await stack.api.getOrder(id)).status).toBe('Cancelled');
    }
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toEqual([]);
  });

  it('a delete for an order never seen is recorded as cancelled and flagged', async () => {
    const stack = await createOrderStack();
    expect(
      await sendOrder(stack, {
        payloadID: 'ghost@ariba.example',
        orderID: 'PO-GHOST',
        type: 'delete',
        lines: [],
      }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    expect(await stack.store.orders.getByPayloadId('acme', 'ghost@ariba.example')).toMatchObject({
      state: 'cancelled',
      flags: ['unknown_order'],
    });
  });

  it('a delete on a storefront without a cancel status waits for an operator', async () => {
    const base = testConfig();
    const stack = await createOrderStack({ ...orderConfig(), storefronts: base.storefronts });
    const { printOrderId, payloadID } = await placedOrder(stack, 'PO-NOCANCEL');
    await sendOrder(stack, {
      payloadID: 'nocancel@ariba.example',
      orderID: 'PO-NOCANCEL',
      type: 'delete',
      previousPayloadID: payloadID,
      lines: [],
    });
    await drain(stack);
    const cancellation = await stack.store.orders.getByPayloadId('acme', 'nocancel@ariba.example');
    expect(cancellation).toMatchObject({
      state: 'needs_operator',
      flags: ['no_cancel_status'],
      lastError: `No cancel status is configured for the storefront of print order ${printOrderId}; cancel it by hand.`,
    });
  });

  it('OrderRequest type update is recorded, flagged for an operator, noted on the print order, and the buyer told', async () => {
    const stack = await createOrderStack();
    const { po, printOrderId, payloadID, cart } = await placedOrder(stack, 'PO-CHANGE');
    const [line] = linesOf(cart);
    const answer = await sendOrder(stack, {
      payloadID: 'change@ariba.example',
      orderID: 'PO-CHANGE',
      type: 'update',
      orderVersion: '2',
      previousPayloadID: payloadID,
      lines: [{ ...line, sku: 'BC-STD', quantity: '500', unitPrice: '0.09' }],
    });
    expect(answer).toEqual({ code: 200, text: 'OK', detail: '' });
    await drain(stack);

    const update = await stack.store.orders.getByPayloadId('acme', 'change@ariba.example');
    expect(update).toMatchObject({
      type: 'update',
      state: 'needs_operator',
      flags: ['quantity_mismatch', 'price_mismatch', 'update_needs_operator'],
    });
    expect((await stack.store.orders.get(po.id))?.flags).toEqual(['changed_by_buyer']);
    expect((await stack.store.orders.get(po.id))?.state).toBe('ordered');
    expect(await printOrdersFor(stack, 'PO-CHANGE')).toEqual([printOrderId]);
    const note = stack.sandbox.control.orderHistory(printOrderId).history.at(-1);
    expect(note?.comments).toBe(
      [
        'The buyer changed purchase order PO-CHANGE (orderVersion 2), cXML payloadID change@ariba.example.',
        'The change is not applied automatically: an operator must review it.',
        `  1. ${line?.lineRef} BC-STD: 500 EA at 0.09 USD`,
      ].join('\n'),
    );
    const confirmations = receivedDocuments(stack, 'ConfirmationRequest');
    expect(confirmations).toHaveLength(2);
    const told = confirmations[1]?.doc.Request.ConfirmationRequest;
    expect(told.ConfirmationHeader['@type']).toBe('detail');
    expect(told.ConfirmationHeader.Comments['#text']).toBe(
      'The change to order PO-CHANGE (orderVersion 2) was received. It is not applied automatically: the ' +
        'supplier reviews it and confirms separately; until then the order is produced as first confirmed.',
    );
    expect(told.OrderReference.DocumentReference['@payloadID']).toBe('change@ariba.example');
    expect(validateAgainstDtd(confirmations[1]?.post.body ?? '', 'Fulfill')).toEqual({
      ok: true,
      messages: '',
    });
    const retry = await adminJson(stack, `/admin/orders/${update?.id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(409);
  });

  it('two successive changes of one order are both recorded and both told to the buyer; a resent one is not', async () => {
    const stack = await createOrderStack();
    const { po, printOrderId, payloadID, cart } = await placedOrder(stack, 'PO-TWICE');
    const [line] = linesOf(cart);
    const change = (
      changePayloadID: string,
      orderVersion: string,
      previousPayloadID: string,
      quantity: string,
    ) =>
      sendOrder(stack, {
        payloadID: changePayloadID,
        orderID: 'PO-TWICE',
        type: 'update',
        orderVersion,
        previousPayloadID,
        lines: [{ ...line, sku: 'BC-STD', quantity, unitPrice: '0.12' }],
      });
    expect(await change('change-2@ariba.example', '2', payloadID, '600')).toEqual({
      code: 200,
      text: 'OK',
      detail: '',
    });
    await drain(stack);
    expect(await change('change-3@ariba.example', '3', 'change-2@ariba.example', '700')).toEqual({
      code: 200,
      text: 'OK',
      detail: '',
    });
    // The buyer's network retries version 3 under a fresh payloadID: the same change, answered again.
    expect(await change('change-3-retry@ariba.example', '3', 'change-2@ariba.example', '700')).toEqual({
      code: 200,
      text: 'OK',
      detail: '',
    });
    await drain(stack);

    const second = await stack.store.orders.getByPayloadId('acme', 'change-2@ariba.example');
    const third = await stack.store.orders.getByPayloadId('acme', 'change-3@ariba.example');
    expect(second).toMatchObject({ type: 'update', orderVersion: '2', state: 'needs_operator' });
    expect(third).toMatchObject({ type: 'update', orderVersion: '3', state: 'needs_operator' });
    expect(third?.id).not.toBe(second?.id);
    expect(await stack.store.orders.getByPayloadId('acme', 'change-3-retry@ariba.example')).toBeUndefined();
    expect((await stack.store.orders.list({ buyerId: 'acme' })).items).toHaveLength(3);
    expect((await stack.store.orders.get(po.id))?.flags).toEqual(['changed_by_buyer']);

    const notes = stack.sandbox.control
      .orderHistory(printOrderId)
      .history.map((entry) => entry.comments?.split('\n')[0]);
    expect(notes.slice(-2)).toEqual([
      'The buyer changed purchase order PO-TWICE (orderVersion 2), cXML payloadID change-2@ariba.example.',
      'The buyer changed purchase order PO-TWICE (orderVersion 3), cXML payloadID change-3@ariba.example.',
    ]);
    const told = receivedDocuments(stack, 'ConfirmationRequest').slice(1);
    expect(
      told.map(({ doc }) => [
        doc.Request.ConfirmationRequest.ConfirmationHeader['@type'],
        doc.Request.ConfirmationRequest.OrderReference.DocumentReference['@payloadID'],
      ]),
    ).toEqual([
      ['detail', 'change-2@ariba.example'],
      ['detail', 'change-3@ariba.example'],
    ]);
  });

  it('a print order deleted on the print service (order_deleted) flags the PO for an operator', async () => {
    const stack = await createOrderStack();
    const { po, printOrderId } = await placedOrder(stack, 'PO-GONE');
    stack.sandbox.control.deleteOrder(printOrderId);
    await drain(stack);
    expect(stack.sandbox.control.deliveries().at(-1)).toMatchObject({
      event: 'order_deleted',
      outcome: 'delivered',
    });
    const flagged = await stack.store.orders.get(po.id);
    expect(flagged).toMatchObject({
      state: 'needs_operator',
      flags: ['print_order_deleted'],
      lastError: `Print order ${printOrderId} was deleted on the print service.`,
    });
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });
  });
});
