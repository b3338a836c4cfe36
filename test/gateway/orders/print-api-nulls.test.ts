/**
 * A print service written in .NET sends `null` for a string it has no value for, and may add fields the
 * interface does not name. The client reads such an Order (a null string as empty text, unknown fields
 * passed through) instead of refusing it as `invalid_response`, so the gateway follows the order to its
 * ship notice as it does against the sandbox.
 */
import { describe, expect, it } from 'vitest';
import {
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  type XmlTree,
} from '../../support/order-flow.ts';

/** Empty strings written as null, as .NET serializers do, anywhere in a JSON value; counts them. */
function nullEmptyStrings(value: unknown, count: { nulls: number }): unknown {
  if (value === '') {
    count.nulls++;
    return null;
  }
  if (Array.isArray(value)) return value.map((v) => nullEmptyStrings(v, count));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nullEmptyStrings(v, count)]));
  }
  return value;
}

/** The sandbox's `GET /order/{id}` answers rewritten the way a .NET service would send them. */
function dotNetOrders(count: { nulls: number; orders: number }) {
  return (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      if (request.method !== 'GET' || !/\/api\/v2\/order\/\d+$/.test(new URL(request.url).pathname)) {
        return response;
      }
      const order = nullEmptyStrings(await response.json(), count) as Record<string, unknown>;
      count.orders++;
      const items = (order.items as Record<string, unknown>[]).map((item) => ({ ...item, LineGuid: 'a1b2' }));
      const rewritten = { ...order, items, OrderSource: 'API', Discounts: [{ Code: null, Amount: 0.0 }] };
      return new Response(JSON.stringify(rewritten), { status: 200, headers: response.headers });
    };
}

describe('an Order with null strings and unknown fields', () => {
  it('is read by the client, nulls as empty text and unknown fields kept', async () => {
    const count = { nulls: 0, orders: 0 };
    const stack = await createOrderStack(orderConfig(), { wrapPrintFetch: dotNetOrders(count) });
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { payloadID: 'dotnet@ariba.example', orderID: 'PO-DOTNET', lines: linesOf(cart) });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-DOTNET');
    if (printOrderId === undefined) throw new Error('the order was not placed');

    const api = stack.gateway.context.printApiFor(stack.gateway.context.storefront('demo'));
    const order = await api.getOrder(printOrderId);
    expect(count.nulls).toBeGreaterThan(10);
    expect(order.shipping_provider).toBe('');
    expect(order.payment_reference).toBe('');
    expect(order.shipping_address.line_2).toBe('');
    expect(order.po_number).toBe('PO-DOTNET');
    expect(order).toMatchObject({ OrderSource: 'API', Discounts: [{ Code: null, Amount: 0 }] });
    expect(order.items[0]).toMatchObject({ LineGuid: 'a1b2' });
  });

  it('is followed by the gateway to its ship notice', async () => {
    const count = { nulls: 0, orders: 0 };
    const stack = await createOrderStack(orderConfig(), { wrapPrintFetch: dotNetOrders(count) });
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, {
      payloadID: 'dotnet2@ariba.example',
      orderID: 'PO-DOTNET2',
      lines: linesOf(cart),
    });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-DOTNET2');
    if (printOrderId === undefined) throw new Error('the order was not placed');
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z 999 AA1 01 2345 6784' });
    await drain(stack);

    expect(count.orders).toBeGreaterThan(0);
    const notices = receivedDocuments(stack, 'ShipNoticeRequest');
    expect(notices).toHaveLength(1);
    const control = notices[0]?.doc.Request.ShipNoticeRequest.ShipControl;
    // shipping_provider came as null: no carrier named, as with the sandbox's empty text.
    expect(control.CarrierIdentifier).toEqual([
      { '#text': 'Carrier not specified', '@domain': 'companyName' },
    ]);
    expect(control.ShipmentIdentifier.map((s: XmlTree) => s['#text'])).toEqual(['1Z 999 AA1 01 2345 6784']);
    expect(await stack.store.printOrders.get('demo', printOrderId)).toMatchObject({ state: 'closed' });
  });
});
