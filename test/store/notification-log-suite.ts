/**
 * What the notifications read and write in the Store contract suite (`store-suite.ts` runs it against
 * every adapter): the orders waiting for an operator without their documents; what a channel announced,
 * remembered per channel and key (a key recorded twice keeps its first message); and a channel's messages
 * counted from a point in time for its rate limit.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.ts';
import type { ManualClock } from './manual-clock.ts';

const MINUTE = 60_000;

export function describeNotificationLog(deps: () => { store: Store; clock: ManualClock }): void {
  describe('orders waiting for an operator, as the notifications read them', () => {
    it('lists the facts of the orders at needs_operator only, newest first, without their documents', async () => {
      const { store, clock } = deps();
      const accept = async (n: number, state: 'needs_operator' | 'ordered', flags: string[]) =>
        (
          await store.orders.accept({
            buyerId: 'acme',
            payloadId: `waiting-${n}@buyer.example`,
            orderId: `PO-${n}`,
            type: 'new',
            state,
            raw: '<cXML/>'.repeat(1000),
            document: { lines: [] },
            answer: { code: 200, text: 'OK' },
            flags,
          })
        ).order.id;
      const first = await accept(1, 'needs_operator', []);
      await accept(2, 'ordered', []);
      clock.advance(MINUTE);
      const third = await accept(3, 'needs_operator', ['invoice_held']);
      await store.orders.update(third, { lastError: 'the print order charges 0.12' });
      expect(await store.orders.listWaiting()).toStrictEqual([
        {
          id: third,
          buyerId: 'acme',
          orderId: 'PO-3',
          flags: ['invoice_held'],
          lastError: 'the print order charges 0.12',
          updatedAt: clock.now(),
        },
        {
          id: first,
          buyerId: 'acme',
          orderId: 'PO-1',
          flags: [],
          updatedAt: new Date(clock.now().getTime() - MINUTE),
        },
      ]);
      expect(await store.orders.listWaiting(1)).toHaveLength(1);
    });
  });

  describe('notification log', () => {
    it('answers which keys a channel announced already, per channel', async () => {
      const { store, clock } = deps();
      expect(await store.notifications.announcedAmong('email', ['po:1|needs_operator'])).toStrictEqual([]);
      await store.notifications.record(
        'email',
        'm1',
        ['po:1|needs_operator', 'po:2|invoice_held'],
        clock.now(),
      );
      expect(
        (
          await store.notifications.announcedAmong('email', [
            'po:2|invoice_held',
            'po:1|needs_operator',
            'po:3|document_dead',
          ])
        ).sort(),
      ).toStrictEqual(['po:1|needs_operator', 'po:2|invoice_held']);
      expect(await store.notifications.announcedAmong('webhook', ['po:1|needs_operator'])).toStrictEqual([]);
      expect(await store.notifications.announcedAmong('email', [])).toStrictEqual([]);
    });

    it('keeps the first message of a key recorded twice and counts messages, not keys, since a time', async () => {
      const { store, clock } = deps();
      const start = clock.now();
      await store.notifications.record('webhook', 'm1', ['a', 'b', 'c'], start);
      clock.advance(10 * MINUTE);
      await store.notifications.record('webhook', 'm2', ['c', 'd'], clock.now());
      await store.notifications.record('email', 'm3', ['a'], clock.now());
      await store.notifications.record('webhook', 'm4', [], clock.now());
      expect(await store.notifications.messagesSince('webhook', start)).toBe(2);
      expect(await store.notifications.messagesSince('webhook', new Date(start.getTime() + MINUTE))).toBe(1);
      expect(await store.notifications.messagesSince('email', start)).toBe(1);
      expect(await store.notifications.messagesSince('nowhere', start)).toBe(0);
      // 'c' stays m1's: m2 counts only through 'd'.
      clock.advance(MINUTE);
      await store.notifications.record('webhook', 'm5', ['a', 'b', 'c'], clock.now());
      expect(await store.notifications.messagesSince('webhook', clock.now())).toBe(0);
    });
  });
}
