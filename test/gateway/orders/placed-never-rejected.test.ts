/**
 * Never a reject for an order in production (issue 16): once the print service has created the print
 * order, a later step that fails for good (here the history note, refused with 413) leaves the PO with an
 * operator and tells the buyer what exists — an `accept` naming the print order — instead of `reject`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

describe('a failure after the print order exists', () => {
  it('a 413 on the history note does not reject: the buyer gets the accept, an operator the rest', async () => {
    let refuseHistory = true;
    const stack = await createOrderStack(undefined, {
      wrapPrintFetch: (inner) => async (input, init) => {
        const request = new Request(input, init);
        const isHistoryNote =
          request.method === 'PATCH' && /\/order\/\d+\/status$/.test(new URL(request.url).pathname);
        if (refuseHistory && isHistoryNote) {
          return new Response(JSON.stringify({ message: 'request entity too large' }), {
            status: 413,
            headers: { 'Content-Type': 'application/json' },
          });
        }
        return inner(request);
      },
    });
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    const payloadID = 'po-413@ariba.example';
    expect(await sendOrder(stack, { payloadID, orderID: 'PO-413', lines: linesOf(cart) })).toMatchObject({
      code: 200,
    });
    for (let round = 0; round < 6; round++) {
      await drain(stack);
      stack.clock.advance(3600);
    }

    const printOrders = await printOrdersFor(stack, 'PO-413');
    expect(printOrders).toHaveLength(1);
    const po = await stack.store.orders.getByPayloadId('acme', payloadID);
    expect(po).toMatchObject({
      state: 'needs_operator',
      flags: expect.arrayContaining(['placed_incomplete']),
    });
    const sent = receivedDocuments(stack, 'ConfirmationRequest');
    expect(sent.map(({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'])).toEqual([
      'accept',
    ]);
    expect(sent[0]?.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']).toBe(
      String(printOrders[0]),
    );
    expect(validateAgainstDtd(sent[0]?.post.body ?? '', 'Fulfill')).toEqual({ ok: true, messages: '' });

    // The operator's retry, once the service takes the note, finishes the order without a second print
    // order or a second confirmation.
    refuseHistory = false;
    expect(await adminJson(stack, `/admin/orders/${po?.id}/retry`, { method: 'POST' })).toMatchObject({
      status: 202,
    });
    await drain(stack);
    expect(await printOrdersFor(stack, 'PO-413')).toEqual(printOrders);
    expect((await stack.store.orders.get(po?.id ?? ''))?.state).toBe('ordered');
    expect(receivedDocuments(stack, 'ConfirmationRequest')).toHaveLength(1);
  });
});
