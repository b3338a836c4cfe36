/**
 * The operator's way out of a PO whose print-order create outcome is unknown (issue 16): a retry is refused
 * (it could print the order twice), "attach print order N" adopts the order the operator found once it is
 * verified to carry the PO number — the buyer gets the accept, the order is tracked, nothing is created
 * again — and "mark handled" takes a parked PO out of the queue with a note and no buyer document.
 */
import { describe, expect, it } from 'vitest';
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
const OUTAGE: Fault = { kind: 'status', status: 503 };

const creates = (stack: OrderStack) =>
  stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;

const post = (stack: OrderStack, path: string, body?: unknown) =>
  adminJson(stack, path, {
    method: 'POST',
    ...(body !== undefined && {
      headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  });

async function settle(stack: OrderStack): Promise<void> {
  await drain(stack);
  for (let round = 0, wait = 30; round < 6; round++, wait *= 2) {
    stack.clock.advance(wait);
    await drain(stack);
  }
}

/** PO-EARLIER placed normally, then PO-CUT whose create answer is lost while the search cannot read. */
async function parkedPo() {
  const faults = faultInjector();
  const stack = await createOrderStack(orderConfig(), { wrapPrintFetch: faults.wrap, printTimeoutMs: 200 });
  await stack.worker.startup();
  const earlier = await punchOut(stack, ['Business cards']);
  expect(await sendOrder(stack, { orderID: 'PO-EARLIER', lines: linesOf(earlier) })).toMatchObject({
    code: 200,
  });
  await drain(stack);
  const [earlierPrintOrder] = await printOrdersFor(stack, 'PO-EARLIER');
  const cart = await punchOut(stack, ['Business cards']);
  faults.inject({ match: CREATE, fault: LOST, times: 1 });
  faults.inject({ match: REPORT, fault: OUTAGE });
  faults.inject({ match: READ_ORDER, fault: OUTAGE });
  expect(await sendOrder(stack, { orderID: 'PO-CUT', lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await settle(stack);
  faults.clear();
  const po = (await stack.store.orders.list()).items.find((o) => o.orderId === 'PO-CUT');
  expect(po).toMatchObject({
    state: 'needs_operator',
    flags: expect.arrayContaining(['uncertain_print_order']),
  });
  const [made] = await printOrdersFor(stack, 'PO-CUT');
  expect(made).toBeDefined();
  return { stack, id: po?.id ?? '', made: made ?? 0, earlierPrintOrder: earlierPrintOrder ?? 0 };
}

const accepts = (stack: OrderStack, orderID: string) =>
  receivedDocuments(stack, 'ConfirmationRequest').filter(
    ({ doc }) =>
      doc.Request.ConfirmationRequest.ConfirmationHeader['@type'] === 'accept' &&
      doc.Request.ConfirmationRequest.OrderReference['@orderID'] === orderID,
  );

describe('a PO whose create outcome is unknown', () => {
  it('refuses a retry with a message that says to look for the order and attach it or mark it handled', async () => {
    const { stack, id } = await parkedPo();
    expect(await post(stack, `/admin/orders/${id}/retry`)).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message:
            `Purchase order record ${id} is not retried: an earlier create of its print order may have gone ` +
            'through. Look for a print order with PO number PO-CUT; if there is one, attach it ' +
            `(POST /admin/orders/${id}/attach), otherwise place the order by hand and mark the PO handled ` +
            `(POST /admin/orders/${id}/handled).`,
        },
      },
    });
    expect(creates(stack)).toBe(2);
  });

  it('refuses to attach a print order that does not carry the PO number, or does not exist', async () => {
    const { stack, id, earlierPrintOrder } = await parkedPo();
    expect(await post(stack, `/admin/orders/${id}/attach`, { printOrderId: earlierPrintOrder })).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message:
            `Print order ${earlierPrintOrder} carries PO number "PO-EARLIER", not "PO-CUT": it is not the ` +
            `print order of purchase order record ${id}.`,
        },
      },
    });
    expect(await post(stack, `/admin/orders/${id}/attach`, { printOrderId: 999999 })).toEqual({
      status: 404,
      body: {
        error: { code: 'not_found', message: 'Print order 999999 does not exist on the print service.' },
      },
    });
    expect(await post(stack, `/admin/orders/${id}/attach`, { printOrderId: '12' })).toEqual({
      status: 400,
      body: { error: { code: 'bad_request', message: 'printOrderId must be a positive whole number.' } },
    });
    expect(await post(stack, `/admin/orders/${id}/attach`, 'not json')).toEqual({
      status: 400,
      body: { error: { code: 'bad_request', message: 'The request body must be a JSON object.' } },
    });
    expect((await stack.store.orders.get(id))?.state).toBe('needs_operator');
    expect(accepts(stack, 'PO-CUT')).toHaveLength(0);
  });

  it('attach print order N: the PO is ordered with it, tracked, and the buyer gets the accept; no second create', async () => {
    const { stack, id, made } = await parkedPo();
    const attached = await post(stack, `/admin/orders/${id}/attach`, { printOrderId: made });
    expect(attached).toMatchObject({
      status: 202,
      body: { order: { id, state: 'received', printOrderIds: [made], flags: ['print_order_attached'] } },
    });
    await drain(stack);
    expect(await stack.store.orders.get(id)).toMatchObject({ state: 'ordered', printOrderIds: [made] });
    expect(await stack.store.printOrders.listByPo(id)).toMatchObject([
      { printOrderId: made, confirmed: true },
    ]);
    const sent = accepts(stack, 'PO-CUT');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']).toBe(String(made));
    expect(creates(stack)).toBe(2);
    expect(await printOrdersFor(stack, 'PO-CUT')).toEqual([made]);
    const history = stack.sandbox.control.orderHistory(made).history;
    expect(history.some((h) => h.comments?.startsWith('Purchase order PO-CUT'))).toBe(true);
    // Attached once: a second attach is refused.
    expect(await post(stack, `/admin/orders/${id}/attach`, { printOrderId: made })).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: `Purchase order record ${id} is ordered; a print order is attached only to a PO waiting for an operator or failed.`,
        },
      },
    });
  });

  it('mark handled: the PO leaves the queue with the note, and the buyer gets no document', async () => {
    const { stack, id } = await parkedPo();
    const documents = stack.orderStatusPosts.length;
    expect(await post(stack, `/admin/orders/${id}/handled`, { note: '' })).toEqual({
      status: 400,
      body: { error: { code: 'bad_request', message: 'note must be text of 1 to 2000 characters.' } },
    });
    const handled = await post(stack, `/admin/orders/${id}/handled`, {
      note: 'Placed by phone as order 4711.',
    });
    expect(handled).toMatchObject({
      status: 200,
      body: {
        order: {
          id,
          state: 'cancelled',
          lastError: 'Handled by an operator: Placed by phone as order 4711.',
          flags: expect.arrayContaining(['handled_by_operator']),
        },
      },
    });
    expect((await adminJson(stack, '/admin/orders?state=needs_operator')).body.items).toEqual([]);
    await settle(stack);
    expect(stack.orderStatusPosts.length).toBe(documents);
    expect(await post(stack, `/admin/orders/${id}/handled`, { note: 'again' })).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: `Purchase order record ${id} is cancelled; only a PO waiting for an operator can be marked handled.`,
        },
      },
    });
  });
});
