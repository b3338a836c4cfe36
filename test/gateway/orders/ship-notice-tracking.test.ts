/**
 * What the print shop writes as tracking reaches the buyer as written: the shipment's tracking text is
 * split on commas and semicolons only, so a carrier's number printed in groups (UPS writes
 * "1Z 999 AA1 01 2345 6784") stays one ShipmentIdentifier, through the sandbox and the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  type XmlTree,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

async function placedOrder(stack: OrderStack, orderID: string): Promise<number> {
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  const payloadID = `${orderID}@ariba.example`;
  expect(await sendOrder(stack, { payloadID, orderID, lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, orderID);
  if (printOrderId === undefined) throw new Error('the order was not placed');
  return printOrderId;
}

const shipmentIdentifiers = (notice: XmlTree): string[] =>
  notice.doc.Request.ShipNoticeRequest.ShipControl.ShipmentIdentifier.map((s: XmlTree) => s['#text']);

describe('tracking numbers in ship notices', () => {
  it('a number written with spaces is one ShipmentIdentifier; commas and semicolons separate numbers', async () => {
    const stack = await createOrderStack();
    const printOrderId = await placedOrder(stack, 'PO-TRACK-SPACES');
    await stack.api.markShipped(printOrderId, {
      trackingNumber: '1Z 999 AA1 01 2345 6784; JD0146 0000 1234 ,7489 2200 1234',
    });
    await drain(stack);

    expect((await stack.api.getOrder(printOrderId)).shipments[0]?.tracking_numbers).toBe(
      '1Z 999 AA1 01 2345 6784, JD0146 0000 1234, 7489 2200 1234',
    );
    const notices = receivedDocuments(stack, 'ShipNoticeRequest');
    expect(notices).toHaveLength(1);
    const notice = notices[0]!;
    expect(shipmentIdentifiers(notice)).toEqual([
      '1Z 999 AA1 01 2345 6784',
      'JD0146 0000 1234',
      '7489 2200 1234',
    ]);
    expect(validateAgainstDtd(notice.post.body, 'Fulfill')).toEqual({ ok: true, messages: '' });
  });

  it('a single UPS number with spaces, the issue’s case, is one ShipmentIdentifier', async () => {
    const stack = await createOrderStack();
    const printOrderId = await placedOrder(stack, 'PO-TRACK-UPS');
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z 999 AA1 01 2345 6784' });
    await drain(stack);
    const notices = receivedDocuments(stack, 'ShipNoticeRequest');
    expect(notices.map(shipmentIdentifiers)).toEqual([['1Z 999 AA1 01 2345 6784']]);
  });
});
