/**
 * Two `punchgate serve` processes on one PostgreSQL database, as a print shop runs them behind a load
 * balancer: one config file for both (its publicUrl is the address the buyers use, here instance A's),
 * `"store": {"kind": "postgres", "url": {"env": "DATABASE_URL"}}`, each process with its own background
 * rounds. Purchase orders delivered several times to both become exactly one print order and exactly one
 * accept each, with nothing but the two processes and the print service running.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrintApi } from '../../src/print-api/index.ts';
import { linesOf, orderRequest, punchOut, receivedDocuments, type XmlTree } from '../orders/order-flow.ts';
import { describeWithPostgres, pgUrl } from '../store/postgres-test-database.ts';
import { followRedirects } from '../support/stack.ts';
import { type BuyerSystem, startBuyerSystem } from './buyer-system.ts';
import {
  childEnv,
  eventually,
  freePorts,
  type SandboxProcess,
  type ServeProcess,
  SHIP_TEST_TIMEOUT_MS,
  startSandboxCommand,
  startServeCommand,
  stopAllCommands,
} from './processes.ts';
import { ADMIN_TOKEN, freshFolder, secretEnv, userConfig, writeConfigFile } from './user-config.ts';

/**
 * A database of its own for this file (the instances use the default `public` schema, as `serve` does),
 * so it runs beside every other PostgreSQL test; dropped afterwards, connections and all.
 */
function useFreshDatabase(): { url(): string } {
  const name = `punchgate_ship_${process.pid}_${Date.now().toString(36)}`;
  let created = false;
  const admin = async <T>(run: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE ${name}`));
    created = true;
  });
  afterAll(async () => {
    if (created) await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  return {
    url() {
      const url = new URL(pgUrl ?? '');
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}

describeWithPostgres('two punchgate serve processes on one PostgreSQL database', () => {
  const database = useFreshDatabase();
  let buyer: BuyerSystem;
  let sandbox: SandboxProcess;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    buyer = await startBuyerSystem();
    sandbox = await startSandboxCommand();
    const gatewayKey = sandbox.apiKeys.find((k) => k.label === 'punchgate gateway demo');
    if (gatewayKey === undefined) throw new Error(`no gateway key printed\n${sandbox.process.tail()}`);
    const [portA = 0, portB = 0] = await freePorts(2);
    const configFile = writeConfigFile(
      freshFolder(),
      userConfig({
        publicUrl: `http://127.0.0.1:${portA}`,
        printService: { apiBaseUrl: sandbox.url, editorUrl: sandbox.editorUrl, apiToken: gatewayKey.token },
        buyerSystem: { returnHost: buyer.host, orderStatusUrl: buyer.orderStatusUrl },
        store: { kind: 'postgres', url: { env: 'DATABASE_URL' } },
      }),
    );
    const env = childEnv({ ...secretEnv(gatewayKey.key), DATABASE_URL: database.url() });
    // Both start at once on the empty database: the store's migration lock lets one create the tables.
    [a, b] = await Promise.all([
      startServeCommand('serve A', configFile, portA, env),
      startServeCommand('serve B', configFile, portB, env),
    ]);
  }, SHIP_TEST_TIMEOUT_MS);

  // Before the database is dropped (useFreshDatabase's afterAll runs after this one).
  afterAll(async () => {
    await stopAllCommands();
    await buyer?.close();
  }, SHIP_TEST_TIMEOUT_MS);

  const browser = {
    browse: followRedirects((url, init) => fetch(url, { ...init, redirect: 'manual' })),
    async postCxml(body: string) {
      return (await postTo(a, body)).text();
    },
  };

  function postTo(instance: ServeProcess, body: string): Promise<Response> {
    return fetch(`${instance.url}/cxml`, { method: 'POST', body, headers: { 'Content-Type': 'text/xml' } });
  }

  async function adminOrders(instance: ServeProcess): Promise<XmlTree[]> {
    const res = await fetch(`${instance.url}/admin/orders`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: XmlTree[] }).items;
  }

  it(
    'each PO sent to both, several times, becomes exactly one print order and exactly one accept',
    async () => {
      const processes = [a.process, b.process, sandbox.process];
      // Two buyers' users punch out (through the address in the config: instance A).
      const carts = [
        await punchOut(browser, ['Business cards'], { browserFormPost: buyer.returnUrl, uniqueName: 'jroe' }),
        await punchOut(browser, ['A5 flyer'], {
          browserFormPost: buyer.returnUrl,
          uniqueName: 'msmith',
          userEmail: 'mary.smith@acme.example',
        }),
      ];
      const orders = carts.map((cart, i) => ({
        orderID: `PO-PG-${i + 1}`,
        body: orderRequest({
          payloadID: `po-pg-${i + 1}-${Date.now()}@acme.example`,
          orderID: `PO-PG-${i + 1}`,
          lines: linesOf(cart),
        }),
      }));

      // Every PO three times to each instance, all at once, as a buyer retrying through a load balancer.
      const answers = await Promise.all(
        orders.flatMap(({ body }) =>
          [a, b, a, b, a, b].map(async (instance) => {
            const res = await postTo(instance, body);
            return `${res.status} ${/<Status code="(\d+)"/.exec(await res.text())?.[1]}`;
          }),
        ),
      );
      expect(answers).toEqual(Array(12).fill('200 200'));

      const accepts = () =>
        receivedDocuments(buyer, 'ConfirmationRequest').filter(
          ({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'] === 'accept',
        );
      await eventually('an accept for each PO', () => (accepts().length >= 2 ? true : undefined), {
        processes,
      });
      // Both instances see both POs ordered and nothing left to send; only then are the counts final.
      for (const instance of [a, b]) {
        await eventually(
          `${instance.process.name} to show both POs ordered`,
          async () => {
            const items = await adminOrders(instance);
            return items.length === 2 && items.every((po) => po.state === 'ordered') ? items : undefined;
          },
          { processes },
        );
      }
      const outbox = await fetch(`${b.url}/admin/outbox?state=pending`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(((await outbox.json()) as { items: unknown[] }).items).toEqual([]);

      const acceptedOrders = accepts().map(
        ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'],
      );
      expect(acceptedOrders.toSorted()).toEqual(['PO-PG-1', 'PO-PG-2']);

      // The print service holds exactly one print order per PO, and it is the one each accept names.
      const staffKey = sandbox.apiKeys.find((k) => k.label === 'reporting');
      if (staffKey === undefined)
        throw new Error(`no second Enterprise key printed\n${sandbox.process.tail()}`);
      const printShop = createPrintApi({ baseUrl: sandbox.url, token: staffKey.token, key: staffKey.key });
      const records = (await printShop.report('order_details')) as XmlTree[];
      for (const { orderID } of orders) {
        const printOrders = records.filter((r) => r.po_number === orderID).map((r) => r.order_id);
        expect(printOrders, orderID).toHaveLength(1);
        const accept = accepts().find(
          ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'] === orderID,
        );
        expect(accept?.doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']).toBe(
          String(printOrders[0]),
        );
      }
      const summaries = await adminOrders(a);
      expect(summaries.map((po) => po.printOrderIds.length)).toEqual([1, 1]);
    },
    SHIP_TEST_TIMEOUT_MS,
  );
});
