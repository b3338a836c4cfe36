import { describe, expect, it } from 'vitest';
import { drainEventInbox, EVENT_INTAKE } from '../../../src/gateway/orders/events.ts';
import { createOrderWorker } from '../../../src/gateway/orders/index.ts';
import {
  adminJson,
  adminRequest,
  createOrderStack,
  drain,
  linesOf,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { GATEWAY_ORIGIN } from '../../support/stack.ts';

const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'A valid admin bearer token is required.' } };

describe('admin API authentication', () => {
  it.each([
    ['no Authorization header', ''],
    ['a wrong token', 'not-the-admin-token'],
    ['the token with a suffix', 'test-admin-token-0123456789abcdef-x'],
  ])('401 with %s', async (_case, token) => {
    const stack = await createOrderStack();
    for (const [method, path] of [
      ['GET', '/admin/orders'],
      ['GET', '/admin/outbox'],
      ['GET', '/admin/dead-letters'],
      ['POST', '/admin/orders/1/retry'],
      ['POST', '/admin/outbox/1/retry'],
      ['GET', '/admin/nothing-here'],
    ] as const) {
      const res = await adminRequest(stack, path, { method }, token);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer realm="punchgate admin"');
      expect(await res.json()).toEqual(UNAUTHORIZED);
    }
  });

  it('401 for another scheme carrying the right token', async () => {
    const stack = await createOrderStack();
    const res = await stack.gateway.app.fetch(
      new Request(`${GATEWAY_ORIGIN}/admin/orders`, {
        headers: { Authorization: `Basic ${btoa('admin:test-admin-token-0123456789abcdef')}` },
      }),
    );
    expect(res.status).toBe(401);
  });
});

describe('admin API', () => {
  it('lists POs with their print orders and state, filters, pages, and answers JSON errors', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { payloadID: 'a1@ariba.example', orderID: 'PO-A1', lines: linesOf(cart) });
    await drain(stack);
    const second = await punchOut(stack, ['A5 flyer']);
    await sendOrder(stack, { payloadID: 'a2@ariba.example', orderID: 'PO-A2', lines: linesOf(second) });
    const [printOrderId] = await printOrdersFor(stack, 'PO-A1');

    const all = await adminJson(stack, '/admin/orders');
    expect(all.status).toBe(200);
    expect(all.body.items.map((o: { orderId: string; state: string }) => [o.orderId, o.state])).toEqual([
      ['PO-A2', 'received'],
      ['PO-A1', 'ordered'],
    ]);
    expect(all.body.items[1].printOrders).toMatchObject([
      { storefrontId: 'demo', printOrderId, state: 'open', lastStatus: 'New Order', confirmed: true },
    ]);
    const ordered = await adminJson(stack, '/admin/orders?state=ordered&buyer=acme');
    expect(ordered.body.items.map((o: { orderId: string }) => o.orderId)).toEqual(['PO-A1']);
    const page = await adminJson(stack, '/admin/orders?limit=1');
    expect(page.body.items).toHaveLength(1);
    const next = await adminJson(stack, `/admin/orders?limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.items.map((o: { orderId: string }) => o.orderId)).toEqual(['PO-A1']);

    const one = await adminJson(stack, `/admin/orders/${all.body.items[1].id}`);
    expect(one.body).toMatchObject({
      orderId: 'PO-A1',
      payloadId: 'a1@ariba.example',
      type: 'new',
      answer: { code: 200, text: 'OK' },
      request: { orderDate: '2026-11-22T08:30:00-05:00', total: { value: '100.00', currency: 'USD' } },
      lines: [{ lineNumber: 1, lineRef: cart[0]?.lineRef, designId: cart[0]?.designId, userRef: 'jroe' }],
    });
    expect(one.body.timeline.map((e: { event: string }) => e.event)).toEqual([
      'received',
      'print_order_created',
      'confirmation_queued',
      'confirmation_delivered',
    ]);
    expect(one.body.raw).toContain('<OrderRequest>');

    expect(await adminJson(stack, '/admin/orders/999')).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No purchase order record 999.' } },
    });
    expect(await adminJson(stack, '/admin/orders?state=lost')).toEqual({
      status: 400,
      body: {
        error: {
          code: 'bad_request',
          message: 'state must be one of received, processing, ordered, failed, cancelled, needs_operator.',
        },
      },
    });
    expect((await adminJson(stack, '/admin/nothing-here')).status).toBe(404);
    const outbox = await adminJson(stack, '/admin/outbox?state=delivered');
    expect(outbox.body.items).toMatchObject([{ kind: 'confirmation', state: 'delivered', attempts: 1 }]);
    expect(outbox.body.items[0].body).toBeUndefined();
    const jobs = await adminJson(stack, '/admin/jobs?kind=process_order');
    expect(jobs.body.items.map((j: { state: string }) => j.state)).toEqual(['pending', 'done']);
  });
});

describe('webhooks in', () => {
  it('registers one hook per order event at start, keeps it on the next start, replaces one that no longer verifies', async () => {
    const stack = await createOrderStack();
    const first = await stack.worker.startup();
    expect(first.map((r) => r.outcome)).toEqual(['created', 'created']);
    const hooks = await stack.api.listHooks();
    expect(hooks.map((h) => h.event).sort()).toEqual(['order_deleted', 'order_updated']);
    for (const hook of hooks) expect(hook.target_url.startsWith(`${GATEWAY_ORIGIN}/events/`)).toBe(true);

    const again = await stack.worker.startup();
    expect(again.map((r) => [r.outcome, r.hookId])).toEqual(hooks.map((h) => ['existing', h.id]));
    expect(await stack.api.listHooks()).toEqual(hooks);

    // A hook of ours whose token no longer verifies (another signing key) is replaced.
    const stale = hooks.find((h) => h.event === 'order_updated');
    await stack.api.deleteHook(stale?.id ?? 0);
    await stack.api.createHook(`${GATEWAY_ORIGIN}/events/not-a-token`, 'order_updated');
    const third = await stack.worker.startup();
    expect(third.map((r) => r.outcome)).toEqual(['created', 'existing']);
    const now = await stack.api.listHooks();
    expect(now.map((h) => h.target_url)).not.toContain(`${GATEWAY_ORIGIN}/events/not-a-token`);
    expect(now).toHaveLength(2);
  });

  it('instances starting together register each hook once (one URL per storefront and event)', async () => {
    const stack = await createOrderStack();
    const other = createOrderWorker(stack.gateway.context);
    const [a, b] = await Promise.all([stack.worker.startup(), other.startup()]);
    expect([...a, ...b].map((r) => r.outcome).sort()).toEqual(['conflict', 'conflict', 'created', 'created']);
    expect(await stack.api.listHooks()).toHaveLength(2);
  });

  it('a delivery is checked by its token, stored and answered 202; nothing else is accepted', async () => {
    const stack = await createOrderStack();
    await stack.worker.startup();
    const url = (await stack.api.listHooks()).find((h) => h.event === 'order_updated')?.target_url ?? '';
    const post = (target: string, body: string) =>
      stack.gateway.app.fetch(
        new Request(target, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } }),
      );

    // A print order the gateway tracks: its id is kept, nothing else of the delivery.
    await stack.store.printOrders.add({ storefrontId: 'demo', printOrderId: 1004, poId: 'po-x' });
    const ok = await post(url, JSON.stringify([{ id: 1004, status: 'Order Shipped' }]));
    expect(ok.status).toBe(202);
    const stored = await stack.store.events.listUnprocessed();
    expect(stored).toMatchObject([{ storefrontId: 'demo', event: 'order_updated', body: [{ id: 1004 }] }]);
    expect(stored[0]?.body).toEqual([{ id: 1004 }]);
    // Any other order: answered 202 (the service needs no retry) and nothing is stored.
    const other = await post(url, JSON.stringify([{ id: 777, status: 'Order Shipped' }]));
    expect([other.status, await other.json()]).toEqual([202, { received: null }]);

    const forged = await post(`${GATEWAY_ORIGIN}/events/eyJhbGciOiJIUzI1NiJ9.e30.x`, '[{"id":1}]');
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({
      error: { code: 'token_invalid', message: 'This link is not valid.' },
    });
    const notJson = await post(url, 'order 1004 changed');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({
      error: { code: 'bad_request', message: 'The delivery is not JSON.' },
    });
    const notOrder = await post(url, '{"id": 1004}');
    expect(await notOrder.json()).toEqual({
      error: { code: 'bad_request', message: 'The delivery is not a one-element array holding an order.' },
    });
    expect(await stack.store.events.listUnprocessed()).toHaveLength(1);

    const tooLarge = await post(url, JSON.stringify([{ id: 1004, notes: 'x'.repeat(256 * 1024) }]));
    expect([tooLarge.status, await tooLarge.json()]).toEqual([
      413,
      {
        error: {
          code: 'payload_too_large',
          message: 'The request body is larger than 256 KB; nothing was done with it.',
        },
      },
    ]);
  });

  it('deliveries about one order fold into one sync job', async () => {
    const stack = await createOrderStack();
    await stack.worker.startup();
    const url = (await stack.api.listHooks()).find((h) => h.event === 'order_updated')?.target_url ?? '';
    await stack.store.printOrders.add({ storefrontId: 'demo', printOrderId: 1004, poId: 'po-x' });
    for (let i = 0; i < 50; i++) {
      const answer = await stack.gateway.app.fetch(
        new Request(url, {
          method: 'POST',
          body: '[{"id":1004}]',
          headers: { 'Content-Type': 'application/json' },
        }),
      );
      expect(answer.status).toBe(202);
    }
    expect(await stack.store.events.listUnprocessed({ limit: 500 })).toHaveLength(50);
    await drainEventInbox(stack.gateway.context);
    expect(await stack.store.events.listUnprocessed()).toEqual([]);
    expect((await stack.store.jobs.list({ kind: 'sync_print_order' })).items).toHaveLength(1);
  });

  it('a purchase order waits for none of the order syncs webhooks queued', async () => {
    const stack = await createOrderStack();
    for (let id = 2001; id <= 2100; id++) {
      await stack.store.printOrders.add({ storefrontId: 'demo', printOrderId: id, poId: 'po-x' });
      await stack.store.jobs.enqueue({
        kind: 'sync_print_order',
        key: `sync:demo:${id}`,
        payload: { storefrontId: 'demo', printOrderId: id, event: 'order_updated' },
        runAt: new Date(stack.clock.now().getTime() - 60_000),
      });
    }
    const answer = await sendOrder(stack, {
      orderID: 'PO-FIRST',
      lines: linesOf(await punchOut(stack, ['Business cards'])),
    });
    expect(answer.code).toBe(200);
    await createOrderWorker(stack.gateway.context, { maxJobsPerTick: 1 }).tick();
    expect(await printOrdersFor(stack, 'PO-FIRST')).toHaveLength(1);
    expect(
      (await stack.store.jobs.list({ kind: 'sync_print_order', state: 'pending', limit: 500 })).items.length,
    ).toBeGreaterThan(90);
  });

  it('a flood is answered 429 with Retry-After past the burst, and intake resumes as the bucket refills', async () => {
    const stack = await createOrderStack();
    await stack.worker.startup();
    const url = (await stack.api.listHooks()).find((h) => h.event === 'order_updated')?.target_url ?? '';
    const deliver = () =>
      stack.gateway.app.fetch(
        new Request(url, {
          method: 'POST',
          body: '[{"id":5}]',
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    const statuses: number[] = [];
    for (let i = 0; i < EVENT_INTAKE.burst + 5; i++) statuses.push((await deliver()).status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(EVENT_INTAKE.burst);
    const refused = await deliver();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      error: {
        code: 'throttled',
        message: 'Too many deliveries at once; the gateway polls the orders and will catch up.',
      },
    });
    stack.clock.advance(1);
    const again = await Promise.all(Array.from({ length: EVENT_INTAKE.perSecond + 1 }, deliver));
    expect(again.map((r) => r.status).filter((s) => s === 202)).toHaveLength(EVENT_INTAKE.perSecond);
  });
});
