import { describe, expect, it } from 'vitest';
import { MAX_INCONCLUSIVE_SEARCHES } from '../../../src/gateway/orders/process-order.ts';
import { type Fault, faultInjector } from '../../support/fault-injector.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../../support/order-flow.ts';

const CREATE = /^POST \/api\/v2\/pipo\/order\/create$/;
const READ_ORDER = /^GET \/api\/v2\/order\/\d+$/;
const REPORT = /^GET \/api\/v2\/report\/order_details$/;
const LOST: Fault = { kind: 'lost-answer' };
const NOT_SENT: Fault = { kind: 'reset' };
const OUTAGE: Fault = { kind: 'status', status: 503 };

const creates = (stack: OrderStack) =>
  stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;

/** Accept ConfirmationRequests the buyer got for a PO number. */
function accepts(stack: OrderStack, orderID: string) {
  return receivedDocuments(stack, 'ConfirmationRequest').filter(({ doc }) => {
    const request = doc.Request.ConfirmationRequest;
    return request.ConfirmationHeader['@type'] === 'accept' && request.OrderReference['@orderID'] === orderID;
  });
}

/** Runs the job through its backoff (30 s doubling) until nothing is due any more. */
async function settle(stack: OrderStack, rounds = 6): Promise<void> {
  await drain(stack);
  for (let round = 0, wait = 30; round < rounds; round++, wait *= 2) {
    stack.clock.advance(wait);
    await drain(stack);
  }
}

interface Scenario {
  /** Place one PO normally first, so the gateway knows a print order id of the storefront. */
  earlierPo: boolean;
  createFault: Fault;
  /** Faults that stay on after the create's, e.g. an order_details report that always fails. */
  lasting?: { match: RegExp; fault: Fault }[];
  maxAttempts?: number;
  /** Runs before the PO whose create is cut off arrives, with the earlier PO's print order id. */
  beforeCut?: (stack: OrderStack, floor: number | undefined) => Promise<void>;
}

async function run(scenario: Scenario) {
  const faults = faultInjector();
  const base = orderConfig();
  const stack = await createOrderStack(
    orderConfig({ orders: { ...base.orders, maxAttempts: scenario.maxAttempts ?? 6 } }),
    { wrapPrintFetch: faults.wrap, printTimeoutMs: 200 },
  );
  let floor: number | undefined;
  if (scenario.earlierPo) {
    const earlier = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-EARLIER', lines: linesOf(earlier) })).toMatchObject({
      code: 200,
    });
    await drain(stack);
    [floor] = await printOrdersFor(stack, 'PO-EARLIER');
  }
  await scenario.beforeCut?.(stack, floor);
  const cart = await punchOut(stack, ['Business cards']);
  faults.inject({ match: CREATE, fault: scenario.createFault, times: 1 });
  for (const rule of scenario.lasting ?? []) faults.inject(rule);
  expect(await sendOrder(stack, { orderID: 'PO-CUT', lines: linesOf(cart) })).toMatchObject({ code: 200 });
  return { stack, faults, floor };
}

async function purchaseOrder(stack: OrderStack, orderID: string) {
  const po = (await stack.store.orders.list()).items.find((o) => o.orderId === orderID);
  expect(po).toBeDefined();
  return (await adminJson(stack, `/admin/orders/${po?.id}`)).body;
}

/** The create attempts the store keeps for the PO: the gateway's own, which the admin API does not show. */
async function createAttemptsOf(stack: OrderStack, orderID: string) {
  return (await stack.store.orders.list()).items.find((o) => o.orderId === orderID)?.createAttempts;
}

/**
 * What a cut-off create of PO-CUT must settle to: exactly one print order, recorded on the PO, which is
 * ordered and unflagged, and exactly one accept. `createsInAll` counts every create the print service got,
 * PO-EARLIER's included. Answers the print order's id, in a list of one.
 */
async function expectOnePrintOrderOneAccept(stack: OrderStack, createsInAll: number): Promise<number[]> {
  const found = await printOrdersFor(stack, 'PO-CUT');
  expect(found).toHaveLength(1);
  expect(creates(stack)).toBe(createsInAll);
  expect(await purchaseOrder(stack, 'PO-CUT')).toMatchObject({
    state: 'ordered',
    flags: [],
    printOrderIds: found,
  });
  expect(accepts(stack, 'PO-CUT')).toHaveLength(1);
  return found;
}

describe('a print-order create that went through but whose answer was lost', () => {
  it('is found by reading the ids above the last known print order, and adopted: one print order, one accept', async () => {
    // The report fails throughout: the ids alone find it.
    const { stack, floor } = await run({
      earlierPo: true,
      createFault: LOST,
      lasting: [{ match: REPORT, fault: OUTAGE }],
    });
    await settle(stack);
    const found = await expectOnePrintOrderOneAccept(stack, 2); // PO-EARLIER's create and PO-CUT's one
    expect(stack.upstreamCalls).toContain(`GET /api/v2/order/${(floor ?? 0) + 1}`);
    // Adopted and carried on: the merge started and the PO went into the order's history.
    const history = await stack.sandbox.control.orderHistory(found[0] ?? 0);
    expect(history.history.some((h) => h.comments?.includes('PO-CUT'))).toBe(true);
  });

  it('is found above the last print order of a quiet storefront, though it has shipped and newer POs came since', async () => {
    const { stack, floor } = await run({
      earlierPo: true,
      createFault: LOST,
      lasting: [{ match: REPORT, fault: OUTAGE }],
      async beforeCut(stack, floor) {
        // The earlier print order is closed (shipped), and its PO is no longer among the newest: 25 POs
        // since, none with a print order (cancellations here; another storefront's POs alike).
        const [tracked] = await stack.store.printOrders.listOpen();
        expect(tracked?.printOrderId).toBe(floor);
        const { storefrontId, printOrderId, poId } = tracked!;
        await stack.store.printOrders.update(storefrontId, printOrderId, { state: 'closed' });
        const { buyerId } = (await stack.store.orders.get(poId))!;
        for (let n = 1; n <= 25; n++) {
          await stack.store.orders.accept({
            buyerId,
            payloadId: `cancel-${n}@buyer.example`,
            orderId: `PO-GONE-${n}`,
            type: 'delete',
            state: 'cancelled',
            raw: '<cXML/>',
            document: {},
            answer: { code: 200, text: 'OK' },
          });
        }
        expect(await stack.store.printOrders.listOpen()).toEqual([]);
      },
    });
    await settle(stack);
    await expectOnePrintOrderOneAccept(stack, 2);
    expect(stack.upstreamCalls).toContain(`GET /api/v2/order/${(floor ?? 0) + 1}`);
  });

  it('is found through the order_details report by a gateway that knows no print order id yet', async () => {
    const { stack } = await run({ earlierPo: false, createFault: LOST });
    await settle(stack);
    const found = await printOrdersFor(stack, 'PO-CUT');
    expect(found).toHaveLength(1);
    expect(creates(stack)).toBe(1);
    expect(await purchaseOrder(stack, 'PO-CUT')).toMatchObject({ state: 'ordered', printOrderIds: found });
    expect(accepts(stack, 'PO-CUT')).toHaveLength(1);
  });

  it('a garbled answer to the create is settled the same way', async () => {
    const { stack } = await run({ earlierPo: true, createFault: { kind: 'malformed-json' } });
    await settle(stack);
    expect(await printOrdersFor(stack, 'PO-CUT')).toHaveLength(1);
    expect(creates(stack)).toBe(2);
    expect(accepts(stack, 'PO-CUT')).toHaveLength(1);
  });
});

describe('a PO of two design owners whose creates both lose their answers', () => {
  it('adopts each owner its own print order, in the PO line order, and confirms once', async () => {
    const faults = faultInjector();
    const stack = await createOrderStack(undefined, { wrapPrintFetch: faults.wrap, printTimeoutMs: 200 });
    const jane = await punchOut(stack, ['Business cards'], {
      uniqueName: 'jroe',
      userEmail: 'jane.roe@acme.example',
    });
    const max = await punchOut(stack, ['A5 flyer'], { uniqueName: 'mmax', userEmail: 'max@acme.example' });
    faults.inject({ match: CREATE, fault: LOST, times: 2 });
    expect(
      await sendOrder(stack, { orderID: 'PO-2OWNERS', lines: linesOf([...jane, ...max]) }),
    ).toMatchObject({ code: 200 });
    await settle(stack);
    const ids = await printOrdersFor(stack, 'PO-2OWNERS');
    expect(ids).toHaveLength(2);
    expect(creates(stack)).toBe(2);
    const orders = await Promise.all(ids.map((id) => stack.api.getOrder(id)));
    expect(orders.map((o) => o.items.map((i) => i.product_id))).toEqual([
      [jane[0]?.designId],
      [max[0]?.designId],
    ]);
    expect(await purchaseOrder(stack, 'PO-2OWNERS')).toMatchObject({
      state: 'ordered',
      flags: [],
      printOrderIds: ids,
    });
    expect(accepts(stack, 'PO-2OWNERS')).toHaveLength(1);
  });
});

describe('a print-order create that did not go through', () => {
  it('is created once after the ids above the last known one end in a run of 404s', async () => {
    const { stack, floor } = await run({
      earlierPo: true,
      createFault: NOT_SENT,
      lasting: [{ match: REPORT, fault: OUTAGE }],
    });
    await drain(stack);
    expect(creates(stack)).toBe(1); // the reset came before the request left
    // Meanwhile another customer checks out an order carrying the same PO number: not ours.
    const other = stack.sandbox.control.checkout({
      customerId: 202,
      items: [{ productId: 101, quantity: 1 }],
      payment: {
        methods: ['po'],
        reference: '',
        avsCode: '',
        cvCode: '',
        poNumber: 'PO-CUT',
        invoiceNumber: '',
      },
    });
    expect(other.id).toBeGreaterThan(floor ?? 0);
    await settle(stack);
    const found = await expectOnePrintOrderOneAccept(stack, 2);
    expect(found[0]).toBeGreaterThan(other.id);
  });

  it('is created once by a gateway that knows no print order id, from the newest order dated before the PO', async () => {
    const { stack } = await run({ earlierPo: false, createFault: { kind: 'timeout' } });
    await settle(stack);
    expect(await printOrdersFor(stack, 'PO-CUT')).toHaveLength(1);
    expect(creates(stack)).toBe(1);
    expect(await purchaseOrder(stack, 'PO-CUT')).toMatchObject({ state: 'ordered', flags: [] });
    expect(accepts(stack, 'PO-CUT')).toHaveLength(1);
  });
});

describe('a search that stays inconclusive', () => {
  it('goes on from where it got, then parks the PO for an operator after the bound, naming the PO and the ids', async () => {
    const { stack, faults, floor } = await run({
      earlierPo: true,
      createFault: LOST,
      lasting: [
        { match: REPORT, fault: OUTAGE },
        { match: READ_ORDER, fault: OUTAGE },
      ],
    });
    const next = (floor ?? 0) + 1;
    await settle(stack);
    expect(MAX_INCONCLUSIVE_SEARCHES).toBe(3);
    // Each round stopped at the first id it could not read, and the next one went on from there.
    expect(faults.applied.filter((call) => call === `GET /api/v2/order/${next}`)).toHaveLength(3);
    expect(stack.upstreamCalls).not.toContain(`GET /api/v2/order/${next + 1}`);
    const po = await purchaseOrder(stack, 'PO-CUT');
    expect(po).toMatchObject({
      state: 'needs_operator',
      flags: ['uncertain_print_order'],
      printOrderIds: [],
    });
    expect(await createAttemptsOf(stack, 'PO-CUT')).toEqual([{ index: 0, after: floor, searches: 2 }]);
    expect(po.lastError).toBe(
      'An earlier attempt to create the print order for PO PO-CUT (designs of jroe) was cut off, and 3 ' +
        `searches for it stayed inconclusive (last one: no id searched, order ${next} could not be read ` +
        `(unavailable 503); every id up to ${floor} is ruled out): look for an order with external id ` +
        'PO-CUT before retrying.',
    );
    expect(creates(stack)).toBe(2);
    expect(accepts(stack, 'PO-CUT')).toHaveLength(0);
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(1); // PO-EARLIER's accept only
  });

  it('a job that runs out of attempts first parks the PO too, never rejects it', async () => {
    const { stack } = await run({
      earlierPo: false,
      createFault: LOST,
      maxAttempts: 2,
      lasting: [{ match: REPORT, fault: OUTAGE }],
    });
    await settle(stack);
    const po = await purchaseOrder(stack, 'PO-CUT');
    expect(po).toMatchObject({
      state: 'needs_operator',
      flags: ['uncertain_print_order'],
    });
    expect(await createAttemptsOf(stack, 'PO-CUT')).toEqual([{ index: 0, searches: 1 }]);
    expect(po.lastError).toBe(
      'The search for the print order for PO PO-CUT (designs of jroe), whose create was cut off, was ' +
        'inconclusive (no id searched, no order id of the storefront from before the create is known to ' +
        'search upward from); it goes on later. The print order may have been created by an attempt that ' +
        'was cut off: look for an order with external id PO-CUT before retrying.',
    );
    expect(creates(stack)).toBe(1);
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(0);
  });
});
