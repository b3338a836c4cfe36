/**
 * A buyer's reorder items in the Store contract suite (`store-suite.ts` runs it against every adapter): one
 * item per buyer and part number, taking a later order's values and never an earlier one's, read back only
 * by its own buyer, listed most recently ordered first.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.ts';
import type { NewReorderItem } from '../../src/store/types.ts';
import type { ManualClock } from './manual-clock.ts';

const DAY = 86_400_000;
const ORDERED = new Date('2025-02-20T08:00:00.000Z');

function item(overrides: Partial<NewReorderItem> = {}): NewReorderItem {
  return {
    buyerId: 'acme',
    partId: 'R-BC-STD-1234',
    storefrontId: 'demo',
    userRef: 'jroe',
    designId: 1234,
    productId: 101,
    sku: 'BC-STD',
    name: 'Business cards – J. Doe (design 1234)',
    thumbnailUrl: 'https://print.example/editor/productthumb.ashx?p=1234&w=200&h=140',
    quantity: 500,
    unitPrice: '0.09',
    currency: 'USD',
    uom: 'EA',
    poId: '7',
    orderedAt: ORDERED,
    ...overrides,
  };
}

export function describeReorders(deps: () => { store: Store; clock: ManualClock }): void {
  describe('reorder items', () => {
    it('records an item and reads it back whole, with its stamps, for its own buyer only', async () => {
      const { store, clock } = deps();
      await store.reorders.record([item({ priceUnit: 1000, unitPrice: '45.00' })]);
      expect(await store.reorders.get('acme', 'R-BC-STD-1234')).toStrictEqual({
        ...item({ priceUnit: 1000, unitPrice: '45.00' }),
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
      expect(await store.reorders.get('coupa', 'R-BC-STD-1234')).toBeUndefined();
      expect(await store.reorders.get('acme', 'R-BC-STD-9999')).toBeUndefined();
      await store.reorders.record([]);
      expect(await store.reorders.listByBuyer('coupa')).toStrictEqual([]);
    });

    it('a price for one unit reads back without priceUnit', async () => {
      const { store } = deps();
      await store.reorders.record([item({ priceUnit: 1 })]);
      expect(await store.reorders.get('acme', 'R-BC-STD-1234')).not.toHaveProperty('priceUnit');
    });

    it('a later order moves the item on; an earlier one, recorded after it, does not move it back', async () => {
      const { store, clock } = deps();
      const created = clock.now();
      await store.reorders.record([item()]);
      const later = new Date(ORDERED.getTime() + DAY);
      clock.advance(DAY);
      await store.reorders.record([item({ quantity: 250, unitPrice: '0.12', poId: '9', orderedAt: later })]);
      clock.advance(DAY);
      await store.reorders.record([item({ quantity: 1000, poId: '7' })]);
      expect(await store.reorders.get('acme', 'R-BC-STD-1234')).toMatchObject({
        quantity: 250,
        unitPrice: '0.12',
        poId: '9',
        orderedAt: later,
        createdAt: created,
        updatedAt: new Date(created.getTime() + DAY),
      });
    });

    it('two items of one part number in one call: the later in the list wins', async () => {
      const { store } = deps();
      await store.reorders.record([item({ quantity: 100 }), item({ quantity: 300 })]);
      expect((await store.reorders.get('acme', 'R-BC-STD-1234'))?.quantity).toBe(300);
    });

    it("lists a buyer's items most recently ordered first, up to the limit, and no other buyer's", async () => {
      const { store } = deps();
      const on = (days: number) => new Date(ORDERED.getTime() + days * DAY);
      await store.reorders.record([
        item({ partId: 'R-BC-STD-1', designId: 1, orderedAt: on(1) }),
        item({ partId: 'R-FLY-A5-2', designId: 2, sku: 'FLY-A5', orderedAt: on(3) }),
        item({ partId: 'R-BC-STD-3', designId: 3, orderedAt: on(2) }),
        item({ buyerId: 'coupa', partId: 'R-BC-STD-4', designId: 4, orderedAt: on(9) }),
      ]);
      const parts = async (limit?: number) =>
        (await store.reorders.listByBuyer('acme', limit)).map((i) => i.partId);
      expect(await parts()).toStrictEqual(['R-FLY-A5-2', 'R-BC-STD-3', 'R-BC-STD-1']);
      expect(await parts(2)).toStrictEqual(['R-FLY-A5-2', 'R-BC-STD-3']);
      expect((await store.reorders.listByBuyer('coupa')).map((i) => i.partId)).toStrictEqual(['R-BC-STD-4']);
    });
  });
}
