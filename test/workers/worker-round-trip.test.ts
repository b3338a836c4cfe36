/**
 * The Worker as `wrangler deploy --dry-run` builds it, under workerd (Miniflare): the bundle a deploy uploads
 * with a config of 100 products and 50 buyers bundled in, a D1 database, secrets from the Worker environment,
 * and the print service reached with the runtime's own fetch — the sandbox on a Node port. The buyer's
 * browser talks to the Worker through Miniflare's dispatchFetch; the Cron Trigger runs the background round.
 */
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createSandbox } from '@punchgate/sandbox';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrintApi } from '../../src/print-api/index.ts';
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { base64Part, cxmlPart, multipartBody, relatedContentType, samplePdf } from '../support/multipart.ts';
import {
  linesOf,
  type OrderStack,
  orderConfig,
  orderRequest,
  parseXml,
  printOrdersFor,
} from '../support/order-flow.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../support/punchout-flow.ts';
import { followRedirects, GATEWAY_KEY, GATEWAY_ORIGIN, GATEWAY_TOKEN } from '../support/stack.ts';
import { buildWorker, compatibilityDate, type WorkerBundle } from './bundle-worker.ts';
import { lineRefsOf, seedWorkerLines, workerOrder } from './worker-orders.ts';

const PRODUCTS = 100;
const BUYERS = 50;

const SECRETS: Record<string, string> = {
  DEMO_API_KEY: GATEWAY_KEY,
  PUNCHGATE_SIGNING_KEY: 'worker-signing-key-0123456789abcdef',
};
for (let n = 1; n <= BUYERS; n++) SECRETS[`BUYER_${n}_SECRET`] = `buyer-${n}-shared-secret`;

/** The order-flow config on D1 with secrets in the environment, grown to a print shop's size. */
function workerConfig(sandboxUrl: string) {
  const base = orderConfig();
  const [first, ...rest] = base.storefronts.map((s) => ({
    ...s,
    apiBaseUrl: sandboxUrl,
    editorUrl: `${sandboxUrl}/editor`,
    apiKey: { env: 'DEMO_API_KEY' },
  }));
  if (first === undefined) throw new Error('orderConfig has no storefront');
  const products = [...first.products];
  for (let n = 1; products.length + rest.reduce((sum, s) => sum + s.products.length, 0) < PRODUCTS; n++) {
    products.push({
      productId: 101,
      sku: `GEN-${String(n).padStart(3, '0')}`,
      name: `Generated product ${n}`,
      description: 'A product of a print shop with a full catalog, 350 g matte, printed both sides',
      uom: 'EA',
      unspsc: '82121512',
      leadTimeDays: 5,
      prices: [
        { minQuantity: 1, unitPrice: 0.5 },
        { minQuantity: 500, unitPrice: 0.4 },
      ],
    });
  }
  const buyers: unknown[] = [...base.buyers];
  for (let n = 1; buyers.length < BUYERS; n++) {
    buyers.push({
      id: `buyer-${n}`,
      name: `Generated buyer ${n}`,
      storefront: first.id,
      protocol: 'cxml',
      from: [{ domain: 'NetworkID', identity: `AN-GEN-${n}` }],
      sharedSecret: { env: `BUYER_${n}_SECRET` },
      returnUrlHosts: ['buyer.example'],
      orderStatusUrl: `https://buyer-${n}.example/cxml/status`,
    });
  }
  return {
    ...base,
    store: { kind: 'd1', binding: 'DB' },
    signingKey: { env: 'PUNCHGATE_SIGNING_KEY' },
    storefronts: [{ ...first, products }, ...rest],
    buyers,
  };
}

/** A config with several problems at once, each of a different kind. */
function brokenConfig(sandboxUrl: string) {
  const good = workerConfig(sandboxUrl);
  return {
    ...good,
    adminToken: 'too-short',
    store: { kind: 'd1', binding: 'NO_SUCH_DB' },
    buyers: good.buyers.map((b, i) => (i === 0 ? { ...(b as object), storefront: 'nowhere' } : b)),
  };
}

/** Collects what the Worker writes to the console: its JSON log lines. */
function logCollector() {
  let text = '';
  return {
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      for (const stream of [stdout, stderr]) {
        stream.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
      }
    },
    text: () => text,
    /** The JSON lines with this message. */
    lines(message: string): Record<string, unknown>[] {
      return text
        .split('\n')
        .filter((line) => line.includes(`"msg":"${message}"`))
        .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>);
    },
  };
}

/** The Worker's upload with the example config, gzipped, as wrangler reports it. */
const WORKER_GZIP_BUDGET_KIB = 250;
/** The same with the 100-product, 50-buyer shop config, whose 74 KB of JSON add about 2.5 KiB gzip. */
const SHOP_WORKER_GZIP_BUDGET_KIB = WORKER_GZIP_BUDGET_KIB + 3;

describe('the Worker as wrangler builds it, under workerd', () => {
  let sandbox: RunningServer;
  let mf: Miniflare;
  let example: WorkerBundle;
  let shop: WorkerBundle;
  let broken: WorkerBundle;
  let date: string;
  const logs = logCollector();

  beforeAll(async () => {
    const seed = JSON.parse(
      readFileSync(new URL('../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
    );
    sandbox = await serveNode(createSandbox(seed).app, { port: 0 });
    date = await compatibilityDate();
    // One after the other: each build is a wrangler process, and the machine running the tests is shared.
    example = await buildWorker();
    shop = await buildWorker(workerConfig(sandbox.url));
    broken = await buildWorker(brokenConfig(sandbox.url));
    mf = new Miniflare({
      modules: true,
      script: shop.code,
      compatibilityDate: date,
      d1Databases: { DB: 'punchgate-worker-test' },
      bindings: SECRETS,
      handleRuntimeStdio: logs.handleRuntimeStdio,
    });
    await mf.ready;
  }, 300_000);

  afterAll(async () => {
    await mf?.dispose();
    await sandbox?.close();
  });

  const browser = {
    browse: followRedirects(async (url, init) => {
      if (url.startsWith(GATEWAY_ORIGIN)) {
        return (await mf.dispatchFetch(url, {
          ...(init as object),
          redirect: 'manual',
        })) as unknown as Response;
      }
      if (url.startsWith(sandbox.url)) return fetch(url, { ...init, redirect: 'manual' });
      // The buyer's return URL is not ours to call; the test reads the form instead.
      return new Response('');
    }),
  };

  async function runCron(target: Miniflare, scheduledTime = new Date()): Promise<string> {
    // Miniflare's Fetcher type lacks `scheduled`, which its worker proxy has.
    const worker = (await target.getWorker()) as unknown as {
      scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>;
    };
    return (await worker.scheduled({ cron: '* * * * *', scheduledTime })).outcome;
  }

  /** A sample without labels from the Worker's /metrics, or undefined when the series is absent. */
  async function metric(name: string): Promise<number | undefined> {
    const { text } = await browser.browse(`${GATEWAY_ORIGIN}/metrics`);
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.slice(name.length + 1));
  }

  const LAST_ROUND = 'punchgate_background_round_last_completed_timestamp_seconds';
  const ROUND_OVERDUE = 'punchgate_background_round_overdue';

  async function postSetup(options: Parameters<typeof setupRequest>[0] = {}): Promise<string> {
    const setup = await browser.browse(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body: setupRequest(options),
      headers: { 'Content-Type': 'text/xml' },
    });
    expect(setup.status).toBe(200);
    expect(statusOf(setup.text)).toEqual({ code: 200, text: 'OK', detail: '' });
    return startUrlOf(setup.text);
  }

  // The budget was 250 KB until the refusals log, notes and exports, buyers' status updates, notifications,
  // charges and compliant invoices took the bundle from 209 to 264 KB in one round, and the catalog export,
  // reorders and the buyer pages' six message catalogs to 287.1. It is 250 KB again since jose and lru-cache
  // left the Worker and wrangler stopped keeping function names (249.5 KiB), 243.9 since is-unsafe's rules
  // are aliased away (docs/performance.md lists what the bundle holds). The Free plan allows 3 MB.
  it('builds with the example config the repository ships, minified, within 250 KB gzip as wrangler measures it', () => {
    expect(example.wranglerGzipKiB).toBeLessThanOrEqual(WORKER_GZIP_BUDGET_KIB);
    // esbuild marks every module with a `// src/…` comment unless it minifies.
    expect(example.code).not.toMatch(/^\/\/ src\//m);
    // wrangler's `keep_names` would wrap every function in a call naming it (about 18 KiB gzip).
    expect(example.code).not.toMatch(/\(\w+,"createGatewayHost"\)/);
    // is-unsafe's rules (17 KiB) are aliased away: the stand-in refuses every entity, none ever reaches it.
    expect(example.code).not.toContain('html-script-open');
    expect(shop.code).not.toContain('html-script-open');
    expect(example.code).toContain('Example Print Shop');
    // The bundled shop config is more than a Worker variable or secret could hold (5 KB).
    expect(JSON.stringify(workerConfig(sandbox.url)).length).toBeGreaterThan(25_000);
    expect(shop.wranglerGzipKiB).toBeLessThanOrEqual(SHOP_WORKER_GZIP_BUDGET_KIB);
  });

  it('answers readiness with D1 behind it', async () => {
    const ready = await browser.browse(`${GATEWAY_ORIGIN}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'ready' });
  });

  it('serves the 50th buyer, with its secret from the environment, a catalog of 100 products', async () => {
    const config = workerConfig(sandbox.url);
    expect(config.buyers).toHaveLength(BUYERS);
    expect(config.storefronts.flatMap((s) => s.products)).toHaveLength(PRODUCTS);
    const last = config.buyers.at(-1) as { from: { identity: string }[]; sharedSecret: { env: string } };
    const identity = last.from[0]?.identity as string;
    const catalog = await browser.browse(
      await postSetup({ identity, secret: SECRETS[last.sharedSecret.env] as string }),
    );
    expect(catalog.status).toBe(200);
    // 48 products a page: the storefront's last product is on its last page.
    const shown = config.storefronts[0]?.products ?? [];
    expect(catalog.text).toContain(`products 1 to 48 of ${shown.length}`);
    const lastPage = await browser.browse(`${catalog.url}?page=${Math.ceil(shown.length / 48)}`);
    expect(lastPage.text).toContain(shown.at(-1)?.name);
    const wrongSecret = await browser.browse(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body: setupRequest({ identity, secret: 'buyer-1-shared-secret' }),
      headers: { 'Content-Type': 'text/xml' },
    });
    expect(statusOf(wrongSecret.text).code).toBe(401);
  });

  it('setup → catalog → sandbox editor → cart → PunchOutOrderMessage → OrderRequest → one print order', async () => {
    const catalog = await browser.browse(await postSetup());
    expect(catalog.status).toBe(200);
    expect(catalog.text).toContain('A5 flyer');
    const cart = await designProduct(browser, catalog, 'A5 flyer', { Headline: 'Open day' });
    expect(cart.status).toBe(200);
    expect(cart.text).toContain('A5 flyer');
    const poom = cxmlFromForm(
      returnFormOf(await clickButton(browser, cart, 'Transfer cart to procurement system')),
    );
    expect(poom).toContain('<PunchOutOrderMessage>');
    expect(poom).toContain('<BuyerCookie>');
    expect(poom).toContain('<SupplierPartID>FLY-A5</SupplierPartID>');
    // The buyer orders what the cart held; the Cron Trigger's round turns it into one print order.
    const items = parseXml(poom).cXML.Message.PunchOutOrderMessage.ItemIn as {
      ItemID: { SupplierPartID: string; SupplierPartAuxiliaryID: string };
      '@quantity': string;
      ItemDetail: { UnitPrice: { Money: { '#text': string; '@currency': string } }; UnitOfMeasure: string };
    }[];
    const cartLines = items.map((item) => ({
      lineRef: item.ItemID.SupplierPartAuxiliaryID,
      sku: item.ItemID.SupplierPartID,
      quantity: item['@quantity'],
      unitPrice: item.ItemDetail.UnitPrice.Money['#text'],
      currency: item.ItemDetail.UnitPrice.Money['@currency'],
      uom: item.ItemDetail.UnitOfMeasure,
      designId: 0,
    }));
    const po = orderRequest({ orderID: 'PO-WORKER-1', lines: linesOf(cartLines) });
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        browser.browse(`${GATEWAY_ORIGIN}/cxml`, {
          method: 'POST',
          body: po,
          headers: { 'Content-Type': 'text/xml' },
        }),
      ),
    );
    for (const answer of answers) expect(statusOf(answer.text).code).toBe(200);
    // The buyer's order-status host does not resolve here; workerd reports the failed DNS lookup as the
    // run's outcome even though the outbox caught it and will retry. The print order is what counts.
    const roundStartedAt = Math.floor(Date.now() / 1000);
    await runCron(mf);
    const api = createPrintApi({ baseUrl: sandbox.url, token: GATEWAY_TOKEN, key: GATEWAY_KEY });
    expect(await printOrdersFor({ api } as unknown as OrderStack, 'PO-WORKER-1')).toHaveLength(1);
    // What the Worker stored went to D1.
    const db = await mf.getD1Database('DB');
    const lines = await db.prepare("SELECT sku, state FROM cart_lines WHERE sku = 'FLY-A5'").all();
    expect(lines.results.length).toBeGreaterThanOrEqual(1);
    // The round reported its work and stayed within the Free plan's subrequests per invocation.
    await expect.poll(() => logs.lines('background round done').length).toBeGreaterThanOrEqual(1);
    for (const round of logs.lines('background round done')) {
      expect(round.subrequests).toBeLessThanOrEqual(50);
    }
    const round = logs.lines('background round done').at(-1);
    expect(round).toMatchObject({ level: 'info', cron: '* * * * *' });
    expect(round?.jobs).toBeGreaterThanOrEqual(1);
    // The round's heartbeat is in D1, where /readyz and /metrics read it whichever isolate answers them.
    const heartbeat = await db
      .prepare("SELECT at FROM heartbeats WHERE name = 'background-round'")
      .first<{ at: number }>();
    const ready = await browser.browse(`${GATEWAY_ORIGIN}/readyz`);
    expect(ready.status).toBe(200);
    const lastRound = await metric(LAST_ROUND);
    expect(lastRound).toBe(Math.floor((heartbeat?.at ?? 0) / 1000));
    expect(lastRound).toBeGreaterThanOrEqual(roundStartedAt);
    expect(lastRound).toBeLessThanOrEqual(Date.now() / 1000);
    expect(await metric(ROUND_OVERDUE)).toBe(0);
  });

  // A 666 KB document parsed, stored in parts and ordered under workerd: seconds alone, over 20 on a
  // loaded 2-core machine, so it has a budget of its own rather than the default.
  it('takes a 1,000-line PO beyond 512 KiB into D1 in parts, and a Cron round makes it one print order', async () => {
    await postSetup();
    const db = await mf.getD1Database('DB');
    const serial = 7_001;
    await seedWorkerLines(db, lineRefsOf(serial, 1_000));
    const po = workerOrder(serial, 1_000);
    expect(po.length).toBeGreaterThan(512 * 1024);
    const answer = await browser.browse(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body: po,
      headers: { 'Content-Type': 'text/xml' },
    });
    expect(statusOf(answer.text)).toEqual({ code: 200, text: 'OK', detail: '' });
    const stored = await db
      .prepare("SELECT id, LENGTH(raw) AS raw, text_chunks FROM purchase_orders WHERE order_id = 'PO-W7001'")
      .first<{ id: number; raw: number; text_chunks: number }>();
    expect(stored).toMatchObject({ raw: 0, text_chunks: expect.any(Number) });
    expect(stored?.text_chunks).toBeGreaterThanOrEqual(2);
    // One job a round at most (the round's D1 budget); earlier tests may have left one waiting.
    const api = createPrintApi({ baseUrl: sandbox.url, token: GATEWAY_TOKEN, key: GATEWAY_KEY });
    for (let round = 0; round < 3; round++) {
      await runCron(mf);
      if ((await printOrdersFor({ api } as unknown as OrderStack, 'PO-W7001')).length > 0) break;
    }
    expect(await printOrdersFor({ api } as unknown as OrderStack, 'PO-W7001')).toHaveLength(1);
    const order = await db
      .prepare('SELECT state FROM purchase_orders WHERE id = ?')
      .bind(stored?.id)
      .first<{ state: string }>();
    // The sandbox may answer the print order's processing step "unavailable" once for a big order; the
    // job then retries that step after its backoff, on the same print order.
    expect(['processing', 'ordered']).toContain(order?.state);
    for (const round of logs.lines('background round done')) {
      expect(round.subrequests).toBeLessThanOrEqual(50);
      expect(round.d1Statements).toBeLessThanOrEqual(50);
    }
  }, 90_000);

  it('takes a multipart/related PO into D1 with its files in parts, and an operator downloads them', async () => {
    await postSetup();
    const db = await mf.getD1Database('DB');
    const serial = 7_101;
    await seedWorkerLines(db, lineRefsOf(serial, 1));
    const pdf = samplePdf('on workerd');
    // 1.2 MB is 1.6 million base64 characters: two rows of D1.
    const proofs = Uint8Array.from({ length: 1_200_000 }, (_, i) => (i * 7) % 251);
    const body = multipartBody([
      cxmlPart(workerOrder(serial, 1)),
      base64Part(pdf, { contentId: 'art@buyer.example', filename: 'art.pdf' }),
      base64Part(proofs, {
        contentId: 'proofs@buyer.example',
        contentType: 'application/zip',
        filename: 'proofs.zip',
      }),
    ]);
    const answer = await mf.dispatchFetch(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': relatedContentType() },
    });
    expect(statusOf(await answer.text())).toEqual({ code: 200, text: 'OK', detail: '' });
    const stored = await db
      .prepare("SELECT id FROM purchase_orders WHERE order_id = 'PO-W7101'")
      .first<{ id: number }>();
    const rows = await db
      .prepare(
        'SELECT position, COUNT(*) AS n FROM purchase_order_attachment_chunks WHERE po_id = ? GROUP BY position ORDER BY position',
      )
      .bind(String(stored?.id))
      .all();
    expect(rows.results).toEqual([
      { position: 2, n: 1 },
      { position: 3, n: 2 },
    ]);
    const admin = { Authorization: 'Bearer test-admin-token-0123456789abcdef' };
    for (const [position, bytes, type] of [
      [2, pdf, 'application/pdf'],
      [3, proofs, 'application/zip'],
    ] as const) {
      const download = await mf.dispatchFetch(
        `${GATEWAY_ORIGIN}/admin/orders/${stored?.id}/attachments/${position}`,
        {
          headers: admin,
        },
      );
      expect(download.status).toBe(200);
      expect(download.headers.get('Content-Type')).toBe(type);
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    }
  });

  it('fails /readyz while Cron rounds have stopped, and is ready again after the next one', async () => {
    const db = await mf.getD1Database('DB');
    // The clock of workerd cannot be moved: the last round's heartbeat goes an hour back instead.
    const anHourAgo = Date.now() - 3_600_000;
    await db
      .prepare(`INSERT INTO heartbeats (name, at) VALUES ('background-round', ?)
        ON CONFLICT (name) DO UPDATE SET at = excluded.at`)
      .bind(anHourAgo)
      .run();
    const stale = await browser.browse(`${GATEWAY_ORIGIN}/readyz`);
    expect(stale.status).toBe(503);
    expect(stale.headers.get('Retry-After')).toBe('30');
    expect(JSON.parse(stale.text)).toEqual({
      status: 'unavailable',
      reasons: [
        expect.stringMatching(
          /^the last background round completed 36\d\d s ago \(background\.staleAfterSeconds is 300\)$/,
        ),
      ],
    });
    expect(await metric(LAST_ROUND)).toBe(Math.floor(anHourAgo / 1000));
    expect(await metric(ROUND_OVERDUE)).toBe(1);

    const roundStartedAt = Math.floor(Date.now() / 1000);
    await runCron(mf);
    expect((await browser.browse(`${GATEWAY_ORIGIN}/readyz`)).status).toBe(200);
    expect(await metric(LAST_ROUND)).toBeGreaterThanOrEqual(roundStartedAt);
    expect(await metric(ROUND_OVERDUE)).toBe(0);
  });

  it('deletes sessions past their expiry when the Cron Trigger fires', async () => {
    const startUrl = await postSetup();
    const db = await mf.getD1Database('DB');
    const open = await db.prepare('SELECT COUNT(*) AS n FROM sessions').first<{ n: number }>();
    expect(open?.n).toBeGreaterThanOrEqual(1);
    // The clock of workerd cannot be moved: every session's expiry is moved into the past instead.
    await db.prepare('UPDATE sessions SET expires_at = 0').run();
    await runCron(mf);
    const left = await db.prepare('SELECT COUNT(*) AS n FROM sessions').first<{ n: number }>();
    expect(left?.n).toBe(0);
    const page = await browser.browse(startUrl);
    expect(page.status).not.toBe(200);
  });

  it('refuses to serve a broken config with 503 and Retry-After, and logs every problem by path', async () => {
    const brokenLogs = logCollector();
    const { PUNCHGATE_SIGNING_KEY: _missing, ...withoutSigningKey } = SECRETS;
    const refusing = new Miniflare({
      modules: true,
      script: broken.code,
      compatibilityDate: date,
      d1Databases: { DB: 'punchgate-worker-broken' },
      // A secret missing too, a bad LOG_LEVEL, and a leftover of the time the config was a variable.
      bindings: { ...withoutSigningKey, PUNCHGATE_CONFIG: '{}', LOG_LEVEL: 'loud' },
      handleRuntimeStdio: brokenLogs.handleRuntimeStdio,
    });
    try {
      for (const path of ['/healthz', '/cxml']) {
        const res = await refusing.dispatchFetch(`${GATEWAY_ORIGIN}${path}`);
        expect(res.status).toBe(503);
        expect(res.headers.get('Retry-After')).toBe('30');
        expect(await res.text()).toBe(
          'punchgate is not available; the operator has been told why in the Worker logs.\n',
        );
      }
      // The Cron Trigger does no half work either.
      expect(await runCron(refusing)).not.toBe('ok');
      await expect.poll(() => brokenLogs.lines('punchgate cannot start').length).toBeGreaterThanOrEqual(3);
      const [line] = brokenLogs.lines('punchgate cannot start');
      const problems = String(line?.problems).split('; ');
      expect(line?.level).toBe('error');
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^PUNCHGATE_CONFIG: the config is no longer read from a variable/),
          'LOG_LEVEL must be one of debug, info, warn, error (it is "loud")',
          'signingKey: environment variable PUNCHGATE_SIGNING_KEY is not set',
          expect.stringMatching(/^adminToken: /),
          expect.stringMatching(/^buyers\[0\]\.storefront: /),
          'store.binding: the Worker has no D1 binding named "NO_SUCH_DB" (see wrangler.toml)',
        ]),
      );
      expect(line?.problemCount).toBeGreaterThanOrEqual(5);
      // No secret's value is ever logged.
      for (const value of Object.values(SECRETS)) expect(brokenLogs.text()).not.toContain(value);
    } finally {
      await refusing.dispose();
    }
  });
});
