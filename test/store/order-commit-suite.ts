/**
 * `orders.commit` and `orders.listIdsWithoutLiveJob`, part of the Store contract suite (`store-suite.ts` runs it
 * against every adapter): the order job's writes of one step in one transaction — print orders tracked with
 * their fields, patches under their state condition, documents queued once per dedupe key, the job
 * completed only under its current claim — all or nothing; and the received orders whose job was lost.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.ts';
import type { NewOutboxMessage, NewPurchaseOrder } from '../../src/store/types.ts';
import type { ManualClock } from './manual-clock.ts';

function order(n: number): NewPurchaseOrder {
  return {
    buyerId: 'acme',
    payloadId: `${n}@buyer.example.com`,
    orderId: `PO-${n}`,
    type: 'new',
    raw: `<cXML payloadID="${n}@buyer.example.com"/>`,
    document: { orderID: `PO-${n}` },
    answer: { code: 200, text: 'OK' },
  };
}

const message = (poId: string, dedupeKey: string) => ({
  buyerId: 'acme',
  poId,
  kind: 'confirmation' as const,
  dedupeKey,
  url: 'https://buyer.example.com/cxml/status',
  body: `<cXML><Request><ConfirmationRequest/></Request><!-- ${dedupeKey} --></cXML>`,
});

export function describeOrderCommit(current: () => { store: Store; clock: ManualClock }): void {
  describe('the order job writes of a step in one transaction (orders.commit)', () => {
    it('tracks the print order with its fields, patches the order, queues the document and completes the job', async () => {
      const { store, clock } = current();
      const { order: po } = await store.orders.accept(order(1));
      await store.orders.patch(po.id, { state: 'processing', createAttempts: [{ index: 0, searches: 0 }] });
      await store.jobs.enqueue({
        kind: 'process_order',
        key: `po:${po.id}`,
        payload: { poId: po.id },
        runAt: clock.now(),
      });
      const job = await store.jobs.claim(clock.now(), 60_000);
      if (job === undefined) throw new Error('no job claimed');
      clock.advance(1000);

      const result = await store.orders.commit({
        printOrders: [
          {
            storefrontId: 'demo',
            printOrderId: 7001,
            poId: po.id,
            set: { lastStatus: 'Awaiting PO review', lastCheckedAt: clock.now(), confirmed: true },
          },
        ],
        patches: [
          { id: po.id, patch: { printOrderIds: [7001], createAttempts: [] } },
          { id: po.id, patch: { state: 'ordered' }, ifState: ['processing'] },
        ],
        messages: [message(po.id, `confirm:${po.id}:accept`)],
        completes: job,
      });

      expect(result).toStrictEqual({ patched: [true, true], queued: [true], completed: true });
      expect(await store.printOrders.get('demo', 7001)).toMatchObject({
        poId: po.id,
        state: 'open',
        lastStatus: 'Awaiting PO review',
        lastCheckedAt: clock.now(),
        confirmed: true,
      });
      expect(await store.orders.get(po.id)).toMatchObject({
        state: 'ordered',
        printOrderIds: [7001],
        createAttempts: [],
        updatedAt: clock.now(),
      });
      const queued = await store.outbox.list({ poId: po.id });
      expect(queued.items.map((m) => [m.dedupeKey, m.state])).toEqual([
        [`confirm:${po.id}:accept`, 'pending'],
      ]);
      expect((await store.jobs.get(job.id))?.state).toBe('done');
    });

    it('skips a patch whose state condition fails, queues a dedupe key once and completes only a current claim', async () => {
      const { store, clock } = current();
      const { order: po } = await store.orders.accept(order(2));
      await store.outbox.enqueue(message(po.id, 'confirm:earlier'));
      await store.jobs.enqueue({
        kind: 'process_order',
        key: `po:${po.id}`,
        payload: {},
        runAt: clock.now(),
      });
      const job = await store.jobs.claim(clock.now(), 60_000);
      if (job === undefined) throw new Error('no job claimed');
      await store.jobs.complete(job);

      const result = await store.orders.commit({
        patches: [
          { id: po.id, patch: { state: 'ordered' }, ifState: ['processing'] },
          { id: po.id, patch: { flags: ['seen'] } },
          { id: 'no-such-order', patch: { flags: ['seen'] } },
        ],
        messages: [message(po.id, 'confirm:earlier'), message(po.id, 'confirm:later')],
        completes: job,
      });

      expect(result).toStrictEqual({
        patched: [false, true, false],
        queued: [false, true],
        completed: false,
      });
      expect(await store.orders.get(po.id)).toMatchObject({ state: 'received', flags: ['seen'] });
      const keys = (await store.outbox.list({ poId: po.id })).items.map((m) => m.dedupeKey).sort();
      expect(keys).toEqual(['confirm:earlier', 'confirm:later']);
    });

    it('keeps a print order already tracked, applying the fields to it', async () => {
      const { store } = current();
      const { order: po } = await store.orders.accept(order(3));
      await store.printOrders.add({ storefrontId: 'demo', printOrderId: 7003, poId: po.id });
      const result = await store.orders.commit({
        printOrders: [{ storefrontId: 'demo', printOrderId: 7003, poId: 'other', set: { confirmed: true } }],
      });
      expect(result).toStrictEqual({ patched: [], queued: [], completed: false });
      expect(await store.printOrders.get('demo', 7003)).toMatchObject({ poId: po.id, confirmed: true });
    });

    it('writes nothing when one of its writes fails', async () => {
      const { store } = current();
      const { order: po } = await store.orders.accept(order(4));
      // A message body the buyer_documents table refuses (NOT NULL) fails the batch after the patch.
      const broken: NewOutboxMessage = JSON.parse(JSON.stringify({ ...message(po.id, 'broken'), url: null }));
      await expect(
        store.orders.commit({
          printOrders: [{ storefrontId: 'demo', printOrderId: 7004, poId: po.id }],
          patches: [{ id: po.id, patch: { state: 'ordered' } }],
          messages: [broken],
        }),
      ).rejects.toThrow();
      expect((await store.orders.get(po.id))?.state).toBe('received');
      expect(await store.printOrders.get('demo', 7004)).toBeUndefined();
    });
  });

  describe('the received orders whose job was lost (orders.listIdsWithoutLiveJob)', () => {
    it('lists the ids listIds lists, less those with a pending or running job of their key', async () => {
      const { store, clock } = current();
      const ids: string[] = [];
      for (let n = 11; n <= 15; n++) ids.push((await store.orders.accept(order(n))).order.id);
      const [lost, pending, running, dead, done] = ids as [string, string, string, string, string];
      const queue = (id: string, kind = 'process_order') =>
        store.jobs.enqueue({
          kind,
          key: `po:${id}`,
          payload: { poId: id },
          runAt: clock.now(),
          maxAttempts: 1,
        });
      await queue(done);
      const finished = await store.jobs.claim(clock.now(), 60_000);
      if (finished === undefined) throw new Error('no job claimed');
      await store.jobs.complete(finished);
      await queue(dead);
      const dying = await store.jobs.claim(clock.now(), 60_000);
      if (dying === undefined) throw new Error('no job claimed');
      await store.jobs.kill(dying, 'gave up');
      await queue(running);
      await store.jobs.claim(clock.now(), 60_000);
      await queue(pending);
      // Another prefix's job is not this key's.
      await store.jobs.enqueue({ kind: 'other', key: `other:${lost}`, payload: {}, runAt: clock.now() });

      expect(await store.orders.listIdsWithoutLiveJob('received', 'po:')).toEqual([done, dead, lost]);
      expect(await store.orders.listIdsWithoutLiveJob('received', 'po:', 1)).toEqual([done]);
      expect(await store.orders.listIdsWithoutLiveJob('processing', 'po:')).toEqual([]);
    });
  });
}
