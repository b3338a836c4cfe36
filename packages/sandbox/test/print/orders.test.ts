import { unzipSync } from 'fflate';
import { Order } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { errorOf, makeHarness, NOW } from './sandbox-harness.ts';

const NOW_ISO = new Date(NOW).toISOString();

const ORDER_KEYS = [
  'storefront',
  'id',
  'is_archived',
  'is_deleted',
  'status',
  'customer',
  'shipping_address',
  'billing_address',
  'payment_creditcard',
  'payment_check',
  'payment_cod',
  'payment_po',
  'payment_invoice',
  'payment_paypal',
  'payment_reference',
  'payment_avscode',
  'payment_cvcode',
  'po_number',
  'invoice_number',
  'tax_total',
  'shipping_total',
  'sub_total',
  'promotion_total',
  'promotion_code',
  'created_on',
  'shipped_on',
  'shipping_provider',
  'shipping_service',
  'items',
  'shipments',
  'checkout_fields',
];

const ITEM_KEYS = [
  'id',
  'product_id',
  'name',
  'status',
  'quantity',
  'sub_total',
  'base_price',
  'options_price',
  'markup_price',
  'image_fee',
  'download_fee',
  'weight',
  'created_on',
  'due_on',
  'item_number',
  'model_number',
  'integration_id',
  'vendor',
  'notes',
  'reorder_ref',
  'shipment_index',
  'options',
  'parametric',
];

async function getOrder(h: ReturnType<typeof makeHarness>, id: number): Promise<Order> {
  const res = await h.call('GET', `/api/v2/order/${id}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = await res.json();
  // The answer must satisfy the contract as it is, before any default fills a gap.
  expect(Order.safeParse(body).success).toBe(true);
  return body as Order;
}

async function registerHook(
  h: ReturnType<typeof makeHarness>,
  event: string,
  url = 'https://hooks.example/orders',
) {
  const res = await h.call('POST', '/api/v2/hooks', { body: { target_url: url, event } });
  expect(res.status).toBe(201);
}

function zipEntries(bytes: ArrayBuffer): Record<string, Uint8Array> {
  return unzipSync(new Uint8Array(bytes));
}

const startsWith = (data: Uint8Array, text: string) =>
  new TextDecoder().decode(data.subarray(0, text.length)) === text;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

describe('sandbox orders', () => {
  it('E02 V03 GET order answers the Order object with exactly the interface fields', async () => {
    const h = makeHarness();
    const order = await getOrder(h, 1001);
    expect(Object.keys(order).sort()).toEqual([...ORDER_KEYS, 'card_type', 'card_number'].sort());
    expect(order.id).toBe(1001);
    expect(order.storefront).toBe('Demo Print Shop');
    expect(order.status).toBe('In Production');
    expect(order.customer.username).toBe('jane.buyer');
    expect(order.items.map((i) => Object.keys(i).sort())).toEqual([ITEM_KEYS.sort(), ITEM_KEYS.sort()]);
    expect(order.items.map((i) => i.shipment_index)).toEqual([1, 2]);
    expect(order.shipments.map((s) => s.index)).toEqual([1, 2]);
    expect(order.promotion_code).toBe('SPRING10');
    expect(order.promotion_total).toBe(10);
    expect(order.checkout_fields).toEqual([{ name: 'Cost center', value: 'CC-4410' }]);
    expect(order.created_on).toBe('2025-02-11T10:30:00.000Z');
    expect(order.shipped_on).toBeNull();
  });

  it('E02 integration_id is present only for orders from an external system', async () => {
    const h = makeHarness();
    expect((await getOrder(h, 1003)).integration_id).toBe('PO-778812');
    expect('integration_id' in (await getOrder(h, 1001))).toBe(false);
  });

  it('R01 payment_paypal is true exactly when no other payment method was recorded', async () => {
    const h = makeHarness();
    const flags = async (id: number) => {
      const o = await getOrder(h, id);
      return [
        o.payment_creditcard,
        o.payment_check,
        o.payment_cod,
        o.payment_po,
        o.payment_invoice,
        o.payment_paypal,
      ];
    };
    expect(await flags(1001)).toEqual([true, false, false, false, false, false]);
    expect(await flags(1002)).toEqual([false, true, false, false, false, false]);
    expect(await flags(1003)).toEqual([false, false, false, true, false, false]);
    expect(await flags(1004)).toEqual([false, false, false, false, false, true]);
    expect(await flags(1005)).toEqual([false, false, false, false, true, false]);
    expect(await flags(1006)).toEqual([false, false, true, false, false, false]);
  });

  it('R02 card_type and card_number only for card payments, check_number only for check payments', async () => {
    const h = makeHarness();
    const card = await getOrder(h, 1001);
    expect([card.card_type, card.card_number, 'check_number' in card]).toEqual(['Visa', '4242', false]);
    const check = await getOrder(h, 1002);
    expect([check.check_number, 'card_type' in check, 'card_number' in check]).toEqual([
      '10045',
      false,
      false,
    ]);
    for (const id of [1003, 1004, 1005, 1006]) {
      const other = await getOrder(h, id);
      expect(
        ['card_type', 'card_number', 'check_number'].filter((k) => k in other),
        String(id),
      ).toEqual([]);
    }
    const po = await getOrder(h, 1003);
    expect(po.po_number).toBe('PO-778812');
    expect((await getOrder(h, 1005)).invoice_number).toBe('INV-2025-0042');
  });

  it('R03 the flat shipping fields reflect shipment 1; shipments has one entry per destination', async () => {
    const h = makeHarness();
    const order = await getOrder(h, 1001);
    expect(order.shipments).toHaveLength(2);
    expect(order.shipping_provider).toBe('UPS');
    expect(order.shipping_service).toBe('Ground');
    expect(order.shipping_total).toBe(14.5);
    expect(order.tax_total).toBe(9.52);
    expect(order.shipping_address.line_1).toBe('7 Industrial Way');
    expect(order.shipping_address.company).toBe('Acme Corp');
    expect(order.shipments[0]!.ship_to_address.address1).toBe(order.shipping_address.line_1);
    expect(order.shipments[1]!).toMatchObject({
      index: 2,
      provider: 'FedEx',
      service: '2Day',
      shipping_total: 22,
    });
    expect(order.billing_address.line_1).toBe('100 Market Street');
    const single = await getOrder(h, 1006);
    expect(single.shipments).toHaveLength(1);
    expect(single.shipments[0]!.provider).toBeNull();
    expect(single.shipping_provider).toBe('');
  });

  it('R07 a shipment ship_to_address has first_name, last_name, address1, city, state, zip, country', async () => {
    const h = makeHarness();
    const shipment = (await getOrder(h, 1001)).shipments[1]!;
    expect(shipment.ship_to_address).toEqual({
      first_name: 'Priya',
      last_name: 'Natarajan',
      address1: '55 Lakeshore Drive',
      city: 'Chicago',
      state: 'IL',
      zip: '60601',
      country: 'US',
    });
  });

  it('R04 item_number, model_number and integration_id of a customized copy come from its template', async () => {
    const h = makeHarness();
    const item = (await getOrder(h, 1001)).items[0]!;
    expect(item).toMatchObject({
      id: 5001,
      product_id: 3001,
      name: 'Business cards - Jane Buyer',
      item_number: 'BC-STD',
      model_number: 'BC-350x200',
      integration_id: 'BC-STD',
      vendor: 'Northside Litho',
      notes: '16pt matte, full colour both sides\nRush: trade show',
      reorder_ref: 'RO-1001-1',
      due_on: '2025-02-18T17:00:00.000Z',
    });
  });

  it('R05 parametric is null unless parametric; dimensions go from mm to the product unit; shipment_index defaults to 1', async () => {
    const h = makeHarness();
    const box = (await getOrder(h, 1002)).items[0]!;
    expect(box.parametric).toEqual([
      { name: 'blankWidth', value: '16.535' },
      { name: 'blankHeight', value: '11.693' },
      { name: 'standard', value: 'FEFCO 0201' },
      { name: 'depth', value: '3.15' },
    ]);
    expect(box.shipment_index).toBe(1);
    expect((await getOrder(h, 1001)).items.map((i) => i.parametric)).toEqual([null, null]);
  });

  it('R06 option integration ids are null when not configured', async () => {
    const h = makeHarness();
    expect((await getOrder(h, 1001)).items[1]!.options).toEqual([
      {
        name: 'Finish',
        value: 'Gloss',
        option_integration_id: 'OPT-FINISH',
        value_integration_id: 'FIN-GLOSS',
      },
    ]);
    expect((await getOrder(h, 1005)).items[0]!.options).toEqual([
      { name: 'Finish', value: 'Gloss', option_integration_id: null, value_integration_id: null },
    ]);
    const item = (await getOrder(h, 1001)).items[1]!;
    expect([item.base_price, item.options_price, item.markup_price, item.sub_total]).toEqual([
      175, 12, 5, 192,
    ]);
  });

  it('X11 an unknown order, a non-integer id or an order of another license is 404 "Order not the service."', async () => {
    const h = makeHarness();
    for (const path of [
      '/order/999999',
      '/order/abc',
      '/order/0',
      '/order/-3',
      '/order/1.5',
      '/order/1020',
    ]) {
      expect(await errorOf(await h.call('GET', `/api/v2${path}`)), path).toEqual({
        status: 404,
        message: 'Order not the service.',
      });
    }
  });

  it('X12 an item of another order or a bad item id is 404 "Item not the service."', async () => {
    const h = makeHarness();
    for (const path of ['/order/1001/download/5003', '/order/1001/assets/99', '/order/1001/download/x']) {
      expect(await errorOf(await h.call('GET', `/api/v2${path}`)), path).toEqual({
        status: 404,
        message: 'Item not the service.',
      });
    }
    const patch = await h.call('PATCH', '/api/v2/order/1001/status/5003', {
      body: { order_status: 'New Order' },
    });
    expect(await errorOf(patch)).toEqual({ status: 404, message: 'Item not the service.' });
  });

  it('E03 R10 order download is an application/zip attachment order-{id}.zip with one print PDF per item', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/order/1001/download');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename=order-1001.zip');
    const entries = zipEntries(await res.arrayBuffer());
    expect(Object.keys(entries)).toEqual(['1001-5001.pdf', '1001-5002.pdf']);
    for (const data of Object.values(entries)) expect(startsWith(data, '%PDF-')).toBe(true);
  });

  it('X20 R17 order download while an item merges is 409 with Retry-After: 60', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/order/1003/download');
    expect(res.headers.get('Retry-After')).toBe('60');
    expect(await errorOf(res)).toEqual({
      status: 409,
      message: 'All items have not completed merge process.',
    });
  });

  it('E04 X21 item download is item-{itemId}.zip; while merging it is 409 with Retry-After: 30', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/order/1001/download/5002');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename=item-5002.zip');
    expect(Object.keys(zipEntries(await res.arrayBuffer()))).toEqual(['1001-5002.pdf']);
    const merging = await h.call('GET', '/api/v2/order/1003/download/5004');
    expect(merging.headers.get('Retry-After')).toBe('30');
    expect(await errorOf(merging)).toEqual({ status: 409, message: 'Item has not completed merge process.' });
    h.control.finishMerges();
    expect((await h.call('GET', '/api/v2/order/1003/download/5004')).status).toBe(200);
    expect((await h.call('GET', '/api/v2/order/1003/download')).status).toBe(200);
  });

  it('E05 R10 assets are item-assets-{itemId}.zip: design images for editor products, uploaded files for upload products', async () => {
    const h = makeHarness();
    const editor = await h.call('GET', '/api/v2/order/1001/assets/5001');
    expect(editor.status).toBe(200);
    expect(editor.headers.get('Content-Type')).toBe('application/zip');
    expect(editor.headers.get('Content-Disposition')).toBe('attachment; filename=item-assets-5001.zip');
    const images = zipEntries(await editor.arrayBuffer());
    expect(Object.keys(images)[0]).toBe('design-5001.png');
    for (const data of Object.values(images)) expect([...data.subarray(0, 4)]).toEqual(PNG_SIGNATURE);
    expect(Object.keys(images)).toContain('images/photo-13.png');
    const upload = await h.call('GET', '/api/v2/order/1003/assets/5005');
    expect(upload.headers.get('Content-Disposition')).toBe('attachment; filename=item-assets-5005.zip');
    const files = zipEntries(await upload.arrayBuffer());
    expect(Object.keys(files)).toEqual(['brochure-final.pdf', 'brochure-inside.pdf']);
    expect(startsWith(files['brochure-final.pdf']!, '%PDF-')).toBe(true);
  });

  it('E06 T01 T07 N02 R09 order shipped: every item and shipment shipped, tracking appended without duplicates, e-mail, order_updated', async () => {
    const h = makeHarness();
    await registerHook(h, 'order_updated');
    const res = await h.call('PATCH', '/api/v2/order/1001/shipped', {
      body: { tracking_number: '1ZA, 1ZB' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const again = await h.call('PATCH', '/api/v2/order/1001/shipped', {
      body: { tracking_number: '1ZB,1ZC' },
    });
    expect(again.status).toBe(204);
    const order = await getOrder(h, 1001);
    expect(order.status).toBe('Order Shipped');
    expect(order.items.map((i) => i.status)).toEqual(['Order Shipped', 'Order Shipped']);
    expect(order.shipped_on).toBe(NOW_ISO);
    expect(order.shipments.map((s) => [s.shipped_on, s.tracking_numbers])).toEqual([
      [NOW_ISO, '1ZA, 1ZB, 1ZC'],
      [NOW_ISO, '1ZA, 1ZB, 1ZC'],
    ]);
    const { emails, history } = h.control.orderHistory(1001);
    expect(emails).toEqual([
      { at: NOW_ISO, template: 'Order Shipped', to: 'jane.buyer@example.com', itemId: null },
      { at: NOW_ISO, template: 'Order Shipped', to: 'jane.buyer@example.com', itemId: null },
    ]);
    expect(history[0]).toMatchObject({
      source: 'api',
      status: 'Order Shipped',
      trackingNumbers: ['1ZA', '1ZB'],
    });
    await h.control.idle();
    expect(h.deliveries).toHaveLength(2);
    expect((h.deliveries[1]!.body as Order[])[0]!.status).toBe('Order Shipped');
  });

  it('E06 R08 R09 tracking numbers are split on commas and semicolons only: a number written with spaces stays one', async () => {
    const h = makeHarness();
    const shipped = await h.call('PATCH', '/api/v2/order/1001/shipped', {
      body: { tracking_number: ' 1Z 999 AA1 01 2345 6784 ;JD0146 0000 1234, ' },
    });
    expect(shipped.status).toBe(204);
    const status = await h.call('PATCH', '/api/v2/order/1001/status', {
      body: { order_status: 'Order Shipped', tracking_number: '7489 2200 1234,1Z 999 AA1 01 2345 6784' },
    });
    expect(status.status).toBe(204);
    const order = await getOrder(h, 1001);
    expect(order.shipments.map((s) => s.tracking_numbers)).toEqual([
      '1Z 999 AA1 01 2345 6784, JD0146 0000 1234, 7489 2200 1234',
      '1Z 999 AA1 01 2345 6784, JD0146 0000 1234, 7489 2200 1234',
    ]);
    expect(h.control.orderHistory(1001).history.map((entry) => entry.trackingNumbers)).toEqual([
      ['1Z 999 AA1 01 2345 6784', 'JD0146 0000 1234'],
      ['7489 2200 1234', '1Z 999 AA1 01 2345 6784'],
    ]);
  });

  it('E06 R09 the shipped body is optional: no body marks shipped without tracking numbers', async () => {
    const h = makeHarness();
    expect((await h.call('PATCH', '/api/v2/order/1002/shipped')).status).toBe(204);
    const order = await getOrder(h, 1002);
    expect(order.shipments[0]!.tracking_numbers).toBeNull();
    expect(order.shipments[0]!.shipped_on).toBe(NOW_ISO);
  });

  it('E07 T02 T07 N07 item shipped marks only its item and the shipment holding it', async () => {
    const h = makeHarness();
    await registerHook(h, 'order_updated');
    const res = await h.call('PATCH', '/api/v2/order/1001/shipped/5002', {
      body: { tracking_number: '7489' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const order = await getOrder(h, 1001);
    expect(order.items.map((i) => i.status)).toEqual(['In Production', 'Order Shipped']);
    expect(order.shipments.map((s) => [s.shipped_on, s.tracking_numbers])).toEqual([
      [null, null],
      [NOW_ISO, '7489'],
    ]);
    expect(order.status).toBe('In Production');
    expect(order.shipped_on).toBeNull();
    expect(h.control.orderHistory(1001).emails).toEqual([
      { at: NOW_ISO, template: 'Order Shipped', to: 'jane.buyer@example.com', itemId: 5002 },
    ]);
    await h.control.idle();
    expect(h.deliveries.map((d) => (d.body as Order[])[0]!.id)).toEqual([1001]);
  });

  it('X18 marking shipped on a storefront without an Order Shipped status is 400 "Bad Request" and changes nothing', async () => {
    const h = makeHarness();
    const before = await getOrder(h, 1010);
    for (const path of ['/api/v2/order/1010/shipped', '/api/v2/order/1010/shipped/5010']) {
      const res = await h.call('PATCH', path, { body: { tracking_number: 'X1' } });
      expect(await errorOf(res)).toEqual({ status: 400, message: 'Bad Request' });
    }
    expect(await getOrder(h, 1010)).toEqual(before);
    expect(h.control.orderHistory(1010)).toEqual({ orderId: 1010, history: [], emails: [] });
  });

  it('E08 T03 R08 N02 order status: case-insensitive match, every item, history via the API with comments and initials, e-mails on request', async () => {
    const h = makeHarness();
    await registerHook(h, 'order_updated');
    const res = await h.call('PATCH', '/api/v2/order/1001/status', {
      body: {
        order_status: 'new ORDER',
        comments: 'Proof approved.\nPrint on Monday.',
        user_initials: 'JB',
        tracking_number: 'TRK-1',
        notify_customer: true,
        notify_vendor: true,
      },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const order = await getOrder(h, 1001);
    expect(order.status).toBe('New Order');
    expect(order.items.map((i) => i.status)).toEqual(['New Order', 'New Order']);
    expect(order.shipped_on).toBeNull();
    expect(order.shipments.map((s) => s.tracking_numbers)).toEqual(['TRK-1', 'TRK-1']);
    const { history, emails } = h.control.orderHistory(1001);
    expect(history).toEqual([
      {
        at: NOW_ISO,
        itemId: null,
        source: 'api',
        status: 'New Order',
        note: "Order status set to 'New Order' via the API",
        comments: 'Proof approved.\nPrint on Monday.',
        userInitials: 'JB',
        trackingNumbers: ['TRK-1'],
      },
    ]);
    expect(emails).toEqual([
      { at: NOW_ISO, template: 'Order Status Changed', to: 'jane.buyer@example.com', itemId: null },
      { at: NOW_ISO, template: 'Vendor Purchase Order', to: 'Northside Litho', itemId: null },
    ]);
    await h.control.idle();
    expect(h.deliveries).toHaveLength(1);
  });

  it('T03 R08 a shipping status sets the shipped date; notify flags default to false', async () => {
    const h = makeHarness();
    const res = await h.call('PATCH', '/api/v2/order/1002/status', {
      body: { order_status: 'ORDER SHIPPED' },
    });
    expect(res.status).toBe(204);
    const order = await getOrder(h, 1002);
    expect(order.status).toBe('Order Shipped');
    expect(order.shipped_on).toBe(NOW_ISO);
    expect(order.shipments[0]!.shipped_on).toBe(NOW_ISO);
    expect(h.control.orderHistory(1002).emails).toEqual([]);
  });

  it('E09 T04 item status changes only that item', async () => {
    const h = makeHarness();
    await registerHook(h, 'order_updated');
    const res = await h.call('PATCH', '/api/v2/order/1001/status/5001', {
      body: { order_status: 'cancelled', comments: 'Duplicate line' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const order = await getOrder(h, 1001);
    expect(order.items.map((i) => i.status)).toEqual(['Cancelled', 'In Production']);
    expect(order.status).toBe('In Production');
    expect(h.control.orderHistory(1001).history[0]).toMatchObject({
      itemId: 5001,
      note: "Item 5001 status set to 'Cancelled' via the API",
      comments: 'Duplicate line',
      userInitials: null,
    });
    await h.control.idle();
    expect(h.deliveries).toHaveLength(1);
  });

  it('R08 an unknown status or a missing order_status is a 400 that names the problem and changes nothing', async () => {
    const h = makeHarness();
    const unknown = await h.call('PATCH', '/api/v2/order/1001/status', {
      body: { order_status: 'Shipped!' },
    });
    expect(await errorOf(unknown)).toEqual({
      status: 400,
      message:
        "order_status 'Shipped!' is not a status of storefront 'Demo Print Shop'; its statuses are 'New Order', 'In Production', 'Order Shipped', 'Cancelled'.",
    });
    const missing = await h.call('PATCH', '/api/v2/order/1001/status', { body: { comments: 'x' } });
    expect(await errorOf(missing)).toEqual({
      status: 400,
      message: 'Invalid request body: order_status: is required.',
    });
    const wrongType = await h.call('PATCH', '/api/v2/order/1001/status', {
      body: { order_status: 'New Order', notify_customer: 'yes' },
    });
    expect(wrongType.status).toBe(400);
    expect((await getOrder(h, 1001)).status).toBe('In Production');
    expect(h.control.orderHistory(1001).history).toEqual([]);
  });
});
