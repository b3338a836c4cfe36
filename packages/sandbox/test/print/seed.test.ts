import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/print/index.ts';
import { parseSandboxSeed, type SandboxSeedInput } from '../../src/sandbox-seed.ts';
import { FIXTURE_SEED, makeHarness } from './sandbox-harness.ts';

const clone = (): { licenses: Record<string, unknown>[] } & Record<string, unknown> =>
  structuredClone(FIXTURE_SEED) as never;

const hex = (n: number) => n.toString(16).padStart(32, '0');

describe('sandbox seed', () => {
  it('the fixture seed is valid and has what the demo needs', () => {
    const result = parseSandboxSeed(FIXTURE_SEED);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [enterprise, businessPlus] = result.seed.licenses;
    expect([enterprise!.tier, businessPlus!.tier]).toEqual(['Enterprise', 'BusinessPlus']);
    const shop = enterprise!.storefronts[0]!;
    expect([shop.id, shop.name]).toEqual([1, 'Demo Print Shop']);
    expect(shop.products.map((p) => [p.id, p.itemNumber])).toEqual([
      [101, 'BC-STD'],
      [102, 'FLY-A5'],
      [103, 'POS-CUSTOM'],
      [104, 'BOX-PARAM'],
      [105, 'BRO-UPLOAD'],
      [106, 'ENV-C4'],
    ]);
    expect(enterprise!.storefronts.some((sf) => !sf.statuses.some((s) => s.shipping))).toBe(true);
  });

  it('A03 at most 5 active key pairs per license: a sixth is refused, inactive or deleted ones do not count', () => {
    const six = clone();
    six.licenses[1]!.apiKeys = [1, 2, 3, 4, 5, 6].map((n) => ({ token: hex(n) }));
    const refused = parseSandboxSeed(six);
    expect(refused).toEqual({
      ok: false,
      problems: [
        { path: 'licenses[1].apiKeys', message: 'has 6 active key pairs; a license allows at most 5' },
      ],
    });
    const fiveActive = clone();
    fiveActive.licenses[1]!.apiKeys = [
      ...[1, 2, 3, 4, 5].map((n) => ({ token: hex(n) })),
      { token: hex(6), active: false },
      { token: hex(7), deleted: true },
    ];
    expect(parseSandboxSeed(fiveActive).ok).toBe(true);
  });

  it('every problem is listed by path: references, duplicates, payment fields, formats', () => {
    const seed = clone() as SandboxSeedInput & { licenses: { storefronts: Record<string, unknown>[] }[] };
    const shop = seed.licenses[0]!.storefronts[0]! as {
      orders: Record<string, unknown>[];
      customers: Record<string, unknown>[];
    };
    shop.orders[0]!.customerId = 999;
    shop.orders[1]!.payment = { methods: ['po'], checkNumber: '1' };
    (shop.customers[1] as { username: string }).username = 'JANE.BUYER';
    seed.licenses[1]!.storefronts[0]!.id = 1;
    const result = parseSandboxSeed(seed);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        {
          path: 'licenses[0].storefronts[0].orders[0].customerId',
          message: 'customer 999 is not a customer of this storefront',
        },
        {
          path: 'licenses[0].storefronts[0].orders[1].payment.checkNumber',
          message: 'is given exactly for check payments',
        },
        {
          path: 'licenses[0].storefronts[0].customers[1].username',
          message:
            'duplicate username on the storefront (also at licenses[0].storefronts[0].customers[0].username)',
        },
        {
          path: 'licenses[1].storefronts[0].id',
          message: 'duplicate storefront id 1 (also at licenses[0].storefronts[0].id)',
        },
      ]),
    );
    const formats = parseSandboxSeed({
      licenses: [{ id: 1, name: 'L', tier: 'Gold', apiKeys: [{ token: 'XYZ' }] }],
    });
    expect(formats.ok ? [] : formats.problems).toEqual([
      { path: 'licenses[0].tier', message: expect.stringContaining('Invalid option') },
      { path: 'licenses[0].apiKeys[0].token', message: 'must be 16 to 128 lower-case hex digits' },
    ]);
  });

  it('createSandbox refuses an invalid seed with a TypeError that lists the problems', () => {
    expect(() => createSandbox({ licenses: [] })).toThrow(/invalid sandbox seed:\n {2}licenses: /);
  });

  it('reset returns to the seed: records, sessions, hooks and the clock', async () => {
    const h = makeHarness();
    const token = await h.login('jane.buyer', 'demo-pass-1');
    await h.call('POST', '/api/v2/hooks', {
      body: { target_url: 'https://h.example/x', event: 'order_updated' },
    });
    await h.call('PATCH', '/api/v2/order/1001/shipped');
    h.control.advanceClock(60);
    const res = await h.app.request('/_sandbox/reset', { method: 'POST' });
    expect(res.status).toBe(204);
    expect(((await (await h.call('GET', '/api/v2/order/1001')).json()) as { status: string }).status).toBe(
      'In Production',
    );
    expect(await (await h.call('GET', '/api/v2/hooks')).json()).toEqual([]);
    expect((await h.call('GET', '/api/v2/pipo/user/info', { pipo: token })).status).toBe(403);
    expect(h.control.now().toISOString()).toBe('2025-03-03T09:00:00.000Z');
  });
});
