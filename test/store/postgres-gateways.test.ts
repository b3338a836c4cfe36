/**
 * Two whole gateways with the order flow on one PostgreSQL schema, as two Node processes behind a load
 * balancer would run: the same config and signing key, one print service, one buyer endpoint, each with
 * its own store and connection pool. What must hold across them: a purchase order delivered many times to
 * both becomes one print order and one confirmation, both workers ticking at once share the work through
 * leases, and a punch-out session begun on one carries on on the other.
 */
import { afterEach, expect, it } from 'vitest';
import { createOrderWorker, type OrderWorker } from '../../src/gateway/orders/index.ts';
import type { Store } from '../../src/store/port.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import {
  adminJson,
  linesOf,
  type OrderStack,
  orderRequest,
  printOrdersFor,
  punchOut,
  receivedDocuments,
} from '../support/order-flow.ts';
import { describeWithPostgres, useTestSchemas } from '../support/postgres-test-database.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../support/punchout-flow.ts';
import { postCxml, startInstanceA } from './two-instances.ts';

const PIPO_ORDER_CREATE = 'POST /api/v2/pipo/order/create';

describeWithPostgres('two gateways with the order flow on one PostgreSQL database', () => {
  const schemas = useTestSchemas();
  const stores: Store[] = [];
  const stacks: OrderStack[] = [];

  afterEach(async () => {
    for (const stack of stacks.splice(0)) await stack.sandbox.control.idle();
    for (const store of stores.splice(0)) await store.close();
  });

  /** Instance A on a fresh schema and a way to start instance B beside it (see `startInstanceA`). */
  async function startOnFreshSchema(): ReturnType<typeof startInstanceA> {
    const schema = schemas.fresh();
    const started = await startInstanceA(async (clock) => {
      const store = await schemas.open(schema, { clock });
      stores.push(store);
      return store;
    });
    stacks.push(started.stack);
    return started;
  }

  it('turns 50 copies of one purchase order spread across both into one print order and one accept', async () => {
    const { stack, a, startB } = await startOnFreshSchema();
    // The buyer punched out through instance A: the cart line is in the shared database.
    const cart = await punchOut(stack, ['Business cards']);
    expect(cart).toHaveLength(1);
    const b = await startB();

    const workers: OrderWorker[] = [createOrderWorker(a.context), createOrderWorker(b.context)];
    const hooksA = await workers[0]!.startup();
    const hooksB = await workers[1]!.startup();
    expect(hooksA.map((r) => [r.event, r.outcome])).toEqual([
      ['order_updated', 'created'],
      ['order_deleted', 'created'],
    ]);
    expect(hooksB.map((r) => [r.event, r.outcome])).toEqual([
      ['order_updated', 'existing'],
      ['order_deleted', 'existing'],
    ]);

    // The buyer's network retrying one PO: the same document, payloadID included, to either instance.
    const document = orderRequest({
      payloadID: 'po-two-instances@ariba.example',
      orderID: 'PO-TWO-INSTANCES',
      lines: linesOf(cart),
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await postCxml(i % 2 === 0 ? a : b, document);
        return { status: res.status, cxml: statusOf(await res.text()) };
      }),
    );
    for (const answer of answers) {
      expect(answer).toEqual({ status: 200, cxml: { code: 200, text: 'OK', detail: '' } });
    }
    const stored = (await stack.store.orders.list()).items;
    expect(stored.map((po) => [po.orderId, po.state])).toEqual([['PO-TWO-INSTANCES', 'received']]);
    const poId = stored[0]!.id;

    // Both workers tick at once, round after round, until neither finds anything left; the clock moves on
    // between rounds so the print files' merge finishes and the reconciliation poll comes due.
    let quietRounds = 0;
    for (let round = 0; quietRounds < 2; round++) {
      expect(round, 'the workers settle within 20 rounds').toBeLessThan(20);
      const results = await Promise.all(workers.map((worker) => worker.tick()));
      await stack.sandbox.control.idle();
      const waiting = await stack.store.events.listUnprocessed();
      const busy = results.some((r) => r.jobs > 0 || r.messages > 0) || waiting.length > 0;
      quietRounds = busy ? 0 : quietRounds + 1;
      stack.clock.advance(60);
    }

    const printOrders = await printOrdersFor(stack, 'PO-TWO-INSTANCES');
    expect(printOrders).toHaveLength(1);
    expect(stack.upstreamCalls.filter((call) => call === PIPO_ORDER_CREATE)).toHaveLength(1);
    const printOrderId = printOrders[0]!;
    for (const instance of [a, b]) {
      const { status, body } = await adminJson({ ...stack, gateway: instance }, `/admin/orders/${poId}`);
      expect(status).toBe(200);
      expect(body.state).toBe('ordered');
      expect(body.printOrders.map((p: { printOrderId: number }) => p.printOrderId)).toEqual([printOrderId]);
      expect(body.outbox.map((m: { kind: string; state: string }) => [m.kind, m.state])).toEqual([
        ['confirmation', 'delivered'],
      ]);
    }
    // Exactly one, not "at least one": a message is leased to one instance while it is posted and marked
    // delivered before the lease could lapse (the clock stands still within a round), so a second post
    // would mean two instances held the same lease.
    const accepts = receivedDocuments(stack, 'ConfirmationRequest');
    expect(accepts).toHaveLength(1);
    const header = accepts[0]?.doc.Request.ConfirmationRequest.ConfirmationHeader;
    expect(header['@type']).toBe('accept');
    expect(header['@confirmID']).toBe(String(printOrderId));
    expect(accepts[0]?.doc.Request.ConfirmationRequest.OrderReference['@orderID']).toBe('PO-TWO-INSTANCES');
  });

  it('accepts 40 POs naming the same cart lines across both, each re-sent once, each stored once', async () => {
    const { stack, a, startB } = await startOnFreshSchema();
    const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
    const b = await startB();
    const lines = linesOf(cart);
    const documents = Array.from({ length: 40 }, (_, i) =>
      orderRequest({
        payloadID: `same-lines-${i}@ariba.example`,
        orderID: `PO-SAME-${i}`,
        lines: i % 2 === 0 ? lines : [...lines].reverse(),
      }),
    );
    // Every document to both instances at once: the buyer's network re-sending each to the other.
    const answers = await Promise.all(
      [...documents, ...documents].map(async (document, i) => {
        const res = await postCxml(i % 2 === 0 ? a : b, document);
        return { status: res.status, cxml: statusOf(await res.text()) };
      }),
    );
    expect(answers).toEqual(Array(80).fill({ status: 200, cxml: { code: 200, text: 'OK', detail: '' } }));
    const stored = (await stack.store.orders.list({ limit: 100 })).items;
    expect(stored.map((po) => po.orderId).sort()).toEqual(documents.map((_, i) => `PO-SAME-${i}`).sort());
    expect((await stack.store.jobs.list({ limit: 100 })).items).toHaveLength(40);
    const marked = await stack.store.cart.getMany(cart.map((line) => line.lineRef));
    expect(marked.map((line) => line.state)).toEqual(['ordered', 'ordered']);
    expect(stored.map((po) => po.id)).toContain(marked[0]?.poId);
  });

  it('continues on instance B a punch-out session started on instance A', async () => {
    const { stack, a, startB } = await startOnFreshSchema();
    await startB();
    const setup = await (await postCxml(a, setupRequest())).text();
    expect(statusOf(setup).code).toBe(200);
    // The StartPage link signed by A, opened with the stack's browser, which now reaches B.
    const catalog = await stack.browse(startUrlOf(setup));
    expect(catalog.status).toBe(200);
    expect(catalog.text).toContain('A5 flyer');
    const cart = await designProduct(stack, catalog, 'A5 flyer', { Headline: 'Open day' });
    expect(cart.status).toBe(200);
    expect(cart.text).toContain('A5 flyer');
    const poom = cxmlFromForm(
      returnFormOf(await clickButton(stack, cart, 'Transfer cart to procurement system')),
    );
    expect(poom).toContain('<SupplierPartID>FLY-A5</SupplierPartID>');
    expect(poom).toContain('<BuyerCookie>');
  });
});
