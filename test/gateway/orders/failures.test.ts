import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactSharedSecrets } from '../../../src/cxml/shared-secret.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  adminJson,
  adminRequest,
  createOrderStack,
  drain,
  linesOf,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
} from '../../support/order-flow.ts';
import { cxmlStatusAnswer } from '../../support/stack.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

describe('the print service down', () => {
  it('retries with backoff, then fails the PO and rejects it; an admin retry then places it', async () => {
    const stack = await createOrderStack();
    const cart = await punchOut(stack, ['Business cards']);
    stack.printServiceDown = true;
    expect(
      await sendOrder(stack, {
        payloadID: 'po-down@ariba.example',
        orderID: 'PO-DOWN',
        lines: linesOf(cart),
      }),
    ).toEqual({ code: 200, text: 'OK', detail: '' });
    const po = await stack.store.orders.getByPayloadId('acme', 'po-down@ariba.example');
    const job = async () => (await stack.store.jobs.list({ kind: 'process_order' })).items[0];

    await drain(stack);
    expect(await job()).toMatchObject({ state: 'pending', attempts: 1 });
    expect((await stack.store.orders.get(po?.id ?? ''))?.state).toBe('processing');
    // Backoff: 30 s after the first failure, 60 s after the second.
    stack.clock.advance(29);
    expect((await drain(stack)).jobs).toBe(0);
    stack.clock.advance(1);
    await drain(stack);
    expect(await job()).toMatchObject({ state: 'pending', attempts: 2 });
    stack.clock.advance(60);
    await drain(stack);
    expect(await job()).toMatchObject({ state: 'dead', attempts: 3 });

    const failed = await stack.store.orders.get(po?.id ?? '');
    expect(failed?.state).toBe('failed');
    expect(failed?.lastError).toBe('The print service could not create the print order (unavailable).');
    const rejects = receivedDocuments(stack, 'ConfirmationRequest');
    expect(rejects).toHaveLength(1);
    const reject = rejects[0]?.doc.Request.ConfirmationRequest;
    expect(reject.ConfirmationHeader['@type']).toBe('reject');
    expect(reject.ConfirmationHeader.Comments['#text']).toBe(
      'The supplier could not place this order: The print service could not create the print order (unavailable).',
    );
    expect(reject.OrderReference.DocumentReference['@payloadID']).toBe('po-down@ariba.example');
    expect(validateAgainstDtd(rejects[0]?.post.body ?? '', 'Fulfill')).toEqual({ ok: true, messages: '' });

    // The service is back; an operator retries the PO.
    stack.printServiceDown = false;
    const retried = await adminJson(stack, `/admin/orders/${po?.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    expect(retried.body.order).toMatchObject({ state: 'received' });
    await drain(stack);
    const ids = await printOrdersFor(stack, 'PO-DOWN');
    expect(ids).toHaveLength(1);
    expect((await stack.store.orders.get(po?.id ?? ''))?.state).toBe('ordered');
    const confirmations = receivedDocuments(stack, 'ConfirmationRequest').map(
      (d) => d.doc.Request.ConfirmationRequest.ConfirmationHeader,
    );
    // Every confirmation names what it confirms: before any print order, the PO record. The accept is a
    // confirmation of its own (version 1 of its confirmID), not a version of the reject it replaces.
    expect(confirmations.map((h) => [h['@type'], h['@confirmID'], h['@version']])).toEqual([
      ['reject', `PG-${po?.id}`, '1'],
      ['accept', String(ids[0]), '1'],
    ]);

    // Retrying an ordered PO is refused.
    const again = await adminJson(stack, `/admin/orders/${po?.id}/retry`, { method: 'POST' });
    expect(again).toEqual({
      status: 409,
      body: {
        error: {
          code: 'conflict',
          message: `Purchase order record ${po?.id} is ordered, so there is nothing to retry.`,
        },
      },
    });
  });
});

describe('the outbox to the buyer', () => {
  it('retries with backoff until a 2xx cXML Status, keeping the payloadID; dead letter after the last try; admin retry', async () => {
    const stack = await createOrderStack();
    let answer = (): Response => new Response('upstream error', { status: 502 });
    stack.answerOrderStatus = () => answer();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { orderID: 'PO-OUTBOX', lines: linesOf(cart) });
    await drain(stack);
    const message = async () => (await stack.store.outbox.list()).items[0];
    expect(await message()).toMatchObject({ state: 'pending', attempts: 1, lastError: 'HTTP 502' });

    // A buyer's cXML refusal is not a delivery either.
    answer = () => cxmlStatusAnswer(500, 'Internal Server Error');
    stack.clock.advance(60);
    await drain(stack);
    expect(await message()).toMatchObject({
      state: 'pending',
      attempts: 2,
      lastError: 'cXML Status 500 Internal Server Error',
    });
    stack.clock.advance(119);
    expect((await drain(stack)).messages).toBe(0);
    stack.clock.advance(1);
    await drain(stack);
    const dead = await message();
    expect(dead).toMatchObject({ state: 'dead', attempts: 3 });
    const payloadIds = new Set(stack.orderStatusPosts.map((p) => /payloadID="([^"]+)"/.exec(p.body)?.[1]));
    expect(stack.orderStatusPosts).toHaveLength(3);
    expect(payloadIds.size).toBe(1);

    const letters = await adminJson(stack, '/admin/dead-letters');
    expect(letters.body.messages).toMatchObject([
      {
        id: dead?.id,
        kind: 'confirmation',
        state: 'dead',
        lastError: 'cXML Status 500 Internal Server Error',
      },
    ]);
    expect(letters.body.jobs).toEqual([]);

    answer = () => cxmlStatusAnswer(200, 'OK');
    const retry = await adminJson(stack, `/admin/outbox/${dead?.id}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    await drain(stack);
    expect(await message()).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(stack.orderStatusPosts).toHaveLength(4);
    const full = await adminJson(stack, `/admin/outbox/${dead?.id}`);
    // The document as posted, our SharedSecret removed: an operator's copy must not carry it.
    expect(full.body.body).toBe(redactSharedSecrets(stack.orderStatusPosts[3]?.body ?? ''));
    expect(full.body.body).not.toContain('printco-secret');

    const notDead = await adminRequest(stack, `/admin/outbox/${dead?.id}/retry`, { method: 'POST' });
    expect(notDead.status).toBe(409);
  });

  it('an unreachable buyer endpoint is retried like any failure', async () => {
    const stack = await createOrderStack();
    stack.answerOrderStatus = () => {
      throw new TypeError('fetch failed');
    };
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { lines: linesOf(cart) });
    await drain(stack);
    expect((await stack.store.outbox.list()).items[0]).toMatchObject({
      state: 'pending',
      lastError: 'not reached: fetch failed',
    });
  });
});
