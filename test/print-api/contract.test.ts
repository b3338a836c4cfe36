/**
 * The client's contract suite: every endpoint of the interface through its typed method, against the
 * sandbox print service — once in-process (the app's own `request` as fetch) and once over a real
 * loopback port with the Node transport (undici). Tests are named with the requirement ids they show
 * (packages/sandbox/test/print/interface-rows.md).
 *
 * The sandbox runs on a frozen clock; the client's `sleep` advances the sandbox's virtual clock and its
 * `now` reads it, so waiting for merges and session expiry is instant and deterministic.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, deriveSandboxKey } from '@punchgate/sandbox';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createEditorUrls,
  createPrintApi,
  type EventName,
  type FetchLike,
  type PrintApi,
  PrintApiError,
  type PrintApiFile,
} from '../../src/index.ts';
import { createNodeFetch } from '../../src/print-api/node-fetch.ts';
import {
  ADA,
  ADA_PROJECT,
  BOB,
  BOB_PROJECT,
  BUSINESS_PLUS_TOKEN,
  BUSINESS_TOKEN,
  CARDS,
  contractSeed,
  ENTERPRISE_TOKEN,
  FLYER,
  INACTIVE_TOKEN,
  KEY_ROUNDS,
  MERGED_ORDER,
  NO_SHIPPING_ORDER,
  OTHER_ENTERPRISE_TOKEN,
  STORE,
  TEMP,
  TEMP_PROJECT,
  UNMERGED_ORDER,
} from './contract-seed.ts';

const FROZEN_NOW = Date.parse('2025-03-01T09:00:00Z');
const MERGE_DELAY_MS = 90_000;
const TOKENS = [
  ENTERPRISE_TOKEN,
  OTHER_ENTERPRISE_TOKEN,
  INACTIVE_TOKEN,
  BUSINESS_PLUS_TOKEN,
  BUSINESS_TOKEN,
];

/** Where a sandbox app is reached: in-process, or over a loopback port. */
interface Target {
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  close(): Promise<void>;
}

type App = ReturnType<typeof createSandbox>['app'];

async function inProcess(app: App): Promise<Target> {
  return {
    baseUrl: 'https://print.test',
    fetch: (input, init) => app.request(input, init),
    close: async () => {},
  };
}

async function overPort(app: App): Promise<Target> {
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve({ server: started, port: info.port }),
      );
    },
  );
  const fetch = createNodeFetch({ connections: 4 });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    fetch,
    async close() {
      await fetch.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sandboxOf(peer?: string) {
  return createSandbox(contractSeed, {
    clock: () => FROZEN_NOW,
    mergeDelayMs: MERGE_DELAY_MS,
    // Webhook deliveries stay in the process.
    fetch: async () => new Response(null, { status: 204 }),
    ...(peer === undefined ? {} : { peerAddress: () => peer }),
  });
}

async function failure(promise: Promise<unknown>): Promise<PrintApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PrintApiError);
  return error as PrintApiError;
}

async function bytesOf(file: PrintApiFile): Promise<Uint8Array> {
  return new Uint8Array(await new Response(file.body).arrayBuffer());
}

const keys = new Map<string, string>();
beforeAll(async () => {
  for (const token of TOKENS) keys.set(token, await deriveSandboxKey(token, KEY_ROUNDS));
});

describe.each([
  ['in-process', inProcess],
  ['real port (undici)', overPort],
])('print-api client against the sandbox %s', (_name, startTarget) => {
  const { app, control } = sandboxOf();
  let target: Target;
  let sleeps: number[];

  function clientFor(token = ENTERPRISE_TOKEN, options: { userAgent?: string; key?: string } = {}): PrintApi {
    return createPrintApi({
      baseUrl: target.baseUrl,
      token,
      key: options.key ?? keys.get(token)!,
      fetch: target.fetch,
      retries: 0,
      ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
      now: () => control.now().getTime(),
      sleep: async (ms) => {
        sleeps.push(ms);
        control.advanceClock(ms / 1000);
      },
    });
  }

  let api: PrintApi;
  const login = (user: { username: string; password: string }) =>
    api.pipo.login({ username: user.username, password: user.password, storefront_id: STORE });

  beforeAll(async () => {
    target = await startTarget(app);
  });
  afterAll(async () => {
    await target.close();
  });
  beforeEach(() => {
    control.reset();
    sleeps = [];
    api = clientFor();
  });

  describe('authentication', () => {
    it('E01 A01 ping: 204 with Authorization Basic base64(token:key)', async () => {
      await expect(api.ping()).resolves.toBeUndefined();
    });

    it.each([
      ['a wrong key', ENTERPRISE_TOKEN, 'f'.repeat(64)],
      ['an unknown token', 'abcdefabcdefabcdefabcdefabcdefab', 'f'.repeat(64)],
      ['an inactive token', INACTIVE_TOKEN, undefined],
    ])('X02 %s: 401 unauthorized "Invalid key or token."', async (_what, token, key) => {
      const error = await failure(clientFor(token, key === undefined ? {} : { key }).ping());
      expect([error.code, error.status, error.serviceMessage]).toEqual([
        'unauthorized',
        401,
        'Invalid key or token.',
      ]);
    });

    it('X04 A04 a Business license may not ping; BusinessPlus may ping and use PIPO but not read orders', async () => {
      const business = await failure(clientFor(BUSINESS_TOKEN).ping());
      expect([business.code, business.serviceMessage]).toEqual([
        'unauthorized',
        "License doesn't allow this api call.",
      ]);
      const plus = clientFor(BUSINESS_PLUS_TOKEN);
      await expect(plus.ping()).resolves.toBeUndefined();
      await expect(
        plus.pipo.login({ username: 'dora', password: 'dora-pw-1', storefront_id: 20 }),
      ).resolves.toMatch(/\S/);
      const order = await failure(plus.getOrder(MERGED_ORDER));
      expect([order.code, order.status, order.serviceMessage]).toEqual([
        'unauthorized',
        401,
        "License doesn't allow this api call.",
      ]);
    });

    it('A05 an automation-platform User-Agent skips only the tier check', async () => {
      await expect(clientFor(BUSINESS_TOKEN, { userAgent: 'Zapier/1.0' }).ping()).resolves.toBeUndefined();
      const wrongKey = await failure(
        clientFor(BUSINESS_TOKEN, { userAgent: 'Zapier/1.0', key: 'f'.repeat(64) }).ping(),
      );
      expect(wrongKey.serviceMessage).toBe('Invalid key or token.');
    });

    it('X01 a proxy that strips Authorization: 401 unauthorized "Authorization credentials missing."', async () => {
      const stripping: FetchLike = (input, init) => {
        const headers = new Headers(init.headers);
        headers.delete('authorization');
        return target.fetch(input, { ...init, headers: Object.fromEntries(headers) });
      };
      const api = createPrintApi({
        baseUrl: target.baseUrl,
        token: ENTERPRISE_TOKEN,
        key: keys.get(ENTERPRISE_TOKEN)!,
        fetch: stripping,
      });
      const error = await failure(api.ping());
      expect([error.code, error.status, error.serviceMessage]).toEqual([
        'unauthorized',
        401,
        'Authorization credentials missing.',
      ]);
    });

    it('X03 A04 plain HTTP from a non-local peer: 401 "Invalid scheme, please use https."', async () => {
      const remote = sandboxOf('203.0.113.7');
      const api = createPrintApi({
        baseUrl: 'http://print.test',
        token: ENTERPRISE_TOKEN,
        key: keys.get(ENTERPRISE_TOKEN)!,
        fetch: (input, init) => remote.app.request(input, init),
      });
      const error = await failure(api.ping());
      expect([error.code, error.status, error.serviceMessage]).toEqual([
        'unauthorized',
        401,
        'Invalid scheme, please use https.',
      ]);
      const overHttps = createPrintApi({
        baseUrl: 'https://print.test',
        token: ENTERPRISE_TOKEN,
        key: keys.get(ENTERPRISE_TOKEN)!,
        fetch: (input, init) => remote.app.request(input, init),
      });
      await expect(overHttps.ping()).resolves.toBeUndefined();
    });
  });

  describe('orders', () => {
    it('E02 V03 R01 R03 getOrder: 200 Order with items, shipments and the primary shipment flattened', async () => {
      const order = await api.getOrder(MERGED_ORDER);
      expect(order.id).toBe(MERGED_ORDER);
      expect(order.customer.id).toBe(ADA.id);
      expect(order.items.map((i) => [i.id, i.quantity, i.shipment_index])).toEqual([
        [9001, 250, 1],
        [9002, 100, 2],
      ]);
      expect(order.shipments.map((s) => s.index)).toEqual([1, 2]);
      expect([order.shipping_provider, order.shipping_service]).toEqual(['UPS', 'Ground']);
      expect([order.payment_po, order.payment_paypal, order.po_number]).toEqual([true, false, 'PO-77']);
    });

    it('X11 getOrder of an unknown order: not_found "Order not the service."', async () => {
      const error = await failure(api.getOrder(999_999));
      expect([error.code, error.status, error.serviceMessage]).toEqual([
        'not_found',
        404,
        'Order not the service.',
      ]);
    });

    it('E03 X20 downloadOrder: 409 files_not_ready with Retry-After 60 until merged, then a zip', async () => {
      const error = await failure(api.downloadOrder(UNMERGED_ORDER));
      expect([error.code, error.status, error.retryAfterSeconds, error.serviceMessage]).toEqual([
        'files_not_ready',
        409,
        60,
        'All items have not completed merge process.',
      ]);
      control.finishMerges();
      const file = await api.downloadOrder(UNMERGED_ORDER);
      expect([file.filename, file.contentType]).toEqual([`order-${UNMERGED_ORDER}.zip`, 'application/zip']);
      expect(Object.keys(unzipSync(await bytesOf(file))).length).toBeGreaterThan(0);
    });

    it('E04 X21 downloadItem: 409 files_not_ready with Retry-After 30 until merged, then item-{id}.zip', async () => {
      const error = await failure(api.downloadItem(UNMERGED_ORDER, 9003));
      expect([error.code, error.status, error.retryAfterSeconds, error.serviceMessage]).toEqual([
        'files_not_ready',
        409,
        30,
        'Item has not completed merge process.',
      ]);
      control.finishMerges();
      const file = await api.downloadItem(UNMERGED_ORDER, 9003);
      expect([file.filename, file.contentType]).toEqual(['item-9003.zip', 'application/zip']);
      expect(Object.keys(unzipSync(await bytesOf(file))).length).toBeGreaterThan(0);
    });

    it('X12 downloadItem of an item not in the order: not_found "Item not the service."', async () => {
      const error = await failure(api.downloadItem(MERGED_ORDER, 9003));
      expect([error.code, error.serviceMessage]).toEqual(['not_found', 'Item not the service.']);
    });

    it('E05 R10 downloadItemAssets: item-assets-{id}.zip holding the uploaded design files', async () => {
      const file = await api.downloadItemAssets(MERGED_ORDER, 9002);
      expect([file.filename, file.contentType]).toEqual(['item-assets-9002.zip', 'application/zip']);
      const names = Object.keys(unzipSync(await bytesOf(file)));
      expect(names.some((name) => name.endsWith('flyer-front.pdf'))).toBe(true);
    });

    it('E06 T01 T07 R09 markShipped: every item and shipment shipped, tracking number once', async () => {
      await api.markShipped(MERGED_ORDER, { trackingNumber: '1Z999' });
      await api.markShipped(MERGED_ORDER, { trackingNumber: '1Z999' });
      const order = await api.getOrder(MERGED_ORDER);
      expect(order.items.map((i) => i.status)).toEqual(['Order Shipped', 'Order Shipped']);
      expect(order.shipped_on).not.toBeNull();
      expect(order.shipments.map((s) => [s.shipped_on !== null, s.tracking_numbers])).toEqual([
        [true, '1Z999'],
        [true, '1Z999'],
      ]);
    });

    it('E07 T02 markShipped with itemId: only that item and its shipment', async () => {
      await api.markShipped(MERGED_ORDER, { itemId: 9002 });
      const order = await api.getOrder(MERGED_ORDER);
      expect(order.items.map((i) => i.status)).toEqual(['New Order', 'Order Shipped']);
      expect(order.shipments.map((s) => s.shipped_on !== null)).toEqual([false, true]);
    });

    it('X18 markShipped on a storefront without an Order Shipped status: bad_request "Bad Request"', async () => {
      const error = await failure(api.markShipped(NO_SHIPPING_ORDER));
      expect([error.code, error.status, error.serviceMessage]).toEqual(['bad_request', 400, 'Bad Request']);
    });

    it('E08 T03 R08 setStatus: all items take the status, matched case-insensitively, history noted', async () => {
      await api.setStatus(MERGED_ORDER, {
        order_status: 'in PRODUCTION',
        comments: 'Proof approved\nby phone',
        user_initials: 'AL',
      });
      const order = await api.getOrder(MERGED_ORDER);
      expect(order.items.map((i) => i.status)).toEqual(['In Production', 'In Production']);
      const last = control.orderHistory(MERGED_ORDER).history.at(-1)!;
      expect([last.source, last.comments, last.userInitials]).toEqual([
        'api',
        'Proof approved\nby phone',
        'AL',
      ]);
    });

    it('E09 T04 setStatus with itemId: affects only the item', async () => {
      await api.setStatus(MERGED_ORDER, { order_status: 'In Production' }, { itemId: 9001 });
      const order = await api.getOrder(MERGED_ORDER);
      expect(order.items.map((i) => i.status)).toEqual(['In Production', 'New Order']);
    });
  });

  describe('customers, renderings, hooks, reports', () => {
    it('E10 getCustomer: 200 Customer', async () => {
      const customer = await api.getCustomer(ADA.id);
      expect([customer.id, customer.username, customer.email, customer.storefront]).toEqual([
        ADA.id,
        ADA.username,
        ADA.email,
        'Acme Store',
      ]);
      const error = await failure(api.getCustomer(999_999));
      expect([error.code, error.status]).toEqual(['not_found', 404]);
    });

    it('E11 R11 listRenderings: the photo-merge renderings of the product', async () => {
      await expect(api.listRenderings(CARDS)).resolves.toEqual([{ id: 1, name: 'On the desk' }]);
    });

    it('X13 listRenderings of a product without renderings: not_found "Product renderings not the service."', async () => {
      const error = await failure(api.listRenderings(FLYER));
      expect([error.code, error.serviceMessage]).toEqual([
        'not_found',
        'Product renderings not the service.',
      ]);
    });

    it('E12 R11 getRendering: image/png attachment', async () => {
      const file = await api.getRendering(CARDS, 1);
      expect(file.contentType).toBe('image/png');
      expect(file.filename).toMatch(/\.png$/);
      expect([...(await bytesOf(file)).subarray(0, 8)]).toEqual([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
      ]);
    });

    it('X14 getRendering of an unknown rendering: not_found "Product rendering not the service."', async () => {
      const error = await failure(api.getRendering(CARDS, 99));
      expect([error.code, error.serviceMessage]).toEqual(['not_found', 'Product rendering not the service.']);
    });

    it('E28 E29 E30 T13 R12 A08 createHook 201, listHooks of this token only, deleteHook 204', async () => {
      const hook = await api.createHook('https://gw.example/events/1', 'order_updated');
      expect(hook).toEqual({
        id: hook.id,
        target_url: 'https://gw.example/events/1',
        event: 'order_updated',
      });
      await expect(api.listHooks()).resolves.toEqual([hook]);
      await expect(clientFor(OTHER_ENTERPRISE_TOKEN).listHooks()).resolves.toEqual([]);
      await api.deleteHook(hook.id);
      await expect(api.listHooks()).resolves.toEqual([]);
    });

    it('X15 deleteHook of a hook that is gone or belongs to another token: not_found "Hook not the service."', async () => {
      const hook = await api.createHook('https://gw.example/events/2', 'order_created');
      const foreign = await failure(clientFor(OTHER_ENTERPRISE_TOKEN).deleteHook(hook.id));
      expect([foreign.code, foreign.serviceMessage]).toEqual(['not_found', 'Hook not the service.']);
      await api.deleteHook(hook.id);
      const gone = await failure(api.deleteHook(hook.id));
      expect([gone.code, gone.status, gone.serviceMessage]).toEqual([
        'not_found',
        404,
        'Hook not the service.',
      ]);
    });

    it('X17 createHook with an unknown event: bad_request "Event name is invalid."', async () => {
      const error = await failure(api.createHook('https://gw.example/events/3', 'order_lost' as EventName));
      expect([error.code, error.status, error.serviceMessage]).toEqual([
        'bad_request',
        400,
        'Event name is invalid.',
      ]);
    });

    it('X19 createHook with a target url registered already: conflict "Target url already exists."', async () => {
      await api.createHook('https://gw.example/events/4', 'order_updated');
      const error = await failure(api.createHook('https://gw.example/events/4', 'customer_created'));
      expect([error.code, error.status, error.serviceMessage]).toEqual([
        'conflict',
        409,
        'Target url already exists.',
      ]);
    });

    it('E31 R13 report("sales"): SalesReportRecord[]; report("order") takes viewBy', async () => {
      const sales = await api.report('sales', {
        storefrontId: 0,
        fromDate: '2025-01-01',
        toDate: '2025-12-31',
      });
      expect(sales.length).toBeGreaterThan(0);
      const acme = sales.find((r) => r.storefront === 'Acme Store')!;
      expect(acme.order_count).toBe(2);
      const byMonth = await api.report('order', { storefrontId: STORE, viewBy: 'month' });
      expect(Array.isArray(byMonth)).toBe(true);
    });
  });

  describe('PIPO users and sessions', () => {
    it('E13 A06 login: a JSON string token that later calls carry as X-PN-TOKEN', async () => {
      const token = await login(ADA);
      expect(typeof token).toBe('string');
      expect((await api.pipo.getUser(token)).username).toBe(ADA.username);
    });

    it('X05 login with a wrong password: 401 unauthorized without a message', async () => {
      const error = await failure(login({ username: ADA.username, password: 'wrong' }));
      expect([error.code, error.status, error.serviceMessage]).toEqual(['unauthorized', 401, undefined]);
    });

    it('E14 T10 R19 logout: the token is invalidated', async () => {
      const token = await login(ADA);
      await api.pipo.logout(token);
      await expect(api.pipo.isLoggedIn(token)).resolves.toBe(false);
    });

    it('E15 T11 T12 X06 isLoggedIn refreshes expiry; after the idle period calls are 403 forbidden', async () => {
      const token = await login(ADA);
      control.advanceClock(29 * 60);
      await expect(api.pipo.isLoggedIn(token)).resolves.toBe(true);
      control.advanceClock(29 * 60);
      await expect(api.pipo.isLoggedIn(token)).resolves.toBe(true);
      control.advanceClock(31 * 60);
      const error = await failure(api.pipo.getUser(token));
      expect([error.code, error.status, error.serviceMessage]).toEqual(['forbidden', 403, undefined]);
      await expect(api.pipo.isLoggedIn(token)).resolves.toBe(false);
    });

    it('E16 getUser: the PIPO User', async () => {
      const user = await api.pipo.getUser(await login(ADA));
      expect(user).toMatchObject({
        id: ADA.id,
        username: ADA.username,
        email: ADA.email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        is_temp: false,
      });
    });

    it('E17 P02 updateUser: names change; the password only with the right, different current one', async () => {
      const token = await login(ADA);
      await api.pipo.updateUser(token, {
        first_name: 'Augusta',
        current_password: 'nope',
        new_password: 'x-1',
      });
      expect((await api.pipo.getUser(token)).first_name).toBe('Augusta');
      expect((await failure(login({ username: ADA.username, password: 'x-1' }))).code).toBe('unauthorized');
      await api.pipo.updateUser(token, { current_password: ADA.password, new_password: 'x-2' });
      await expect(login({ username: ADA.username, password: 'x-2' })).resolves.toMatch(/\S/);
    });

    it('P01 updateUser applies only to non-temporary users', async () => {
      const token = await login(TEMP);
      await api.pipo.updateUser(token, { first_name: 'Temporary' });
      expect((await api.pipo.getUser(token)).first_name).toBe('');
    });

    it('E18 createUser: 200, then the user can log in', async () => {
      await api.pipo.createUser({
        storefront_id: STORE,
        username: 'grace',
        password: 'grace-pw-1',
        email: 'grace@acme.example',
        first_name: 'Grace',
        last_name: 'Hopper',
      });
      await expect(login({ username: 'grace', password: 'grace-pw-1' })).resolves.toMatch(/\S/);
    });

    it('X22 createUser with a taken user name or e-mail: conflict "duplicate user name" / "duplicate email"', async () => {
      const body = {
        storefront_id: STORE,
        username: ADA.username,
        password: 'pw-1',
        email: 'new@acme.example',
        first_name: 'A',
        last_name: 'B',
      };
      const name = await failure(api.pipo.createUser(body));
      expect([name.code, name.status, name.serviceMessage]).toEqual(['conflict', 409, 'duplicate user name']);
      const email = await failure(api.pipo.createUser({ ...body, username: 'fresh', email: BOB.email }));
      expect([email.code, email.serviceMessage]).toEqual(['conflict', 'duplicate email']);
    });

    it('E19 createTempUser: is_temp with system-generated credentials that log in', async () => {
      const temp = await api.pipo.createTempUser(STORE);
      expect(temp.is_temp).toBe(true);
      expect(temp.username).not.toBe('');
      expect(typeof temp.password).toBe('string');
      const token = await login({ username: temp.username, password: temp.password! });
      await expect(api.pipo.isTemp(token)).resolves.toBe(true);
    });

    it('E20 T08 convertUser: the temporary user becomes permanent; X22 on a taken name', async () => {
      const temp = await api.pipo.createTempUser(STORE);
      const token = await login({ username: temp.username, password: temp.password! });
      const taken = await failure(
        api.pipo.convertUser(token, {
          username: BOB.username,
          password: 'pw-1',
          email: 'z@acme.example',
          first_name: 'Z',
          last_name: 'Z',
        }),
      );
      expect([taken.code, taken.serviceMessage]).toEqual(['conflict', 'duplicate user name']);
      await api.pipo.convertUser(token, {
        username: 'zoe',
        password: 'zoe-pw-1',
        email: 'zoe@acme.example',
        first_name: 'Zoe',
        last_name: 'Z',
        storefront_id: STORE,
      });
      await expect(api.pipo.isTemp(token)).resolves.toBe(false);
      await expect(login({ username: 'zoe', password: 'zoe-pw-1' })).resolves.toMatch(/\S/);
    });

    it('E21 T09 P04 transferUser: projects move and the token now points to the destination', async () => {
      const token = await login(TEMP);
      await api.pipo.transferUser(token, { username: ADA.username, password: ADA.password });
      expect((await api.pipo.getUser(token)).id).toBe(ADA.id);
      const projects = await api.pipo.listProjects(token);
      expect(projects.map((p) => p.id)).toEqual([ADA_PROJECT, TEMP_PROJECT]);
    });

    it.each([
      ['X07', 'a bad session token', 'bogus-token', ADA, 'token is invalid or expired'],
      ['X08', 'a permanent user', ADA, BOB, 'current user is not temporary'],
      [
        'X09',
        'an unknown destination',
        TEMP,
        { username: 'nobody', password: 'x' },
        'username does not exist',
      ],
      [
        'X10',
        'a wrong destination password',
        TEMP,
        { username: ADA.username, password: 'x' },
        'password is incorrect',
      ],
    ] as const)('%s transferUser by %s: 403 forbidden', async (_row, _what, from, to, message) => {
      const token = typeof from === 'string' ? from : await login(from);
      const error = await failure(
        api.pipo.transferUser(token, { username: to.username, password: to.password }),
      );
      expect([error.code, error.status, error.serviceMessage]).toEqual(['forbidden', 403, message]);
    });

    it('E22 isTemp: false for a permanent user, true for a temporary one', async () => {
      await expect(api.pipo.isTemp(await login(ADA))).resolves.toBe(false);
      await expect(api.pipo.isTemp(await login(TEMP))).resolves.toBe(true);
    });
  });

  describe('PIPO projects and orders', () => {
    it('E23 listProjects: the session user’s saved projects', async () => {
      const projects = await api.pipo.listProjects(await login(ADA));
      expect(projects).toEqual([{ id: ADA_PROJECT, name: 'Business cards', external_id: 'BC-STD' }]);
    });

    it('E24 X16 getProject: own project; another user’s is 404 not_found without a message', async () => {
      const token = await login(ADA);
      await expect(api.pipo.getProject(token, ADA_PROJECT)).resolves.toMatchObject({ id: ADA_PROJECT });
      const error = await failure(api.pipo.getProject(token, BOB_PROJECT));
      expect([error.code, error.status, error.serviceMessage]).toEqual(['not_found', 404, undefined]);
    });

    it('E25 deleteProject: 200, then the project is gone', async () => {
      const token = await login(ADA);
      await api.pipo.deleteProject(token, ADA_PROJECT);
      expect((await failure(api.pipo.getProject(token, ADA_PROJECT))).code).toBe('not_found');
      await expect(api.pipo.listProjects(token)).resolves.toEqual([]);
    });

    it('E26 T05 P03 createOrder: invalid ids dropped, first status, the session user’s, external_id kept', async () => {
      const token = await login(ADA);
      const orderId = await api.pipo.createOrder(token, [ADA_PROJECT, BOB_PROJECT, 999_999], 'PO-900');
      const order = await api.getOrder(orderId);
      expect([order.status, order.customer.id, order.po_number]).toEqual(['New Order', ADA.id, 'PO-900']);
      expect(order.items.map((i) => [i.product_id, i.status])).toEqual([[ADA_PROJECT, 'New Order']]);
    });

    it('X18 createOrder without a valid product id: bad_request "Bad Request"', async () => {
      const error = await failure(api.pipo.createOrder(await login(ADA), [BOB_PROJECT, 999_999]));
      expect([error.code, error.status, error.serviceMessage]).toEqual(['bad_request', 400, 'Bad Request']);
    });

    it('E27 T06 processOrder starts the merge; waitForFiles honours Retry-After and returns the zip', async () => {
      const token = await login(ADA);
      const orderId = await api.pipo.createOrder(token, [ADA_PROJECT], 'PO-901');
      await api.pipo.processOrder(token, orderId);
      const file = await api.waitForFiles(orderId, { maxWaitMs: 10 * 60_000 });
      expect(file.filename).toBe(`order-${orderId}.zip`);
      expect(Object.keys(unzipSync(await bytesOf(file))).length).toBeGreaterThan(0);
      // Merging takes 90 s on the sandbox's clock; the service asks for 60 s each time.
      expect(sleeps).toEqual([60_000, 60_000]);
    });

    it('T06 waitForFiles gives up with files_not_ready when the order is never processed', async () => {
      const token = await login(ADA);
      const orderId = await api.pipo.createOrder(token, [ADA_PROJECT]);
      const error = await failure(api.waitForFiles(orderId, { maxWaitMs: 100_000 }));
      expect([error.code, error.status, error.retryAfterSeconds]).toEqual(['files_not_ready', 409, 60]);
      expect(sleeps).toEqual([60_000, 40_000]);
    });

    it('E27 processOrder of another user’s order: not_found', async () => {
      const error = await failure(api.pipo.processOrder(await login(BOB), MERGED_ORDER));
      expect([error.code, error.status]).toEqual(['not_found', 404]);
    });
  });

  describe('editor host URLs', () => {
    const editor = () => createEditorUrls(`${target.baseUrl}/editor`);
    const get = async (url: string) => {
      const response = await target.fetch(url, { method: 'GET' });
      await response.arrayBuffer();
      return [response.status, response.headers.get('content-type')?.split(';')[0]];
    };

    it('R14 onlineEditorUrl opens the editor for the session user', async () => {
      const token = await login(ADA);
      const url = editor().onlineEditorUrl({
        productId: CARDS,
        token,
        cartReturnUrl: 'https://gw.example/punchout/return?t=abc&x=1',
        size: { widthIn: 3.5, heightIn: 2 },
        tags: { logo: false, background: [['#ffffff', '#000080']] },
      });
      expect(await get(url)).toEqual([200, 'text/html']);
      expect(await get(editor().onlineEditorUrl({ epi: 'BC-STD', token }))).toEqual([200, 'text/html']);
    });

    it('R15 thumbnailUrl answers a PNG', async () => {
      const url = editor().thumbnailUrl({
        productId: CARDS,
        width: 120,
        height: 80,
        borderColor: '003366',
        fitMode: 1,
      });
      expect(await get(url)).toEqual([200, 'image/png']);
    });

    it('R16 A07 proofUrl answers a PDF for the PIPO token', async () => {
      const token = await login(ADA);
      expect(await get(editor().proofUrl({ token, productId: ADA_PROJECT }))).toEqual([
        200,
        'application/pdf',
      ]);
    });
  });
});
