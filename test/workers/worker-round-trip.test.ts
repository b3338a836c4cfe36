/**
 * The Worker build under workerd (Miniflare): the bundle a deploy uploads, a D1 database, secrets from the
 * Worker environment, and the print service reached with the runtime's own fetch — the sandbox on a Node
 * port. The buyer's browser talks to the Worker through Miniflare's dispatchFetch.
 */
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrintApi } from '../../src/print-api/index.ts';
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { createSandbox } from '../../src/sandbox/print/index.ts';
import {
  linesOf,
  type OrderStack,
  orderConfig,
  orderRequest,
  parseXml,
  printOrdersFor,
} from '../orders/order-flow.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../support/punchout-flow.ts';
import { followRedirects, GATEWAY_KEY, GATEWAY_ORIGIN, GATEWAY_TOKEN } from '../support/stack.ts';
import { bundleWorker } from './bundle-worker.ts';

const SECRETS = {
  DEMO_API_KEY: GATEWAY_KEY,
  PUNCHGATE_SIGNING_KEY: 'worker-signing-key-0123456789abcdef',
};

function workerConfig(sandboxUrl: string) {
  const base = orderConfig();
  return {
    ...base,
    store: { kind: 'd1', binding: 'DB' },
    signingKey: { env: 'PUNCHGATE_SIGNING_KEY' },
    storefronts: base.storefronts.map((s) => ({
      ...s,
      apiBaseUrl: sandboxUrl,
      editorUrl: `${sandboxUrl}/editor`,
      apiKey: { env: 'DEMO_API_KEY' },
    })),
  };
}

describe('the gateway as a Cloudflare Worker under workerd', () => {
  let sandbox: RunningServer;
  let mf: Miniflare;
  let script: string;

  beforeAll(async () => {
    const seed = JSON.parse(
      readFileSync(new URL('../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
    );
    sandbox = await serveNode(createSandbox(seed).app, { port: 0 });
    script = (await bundleWorker()).code;
    mf = new Miniflare({
      modules: true,
      script,
      compatibilityDate: '2026-07-01',
      d1Databases: { DB: 'punchgate-worker-test' },
      bindings: { PUNCHGATE_CONFIG: JSON.stringify(workerConfig(sandbox.url)), ...SECRETS },
      // The Worker's JSON log lines are not this test's output.
      handleRuntimeStdio(stdout: Readable, stderr: Readable) {
        stdout.resume();
        stderr.resume();
      },
    });
    await mf.ready;
  });

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

  async function runCron(scheduledTime: Date): Promise<string> {
    // Miniflare's Fetcher type lacks `scheduled`, which its worker proxy has.
    const worker = (await mf.getWorker()) as unknown as {
      scheduled(options: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }>;
    };
    return (await worker.scheduled({ cron: '* * * * *', scheduledTime })).outcome;
  }

  async function postSetup(): Promise<string> {
    const setup = await browser.browse(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body: setupRequest(),
      headers: { 'Content-Type': 'text/xml' },
    });
    expect(setup.status).toBe(200);
    expect(statusOf(setup.text)).toEqual({ code: 200, text: 'OK', detail: '' });
    return startUrlOf(setup.text);
  }

  it('answers readiness with D1 behind it', async () => {
    const ready = await browser.browse(`${GATEWAY_ORIGIN}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready' });
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
    await runCron(new Date());
    const api = createPrintApi({ baseUrl: sandbox.url, token: GATEWAY_TOKEN, key: GATEWAY_KEY });
    expect(await printOrdersFor({ api } as unknown as OrderStack, 'PO-WORKER-1')).toHaveLength(1);
    // What the Worker stored went to D1.
    const db = await mf.getD1Database('DB');
    const lines = await db.prepare("SELECT sku, state FROM cart_lines WHERE sku = 'FLY-A5'").all();
    expect(lines.results.length).toBeGreaterThanOrEqual(1);
  });

  it('deletes expired sessions when the Cron Trigger fires', async () => {
    const startUrl = await postSetup();
    const db = await mf.getD1Database('DB');
    const open = await db.prepare('SELECT COUNT(*) AS n FROM sessions').first<{ n: number }>();
    expect(open?.n).toBeGreaterThanOrEqual(1);
    // A run a week from now: every session of this test is past its expiry by then.
    expect(await runCron(new Date(Date.now() + 7 * 86_400_000))).toBe('ok');
    const left = await db.prepare('SELECT COUNT(*) AS n FROM sessions').first<{ n: number }>();
    expect(left?.n).toBe(0);
    const page = await browser.browse(startUrl);
    expect(page.status).not.toBe(200);
  });

  it('answers 503 and logs the problems by path when a secret is missing', async () => {
    let log = '';
    const broken = new Miniflare({
      modules: true,
      script,
      compatibilityDate: '2026-07-01',
      d1Databases: { DB: 'punchgate-worker-broken' },
      bindings: { PUNCHGATE_CONFIG: JSON.stringify(workerConfig(sandbox.url)), DEMO_API_KEY: GATEWAY_KEY },
      handleRuntimeStdio(stdout: Readable, stderr: Readable) {
        stdout.resume();
        stderr.on('data', (chunk: Buffer) => {
          log += chunk.toString('utf8');
        });
      },
    });
    try {
      const res = await broken.dispatchFetch(`${GATEWAY_ORIGIN}/healthz`);
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('30');
      expect(await res.text()).toBe(
        'punchgate is not available; the operator has been told why in the Worker logs.\n',
      );
      await expect
        .poll(() => log)
        .toContain('"problems":"signingKey: environment variable PUNCHGATE_SIGNING_KEY is not set"');
    } finally {
      await broken.dispose();
    }
  });
});
