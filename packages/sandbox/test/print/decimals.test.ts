/**
 * "Decimal means a JSON number with a fractional part" (Conventions): every decimal field the sandbox
 * writes — Order, its items and shipments, report records, webhook bodies — carries a fraction on the
 * wire, whole amounts included (`0.0`, `25.0`), so clients that type decimals by the token see what a real
 * service sends.
 */
import { DECIMAL_FIELDS, Order } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { interfaceJson } from '../../src/print/interface-json.ts';
import { makeHarness } from './sandbox-harness.ts';

/** Every `"field": number` of a decimal field in the JSON text, as written. */
function decimalTokens(json: string): string[] {
  const names = [...DECIMAL_FIELDS].join('|');
  return [...json.matchAll(new RegExp(`"(?:${names})":(-?[\\d.eE+-]+)`, 'g'))].map((m) => m[1] ?? '');
}

const WITH_FRACTION = /^-?\d+\.\d+$/;

describe('decimals on the wire', () => {
  it('GET /order writes every decimal field with a fractional part, whole amounts as N.0', async () => {
    const h = makeHarness();
    const res = await h.call('GET', '/api/v2/order/1001');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    const text = await res.text();
    const tokens = decimalTokens(text);
    expect(tokens.length).toBeGreaterThan(10);
    expect(tokens.filter((t) => !WITH_FRACTION.test(t))).toEqual([]);
    expect(tokens.filter((t) => t.endsWith('.0')).length).toBeGreaterThan(0);
    // The client still reads it, and the values are the numbers they were.
    const order = Order.parse(JSON.parse(text));
    expect(order.id).toBe(1001);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(order)));
  });

  it('report records write their money with a fractional part', async () => {
    const h = makeHarness();
    for (const type of ['sales', 'order_details', 'shipping']) {
      const res = await h.call(
        'GET',
        `/api/v2/report/${type}?storefrontId=0&fromDate=2020-01-01&toDate=2030-12-31`,
      );
      expect(res.status, type).toBe(200);
      const tokens = decimalTokens(await res.text());
      expect(tokens.length, type).toBeGreaterThan(0);
      expect(
        tokens.filter((t) => !WITH_FRACTION.test(t)),
        type,
      ).toEqual([]);
    }
  });

  it('a webhook delivery body is written the same way as the GET answer', async () => {
    const bodies: string[] = [];
    const h = makeHarness({
      fetch: async (_input, init) => {
        bodies.push(typeof init?.body === 'string' ? init.body : '');
        return new Response(null, { status: 200 });
      },
    });
    const hook = await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://hooks.example/orders', event: 'order_updated' },
    });
    expect(hook.status).toBe(201);
    expect((await h.call('PATCH', '/api/v2/order/1001/shipped')).status).toBe(204);
    await h.control.idle();
    expect(bodies).toHaveLength(1);
    const answer = await (await h.call('GET', '/api/v2/order/1001')).text();
    expect(bodies[0]).toBe(`[${answer}]`);
  });

  it('leaves other numbers, and decimals JavaScript can only write with an exponent, as they are', () => {
    expect(
      interfaceJson({ sub_total: 12, weight: 0.25, tax_total: -3, quantity: 5, id: 7, order_total: 1e21 }),
    ).toBe('{"sub_total":12.0,"weight":0.25,"tax_total":-3.0,"quantity":5,"id":7,"order_total":1e+21}');
    expect(interfaceJson([{ shipping_total: 0, note: 'shipping_total' }])).toBe(
      '[{"shipping_total":0.0,"note":"shipping_total"}]',
    );
  });
});
