/**
 * Two whole gateways with the order flow on one PostgreSQL schema, as two Node processes behind a load
 * balancer would run: the same config and signing key, one print service, one buyer endpoint, each with
 * its own store and connection pool. What must hold across them: a purchase order delivered many times to
 * both becomes one print order and one confirmation, both workers ticking at once share the work through
 * leases, and a punch-out session begun on one carries on on the other.
 */
import { afterEach, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway/index.ts';
import { createOrderWorker, type OrderWorker } from '../../src/gateway/orders/index.ts';
import type { Store } from '../../src/store/port.ts';
import {
  adminJson,
  createOrderStack,
  linesOf,
  type OrderStack,
  orderConfig,
  orderRequest,
  printOrdersFor,
  punchOut,
  receivedDocuments,
} from '../orders/order-flow.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../support/punchout-flow.ts';
import { GATEWAY_ORIGIN, START } from '../support/stack.ts';
import { describeWithPostgres, useTestSchemas } from './postgres-test-database.ts';

const PIPO_ORDER_CREATE = 'POST /api/v2/pipo/order/create';

async function postCxml(gateway: Gateway, body: string): Promise<Response> {
  return gateway.app.fetch(
    new Request(`${GATEWAY_ORIGIN}/cxml`, { method: 'POST', body, headers: { 'Content-Type': 'text/xml' } }),
  );
}

describeWithPostgres('two gateways with the order flow on one PostgreSQL database', () => {
  const schemas = useTestSchemas();
  const stores: Store[] = [];
  const stacks: OrderStack[] = [];

  afterEach(async () => {
    for (const stack of stacks.splice(0)) await stack.sandbox.control.idle();
    for (const store of stores.splice(0)) await store.close();
  });

  /**
   * Instance A on a fresh schema, in an order stack (print service, buyer endpoint, frozen clock), and a
   * way to start instance B beside it. Until B starts, the stack's browser reaches A; from then on the
   * browser and the print service's webhooks reach B, and tests reach A directly.
   */
  async function startInstanceA(): Promise<{ stack: OrderStack; a: Gateway; startB(): Promise<Gateway> }> {
    const schema = schemas.fresh();
    // Both stores read the stack's frozen clock, so record times follow the test's time like the workers'.
    let current: OrderStack | undefined;
    const clock = { now: () => current?.clock.now() ?? new Date(START) };
    const open = async () => {
      const store = await schemas.open(schema, { clock });
      stores.push(store);
      return store;
    };
    const stack = await createOrderStack(orderConfig(), { store: await open() });
    current = stack;
    stacks.push(stack);
    const a = stack.gateway;
    // Beside A, not instead of it: same config, signing key, print service, buyer endpoint and clock; its
    // own pool on the same schema.
    return { stack, a, startB: async () => stack.restartGateway(await open()) };
  }

  it('turns 50 copies of one purchase order spread across both into one print order and one accept', async () => {
    const { stack, a, startB } = await startInstanceA();
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

  it('continues on instance B a punch-out session started on instance A', async () => {
    const { stack, a, startB } = await startInstanceA();
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
