/**
 * The PostgreSQL server stopped (`pg_ctl stop -m immediate`, as a crash or a failover does) and started
 * again while two gateways, built as `punchgate serve` builds them (createNodeGateway, background rounds on
 * timers, the print service over HTTP), take punch-out setups and purchase orders. What must hold: neither
 * process dies; during the outage /cxml answers cXML Status 500 (buyers retry) and /readyz 503 naming the
 * store; as soon as the server is back both recover by themselves, and no PO gets two print orders. The
 * recovery time is measured and printed (not asserted: timing depends on the machine).
 *
 * Stopping a server needs a server of our own: this file starts a throwaway one from npm's PostgreSQL
 * binaries (test/support/throwaway-postgres.ts) and never touches the one the other suites share.
 */
import { createSandbox } from '@punchgate/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeGateway, type NodeGateway } from '../../src/runtime/gateway-node.ts';
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { createPostgresStore } from '../../src/store/postgres.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { type CartLineOut, linesOf, orderConfig, orderRequest, punchOut } from '../support/order-flow.ts';
import { statusOf } from '../support/punchout-flow.ts';
import { followRedirects, GATEWAY_ORIGIN, resolveTestConfig, type Stack } from '../support/stack.ts';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('a PostgreSQL server stopped and started under load', () => {
  let cluster: ThrowawayPostgres | undefined;
  let sandbox: RunningServer | undefined;
  const instances: NodeGateway[] = [];
  const buyerPosts: string[] = [];
  const logged: { level: string; message: string }[] = [];

  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    const seed = (await import('../../fixtures/sandbox-seed.json', { with: { type: 'json' } })).default;
    sandbox = await serveNode(createSandbox(seed as never, { mergeDelayMs: 0 }).app, { port: 0 });
    const base = orderConfig();
    const config = resolveTestConfig({
      ...base,
      storefronts: base.storefronts.map((s) => ({
        ...s,
        apiBaseUrl: sandbox!.url,
        editorUrl: `${sandbox!.url}/editor`,
      })),
    });
    const logger = {
      info() {},
      warn: (message: string) => logged.push({ level: 'warn', message }),
      error: (message: string) => logged.push({ level: 'error', message }),
    };
    // The buyer's order-status endpoint: takes every document with a cXML 200.
    const buyerFetch: typeof fetch = async (_input, init) => {
      buyerPosts.push(String(init?.body ?? ''));
      return new Response('<cXML><Response><Status code="200" text="OK"/></Response></cXML>', {
        headers: { 'Content-Type': 'text/xml' },
      });
    };
    for (let i = 0; i < 2; i++) {
      const store = await createPostgresStore({ url: cluster.url, connectTimeoutMs: 1000 });
      const instance = await createNodeGateway(config, { logger, store, fetch: buyerFetch });
      instances.push(instance);
      await instance.startBackground({ tickMs: 100 });
    }
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await sandbox?.close();
    await cluster?.remove();
  });

  const gateway = (i: number) => instances[i % 2]!.gateway;
  const postCxml = async (i: number, body: string) =>
    (
      await gateway(i).app.fetch(
        new Request(`${GATEWAY_ORIGIN}/cxml`, {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'text/xml' },
        }),
      )
    ).text();
  /** Enough of a stack for a punch-out: cXML to a gateway, a browser across gateways and the sandbox. */
  const browser = () =>
    ({
      postCxml: (body: string) => postCxml(0, body),
      browse: followRedirects(async (url, init) => {
        if (url.startsWith(GATEWAY_ORIGIN))
          return gateway(1).app.request(url, { ...init, redirect: 'manual' });
        if (url.startsWith(sandbox!.url)) return fetch(url, { ...init, redirect: 'manual' });
        return new Response('');
      }),
    }) as unknown as Stack;

  it('answers with retryable errors while it is down and recovers without a restart', async () => {
    const carts: CartLineOut[][] = [];
    for (let i = 0; i < 3; i++) carts.push(await punchOut(browser(), ['Business cards']));
    const po = (n: number) =>
      orderRequest({
        payloadID: `po-restart-${n}@ariba.example`,
        orderID: `PO-RESTART-${n}`,
        lines: linesOf(carts[n]!),
      });

    // Healthy: a PO accepted before the crash.
    expect(statusOf(await postCxml(0, po(0))).code).toBe(200);

    // Load while the server goes away: setups and a PO, to both instances, all the time.
    let loading = true;
    const answers: number[] = [];
    const load = (async () => {
      for (let i = 0; loading && i < 5000; i++) {
        const body = i % 3 === 0 ? po(1) : setupRequest();
        const status = statusOf(await postCxml(i, body));
        answers.push(status.code);
        if (status.code !== 200) expect(status).toMatchObject({ code: 500, text: 'Internal Server Error' });
        await sleep(5);
      }
    })();
    await sleep(300);
    await cluster!.stopImmediately();

    // Down: the retryable answer, and /readyz names the store.
    const down = statusOf(await postCxml(0, po(2)));
    expect(down.code).toBe(500);
    expect(down.detail).toBe('The gateway could not handle this request now; it is safe to send it again.');
    for (let i = 0; i < 2; i++) {
      const ready = await gateway(i).app.request(`${GATEWAY_ORIGIN}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('Retry-After')).toBe('30');
      expect((await ready.json()).reasons).toContain('the store is not answering');
    }
    await sleep(1000);

    await cluster!.start();
    const back = performance.now();
    // The first request that succeeds after the server is back, and the first PO processed after it.
    let firstAnswerMs: number | undefined;
    for (let i = 0; firstAnswerMs === undefined && i < 2000; i++) {
      if (statusOf(await postCxml(i, setupRequest())).code === 200) firstAnswerMs = performance.now() - back;
      else await sleep(10);
    }
    expect(firstAnswerMs).toBeDefined();
    for (let i = 0; i < 200 && statusOf(await postCxml(i, po(2))).code !== 200; i++) await sleep(20);
    let firstOrderMs: number | undefined;
    for (let i = 0; firstOrderMs === undefined && i < 600; i++) {
      const { items } = await instances[0]!.store.orders.list({ limit: 10 });
      if (items.find((o) => o.orderId === 'PO-RESTART-2')?.state === 'ordered') {
        firstOrderMs = performance.now() - back;
      } else await sleep(50);
    }
    expect(firstOrderMs, 'the PO sent after the restart is processed').toBeDefined();
    loading = false;
    await load;

    expect(answers.filter((code) => code === 500).length).toBeGreaterThan(0);
    expect(answers.filter((code) => code === 200).length).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) {
      const ready = await (await gateway(i).app.request(`${GATEWAY_ORIGIN}/readyz`)).json();
      expect(ready.reasons ?? []).not.toContain('the store is not answering');
    }
    // No PO twice: each accepted PO has at most one print order.
    const { items } = await instances[0]!.store.orders.list({ limit: 10 });
    for (const order of items) expect(order.printOrderIds.length).toBeLessThanOrEqual(1);
    expect(logged.some((l) => /background round failed/.test(l.message))).toBe(true);
    console.info('postgres restart recovery', {
      firstAnswerMs: Math.round(firstAnswerMs!),
      firstOrderProcessedMs: Math.round(firstOrderMs!),
      answersDuringLoad: {
        ok: answers.filter((c) => c === 200).length,
        retry: answers.filter((c) => c === 500).length,
      },
    });
  }, 60_000);
});
