import { describe, expect, it } from 'vitest';
import { createOrderStack, drain, linesOf, orderConfig, punchOut, sendOrder } from '../orders/order-flow.ts';

describe('a PO whose job died with the process on its last attempt', () => {
  it('is handed to an operator instead of staying in processing forever', async () => {
    const base = orderConfig();
    const stack = await createOrderStack(orderConfig({ orders: { ...base.orders, maxAttempts: 1 } }));
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-ABANDONED', lines: linesOf(cart) })).toMatchObject({
      code: 200,
    });
    const [po] = (await stack.store.orders.list()).items;
    // A worker claims the job, moves the PO to processing, and is killed (SIGKILL): nothing more happens.
    const claimed = await stack.store.jobs.claim(stack.clock.now(), 60_000, ['process_order']);
    expect(claimed).toMatchObject({ attempts: 1, maxAttempts: 1 });
    await stack.store.orders.update(po?.id ?? '', { state: 'processing' });
    // A restarted worker finds the lease expired on the last attempt.
    stack.clock.advance(10 * 60);
    await drain(stack);
    const job = (await stack.store.jobs.list({ kind: 'process_order' })).items[0];
    expect(job).toMatchObject({ state: 'dead', lastError: 'lease expired on attempt 1' });
    const settled = await stack.store.orders.get(po?.id ?? '');
    expect(settled).toMatchObject({
      state: 'needs_operator',
      lastError:
        'Processing stopped in the middle of its last attempt (lease expired on attempt 1): look for an order with external id PO-ABANDONED before retrying.',
    });
    expect(stack.upstreamCalls).not.toContain('POST /api/v2/pipo/order/create');
  });
});
