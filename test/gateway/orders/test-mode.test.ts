/**
 * Test mode: test punch-outs open on the buyer's test storefront, test POs become print orders only there
 * (or, without a test storefront, are confirmed and never reach the print service), a PO orders only lines
 * of its own mode, test credentials open test mode only, and every document about a test PO says so.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import {
  adminJson,
  adminRequest,
  type CartLineOut,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  parseXml,
  punchOut,
  receivedDocuments,
  restartWorker,
  sendOrder,
} from '../../support/order-flow.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../../support/punchout-flow.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { faultInjector } from '../../support/fault-injector.ts';

const TEST_IDENTITY = 'AN01000000001-T';
const TEST_SECRET = 'acme-test-secret';

/** acme with a test storefront (sandbox storefront 2) and a test account; coupa with no test storefront. */
function testModeConfig(acmeTest: Record<string, unknown> = {}): GatewayConfigInput {
  const base = orderConfig();
  const demo = base.storefronts[0]!;
  return {
    ...base,
    storefronts: [
      ...base.storefronts,
      {
        ...demo,
        id: 'demo-test',
        storefrontId: 2,
        name: 'Demo Print Shop (test)',
        products: [
          {
            productId: 111,
            sku: 'CC-POSTER',
            name: 'Campus poster',
            uom: 'EA',
            prices: [{ minQuantity: 1, unitPrice: 4 }],
          },
        ],
      },
    ],
    buyers: base.buyers.map((b) =>
      b.id === 'acme'
        ? {
            ...b,
            test: {
              storefront: 'demo-test',
              credentials: [{ domain: 'NetworkID', identity: TEST_IDENTITY }],
              sharedSecret: TEST_SECRET,
              ...acmeTest,
            },
          }
        : b,
    ),
  };
}

const COUPA = { domain: 'DUNS', identity: 'COUPA-ACME', secret: 'coupa-secret' } as const;
const COUPA_SETUP = { ...COUPA, browserFormPost: 'https://acme.coupahost.example/punchout/return' };

/** The sandbox's storefronts by the name its orders carry: storefront 1 is production, 2 the test one. */
const SANDBOX_STOREFRONTS: Record<string, number> = { 'Demo Print Shop': 1, 'Campus Copy Center': 2 };

/** The print orders the sandbox holds for a PO number, each with the storefront the sandbox placed it on. */
async function printOrdersOf(
  stack: OrderStack,
  poNumber: string,
): Promise<{ id: number; storefront: number }[]> {
  const found: { id: number; storefront: number }[] = [];
  for (let id = 1001, missing = 0; missing < 30; id++) {
    try {
      const order = await stack.api.getOrder(id);
      missing = 0;
      if (order.integration_id === poNumber) {
        found.push({ id, storefront: SANDBOX_STOREFRONTS[order.storefront] ?? Number.NaN });
      }
    } catch {
      missing++;
    }
  }
  return found;
}

async function onlyOrder(stack: OrderStack) {
  const { body } = await adminJson(stack, '/admin/orders');
  expect(body.items).toHaveLength(1);
  return body.items[0];
}

function printServiceCalls(stack: OrderStack): number {
  return stack.upstreamCalls.length;
}

describe('test mode', () => {
  it('opens a test punch-out on the test storefront and sends its cart back as a test message', async () => {
    const stack = await createOrderStack(testModeConfig());
    const cartOf = async (mode: 'test' | 'production', product: string) => {
      const answer = await stack.postCxml(setupRequest({ deploymentMode: mode }));
      expect(statusOf(answer).code).toBe(200);
      const catalog = await stack.browse(startUrlOf(answer));
      const cart = await designProduct(stack, catalog, product);
      const transfer = await clickButton(stack, cart, 'Transfer cart to procurement system');
      return parseXml(cxmlFromForm(returnFormOf(transfer))).cXML.Message;
    };
    const test = await cartOf('test', 'Campus poster');
    expect(test['@deploymentMode']).toBe('test');
    const lineRef = test.PunchOutOrderMessage.ItemIn[0].ItemID.SupplierPartAuxiliaryID;
    const [line] = await stack.store.cart.getMany([lineRef]);
    expect([line?.storefrontId, line?.deploymentMode, line?.sku]).toEqual(['demo-test', 'test', 'CC-POSTER']);
    // A production punch-out of the same buyer and user stays on the production storefront.
    const production = await cartOf('production', 'Business cards');
    expect(production['@deploymentMode']).toBeUndefined();
  });

  it('places a test PO on the test storefront only, and says deploymentMode="test" in its confirmation', async () => {
    const stack = await createOrderStack(testModeConfig());
    const cart = await punchOut(stack, ['Campus poster'], { deploymentMode: 'test' });
    const status = await sendOrder(stack, {
      orderID: 'PO-TEST-1',
      lines: linesOf(cart),
      deploymentMode: 'test',
    });
    expect(status.code).toBe(200);
    await drain(stack);
    const placed = await printOrdersOf(stack, 'PO-TEST-1');
    expect(placed.map((p) => p.storefront)).toEqual([2]);
    const order = await onlyOrder(stack);
    expect(order).toMatchObject({ state: 'ordered', deploymentMode: 'test', storefrontId: 'demo-test' });
    const confirmations = receivedDocuments(stack, 'ConfirmationRequest');
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.doc.Request['@deploymentMode']).toBe('test');
    expect(confirmations[0]?.doc.Request.ConfirmationRequest.ConfirmationHeader['@type']).toBe('accept');
    // The buyer's test account is who hears about its test order.
    expect(confirmations[0]?.doc.Header.To.Credential[0].Identity).toBe(TEST_IDENTITY);
  });

  it('answers a production PO with documents that carry no test mode', async () => {
    const stack = await createOrderStack(testModeConfig());
    const cart = await punchOut(stack, ['Business cards'], {});
    expect((await sendOrder(stack, { orderID: 'PO-PROD-1', lines: linesOf(cart) })).code).toBe(200);
    await drain(stack);
    expect((await printOrdersOf(stack, 'PO-PROD-1')).map((p) => p.storefront)).toEqual([1]);
    expect(await onlyOrder(stack)).toMatchObject({ deploymentMode: 'production', storefrontId: 'demo' });
    const [confirmation] = receivedDocuments(stack, 'ConfirmationRequest');
    expect(confirmation?.doc.Request['@deploymentMode']).toBeUndefined();
    expect(confirmation?.post.body).not.toContain('deploymentMode');
  });

  it('stores and confirms a test PO of a buyer without a test storefront, and calls no print service', async () => {
    const stack = await createOrderStack(testModeConfig());
    const cart = await punchOut(stack, ['Business cards'], { ...COUPA_SETUP, deploymentMode: 'test' });
    const before = printServiceCalls(stack);
    const status = await sendOrder(stack, {
      ...COUPA,
      orderID: 'PO-COUPA-TEST',
      lines: linesOf(cart),
      deploymentMode: 'test',
    });
    expect(status.code).toBe(200);
    await drain(stack);
    expect(stack.upstreamCalls.slice(before)).toEqual([]);
    const order = await onlyOrder(stack);
    expect(order).toMatchObject({
      state: 'ordered',
      deploymentMode: 'test',
      storefrontId: null,
      printOrderIds: [],
      flags: ['test_not_sent'],
    });
    const [confirmation] = receivedDocuments(stack, 'ConfirmationRequest');
    expect(confirmation?.doc.Request['@deploymentMode']).toBe('test');
    expect(confirmation?.doc.Request.ConfirmationRequest.ConfirmationHeader['@type']).toBe('accept');
  });

  it('refuses a PO mixing test and production lines, naming the lines and their modes, and stores nothing', async () => {
    const stack = await createOrderStack(testModeConfig({ storefront: undefined }));
    const production = await punchOut(stack, ['Business cards'], {});
    const test = await punchOut(stack, ['Business cards'], { deploymentMode: 'test' });
    const lines = linesOf([...production, ...test] as CartLineOut[]);
    for (const mode of ['test', 'production'] as const) {
      const status = await sendOrder(stack, {
        orderID: `PO-MIX-${mode}`,
        lines,
        deploymentMode: mode,
        ...(mode === 'test' && { identity: TEST_IDENTITY, secret: TEST_SECRET }),
      });
      const other = mode === 'test' ? production[0] : test[0];
      const otherMode = mode === 'test' ? 'production' : 'test';
      const otherLine = mode === 'test' ? 1 : 2;
      expect(status.code).toBe(400);
      expect(status.detail).toBe(
        `This purchase order has deploymentMode "${mode}", and Line ${otherLine} (SupplierPartID BC-STD): ` +
          `line reference ${other?.lineRef} is from a ${otherMode} punch-out. ` +
          `A ${mode} order may only order lines of a ${mode} punch-out.`,
      );
    }
    expect((await adminJson(stack, '/admin/orders')).body.items).toEqual([]);
    expect((await stack.store.cart.getMany(lines.map((l) => l.lineRef ?? ''))).map((l) => l.state)).toEqual([
      'cart',
      'cart',
    ]);
  });

  it('refuses a test document that repeats the orderID of a production order, and the reverse', async () => {
    const stack = await createOrderStack(testModeConfig());
    const cart = await punchOut(stack, ['Business cards'], {});
    expect((await sendOrder(stack, { orderID: 'PO-SAME', lines: linesOf(cart) })).code).toBe(200);
    const testCart = await punchOut(stack, ['Campus poster'], { deploymentMode: 'test' });
    const status = await sendOrder(stack, {
      orderID: 'PO-SAME',
      lines: linesOf(testCart),
      deploymentMode: 'test',
    });
    expect(status.code).toBe(400);
    expect(status.detail).toMatch(
      /^Order PO-SAME was received as a production order \(payloadID .+\); this document has deploymentMode "test": a test order needs an orderID of its own\.$/,
    );
    // A test cancellation of that orderID touches no production order.
    const cancel = await sendOrder(stack, {
      orderID: 'PO-SAME',
      type: 'delete',
      lines: [],
      deploymentMode: 'test',
    });
    expect(cancel.code).toBe(200);
    await drain(stack);
    const orders = (await adminJson(stack, '/admin/orders')).body.items;
    const original = orders.find((o: { type: string }) => o.type === 'new');
    expect(original).toMatchObject({ state: 'ordered', deploymentMode: 'production' });
    expect(orders.find((o: { type: string }) => o.type === 'delete')).toMatchObject({
      state: 'cancelled',
      deploymentMode: 'test',
      flags: ['unknown_order'],
    });
  });

  describe('credentials', () => {
    it('opens test mode with the test credentials, and refuses them a production document', async () => {
      const stack = await createOrderStack(testModeConfig());
      const asTest = { identity: TEST_IDENTITY, secret: TEST_SECRET };
      expect(statusOf(await stack.postCxml(setupRequest({ ...asTest, deploymentMode: 'test' }))).code).toBe(
        200,
      );
      const refused = statusOf(
        await stack.postCxml(setupRequest({ ...asTest, deploymentMode: 'production' })),
      );
      expect(refused.code).toBe(403);
      expect(refused.detail).toBe(
        'This document carries deploymentMode "production" but was sent with the test credentials, which only ' +
          'open test mode: send it with deploymentMode="test", or with the production credentials.',
      );
      // The test secret with the production From is a test sender too.
      const secretOnly = statusOf(
        await stack.postCxml(setupRequest({ secret: TEST_SECRET, deploymentMode: 'production' })),
      );
      expect(secretOnly.code).toBe(403);
      // The test From is not proven by the production secret when the buyer has a test secret.
      const wrong = statusOf(
        await stack.postCxml(setupRequest({ identity: TEST_IDENTITY, deploymentMode: 'test' })),
      );
      expect(wrong.code).toBe(401);
    });

    it('takes a test document from the production credentials as test, or refuses it as the buyer says', async () => {
      const accepting = await createOrderStack(testModeConfig());
      expect(statusOf(await accepting.postCxml(setupRequest({ deploymentMode: 'test' }))).code).toBe(200);
      const refusing = await createOrderStack(testModeConfig({ fromProductionCredentials: 'refuse' }));
      const refused = statusOf(await refusing.postCxml(setupRequest({ deploymentMode: 'test' })));
      expect(refused.code).toBe(403);
      expect(refused.detail).toBe(
        'This document carries deploymentMode "test" but was sent with the production credentials, which this ' +
          'supplier does not accept for test documents: send it with the test credentials.',
      );
      expect(statusOf(await refusing.postCxml(setupRequest({ deploymentMode: 'production' }))).code).toBe(
        200,
      );
    });
  });

  describe('no test PO reaches a production storefront, whatever fails', () => {
    /** A test PO of acme stored and queued, its job not yet run. */
    async function storedTestOrder(stack: OrderStack): Promise<string> {
      const cart = await punchOut(stack, ['Campus poster'], { deploymentMode: 'test' });
      const status = await sendOrder(stack, {
        orderID: 'PO-FAULT',
        lines: linesOf(cart),
        deploymentMode: 'test',
      });
      expect(status.code).toBe(200);
      return (await onlyOrder(stack)).id;
    }

    it('waits for an operator when its test storefront left the config, and stays off production on retry', async () => {
      const stack = await createOrderStack(testModeConfig());
      const poId = await storedTestOrder(stack);
      const withoutTest = testModeConfig();
      withoutTest.storefronts = withoutTest.storefronts.filter((s) => s.id !== 'demo-test');
      withoutTest.buyers = withoutTest.buyers.map(
        ({ test: _test, ...b }) => b,
      ) as GatewayConfigInput['buyers'];
      await stack.restartGateway(stack.store, withoutTest);
      restartWorker(stack);
      const before = printServiceCalls(stack);
      await drain(stack);
      const order = (await adminJson(stack, `/admin/orders/${poId}`)).body;
      expect(order.state).toBe('needs_operator');
      expect(order.lastError).toBe(
        'Test purchase order PO-FAULT is not sent to a print service: its test storefront "demo-test" is no ' +
          'longer configured, and a test order goes nowhere else.',
      );
      // The operator's retry runs the same job, which refuses the same way.
      const retry = await adminRequest(stack, `/admin/orders/${poId}/retry`, { method: 'POST' });
      expect(retry.status).toBe(202);
      await drain(stack);
      expect((await adminJson(stack, `/admin/orders/${poId}`)).body.state).toBe('needs_operator');
      expect(stack.upstreamCalls.slice(before)).toEqual([]);
      expect(await printOrdersOf(stack, 'PO-FAULT')).toEqual([]);
    });

    it('waits for an operator when its test storefront has become a production storefront', async () => {
      const stack = await createOrderStack(testModeConfig());
      const poId = await storedTestOrder(stack);
      const swapped = testModeConfig();
      swapped.buyers = swapped.buyers.map((b) =>
        b.id === 'coupa' ? { ...b, storefront: 'demo-test' } : b,
      ) as GatewayConfigInput['buyers'];
      swapped.buyers = swapped.buyers.map(({ test: _test, ...b }) => b) as GatewayConfigInput['buyers'];
      await stack.restartGateway(stack.store, swapped);
      restartWorker(stack);
      await drain(stack);
      const order = (await adminJson(stack, `/admin/orders/${poId}`)).body;
      expect(order.state).toBe('needs_operator');
      expect(order.lastError).toContain("is now a buyer's production storefront");
      expect(await printOrdersOf(stack, 'PO-FAULT')).toEqual([]);
    });

    it('retries a test PO through a print-service outage onto the test storefront, never production', async () => {
      const stack = await createOrderStack(testModeConfig());
      await storedTestOrder(stack);
      stack.printServiceDown = true;
      await stack.worker.tick();
      stack.printServiceDown = false;
      stack.clock.advance(3600);
      await drain(stack);
      expect((await printOrdersOf(stack, 'PO-FAULT')).map((p) => p.storefront)).toEqual([2]);
      const tracked = await stack.store.printOrders.listByPo((await onlyOrder(stack)).id);
      expect(tracked.map((t) => t.storefrontId)).toEqual(['demo-test']);
    });

    it('finds a test print order whose answer was lost on the test storefront, and never creates one on production', async () => {
      const faults = faultInjector();
      const calls: string[] = [];
      const stack = await createOrderStack(testModeConfig(), {
        printTimeoutMs: 200,
        wrapPrintFetch: (fetch) =>
          faults.wrap((input, init) => {
            const request = new Request(input, init);
            const url = new URL(request.url);
            calls.push(`${request.method} ${url.pathname}${url.search}`);
            return fetch(request);
          }),
      });
      faults.inject({
        match: /^POST \/api\/v2\/pipo\/order\/create$/,
        fault: { kind: 'lost-answer' },
        times: 1,
      });
      const poId = await storedTestOrder(stack);
      for (let round = 0, wait = 30; round < 6; round++, wait *= 2) {
        await drain(stack);
        stack.clock.advance(wait);
      }
      // One print order, on the test storefront; the reconciliation that found it searched nowhere else.
      expect(await printOrdersOf(stack, 'PO-FAULT')).toEqual([expect.objectContaining({ storefront: 2 })]);
      expect(calls.filter((call) => call === 'POST /api/v2/pipo/order/create')).toHaveLength(1);
      const searches = calls.filter((call) => call.includes('storefront'));
      expect(searches.length).toBeGreaterThan(0);
      expect(searches.filter((call) => !/storefront(_id|Id)?=2(&|$)/.test(call))).toEqual([]);
      const order = (await adminJson(stack, `/admin/orders/${poId}`)).body;
      expect(order).toMatchObject({ state: 'ordered', deploymentMode: 'test', storefrontId: 'demo-test' });
      expect(order.printOrders.map((p: { storefrontId: string }) => p.storefrontId)).toEqual(['demo-test']);
    });

    it("follows a test order's status changes on the test storefront (webhook or poll), telling the buyer only in test mode", async () => {
      const stack = await createOrderStack(testModeConfig());
      // As serve starts it: the print service's webhooks registered, so status changes arrive as events.
      await stack.worker.startup();
      const poId = await storedTestOrder(stack);
      await drain(stack);
      const [placed] = await printOrdersOf(stack, 'PO-FAULT');
      expect(placed?.storefront).toBe(2);
      const creates = () =>
        stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;
      const before = { creates: creates(), posts: stack.orderStatusPosts.length };
      // The test storefront is a pick-up shop: its orders end "Ready for Pickup", never shipped.
      for (const status of ['Printing', 'Ready for Pickup']) {
        stack.sandbox.control.setOrderStatus(placed?.id ?? 0, { status });
        await drain(stack);
      }
      const order = (await adminJson(stack, `/admin/orders/${poId}`)).body;
      expect(order.printOrders).toMatchObject([{ printOrderId: placed?.id, lastStatus: 'Ready for Pickup' }]);
      expect(creates()).toBe(before.creates);
      expect(await printOrdersOf(stack, 'PO-FAULT')).toEqual([placed]);
      for (const post of stack.orderStatusPosts.slice(before.posts)) {
        expect(parseXml(post.body).cXML.Request['@deploymentMode']).toBe('test');
      }
    });

    it('resends a test confirmation as a test document, without calling the print service', async () => {
      const stack = await createOrderStack(testModeConfig());
      const poId = await storedTestOrder(stack);
      await drain(stack);
      const order = (await adminJson(stack, `/admin/orders/${poId}`)).body;
      const confirmation = order.outbox.find((m: { kind: string }) => m.kind === 'confirmation');
      const before = printServiceCalls(stack);
      const resent = await adminRequest(stack, `/admin/outbox/${confirmation.id}/resend`, { method: 'POST' });
      expect(resent.status).toBe(202);
      await drain(stack);
      const confirmations = receivedDocuments(stack, 'ConfirmationRequest');
      expect(confirmations).toHaveLength(2);
      expect(confirmations.map(({ doc }) => doc.Request['@deploymentMode'])).toEqual(['test', 'test']);
      expect(confirmations[1]?.doc.Header.To.Credential[0].Identity).toBe(TEST_IDENTITY);
      // The resend is a delivery to the buyer: a status read may happen, never a create.
      expect(stack.upstreamCalls.slice(before).filter((call) => call.startsWith('POST'))).toEqual([]);
    });

    it('refuses to attach a print order of another storefront to a test PO', async () => {
      const stack = await createOrderStack(testModeConfig());
      const cart = await punchOut(stack, ['Business cards'], { ...COUPA_SETUP, deploymentMode: 'test' });
      await sendOrder(stack, {
        ...COUPA,
        orderID: 'PO-ATTACH',
        lines: linesOf(cart),
        deploymentMode: 'test',
      });
      const po = await onlyOrder(stack);
      await stack.store.orders.patch(po.id, { state: 'needs_operator' });
      const answer = await adminRequest(stack, `/admin/orders/${po.id}/attach`, {
        method: 'POST',
        body: JSON.stringify({ printOrderId: 1001 }),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(answer.status).toBe(409);
      expect((await answer.json()).error.message).toBe(
        `Purchase order record ${po.id} is a test order without a test storefront: it is never sent to a ` +
          'print service, so it has no print order.',
      );
    });
  });
});
