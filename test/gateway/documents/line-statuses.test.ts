/**
 * Line statuses that mean what Fulfill.dtd says, through the sandbox: a print order the supplier cancels
 * rejects its lines (the whole PO with `reject` when nothing of it is left, else `reject` for exactly its
 * lines, by an update of the confirmation that named them), never `accept`; status notices go only to
 * buyers with `confirmDetails` and carry only what differs from the PO; every new confirmation has a
 * confirmID of its own, every amendment is an `update` naming the version it replaces; all DTD-valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { disposeDtdValidators, requireDtdValidator } from '../../support/dtd-validation.ts';
import {
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  buyersWith,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const VALID = { ok: true, messages: '' };

/** The order config with buyer acme's settings changed. */
function configWith(acme: Record<string, unknown> = {}): GatewayConfigInput {
  const base = orderConfig();
  return { ...base, buyers: buyersWith(base.buyers, 'acme', acme) };
}

/** The header of each ConfirmationRequest received: what a buyer's system files it under. */
function headers(stack: OrderStack) {
  return receivedDocuments(stack, 'ConfirmationRequest').map(({ doc }) => {
    const header = doc.Request.ConfirmationRequest.ConfirmationHeader;
    return {
      payloadID: doc['@payloadID'],
      type: header['@type'],
      operation: header['@operation'] ?? 'new',
      confirmID: header['@confirmID'],
      version: header['@version'],
      amends: header.DocumentReference?.['@payloadID'],
      comments: typeof header.Comments === 'string' ? header.Comments : header.Comments?.['#text'],
    };
  });
}

/** One line by Jane (business cards) and one by Max (flyer): two print orders, line 1 and line 2. */
async function placeTwoOwners(stack: OrderStack, orderID: string) {
  await stack.worker.startup();
  const jane = await punchOut(stack, ['Business cards'], {
    uniqueName: 'jroe',
    userEmail: 'jane.roe@acme.example',
  });
  const max = await punchOut(stack, ['A5 flyer'], { uniqueName: 'mmax', userEmail: 'max@acme.example' });
  const payloadID = `${orderID}@ariba.example`;
  expect(await sendOrder(stack, { payloadID, orderID, lines: linesOf([...jane, ...max]) })).toMatchObject({
    code: 200,
  });
  await drain(stack);
  const [first, second] = await printOrdersFor(stack, orderID);
  if (first === undefined || second === undefined) throw new Error('two print orders were not placed');
  return { payloadID, first, second, quantities: [jane[0]?.quantity, max[0]?.quantity] };
}

async function placeOne(
  stack: OrderStack,
  orderID: string,
  extraLines: Parameters<typeof sendOrder>[1]['lines'] = [],
) {
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  const payloadID = `${orderID}@ariba.example`;
  const lines = [...linesOf(cart), ...extraLines];
  expect(await sendOrder(stack, { payloadID, orderID, lines })).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  if (printOrderId === undefined) throw new Error('the order was not placed');
  const po = await stack.store.orders.getByPayloadId('acme', payloadID);
  if (po === undefined) throw new Error('the PO was not stored');
  return { payloadID, printOrderId, po, lines, quantity: cart[0]?.quantity };
}

describe('a print order the supplier cancels', () => {
  it('the only print order: the buyer gets a reject of the whole PO with the reason, a confirmation of its own', async () => {
    const stack = await createOrderStack(configWith());
    const { printOrderId, payloadID } = await placeOne(stack, 'PO-SUPPLIER-CANCEL');
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
    await drain(stack);

    expect(confirmationsReceived(stack)).toEqual([
      { type: 'accept', confirmID: String(printOrderId), version: '1', items: [], dtd: VALID },
      { type: 'reject', confirmID: `${printOrderId}-2`, version: '1', items: [], dtd: VALID },
    ]);
    const [, reject] = headers(stack);
    expect(reject).toMatchObject({
      operation: 'new',
      amends: undefined,
      comments: `Print order ${printOrderId} was cancelled by the supplier (status "Cancelled"). No line of this order will be delivered.`,
    });
    const document = receivedDocuments(stack, 'ConfirmationRequest')[1]?.doc.Request.ConfirmationRequest;
    expect(document.OrderReference.DocumentReference['@payloadID']).toBe(payloadID);

    // Seen again (the reconciliation), it is not told twice; the PO waits for an operator as before.
    stack.clock.advance(3600);
    await drain(stack);
    expect(confirmationsReceived(stack)).toHaveLength(2);
    const po = await stack.store.orders.getByPayloadId('acme', payloadID);
    expect(po).toMatchObject({ state: 'needs_operator', flags: ['cancelled_by_supplier'] });
  });

  it('seen only by the reconciliation (the webhook lost), it is rejected all the same', async () => {
    const stack = await createOrderStack(configWith());
    const { printOrderId } = await placeOne(stack, 'PO-CANCEL-LOST-HOOK');
    stack.webhooksLost = true;
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
    await drain(stack);
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
    stack.clock.advance(300);
    await drain(stack);
    expect(confirmationsReceived(stack).map((c) => [c.type, c.confirmID])).toEqual([
      ['accept', String(printOrderId)],
      ['reject', `${printOrderId}-2`],
    ]);
  });

  it('one of two print orders: a detail rejects exactly its line, the reason in the line status; the other line is not named', async () => {
    const stack = await createOrderStack(configWith());
    const { first, second, quantities } = await placeTwoOwners(stack, 'PO-HALF-CANCEL');
    stack.sandbox.control.setOrderStatus(second, { status: 'Cancelled' });
    await drain(stack);
    const reason = `Print order ${second} was cancelled by the supplier (status "Cancelled").`;
    expect(confirmationsReceived(stack)).toEqual([
      { type: 'accept', confirmID: `${first},${second}`, version: '1', items: [], dtd: VALID },
      {
        type: 'detail',
        confirmID: `${first},${second}-2`,
        version: '1',
        items: [
          {
            lineNumber: '2',
            quantity: quantities[1],
            unit: 'EA',
            statuses: [{ type: 'reject', quantity: quantities[1], comments: reason }],
          },
        ],
        dtd: VALID,
      },
    ]);
    expect(headers(stack)[1]?.comments).toBe(
      `${reason} Its lines are rejected; the other lines of this order stand as confirmed.`,
    );

    // The other one cancelled too: nothing of the PO is left, so the whole PO is rejected.
    stack.sandbox.control.setOrderStatus(first, { status: 'Cancelled' });
    await drain(stack);
    expect(headers(stack).map((h) => [h.type, h.confirmID, h.operation])).toEqual([
      ['accept', `${first},${second}`, 'new'],
      ['detail', `${first},${second}-2`, 'new'],
      ['reject', `${first},${second}-3`, 'new'],
    ]);
  });

  it('a line an allDetail confirmation accepted is rejected by an update of that confirmation: same confirmID, next version, a DocumentReference to it', async () => {
    const stack = await createOrderStack(configWith({ confirmations: 'allDetail' }));
    const { first, second, quantities } = await placeTwoOwners(stack, 'PO-ALLDETAIL-CANCEL');
    stack.sandbox.control.setOrderStatus(first, { status: 'Cancelled' });
    await drain(stack);
    const [accepted, updated] = headers(stack);
    expect(updated).toMatchObject({
      type: 'allDetail',
      operation: 'update',
      confirmID: accepted?.confirmID,
      version: '2',
      amends: accepted?.payloadID,
    });
    expect(confirmationsReceived(stack)[1]).toEqual({
      type: 'allDetail',
      confirmID: `${first},${second}`,
      version: '2',
      // An update is complete: the line still accepted is restated, the cancelled one rejected.
      items: [
        {
          lineNumber: '1',
          quantity: quantities[0],
          unit: 'EA',
          statuses: [
            {
              type: 'reject',
              quantity: quantities[0],
              comments: `Print order ${first} was cancelled by the supplier (status "Cancelled").`,
            },
          ],
        },
        {
          lineNumber: '2',
          quantity: quantities[1],
          unit: 'EA',
          statuses: [{ type: 'accept', quantity: quantities[1] }],
        },
      ],
      dtd: VALID,
    });
  });

  it('a PO with a line rejected at placing: the cancelled print order leaves no line, so the whole PO is rejected', async () => {
    const stack = await createOrderStack(configWith());
    const { printOrderId } = await placeOne(stack, 'PO-REJECTED-LINE-CANCEL', [
      { sku: 'FREIGHT', quantity: '1', unitPrice: '25.00' },
    ]);
    const [placed] = confirmationsReceived(stack);
    expect(placed?.items.map((item) => [item.lineNumber, item.statuses.map((s) => s.type)])).toEqual([
      ['1', ['accept']],
      ['2', ['reject']],
    ]);
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'Cancelled' });
    await drain(stack);
    expect(confirmationsReceived(stack).map((c) => [c.type, c.items.length])).toEqual([
      ['detail', 2],
      ['reject', 0],
    ]);
  });

  it('the buyer’s own cancellation (OrderRequest delete) is not answered with a reject', async () => {
    const stack = await createOrderStack(configWith());
    const { payloadID, lines } = await placeOne(stack, 'PO-BUYER-CANCEL');
    await sendOrder(stack, {
      payloadID: 'buyer-cancel@ariba.example',
      orderID: 'PO-BUYER-CANCEL',
      type: 'delete',
      previousPayloadID: payloadID,
      lines,
    });
    await drain(stack);
    stack.clock.advance(3600);
    await drain(stack);
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
  });
});

describe('status notices', () => {
  it('without confirmDetails, in production and shipped send no confirmation', async () => {
    const stack = await createOrderStack(configWith());
    const { printOrderId } = await placeOne(stack, 'PO-QUIET');
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'In Production' });
    await drain(stack);
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
    expect(receivedDocuments(stack, 'ShipNoticeRequest')).toHaveLength(1);
  });

  it('with confirmDetails: no line repeated as accept; a shipped line gets its shipment date, named once', async () => {
    const stack = await createOrderStack(configWith({ confirmDetails: true }));
    const { printOrderId, quantity } = await placeOne(stack, 'PO-NOTICES');
    stack.sandbox.control.setOrderStatus(printOrderId, { status: 'In Production' });
    await drain(stack);
    // Nothing of a line differs from the PO: the notice names no line, the status is in its Comments.
    expect(confirmationsReceived(stack)[1]).toEqual({
      type: 'detail',
      confirmID: `${printOrderId}-2`,
      version: '1',
      items: [],
      dtd: VALID,
    });
    expect(headers(stack)[1]?.comments).toBe(`Print order ${printOrderId} is now "In Production".`);

    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    const shipped = receivedDocuments(stack, 'ConfirmationRequest')[2]?.doc.Request.ConfirmationRequest;
    const status = shipped.ConfirmationItem.ConfirmationStatus;
    expect(shipped.ConfirmationHeader['@confirmID']).toBe(`${printOrderId}-3`);
    expect(shipped.ConfirmationItem['@lineNumber']).toBe('1');
    expect(status['@type']).toBe('accept');
    expect(status['@quantity']).toBe(quantity);
    expect(status['@shipmentDate']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(status.Comments['#text']).toBe(
      `Print order ${printOrderId} is "Order Shipped"; the line is shipped on this date.`,
    );
    expect(confirmationsReceived(stack)[2]?.dtd).toEqual(VALID);

    // Every confirmation after the accept is its own, and no line is named by two of them.
    const lines = confirmationsReceived(stack).flatMap((c) => c.items.map((item) => item.lineNumber));
    expect(lines).toEqual(['1']);
  });

  it('with confirmDetails, a line rejected at placing is never restated as accept', async () => {
    const stack = await createOrderStack(configWith({ confirmDetails: true }));
    const { printOrderId } = await placeOne(stack, 'PO-NOTICE-REJECTED-LINE', [
      { sku: 'FREIGHT', quantity: '1', unitPrice: '25.00' },
    ]);
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    const [placed, shipped] = headers(stack);
    // Line 1 was named by the placing detail: its shipment date comes as an update of that confirmation.
    expect(shipped).toMatchObject({
      type: 'detail',
      operation: 'update',
      confirmID: placed?.confirmID,
      version: '2',
      amends: placed?.payloadID,
    });
    const update = confirmationsReceived(stack)[1];
    expect(update?.items.map((item) => [item.lineNumber, item.statuses.map((s) => s.type)])).toEqual([
      ['1', ['accept']],
      ['2', ['reject']],
    ]);
    expect(update?.dtd).toEqual(VALID);
  });
});
