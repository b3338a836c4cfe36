/**
 * D1 queries and subrequests of the Worker under workerd (issue 18, deliverable 5), counted by the wrapper
 * of test/workers/instrumented-worker.ts around the bundle wrangler builds: a PO costs the same few D1
 * statements whatever its lines (at most 10), and a Cron round with a queue of POs waiting stays within 50
 * D1 statements and 50 subrequests (the Free plan's limits per invocation).
 */
import { readFileSync } from 'node:fs';
import { createSandbox } from '@punchgate/sandbox';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { orderConfig } from '../support/order-flow.ts';
import { GATEWAY_ORIGIN } from '../support/stack.ts';
import { buildWorker, compatibilityDate } from './bundle-worker.ts';
import { type CountsAnswer, instrumentedModules } from './instrumented-worker.ts';
import { lineRefsOf, seedWorkerLines, workerOrder } from './worker-orders.ts';

/** The test config on D1, its storefront on the sandbox at `sandboxUrl`. */
function workerConfig(sandboxUrl: string) {
  const base = orderConfig();
  return {
    ...base,
    store: { kind: 'd1', binding: 'DB' },
    storefronts: base.storefronts.map((s) => ({
      ...s,
      apiBaseUrl: sandboxUrl,
      editorUrl: `${sandboxUrl}/editor`,
    })),
    // Confirmations go to a local address (answered 404, so retried later) rather than a name to look up.
    buyers: base.buyers.map((b) =>
      b.id === 'acme' ? { ...b, orderStatusUrl: `${sandboxUrl}/status-sink` } : b,
    ),
  };
}

describe('D1 queries and subrequests of the Worker under workerd', () => {
  let sandbox: RunningServer;
  let mf: Miniflare;

  beforeAll(async () => {
    const seed = JSON.parse(
      readFileSync(new URL('../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
    );
    sandbox = await serveNode(createSandbox(seed).app, { port: 0 });
    const bundle = await buildWorker(workerConfig(sandbox.url));
    mf = new Miniflare({
      modules: instrumentedModules(bundle.code),
      modulesRoot: '/instrumented',
      compatibilityDate: await compatibilityDate(),
      d1Databases: { DB: 'punchgate-worker-queries' },
      bindings: { LOG_LEVEL: 'error' },
    });
    await mf.ready;
  }, 300_000);

  afterAll(async () => {
    await mf?.dispose();
    await sandbox?.close();
  });

  const post = async (body: string) => {
    const res = await mf.dispatchFetch(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'text/xml' },
    });
    return res.text();
  };
  const counts = async () =>
    (await (await mf.dispatchFetch(`${GATEWAY_ORIGIN}/__counts`)).json()) as CountsAnswer;

  it('takes a PO in with the same D1 statements at 5 and 1,000 lines, at most 10', async () => {
    // The punch-in makes the user the POs' cart lines belong to.
    expect(await post(setupRequest())).toContain('<Status code="200"');
    const db = await mf.getD1Database('DB');
    const statements: Record<number, number> = {};
    for (const [serial, lines] of [
      [1, 5],
      [2, 1_000],
    ] as const) {
      await seedWorkerLines(db, lineRefsOf(serial, lines));
      expect(await post(workerOrder(serial, lines))).toContain('<Status code="200"');
      const { request } = await counts();
      statements[lines] = request.d1Statements;
      expect(request.d1Calls).toBeLessThanOrEqual(3);
      expect(request.fetches).toBe(0);
    }
    expect(statements[5]).toBeLessThanOrEqual(10);
    expect(statements[1_000]).toBeLessThanOrEqual(10);
    // The 1,000-line PO (666 KB) is stored in parts: one statement more, not one per line.
    expect(statements[1_000]! - statements[5]!).toBeLessThanOrEqual(1);
  }, 60_000);

  it('keeps a Cron round within 50 D1 statements and 50 subrequests with a queue of POs waiting', async () => {
    const db = await mf.getD1Database('DB');
    for (let serial = 10; serial < 30; serial++) {
      await seedWorkerLines(db, lineRefsOf(serial, 5));
      expect(await post(workerOrder(serial, 5))).toContain('<Status code="200"');
    }
    const worker = (await mf.getWorker()) as unknown as {
      scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>;
    };
    let jobsDone = 0;
    for (let round = 0; round < 3; round++) {
      await worker.scheduled({ cron: '* * * * *', scheduledTime: new Date() });
      const { round: made } = await counts();
      expect(made.d1Statements).toBeLessThanOrEqual(50);
      expect(made.fetches).toBeLessThanOrEqual(50);
      jobsDone += made.urls.filter((url) => url.includes('/pipo/order/create')).length;
    }
    // Every round still gets a PO job done, however long the queue.
    expect(jobsDone).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
