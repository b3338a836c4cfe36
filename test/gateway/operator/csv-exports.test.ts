/**
 * `GET /admin/export/orders.csv` and `GET /admin/export/invoices.csv`: exact headers and cells, RFC 4180
 * quoting (read back by csv-parse, an independent reader), the formula-injection guard, the window and buyer filters, refusals that name the parameter,
 * and a download that is streamed: the store is read a page at a time, as the client takes the file.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { guardedCell } from '../../../src/gateway/operator/csv-download.ts';
import type { Store } from '../../../src/store/port.ts';
import type { NewPurchaseOrder } from '../../../src/store/types.ts';
import {
  adminJson,
  adminRequest,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { START } from '../../support/stack.ts';
import { createTestStore } from '../../support/test-store.ts';

const ORDER_HEADER =
  'PO record,Buyer,PO number,Type,Order version,Order date,Received (UTC),State,Total,Currency,Print orders,Mode,Flags,payloadID';

/** A PO as a buyer's system might word it, straight into the store (no print service needed). */
function storedPo(n: number, overrides: Partial<NewPurchaseOrder> = {}): NewPurchaseOrder {
  return {
    buyerId: 'acme',
    payloadId: `${n}@ariba.example`,
    orderId: `PO-${n}`,
    type: 'new',
    raw: '<cXML/>',
    document: {
      request: { total: { value: `${n}.50`, currency: 'EUR' }, orderDate: { raw: '2026-11-22T10:00:00' } },
      lines: [],
      mismatches: [],
    },
    answer: { code: 200, text: 'OK' },
    ...overrides,
  };
}

/** The answer and its text; the file starts with the UTF-8 byte-order mark, which decoding drops. */
async function csvOf(stack: OrderStack, path: string) {
  const res = await adminRequest(stack, path);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return { res, text: new TextDecoder().decode(bytes) };
}

describe('GET /admin/export/orders.csv', () => {
  it('answers the POs of the window as CSV: headers, quoting, formula cells defused', async () => {
    const stack = await createOrderStack();
    await stack.store.orders.accept(storedPo(1));
    await stack.store.orders.accept(
      storedPo(2, { orderId: '=HYPERLINK("http://evil.example","click")', payloadId: '+2@x, "quoted"' }),
    );
    await stack.store.orders.accept(
      storedPo(3, { buyerId: 'coupa', orderId: '@SUM(A1)', payloadId: 'two\r\nlines' }),
    );
    const { res, text } = await csvOf(stack, '/admin/export/orders.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="orders-all.csv"');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const received = new Date(START).toISOString();
    expect(text).toBe(
      `${ORDER_HEADER}\r\n` +
        `1,acme,PO-1,new,,2026-11-22T10:00:00,${received},received,1.50,EUR,,production,,1@ariba.example\r\n` +
        `2,acme,"'=HYPERLINK(""http://evil.example"",""click"")",new,,2026-11-22T10:00:00,${received},received,2.50,EUR,,production,,"'+2@x, ""quoted"""\r\n` +
        `3,coupa,'@SUM(A1),new,,2026-11-22T10:00:00,${received},received,3.50,EUR,,production,,"two\r\nlines"\r\n`,
    );
    // What a spreadsheet reads back: the texts, behind the guard, never a formula.
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r['PO number'])).toEqual([
      'PO-1',
      `'=HYPERLINK("http://evil.example","click")`,
      "'@SUM(A1)",
    ]);
    expect(rows.map((r) => r.payloadID)).toEqual(['1@ariba.example', `'+2@x, "quoted"`, 'two\r\nlines']);
  });

  it('narrows to the buyer and the window, names the file after them, and carries a real PO', async () => {
    const stack = await createOrderStack();
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { payloadID: 'e1@ariba.example', orderID: 'PO-E1', lines: linesOf(cart) });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-E1');
    stack.clock.advance(2 * 86_400);
    await stack.store.orders.accept(storedPo(9));
    const today = new Date(START).toISOString().slice(0, 10);
    const { res, text } = await csvOf(stack, `/admin/export/orders.csv?from=${today}&to=${today}&buyer=acme`);
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="orders-${today}-to-${today}-acme.csv"`,
    );
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      Buyer: 'acme',
      'PO number': 'PO-E1',
      State: 'ordered',
      'Print orders': String(printOrderId),
      payloadID: 'e1@ariba.example',
    });
    // The total as the PO states it, exactly (a decimal string, no binary rounding).
    const detail = await adminJson(stack, `/admin/orders/${rows[0]!['PO record']}`);
    expect(rows[0]).toMatchObject({
      Total: detail.body.request.total.value,
      Currency: detail.body.request.total.currency,
    });
    expect((await csvOf(stack, '/admin/export/orders.csv?buyer=coupa')).text).toBe(`${ORDER_HEADER}\r\n`);
  });

  it('refuses a bad window with a 400 naming the parameter, and a call without the token with a 401', async () => {
    const stack = await createOrderStack();
    const refused = (message: string) => ({ status: 400, body: { error: { code: 'bad_request', message } } });
    expect(await adminJson(stack, '/admin/export/orders.csv?from=yesterday')).toEqual(
      refused('from must be a date (YYYY-MM-DD) or an ISO 8601 date-time.'),
    );
    expect(await adminJson(stack, '/admin/export/invoices.csv?to=2026-13-01')).toEqual(
      refused('to must be a date (YYYY-MM-DD) or an ISO 8601 date-time.'),
    );
    expect(await adminJson(stack, '/admin/export/orders.csv?from=2026-12-01&to=2026-11-01')).toEqual(
      refused('from must not be after to.'),
    );
    const anonymous = await adminRequest(stack, '/admin/export/orders.csv', {}, '');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('Content-Type')).toContain('application/json');
  });

  it('streams: the store is read a page at a time, as the client takes the file', async () => {
    const pagesRead: number[] = [];
    let store: Store | undefined;
    const stack = await createOrderStack(orderConfig(), {
      store: (() => {
        const clock = { now: () => new Date(START) };
        const inner = createTestStore({ clock });
        store = inner;
        const orders = inner.orders;
        return {
          ...inner,
          orders: {
            ...orders,
            listReceived: async (window: Parameters<Store['orders']['listReceived']>[0]) => {
              const page = await orders.listReceived(window);
              pagesRead.push(page.items.length);
              return page;
            },
          },
        } as Store;
      })(),
    });
    for (let n = 1; n <= 1000; n++) await store!.orders.accept(storedPo(n));

    const res = await adminRequest(stack, '/admin/export/orders.csv');
    expect(res.status).toBe(200);
    // The answer is there before a single page is read: only the heading is waiting.
    expect(pagesRead).toEqual([]);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const heading = await reader.read();
    expect(heading.value).toBe(`${ORDER_HEADER}\r\n`);
    expect(pagesRead).toEqual([]);
    const first = await reader.read();
    expect(first.value?.split('\r\n').filter((l) => l !== '')).toHaveLength(200);
    expect(pagesRead).toEqual([200]);
    let text = `${heading.value}${first.value}`;
    for (let chunk = await reader.read(); chunk.done !== true; chunk = await reader.read())
      text += chunk.value;
    expect(pagesRead).toEqual([200, 200, 200, 200, 200]);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r['PO number'])).toEqual(Array.from({ length: 1000 }, (_, i) => `PO-${i + 1}`));
  });
});

describe('GET /admin/export/invoices.csv', () => {
  it('answers each invoice with its PO number, amounts and delivery', async () => {
    const base = orderConfig();
    const stack = await createOrderStack({
      ...base,
      buyers: base.buyers.map((b) =>
        b.id === 'acme' ? { ...b, invoices: { send: 'on-ship' as const } } : b,
      ),
    });
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    await sendOrder(stack, { payloadID: 'i1@ariba.example', orderID: 'PO-I1', lines: linesOf(cart) });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-I1');
    await stack.api.markShipped(printOrderId ?? 0, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    const order = await stack.store.orders.getByPayloadId('acme', 'i1@ariba.example');
    const [invoice] = await stack.store.invoices.listByPo(order!.id);
    if (invoice === undefined) throw new Error('no invoice was issued');

    const { res, text } = await csvOf(stack, '/admin/export/invoices.csv?buyer=acme');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="invoices-all-acme.csv"');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      {
        Invoice: invoice.invoiceId,
        Purpose: 'standard',
        'Credits invoice record': '',
        Buyer: 'acme',
        'PO record': order!.id,
        'PO number': 'PO-I1',
        'Print order': String(printOrderId),
        Covers: invoice.scope,
        'Invoice date (UTC)': invoice.invoiceDate.toISOString(),
        Currency: invoice.amounts.currency,
        Subtotal: invoice.amounts.subtotal,
        Tax: invoice.amounts.tax,
        Shipping: invoice.amounts.shipping,
        Discount: invoice.amounts.discount,
        Due: invoice.amounts.due,
        Delivery: 'delivered',
        'Delivered (UTC)': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        'Held before': '',
        'Invoice record': invoice.id,
      },
    ]);
    expect((await csvOf(stack, '/admin/export/invoices.csv?to=2000-01-01')).text.split('\r\n')).toHaveLength(
      2,
    );
  });
});

describe('GET /admin/export/refusals.csv', () => {
  it('answers the refusals log newest first, with the answer sent and never the document', async () => {
    const stack = await createOrderStack();
    const caps = { perAddress: 100, total: 1000 };
    const refusal = (n: number, buyerId?: string) => ({
      ...(buyerId !== undefined && { buyerId }),
      channel: 'cxml' as const,
      documentType: 'PunchOutSetupRequest',
      payloadId: `${n}@buyer.example`,
      clientAddress: '198.51.100.7',
      status: 401,
      answer: 'Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
      document: '<cXML><SharedSecret>[blanked]</SharedSecret></cXML>',
      documentBytes: 900 + n,
    });
    const first = await stack.store.refusals.add(refusal(1, 'acme'), caps);
    stack.clock.advance(60);
    const second = await stack.store.refusals.add(refusal(2), caps);
    stack.clock.advance(60);
    await stack.store.refusals.add(refusal(3, 'coupa'), caps);

    const { res, text } = await csvOf(stack, '/admin/export/refusals.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="refusals-all.csv"');
    expect(text).not.toContain('[blanked]');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.Buyer, r.payloadID, r['Bytes received']])).toEqual([
      ['coupa', '3@buyer.example', '903'],
      ['unknown', '2@buyer.example', '902'],
      ['acme', '1@buyer.example', '901'],
    ]);
    expect(rows[2]).toEqual({
      'Refused (UTC)': first.createdAt.toISOString(),
      Buyer: 'acme',
      Channel: 'cxml',
      Document: 'PunchOutSetupRequest',
      payloadID: '1@buyer.example',
      'Client address': '198.51.100.7',
      Status: '401',
      Answer: 'Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
      'Bytes received': '901',
      Entry: first.id,
    });
    // A window that ends at the second entry's instant includes it (the end is inclusive, as for POs).
    const until = await csvOf(
      stack,
      `/admin/export/refusals.csv?to=${encodeURIComponent(second.createdAt.toISOString())}`,
    );
    expect((parse(until.text, { columns: true }) as Record<string, string>[]).map((r) => r.Entry)).toEqual([
      second.id,
      first.id,
    ]);
    expect((await csvOf(stack, '/admin/export/refusals.csv?buyer=acme')).text).toContain(first.id);
    const bad = await adminJson(stack, '/admin/export/refusals.csv?from=yesterday');
    expect(bad.status).toBe(400);
  });
});

describe('the formula guard', () => {
  it('puts a quote before what a spreadsheet would run, and leaves numbers and text alone', () => {
    expect(['=1+1', '+44 20', '-x', '@cmd', '\tx', '\rx', '＝1'].map(guardedCell)).toEqual([
      "'=1+1",
      "'+44 20",
      "'-x",
      "'@cmd",
      "'\tx",
      "'\rx",
      "'＝1",
    ]);
    expect(['-12.50', '12', 'PO-1', '', 'a=b'].map(guardedCell)).toEqual(['-12.50', '12', 'PO-1', '', 'a=b']);
    expect(guardedCell(undefined)).toBe('');
    expect(guardedCell(5001)).toBe('5001');
  });
});
