/**
 * Several gateway instances on one PostgreSQL database: what the port promises for one process must hold
 * across processes' connection pools too. Each instance here is its own store with its own pool, as two
 * Node processes would be.
 */
import { readFileSync } from 'node:fs';
import { createSandbox } from '@punchgate/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway/index.ts';
import { createNodeGateway, type NodeGateway } from '../../src/runtime/gateway-node.ts';
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import type { Store } from '../../src/store/port.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { describeWithPostgres, useTestSchemas } from '../support/postgres-test-database.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../support/punchout-flow.ts';
import { followRedirects, GATEWAY_ORIGIN, resolveTestConfig, testConfig } from '../support/stack.ts';
import { createManualClock } from './manual-clock.ts';
import { at, cartLine, purchaseOrder, T0 } from './store-suite.ts';

describeWithPostgres('two instances on one PostgreSQL database', () => {
  const schemas = useTestSchemas();

  async function twoStores(): Promise<[Store, Store]> {
    const schema = schemas.fresh();
    const a = await schemas.open(schema, { clock: createManualClock(T0) });
    const b = await schemas.open(schema, { clock: createManualClock(T0) });
    return [a, b];
  }

  it('turns 50 deliveries of one purchase order spread across both into one order', async () => {
    const [a, b] = await twoStores();
    const order = {
      buyerId: 'acme',
      payloadId: '1740823200.42@buyer.example.com',
      orderId: 'PO-1001',
      type: 'new' as const,
      raw: '<cXML/>',
      document: { orderID: 'PO-1001' },
      answer: { code: 200, text: 'OK' },
    };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).orders.accept(order)),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.order.id)).size).toBe(1);
    expect((await a.orders.list()).items).toHaveLength(1);
    // The job that processes it is queued once too, whichever instance tries.
    const id = results[0]!.order.id;
    const jobs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).jobs.enqueue({
          kind: 'process_order',
          key: `po:${id}`,
          payload: {},
          runAt: T0,
        }),
      ),
    );
    expect(jobs.filter((j) => j.created)).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('accepts 60 orders naming the same cart lines spread across both, none refused or lost', async () => {
    const [a, b] = await twoStores();
    const lineRefs = ['L-A', 'L-B', 'L-C', 'L-D', 'L-E'];
    for (const lineRef of lineRefs) await a.cart.add(cartLine({ lineRef }));
    // Half name the lines backwards: row locks taken in the order named would deadlock across instances.
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? a : b).orders.acceptWithLines({
          order: purchaseOrder({ payloadId: `same-lines-${i}@buyer`, orderId: `PO-SAME-${i}` }),
          lineRefs: i % 4 < 2 ? lineRefs : [...lineRefs].reverse(),
          job: { kind: 'process_order', keyPrefix: 'po:', runAt: T0 },
        }),
      ),
    );
    const ids = results.map((r) => (r.created ? r.id : 'copy'));
    expect(new Set(ids).size).toBe(60);
    expect(ids).not.toContain('copy');
    expect((await b.orders.list({ limit: 100 })).items).toHaveLength(60);
    expect((await b.jobs.list({ limit: 100 })).items).toHaveLength(60);
    const lines = await b.cart.getMany(lineRefs);
    expect(new Set(lines.map((line) => line.poId)).size).toBe(1);
    expect(ids).toContain(lines[0]!.poId);
    await Promise.all([a.close(), b.close()]);
  });

  it('never hands one job to both instances, and lets exactly one take over an expired lease', async () => {
    const [a, b] = await twoStores();
    for (let i = 0; i < 40; i++) await a.jobs.enqueue({ kind: 'k', key: `j${i}`, payload: i, runAt: T0 });
    const claims = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).jobs.claim(T0, 60_000)),
    );
    const ids = claims.flatMap((job) => (job ? [job.id] : []));
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    const retakes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).jobs.claim(at(60_000), 60_000)),
    );
    const retaken = retakes.flatMap((job) => (job ? [job.id] : []));
    expect(new Set(retaken)).toEqual(new Set(ids));
    expect(retaken).toHaveLength(40);
    await Promise.all([a.close(), b.close()]);
  });

  it('leases each outbox message to one instance at a time, one purchase order in queue order', async () => {
    const [a, b] = await twoStores();
    // Ten purchase orders with three notices each, queued interleaved.
    for (let n = 0; n < 3; n++) {
      for (let po = 1; po <= 10; po++) {
        await a.outbox.enqueue({
          buyerId: 'acme',
          poId: String(po),
          kind: n === 0 ? 'confirmation' : 'ship_notice',
          dedupeKey: `po${po}:${n}`,
          url: 'https://buyer.example.com/cxml',
          body: `<cXML n="${n}"/>`,
        });
      }
    }
    const delivered: string[] = [];
    // Rounds of both instances claiming at once; what each gets it delivers before the next round.
    for (let round = 0; round < 6; round++) {
      const batches = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).outbox.claimDue(T0, 60_000, 4)),
      );
      const claimed = batches.flat();
      const keys = claimed.map((m) => m.dedupeKey);
      expect(new Set(keys).size).toBe(keys.length);
      // Never two notices of one purchase order out at the same time.
      const pos = claimed.map((m) => m.poId);
      expect(new Set(pos).size).toBe(pos.length);
      for (const message of claimed) {
        expect(await (delivered.length % 2 === 0 ? a : b).outbox.markDelivered(message)).toMatchObject({
          state: 'delivered',
        });
        delivered.push(message.dedupeKey);
      }
    }
    expect(delivered).toHaveLength(30);
    for (let po = 1; po <= 10; po++) {
      expect(delivered.filter((k) => k.startsWith(`po${po}:`))).toEqual([
        `po${po}:0`,
        `po${po}:1`,
        `po${po}:2`,
      ]);
    }
    await Promise.all([a.close(), b.close()]);
  });

  describe('a punch-out session moving between gateway instances', () => {
    let sandbox: RunningServer;
    const instances: NodeGateway[] = [];
    const served = [0, 0];

    beforeAll(async () => {
      const seed = JSON.parse(
        readFileSync(new URL('../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
      );
      sandbox = await serveNode(createSandbox(seed).app, { port: 0 });
      const base = testConfig();
      const config = resolveTestConfig({
        ...base,
        storefronts: base.storefronts.map((s) => ({
          ...s,
          apiBaseUrl: sandbox.url,
          editorUrl: `${sandbox.url}/editor`,
        })),
      });
      const schema = schemas.fresh();
      for (let i = 0; i < 2; i++) {
        // No session cache: each instance must read what the other wrote.
        const store = await schemas.open(schema);
        instances.push(
          await createNodeGateway(config, { logger: { info() {}, warn() {}, error() {} }, store }),
        );
      }
    });

    afterAll(async () => {
      for (const instance of instances) await instance.close();
      await sandbox?.close();
    });

    /** A browser behind a round-robin load balancer: each request to the gateway goes to the other instance. */
    const browser = {
      browse: followRedirects(async (url, init) => {
        if (url.startsWith(GATEWAY_ORIGIN)) {
          const pick = (served[0]! + served[1]!) % 2;
          served[pick]!++;
          const gateway: Gateway = instances[pick]!.gateway;
          return gateway.app.request(url, { ...init, redirect: 'manual' });
        }
        if (url.startsWith(sandbox.url)) return fetch(url, { ...init, redirect: 'manual' });
        // The buyer's return URL is not ours to call; the test reads the form instead.
        return new Response('');
      }),
    };

    it('starts on one instance, designs, and transfers the cart through the other', async () => {
      const setup = await browser.browse(`${GATEWAY_ORIGIN}/cxml`, {
        method: 'POST',
        body: setupRequest(),
        headers: { 'Content-Type': 'text/xml' },
      });
      expect(statusOf(setup.text).code).toBe(200);
      const catalog = await browser.browse(startUrlOf(setup.text));
      expect(catalog.status).toBe(200);
      const cart = await designProduct(browser, catalog, 'A5 flyer', { Headline: 'Open day' });
      expect(cart.text).toContain('A5 flyer');
      const poom = cxmlFromForm(
        returnFormOf(await clickButton(browser, cart, 'Transfer cart to procurement system')),
      );
      expect(poom).toContain('<SupplierPartID>FLY-A5</SupplierPartID>');
      expect(poom).toContain('<BuyerCookie>');
      expect(served[0]).toBeGreaterThanOrEqual(2);
      expect(served[1]).toBeGreaterThanOrEqual(2);
    });
  });
});
