import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Customer,
  CustomerEventBody,
  type HookEntry,
  type Order,
  OrderEventBody,
} from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { errorOf, type Harness, makeHarness, TOKENS } from './sandbox-harness.ts';

async function hook(
  h: Harness,
  event: string,
  targetUrl: string,
  token: string = TOKENS.gateway,
): Promise<HookEntry> {
  const res = await h.call('POST', '/api/v2/hooks', { token, body: { target_url: targetUrl, event } });
  expect(res.status).toBe(201);
  return (await res.json()) as HookEntry;
}

async function getJson<T>(h: Harness, path: string): Promise<T> {
  const res = await h.call('GET', path);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('sandbox hooks', () => {
  it('E29 E28 R12 POST answers 201 with the Hook entry; GET lists the calling token active hooks', async () => {
    const h = makeHarness();
    expect(await getJson(h, '/api/v2/hooks')).toEqual([]);
    const res = await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://hooks.example/a', event: 'order_updated' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    const entry = (await res.json()) as HookEntry;
    expect(entry).toEqual({
      id: expect.any(Number),
      target_url: 'https://hooks.example/a',
      event: 'order_updated',
    });
    expect(await getJson(h, '/api/v2/hooks')).toEqual([entry]);
  });

  it('X17 an unknown event name is 400 "Event name is invalid."', async () => {
    const h = makeHarness();
    for (const event of ['order_shipped', '', 'ORDER_UPDATED']) {
      const res = await h.call('POST', '/api/v2/hooks', {
        body: { target_url: 'https://hooks.example/a', event },
      });
      expect(await errorOf(res), event).toEqual({ status: 400, message: 'Event name is invalid.' });
    }
    const badUrl = await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'ftp://x', event: 'order_updated' },
    });
    expect(await errorOf(badUrl)).toEqual({
      status: 400,
      message: 'target_url must be an absolute http or https URL.',
    });
    expect(await getJson(h, '/api/v2/hooks')).toEqual([]);
  });

  it('X19 R12 a target_url is registered once per token; another token may register it too', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://hooks.example/a');
    const again = await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://hooks.example/a', event: 'order_created' },
    });
    expect(await errorOf(again)).toEqual({ status: 409, message: 'Target url already exists.' });
    await hook(h, 'order_updated', 'https://hooks.example/a', TOKENS.reporting);
    expect(await getJson<HookEntry[]>(h, '/api/v2/hooks')).toHaveLength(1);
  });

  it('E30 T13 DELETE answers 204 and soft-deletes: not listed, no deliveries, a second DELETE is 404', async () => {
    const h = makeHarness();
    const entry = await hook(h, 'order_updated', 'https://hooks.example/a');
    const res = await h.call('DELETE', `/api/v2/hooks/${entry.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await getJson(h, '/api/v2/hooks')).toEqual([]);
    await h.call('PATCH', '/api/v2/order/1001/shipped');
    await h.control.idle();
    expect(h.deliveries).toEqual([]);
    expect(await errorOf(await h.call('DELETE', `/api/v2/hooks/${entry.id}`))).toEqual({
      status: 404,
      message: 'Hook not the service.',
    });
    await hook(h, 'order_updated', 'https://hooks.example/a');
  });

  it('X15 A08 hooks belong to the token that created them: others cannot see or delete them', async () => {
    const h = makeHarness();
    const entry = await hook(h, 'order_updated', 'https://hooks.example/a');
    const other = await h.call('GET', '/api/v2/hooks', { token: TOKENS.reporting });
    expect(await other.json()).toEqual([]);
    for (const path of [`/api/v2/hooks/${entry.id}`, '/api/v2/hooks/424242', '/api/v2/hooks/abc']) {
      const res = await h.call('DELETE', path, { token: TOKENS.reporting });
      expect(await errorOf(res), path).toEqual({ status: 404, message: 'Hook not the service.' });
    }
    expect(await getJson(h, '/api/v2/hooks')).toEqual([entry]);
  });
});

describe('sandbox webhook deliveries', () => {
  it('W01 W02 R18 a delivery is a POST of application/json holding a one-element array shaped like GET order', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://hooks.example/orders');
    await h.call('PATCH', '/api/v2/order/1001/status', {
      body: { order_status: 'In Production', comments: 'ok' },
    });
    await h.control.idle();
    expect(h.deliveries).toHaveLength(1);
    const delivery = h.deliveries[0]!;
    expect(delivery.url).toBe('https://hooks.example/orders');
    expect(delivery.method).toBe('POST');
    expect(delivery.contentType).toBe('application/json');
    expect(OrderEventBody.safeParse(delivery.body).success).toBe(true);
    expect(delivery.body).toEqual([await getJson<Order>(h, '/api/v2/order/1001')]);
  });

  it('W02 R18 customer events carry a one-element array shaped like GET customer', async () => {
    const h = makeHarness();
    await hook(h, 'customer_updated', 'https://hooks.example/customers');
    h.control.updateCustomer(202, { company: 'Globex Holdings' });
    await h.control.idle();
    expect(CustomerEventBody.safeParse(h.deliveries[0]!.body).success).toBe(true);
    expect(h.deliveries[0]!.body).toEqual([await getJson<Customer>(h, '/api/v2/customer/202')]);
  });

  it('W03 W06 a 2xx answer is delivered; a delivery is tried once, unsigned', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://hooks.example/ok');
    await hook(h, 'order_updated', 'https://hooks.example/broken');
    h.answerFor = (url) => (url.endsWith('/ok') ? 202 : 500);
    await h.call('PATCH', '/api/v2/order/1002/shipped');
    await h.control.idle();
    expect(h.deliveries.map((d) => d.url).sort()).toEqual([
      'https://hooks.example/broken',
      'https://hooks.example/ok',
    ]);
    expect(Object.keys(h.deliveries[0]!.headers)).toEqual(['content-type']);
    expect(h.control.deliveries().map((d) => [d.targetUrl, d.outcome, d.status])).toEqual([
      ['https://hooks.example/ok', 'delivered', 202],
      ['https://hooks.example/broken', 'rejected', 500],
    ]);
    expect(await getJson<HookEntry[]>(h, '/api/v2/hooks')).toHaveLength(2);
  });

  it('T14 W04 R18 a 410 answer deactivates the hook', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://hooks.example/gone');
    h.answerFor = () => 410;
    await h.call('PATCH', '/api/v2/order/1002/shipped');
    await h.control.idle();
    expect(h.control.deliveries()[0]).toMatchObject({ outcome: 'gone', status: 410 });
    expect(await getJson(h, '/api/v2/hooks')).toEqual([]);
    await h.call('PATCH', '/api/v2/order/1002/shipped');
    await h.control.idle();
    expect(h.deliveries).toHaveLength(1);
  });

  it('W05 R18 an unreachable target fails silently: the API answers, the failure is recorded, the hook stays', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://unreachable.example/hook');
    h.answerFor = () => new TypeError('fetch failed: getaddrinfo ENOTFOUND unreachable.example');
    const res = await h.call('PATCH', '/api/v2/order/1002/shipped');
    expect(res.status).toBe(204);
    await h.control.idle();
    expect(h.control.deliveries()[0]).toMatchObject({
      outcome: 'unreachable',
      status: null,
      error: 'fetch failed: getaddrinfo ENOTFOUND unreachable.example',
    });
    expect(await getJson<HookEntry[]>(h, '/api/v2/hooks')).toHaveLength(1);
  });

  it('W05 a delivery never holds up the API answer; a silent target is given up after the timeout', async () => {
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    const h = makeHarness({ fetch: hanging, webhookTimeoutMs: 30 });
    await hook(h, 'order_updated', 'https://slow.example/hook');
    const res = await h.call('PATCH', '/api/v2/order/1002/shipped');
    expect(res.status).toBe(204);
    expect(h.control.deliveries()[0]!.outcome).toBe('pending');
    await h.control.idle();
    expect(h.control.deliveries()[0]!.outcome).toBe('unreachable');
  });

  it('T15 deleting the owning API key disables its hooks and the key stops authenticating', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://hooks.example/reporting', TOKENS.reporting);
    await hook(h, 'order_updated', 'https://hooks.example/gateway');
    const res = await h.app.request(`/_sandbox/api-keys/${TOKENS.reporting}`, { method: 'DELETE' });
    expect(await res.json()).toEqual({ disabledHooks: 1 });
    await h.call('PATCH', '/api/v2/order/1002/shipped');
    await h.control.idle();
    expect(h.deliveries.map((d) => d.url)).toEqual(['https://hooks.example/gateway']);
    expect(await errorOf(await h.call('GET', '/api/v2/hooks', { token: TOKENS.reporting }))).toEqual({
      status: 401,
      message: 'Invalid key or token.',
    });
  });

  it('N01 a storefront checkout (control API) fires order_created with the new order', async () => {
    const h = makeHarness();
    await hook(h, 'order_created', 'https://hooks.example/created');
    const res = await h.app.request('/_sandbox/orders', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        customerId: 202,
        items: [
          { productId: 101, quantity: 500 },
          { productId: 3002, quantity: 100 },
        ],
        payment: { methods: ['creditcard'], cardType: 'Amex', cardNumber: '1005' },
      }),
    });
    expect(res.status).toBe(201);
    const order = (await res.json()) as Order;
    expect(order).toMatchObject({ status: 'New Order', card_type: 'Amex', card_number: '1005' });
    expect(order.items.map((i) => [i.product_id, i.quantity, i.base_price])).toEqual([
      [101, 500, 60],
      [3002, 100, 35],
    ]);
    await h.control.idle();
    expect(h.deliveries.map((d) => d.body)).toEqual([[await getJson(h, `/api/v2/order/${order.id}`)]]);
  });

  it('N02 an admin status change fires order_updated', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://hooks.example/updated');
    const order = h.control.setOrderStatus(1002, { status: 'In Production', comments: 'started' });
    expect(order.status).toBe('In Production');
    await h.control.idle();
    expect((h.deliveries[0]!.body as Order[])[0]!.status).toBe('In Production');
    expect(h.control.orderHistory(1002).history[0]).toMatchObject({ source: 'admin', comments: 'started' });
  });

  it('N03 deleting an order fires order_deleted; the order stays readable with is_deleted true', async () => {
    const h = makeHarness();
    await hook(h, 'order_deleted', 'https://hooks.example/deleted');
    const res = await h.app.request('/_sandbox/orders/1006', { method: 'DELETE' });
    expect(res.status).toBe(200);
    await h.control.idle();
    expect((h.deliveries[0]!.body as Order[])[0]).toMatchObject({ id: 1006, is_deleted: true });
    expect((await getJson<Order>(h, '/api/v2/order/1006')).is_deleted).toBe(true);
  });

  it('N04 N05 N06 customer CRUD through the control API fires customer_created, _updated and _deleted', async () => {
    const h = makeHarness();
    for (const event of ['customer_created', 'customer_updated', 'customer_deleted']) {
      await hook(h, event, `https://hooks.example/${event}`);
    }
    const post = (path: string, method: string, body?: unknown) =>
      h.app.request(path, {
        method,
        headers: { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const created = await post('/_sandbox/customers', 'POST', {
      storefrontId: 1,
      username: 'carla.c',
      password: 'pw-carla',
      email: 'carla@example.com',
      firstName: 'Carla',
      lastName: 'Cruz',
    });
    expect(created.status).toBe(201);
    const customer = (await created.json()) as Customer;
    expect(
      (await post(`/_sandbox/customers/${customer.id}`, 'PATCH', { lastName: 'Cruz-Ortega' })).status,
    ).toBe(200);
    expect((await post(`/_sandbox/customers/${customer.id}`, 'DELETE')).status).toBe(200);
    await h.control.idle();
    expect(h.deliveries.map((d) => [d.url, (d.body as Customer[])[0]!.last_name])).toEqual([
      ['https://hooks.example/customer_created', 'Cruz'],
      ['https://hooks.example/customer_updated', 'Cruz-Ortega'],
      ['https://hooks.example/customer_deleted', 'Cruz-Ortega'],
    ]);
    expect(await errorOf(await h.call('GET', `/api/v2/customer/${customer.id}`))).toEqual({
      status: 404,
      message: 'Customer not found.',
    });
  });

  it('N07 PATCH shipped and PATCH status, order and item forms, each emit order_updated; convert emits customer_created', async () => {
    const h = makeHarness();
    await hook(h, 'order_updated', 'https://hooks.example/updated');
    await hook(h, 'customer_created', 'https://hooks.example/created');
    expect((await h.call('PATCH', '/api/v2/order/1001/shipped')).status).toBe(204);
    expect((await h.call('PATCH', '/api/v2/order/1001/shipped/5001')).status).toBe(204);
    const status = { body: { order_status: 'In Production' } };
    expect((await h.call('PATCH', '/api/v2/order/1001/status', status)).status).toBe(204);
    expect((await h.call('PATCH', '/api/v2/order/1001/status/5002', status)).status).toBe(204);
    const temp = await h.login('temp-5eed01', 'temp-pass-5eed');
    const convert = await h.call('POST', '/api/v2/pipo/user/convert', {
      pipo: temp,
      body: {
        username: 'ted',
        password: 'pw-ted',
        email: 'ted@example.com',
        first_name: 'Ted',
        last_name: 'T',
      },
    });
    expect(convert.status).toBe(200);
    await h.control.idle();
    expect(h.deliveries.map((d) => d.url.split('/').pop())).toEqual([
      'updated',
      'updated',
      'updated',
      'updated',
      'created',
    ]);
  });

  it('A08 N01 events reach only hooks of the license the order belongs to', async () => {
    const h = makeHarness();
    const automation = await h.call('POST', '/api/v2/hooks', {
      token: TOKENS.businessPlus,
      headers: { 'User-Agent': 'Zapier' },
      body: { target_url: 'https://corner.example/hook', event: 'order_created' },
    });
    expect(automation.status).toBe(201);
    h.control.checkout({ customerId: 201, items: [{ productId: 101, quantity: 100 }] });
    await h.control.idle();
    expect(h.deliveries).toEqual([]);
    h.control.checkout({ customerId: 221, items: [{ productId: 121, quantity: 10 }] });
    await h.control.idle();
    expect(h.deliveries.map((d) => d.url)).toEqual(['https://corner.example/hook']);
  });

  it('W01 W02 a delivery reaches a real HTTP receiver over a port', async () => {
    const received: { method: string; type: string | undefined; body: string }[] = [];
    const receiver = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push({ method: req.method ?? '', type: req.headers['content-type'], body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const h = makeHarness({ fetch: globalThis.fetch });
      await hook(h, 'order_updated', `http://127.0.0.1:${port}/events/abc`);
      expect(
        (await h.call('PATCH', '/api/v2/order/1002/shipped', { body: { tracking_number: 'Z9' } })).status,
      ).toBe(204);
      await h.control.idle();
      expect(received).toHaveLength(1);
      expect(received[0]!.method).toBe('POST');
      expect(received[0]!.type).toBe('application/json');
      const body = JSON.parse(received[0]!.body) as Order[];
      expect(body).toHaveLength(1);
      expect(body[0]!.shipments[0]!.tracking_numbers).toBe('Z9');
      expect(h.control.deliveries()[0]).toMatchObject({ outcome: 'delivered', status: 204 });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
