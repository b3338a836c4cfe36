/**
 * The invoices part of the Store contract suite (`store-suite.ts` runs it against every adapter): issue is
 * idempotent per dedupe key, a gateway invoiceID takes the buyer's next sequence number (1, 2, 3… per
 * buyer, no gaps, none twice, under 50 concurrent calls too), an explicit invoiceID is kept as given and
 * unique per buyer, and every record handed out is a copy.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.ts';
import { StoreError, type StoreErrorCode } from '../../src/store/store-error.ts';
import type { NewInvoice, NewInvoiceHold } from '../../src/store/types.ts';
import type { ManualClock } from './manual-clock.ts';

const HOUR = 3_600_000;

function invoice(overrides: Partial<NewInvoice> = {}): NewInvoice {
  return {
    buyerId: 'acme',
    poId: '1',
    storefrontId: 'demo',
    printOrderId: 5001,
    scope: 'order',
    purpose: 'standard',
    idPrefix: 'INV-',
    invoiceDate: new Date('2025-03-01T09:30:00.123Z'),
    amounts: {
      currency: 'USD',
      subtotal: '60.00',
      tax: '4.95',
      shipping: '7.50',
      discount: '0.00',
      due: '72.45',
    },
    ...overrides,
  };
}

function hold(overrides: Partial<NewInvoiceHold> = {}): NewInvoiceHold {
  return {
    buyerId: 'acme',
    poId: '1',
    storefrontId: 'demo',
    printOrderId: 5001,
    scope: 'order',
    reason: 'PO line 1: the print order charges 0.12 a unit, the PO 0.09 (33.33% off).',
    amounts: { currency: 'USD', atPoPrices: '45.00', atPrintOrderPrices: '60.00' },
    ...overrides,
  };
}

/** An invoice with neither `idPrefix` nor (unless overridden) `invoiceId`. */
function unprefixed(overrides: Partial<NewInvoice> = {}): NewInvoice {
  const { idPrefix: _, ...rest } = invoice(overrides);
  return rest;
}

async function expectError(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe(code);
}

/** Defines the invoices tests on the suite's current store and clock (set afresh before each test). */
export function describeInvoices(current: () => { store: Store; clock: ManualClock }): void {
  describe('invoices', () => {
    it('issues a gateway-numbered invoice once per dedupe key and answers the stored one after', async () => {
      const { store, clock } = current();
      const input = invoice();
      const { created, invoice: issued } = await store.invoices.issue(input);
      expect(created).toBe(true);
      const { idPrefix: _, ...fields } = input;
      expect(issued).toStrictEqual({
        ...fields,
        id: issued.id,
        invoiceId: 'INV-000001',
        sequence: 1,
        dedupeKey: 'invoice:demo:5001:order:standard',
        createdAt: clock.now(),
      });
      expect(issued.id).toMatch(/^\d+$/);
      expect(await store.invoices.get(issued.id)).toStrictEqual(issued);
      clock.advance(HOUR);
      // The same dedupe key with other figures (a later round) changes nothing and takes no number.
      const again = await store.invoices.issue(
        invoice({ amounts: { ...input.amounts, due: '99.99' }, poId: '2' }),
      );
      expect(again).toStrictEqual({ created: false, invoice: issued });
      const next = await store.invoices.issue(invoice({ scope: 'shipment:0' }));
      expect(next.invoice.invoiceId).toBe('INV-000002');
      expect(next.invoice.sequence).toBe(2);
      expect(await store.invoices.get('424242')).toBeUndefined();
      expect(await store.invoices.get('not-an-id')).toBeUndefined();
    });

    it('creates one invoice from 50 concurrent issues of one dedupe key', async () => {
      const { store } = current();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.invoices.issue(invoice({ poId: String(i) }))),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const winner = results.find((r) => r.created)!.invoice;
      for (const r of results) expect(r.invoice).toStrictEqual(winner);
      expect(winner.sequence).toBe(1);
      expect(await store.invoices.listByPrintOrder('demo', 5001)).toStrictEqual([winner]);
      // No number was taken by the 49 that found it.
      const next = await store.invoices.issue(invoice({ scope: 'shipment:0' }));
      expect(next.invoice.sequence).toBe(2);
    });

    it('numbers 50 concurrent issues of one buyer 1 to 50, no gap and none twice', async () => {
      const { store } = current();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          store.invoices.issue(invoice({ printOrderId: 6000 + i, scope: `shipment:${i}` })),
        ),
      );
      expect(results.every((r) => r.created)).toBe(true);
      const sequences = results.map((r) => r.invoice.sequence!).sort((a, b) => a - b);
      expect(sequences).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      for (const { invoice: issued } of results) {
        expect(issued.invoiceId).toBe(`INV-${String(issued.sequence).padStart(6, '0')}`);
      }
      expect(new Set(results.map((r) => r.invoice.id)).size).toBe(50);
    });

    it("numbers each buyer's invoices on its own: two buyers each have 1, 2, 3", async () => {
      const { store } = current();
      const issued: Record<string, string[]> = { acme: [], globex: [] };
      for (let i = 0; i < 3; i++) {
        for (const buyerId of ['acme', 'globex']) {
          const { invoice: inv } = await store.invoices.issue(
            invoice({ buyerId, printOrderId: i, storefrontId: buyerId }),
          );
          issued[buyerId]!.push(`${inv.invoiceId}#${inv.sequence}`);
        }
      }
      expect(issued).toEqual({
        acme: ['INV-000001#1', 'INV-000002#2', 'INV-000003#3'],
        globex: ['INV-000001#1', 'INV-000002#2', 'INV-000003#3'],
      });
      // The buyer's prefix is per issue: another prefix goes on with the buyer's one sequence.
      const other = await store.invoices.issue(invoice({ printOrderId: 9, idPrefix: 'PG-' }));
      expect(other.invoice.invoiceId).toBe('PG-000004');
    });

    it('keeps an explicit invoiceID as given, without a sequence number and without taking one', async () => {
      const { store } = current();
      const { invoice: service } = await store.invoices.issue(unprefixed({ invoiceId: 'PIPO-77812' }));
      expect(service.invoiceId).toBe('PIPO-77812');
      expect('sequence' in service).toBe(false);
      expect('idPrefix' in service).toBe(false);
      expect('creditsInvoice' in service).toBe(false);
      const memo = await store.invoices.issue(
        invoice({ invoiceId: 'PIPO-77812-CR', purpose: 'creditMemo', creditsInvoice: service.id }),
      );
      expect(memo.created).toBe(true);
      expect(memo.invoice).toMatchObject({
        invoiceId: 'PIPO-77812-CR',
        purpose: 'creditMemo',
        creditsInvoice: service.id,
        dedupeKey: 'invoice:demo:5001:order:creditMemo',
      });
      expect('sequence' in memo.invoice).toBe(false);
      expect(await store.invoices.get(memo.invoice.id)).toStrictEqual(memo.invoice);
      const numbered = await store.invoices.issue(invoice({ scope: 'shipment:0' }));
      expect(numbered.invoice.sequence).toBe(1);
    });

    it("refuses a buyer's invoiceID again under another dedupe key, as a duplicate", async () => {
      const { store } = current();
      await store.invoices.issue(invoice({ invoiceId: 'PIPO-77812' }));
      await expectError(
        store.invoices.issue(invoice({ invoiceId: 'PIPO-77812', scope: 'shipment:0' })),
        'duplicate',
      );
      // Another buyer may have the same number; the same dedupe key answers the stored invoice.
      const other = await store.invoices.issue(
        invoice({ invoiceId: 'PIPO-77812', buyerId: 'globex', printOrderId: 1 }),
      );
      expect(other.created).toBe(true);
      const again = await store.invoices.issue(invoice({ invoiceId: 'PIPO-77812' }));
      expect(again.created).toBe(false);
      expect(await store.invoices.listByPrintOrder('demo', 5001)).toHaveLength(1);
    });

    it('refuses an invoice with neither an invoiceID nor a prefix', async () => {
      const { store } = current();
      await expectError(store.invoices.issue(unprefixed()), 'invalid');
      expect(await store.invoices.listByPo('1')).toEqual([]);
    });

    it('lists a purchase order’s and a print order’s invoices, oldest first', async () => {
      const { store, clock } = current();
      const issue = async (overrides: Partial<NewInvoice>) => {
        clock.advance(1000);
        return (await store.invoices.issue(invoice(overrides))).invoice.invoiceId;
      };
      const a = await issue({ printOrderId: 5002, scope: 'shipment:1' });
      const b = await issue({ printOrderId: 5001, scope: 'shipment:0' });
      const c = await issue({ printOrderId: 5002, scope: 'shipment:0' });
      const d = await issue({ printOrderId: 5002, poId: '2', storefrontId: 'other' });
      const e = await issue({ printOrderId: 5002, purpose: 'creditMemo', scope: 'shipment:1' });
      // Beyond 32 bits, as a print service's ids may grow (PostgreSQL hands BIGINT back as text).
      const f = await issue({ printOrderId: 3_000_000_001, poId: '3' });
      const ids = (list: { invoiceId: string }[]) => list.map((i) => i.invoiceId);
      expect(ids(await store.invoices.listByPo('1'))).toEqual([a, b, c, e]);
      expect(ids(await store.invoices.listByPrintOrder('demo', 5002))).toEqual([a, c, e]);
      expect(ids(await store.invoices.listByPrintOrder('other', 5002))).toEqual([d]);
      expect(await store.invoices.listByPrintOrder('demo', 3_000_000_001)).toMatchObject([
        { invoiceId: f, printOrderId: 3_000_000_001 },
      ]);
      expect(await store.invoices.listByPo('9')).toEqual([]);
      expect(await store.invoices.listByPrintOrder('demo', 1)).toEqual([]);
    });

    it('hands out copies', async () => {
      const { store } = current();
      const input = invoice();
      const { invoice: issued } = await store.invoices.issue(input);
      const kept = structuredClone(issued);
      input.amounts.due = '0.00';
      input.invoiceDate.setTime(0);
      issued.amounts.due = '1.00';
      issued.invoiceDate.setTime(0);
      issued.invoiceId = 'changed';
      const [listed] = await store.invoices.listByPo('1');
      listed!.amounts.tax = '9.99';
      expect(await store.invoices.get(kept.id)).toStrictEqual(kept);
      expect(await store.invoices.listByPrintOrder('demo', 5001)).toStrictEqual([kept]);
    });

    it('queues an invoice document in the outbox under the invoice’s dedupe key', async () => {
      const { store } = current();
      const { invoice: issued } = await store.invoices.issue(invoice());
      const message = {
        buyerId: 'acme',
        poId: '1',
        kind: 'invoice' as const,
        dedupeKey: issued.dedupeKey,
        url: 'https://buyer.example.com/cxml',
        body: '<cXML><Request><InvoiceDetailRequest/></Request></cXML>',
      };
      const queued = await store.outbox.enqueue(message);
      expect(queued.created).toBe(true);
      expect(queued.message.kind).toBe('invoice');
      expect((await store.outbox.enqueue(message)).created).toBe(false);
      expect(await store.outbox.get(queued.message.id)).toMatchObject({ kind: 'invoice' });
    });
  });

  describe('invoice holds', () => {
    it('records one hold per print order and scope, taking new figures only while it is held', async () => {
      const { store, clock } = current();
      const first = await store.invoiceHolds.hold(hold());
      expect(first).toStrictEqual({
        ...hold(),
        id: first.id,
        state: 'held',
        createdAt: new Date(clock.now().getTime()),
        updatedAt: new Date(clock.now().getTime()),
      });
      clock.advance(HOUR);
      const moved = await store.invoiceHolds.hold(hold({ reason: 'other', amounts: { currency: 'USD' } }));
      expect(moved).toMatchObject({ id: first.id, reason: 'other', amounts: { currency: 'USD' } });
      expect(moved.updatedAt.getTime()).toBe(first.createdAt.getTime() + HOUR);
      const other = await store.invoiceHolds.hold(hold({ scope: 'shipment:1' }));
      expect(other.id).not.toBe(first.id);
      expect((await store.invoiceHolds.listByPo('1')).map((h) => h.id)).toStrictEqual([first.id, other.id]);
      expect((await store.stats(clock.now())).invoicesHeld).toBe(2);
    });

    it('settles a hold once, from the states named, and keeps a settled hold as it was', async () => {
      const { store, clock } = current();
      const held = await store.invoiceHolds.hold(hold());
      const invoiced = await store.invoiceHolds.settle(
        held.id,
        { state: 'invoiced', invoiceId: 'INV-1', prices: 'po', note: 'agreed by phone' },
        ['held'],
      );
      expect(invoiced).toMatchObject({
        state: 'invoiced',
        prices: 'po',
        invoiceId: 'INV-1',
        note: 'agreed by phone',
      });
      expect(
        await store.invoiceHolds.settle(held.id, { state: 'waived', note: 'x' }, ['held']),
      ).toBeUndefined();
      // Found again by a later look: the operator's decision stands.
      expect(await store.invoiceHolds.hold(hold({ reason: 'again' }))).toStrictEqual(invoiced);
      expect((await store.stats(clock.now())).invoicesHeld).toBe(0);
      expect(await store.invoiceHolds.get('424242')).toBeUndefined();
      expect(
        await store.invoiceHolds.settle('424242', { state: 'waived', note: 'x' }, ['held']),
      ).toBeUndefined();
    });
  });
}
