import { afterAll, describe, expect, it } from 'vitest';
import { type Fault, faultInjector } from '../support/fault-injector.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../support/order-flow.ts';

const outcomes: string[] = [];
afterAll(() => console.log(`[faults] PO job\n${outcomes.join('\n')}`));

/** The calls of the PO job, in the order it makes them. */
const STEPS: [string, RegExp][] = [
  ['create the print order', /^POST \/api\/v2\/pipo\/order\/create$/],
  ['start the file merge', /^GET \/api\/v2\/pipo\/order\/\d+\/process$/],
  ['read the print order', /^GET \/api\/v2\/order\/\d+$/],
  ['write the PO into its history', /^PATCH \/api\/v2\/order\/\d+\/status$/],
];

const FAULTS: [string, Fault][] = [
  ['times out', { kind: 'timeout' }],
  ['resets the connection', { kind: 'reset' }],
  ['answers 503', { kind: 'status', status: 503 }],
  ['garbles its JSON answer', { kind: 'malformed-json' }],
  ['acts but the answer is lost', { kind: 'lost-answer' }],
];

/** Ticks the worker through its backoff (30 s, then 60 s) until the PO settles. */
async function settle(stack: OrderStack): Promise<void> {
  await drain(stack);
  for (const seconds of [30, 60, 120]) {
    stack.clock.advance(seconds);
    await drain(stack);
  }
}

describe('the PO job meets a misbehaving print service once at each step: exactly one print order', () => {
  const cases = STEPS.flatMap(([step, match]) =>
    FAULTS.map(([label, fault]) => [step, label, match, fault] as const),
  );

  it.each(cases)('%s: the service %s', async (step, label, match, fault) => {
    const faults = faultInjector();
    const stack = await createOrderStack(undefined, { wrapPrintFetch: faults.wrap, printTimeoutMs: 200 });
    const cart = await punchOut(stack, ['Business cards']);
    faults.inject({ match, fault, times: 1 });
    const orderID = `PO-${STEPS.findIndex(([s]) => s === step)}-${FAULTS.findIndex(([l]) => l === label)}`;
    expect(await sendOrder(stack, { orderID, lines: linesOf(cart) })).toEqual({
      code: 200,
      text: 'OK',
      detail: '',
    });
    await settle(stack);
    const printOrders = await printOrdersFor(stack, orderID);
    const [po] = (await stack.store.orders.list()).items;
    outcomes.push(
      `${step}, service ${label}: fault applied ${faults.applied.length}×, ${printOrders.length} print order(s), PO ${po?.state}`,
    );
    expect(faults.applied).toHaveLength(1);
    // A create whose outcome is unknown (no answer, or one we cannot read) is settled by looking for the
    // order it may have made before creating again: found, it is adopted; absent, it is created once.
    expect(printOrders).toHaveLength(1);
    expect(po).toMatchObject({ orderId: orderID, state: 'ordered' });
  });
});
