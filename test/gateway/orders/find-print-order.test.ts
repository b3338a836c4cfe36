import { describe, expect, it } from 'vitest';
import type { Order } from '../../../schemas/print-api.ts';
import {
  type PrintOrderSearch,
  type SearchOutcome,
  searchPrintOrder,
} from '../../../src/gateway/orders/find-print-order.ts';
import { type PrintApi, PrintApiError } from '../../../src/print-api/index.ts';

const PO_TIME = new Date('2026-11-22T09:00:00Z');
const OLD = '2026-11-01T10:00:00Z';

interface FakeOrder {
  id: number;
  po?: string;
  customer?: number;
  created?: string;
}

/** A print service holding these orders; every other id is 404; `failing` ids answer 503. */
function fakeService(
  orders: FakeOrder[],
  options: { report?: Record<string, unknown>[] | 'fails'; failing?: number[] } = {},
) {
  const reads: number[] = [];
  const api = {
    async getOrder(id: number) {
      reads.push(id);
      if (options.failing?.includes(id)) {
        throw new PrintApiError('unavailable', `GET /api/v2/order/${id}: 503`, { status: 503 });
      }
      const order = orders.find((o) => o.id === id);
      if (order === undefined) throw new PrintApiError('not_found', 'Order not found.', { status: 404 });
      return {
        id,
        po_number: order.po ?? '',
        ...(order.po !== undefined && { integration_id: order.po }),
        customer: { id: order.customer ?? 7 },
        created_on: order.created ?? '2026-11-22T09:05:00Z',
      } as unknown as Order;
    },
    async report() {
      if (options.report === 'fails' || options.report === undefined) {
        throw new PrintApiError('bad_request', 'GET /api/v2/report/order_details: 400', { status: 400 });
      }
      return options.report;
    },
  };
  return { api: api as unknown as PrintApi, reads };
}

function search(api: PrintApi, overrides: Partial<PrintOrderSearch> = {}): Promise<SearchOutcome> {
  return searchPrintOrder({
    api,
    externalId: 'PO-1',
    customerId: 7,
    storefrontId: 1,
    since: PO_TIME,
    after: 100,
    trackedElsewhere: async () => false,
    limits: { missRun: 3, probes: 8, hints: 3 },
    ...overrides,
  });
}

describe('searching for the print order of a cut-off create', () => {
  it('finds it past a gap shorter than the run of 404s that ends the search', async () => {
    const { api, reads } = fakeService([{ id: 101 }, { id: 104, po: 'PO-1' }]);
    const outcome = await search(api);
    expect(outcome).toMatchObject({ kind: 'found', order: { id: 104 } });
    expect(reads).toEqual([101, 102, 103, 104]);
  });

  it('calls it absent after the run of 404s past the newest order, passing over orders that are not ours', async () => {
    const { api, reads } = fakeService([
      { id: 101, po: 'PO-1', customer: 8 }, // another customer's order with the same PO number
      { id: 102, po: 'PO-1' }, // ours by number, but tracked for another PO
      { id: 104, po: 'PO-2' },
    ]);
    const outcome = await search(api, { trackedElsewhere: async (id) => id === 102 });
    expect(outcome).toEqual({ kind: 'absent', after: 100, through: 107 });
    expect(reads).toEqual([101, 102, 103, 104, 105, 106, 107]);
  });

  it('is inconclusive when the probe budget runs out, and says how far every id is ruled out', async () => {
    const orders = Array.from({ length: 20 }, (_, i) => ({ id: 101 + i }));
    const { api } = fakeService(orders);
    expect(await search(api)).toEqual({
      kind: 'inconclusive',
      reason: "8 ids looked at without reaching the end of the service's orders",
      after: 108,
      searched: 'ids 101–108',
    });
  });

  it('is inconclusive at the first id the service cannot answer, keeping what it ruled out before', async () => {
    const { api } = fakeService([{ id: 101 }, { id: 102 }], { failing: [103] });
    expect(await search(api)).toEqual({
      kind: 'inconclusive',
      reason: 'order 103 could not be read (unavailable 503)',
      after: 102,
      searched: 'ids 101–102',
    });
  });

  it('without a floor and without a usable report, looks at no id at all', async () => {
    const { api, reads } = fakeService([{ id: 101, po: 'PO-1' }], { report: 'fails' });
    expect(await search(api, { after: undefined })).toEqual({
      kind: 'inconclusive',
      reason: 'no order id of the storefront from before the create is known to search upward from',
      after: undefined,
      searched: 'no id',
    });
    expect(reads).toEqual([]);
  });

  it('takes a floor from the report only after the order itself shows it predates the PO', async () => {
    const report = [
      { order_id: 90, created_on: OLD },
      { order_id: 95, created_on: OLD }, // the report says old, the order says otherwise
    ];
    const late = fakeService([{ id: 90, created: OLD }, { id: 95 }, { id: 96, po: 'PO-1' }], { report });
    expect(await search(late.api, { after: undefined })).toMatchObject({
      kind: 'inconclusive',
      after: undefined,
    });
    expect(late.reads).toEqual([95]);

    const sound = fakeService(
      [
        { id: 95, created: OLD },
        { id: 97, po: 'PO-1' },
      ],
      { report },
    );
    expect(await search(sound.api, { after: undefined })).toMatchObject({ kind: 'found', order: { id: 97 } });
    expect(sound.reads).toEqual([95, 96, 97]);
  });

  it('follows a report record that carries our PO number, but adopts only what the order itself shows', async () => {
    const report = [{ order_id: 250, po_number: 'PO-1', created_on: '2026-11-22T09:05:00Z' }];
    const { api, reads } = fakeService([{ id: 250, po: 'PO-1' }], { report });
    expect(await search(api)).toMatchObject({ kind: 'found', order: { id: 250 } });
    expect(reads).toEqual([250]);

    const wrong = fakeService([{ id: 250, po: 'PO-1', customer: 8 }], { report });
    expect(await search(wrong.api)).toMatchObject({ kind: 'absent' });
  });
});
