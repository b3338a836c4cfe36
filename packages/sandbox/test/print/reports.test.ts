import {
  type Order,
  REPORT_TYPES,
  SANDBOX_REPORT_RECORDS,
  type SalesReportRecord,
} from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { errorOf, type Harness, makeHarness } from './sandbox-harness.ts';

async function report<T = Record<string, unknown>>(h: Harness, query: string): Promise<T[]> {
  const res = await h.call('GET', `/api/v2/report/${query}`);
  expect(res.status, query).toBe(200);
  return (await res.json()) as T[];
}

/** An order's total as the reports define it: items, every shipment's shipping and tax, less the promotion. */
async function orderTotal(h: Harness, id: number): Promise<number> {
  const order = (await (await h.call('GET', `/api/v2/order/${id}`)).json()) as Order;
  const shipping = order.shipments.reduce((sum, s) => sum + s.shipping_total + s.tax_total, 0);
  return Math.round((order.sub_total + shipping - order.promotion_total) * 100) / 100;
}

const round = (n: number) => Math.round(n * 100) / 100;

describe('sandbox reports', () => {
  it('E31 R13 sales is computed from the real orders, one record per storefront (storefrontId 0 = all)', async () => {
    const h = makeHarness();
    const totals = await Promise.all([1001, 1002, 1003, 1004, 1005, 1006].map((id) => orderTotal(h, id)));
    const shopTotal = round(totals.reduce((a, b) => a + b, 0));
    const records = await report<SalesReportRecord>(h, 'sales?storefrontId=0');
    expect(records).toEqual([
      {
        storefront: 'Demo Print Shop',
        user_count: 2,
        order_count: 6,
        order_average: round(shopTotal / 6),
        order_total: shopTotal,
      },
      {
        storefront: 'Campus Copy Center',
        user_count: 1,
        order_count: 1,
        order_average: await orderTotal(h, 1010),
        order_total: await orderTotal(h, 1010),
      },
    ]);
    expect(Object.keys(records[0]!)).toEqual([
      'storefront',
      'user_count',
      'order_count',
      'order_average',
      'order_total',
    ]);
    expect(await report(h, 'sales')).toEqual(records);
  });

  it('R13 fromDate and toDate are inclusive days; storefrontId narrows; new and deleted orders count as they are', async () => {
    const h = makeHarness();
    const window = await report<SalesReportRecord>(
      h,
      'sales?storefrontId=1&fromDate=2025-02-11&toDate=2025-02-15',
    );
    expect(window).toEqual([
      {
        storefront: 'Demo Print Shop',
        user_count: 2,
        order_count: 2,
        order_average: round(((await orderTotal(h, 1001)) + (await orderTotal(h, 1002))) / 2),
        order_total: round((await orderTotal(h, 1001)) + (await orderTotal(h, 1002))),
      },
    ]);
    const today = 'sales?storefrontId=1&fromDate=2025-03-03&toDate=2025-03-03';
    expect((await report<SalesReportRecord>(h, today))[0]!.order_count).toBe(0);
    const order = h.control.checkout({ customerId: 201, items: [{ productId: 101, quantity: 1000 }] });
    expect((await report<SalesReportRecord>(h, today))[0]).toMatchObject({
      order_count: 1,
      order_total: 120,
    });
    h.control.deleteOrder(order.id);
    expect((await report<SalesReportRecord>(h, today))[0]!.order_count).toBe(0);
  });

  it('R13 viewBy groups the order report by day (default), month or year', async () => {
    const h = makeHarness();
    const byDay = await report<{ period: string; order_count: number }>(h, 'order?storefrontId=1');
    expect(byDay.map((r) => r.period)).toEqual([
      '2025-01-10',
      '2025-01-28',
      '2025-02-11',
      '2025-02-15',
      '2025-02-20',
      '2025-03-02',
    ]);
    expect(await report(h, 'order?storefrontId=1&viewBy=day')).toEqual(byDay);
    const byMonth = await report<{ period: string; order_count: number }>(h, 'order?viewBy=month');
    expect(byMonth.map((r) => [r.period, r.order_count])).toEqual([
      ['2025-01', 2],
      ['2025-02', 4],
      ['2025-03', 1],
    ]);
    expect(await report(h, 'order?viewBy=year')).toEqual([
      expect.objectContaining({ period: '2025', order_count: 7, item_count: 9 }),
    ]);
  });

  it('R13 every one of the 12 report types answers records of its documented shape', async () => {
    const h = makeHarness();
    expect(REPORT_TYPES).toHaveLength(12);
    for (const type of REPORT_TYPES) {
      const records = await report(h, type);
      expect(records.length, type).toBeGreaterThan(0);
      for (const record of records) {
        expect(
          SANDBOX_REPORT_RECORDS[type].safeParse(record).success,
          `${type} ${JSON.stringify(record)}`,
        ).toBe(true);
      }
    }
    expect(await report(h, 'promotion_code')).toEqual([
      {
        storefront: 'Demo Print Shop',
        promotion_code: 'SPRING10',
        order_count: 1,
        discount_total: 10,
        order_total: await orderTotal(h, 1001),
      },
    ]);
    const reps = await report<{ sales_rep: string; customer_count: number }>(h, 'sales_rep?storefrontId=1');
    expect(reps.map((r) => [r.sales_rep, r.customer_count])).toEqual([['Sam Rivera', 2]]);
    const projects = await report<{ project_id: number }>(h, 'saved_projects?storefrontId=1');
    expect(projects.map((p) => p.project_id)).toEqual([3001, 3002, 3003]);
    const products = await report<{ product_id: number; quantity: number }>(
      h,
      'product_sales?storefrontId=1',
    );
    expect(products.find((p) => p.product_id === 101)!.quantity).toBe(250 + 500 + 250);
  });

  it('R13 bad query values are 400 with a message naming the parameter', async () => {
    const h = makeHarness();
    const cases: [string, string][] = [
      ['sales?fromDate=2025-02-30', 'fromDate must be a calendar date as YYYY-MM-DD.'],
      ['sales?toDate=20250101', 'toDate must be a calendar date as YYYY-MM-DD.'],
      ['sales?fromDate=2025-03-01&toDate=2025-02-01', 'fromDate must not be after toDate.'],
      ['sales?storefrontId=abc', 'storefrontId must be an integer (0 means all storefronts).'],
      ['sales?storefrontId=-1', 'storefrontId must be an integer (0 means all storefronts).'],
      ['sales?storefrontId=3', 'storefrontId 3 is not a storefront of this license.'],
      ['order?viewBy=week', 'viewBy must be day, month or year.'],
      ['sales?viewBy=day', 'viewBy applies only to report type order.'],
    ];
    for (const [query, message] of cases) {
      expect(await errorOf(await h.call('GET', `/api/v2/report/${query}`)), query).toEqual({
        status: 400,
        message,
      });
    }
  });

  it('E31 an unknown report type is 404 naming the valid ones', async () => {
    const h = makeHarness();
    expect(await errorOf(await h.call('GET', '/api/v2/report/revenue'))).toEqual({
      status: 404,
      message: `Unknown report type 'revenue'; report types are ${REPORT_TYPES.join(', ')}.`,
    });
  });
});
