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

  it('gets its job back once when its create may have been cut off, and the search settles it', async () => {
    const base = orderConfig();
    const stack = await createOrderStack(orderConfig({ orders: { ...base.orders, maxAttempts: 1 } }));
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { orderID: 'PO-CRASHED', lines: linesOf(cart) });
    const [po] = (await stack.store.orders.list()).items;
    // Killed right after marking the create (the sandbox's newest order is 1020): the create never left.
    await stack.store.jobs.claim(stack.clock.now(), 60_000, ['process_order']);
    await stack.store.orders.update(po?.id ?? '', { state: 'processing', flags: ['creating:0:after=1020'] });
    stack.clock.advance(10 * 60);
    await drain(stack);

    expect(await stack.store.orders.get(po?.id ?? '')).toMatchObject({
      state: 'ordered',
      flags: ['resumed_after_crash'],
    });
    expect(stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create')).toHaveLength(1);
    expect((await stack.store.jobs.list({ kind: 'process_order' })).items[0]).toMatchObject({
      state: 'done',
    });
  });

  it('goes to an operator when the resumed job dies too', async () => {
    const base = orderConfig();
    const stack = await createOrderStack(orderConfig({ orders: { ...base.orders, maxAttempts: 1 } }));
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { orderID: 'PO-CRASHED-TWICE', lines: linesOf(cart) });
    const [po] = (await stack.store.orders.list()).items;
    await stack.store.jobs.claim(stack.clock.now(), 60_000, ['process_order']);
    await stack.store.orders.update(po?.id ?? '', {
      state: 'processing',
      flags: ['creating:0:after=1020', 'resumed_after_crash'],
    });
    stack.clock.advance(10 * 60);
    await drain(stack);

    expect(await stack.store.orders.get(po?.id ?? '')).toMatchObject({ state: 'needs_operator' });
    expect(stack.upstreamCalls).not.toContain('POST /api/v2/pipo/order/create');
  });
});
