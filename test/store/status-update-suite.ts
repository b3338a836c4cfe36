/**
 * The buyer's-word part of the Store contract suite (`store-suite.ts` runs it against every adapter): a
 * StatusUpdateRequest is recorded once per (buyer, payloadID), listed per PO in the order received; a sent
 * document is found by its payloadID (its first message, re-sends carry the same document), only for its
 * own buyer; an invoice by its cXML invoiceID, only for its own buyer.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.ts';
import type { NewInvoice, NewOutboxMessage, NewStatusUpdate } from '../../src/store/types.ts';
import type { ManualClock } from './manual-clock.ts';

function update(overrides: Partial<NewStatusUpdate> = {}): NewStatusUpdate {
  return {
    buyerId: 'acme',
    poId: '7',
    payloadId: '1714640000000.77@coupa.example',
    invoiceRecordId: '3',
    documentId: '11',
    status: { code: 200, text: 'OK', message: '' },
    invoiceStatus: 'rejected',
    comments: 'Shipping not on the PO.\nVersand fehlt – bitte Gutschrift.',
    ...overrides,
  };
}

/** A document as the gateway builds them: the `<cXML>` root's payloadID first, a reference's after it. */
function document(payloadId: string, overrides: Partial<NewOutboxMessage> = {}): NewOutboxMessage {
  return {
    buyerId: 'acme',
    poId: '7',
    kind: 'invoice',
    dedupeKey: `invoice:demo:5001:order:standard:${payloadId}`,
    url: 'https://buyer.example/cxml',
    body:
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/InvoiceDetail.dtd">\n' +
      `<cXML version="1.2.071" payloadID="${payloadId}" timestamp="2025-03-01T09:30:00+00:00"><Request>` +
      '<InvoiceDetailRequest><DocumentReference payloadID="po-payload@buyer.example"/></InvoiceDetailRequest>' +
      '</Request></cXML>',
    ...overrides,
  };
}

const INVOICE: NewInvoice = {
  buyerId: 'acme',
  poId: '7',
  storefrontId: 'demo',
  printOrderId: 5001,
  scope: 'order',
  purpose: 'standard',
  invoiceId: 'PS-2025-0042',
  invoiceDate: new Date('2025-03-01T09:30:00.000Z'),
  amounts: {
    currency: 'USD',
    subtotal: '12.00',
    tax: '0.00',
    shipping: '0.00',
    discount: '0.00',
    due: '12.00',
  },
};

/** Defines the tests on the suite's current store and clock (set afresh before each test). */
export function describeStatusUpdates(current: () => { store: Store; clock: ManualClock }): void {
  describe('status updates from buyers', () => {
    it('records an update once per buyer and payloadID, and answers the first one to a repeat', async () => {
      const { store, clock } = current();
      const first = await store.statusUpdates.record(
        update({ partialAmount: { value: '15.50', currency: 'USD' } }),
      );
      expect(first.created).toBe(true);
      expect(first.update).toStrictEqual({
        ...update({ partialAmount: { value: '15.50', currency: 'USD' } }),
        id: first.update.id,
        receivedAt: clock.now(),
      });
      clock.advance(60_000);
      const again = await store.statusUpdates.record(update({ invoiceStatus: 'paid', comments: '' }));
      expect(again).toStrictEqual({ created: false, update: first.update });
      // Another buyer may use the same payloadID: its own record.
      const other = await store.statusUpdates.record(update({ buyerId: 'globex', poId: '8' }));
      expect(other.created).toBe(true);
    });

    it('lists a PO’s updates in the order received, optional fields absent when not given', async () => {
      const { store, clock } = current();
      await store.statusUpdates.record(update({ payloadId: 'a', invoiceStatus: 'processing', comments: '' }));
      clock.advance(1000);
      const plain = update({
        payloadId: 'b',
        status: { code: 500, text: 'Error', message: 'Mapping failed' },
      });
      delete plain.invoiceStatus;
      delete plain.invoiceRecordId;
      await store.statusUpdates.record(plain);
      await store.statusUpdates.record(update({ payloadId: 'c', poId: '99' }));
      const listed = await store.statusUpdates.listByPo('7');
      expect(listed.map((u) => u.payloadId)).toEqual(['a', 'b']);
      expect(listed[1]).not.toHaveProperty('invoiceStatus');
      expect(listed[1]).not.toHaveProperty('invoiceRecordId');
      expect(listed[1]).not.toHaveProperty('partialAmount');
      expect(listed[1]?.status).toEqual({ code: 500, text: 'Error', message: 'Mapping failed' });
      expect(listed[1]?.receivedAt).toEqual(new Date(clock.now().getTime()));
      expect(await store.statusUpdates.listByPo('none')).toEqual([]);
    });

    it('answers the latest InvoiceStatus of each of a buyer’s invoices received since a moment, across POs', async () => {
      const { store, clock } = current();
      const since = new Date(clock.now().getTime());
      await store.statusUpdates.record(
        update({ payloadId: 'a', invoiceRecordId: '3', invoiceStatus: 'processing' }),
      );
      clock.advance(1000);
      await store.statusUpdates.record(
        update({ payloadId: 'b', invoiceRecordId: '3', invoiceStatus: 'paid' }),
      );
      await store.statusUpdates.record(
        update({ payloadId: 'c', poId: '8', invoiceRecordId: '4', invoiceStatus: 'rejected' }),
      );
      // Without an invoice status (a buyer's Status of a confirmation) it says nothing of any invoice.
      const plain = update({ payloadId: 'd', invoiceRecordId: '4' });
      delete plain.invoiceStatus;
      await store.statusUpdates.record(plain);
      await store.statusUpdates.record(update({ buyerId: 'globex', payloadId: 'e', invoiceRecordId: '5' }));
      expect(await store.statusUpdates.latestInvoiceStatuses('acme', since)).toEqual(
        new Map([
          ['3', 'paid'],
          ['4', 'rejected'],
        ]),
      );
      // Updates received before the window are not read.
      expect(
        await store.statusUpdates.latestInvoiceStatuses('acme', new Date(clock.now().getTime() + 1)),
      ).toEqual(new Map());
    });

    it('finds a document sent to the buyer by its payloadID: the first message of it, never another buyer’s', async () => {
      const { store } = current();
      const { message: first } = await store.outbox.enqueue(document('1740821400000.aaa@punchgate.example'));
      const resend = document('1740821400000.aaa@punchgate.example', { dedupeKey: 'resent' });
      await store.outbox.enqueue(resend);
      await store.outbox.enqueue(document('1740821400000.bbb@punchgate.example'));
      expect((await store.outbox.findByPayloadId('acme', '1740821400000.aaa@punchgate.example'))?.id).toBe(
        first.id,
      );
      // The DocumentReference inside the document is not its payloadID; nor is a part of one.
      expect(await store.outbox.findByPayloadId('acme', 'po-payload@buyer.example')).toBeUndefined();
      expect(await store.outbox.findByPayloadId('acme', '1740821400000.aaa')).toBeUndefined();
      expect(
        await store.outbox.findByPayloadId('globex', '1740821400000.aaa@punchgate.example'),
      ).toBeUndefined();
      // A body without a payloadID is stored as ever and found by nothing.
      await store.outbox.enqueue(document('x', { dedupeKey: 'plain', body: 'not a document' }));
      expect(await store.outbox.findByPayloadId('acme', '')).toBeUndefined();
    });

    it('finds an invoice by its invoiceID, only the buyer’s own', async () => {
      const { store } = current();
      const { invoice } = await store.invoices.issue(INVOICE);
      expect(await store.invoices.getByInvoiceId('acme', 'PS-2025-0042')).toStrictEqual(invoice);
      expect(await store.invoices.getByInvoiceId('globex', 'PS-2025-0042')).toBeUndefined();
      expect(await store.invoices.getByInvoiceId('acme', 'PS-2025-004')).toBeUndefined();
    });
  });
}
