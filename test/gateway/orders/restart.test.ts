import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/port.ts';
import { createSqliteStore } from '../../../src/store/sqlite.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  restartWorker,
  sendOrder,
} from '../../support/order-flow.ts';
import { START } from '../../support/stack.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A stack whose gateway keeps its records in a SQLite file on the stack's clock. */
async function sqliteStack(): Promise<{ stack: OrderStack; open: () => Store }> {
  const folder = mkdtempSync(join(tmpdir(), 'punchgate-orders-'));
  folders.push(folder);
  const path = join(folder, 'gateway.db');
  let stack: OrderStack | undefined;
  const clock = { now: () => stack?.clock.now() ?? new Date(START) };
  const open = () => createSqliteStore({ path, clock });
  stack = await createOrderStack(undefined, { store: open() });
  return { stack, open };
}

const createCalls = (calls: readonly string[]) =>
  calls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;

describe('the gateway stopped between accepting and processing (SQLite)', () => {
  it('finishes the job after a restart, exactly once', async () => {
    const { stack, open } = await sqliteStack();
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-RESTART', lines: linesOf(cart) })).toMatchObject({
      code: 200,
    });
    // Stopped: no tick ran, the store is closed.
    await stack.store.close();

    await stack.restartGateway(open());
    restartWorker(stack);
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-RESTART')).toHaveLength(1);
    expect(createCalls(stack.upstreamCalls)).toBe(1);
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(1);
    const [po] = (await stack.store.orders.list()).items;
    expect(po).toMatchObject({ state: 'ordered', orderId: 'PO-RESTART' });

    // A later restart finds nothing left to do.
    await stack.store.close();
    await stack.restartGateway(open());
    restartWorker(stack);
    await drain(stack);
    expect(createCalls(stack.upstreamCalls)).toBe(1);
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(1);
    await stack.store.close();
  });

  it('a worker that died holding the job: the job is taken over once its lease has run out, exactly once', async () => {
    const { stack, open } = await sqliteStack();
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-LEASE', lines: linesOf(cart) })).toMatchObject({
      code: 200,
    });
    // The first instance claims the job, then dies before doing anything.
    const claimed = await stack.store.jobs.claim(stack.clock.now(), 5 * 60_000, ['process_order']);
    expect(claimed).toMatchObject({ kind: 'process_order', attempts: 1 });
    await stack.store.close();

    await stack.restartGateway(open());
    restartWorker(stack);
    await drain(stack);
    expect(createCalls(stack.upstreamCalls)).toBe(0);

    stack.clock.advance(5 * 60 + 1);
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-LEASE')).toHaveLength(1);
    expect(createCalls(stack.upstreamCalls)).toBe(1);
    expect(await stack.store.jobs.get(claimed?.id ?? '')).toMatchObject({ state: 'done', attempts: 2 });
    await stack.store.close();
  });
});

describe('a print order create whose answer was lost', () => {
  it('is not tried again blindly: the order it made is found and adopted, nothing is ordered twice', async () => {
    // The print service makes the order, but the answer that comes back is garbage.
    const stack = await createOrderStack(undefined, {
      wrapPrintFetch: (inner) => async (input, init) => {
        const response = await inner(input, init);
        const url = new Request(input, init).url;
        return url.endsWith('/pipo/order/create')
          ? new Response('<html>504 Gateway Time-out</html>')
          : response;
      },
    });
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-LOST', lines: linesOf(cart) })).toMatchObject({ code: 200 });
    await drain(stack);
    stack.clock.advance(60);
    await drain(stack);

    const printOrders = await printOrdersFor(stack, 'PO-LOST');
    expect(printOrders).toHaveLength(1);
    expect(createCalls(stack.upstreamCalls)).toBe(1);
    const [po] = (await stack.store.orders.list()).items;
    const { body } = await adminJson(stack, `/admin/orders/${po?.id}`);
    expect(body).toMatchObject({ state: 'ordered', flags: [], printOrderIds: printOrders });
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(1);
  });
});
