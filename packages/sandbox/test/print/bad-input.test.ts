import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basic, errorOf, GATEWAY_KEY, type Harness, makeHarness, TOKENS } from './sandbox-harness.ts';

const TOO_LARGE = { status: 413, message: 'The request body is larger than 1 MB.' };

/** A snapshot of everything a rejected request must leave untouched. */
async function snapshot(h: Harness) {
  const orders = [];
  for (const id of [1001, 1002, 1003, 1010])
    orders.push(await (await h.call('GET', `/api/v2/order/${id}`)).json());
  return {
    orders,
    hooks: await (await h.call('GET', '/api/v2/hooks')).json(),
    users: h.control.users(),
    projects: h.control.projects(),
    history: [1001, 1002, 1003].map((id) => h.control.orderHistory(id)),
  };
}

describe('sandbox bad input', () => {
  it('a body over 1 MB is 413 (with or without Content-Length) and changes nothing', async () => {
    const h = makeHarness();
    const before = await snapshot(h);
    const huge = JSON.stringify({
      target_url: `https://hooks.example/${'a'.repeat(1024 * 1024)}`,
      event: 'order_updated',
    });
    expect(await errorOf(await h.call('POST', '/api/v2/hooks', { body: huge }))).toEqual(TOO_LARGE);
    const bytes = new TextEncoder().encode(
      JSON.stringify({ order_status: 'New Order', comments: 'x'.repeat(1024 * 1024 + 10) }),
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024)
          controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });
    const chunked = await h.app.request('/api/v2/order/1001/status', {
      method: 'PATCH',
      headers: { Authorization: basic(TOKENS.gateway, GATEWAY_KEY), 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await errorOf(chunked)).toEqual(TOO_LARGE);
    const editorSave = await h.app.request('/editor/online-editor/save', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${'a'.repeat(1024 * 1024 + 1)}`,
    });
    expect(editorSave.status).toBe(413);
    expect(await snapshot(h)).toEqual(before);
  });

  it('malformed JSON, a non-object body and wrong field types are 400 with a clear message and change nothing', async () => {
    const h = makeHarness();
    const before = await snapshot(h);
    const cases: [string, string, unknown, string][] = [
      ['PATCH', '/api/v2/order/1001/status', '{"order_status": ', 'The request body is not valid JSON.'],
      ['PATCH', '/api/v2/order/1001/status', '["New Order"]', 'The request body must be a JSON object.'],
      ['PATCH', '/api/v2/order/1001/status', '', 'The request body is empty; a JSON object is required.'],
      [
        'PATCH',
        '/api/v2/order/1001/shipped',
        '{"tracking_number": 42}',
        'Invalid request body: tracking_number: Invalid input: expected string, received number.',
      ],
      [
        'POST',
        '/api/v2/hooks',
        { target_url: 'https://x.example' },
        'Invalid request body: event: is required.',
      ],
      [
        'POST',
        '/api/v2/pipo/user/createtemp',
        { storefront_id: '1' },
        'Invalid request body: storefront_id: Invalid input: expected number, received string.',
      ],
      ['POST', '/api/v2/pipo/user/create', 'null', 'The request body must be a JSON object.'],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await h.call(method, path, { body });
      expect(await errorOf(res), `${method} ${path} ${String(body)}`).toEqual({ status: 400, message });
    }
    expect(await snapshot(h)).toEqual(before);
  });

  it('rejected PIPO and hook requests leave no trace: a refused order create, a duplicate user, a bad hook', async () => {
    const h = makeHarness();
    const token = await h.login('jane.buyer', 'demo-pass-1');
    const before = await snapshot(h);
    expect(
      (await h.call('POST', '/api/v2/pipo/order/create', { pipo: token, body: { product_id: [9] } })).status,
    ).toBe(400);
    const duplicate = {
      storefront_id: 1,
      username: 'new',
      password: 'p',
      email: 'JANE.buyer@example.com',
      first_name: 'a',
      last_name: 'b',
    };
    expect((await h.call('POST', '/api/v2/pipo/user/create', { body: duplicate })).status).toBe(409);
    expect(
      (await h.call('POST', '/api/v2/hooks', { body: { target_url: 'nope', event: 'order_updated' } }))
        .status,
    ).toBe(400);
    expect(
      (await h.call('PATCH', '/api/v2/order/1010/shipped', { body: { tracking_number: 'Q' } })).status,
    ).toBe(400);
    expect(await snapshot(h)).toEqual(before);
    const order = await (
      await h.call('POST', '/api/v2/pipo/order/create', { pipo: token, body: { product_id: [101] } })
    ).json();
    // The refused create took no order id: the next one follows the seed's highest (1020).
    expect(order).toBe(1021);
  });

  it('the control API refuses bad input with 4xx messages and changes nothing', async () => {
    const h = makeHarness();
    const before = await snapshot(h);
    const control = (method: string, path: string, body?: unknown) =>
      h.app.request(`/_sandbox${path}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect(await errorOf(await control('POST', '/clock/advance', { seconds: -5 }))).toEqual({
      status: 400,
      message: 'Invalid request body: seconds: Too small: expected number to be >=0.',
    });
    expect(
      await errorOf(
        await control('POST', '/orders', { customerId: 999, items: [{ productId: 101, quantity: 1 }] }),
      ),
    ).toEqual({
      status: 404,
      message: 'Customer 999 not found.',
    });
    expect(
      await errorOf(
        await control('POST', '/orders', { customerId: 201, items: [{ productId: 121, quantity: 1 }] }),
      ),
    ).toEqual({
      status: 400,
      message: 'Product 121 cannot be ordered by customer 201.',
    });
    expect(await errorOf(await control('POST', '/orders/1001/status', { status: 'Lost' }))).toMatchObject({
      status: 400,
    });
    expect(await errorOf(await control('DELETE', '/orders/abc'))).toEqual({
      status: 404,
      message: 'Order not the service.',
    });
    expect(await errorOf(await control('DELETE', '/customers/77'))).toEqual({
      status: 404,
      message: 'Customer not found.',
    });
    expect(await errorOf(await control('DELETE', '/api-keys/0000'))).toEqual({
      status: 404,
      message: 'No such API key.',
    });
    expect(await errorOf(await control('GET', '/users?storefrontId=x'))).toEqual({
      status: 400,
      message: 'storefrontId must be a positive integer.',
    });
    expect(await snapshot(h)).toEqual(before);
    expect(h.control.now().toISOString()).toBe('2025-03-03T09:00:00.000Z');
  });

  it('an unexpected failure is a 500 with a generic message: no stack trace, no detail', async () => {
    const logged: unknown[] = [];
    const h = makeHarness({
      random: () => {
        throw new Error('entropy pool at /secret/path exhausted');
      },
      logger: {
        info: () => undefined,
        warn: () => undefined,
        error: (message, fields) => logged.push({ message, fields }),
      },
    });
    const res = await h.call('POST', '/api/v2/pipo/user/login', {
      body: { username: 'jane.buyer', password: 'demo-pass-1', storefront_id: 1 },
    });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ Message: 'The sandbox failed to answer this request.' });
    expect(text).not.toContain('secret');
    expect(logged).toHaveLength(1);
  });

  it('no request shape gets a 5xx: random paths, methods and bodies are answered with 2xx-4xx', async () => {
    const h = makeHarness();
    const segment = fc.oneof(
      fc.constantFrom(
        'order',
        'download',
        'assets',
        'shipped',
        'status',
        'customer',
        'product',
        'renderings',
        'pipo',
        'user',
        'hooks',
        'report',
        'sales',
        '1001',
        '5001',
        '101',
        '0',
        '-1',
        '%00',
        'x'.repeat(300),
      ),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const body = fc.oneof(fc.constant(undefined), fc.json(), fc.string({ maxLength: 200 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'),
        fc.constantFrom('/api/v2/', '/api/v1/', '/editor/', '/_sandbox/'),
        fc.array(segment, { maxLength: 4 }),
        body,
        async (method, prefix, segments, payload) => {
          const res = await h.call(method, `${prefix}${segments.join('/')}`, {
            ...(payload === undefined || method === 'GET' ? {} : { body: payload }),
          });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300, seed: 20250303 },
    );
  });
});
