/**
 * What PIPO orders are charged besides their items (the storefront's `pipoCharges` in the seed), the
 * products' own PIPO unit prices, the invoice numbers PIPO create assigns, and the control API's totals
 * that do not add up. Figures are those of fixtures/sandbox-seed.json, which docs/sandbox.md lists.
 */
import type { Order } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { parseSandboxSeed, type SandboxSeedInput } from '../../src/sandbox-seed.ts';
import { errorOf, FIXTURE_SEED, type Harness, makeHarness, TOKENS } from './sandbox-harness.ts';

async function json<T>(res: Response, status = 200): Promise<T> {
  expect(res.status).toBe(status);
  return (await res.json()) as T;
}

async function pipoOrder(
  h: Harness,
  user: { username: string; password: string; storefrontId?: number; token?: string },
  productIds: readonly number[],
): Promise<Order> {
  const token = await h.login(user.username, user.password, user.storefrontId, user.token);
  const res = await h.call('POST', '/api/v2/pipo/order/create', {
    token: user.token ?? TOKENS.gateway,
    pipo: token,
    body: { product_id: productIds, external_id: 'PO-CHARGES' },
  });
  const id = await json<number>(res);
  return json<Order>(await h.call('GET', `/api/v2/order/${id}`));
}

const JANE = { username: 'jane.buyer', password: 'demo-pass-1' };
const OMAR = { username: 'omar.procure', password: 'demo-pass-2' };
const LEE = { username: 'lee.student', password: 'demo-pass-3', storefrontId: 2 };

/** The figures an invoice is built from. */
function figures(order: Order) {
  return {
    items: order.items.map((i) => [i.product_id, i.quantity, i.base_price, i.sub_total]),
    sub_total: order.sub_total,
    shipments: order.shipments.map((s) => [s.shipping_total, s.tax_total]),
    tax_total: order.tax_total,
    shipping_total: order.shipping_total,
    promotion_code: order.promotion_code,
    promotion_total: order.promotion_total,
    invoice_number: order.invoice_number,
  };
}

type SeedStorefrontInput = NonNullable<SandboxSeedInput['licenses'][number]['storefronts']>[number];

/** The fixture seed with one storefront changed, as a seed file would say it. */
function withStorefront(
  storefrontId: number,
  change: (storefront: SeedStorefrontInput) => void,
): SandboxSeedInput {
  const seed = structuredClone(FIXTURE_SEED);
  for (const license of seed.licenses) {
    for (const storefront of license.storefronts ?? [])
      if (storefront.id === storefrontId) change(storefront);
  }
  return seed;
}

describe('PIPO orders are charged as the seed says', () => {
  it('Demo Print Shop: 8.25 % tax, 9.95 shipping, no promotion, own poster price, DPS- invoice numbers', async () => {
    const h = makeHarness();
    // 3001 is Jane's business card design (0.12), 102 the A5 flyer (0.35), 103 the poster: 12.50 in the
    // seed's orders, but PIPO orders pay its pipoUnitPrice 19.75 (the gateway's config offers it at 18.50).
    const order = await pipoOrder(h, JANE, [3001, 102, 103]);
    expect(figures(order)).toEqual({
      items: [
        [3001, 1, 0.12, 0.12],
        [102, 1, 0.35, 0.35],
        [103, 1, 19.75, 19.75],
      ],
      sub_total: 20.22,
      // 8.25 % of 20.22 = 1.66815
      shipments: [[9.95, 1.67]],
      tax_total: 1.67,
      shipping_total: 9.95,
      // The demo shop gives PIPO orders no promotion, so an invoice can match its PO to the cent.
      promotion_code: null,
      promotion_total: 0,
      invoice_number: 'DPS-70001',
    });
    expect(order.sub_total).toBe(order.items.reduce((sum, i) => sum + i.sub_total, 0));
    // The next PIPO order takes the next number; a reset starts again from the seed.
    expect((await pipoOrder(h, JANE, [102])).invoice_number).toBe('DPS-70002');
    h.control.reset();
    expect((await pipoOrder(h, JANE, [102])).invoice_number).toBe('DPS-70001');
  });

  it('written as decimals, as the interface writes money', async () => {
    const h = makeHarness();
    const created = await pipoOrder(h, JANE, [102]);
    const text = await (await h.call('GET', `/api/v2/order/${created.id}`)).text();
    expect(text).toContain('"shipping_total":9.95');
    expect(text).toContain('"promotion_total":0.0');
    expect(text).toContain('"invoice_number":"DPS-70001"');
  });

  it('a tax-exempt customer pays no tax, the rest is charged alike', async () => {
    const h = makeHarness();
    const order = await pipoOrder(h, OMAR, [102]);
    expect(figures(order)).toMatchObject({
      sub_total: 0.35,
      shipments: [[9.95, 0]],
      tax_total: 0,
      promotion_total: 0,
    });
  });

  it('Campus Copy Center: 8 % tax, 4.50 shipping, STUDENT10 takes 10 % of the sub_total, no invoice number', async () => {
    const h = makeHarness();
    const order = await pipoOrder(h, LEE, [111, 111]);
    expect(figures(order)).toEqual({
      items: [
        [111, 1, 4, 4],
        [111, 1, 4, 4],
      ],
      sub_total: 8,
      shipments: [[4.5, 0.64]],
      tax_total: 0.64,
      shipping_total: 4.5,
      promotion_code: 'STUDENT10',
      promotion_total: 0.8,
      invoice_number: '',
    });
  });

  it('the job ticket gives a PIPO item its quantity, priced by the product’s tiers, and the order is charged again', async () => {
    const h = makeHarness();
    const order = await pipoOrder(h, JANE, [3001, 102, 103]);
    const ticket = [
      'Purchase order PO-CHARGES',
      '1. QUANTITY 500 EA — Business cards (design 3001)',
      '   SKU BC-STD · unit price 0.09 USD',
      '2. QUANTITY 1000 EA — A5 flyer (product 102, as it is, no design)',
      '3. QUANTITY 2 EA — Custom-size poster (design 103)',
    ].join('\n');
    const patched = await h.call('PATCH', `/api/v2/order/${order.id}/status`, {
      body: { order_status: 'New Order', comments: ticket },
    });
    expect(patched.status).toBe(204);
    const priced = await json<Order>(await h.call('GET', `/api/v2/order/${order.id}`));
    expect(figures(priced)).toMatchObject({
      // 500 × 0.09 and 1000 × 0.22 by the tiers; the poster has none, so it stays as it was.
      items: [
        [3001, 500, 45, 45],
        [102, 1000, 220, 220],
        [103, 1, 19.75, 19.75],
      ],
      sub_total: 284.75,
      // 8.25 % of 284.75 = 23.4918…
      shipments: [[9.95, 23.49]],
      tax_total: 23.49,
    });
    // A later comment without a ticket changes nothing.
    await h.call('PATCH', `/api/v2/order/${order.id}/status`, {
      body: { order_status: 'New Order', comments: 'Proof approved' },
    });
    expect(figures(await json<Order>(await h.call('GET', `/api/v2/order/${order.id}`))).sub_total).toBe(
      284.75,
    );
  });

  it('a storefront without pipoCharges charges nothing besides the items', async () => {
    // Corner Print's storefront 3 has none, as has Campus Copy Center here (its order is readable with
    // the Enterprise key of license 1).
    const h = makeHarness(
      {},
      withStorefront(2, (sf) => {
        delete sf.pipoCharges;
      }),
    );
    const order = await pipoOrder(h, LEE, [111]);
    expect(figures(order)).toEqual({
      items: [[111, 1, 4, 4]],
      sub_total: 4,
      shipments: [[0, 0]],
      tax_total: 0,
      shipping_total: 0,
      promotion_code: null,
      promotion_total: 0,
      invoice_number: '',
    });
  });

  it('taxOnShipping: each shipment is taxed on its items and its shipping', async () => {
    const seed = withStorefront(1, (sf) => {
      sf.pipoCharges = { ...sf.pipoCharges, taxOnShipping: true };
    });
    const h = makeHarness({}, seed);
    // 8.25 % of 0.35 + 9.95 = 0.84975 → 0.85 (the items alone would be 0.03).
    expect(figures(await pipoOrder(h, JANE, [102]))).toMatchObject({
      sub_total: 0.35,
      shipments: [[9.95, 0.85]],
      tax_total: 0.85,
    });
    // A tax-exempt customer still pays none.
    expect(figures(await pipoOrder(h, OMAR, [102]))).toMatchObject({ tax_total: 0 });
  });

  it('a fixed promotion never exceeds sub_total plus shipping; tax rounds half up per shipment', async () => {
    const seed = withStorefront(1, (sf) => {
      sf.pipoCharges = {
        taxRatePercent: 10,
        shippingPerShipment: 1,
        promotion: { code: 'BIG', amount: 100 },
      };
    });
    const h = makeHarness({}, seed);
    // 10 % of 0.35 is 0.035: half a cent rounds up.
    const order = await pipoOrder(h, JANE, [102]);
    expect(figures(order)).toMatchObject({
      sub_total: 0.35,
      shipments: [[1, 0.04]],
      promotion_code: 'BIG',
      promotion_total: 1.35,
      invoice_number: '',
    });
  });

  it('seed orders and storefront checkout keep their own figures', async () => {
    const h = makeHarness();
    const seedOrder = await json<Order>(await h.call('GET', '/api/v2/order/1004'));
    expect([seedOrder.shipping_total, seedOrder.tax_total, seedOrder.promotion_total]).toEqual([9.5, 1.2, 0]);
    const checkout = h.control.checkout({ customerId: 201, items: [{ productId: 102, quantity: 100 }] });
    expect(figures(checkout)).toMatchObject({
      sub_total: 35,
      shipments: [[0, 0]],
      promotion_code: null,
      promotion_total: 0,
      invoice_number: '',
    });
  });

  it('the seed refuses a promotion with both or neither of amount and percent', () => {
    for (const promotion of [{ code: 'X', amount: 1, percent: 5 }, { code: 'X' }]) {
      const result = parseSandboxSeed(
        withStorefront(2, (sf) => {
          sf.pipoCharges = { promotion };
        }),
      );
      expect(result.ok ? [] : result.problems).toEqual([
        {
          path: 'licenses[0].storefronts[1].pipoCharges.promotion',
          message: 'gives exactly one of amount and percent',
        },
      ]);
    }
    const rate = parseSandboxSeed(
      withStorefront(2, (sf) => {
        sf.pipoCharges = { taxRatePercent: 120 };
      }),
    );
    expect(rate.ok ? [] : rate.problems.map((p) => p.path)).toEqual([
      'licenses[0].storefronts[1].pipoCharges.taxRatePercent',
    ]);
  });
});

describe('sandbox control: totals that do not add up', () => {
  it('POST /_sandbox/orders/{id}/totals makes the order report its own totals; null restores them', async () => {
    const h = makeHarness();
    const created = await pipoOrder(h, JANE, [3001, 102]);
    const hook = await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://gateway.example/hooks/orders', event: 'order_updated' },
    });
    expect(hook.status).toBe(201);

    const answered = await json<Order>(
      await h.call('POST', `/_sandbox/orders/${created.id}/totals`, {
        token: null,
        body: { subTotal: 99.99, taxTotal: 7 },
      }),
    );
    const order = await json<Order>(await h.call('GET', `/api/v2/order/${created.id}`));
    expect(answered).toEqual(order);
    expect([order.sub_total, order.tax_total, order.shipping_total, order.promotion_total]).toEqual([
      99.99, 7, 9.95, 0,
    ]);
    // Items and shipments keep theirs: the order no longer adds up.
    expect(order.items.map((i) => i.sub_total)).toEqual([0.12, 0.35]);
    expect(order.shipments.map((s) => s.tax_total)).toEqual([0.04]);
    expect(h.control.orderHistory(created.id).history.at(-1)?.note).toBe(
      'Order totals overridden by the admin: subTotal 99.99, taxTotal 7',
    );
    await h.control.idle();
    expect(h.deliveries.map((d) => d.body)).toEqual([[order]]);

    const restored = h.control.overrideTotals(created.id, { subTotal: null, taxTotal: null });
    expect([restored.sub_total, restored.tax_total]).toEqual([0.47, 0.04]);
    expect(h.control.orderHistory(created.id).history.at(-1)?.note).toBe(
      'Order totals computed again by the admin',
    );
  });

  it('refuses an empty or negative change and an unknown order', async () => {
    const h = makeHarness();
    const empty = await h.call('POST', '/_sandbox/orders/1001/totals', { token: null, body: {} });
    expect(await errorOf(empty)).toEqual({
      status: 400,
      message: expect.stringContaining(
        'name at least one of subTotal, taxTotal, shippingTotal, promotionTotal',
      ),
    });
    const negative = await h.call('POST', '/_sandbox/orders/1001/totals', {
      token: null,
      body: { taxTotal: -1 },
    });
    expect((await errorOf(negative)).status).toBe(400);
    const unknown = await h.call('POST', '/_sandbox/orders/424242/totals', {
      token: null,
      body: { taxTotal: 1 },
    });
    expect(await errorOf(unknown)).toEqual({ status: 404, message: 'Order not the service.' });
  });
});
