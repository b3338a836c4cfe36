import { describe, expect, it } from 'vitest';
import { createMetrics, printApiEndpoint } from '../../../src/gateway/http/metrics.ts';
import { createTestStore } from '../../support/test-store.ts';
import { StoreError } from '../../../src/store/store-error.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { clickButton, designProduct, startUrlOf } from '../../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, GATEWAY_TOKEN, START, testConfig } from '../../support/stack.ts';

describe('GET /metrics', () => {
  it('counts cXML answers by kind and Status, sessions and returned carts, in Prometheus text', async () => {
    const stack = await createStack();
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    await stack.postCxml(setupRequest({ secret: 'wrong' }));
    await stack.postCxml('<html/>');
    const cart = await designProduct(stack, catalog, 'Business cards');
    await clickButton(stack, cart, 'Transfer cart to procurement system');

    const res = await stack.request(`${GATEWAY_ORIGIN}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE punchgate_cxml_requests_total counter');
    expect(text).toContain('punchgate_cxml_requests_total{kind="PunchOutSetupRequest",status="200"} 1');
    expect(text).toContain('punchgate_cxml_requests_total{kind="PunchOutSetupRequest",status="401"} 1');
    expect(text).toContain('punchgate_cxml_requests_total{kind="not_cxml",status="406"} 1');
    expect(text).toContain(
      'punchgate_sessions_opened_total{protocol="cxml",operation="create",mode="production"} 1',
    );
    expect(text).toContain('punchgate_carts_returned_total{protocol="cxml",outcome="transferred"} 1');
    expect(text).not.toContain('acme-secret');
  });
});

/** The sample lines of one metric family (no HELP/TYPE), in the order rendered. */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

async function scrape(stack: { request(url: string): Promise<Response> }): Promise<string> {
  const res = await stack.request(`${GATEWAY_ORIGIN}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('GET /metrics: the order flow, read from the store at scrape time', () => {
  it('POs, jobs and outbox by state, the oldest unordered PO, print-service calls with latency', async () => {
    let tick = 0;
    // Every print-service call "takes" 0.2 s on this fake monotonic clock.
    const metrics = createMetrics({ now: () => (tick += 100) });
    const stack = await createOrderStack(orderConfig(), {
      gatewayDeps: { metrics },
      wrapPrintFetch: (fetch) => metrics.instrumentFetch(fetch, 'demo'),
    });
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-METRICS', lines: linesOf(cart) })).toMatchObject({
      code: 200,
    });
    stack.clock.advance(90);

    let text = await scrape(stack);
    expect(samples(text, 'punchgate_store_up')).toEqual(['punchgate_store_up 1']);
    expect(samples(text, 'punchgate_purchase_orders')).toEqual([
      'punchgate_purchase_orders{state="received"} 1',
      'punchgate_purchase_orders{state="processing"} 0',
      'punchgate_purchase_orders{state="ordered"} 0',
      'punchgate_purchase_orders{state="failed"} 0',
      'punchgate_purchase_orders{state="cancelled"} 0',
      'punchgate_purchase_orders{state="needs_operator"} 0',
    ]);
    expect(samples(text, 'punchgate_oldest_unordered_purchase_order_age_seconds')).toEqual([
      'punchgate_oldest_unordered_purchase_order_age_seconds 90',
    ]);
    expect(samples(text, 'punchgate_jobs')).toEqual([
      'punchgate_jobs{state="pending"} 1',
      'punchgate_jobs{state="running"} 0',
      'punchgate_jobs{state="done"} 0',
      'punchgate_jobs{state="dead"} 0',
    ]);
    expect(samples(text, 'punchgate_outbox_messages')).toEqual([
      'punchgate_outbox_messages{state="pending"} 0',
      'punchgate_outbox_messages{state="sending"} 0',
      'punchgate_outbox_messages{state="dead"} 0',
    ]);

    await drain(stack);
    text = await scrape(stack);
    expect(samples(text, 'punchgate_purchase_orders')).toContain(
      'punchgate_purchase_orders{state="ordered"} 1',
    );
    expect(samples(text, 'punchgate_purchase_orders')).toContain(
      'punchgate_purchase_orders{state="received"} 0',
    );
    expect(samples(text, 'punchgate_oldest_unordered_purchase_order_age_seconds')).toEqual([
      'punchgate_oldest_unordered_purchase_order_age_seconds 0',
    ]);
    expect(samples(text, 'punchgate_outbox_oldest_pending_age_seconds')).toEqual([
      'punchgate_outbox_oldest_pending_age_seconds 0',
    ]);

    // The print order was created once through PIPO; each call took 0.1 s on the fake clock.
    expect(text).toContain(
      'punchgate_print_api_requests_total{storefront="demo",endpoint="/api/v2/pipo/order/create",method="POST",outcome="2xx"} 1',
    );
    const created = '{storefront="demo",endpoint="/api/v2/pipo/order/create",method="POST"';
    const latency = 'punchgate_print_api_request_duration_seconds';
    expect(text).toContain(`${latency}_bucket${created},le="0.05"} 0`);
    expect(text).toContain(`${latency}_bucket${created},le="0.1"} 1`);
    expect(text).toContain(`${latency}_bucket${created},le="+Inf"} 1`);
    expect(text).toContain(`${latency}_sum${created}} 0.1`);
    expect(text).toContain(`${latency}_count${created}} 1`);
    // Reads of one print order are one endpoint, whatever the order id.
    expect(text).toMatch(
      /punchgate_print_api_requests_total\{storefront="demo",endpoint="\/api\/v2\/order\/\{id\}",method="GET",outcome="2xx"\} \d+/,
    );
    expect(text).not.toMatch(/endpoint="[^"]*\/\d/);
    expect(text).not.toContain(GATEWAY_TOKEN);
  });

  it('print-service failures are counted by outcome: 4xx, 5xx, timeout, refused connection', async () => {
    const metrics = createMetrics({ now: () => 0 });
    const answers: (() => Promise<Response>)[] = [
      async () => new Response('{}', { status: 404 }),
      async () => new Response('{}', { status: 503 }),
      () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')),
      () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
    ];
    const send = metrics.instrumentFetch(
      (() => (answers.shift() ?? (() => Promise.reject(new Error('no more'))))()) as typeof fetch,
      'demo',
    );
    for (let i = 0; i < 4; i++)
      await send('https://print.example/shop/api/v2/order/4711/status', { method: 'PATCH' }).catch(() => {});
    const text = metrics.render();
    const labels = 'storefront="demo",endpoint="/api/v2/order/{id}/status",method="PATCH"';
    expect(samples(text, 'punchgate_print_api_requests_total')).toEqual([
      `punchgate_print_api_requests_total{${labels},outcome="4xx"} 1`,
      `punchgate_print_api_requests_total{${labels},outcome="5xx"} 1`,
      `punchgate_print_api_requests_total{${labels},outcome="timeout"} 1`,
      `punchgate_print_api_requests_total{${labels},outcome="error"} 1`,
    ]);
  });

  it('counts the print-service failures of the last hour (5xx, timeout, no answer; not 4xx) for the overview', async () => {
    let ms = 0;
    const metrics = createMetrics({ now: () => ms });
    const status = { value: 503 };
    const send = metrics.instrumentFetch(
      (async () => new Response('{}', { status: status.value })) as typeof fetch,
      'demo',
    );
    const call = () => send('https://print.example/api/v2/ping');
    await call();
    status.value = 404;
    await call();
    status.value = 200;
    await call();
    expect(metrics.printApiFailuresLastHour()).toBe(1);
    ms = 30 * 60_000;
    status.value = 502;
    await call();
    await call();
    expect(metrics.printApiFailuresLastHour()).toBe(3);
    ms = 60 * 60_000;
    expect(metrics.printApiFailuresLastHour()).toBe(2);
    ms = 91 * 60_000;
    expect(metrics.printApiFailuresLastHour()).toBe(0);
  });

  it.each([
    ['https://p.example/api/v2/order/12/download', '/api/v2/order/{id}/download'],
    ['https://p.example/api/v2/product/7/renderings/9', '/api/v2/product/{id}/renderings/{id}'],
    ['https://p.example/api/v2/report/order_details?from=2026-01-01', '/api/v2/report/order_details'],
    ['https://p.example/api/v2/pipo/user/login', '/api/v2/pipo/user/login'],
    ['https://p.example/api/v2/session/Zx8kP2qLw9mN4vB7', '/api/v2/session/{token}'],
    ['https://p.example/prefix/api/v2/ping', '/api/v2/ping'],
    ['not a url', '{unparsable}'],
  ])('endpoint label of %s is %s', (url, endpoint) => {
    expect(printApiEndpoint(url)).toBe(endpoint);
  });

  it('answers with the counters and punchgate_store_up 0 when the store does not answer', async () => {
    const store = createTestStore({ clock: { now: () => new Date(START) } });
    const down = () => Promise.reject(new StoreError('unavailable', 'connection refused'));
    const stack = await createStack(testConfig(), { store: { ...store, stats: down, ping: down } });
    await stack.postCxml(setupRequest());

    const text = await scrape(stack);
    expect(samples(text, 'punchgate_store_up')).toEqual(['punchgate_store_up 0']);
    expect(text).toContain('punchgate_cxml_requests_total{kind="PunchOutSetupRequest",status="200"} 1');
    expect(samples(text, 'punchgate_purchase_orders')).toEqual([]);
    expect(samples(text, 'punchgate_jobs')).toEqual([]);

    const ready = await stack.request(`${GATEWAY_ORIGIN}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('Retry-After')).toBe('30');
    expect(await ready.json()).toEqual({ status: 'unavailable', reasons: ['the store is not answering'] });
  });
});

describe('GET /readyz and the background round', () => {
  it('fails when no round completed within background.staleAfterSeconds, counted from the start', async () => {
    const metrics = createMetrics();
    const stack = await createStack(
      testConfig({ background: { intervalSeconds: 5, staleAfterSeconds: 60 } }),
      { gatewayDeps: { metrics } },
    );
    const readyz = async () => {
      const res = await stack.request(`${GATEWAY_ORIGIN}/readyz`);
      return { status: res.status, body: await res.json(), cache: res.headers.get('Cache-Control') };
    };

    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' }, cache: 'no-store' });
    let text = await scrape(stack);
    expect(samples(text, 'punchgate_background_round_last_completed_timestamp_seconds')).toEqual([]);
    expect(samples(text, 'punchgate_background_round_overdue')).toEqual([
      'punchgate_background_round_overdue 0',
    ]);

    stack.clock.advance(61);
    expect(await readyz()).toEqual({
      status: 503,
      cache: 'no-store',
      body: {
        status: 'unavailable',
        reasons: [
          'no background round has completed in the 61 s since the gateway started (background.staleAfterSeconds is 60)',
        ],
      },
    });
    expect(samples(await scrape(stack), 'punchgate_background_round_overdue')).toEqual([
      'punchgate_background_round_overdue 1',
    ]);

    metrics.backgroundRoundCompleted(stack.clock.now());
    expect((await readyz()).status).toBe(200);
    text = await scrape(stack);
    expect(samples(text, 'punchgate_background_round_last_completed_timestamp_seconds')).toEqual([
      `punchgate_background_round_last_completed_timestamp_seconds ${START / 1000 + 61}`,
    ]);
    expect(samples(text, 'punchgate_background_round_overdue')).toEqual([
      'punchgate_background_round_overdue 0',
    ]);

    stack.clock.advance(60);
    expect((await readyz()).status).toBe(200);
    stack.clock.advance(1);
    expect(await readyz()).toEqual({
      status: 503,
      cache: 'no-store',
      body: {
        status: 'unavailable',
        reasons: ['the last background round completed 61 s ago (background.staleAfterSeconds is 60)'],
      },
    });
  });
});
