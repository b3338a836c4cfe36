import { describe, expect, it } from 'vitest';
import { errorOf, makeHarness } from './sandbox-harness.ts';

describe('sandbox versioning', () => {
  it('V01 every path is under /api/v2; other prefixes are not endpoints', async () => {
    const h = makeHarness();
    expect((await h.call('GET', '/api/v2/ping')).status).toBe(204);
    for (const path of ['/api/v3/ping', '/api/ping', '/ping', '/api/v2/pings']) {
      expect(await errorOf(await h.call('GET', path)), path).toEqual({
        status: 404,
        message: `No such endpoint: GET ${path}`,
      });
    }
  });

  it('V02 /api/v1 is still served: reports answer empty data, PIPO behaves like v2', async () => {
    const h = makeHarness();
    const v1Report = await h.call('GET', '/api/v1/report/sales?storefrontId=1');
    expect(v1Report.status).toBe(200);
    expect(await v1Report.json()).toEqual([]);
    expect(await (await h.call('GET', '/api/v1/report/order?viewBy=month')).json()).toEqual([]);
    expect((await h.call('GET', '/api/v1/report/revenue')).status).toBe(404);
    const login = await h.call('POST', '/api/v1/pipo/user/login', {
      body: { username: 'jane.buyer', password: 'demo-pass-1', storefront_id: 1 },
    });
    expect(login.status).toBe(200);
    const token = (await login.json()) as string;
    const v1Projects = await h.call('GET', '/api/v1/pipo/project/all', { pipo: token });
    const v2Projects = await h.call('GET', '/api/v2/pipo/project/all', { pipo: token });
    expect(await v1Projects.json()).toEqual(await v2Projects.json());
    const wrong = await h.call('POST', '/api/v1/pipo/user/login', {
      body: { username: 'jane.buyer', password: 'nope', storefront_id: 1 },
    });
    expect(await errorOf(wrong)).toEqual({ status: 401, message: null });
    expect(await errorOf(await h.call('GET', '/api/v1/pipo/user/info', { pipo: 'f'.repeat(64) }))).toEqual({
      status: 403,
      message: null,
    });
  });

  it('V03 the order carries shipments and per-item shipment_index alongside the older fields, on v1 as on v2', async () => {
    const h = makeHarness();
    const v2 = (await (await h.call('GET', '/api/v2/order/1001')).json()) as Record<string, unknown>;
    const v1 = (await (await h.call('GET', '/api/v1/order/1001')).json()) as Record<string, unknown>;
    expect(v1).toEqual(v2);
    expect(Array.isArray(v2.shipments)).toBe(true);
    expect(v2).toHaveProperty('shipping_address');
    expect(v2).toHaveProperty('shipping_provider');
    expect((v2.items as { shipment_index: number }[]).map((i) => i.shipment_index)).toEqual([1, 2]);
  });

  it('V04 no version header is sent and version headers in requests change nothing', async () => {
    const h = makeHarness();
    const plain = await h.call('GET', '/api/v2/order/1002');
    const asking = await h.call('GET', '/api/v2/order/1002', {
      headers: { 'Api-Version': '1', 'Accept-Version': '3', Accept: 'application/vnd.print.v1+json' },
    });
    expect(await asking.json()).toEqual(await plain.json());
    for (const res of [plain, asking]) {
      expect([...res.headers.keys()].filter((name) => name.includes('version'))).toEqual([]);
    }
  });
});
