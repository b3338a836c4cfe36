/**
 * Operators' notes and the export listings, part of the Store contract suite (`store-suite.ts` runs it
 * against every adapter): a note is kept with its PO in the order written; `orders.listReceived` and
 * `invoices.listDated` page oldest first through a time window (inclusive at both ends), by buyer, each
 * page continuing after the last record of the one before, whatever was added meanwhile.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.ts';
import type { NewInvoice, NewPurchaseOrder, Page } from '../../src/store/types.ts';
import type { ManualClock } from './manual-clock.ts';

function order(n: number, buyerId = 'acme'): NewPurchaseOrder {
  return {
    buyerId,
    payloadId: `${n}@buyer.example.com`,
    orderId: `PO-${n}`,
    type: 'new',
    raw: `<cXML payloadID="${n}@buyer.example.com"/>`,
    document: { orderID: `PO-${n}` },
    answer: { code: 200, text: 'OK' },
  };
}

function invoice(n: number, invoiceDate: Date, buyerId = 'acme'): NewInvoice {
  return {
    buyerId,
    poId: String(n),
    storefrontId: 'demo',
    printOrderId: 5000 + n,
    scope: 'order',
    purpose: 'standard',
    idPrefix: 'INV-',
    invoiceDate,
    amounts: {
      currency: 'EUR',
      subtotal: '10.00',
      tax: '1.90',
      shipping: '0.00',
      discount: '0.00',
      due: '11.90',
    },
  };
}

/** Every page of a listing, following the cursors, as the pages came. */
async function allPages<T>(list: (cursor?: string) => Promise<Page<T>>): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

const DAY = 86_400_000;

export function describeNotesAndExports(current: () => { store: Store; clock: ManualClock }): void {
  describe('order notes', () => {
    it("keeps each note with its PO, oldest first, with its author and the clock's time", async () => {
      const { store, clock } = current();
      const written = clock.now();
      const first = await store.orderNotes.add({
        poId: '7',
        text: 'Buyer phoned: ship to the back door, "gate 2".',
        author: 'console',
      });
      expect(first).toStrictEqual({
        id: first.id,
        poId: '7',
        text: 'Buyer phoned: ship to the back door, "gate 2".',
        author: 'console',
        createdAt: written,
      });
      clock.advance(60_000);
      await store.orderNotes.add({ poId: '8', text: 'another PO', author: 'admin API' });
      const second = await store.orderNotes.add({ poId: '7', text: 'Grüße — résolu', author: 'admin API' });
      const notes = await store.orderNotes.listByPo('7');
      expect(notes.map((n) => [n.text, n.author])).toEqual([
        ['Buyer phoned: ship to the back door, "gate 2".', 'console'],
        ['Grüße — résolu', 'admin API'],
      ]);
      expect(notes[1]).toStrictEqual(second);
      expect(await store.orderNotes.listByPo('9')).toEqual([]);
    });
  });

  describe('export listings', () => {
    it('pages through the POs received within the window, oldest first, inclusive at both ends', async () => {
      const { store, clock } = current();
      const start = clock.now().getTime();
      const ids: string[] = [];
      for (let n = 1; n <= 7; n++) {
        clock.set(new Date(start + n * DAY));
        const accepted = await store.orders.accept(order(n, n === 4 ? 'coupa' : 'acme'));
        ids.push(accepted.order.id);
      }
      const window = { buyerId: 'acme', from: new Date(start + 2 * DAY), to: new Date(start + 6 * DAY) };
      const pages = await allPages((cursor) =>
        store.orders.listReceived({ ...window, limit: 2, ...(cursor !== undefined && { cursor }) }),
      );
      // Days 2, 3, 5 and 6 of acme (day 4 is coupa's), two a page; the last page is found to be the last.
      expect(pages.map((page) => page.map((o) => o.orderId))).toEqual([
        ['PO-2', 'PO-3'],
        ['PO-5', 'PO-6'],
      ]);
      expect(pages[0]![0]).toMatchObject({ id: ids[1], raw: '<cXML payloadID="2@buyer.example.com"/>' });
      const everyone = await store.orders.listReceived({});
      expect(everyone.items.map((o) => o.orderId)).toEqual([
        'PO-1',
        'PO-2',
        'PO-3',
        'PO-4',
        'PO-5',
        'PO-6',
        'PO-7',
      ]);
      expect(everyone.nextCursor).toBeUndefined();
    });

    it('goes on after the cursor even when orders arrived between the pages', async () => {
      const { store } = current();
      for (let n = 1; n <= 3; n++) await store.orders.accept(order(n));
      const first = await store.orders.listReceived({ limit: 2 });
      await store.orders.accept(order(4));
      const rest = await store.orders.listReceived({ limit: 2, cursor: first.nextCursor! });
      expect([...first.items, ...rest.items].map((o) => o.orderId)).toEqual(['PO-1', 'PO-2', 'PO-3', 'PO-4']);
    });

    it('pages through the invoices dated within the window, oldest first, by buyer', async () => {
      const { store, clock } = current();
      const start = clock.now().getTime();
      for (let n = 1; n <= 5; n++) {
        await store.invoices.issue(invoice(n, new Date(start + n * DAY), n === 2 ? 'coupa' : 'acme'));
      }
      const pages = await allPages((cursor) =>
        store.invoices.listDated({
          buyerId: 'acme',
          from: new Date(start + DAY),
          to: new Date(start + 4 * DAY),
          limit: 2,
          ...(cursor !== undefined && { cursor }),
        }),
      );
      expect(pages.map((page) => page.map((i) => i.invoiceId))).toEqual([
        ['INV-000001', 'INV-000002'],
        ['INV-000003'],
      ]);
      expect(pages[0]![0]).toMatchObject({ poId: '1', amounts: { due: '11.90', currency: 'EUR' } });
      const unbounded = await store.invoices.listDated({ from: new Date(start + 5 * DAY) });
      expect(unbounded.items.map((i) => i.printOrderId)).toEqual([5005]);
    });
  });
}
