/**
 * The console's actions over HTTP (issue 20): each asks for confirmation first, needs the session's CSRF
 * token (403 and nothing changed without it), is refused with the current state shown when the PO changed
 * since the page was read, and goes through the API's own functions: attaching the print order a cut-off
 * create made settles the PO without a second create; a retry that could print twice is refused with the
 * reason; a dead letter goes back to the outbox.
 */
import { describe, expect, it } from 'vitest';
import {
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
  buyersWith,
} from '../../../support/order-flow.ts';
import { cxmlStatusAnswer } from '../../../support/stack.ts';
import { creates, type Operator, parkedPo as parked, settle, signIn } from './console-support.ts';

async function parkedPo() {
  const found = await parked();
  return { ...found, operator: await signIn(found.stack) };
}

/** The `seen` version the PO page's forms carry. */
async function seenOf(operator: Operator, id: string): Promise<string> {
  const page = await (await operator.get(`/admin/ui/orders/${id}`)).text();
  return /name="seen" value="([^"]+)"/.exec(page)?.[1] ?? '';
}

describe('console actions', () => {
  it('attach: a confirmation first, then the PO is settled with that print order and nothing is created again', async () => {
    const { stack, id, made, operator } = await parkedPo();
    const before = creates(stack);
    const seen = await seenOf(operator, id);
    const path = `/admin/ui/orders/${id}/actions/attach`;
    const asked = await operator.post(path, { csrf: operator.csrf, seen, printOrderId: String(made) });
    expect(asked.status).toBe(200);
    const question = await asked.text();
    expect(question).toContain(`Attach print order ${made} to purchase order PO-CUT?`);
    expect(question).toContain('name="confirmed" value="yes"');
    expect((await stack.store.orders.get(id))?.state).toBe('needs_operator');

    const done = await operator.post(path, {
      csrf: operator.csrf,
      seen,
      printOrderId: String(made),
      confirmed: 'yes',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('Location')).toBe(`/admin/ui/orders/${id}?done=attach`);
    expect(await (await operator.get(`/admin/ui/orders/${id}?done=attach`)).text()).toContain(
      'The print order is attached.',
    );
    await drain(stack);
    expect(await stack.store.orders.get(id)).toMatchObject({ state: 'ordered', printOrderIds: [made] });
    expect(creates(stack)).toBe(before);
  });

  it('a missing or forged CSRF token: 403 and the PO unchanged', async () => {
    const { stack, id, made, operator } = await parkedPo();
    const seen = await seenOf(operator, id);
    const path = `/admin/ui/orders/${id}/actions/attach`;
    for (const csrf of [undefined, 'forged']) {
      const fields = {
        seen,
        printOrderId: String(made),
        confirmed: 'yes',
        ...(csrf !== undefined && { csrf }),
      };
      const res = await operator.post(path, fields);
      expect(res.status).toBe(403);
    }
    expect(await stack.store.orders.get(id)).toMatchObject({ state: 'needs_operator', printOrderIds: [] });
  });

  it('a PO that changed since the page was read: refused with its current state, nothing done', async () => {
    const { stack, id, operator } = await parkedPo();
    const seen = await seenOf(operator, id);
    stack.clock.advance(5);
    await stack.store.orders.update(id, { lastError: 'Something else happened meanwhile' });
    const res = await operator.post(`/admin/ui/orders/${id}/actions/handled`, {
      csrf: operator.csrf,
      seen,
      note: 'placed by phone',
      confirmed: 'yes',
    });
    expect(res.status).toBe(409);
    const page = await res.text();
    expect(page).toContain(`Purchase order ${id} changed meanwhile: it is now needs_operator (updated `);
    expect(page).toContain('nothing was done. The page below shows the purchase order as it is now');
    expect(page).toContain('Something else happened meanwhile');
    expect(page).toContain('<h1>Purchase order PO-CUT</h1>');
    expect((await stack.store.orders.get(id))?.state).toBe('needs_operator');
  });

  it('retry of a PO whose create may have gone through: refused with the reason', async () => {
    const { stack, id, operator } = await parkedPo();
    const seen = await seenOf(operator, id);
    const res = await operator.post(`/admin/ui/orders/${id}/actions/retry`, {
      csrf: operator.csrf,
      seen,
      confirmed: 'yes',
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('an earlier create of its print order may have gone through');
    expect((await stack.store.orders.get(id))?.state).toBe('needs_operator');
  });

  it('mark handled with a note', async () => {
    const { stack, id, operator } = await parkedPo();
    const seen = await seenOf(operator, id);
    const empty = await operator.post(`/admin/ui/orders/${id}/actions/handled`, {
      csrf: operator.csrf,
      seen,
      note: ' ',
    });
    expect(empty.status).toBe(400);
    const res = await operator.post(`/admin/ui/orders/${id}/actions/handled`, {
      csrf: operator.csrf,
      seen,
      note: 'placed by phone',
      confirmed: 'yes',
    });
    expect(res.status).toBe(303);
    expect(await stack.store.orders.get(id)).toMatchObject({
      state: 'cancelled',
      lastError: 'Handled by an operator: placed by phone',
    });
  });
});

/** A poster ordered at 18.50 that the print service charges 19.75, shipped: its invoice is held. */
async function heldInvoice() {
  const base = orderConfig();
  const stack = await createOrderStack({
    ...base,
    buyers: buyersWith(base.buyers, 'acme', { invoices: { send: 'on-ship' as const } }),
  });
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Custom-size poster']);
  expect(
    await sendOrder(stack, { payloadID: 'PO-HELD@ariba.example', orderID: 'PO-HELD', lines: linesOf(cart) }),
  ).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, 'PO-HELD');
  await stack.api.markShipped(printOrderId!, { trackingNumber: '1Z999AA10123456784' });
  await drain(stack);
  const po = await stack.store.orders.getByPayloadId('acme', 'PO-HELD@ariba.example');
  return { stack, id: po!.id, operator: await signIn(stack) };
}

describe('console: held invoices', () => {
  it("a held invoice survives Retry and goes out with “invoice at the PO's prices”, the amounts asked first", async () => {
    const { stack, id, operator } = await heldInvoice();
    const page = await (await operator.get(`/admin/ui/orders/${id}`)).text();
    expect(page).toContain('<h2>Held invoices</h2>');
    expect(page).toContain('beyond the 1% tolerance');
    expect(page).toMatch(/29\.98 USD<\/td><td class="num">31\.33 USD/);

    const retried = await operator.post(`/admin/ui/orders/${id}/actions/retry`, {
      csrf: operator.csrf,
      seen: await seenOf(operator, id),
      confirmed: 'yes',
    });
    expect(retried.status).toBe(303);
    await drain(stack);
    expect(await stack.store.orders.get(id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_held'],
    });
    expect(await (await operator.get('/admin/ui/orders?state=needs_operator')).text()).toContain('PO-HELD');

    const path = `/admin/ui/orders/${id}/actions/invoice-po`;
    const seen = await seenOf(operator, id);
    const asked = await operator.post(path, { csrf: operator.csrf, seen });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(
      'Send the held invoice of purchase order PO-HELD to the buyer at the PO&#39;s prices? print order',
    );
    const done = await operator.post(path, { csrf: operator.csrf, seen, confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect(done.headers.get('Location')).toBe(`/admin/ui/orders/${id}?done=invoice-po`);
    await drain(stack);
    const invoices = stack.orderStatusPosts.filter((p) => p.body.includes('<InvoiceDetailRequest'));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]?.body).toMatch(/<DueAmount>\s*<Money currency="USD">29\.98<\/Money>\s*<\/DueAmount>/);
    expect(await stack.store.orders.get(id)).toMatchObject({ state: 'ordered' });
    expect(await (await operator.get(`/admin/ui/orders/${id}`)).text()).not.toContain(
      '<h2>Held invoices</h2>',
    );
  });

  it('the questions of Retry and Mark handled on a held PO say what becomes of its held invoice, with the amount', async () => {
    const { stack, id, operator } = await heldInvoice();
    const [printOrderId] = await printOrdersFor(stack, 'PO-HELD');
    const held = `held — at the PO&#39;s prices, print order ${printOrderId} (shipment 1): 29.98 USD due — and the PO waits for an operator until it is invoiced or waived.`;
    const stays = `The held invoice stays ${held}`;
    const seen = await seenOf(operator, id);
    const retry = await operator.post(`/admin/ui/orders/${id}/actions/retry`, { csrf: operator.csrf, seen });
    expect(await retry.text()).toContain(
      `Look at the held invoice of purchase order PO-HELD again, as the print service has its print order now? Nothing is placed again; an invoice goes out only if its print order was put right. If not, the held invoice stays ${held}`,
    );
    const handled = await operator.post(`/admin/ui/orders/${id}/actions/handled`, {
      csrf: operator.csrf,
      seen,
      note: 'settled by phone',
    });
    const question = await handled.text();
    expect(question).toContain(
      `Mark purchase order PO-HELD handled with the note &quot;settled by phone&quot;? The buyer gets no document. ${stays}`,
    );
    expect(question).not.toContain('leaves the operator');
    // Only questions: nothing was done.
    expect(await stack.store.orders.get(id)).toMatchObject({
      state: 'needs_operator',
      flags: ['invoice_held'],
    });
  });

  it('waive needs a note, states the amount, and sends nothing', async () => {
    const { stack, id, operator } = await heldInvoice();
    const path = `/admin/ui/orders/${id}/actions/waive-invoice`;
    const seen = await seenOf(operator, id);
    expect((await operator.post(path, { csrf: operator.csrf, seen, note: '' })).status).toBe(400);
    const asked = await operator.post(path, { csrf: operator.csrf, seen, note: 'buyer self-bills' });
    expect(await asked.text()).toContain('29.98 USD due');
    const done = await operator.post(path, {
      csrf: operator.csrf,
      seen,
      note: 'buyer self-bills',
      confirmed: 'yes',
    });
    expect(done.status).toBe(303);
    await drain(stack);
    expect(stack.orderStatusPosts.filter((p) => p.body.includes('<InvoiceDetailRequest'))).toEqual([]);
    expect(await stack.store.invoiceHolds.listByPo(id)).toMatchObject([
      { state: 'waived', note: 'buyer self-bills' },
    ]);
  });
});

describe('console document actions', () => {
  it('a dead letter is moved back to the outbox and delivered', async () => {
    const stack = await createOrderStack(orderConfig());
    await stack.worker.startup();
    stack.answerOrderStatus = () => new Response('down', { status: 500 });
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-DEAD', lines: linesOf(cart) })).toMatchObject({ code: 200 });
    await settle(stack);
    const po = (await stack.store.orders.list()).items.find((o) => o.orderId === 'PO-DEAD');
    const dead = (await stack.store.outbox.list({ poId: po?.id ?? '', state: 'dead' })).items[0];
    expect(dead).toBeDefined();
    const operator = await signIn(stack);
    const id = po?.id ?? '';
    // The PO waits for an operator, saying which document was given up and why.
    expect(await stack.store.orders.get(id)).toMatchObject({
      state: 'needs_operator',
      flags: ['document_dead'],
      lastError: `Document to the buyer given up: the confirmation document ${dead?.dedupeKey} after ${dead?.attempts} attempts (HTTP 500). Fix the cause, then send it again from the dead letters.`,
    });
    const overview = await (await operator.get('/admin/')).text();
    expect(overview).toContain('<a href="/admin/ui/dead-letters">1</a>');
    const listed = await (await operator.get('/admin/ui/dead-letters')).text();
    expect(listed).toContain('Documents to buyers given up (1)');
    expect(listed).toContain('>PO-DEAD</a> (acme)');
    expect(listed).toContain('<td>HTTP 500</td>');
    expect(listed).toContain('Move back to the outbox…');
    const page = await (await operator.get(`/admin/ui/orders/${id}`)).text();
    expect(page).toContain('Move back to the outbox…');
    const seen = await seenOf(operator, id);
    const path = `/admin/ui/orders/${id}/documents/${dead?.id}/revive`;
    expect(await (await operator.post(path, { csrf: operator.csrf, seen })).text()).toContain(
      'back to the outbox?',
    );
    expect((await stack.store.outbox.get(dead?.id ?? ''))?.state).toBe('dead');
    stack.answerOrderStatus = () => cxmlStatusAnswer(200, 'OK');
    const res = await operator.post(path, { csrf: operator.csrf, seen, confirmed: 'yes' });
    expect(res.status).toBe(303);
    await drain(stack);
    expect((await stack.store.outbox.get(dead?.id ?? ''))?.state).toBe('delivered');
    expect(await stack.store.orders.get(id)).toMatchObject({ state: 'ordered', flags: ['document_dead'] });
    expect(await (await operator.get('/admin/ui/dead-letters')).text()).toContain('No dead document.');
  });

  it('a dead job is run again from the dead letters, after a confirmation', async () => {
    const stack = await createOrderStack(orderConfig());
    const { job } = await stack.store.jobs.enqueue({
      kind: 'reconcile',
      key: 'reconcile:test',
      payload: {},
      runAt: stack.clock.now(),
      maxAttempts: 1,
    });
    const claimed = await stack.store.jobs.claim(stack.clock.now(), 60_000, ['reconcile']);
    await stack.store.jobs.retry(claimed!, 'print service down', stack.clock.now());
    expect((await stack.store.jobs.get(job.id))?.state).toBe('dead');
    const operator = await signIn(stack);
    const listed = await (await operator.get('/admin/ui/dead-letters')).text();
    expect(listed).toContain('Background jobs given up (1)');
    expect(listed).toContain('<td>print service down</td>');
    const path = `/admin/ui/jobs/${job.id}/revive`;
    expect((await operator.post(path, {})).status).toBe(403);
    expect(await (await operator.post(path, { csrf: operator.csrf })).text()).toContain(
      'Run the reconcile job reconcile:test again?',
    );
    expect((await stack.store.jobs.get(job.id))?.state).toBe('dead');
    const done = await operator.post(path, { csrf: operator.csrf, confirmed: 'yes' });
    expect(done.status).toBe(303);
    expect(done.headers.get('Location')).toBe('/admin/ui/dead-letters?done=job');
    expect((await stack.store.jobs.get(job.id))?.state).toBe('pending');
    const again = await operator.post(path, { csrf: operator.csrf, confirmed: 'yes' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('is pending; only a dead job is run again.');
  });
});

describe('console form versions', () => {
  it('an action form without the version of the PO it was made on is refused', async () => {
    const { stack, id, operator } = await parkedPo();
    const res = await operator.post(`/admin/ui/orders/${id}/actions/handled`, {
      csrf: operator.csrf,
      note: 'placed by phone',
      confirmed: 'yes',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      'The form was refused: it does not say which version of the PO it was made on.',
    );
    expect((await stack.store.orders.get(id))?.state).toBe('needs_operator');
  });
});

describe('console re-send', () => {
  it('a delivered confirmation is sent again, the same document, once confirmed', async () => {
    const stack = await createOrderStack(orderConfig());
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-AGAIN', lines: linesOf(cart) })).toMatchObject({
      code: 200,
    });
    await drain(stack);
    const po = (await stack.store.orders.list()).items.find((o) => o.orderId === 'PO-AGAIN');
    const id = po?.id ?? '';
    const sent = (await stack.store.outbox.list({ poId: id })).items.find((m) => m.kind === 'confirmation');
    expect(sent?.state).toBe('delivered');
    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${id}`)).text();
    expect(page).toContain('Re-send…');
    const seen = await seenOf(operator, id);
    const path = `/admin/ui/orders/${id}/documents/${sent?.id}/resend`;
    const posts = stack.orderStatusPosts.length;
    expect(
      await (await operator.post(path, { csrf: operator.csrf, seen, state: 'ordered' })).text(),
    ).toContain('to the buyer again?');
    const res = await operator.post(path, { csrf: operator.csrf, seen, state: 'ordered', confirmed: 'yes' });
    expect(res.status).toBe(303);
    await drain(stack);
    const again = stack.orderStatusPosts.slice(posts);
    expect(again).toHaveLength(1);
    // Kept without our SharedSecret, sent with it: the bytes of the first post.
    expect(sent?.body).toContain('<SharedSecret>[redacted]</SharedSecret>');
    const first = sent?.body.replaceAll('[redacted]', 'printco-secret');
    expect(stack.orderStatusPosts.slice(0, posts).filter((p) => p.body === first)).toHaveLength(1);
    expect(again[0]?.body).toBe(first);
    const copies = (await stack.store.outbox.list({ poId: id })).items.filter(
      (m) => m.kind === 'confirmation',
    );
    expect(copies.map((m) => m.state)).toEqual(['delivered', 'delivered']);
  });
});
