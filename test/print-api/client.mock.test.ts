/**
 * The client against a misbehaving service, simulated with undici's MockAgent (no network: net connect is
 * disabled). Every case runs through both Node transports: createNodeFetch (the default on Node) and
 * undici's WHATWG fetch, each bound to the MockAgent.
 */

import type { Interceptable } from 'undici';
import { errors, MockAgent, fetch as undiciFetch } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPrintApi,
  type FetchLike,
  type PrintApi,
  PrintApiError,
  type PrintApiOptions,
} from '../../src/index.ts';
import { createNodeFetch } from '../../src/print-api/node-fetch.ts';
import { sampleOrder } from './sample-answers.ts';

const ORIGIN = 'https://print.test';
const TOKEN = '0123456789abcdef0123456789abcdef';
const KEY = 'f00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeed';
const SESSION = 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2';
const AUTHORIZATION = `Basic ${Buffer.from(`${TOKEN}:${KEY}`).toString('base64')}`;
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

type Transport = [name: string, make: (agent: MockAgent) => FetchLike];
const transports: Transport[] = [
  ['createNodeFetch', (agent) => createNodeFetch({ dispatcher: agent })],
  [
    'undici fetch',
    (agent) => (input, init) =>
      undiciFetch(input, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>,
  ],
];

/** The request as the mock saw it, headers normalised to lower-case names. */
interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function normaliseHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (
    raw instanceof Headers ||
    (raw !== null && typeof raw === 'object' && 'forEach' in raw && !Array.isArray(raw))
  ) {
    (raw as Headers).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
  } else if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  } else if (raw && typeof raw === 'object') {
    for (const [name, value] of Object.entries(raw)) out[name.toLowerCase()] = String(value);
  }
  return out;
}

describe.each(transports)('print-api client over %s (MockAgent)', (_name, makeFetch) => {
  let agent: MockAgent;
  let pool: Interceptable;
  let seen: SeenRequest[];
  let sleeps: number[];
  let clock: number;

  function client(overrides: Partial<PrintApiOptions> = {}): PrintApi {
    return createPrintApi({
      baseUrl: ORIGIN,
      token: TOKEN,
      key: KEY,
      fetch: makeFetch(agent),
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      now: () => clock,
      random: () => 0,
      ...overrides,
    });
  }

  /** Intercepts one request and records it; `reply` gives status, body and headers. */
  function answer(
    method: string,
    path: string,
    statusCode: number,
    data: unknown = '',
    headers: Record<string, string> = {},
  ) {
    return pool.intercept({ method, path }).reply((options) => {
      seen.push({
        method: options.method,
        path: options.path,
        headers: normaliseHeaders(options.headers),
        body: typeof options.body === 'string' ? options.body : undefined,
      });
      return {
        statusCode,
        data: typeof data === 'string' ? data : JSON.stringify(data),
        responseOptions: { headers: typeof data === 'string' ? headers : { ...JSON_HEADERS, ...headers } },
      };
    });
  }

  function failWith(method: string, path: string, error: Error) {
    return pool.intercept({ method, path }).replyWithError(error);
  }

  async function rejection(promise: Promise<unknown>): Promise<PrintApiError> {
    const error = await promise.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PrintApiError);
    const failure = error as PrintApiError;
    // Secrets never reach messages, whatever went wrong.
    for (const secret of [TOKEN, KEY, SESSION, AUTHORIZATION.slice(6)]) {
      expect(failure.message).not.toContain(secret);
      expect(failure.serviceMessage ?? '').not.toContain(secret);
    }
    return failure;
  }

  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    pool = agent.get(ORIGIN);
    seen = [];
    sleeps = [];
    clock = Date.parse('2025-03-01T12:00:00Z');
  });

  afterEach(async () => {
    agent.assertNoPendingInterceptors();
    await agent.close();
  });

  describe('requests', () => {
    it('ping sends Basic base64(token:key) and the default user agent, and resolves on 204', async () => {
      answer('GET', '/api/v2/ping', 204);
      await expect(client().ping()).resolves.toBeUndefined();
      expect(seen).toHaveLength(1);
      expect(seen[0]!.headers.authorization).toBe(AUTHORIZATION);
      expect(seen[0]!.headers['user-agent']).toBe('punchgate/0.1.0');
      expect(seen[0]!.headers['x-pn-token']).toBeUndefined();
    });

    it('a custom user agent replaces the default', async () => {
      answer('GET', '/api/v2/ping', 204);
      await client({ userAgent: 'acme-erp/2.1' }).ping();
      expect(seen[0]!.headers['user-agent']).toBe('acme-erp/2.1');
    });

    it('a base URL with a path prefix keeps it', async () => {
      pool.intercept({ method: 'GET', path: '/print/api/v2/ping' }).reply(204, '');
      await expect(client({ baseUrl: `${ORIGIN}/print/` }).ping()).resolves.toBeUndefined();
    });

    it('PIPO calls carry X-PN-TOKEN', async () => {
      answer('GET', '/api/v2/pipo/user/istemp', 200, true);
      await expect(client().pipo.isTemp(SESSION)).resolves.toBe(true);
      expect(seen[0]!.headers['x-pn-token']).toBe(SESSION);
      expect(seen[0]!.headers.authorization).toBe(AUTHORIZATION);
    });

    it('downloadProof asks the editor host with the PIPO token in the query and no API credentials', async () => {
      const path = `/editor/download.ashx?token=${SESSION}&pid=7001`;
      answer('GET', path, 200, '%PDF-1.7', { 'content-type': 'application/pdf' });
      answer('GET', path, 403, { Message: `Session ${SESSION} has expired.` });
      const file = await client().pipo.downloadProof(SESSION, `${ORIGIN}/editor`, 7001);
      expect([file.filename, file.contentType]).toEqual(['proof-7001.pdf', 'application/pdf']);
      expect(await new Response(file.body).text()).toBe('%PDF-1.7');
      expect(seen[0]!.headers.authorization).toBeUndefined();
      expect(seen[0]!.headers['x-pn-token']).toBeUndefined();
      // An expired token is `forbidden`; the message names the call without its query or the token.
      const failure = await rejection(client().pipo.downloadProof(SESSION, `${ORIGIN}/editor`, 7001));
      expect([failure.code, failure.path]).toEqual(['forbidden', '/download.ashx']);
    });

    it('markShipped sends tracking_number as JSON, or no body at all', async () => {
      answer('PATCH', '/api/v2/order/1042/shipped', 204);
      answer('PATCH', '/api/v2/order/1042/shipped/9001', 204);
      await client().markShipped(1042, { trackingNumber: '1Z999' });
      await client().markShipped(1042, { itemId: 9001 });
      expect(seen[0]!.body).toBe('{"tracking_number":"1Z999"}');
      expect(seen[0]!.headers['content-type']).toBe('application/json');
      expect(seen[1]!.body).toBeUndefined();
    });

    it('setStatus sends only the known status fields, to the item path when itemId is given', async () => {
      answer('PATCH', '/api/v2/order/1042/status/9001', 204);
      const body = {
        order_status: 'in production',
        comments: 'line 1\nline 2',
        notify_customer: true,
        extra: 1,
      };
      await client().setStatus(1042, body, { itemId: 9001 });
      expect(JSON.parse(seen[0]!.body!)).toEqual({
        order_status: 'in production',
        comments: 'line 1\nline 2',
        notify_customer: true,
      });
    });

    it('createOrder sends product_id and external_id and returns the new order id', async () => {
      answer('POST', '/api/v2/pipo/order/create', 200, 77);
      await expect(client().pipo.createOrder(SESSION, [101, 102], 'PO-1')).resolves.toBe(77);
      expect(JSON.parse(seen[0]!.body!)).toEqual({ product_id: [101, 102], external_id: 'PO-1' });
    });

    it('report puts the query in the URL and types sales records', async () => {
      const record = {
        storefront: 'Demo',
        user_count: 3,
        order_count: 5,
        order_average: 12.5,
        order_total: 62.5,
      };
      answer('GET', '/api/v2/report/sales?storefrontId=0&fromDate=2025-01-01&toDate=2025-01-31', 200, [
        record,
      ]);
      const records = await client().report('sales', {
        storefrontId: 0,
        fromDate: '2025-01-01',
        toDate: '2025-01-31',
      });
      expect(records).toEqual([record]);
    });
  });

  describe('answers', () => {
    it('getOrder returns the order and lets unknown extra fields pass', async () => {
      answer('GET', '/api/v2/order/1042', 200, { ...sampleOrder, loyalty_points: 12 });
      const order = await client().getOrder(1042);
      expect(order.id).toBe(1042);
      expect(order.items[0]!.quantity).toBe(250);
      expect((order as Record<string, unknown>).loyalty_points).toBe(12);
    });

    it('a wrong type is invalid_response naming the field path, and is not retried', async () => {
      const bad = { ...sampleOrder, items: [{ ...sampleOrder.items[0]!, quantity: '250' }] };
      answer('GET', '/api/v2/order/1042', 200, bad);
      const error = await rejection(client().getOrder(1042));
      expect(error.code).toBe('invalid_response');
      expect(error.fieldPath).toBe('items[0].quantity');
      expect(error.status).toBeUndefined();
      expect(error.message).toBe(
        'GET /api/v2/order/1042: invalid response: items[0].quantity: Invalid input: expected number, received string',
      );
      expect(seen).toHaveLength(1);
    });

    it('a missing field is invalid_response naming it', async () => {
      const { customer: _, ...withoutCustomer } = sampleOrder;
      answer('GET', '/api/v2/order/1042', 200, withoutCustomer);
      const error = await rejection(client().getOrder(1042));
      expect([error.code, error.fieldPath]).toEqual(['invalid_response', 'customer']);
    });

    it('malformed JSON is invalid_response', async () => {
      answer('GET', '/api/v2/order/1042', 200, '{"id": 1042,', JSON_HEADERS);
      const error = await rejection(client().getOrder(1042));
      expect(error.code).toBe('invalid_response');
      expect(error.message).toBe('GET /api/v2/order/1042: invalid response: body is not JSON (malformed)');
    });

    it('an empty body where JSON is due is invalid_response', async () => {
      answer('POST', '/api/v2/pipo/user/login', 200, '');
      const error = await rejection(
        client().pipo.login({ username: 'ada', password: 'pw', storefront_id: 1 }),
      );
      expect(error.message).toBe('POST /api/v2/pipo/user/login: invalid response: body is not JSON (empty)');
    });

    it('a file comes back as a stream with the RFC 5987 filename, content type and length', async () => {
      const bytes = Buffer.from('PK\u0003\u0004zip-bytes');
      pool.intercept({ method: 'GET', path: '/api/v2/order/1042/download' }).reply(200, bytes, {
        headers: {
          'content-type': 'application/zip',
          'content-length': String(bytes.length),
          'content-disposition': `attachment; filename="fallback.zip"; filename*=UTF-8''order-1042-%C3%BC.zip`,
        },
      });
      const file = await client().downloadOrder(1042);
      expect([file.filename, file.contentType, file.contentLength]).toEqual([
        'order-1042-ü.zip',
        'application/zip',
        bytes.length,
      ]);
      expect(Buffer.from(await new Response(file.body).arrayBuffer())).toEqual(bytes);
    });

    it('a file without Content-Disposition gets the documented name', async () => {
      pool
        .intercept({ method: 'GET', path: '/api/v2/order/1042/assets/9001' })
        .reply(200, 'zip', { headers: { 'content-type': 'application/zip' } });
      const file = await client().downloadItemAssets(1042, 9001);
      expect(file.filename).toBe('item-assets-9001.zip');
      expect(file.contentLength).toBeUndefined();
      await file.body.cancel();
    });
  });

  describe('error mapping', () => {
    it.each([
      [401, { Message: 'Invalid key or token.' }, 'unauthorized', 'Invalid key or token.'],
      [
        401,
        { Message: "License doesn't allow this api call." },
        'unauthorized',
        "License doesn't allow this api call.",
      ],
      [403, '', 'forbidden', undefined],
      [404, { Message: 'Order not the service.' }, 'not_found', 'Order not the service.'],
      [404, 'Order not the service.', 'not_found', 'Order not the service.'],
      [400, { Message: 'Bad Request' }, 'bad_request', 'Bad Request'],
      [422, '', 'bad_request', undefined],
      [
        413,
        '<html><body>Request Entity Too Large</body></html>',
        'too_large',
        '<html><body>Request Entity Too Large</body></html>',
      ],
      [409, { Message: 'Target url already exists.' }, 'conflict', 'Target url already exists.'],
      [408, '', 'timeout', undefined],
    ] as const)('%i %j is %s', async (status, body, code, serviceMessage) => {
      answer('GET', '/api/v2/hooks', status, body);
      if (code === 'timeout') answer('GET', '/api/v2/hooks', status, body).times(2);
      const error = await rejection(client().listHooks());
      expect([error.code, error.status, error.serviceMessage]).toEqual([code, status, serviceMessage]);
      expect(error.message).toBe(
        `GET /api/v2/hooks: ${status}${serviceMessage === undefined ? '' : ` ${serviceMessage}`}`,
      );
    });

    it('409 with Retry-After on a download is files_not_ready with the wait, and is not retried', async () => {
      answer(
        'GET',
        '/api/v2/order/1042/download',
        409,
        { Message: 'All items have not completed merge process.' },
        {
          'retry-after': '60',
        },
      );
      const error = await rejection(client().downloadOrder(1042));
      expect([error.code, error.status, error.retryAfterSeconds, error.serviceMessage]).toEqual([
        'files_not_ready',
        409,
        60,
        'All items have not completed merge process.',
      ]);
      expect(error.message).toBe(
        'GET /api/v2/order/1042/download: 409 All items have not completed merge process. (retry after 60 s)',
      );
      expect(seen).toHaveLength(1);
    });

    it('Retry-After as an HTTP-date is read against the client clock', async () => {
      answer(
        'GET',
        '/api/v2/order/1042/download/9001',
        409,
        { Message: 'Item has not completed merge process.' },
        {
          'retry-after': new Date(clock + 30_000).toUTCString(),
        },
      );
      const error = await rejection(client().downloadItem(1042, 9001));
      expect([error.code, error.retryAfterSeconds]).toEqual(['files_not_ready', 30]);
    });

    it('a service message that echoes a secret is redacted', async () => {
      answer('GET', '/api/v2/pipo/user/info', 403, { Message: `token ${SESSION} is invalid or expired` });
      const error = await rejection(client().pipo.getUser(SESSION));
      expect(error.serviceMessage).toBe('token [redacted] is invalid or expired');
    });

    it('isLoggedIn is false when the service refuses the session token with 403', async () => {
      answer('GET', '/api/v2/pipo/user/loggedin', 403, '');
      await expect(client().pipo.isLoggedIn(SESSION)).resolves.toBe(false);
    });
  });

  describe('retries and timeouts', () => {
    it('5xx then success: a safe call is retried after a jittered backoff', async () => {
      answer('GET', '/api/v2/order/1042', 500, 'Internal Server Error');
      answer('GET', '/api/v2/order/1042', 502, '');
      answer('GET', '/api/v2/order/1042', 200, sampleOrder);
      const order = await client().getOrder(1042);
      expect(order.id).toBe(1042);
      expect(seen).toHaveLength(3);
      // random() = 0 gives the lower half of each step: 200/2, then 400/2.
      expect(sleeps).toEqual([100, 200]);
    });

    it('jitter spreads the wait within the upper half of the step', async () => {
      answer('GET', '/api/v2/ping', 503, '');
      answer('GET', '/api/v2/ping', 204);
      await client({ random: () => 0.999 }).ping();
      expect(sleeps).toEqual([200]);
    });

    it('503 with Retry-After waits as asked', async () => {
      answer('GET', '/api/v2/ping', 503, '', { 'retry-after': '3' });
      answer('GET', '/api/v2/ping', 204);
      await client().ping();
      expect(sleeps).toEqual([3000]);
    });

    it('a Retry-After beyond the deadline fails at once with unavailable', async () => {
      answer('GET', '/api/v2/ping', 503, 'Service Unavailable', { 'retry-after': '3600' });
      const error = await rejection(client().ping());
      expect([error.code, error.status, error.retryAfterSeconds]).toEqual(['unavailable', 503, 3600]);
      expect(sleeps).toEqual([]);
    });

    it('retries are bounded: 1 + retries attempts, then the last failure', async () => {
      answer('GET', '/api/v2/ping', 503, '').times(3);
      const error = await rejection(client().ping());
      expect([error.code, error.status, error.serviceMessage]).toEqual(['unavailable', 503, undefined]);
      expect(sleeps).toEqual([100, 200]);
    });

    it('retries: 0 sends once', async () => {
      answer('GET', '/api/v2/ping', 500, '');
      const error = await rejection(client({ retries: 0 }).ping());
      expect(error.code).toBe('unavailable');
      expect(sleeps).toEqual([]);
    });

    it('429 is unavailable and retried', async () => {
      answer('GET', '/api/v2/customer/501', 429, '', { 'retry-after': '1' });
      answer('GET', '/api/v2/customer/501', 404, { Message: 'not here' });
      const error = await rejection(client().getCustomer(501));
      expect([error.code, sleeps]).toEqual(['not_found', [1000]]);
    });

    it('a connection reset is unavailable and retried, then succeeds', async () => {
      failWith('GET', '/api/v2/ping', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
      answer('GET', '/api/v2/ping', 204);
      await expect(client().ping()).resolves.toBeUndefined();
      expect(sleeps).toEqual([100]);
    });

    it('connection resets on every attempt give unavailable without a status', async () => {
      failWith('GET', '/api/v2/ping', new errors.SocketError('other side closed')).times(3);
      const error = await rejection(client().ping());
      expect([error.code, error.status]).toEqual(['unavailable', undefined]);
      expect(error.message).toMatch(/^GET \/api\/v2\/ping: no answer \(.*other side closed/);
    });

    it('no answer within timeoutMs is timeout', async () => {
      answer('GET', '/api/v2/ping', 204).delay(2_000);
      const error = await rejection(client({ timeoutMs: 50 }).ping());
      expect([error.code, error.status]).toEqual(['timeout', undefined]);
      expect(error.message).toBe('GET /api/v2/ping: no answer within 50 ms');
    });

    it("a transport timeout (undici's headers timeout) is timeout and retried for safe calls", async () => {
      failWith('GET', '/api/v2/ping', new errors.HeadersTimeoutError());
      answer('GET', '/api/v2/ping', 204);
      await client().ping();
      failWith('GET', '/api/v2/ping', new errors.ConnectTimeoutError()).times(3);
      const error = await rejection(client().ping());
      expect(error.code).toBe('timeout');
    });

    it('login is retried after a 5xx but not after 401', async () => {
      answer('POST', '/api/v2/pipo/user/login', 503, '');
      answer('POST', '/api/v2/pipo/user/login', 200, SESSION);
      answer('POST', '/api/v2/pipo/user/login', 200, JSON.stringify(SESSION), JSON_HEADERS);
      const credentials = { username: 'ada', password: 'secret-pw', storefront_id: 1 };
      // The first 200 carries an unquoted token: not JSON, so invalid_response and no further attempt.
      const bad = await rejection(client().pipo.login(credentials));
      expect(bad.code).toBe('invalid_response');
      await expect(client().pipo.login(credentials)).resolves.toBe(SESSION);
      answer('POST', '/api/v2/pipo/user/login', 401, '');
      const refused = await rejection(client().pipo.login(credentials));
      expect([refused.code, refused.status]).toEqual(['unauthorized', 401]);
      expect(seen.filter((r) => r.path === '/api/v2/pipo/user/login')).toHaveLength(4);
    });

    type Call = [string, string, string, (api: PrintApi) => Promise<unknown>];
    const neverRetried: Call[] = [
      ['createOrder', 'POST', '/api/v2/pipo/order/create', (api) => api.pipo.createOrder(SESSION, [101])],
      [
        'createUser',
        'POST',
        '/api/v2/pipo/user/create',
        (api) =>
          api.pipo.createUser({
            storefront_id: 1,
            username: 'ada',
            password: 'pw',
            email: 'ada@acme.example',
            first_name: 'Ada',
            last_name: 'Lovelace',
          }),
      ],
      ['createTempUser', 'POST', '/api/v2/pipo/user/createtemp', (api) => api.pipo.createTempUser(1)],
      [
        'createHook',
        'POST',
        '/api/v2/hooks',
        (api) => api.createHook('https://gw.example/events/x', 'order_updated'),
      ],
      [
        'convertUser',
        'POST',
        '/api/v2/pipo/user/convert',
        (api) =>
          api.pipo.convertUser(SESSION, {
            username: 'ada',
            password: 'pw',
            email: 'ada@acme.example',
            first_name: 'Ada',
            last_name: 'Lovelace',
          }),
      ],
      [
        'transferUser',
        'POST',
        '/api/v2/pipo/user/transfer',
        (api) => api.pipo.transferUser(SESSION, { username: 'ada', password: 'pw' }),
      ],
      [
        'updateUser',
        'POST',
        '/api/v2/pipo/user/info',
        (api) => api.pipo.updateUser(SESSION, { first_name: 'A' }),
      ],
      ['markShipped', 'PATCH', '/api/v2/order/1042/shipped', (api) => api.markShipped(1042)],
      [
        'setStatus',
        'PATCH',
        '/api/v2/order/1042/status',
        (api) => api.setStatus(1042, { order_status: 'Shipped' }),
      ],
      ['processOrder', 'GET', '/api/v2/pipo/order/77/process', (api) => api.pipo.processOrder(SESSION, 77)],
      ['logout', 'GET', '/api/v2/pipo/user/logout', (api) => api.pipo.logout(SESSION)],
      ['deleteHook', 'DELETE', '/api/v2/hooks/5', (api) => api.deleteHook(5)],
      ['deleteProject', 'DELETE', '/api/v2/pipo/project/301', (api) => api.pipo.deleteProject(SESSION, 301)],
    ];

    it.each(neverRetried)('%s is sent once after a 503', async (_call, method, path, run) => {
      answer(method, path, 503, '');
      const error = await rejection(run(client()));
      expect([error.code, error.status]).toEqual(['unavailable', 503]);
      expect(seen).toHaveLength(1);
      expect(sleeps).toEqual([]);
    });

    it.each(neverRetried)('%s is sent once after a connection reset', async (_call, method, path, run) => {
      failWith(method, path, Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
      const error = await rejection(run(client()));
      expect([error.code, error.status]).toEqual(['unavailable', undefined]);
      expect(sleeps).toEqual([]);
    });
  });

  describe('waitForFiles', () => {
    const notReady = { Message: 'All items have not completed merge process.' };

    it('polls as Retry-After says and returns the file once merged', async () => {
      answer('GET', '/api/v2/order/1042/download', 409, notReady, { 'retry-after': '60' }).times(2);
      pool.intercept({ method: 'GET', path: '/api/v2/order/1042/download' }).reply(200, 'PK', {
        headers: {
          'content-type': 'application/zip',
          'content-disposition': 'attachment; filename=order-1042.zip',
        },
      });
      const file = await client().waitForFiles(1042, { maxWaitMs: 300_000 });
      expect(file.filename).toBe('order-1042.zip');
      expect(await new Response(file.body).text()).toBe('PK');
      expect(sleeps).toEqual([60_000, 60_000]);
    });

    it('gives up with files_not_ready after maxWaitMs, trying once more at the end of the budget', async () => {
      answer(
        'GET',
        '/api/v2/order/1042/download/9001',
        409,
        { Message: 'Item has not completed merge process.' },
        {
          'retry-after': '30',
        },
      ).times(3);
      const error = await rejection(client().waitForFiles(1042, { itemId: 9001, maxWaitMs: 45_000 }));
      expect([error.code, error.status, error.retryAfterSeconds]).toEqual(['files_not_ready', 409, 30]);
      expect(error.message).toBe(
        'waitForFiles: files of item 9001 of order 1042 still not ready after 3 polls over 45 s',
      );
      expect(sleeps).toEqual([30_000, 15_000]);
    });

    it('Retry-After: 0 still leaves a second between polls', async () => {
      answer('GET', '/api/v2/order/1042/download', 409, notReady, { 'retry-after': '0' }).times(2);
      pool.intercept({ method: 'GET', path: '/api/v2/order/1042/download' }).reply(200, 'PK');
      const file = await client().waitForFiles(1042, { maxWaitMs: 60_000 });
      await file.body.cancel();
      expect(sleeps).toEqual([1_000, 1_000]);
    });

    it('other failures end the wait at once', async () => {
      answer('GET', '/api/v2/order/1042/download', 404, { Message: 'Order not the service.' });
      const error = await rejection(client().waitForFiles(1042, { maxWaitMs: 300_000 }));
      expect([error.code, sleeps]).toEqual(['not_found', []]);
    });
  });
});

describe('misuse throws TypeError before any request', () => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const api = createPrintApi({
    baseUrl: ORIGIN,
    token: TOKEN,
    key: KEY,
    fetch: createNodeFetch({ dispatcher: agent }),
  });

  it.each([
    ['getOrder(1.5)', () => api.getOrder(1.5)],
    ['getOrder(0)', () => api.getOrder(0)],
    ['getOrder("12")', () => api.getOrder('12' as unknown as number)],
    ['downloadItem(1, NaN)', () => api.downloadItem(1, Number.NaN)],
    ['setStatus without order_status', () => api.setStatus(1, {} as never)],
    ['markShipped with a numeric tracking number', () => api.markShipped(1, { trackingNumber: 1 as never })],
    ['createHook with a relative URL', () => api.createHook('/events', 'order_updated')],
    ['report of an unknown type', () => api.report('bogus' as never)],
    ['report with viewBy on sales', () => api.report('sales', { viewBy: 'month' } as never)],
    ['report with a bad date', () => api.report('order', { fromDate: '01/02/2025' })],
    ['getUser with an empty session token', () => api.pipo.getUser('')],
    ['getUser with a header-splitting token', () => api.pipo.getUser('abc\r\nx-evil: 1')],
    ['createOrder with no product ids', () => api.pipo.createOrder(SESSION, [])],
    ['createOrder with a fractional product id', () => api.pipo.createOrder(SESSION, [1.5])],
    ['createTempUser("1")', () => api.pipo.createTempUser('1' as never)],
    ['login without a password', () => api.pipo.login({ username: 'a', storefront_id: 1 } as never)],
    ['waitForFiles with a negative budget', () => api.waitForFiles(1, { maxWaitMs: -1 })],
  ])('%s', (_what, run) => {
    expect(run).toThrow(TypeError);
  });

  it('a session token never appears in the TypeError', () => {
    expect(() => api.pipo.getUser('abc\r\nx')).toThrow(
      'sessionToken must be a non-empty string of printable ASCII',
    );
  });

  it.each([
    ['a relative base URL', { baseUrl: '/api' }],
    ['an ftp base URL', { baseUrl: 'ftp://print.test' }],
    ['credentials in the base URL', { baseUrl: 'https://u:p@print.test' }],
    ['an empty token', { token: '' }],
    ['a token with a colon', { token: 'ab:cd' }],
    ['an empty key', { key: '' }],
    ['a zero timeout', { timeoutMs: 0 }],
    ['fractional retries', { retries: 1.5 }],
    ['a user agent with a line break', { userAgent: 'x\r\ny' }],
  ])('createPrintApi with %s', (_what, override) => {
    expect(() => createPrintApi({ baseUrl: ORIGIN, token: TOKEN, key: KEY, ...override })).toThrow(TypeError);
  });
});
