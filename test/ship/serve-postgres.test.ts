/**
 * Two `punchgate serve` processes on one PostgreSQL database, as a print shop runs them behind a load
 * balancer: one config file for both (its publicUrl is the address the buyers use, here instance A's),
 * `"store": {"kind": "postgres", "url": {"env": "DATABASE_URL"}}`, each process with its own background
 * rounds. Purchase orders delivered several times to both become exactly one print order and exactly one
 * accept each, with nothing but the two processes and the print service running. The same holds while
 * every connection to the database is killed again and again (`pg_terminate_backend`, as an operator, a
 * failover or a connection-killing proxy does): both processes live on, every request gets its answer or
 * the documented retryable one, and what the kills cut off settles by itself afterwards.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrintApi } from '../../src/print-api/index.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { linesOf, orderRequest, punchOut, receivedDocuments, type XmlTree } from '../support/order-flow.ts';
import { useFaultDatabase } from '../support/postgres-faults-database.ts';
import { describeWithPostgres } from '../support/postgres-test-database.ts';
import { startUrlOf, statusOf } from '../support/punchout-flow.ts';
import { type BrowserResponse, followRedirects } from '../support/stack.ts';
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
import { ADMIN_TOKEN, freshFolder, serveConfig, writeConfigFile } from './user-config.ts';

/** The storm: kills of every backend of the database, 50 to 200 ms apart (about four seconds). */
const KILLS = 30;
/** Purchase orders whose punch-out and sending run through the storm. */
const STORM_POS = 4;
/** How often a buyer sends a document again, or a user starts a punch-out again, before the test gives up. */
const MAX_TRIES = 100;
const RETRY_PAUSE_MS = 100;
/**
 * The bound on settling after the storm. A job whose worker lost its connection before it could record the
 * outcome (typically a cut-off print-order create) is taken over once its 60 s lease runs out (docs/deployment.md,
 * PostgreSQL), then settled by the print-order search; what a fault leaves must settle within two minutes.
 */
const SETTLE_TIMEOUT_MS = 150_000;
const STORM_TEST_TIMEOUT_MS = SETTLE_TIMEOUT_MS + SHIP_TEST_TIMEOUT_MS;
/** cXML's retryable answer (docs/troubleshooting.md): the buyer's system sends the same document again. */
const RETRYABLE_CXML = {
  code: 500,
  text: 'Internal Server Error',
  detail: 'The gateway could not handle this request now; it is safe to send it again.',
};
/** What a page says with its 503 while the store is away. */
const RETRYABLE_PAGE = 'Please try again in a moment.';

/** A retryable answer, which the buyer's system or user meets by trying again. */
class RetryableAnswer extends Error {}

/** Neither a stack trace nor an internal error name reaches a buyer or a browser. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+|StoreError|DatabaseError|PostgreSQL|terminating connection/);
}

describeWithPostgres('two punchgate serve processes on one PostgreSQL database', () => {
  // A database of its own (the instances use its default `public` schema, as `serve` does), dropped
  // afterwards; the storm below ends every session of it, so it must not be shared with other tests.
  const database = useFaultDatabase();
  let buyer: BuyerSystem;
  let sandbox: SandboxProcess;
  let a: ServeProcess;
  let b: ServeProcess;

  beforeAll(async () => {
    buyer = await startBuyerSystem();
    sandbox = await startSandboxCommand();
    const [portA = 0, portB = 0] = await freePorts(2);
    const { config, secrets } = serveConfig({
      publicUrl: `http://127.0.0.1:${portA}`,
      sandbox,
      buyer,
      store: { kind: 'postgres', url: { env: 'DATABASE_URL' } },
    });
    const configFile = writeConfigFile(freshFolder(), config);
    const env = childEnv({ ...secrets, DATABASE_URL: database.url() });
    // Both start at once on the empty database: the store's migration lock lets one create the tables.
    [a, b] = await Promise.all([
      startServeCommand('serve A', configFile, portA, env),
      startServeCommand('serve B', configFile, portB, env),
    ]);
  }, SHIP_TEST_TIMEOUT_MS);

  // Before the database is dropped (useFaultDatabase's afterAll runs after this one).
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

  it(
    'keeps both instances serving while every database connection is killed again and again, and confirms each PO exactly once',
    async () => {
      const processes = [a.process, b.process, sandbox.process];
      const tally = { kills: 0, killed: 0, answered: 0, retryCxml: 0, retryPages: 0, ready503: 0 };

      /** A /cxml answer: HTTP 200 with either its result or the documented retryable Status. */
      function isAnswered(httpStatus: number, text: string): boolean {
        expect(httpStatus).toBe(200);
        expectNoInternals(text);
        const status = statusOf(text);
        if (status.code === 200) {
          tally.answered++;
          return true;
        }
        expect(status).toEqual(RETRYABLE_CXML);
        tally.retryCxml++;
        return false;
      }

      // The buyer's side during the storm: setups to both instances in turn, pages through the address in
      // the config (A). A retryable answer ends the attempt with RetryableAnswer; anything else is asserted.
      let setups = 0;
      const stormBrowser = {
        async browse(url: string, init?: RequestInit): Promise<BrowserResponse> {
          const page = await browser.browse(url, init);
          expectNoInternals(page.text);
          if (page.status !== 503) return page;
          expect(page.text).toContain(RETRYABLE_PAGE);
          expect(page.headers.get('Retry-After')).toBe('30');
          tally.retryPages++;
          throw new RetryableAnswer(`${url}: 503`);
        },
        async postCxml(body: string): Promise<string> {
          const res = await postTo([a, b][setups++ % 2]!, body);
          const text = await res.text();
          if (!isAnswered(res.status, text)) throw new RetryableAnswer('cXML Status 500');
          return text;
        },
      };

      /** Starts again from the setup after a retryable answer, as the buyer's user would; bounded. */
      async function punchOutThroughStorm(products: string[]) {
        for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
          try {
            return await punchOut(stormBrowser, products, { browserFormPost: buyer.returnUrl });
          } catch (error) {
            if (!(error instanceof RetryableAnswer)) throw error;
            await sleep(RETRY_PAUSE_MS);
          }
        }
        throw new Error(`no punch-out got through in ${MAX_TRIES} tries`);
      }

      /** Sends one document until an instance accepts it, alternating as a load balancer would; bounded. */
      async function sendUntilAnswered(document: string, first: number): Promise<void> {
        for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
          const res = await postTo([a, b][(first + attempt) % 2]!, document);
          if (isAnswered(res.status, await res.text())) return;
          await sleep(RETRY_PAUSE_MS);
        }
        throw new Error(`a document was not accepted in ${MAX_TRIES} tries`);
      }

      // The storm: a bounded number of kills, 50 to 200 ms apart, each ending every session of the
      // database (both instances' pools, their background rounds' connections, whatever is mid-query).
      let storming = true;
      const storm = (async () => {
        for (let round = 0; round < KILLS; round++) {
          await sleep(50 + (round % 4) * 50);
          tally.killed += await database.terminateBackends();
          tally.kills++;
        }
        storming = false;
      })();

      // Each buyer's user punches out, then the buyer's system sends the PO until it is accepted and once
      // more to the other instance (a retry whose answer was lost), all while the storm lasts.
      const runId = Date.now().toString(36);
      const orderIDs = Array.from({ length: STORM_POS }, (_, i) => `PO-STORM-${runId}-${i}`);
      const buyers = orderIDs.map(async (orderID, i) => {
        await sleep(i * 300);
        const cart = await punchOutThroughStorm([i % 2 === 0 ? 'Business cards' : 'A5 flyer']);
        const document = orderRequest({
          payloadID: `${orderID.toLowerCase()}@acme.example`,
          orderID,
          lines: linesOf(cart),
        });
        await sendUntilAnswered(document, i);
        await sendUntilAnswered(document, i + 1);
      });

      // More setups and start pages, and /readyz of both, for as long as the storm lasts.
      const browsing = (async () => {
        for (let round = 0; storming && round < 500; round++) {
          try {
            const setup = await stormBrowser.postCxml(setupRequest({ browserFormPost: buyer.returnUrl }));
            expect((await stormBrowser.browse(startUrlOf(setup))).status).toBe(200);
          } catch (error) {
            if (!(error instanceof RetryableAnswer)) throw error;
          }
          for (const instance of [a, b]) {
            const ready = await fetch(`${instance.url}/readyz`);
            await ready.text();
            expect([200, 503]).toContain(ready.status);
            if (ready.status === 503) tally.ready503++;
          }
        }
      })();

      await Promise.all([storm, ...buyers, browsing]);
      const stormOver = Date.now(); // for the figure logged at the end; nothing asserts how long settling takes
      expect(tally.killed).toBeGreaterThan(0);

      // Neither instance died or let an error escape: no exit, nothing unhandled, no stack trace, and no
      // programming error among the failures it logged (a fault may only ever show as the store's error;
      // `TypeError: fetch failed` is how Node's fetch reports a network error, not a bug).
      for (const instance of [a, b]) {
        expect(instance.process.exit(), instance.process.tail()).toBeUndefined();
        expect(instance.process.stderr()).not.toMatch(
          /unhandled|uncaught|TypeError(?!: fetch failed)|ReferenceError|\bat \S+ \(?\S+:\d+:\d+\)?/i,
        );
      }

      // What the kills left behind settles by itself: on both instances every storm PO is ordered, nothing
      // waits to be sent, and each has reached the buyer. (A job or a message whose worker lost its
      // connection mid-way is taken over once its lease runs out, so this may take a minute.)
      const accepts = (orderID: string) =>
        receivedDocuments(buyer, 'ConfirmationRequest').filter(
          ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'] === orderID,
        );
      const stormOrders = async (instance: ServeProcess): Promise<XmlTree[] | undefined> => {
        const res = await fetch(`${instance.url}/admin/orders`, {
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        if (res.status !== 200) return undefined;
        const { items } = (await res.json()) as { items: XmlTree[] };
        return items.filter((po) => orderIDs.includes(po.orderId));
      };
      const waiting = async (instance: ServeProcess, state: string): Promise<number | undefined> => {
        const res = await fetch(`${instance.url}/admin/outbox?state=${state}`, {
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        return res.status === 200 ? ((await res.json()) as { items: unknown[] }).items.length : undefined;
      };
      await eventually(
        'every storm PO ordered on both instances, confirmed, with nothing left to send',
        async () => {
          for (const instance of [a, b]) {
            const orders = await stormOrders(instance);
            if (orders?.length !== STORM_POS || orders.some((po) => po.state !== 'ordered')) return undefined;
            if ((await waiting(instance, 'pending')) !== 0 || (await waiting(instance, 'sending')) !== 0) {
              return undefined;
            }
          }
          return orderIDs.every((orderID) => accepts(orderID).length > 0) ? true : undefined;
        },
        { timeoutMs: SETTLE_TIMEOUT_MS, intervalMs: 500, processes },
      );
      const settledAt = Date.now();

      // Exactly one print order per PO, and exactly one accept naming it. Delivery is at least once: a post
      // whose outcome could not be recorded is sent again, the very same document (same payloadID, which
      // buyers dedupe on), so documents are counted, not posts.
      const staffKey = sandbox.apiKeys.find((k) => k.label === 'reporting');
      if (staffKey === undefined)
        throw new Error(`no second Enterprise key printed\n${sandbox.process.tail()}`);
      const printShop = createPrintApi({ baseUrl: sandbox.url, token: staffKey.token, key: staffKey.key });
      const records = (await printShop.report('order_details')) as XmlTree[];
      let reposts = 0;
      for (const orderID of orderIDs) {
        const printOrders = records.filter((r) => r.po_number === orderID).map((r) => r.order_id);
        expect(printOrders, orderID).toHaveLength(1);
        const posts = accepts(orderID);
        expect(new Set(posts.map(({ doc }) => doc['@payloadID'])).size, orderID).toBe(1);
        for (const { doc } of posts) {
          expect(doc.Request.ConfirmationRequest.ConfirmationHeader['@type']).toBe('accept');
          expect(doc.Request.ConfirmationRequest.ConfirmationHeader['@confirmID']).toBe(
            String(printOrders[0]),
          );
        }
        reposts += posts.length - 1;
      }
      expect((await stormOrders(a))?.map((po) => po.printOrderIds.length)).toEqual(Array(STORM_POS).fill(1));

      // Both are ready again (the store answers and a background round has completed since).
      for (const instance of [a, b]) {
        await eventually(
          `${instance.process.name} /readyz to answer 200`,
          async () => ((await fetch(`${instance.url}/readyz`)).status === 200 ? true : undefined),
          { processes },
        );
      }
      console.info('serve storm', { ...tally, reposts, settledAfterMs: settledAt - stormOver });
    },
    STORM_TEST_TIMEOUT_MS,
  );
});
