/**
 * Test mode through what ships: `punchgate serve` beside `punchgate sandbox`, on SQLite and PostgreSQL. A
 * buyer with a test storefront (the sandbox's second storefront, with its own API key) gets its test PO
 * made into a print order there and none on the production storefront; a buyer without one gets its test
 * PO stored and confirmed, and the print service is never asked to make an order of it.
 */
import { describe, expect, it } from 'vitest';
import {
  type CartLineOut,
  linesOf,
  orderRequest,
  punchOut,
  receivedDocuments,
} from '../support/order-flow.ts';
import { useFaultDatabase } from '../support/postgres-faults-database.ts';
import { describeWithPostgres } from '../support/postgres-test-database.ts';
import { eventually, type SandboxProcess, SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import {
  printShopApi,
  type ServeBesideSandbox,
  serveBrowser,
  useServeBesideSandbox,
} from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN, type ConfigJson } from './user-config.ts';

const TEST_KEY_LABEL = 'punchgate gateway demo, test storefront';
const NO_TEST_BUYER = { domain: 'DUNS', identity: 'GLOBEX-PROC', secret: 'globex-secret-0123' } as const;

/**
 * The config of the print shop that keeps a test storefront, as docs/configuration.md describes it: the
 * sandbox's storefront 2 with the key the sandbox printed for it, named as acme's `test.storefront`; and a
 * second buyer, globex, without one.
 */
function withTestStorefront(sandbox: SandboxProcess) {
  return (config: ConfigJson) => {
    const testKey = sandbox.apiKeys.find((k) => k.label === TEST_KEY_LABEL);
    if (testKey === undefined) throw new Error(`the sandbox printed no "${TEST_KEY_LABEL}" key`);
    const storefronts = config.storefronts as Record<string, unknown>[];
    const production = storefronts[0] as Record<string, unknown>;
    storefronts.push({
      ...production,
      id: 'printco-test',
      storefrontId: 2,
      name: 'PrintCo test storefront',
      apiToken: testKey.token,
      apiKey: testKey.key,
      products: [
        {
          productId: 111,
          sku: 'CC-POSTER',
          name: 'Campus poster',
          uom: 'EA',
          prices: [{ minQuantity: 1, unitPrice: 4 }],
        },
      ],
    });
    const buyers = config.buyers as Record<string, unknown>[];
    const acme = buyers[0] as Record<string, unknown>;
    acme.test = { storefront: 'printco-test' };
    buyers.push({
      ...acme,
      id: 'globex',
      name: 'Globex (no test storefront)',
      from: [{ domain: NO_TEST_BUYER.domain, identity: NO_TEST_BUYER.identity }],
      sharedSecret: NO_TEST_BUYER.secret,
      test: {},
    });
  };
}

function testModeSuite(
  options: () => { serveEnv?: Record<string, string>; adjustConfig?: (config: ConfigJson) => void },
) {
  const stack: ServeBesideSandbox = useServeBesideSandbox({
    // Read when the stack starts (beforeAll), once the PostgreSQL database of the suite exists.
    get serveEnv() {
      return options().serveEnv ?? {};
    },
    adjustConfig: (config, sandbox) => {
      withTestStorefront(sandbox)(config);
      options().adjustConfig?.(config);
    },
  });
  const browser = serveBrowser(() => stack.serve);

  async function adminOrder(orderId: string) {
    const answer = await fetch(`${stack.serve.url}/admin/orders?q=${encodeURIComponent(orderId)}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const body = (await answer.json()) as { items: Record<string, unknown>[] };
    return body.items.find((o) => o.orderId === orderId);
  }

  /** The print orders of a PO number on the sandbox, each with its storefront's name. */
  async function printOrdersOf(orderId: string): Promise<string[]> {
    const api = printShopApi(stack.sandbox);
    const storefronts: string[] = [];
    for (let id = 1001, missing = 0; missing < 30; id++) {
      try {
        const order = await api.getOrder(id);
        missing = 0;
        if (order.integration_id === orderId) storefronts.push(order.storefront);
      } catch {
        missing++;
      }
    }
    return storefronts;
  }

  it('makes a test PO a print order on the test storefront only, told to the buyer as a test', async () => {
    const processes = [stack.serve.process, stack.sandbox.process];
    const cart: CartLineOut[] = await punchOut(browser, ['Campus poster'], {
      browserFormPost: stack.buyer.returnUrl,
      deploymentMode: 'test',
    });
    expect(cart.map((line) => line.sku)).toEqual(['CC-POSTER']);
    const answer = await browser.postCxml(
      orderRequest({ orderID: 'PO-TEST-SHIP', lines: linesOf(cart), deploymentMode: 'test' }),
    );
    expect(answer).toMatch(/<Status code="200" text="OK"/);
    const accept = await eventually(
      'the test accept at the buyer',
      () =>
        receivedDocuments(stack.buyer, 'ConfirmationRequest').find(
          ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'] === 'PO-TEST-SHIP',
        ),
      { processes },
    );
    expect(accept.doc.Request['@deploymentMode']).toBe('test');
    expect(accept.doc.Request.ConfirmationRequest.ConfirmationHeader['@type']).toBe('accept');
    expect(await printOrdersOf('PO-TEST-SHIP')).toEqual(['Campus Copy Center']);
    expect(await adminOrder('PO-TEST-SHIP')).toMatchObject({
      state: 'ordered',
      deploymentMode: 'test',
      storefrontId: 'printco-test',
    });
  });

  it('stores and confirms a test PO of a buyer without a test storefront, and orders nothing', async () => {
    const processes = [stack.serve.process, stack.sandbox.process];
    const cart = await punchOut(browser, ['Business cards'], {
      ...NO_TEST_BUYER,
      browserFormPost: stack.buyer.returnUrl,
      deploymentMode: 'test',
    });
    const answer = await browser.postCxml(
      orderRequest({
        ...NO_TEST_BUYER,
        orderID: 'PO-GLOBEX-TEST',
        lines: linesOf(cart),
        deploymentMode: 'test',
      }),
    );
    expect(answer).toMatch(/<Status code="200" text="OK"/);
    const accept = await eventually(
      'the test accept of the PO without a test storefront',
      () =>
        receivedDocuments(stack.buyer, 'ConfirmationRequest').find(
          ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'] === 'PO-GLOBEX-TEST',
        ),
      { processes },
    );
    expect(accept.doc.Request['@deploymentMode']).toBe('test');
    expect(await adminOrder('PO-GLOBEX-TEST')).toMatchObject({
      state: 'ordered',
      deploymentMode: 'test',
      storefrontId: null,
      printOrderIds: [],
      flags: ['test_not_sent'],
    });
    // The sandbox holds no order with this PO number, on any storefront.
    expect(await printOrdersOf('PO-GLOBEX-TEST')).toEqual([]);
  });
}

describe('test mode through punchgate serve beside punchgate sandbox (SQLite)', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  testModeSuite(() => ({}));
});

describeWithPostgres('test mode through punchgate serve beside punchgate sandbox (PostgreSQL)', () => {
  const database = useFaultDatabase();
  describe('on its own database', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
    testModeSuite(() => ({
      serveEnv: { DATABASE_URL: database.url() },
      adjustConfig: (config) => {
        config.store = { kind: 'postgres', url: { env: 'DATABASE_URL' } };
      },
    }));
  });
});
