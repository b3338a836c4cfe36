import { afterAll, describe, expect, it } from 'vitest';
import { type Fault, faultInjector } from '../support/fault-injector.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../support/order-flow.ts';

const outcomes: string[] = [];
afterAll(() => console.log(`[faults] cut-off create, then a fault in the search\n${outcomes.join('\n')}`));

const CREATE = /^POST \/api\/v2\/pipo\/order\/create$/;

/** Create faults after which the gateway cannot tell whether the print order was made. */
const CREATE_FAULTS: [string, Fault][] = [
  ['acts but the answer is lost', { kind: 'lost-answer' }],
  ['garbles its answer after acting', { kind: 'malformed-json' }],
  ['times out before acting', { kind: 'timeout' }],
  ['resets the connection before acting', { kind: 'reset' }],
];

/** One fault in the round that searches for the order. */
const SEARCH_FAULTS: [string, RegExp, Fault][] = [
  ['an order read answers 503', /^GET \/api\/v2\/order\/\d+$/, { kind: 'status', status: 503 }],
  ['an order read times out', /^GET \/api\/v2\/order\/\d+$/, { kind: 'timeout' }],
  ['an order read is garbled', /^GET \/api\/v2\/order\/\d+$/, { kind: 'malformed-json' }],
  [
    'the order_details report answers 503',
    /^GET \/api\/v2\/report\/order_details$/,
    { kind: 'status', status: 503 },
  ],
];

const creates = (stack: OrderStack) =>
  stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;

describe('a create whose outcome is unknown, then a print service fault while searching: one print order, one accept', () => {
  const cases = [true, false].flatMap((earlierPo) =>
    CREATE_FAULTS.flatMap(([createLabel, createFault]) =>
      SEARCH_FAULTS.map(
        ([searchLabel, match, searchFault]) =>
          [
            earlierPo ? 'known last print order' : 'no print order known',
            createLabel,
            searchLabel,
            earlierPo,
            createFault,
            match,
            searchFault,
          ] as const,
      ),
    ),
  );

  it.each(cases)(
    '%s: the create %s; %s',
    async (floorLabel, createLabel, searchLabel, earlierPo, createFault, match, searchFault) => {
      const faults = faultInjector();
      const stack = await createOrderStack(undefined, { wrapPrintFetch: faults.wrap, printTimeoutMs: 200 });
      if (earlierPo) {
        const earlier = await punchOut(stack, ['Business cards']);
        await sendOrder(stack, { orderID: 'PO-EARLIER', lines: linesOf(earlier) });
        await drain(stack);
      }
      const cart = await punchOut(stack, ['Business cards']);
      faults.inject({ match: CREATE, fault: createFault, times: 1 });
      expect(await sendOrder(stack, { orderID: 'PO-CUT', lines: linesOf(cart) })).toMatchObject({
        code: 200,
      });
      await drain(stack);
      const reached = creates(stack);
      // The next attempt searches, and meets the fault.
      faults.inject({ match, fault: searchFault, times: 1 });
      for (const seconds of [30, 60, 120, 240]) {
        stack.clock.advance(seconds);
        await drain(stack);
      }
      const printOrders = await printOrdersFor(stack, 'PO-CUT');
      const [po] = (await stack.store.orders.list()).items.filter((o) => o.orderId === 'PO-CUT');
      const accepts = receivedDocuments(stack, 'ConfirmationRequest').filter(
        ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'] === 'PO-CUT',
      );
      outcomes.push(
        `${floorLabel}; create ${createLabel}; ${searchLabel}: ${printOrders.length} print order(s), ` +
          `${creates(stack) - reached} create(s) after the cut-off one, PO ${po?.state}`,
      );
      expect(faults.applied).toHaveLength(2);
      expect(match.test(faults.applied[1] ?? '')).toBe(true);
      expect(printOrders).toHaveLength(1);
      expect(po).toMatchObject({ state: 'ordered', flags: [], printOrderIds: printOrders });
      expect(accepts).toHaveLength(1);
      expect(accepts[0]?.doc.Request.ConfirmationRequest.ConfirmationHeader['@type']).toBe('accept');
      // Only a create that never reached the service is made again.
      const madeBefore = createFault.kind === 'lost-answer' || createFault.kind === 'malformed-json';
      expect(creates(stack) - reached).toBe(madeBefore ? 0 : 1);
    },
  );
});
