import { Order } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { errorOf, type Harness, makeHarness, NOW } from './sandbox-harness.ts';

const NOW_ISO = new Date(NOW).toISOString();

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status).toBe(status);
  return (await res.json()) as T;
}

const getOrder = async (h: Harness, id: number) => json<Order>(await h.call('GET', `/api/v2/order/${id}`));

/** A PIPO order of jane.buyer for the given products (3001 her design, 101 and 102 templates). */
async function pipoOrder(h: Harness, productIds: readonly number[]): Promise<Order> {
  const token = await h.login('jane.buyer', 'demo-pass-1');
  const res = await h.call('POST', '/api/v2/pipo/order/create', {
    pipo: token,
    body: { product_id: productIds, external_id: 'PO-SPLIT' },
  });
  return getOrder(h, await json<number>(res));
}

const itemIdsOf = (order: Order) => order.items.map((i) => i.id);

const WAREHOUSE = {
  id: 9101,
  name: 'Warehouse',
  company: 'Acme Corp',
  firstName: 'Receiving',
  lastName: 'Dock 2',
  line1: '40 Harbor Road',
  city: 'Savannah',
  state: 'GA',
  postalCode: '31401',
  countryCode: 'US',
};

describe('sandbox control: splitting an order into shipments', () => {
  it('moves the given items into a new shipment with its own destination and carrier, and tells order_updated', async () => {
    const h = makeHarness();
    const created = await pipoOrder(h, [3001, 102]);
    const [first, second] = itemIdsOf(created);
    const hook = await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://gateway.example/hooks/orders', event: 'order_updated' },
    });
    expect(hook.status).toBe(201);

    const res = await h.call('POST', `/_sandbox/orders/${created.id}/shipments`, {
      token: null,
      body: { itemIds: [second], shipTo: WAREHOUSE, provider: 'FedEx', service: '2Day' },
    });
    const answered = await json<Order>(res, 201);
    const order = await getOrder(h, created.id);
    expect(answered).toEqual(order);
    expect(Order.safeParse(order).success).toBe(true);
    expect(order.items.map((i) => [i.id, i.shipment_index])).toEqual([
      [first, 1],
      [second, 2],
    ]);
    // Storefront 1 charges PIPO orders 9.95 per shipment and 8.25 % tax on each shipment's items: before
    // the split one shipment of 0.12 + 0.35 (tax 0.04); after it 0.12 (tax 0.01) and 0.35 (tax 0.03).
    expect(created.shipments.map((s) => [s.shipping_total, s.tax_total])).toEqual([[9.95, 0.04]]);
    expect(order.shipments[0]).toEqual({ ...created.shipments[0], tax_total: 0.01 });
    expect(order.shipments[1]).toEqual({
      index: 2,
      provider: 'FedEx',
      service: '2Day',
      shipping_total: 9.95,
      tax_total: 0.03,
      tracking_numbers: null,
      shipped_on: null,
      ship_to_address: {
        first_name: 'Receiving',
        last_name: 'Dock 2',
        address1: '40 Harbor Road',
        city: 'Savannah',
        state: 'GA',
        zip: '31401',
        country: 'US',
      },
    });
    // The flat fields keep reflecting the primary shipment.
    expect({
      shipping_address: order.shipping_address,
      shipping_provider: order.shipping_provider,
      shipping_service: order.shipping_service,
      shipping_total: order.shipping_total,
      tax_total: order.tax_total,
    }).toEqual({
      shipping_address: created.shipping_address,
      shipping_provider: created.shipping_provider,
      shipping_service: created.shipping_service,
      shipping_total: created.shipping_total,
      tax_total: created.tax_total,
    });

    expect(h.control.orderHistory(created.id).history.at(-1)).toEqual({
      at: NOW_ISO,
      itemId: second,
      source: 'admin',
      status: null,
      note: `Item ${second} moved to new shipment 2 by the admin`,
      comments: null,
      userInitials: null,
      trackingNumbers: [],
    });
    await h.control.idle();
    expect(h.deliveries.map((d) => d.body)).toEqual([[order]]);
  });

  it('copies the primary destination when none is given, and a further split takes the next index', async () => {
    const h = makeHarness();
    const created = await pipoOrder(h, [3001, 101, 102]);
    const [, middle, last] = itemIdsOf(created);
    const split = h.control.splitShipment(created.id, { itemIds: [middle!] });
    expect(split.shipments[1]).toMatchObject({
      index: 2,
      provider: null,
      service: null,
      ship_to_address: created.shipments[0]!.ship_to_address,
    });
    const again = h.control.splitShipment(created.id, { itemIds: [last!], provider: 'UPS' });
    expect(again.shipments.map((s) => [s.index, s.provider])).toEqual([
      [1, null],
      [2, null],
      [3, 'UPS'],
    ]);
    expect(again.items.map((i) => i.shipment_index)).toEqual([1, 2, 3]);
  });

  it('refuses an unknown order, an unknown item, every item, an empty list and a shipped item, changing nothing', async () => {
    const h = makeHarness();
    const created = await pipoOrder(h, [3001, 101, 102]);
    const [a, b, c] = itemIdsOf(created);
    const split = (orderId: number | string, body: unknown) =>
      h.call('POST', `/_sandbox/orders/${orderId}/shipments`, { token: null, body });

    expect(await errorOf(await split(424242, { itemIds: [a] }))).toEqual({
      status: 404,
      message: 'Order not the service.',
    });
    expect(await errorOf(await split('x', { itemIds: [a] }))).toEqual({
      status: 404,
      message: 'Order not the service.',
    });
    expect(await errorOf(await split(created.id, { itemIds: [a, 5001] }))).toEqual({
      status: 404,
      message: `Order ${created.id} has no item 5001.`,
    });
    expect(await errorOf(await split(created.id, { itemIds: [a, b, c] }))).toEqual({
      status: 400,
      message: `Shipment 1 of order ${created.id} would keep no item; every shipment keeps at least one (shipment 1 is the primary one).`,
    });
    expect(await errorOf(await split(created.id, { itemIds: [] }))).toEqual({
      status: 400,
      message: 'Invalid request body: itemIds: Too small: expected array to have >=1 items.',
    });
    expect(() => h.control.splitShipment(created.id, { itemIds: [] })).toThrow(
      'itemIds must list at least one item of the order.',
    );
    expect(() =>
      h.control.splitShipment(created.id, { itemIds: [c!], shipTo: { ...WAREHOUSE, countryCode: 'USA' } }),
    ).toThrow('shipTo is not an address: countryCode: must be an ISO 3166 alpha-2 country code.');
    expect(await getOrder(h, created.id)).toEqual(created);

    // Once shipment 2 is emptied of all but its own item, that item cannot leave it either.
    h.control.splitShipment(created.id, { itemIds: [c!] });
    expect(await errorOf(await split(created.id, { itemIds: [c] }))).toEqual({
      status: 400,
      message: `Shipment 2 of order ${created.id} would keep no item; every shipment keeps at least one.`,
    });

    const shipped = await h.call('PATCH', `/api/v2/order/${created.id}/shipped/${a}`, {
      body: { tracking_number: '1Z999AA10123456784' },
    });
    expect(shipped.status).toBe(204);
    const before = await getOrder(h, created.id);
    expect(await errorOf(await split(created.id, { itemIds: [a] }))).toEqual({
      status: 400,
      message: `Item ${a} is in shipment 1, which has shipped already; a shipped item cannot move.`,
    });
    expect(await getOrder(h, created.id)).toEqual(before);
  });

  it('T02 marking one item of a split PIPO order shipped ships only its shipment', async () => {
    const h = makeHarness();
    const created = await pipoOrder(h, [3001, 102]);
    const [first, second] = itemIdsOf(created);
    h.control.splitShipment(created.id, { itemIds: [second!], provider: 'FedEx', service: '2Day' });

    const res = await h.call('PATCH', `/api/v2/order/${created.id}/shipped/${second}`, {
      body: { tracking_number: '7489 2200 1234' },
    });
    expect(res.status).toBe(204);
    const order = await getOrder(h, created.id);
    expect(order.shipments.map((s) => [s.index, s.shipped_on, s.tracking_numbers])).toEqual([
      [1, null, null],
      [2, NOW_ISO, '7489 2200 1234'],
    ]);
    expect(order.items.map((i) => [i.id, i.status])).toEqual([
      [first, 'New Order'],
      [second, 'Order Shipped'],
    ]);
    expect(order.shipped_on).toBeNull();

    h.control.advanceClock(60);
    await h.call('PATCH', `/api/v2/order/${created.id}/shipped/${first}`, {
      body: { tracking_number: '1Z999AA10123456784' },
    });
    const done = await getOrder(h, created.id);
    const later = new Date(NOW + 60_000).toISOString();
    expect(done.shipments.map((s) => [s.index, s.shipped_on, s.tracking_numbers])).toEqual([
      [1, later, '1Z999AA10123456784'],
      [2, NOW_ISO, '7489 2200 1234'],
    ]);
    expect(done.shipped_on).toBe(later);
    expect(done.status).toBe('Order Shipped');
  });
});
