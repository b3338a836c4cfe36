/**
 * PostgreSQL faults under two gateways: backends terminated again and again (what an operator's
 * `pg_terminate_backend`, a failover or a connection-killing proxy does) while buyers punch out and send
 * purchase orders and both order workers tick. What must hold: the process survives (an unhandled 'error'
 * event of a pg client would fail the run), every request gets either its answer or the documented
 * retryable one (cXML Status 500 on /cxml, a 503 page on punch-out and OCI pages, 503 on /readyz), never a
 * stack trace; and once the kills stop, every accepted PO becomes exactly one print order and is confirmed
 * exactly once, by whichever instance gets to it.
 *
 * Runs in a database of its own: terminating backends ends every session of the database.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway/index.ts';
import { createOrderWorker, type OrderWorker } from '../../src/gateway/orders/index.ts';
import { JOB_LEASE_MS } from '../../src/gateway/orders/worker.ts';
import type { Clock } from '../../src/store/clock.ts';
import type { Store } from '../../src/store/port.ts';
import { createPostgresStore } from '../../src/store/postgres.ts';
import { StoreError } from '../../src/store/store-error.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import {
  type CartLineOut,
  createOrderStack,
  linesOf,
  type OrderStack,
  orderConfig,
  orderRequest,
  printOrdersFor,
  punchOut,
  receivedDocuments,
} from '../support/order-flow.ts';
import { createCuttableLink, useFaultDatabase } from '../support/postgres-faults-database.ts';
import { describeWithPostgres } from '../support/postgres-test-database.ts';
import { startUrlOf, statusOf } from '../support/punchout-flow.ts';
import { GATEWAY_ORIGIN, START } from '../support/stack.ts';
import { postCxml, startInstanceA } from './two-instances.ts';

const PIPO_ORDER_CREATE = 'POST /api/v2/pipo/order/create';
const POS = 8;
/** Kills in the storm, 40 to 160 ms apart: about five seconds. */
const KILLS = 50;
/** cXML's retryable answer: the buyer's system sends the same document again later. */
const RETRYABLE = { code: 500, text: 'Internal Server Error' };
const OCI_PUNCH_IN =
  '/oci/s4?username=s4&password=s4-secret&hook_url=https%3A%2F%2Fs4.acme.example%3A44300%2Freturn&oci_version=5.0';

/** Neither a stack trace nor an internal error name reaches a buyer or a browser. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat .*\.(ts|js):\d+|StoreError|DatabaseError|PostgreSQL|terminating connection/);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describeWithPostgres('PostgreSQL faults under two gateways', () => {
  const database = useFaultDatabase();
  const stores: Store[] = [];

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  async function twoGateways(): Promise<{ stack: OrderStack; a: Gateway; b: Gateway }> {
    const open = async (clock: Clock) => {
      const store = await createPostgresStore({
        url: database.url(),
        schema: 'storm',
        clock,
        connectTimeoutMs: 2000,
      });
      stores.push(store);
      return store;
    };
    // Enough attempts that the storm cannot use up a job's budget: store failures count as attempts.
    const config = orderConfig({
      orders: { maxAttempts: 10, reconcileIntervalSeconds: 300, outboxMaxAttempts: 10 },
    });
    const { stack, a, startB } = await startInstanceA(open, config);
    return { stack, a, b: await startB() };
  }

  it('answers every request or asks for a retry, then turns each PO into one print order and one accept', async () => {
    const { stack, a, b } = await twoGateways();
    const gateways = [a, b];
    // Carts first, on a healthy database: each PO names the lines of its own punch-out.
    const carts: CartLineOut[][] = [];
    for (let i = 0; i < POS; i++) carts.push(await punchOut(stack, ['Business cards']));

    // The storm: a bounded number of kills, 40 to 160 ms apart, each ending every session of the database.
    let storming = true;
    let kills = 0;
    let killed = 0;
    const killer = (async () => {
      for (let round = 0; round < KILLS; round++) {
        await sleep(40 + (round % 5) * 30);
        killed += await database.terminateBackends();
        kills++;
      }
      storming = false;
    })();

    const tally = { ok: 0, retry: 0, pages503: 0, ready503: 0, workerFailures: 0 };
    const workers: OrderWorker[] = gateways.map((g) => createOrderWorker(g.context));

    // The buyers: each PO is sent until it gets 200, the way procurement networks retry a 500.
    const buyers = carts.map(async (cart, i) => {
      const document = orderRequest({
        payloadID: `po-storm-${i}@ariba.example`,
        orderID: `PO-STORM-${i}`,
        lines: linesOf(cart),
      });
      await sleep(i * 200);
      for (let attempt = 0; attempt < 500; attempt++) {
        const res = await postCxml(gateways[(i + attempt) % 2]!, document);
        expect(res.status).toBe(200);
        const text = await res.text();
        expectNoInternals(text);
        const status = statusOf(text);
        if (status.code === 200) {
          tally.ok++;
          return;
        }
        expect({ code: status.code, text: status.text }).toEqual(RETRYABLE);
        tally.retry++;
      }
      throw new Error(`PO-STORM-${i} was never accepted in 500 tries`);
    });

    // Punch-out setups, their start pages, OCI punch-ins and /readyz for as long as the storm lasts: the
    // answer or the documented retryable one.
    const browsers = (async () => {
      for (let i = 0; storming && i < 1000; i++) {
        const gateway = gateways[i % 2]!;
        const answer = await (await postCxml(gateway, setupRequest())).text();
        expectNoInternals(answer);
        const status = statusOf(answer);
        if (status.code === 200) {
          tally.ok++;
          const page = await gateway.app.request(startUrlOf(answer), { redirect: 'manual' });
          const text = await page.text();
          expectNoInternals(text);
          expect([200, 302, 303, 503]).toContain(page.status);
          if (page.status === 503) {
            tally.pages503++;
            expect(text).toContain('Please try again in a moment.');
          }
        } else {
          expect({ code: status.code, text: status.text }).toEqual(RETRYABLE);
          tally.retry++;
        }
        const oci = await gateway.app.request(`${GATEWAY_ORIGIN}${OCI_PUNCH_IN}`, { redirect: 'manual' });
        const ociText = await oci.text();
        expectNoInternals(ociText);
        expect([200, 302, 303, 503]).toContain(oci.status);
        if (oci.status === 503) {
          tally.pages503++;
          expect(ociText).toContain('Please try again in a moment.');
        }
        const ready = await gateway.app.request(`${GATEWAY_ORIGIN}/readyz`);
        expect([200, 503]).toContain(ready.status);
        if (ready.status === 503) tally.ready503++;
      }
    })();

    // Both workers tick through the storm; a round cut off by the database fails with `unavailable` only.
    const ticking = (async () => {
      for (let round = 0; storming && round < 1000; round++) {
        const results = await Promise.allSettled(workers.map((w) => w.tick()));
        for (const result of results) {
          if (result.status === 'rejected') {
            expect(result.reason).toBeInstanceOf(StoreError);
            expect((result.reason as StoreError).code).toBe('unavailable');
            tally.workerFailures++;
          }
        }
        await stack.sandbox.control.idle();
        stack.clock.advance(10);
      }
    })();

    await Promise.all([killer, ...buyers, browsers, ticking]);
    expect(killed).toBeGreaterThan(0);

    // The database is whole again: both workers settle everything, the clock passing leases and backoffs,
    // until every PO has left `received`/`processing` and no document waits for the buyer.
    const settled = async () => {
      const { items } = await stack.store.orders.list({ limit: 100 });
      const moving = items.filter((po) => po.state === 'received' || po.state === 'processing');
      const pending = await stack.store.outbox.list({ state: 'pending' });
      const sending = await stack.store.outbox.list({ state: 'sending' });
      return moving.length === 0 && pending.items.length + sending.items.length === 0;
    };
    for (let round = 0; !(await settled()); round++) {
      expect(round, 'the workers settle within 40 rounds').toBeLessThan(40);
      await Promise.all(workers.map((worker) => worker.tick()));
      await stack.sandbox.control.idle();
      stack.clock.advance(5 * 60);
    }

    const stored = (await stack.store.orders.list({ limit: 100 })).items;
    expect(stored).toHaveLength(POS);
    expect(
      stored
        .filter((po) => po.state === 'ordered')
        .map((po) => po.orderId)
        .sort(),
    ).toEqual(Array.from({ length: POS }, (_, i) => `PO-STORM-${i}`).sort());
    expect(stack.upstreamCalls.filter((call) => call === PIPO_ORDER_CREATE)).toHaveLength(POS);
    // One accept per PO. Delivery is at least once: a post whose outcome could not be recorded is sent
    // again, the very same document (same payloadID, which buyers dedupe on), so count documents, not posts.
    const accepts = receivedDocuments(stack, 'ConfirmationRequest');
    let reposts = 0;
    for (let i = 0; i < POS; i++) {
      expect(await printOrdersFor(stack, `PO-STORM-${i}`)).toHaveLength(1);
      const posts = accepts.filter(
        ({ doc }) => doc.Request.ConfirmationRequest.OrderReference['@orderID'] === `PO-STORM-${i}`,
      );
      expect(posts.length).toBeGreaterThan(0);
      expect(new Set(posts.map(({ doc }) => doc['@payloadID'])).size).toBe(1);
      expect(posts[0]!.doc.Request.ConfirmationRequest.ConfirmationHeader['@type']).toBe('accept');
      reposts += posts.length - 1;
    }
    // The store answers again on both. (Whether the background round is overdue is the host's business:
    // these workers are ticked by hand, so only the store's part of readiness is asserted.)
    for (const gateway of gateways) {
      const ready = await (await gateway.app.request(`${GATEWAY_ORIGIN}/readyz`)).json();
      expect(ready.reasons ?? []).not.toContain('the store is not answering');
    }
    console.info('postgres storm', { kills, killed, reposts, ...tally });
  }, 50_000);

  it('runs a statement again on a fresh connection when its session is terminated under it', async () => {
    const store = await createPostgresStore({
      url: database.url(),
      schema: 'terminated',
      clock: { now: () => new Date(START) },
      connectTimeoutMs: 2000,
    });
    stores.push(store);
    // A session of another client holds the table, so the store's statement is surely running (waiting
    // for the lock) when every session is ended, the holder's with it.
    const holder = new pg.Client({ connectionString: database.url() });
    holder.on('error', () => {});
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE terminated.purchase_orders IN ACCESS EXCLUSIVE MODE');
      const listing = store.orders.list({ limit: 10 });
      for (let wait = 0; (await database.waitingForLocks()) === 0; wait++) {
        expect(wait, "the store's statement waits for the lock within 5 s").toBeLessThan(250);
        await sleep(20);
      }
      expect(await database.terminateBackends()).toBeGreaterThanOrEqual(2);
      expect((await listing).items).toEqual([]);
    } finally {
      await holder.end().catch(() => {});
    }
  });

  it('takes over, after one lease and no longer, the job of a worker cut off from the database mid-job', async () => {
    // Instance A reaches the database through a link the test can cut; B directly.
    const link = await createCuttableLink(database.url());
    let current: OrderStack | undefined;
    const clock = { now: () => current?.clock.now() ?? new Date(START) };
    const open = async (url: string) => {
      // A schema of its own: the storm test's records are in the same database.
      const store = await createPostgresStore({ url, schema: 'takeover', clock, connectTimeoutMs: 1000 });
      stores.push(store);
      return store;
    };
    // A is cut off right after it asked the print service to start the file merge: the print order exists
    // and is recorded, the rest of the job is not.
    let cutOnMerge = true;
    const stack = await createOrderStack(orderConfig(), {
      store: await open(link.url),
      wrapPrintFetch: (fetch) => async (input, init) => {
        const response = await fetch(input, init);
        if (cutOnMerge && new URL(new Request(input).url).pathname.endsWith('/process')) {
          cutOnMerge = false;
          link.cut();
        }
        return response;
      },
    });
    current = stack;
    const a = stack.gateway;
    try {
      const cart = await punchOut(stack, ['Business cards']);
      const answer = statusOf(
        await (await postCxml(a, orderRequest({ orderID: 'PO-CUT-OFF', lines: linesOf(cart) }))).text(),
      );
      expect(answer.code).toBe(200);
      const b = await stack.restartGateway(await open(database.url()));
      const [workerA, workerB] = [createOrderWorker(a.context), createOrderWorker(b.context)];

      await expect(workerA.tick()).rejects.toMatchObject({ name: 'StoreError', code: 'unavailable' });
      const job = async () => {
        const { items } = await b.context.store.jobs.list({ kind: 'process_order' });
        expect(items).toHaveLength(1);
        return items[0]!;
      };
      const heldByA = await job();
      expect(heldByA).toMatchObject({ state: 'running', attempts: 1 });

      // Within A's lease B leaves the job alone.
      stack.clock.advance(JOB_LEASE_MS / 2000);
      await workerB.tick();
      expect(await job()).toMatchObject({ state: 'running', attempts: 1 });

      // Once the lease has run out, B takes the job over and finishes the PO.
      stack.clock.advance(JOB_LEASE_MS / 2000 + 1);
      for (let round = 0; round < 10; round++) {
        await workerB.tick();
        await stack.sandbox.control.idle();
        stack.clock.advance(60);
      }
      expect(await job()).toMatchObject({ state: 'done', attempts: 2 });
      const [po] = (await b.context.store.orders.list()).items;
      expect(po?.state).toBe('ordered');
      expect(await printOrdersFor(stack, 'PO-CUT-OFF')).toHaveLength(1);
      expect(stack.upstreamCalls.filter((call) => call === PIPO_ORDER_CREATE)).toHaveLength(1);
      const accepts = receivedDocuments(stack, 'ConfirmationRequest');
      expect(accepts.map(({ doc }) => doc.Request.ConfirmationRequest.ConfirmationHeader['@type'])).toEqual([
        'accept',
      ]);

      // A is back: its old claim is fenced off — it can neither renew nor finish the job — and it works on.
      link.restore();
      expect(await a.context.store.jobs.renewLease(heldByA, stack.clock.now())).toBeUndefined();
      expect(await a.context.store.jobs.complete(heldByA)).toBeUndefined();
      await workerA.tick();
      expect(await job()).toMatchObject({ state: 'done', attempts: 2 });
    } finally {
      await link.close();
    }
  });
});
