/**
 * `POST /admin/orders/:id/notes`: a note on any PO at any time, kept with it, in its JSON and timeline,
 * in the audit trail (without its text), and changing nothing else about the PO.
 */
import { describe, expect, it } from 'vitest';
import { capturingLogger } from '../../support/capturing-logger.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';

const note = (stack: OrderStack, id: string, body: unknown) =>
  adminJson(stack, `/admin/orders/${id}/notes`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function placedOrder(logger = capturingLogger()) {
  const stack = await createOrderStack(undefined, { gatewayDeps: { logger } });
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  await sendOrder(stack, { payloadID: 'n1@ariba.example', orderID: 'PO-N1', lines: linesOf(cart) });
  await drain(stack);
  const order = await stack.store.orders.getByPayloadId('acme', 'n1@ariba.example');
  if (order === undefined) throw new Error('the PO was not taken in');
  return { stack, order, logger };
}

describe('POST /admin/orders/:id/notes', () => {
  it('keeps the note with the PO, in its JSON and timeline, audited, and leaves the PO as it was', async () => {
    const { stack, order, logger } = await placedOrder();
    stack.clock.advance(90);
    const written = stack.clock.now().toISOString();
    const answer = await note(stack, order.id, {
      text: '  Buyer phoned: deliver to gate 2, not reception.  ',
    });
    expect(answer).toEqual({
      status: 201,
      body: {
        note: {
          id: expect.any(String),
          text: 'Buyer phoned: deliver to gate 2, not reception.',
          author: 'admin API',
          createdAt: written,
        },
      },
    });
    // A note is not an action on the PO: no state change, no new version that would make forms stale.
    expect(await stack.store.orders.get(order.id)).toEqual(order);

    const detail = await adminJson(stack, `/admin/orders/${order.id}`);
    expect(detail.body.notes).toEqual([answer.body.note]);
    expect(detail.body.timeline.at(-1)).toEqual({
      at: written,
      event: 'note',
      detail: 'admin API: Buyer phoned: deliver to gate 2, not reception.',
    });
    const audit = logger.lines.filter(
      (l) => l.message === 'admin api call' && l.fields.path === `/admin/orders/${order.id}/notes`,
    );
    expect(audit.map((l) => [l.fields.method, l.fields.status])).toEqual([['POST', 201]]);
    expect(logger.lines.find((l) => l.message === 'note added to a purchase order')?.fields).toEqual({
      po: order.id,
      note: answer.body.note.id,
      author: 'admin API',
    });
    // The note's text is the PO's, not the log's.
    expect(logger.text()).not.toContain('gate 2');
  });

  it('refuses a blank, missing or too long text with a 400 naming the field, and an unknown PO with a 404', async () => {
    const { stack, order } = await placedOrder();
    const refused = {
      status: 400,
      body: { error: { code: 'bad_request', message: 'text must be 1 to 2000 characters, not blank.' } },
    };
    expect(await note(stack, order.id, { text: '   ' })).toEqual(refused);
    expect(await note(stack, order.id, {})).toEqual(refused);
    expect(await note(stack, order.id, { text: 42 })).toEqual(refused);
    expect(await note(stack, order.id, { text: 'x'.repeat(2001) })).toEqual(refused);
    expect(await note(stack, 'po_nope', { text: 'hello' })).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'No purchase order record po_nope.' } },
    });
    expect(await stack.store.orderNotes.listByPo(order.id)).toEqual([]);
    // 2000 characters are fine.
    expect((await note(stack, order.id, { text: 'x'.repeat(2000) })).status).toBe(201);
  });
});
