/**
 * The console's notes, exports and buyer summary: a note is added from the PO page's form (CSRF-checked,
 * refused with the PO page when blank), shown escaped in the notes and the timeline; the export links
 * carry the PO list's filters and download the admin API's CSV under the session; the buyers page sums
 * each buyer's POs per month and currency exactly, counts its invoices by state and its open exceptions.
 */
import { describe, expect, it } from 'vitest';
import { invoiceDedupeKey, type NewInvoice, type NewPurchaseOrder } from '../../../../src/store/types.ts';
import { createOrderStack, orderConfig } from '../../../support/order-flow.ts';
import { START } from '../../../support/stack.ts';
import { parkedPo, signIn } from './console-support.ts';

const DAY_S = 86_400;

describe('notes on the console PO page', () => {
  it('adds a note from the form: after the CSRF check, shown escaped, the PO left as it was', async () => {
    const { stack, id } = await parkedPo();
    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${id}`)).text();
    expect(page).toContain('<h2 id="notes">Notes</h2><p class="muted">No notes yet.</p>');
    expect(page).toContain(`<form method="post" action="/admin/ui/orders/${id}/notes" class="actions">`);
    const before = await stack.store.orders.get(id);

    const path = `/admin/ui/orders/${id}/notes`;
    const forged = await operator.post(path, { csrf: 'forged', text: 'not kept' });
    expect(forged.status).toBe(403);
    const blank = await operator.post(path, { csrf: operator.csrf, text: '  ' });
    expect(blank.status).toBe(400);
    const refusedPage = await blank.text();
    expect(refusedPage).toContain('text must be 1 to 2000 characters, not blank.');
    expect(refusedPage).toContain('Purchase order PO-CUT');
    expect(await stack.store.orderNotes.listByPo(id)).toEqual([]);

    const done = await operator.post(path, { csrf: operator.csrf, text: 'Called <Jane> & agreed: reprint' });
    expect(done.status).toBe(303);
    expect(done.headers.get('Location')).toBe(`/admin/ui/orders/${id}?done=note`);
    const [note] = await stack.store.orderNotes.listByPo(id);
    expect(note).toMatchObject({ text: 'Called <Jane> & agreed: reprint' });
    expect(note?.author).toMatch(/^console session \S+$/);
    const after = await (await operator.get(`/admin/ui/orders/${id}?done=note`)).text();
    expect(after).toContain('The note is kept with the purchase order.');
    expect(after).toContain('<td>Called &lt;Jane&gt; &amp; agreed: reprint</td>');
    expect(after).toContain(
      `<td>note</td><td>${note?.author}: Called &lt;Jane&gt; &amp; agreed: reprint</td>`,
    );
    expect(after).not.toContain('<Jane>');
    // Not an action on the PO: its state and version stand, so open action forms stay valid.
    expect(await stack.store.orders.get(id)).toEqual(before);
  });
});

describe('export links and downloads in the console', () => {
  it('links the exports with the list filters and serves the CSV under the session', async () => {
    const stack = await createOrderStack();
    const operator = await signIn(stack);
    const overview = await (await operator.get('/admin/')).text();
    expect(overview).toContain('<a href="/admin/ui/export/orders.csv" download>Purchase orders (CSV)</a>');
    expect(overview).toContain('<a href="/admin/ui/export/invoices.csv" download>Invoices (CSV)</a>');
    const list = await (await operator.get('/admin/ui/orders?buyer=acme&from=2026-01-01&to=')).text();
    expect(list).toContain(
      '<a href="/admin/ui/export/orders.csv?buyer=acme&amp;from=2026-01-01" download>Purchase orders (CSV)</a>',
    );
    expect(list).toContain('Export for accounting (buyer acme, 2026-01-01 to now)');

    const csv = await operator.get('/admin/ui/export/orders.csv?buyer=acme&from=2026-01-01');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('Content-Disposition')).toBe(
      'attachment; filename="orders-2026-01-01-to-now-acme.csv"',
    );
    expect(await csv.text()).toMatch(/^PO record,Buyer,PO number,/);
    const bad = await operator.get('/admin/ui/export/invoices.csv?from=someday');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('from must be a date (YYYY-MM-DD) or an ISO 8601 date-time.');
    // Without a session: the sign-in, never the file.
    const anonymous = await stack.gateway.app.fetch(
      new Request('http://gateway.test/admin/ui/export/orders.csv'),
    );
    expect(anonymous.headers.get('Content-Type')).not.toContain('text/csv');
  });
});

function po(
  n: number,
  total: { value: string; currency: string } | undefined,
  buyerId = 'acme',
): NewPurchaseOrder {
  return {
    buyerId,
    payloadId: `s${n}@ariba.example`,
    orderId: `PO-S${n}`,
    type: 'new',
    raw: '<cXML/>',
    document: { request: total === undefined ? {} : { total }, lines: [], mismatches: [] },
    answer: { code: 200, text: 'OK' },
  };
}

function invoice(n: number, purpose: NewInvoice['purpose'] = 'standard'): NewInvoice {
  return {
    buyerId: 'acme',
    poId: `10${n}`,
    storefrontId: 'demo',
    printOrderId: 7000 + n,
    scope: 'order',
    purpose,
    idPrefix: 'INV-',
    invoiceDate: new Date(START),
    amounts: {
      currency: 'EUR',
      subtotal: '1.00',
      tax: '0.00',
      shipping: '0.00',
      discount: '0.00',
      due: '1.00',
    },
  };
}

describe('the buyer summary', () => {
  it('sums POs per month and currency exactly, counts invoices by state and the open exceptions', async () => {
    const stack = await createOrderStack(orderConfig());
    const { store, clock } = stack;
    // START is 2026-11-22: the window starts 2025-12-01.
    clock.advance(-372 * DAY_S); // 2025-11-15: before the window
    await store.orders.accept(po(1, { value: '99.00', currency: 'EUR' }));
    clock.advance(324 * DAY_S); // 2026-10-05
    await store.orders.accept(po(2, { value: '10.10', currency: 'EUR' }));
    await store.orders.accept(po(3, { value: '0.20', currency: 'EUR' }));
    await store.orders.accept(po(4, { value: '5', currency: 'USD' }));
    clock.advance(48 * DAY_S); // 2026-11-22
    expect(clock.now().toISOString().slice(0, 10)).toBe('2026-11-22');
    await store.orders.accept(po(5, { value: '0.1', currency: 'EUR' }));
    const { order: waiting } = await store.orders.accept(po(6, { value: '0.2', currency: 'EUR' }));
    await store.orders.accept(po(7, undefined));
    await store.orders.accept(po(8, { value: '1000.00', currency: 'EUR' }, 'coupa'));
    await store.orders.update(waiting.id, { state: 'needs_operator', lastError: 'waits' });

    // Invoices: one delivered, one queued, one whose document is dead, one not queued, a delivered credit memo.
    const queue = async (n: number, purpose: NewInvoice['purpose'] = 'standard') => {
      const { invoice: issued } = await store.invoices.issue(invoice(n, purpose));
      await store.outbox.enqueue({
        buyerId: 'acme',
        poId: issued.poId,
        kind: 'invoice',
        dedupeKey: invoiceDedupeKey(issued),
        url: 'https://buyer.example/cxml',
        body: '<cXML/>',
      });
      return issued;
    };
    await queue(1);
    await queue(5, 'creditMemo');
    for (const claimed of await store.outbox.claimDue(clock.now(), 60_000, 10)) {
      await store.outbox.markDelivered(claimed);
    }
    await queue(2);
    await queue(3);
    const [dying] = (await store.outbox.claimDue(clock.now(), 60_000, 10)).filter((m) =>
      m.dedupeKey.includes(':7003:'),
    );
    await store.outbox.markDead(dying!, 'buyer answered 500 ten times');
    await store.invoices.issue(invoice(4));

    const operator = await signIn(stack);
    const page = await (await operator.get('/admin/ui/buyers')).text();
    const acme = page.slice(page.indexOf('Summary since'), page.indexOf('Latest purchase orders of'));
    expect(page).toContain('<h3>Summary since 2025-12-01</h3>');
    expect(acme).toContain(
      '<tr><td>2026-10</td><td class="num">3</td><td class="num">10.30 EUR; 5.00 USD</td></tr>',
    );
    expect(acme).toContain(
      '<tr><td>2026-11</td><td class="num">3</td><td class="num">0.30 EUR <span class="muted">(1 without a total)</span></td></tr>',
    );
    expect(acme).not.toContain('2025-11');
    expect(acme).not.toContain('1000');
    expect(acme).toContain(
      '<dt>Invoices and credit memos</dt><dd>1 credit memo sent, 1 invoice not delivered (dead), 1 invoice not queued, 1 invoice queued, 1 invoice sent</dd>',
    );
    expect(acme).toContain('>1 waiting for an operator</a>');
    expect(acme).toContain('>0 failed</a>');
    expect(acme).toContain('>1 dead documents</a>');
    expect(acme).toContain('href="/admin/ui/orders?buyer=acme&amp;state=needs_operator"');
  });
});
