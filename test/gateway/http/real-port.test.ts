import { readFileSync } from 'node:fs';
import { createSandbox } from '@punchgate/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeGateway, type NodeGateway } from '../../../src/runtime/gateway-node.ts';
import { type RunningServer, serveNode } from '../../../src/runtime/node.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
} from '../../support/punchout-flow.ts';
import { followRedirects, resolveTestConfig, testConfig } from '../../support/stack.ts';

// The same round trip as the in-process tests, over real sockets: sandbox and gateway each on a port,
// the gateway's print-service client on its pooled undici transport.
describe('gateway over real ports', () => {
  let sandbox: RunningServer;
  let gatewayServer: RunningServer;
  let node: NodeGateway;

  beforeAll(async () => {
    const seed = JSON.parse(
      readFileSync(new URL('../../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
    );
    sandbox = await serveNode(createSandbox(seed).app, { port: 0 });
    // The gateway's public URL must be known before it listens: reserve a port first.
    const probe = await serveNode({ fetch: () => new Response() }, { port: 0 });
    const port = probe.port;
    await probe.close();
    const base = testConfig();
    const config = resolveTestConfig({
      ...base,
      publicUrl: `http://127.0.0.1:${port}`,
      storefronts: base.storefronts.map((s) => ({
        ...s,
        apiBaseUrl: sandbox.url,
        editorUrl: `${sandbox.url}/editor`,
      })),
    });
    node = await createNodeGateway(config, {
      logger: { info() {}, warn() {}, error() {} },
    });
    gatewayServer = await serveNode(node.gateway.app, { port });
  });

  afterAll(async () => {
    await gatewayServer?.close();
    await node?.close();
    await sandbox?.close();
  });

  const browser = {
    browse: followRedirects(async (url, init) =>
      // The buyer's return URL is not ours to call; the test reads the form instead.
      url.startsWith('http://127.0.0.1') ? fetch(url, { ...init, redirect: 'manual' }) : new Response(''),
    ),
  };

  it('setup → catalog → sandbox editor → cart → PunchOutOrderMessage', async () => {
    const answer = await (
      await fetch(`${gatewayServer.url}/cxml`, {
        method: 'POST',
        body: setupRequest(),
        headers: { 'Content-Type': 'text/xml' },
      })
    ).text();
    expect(statusOf(answer).code).toBe(200);
    const catalog = await browser.browse(startUrlOf(answer));
    expect(catalog.status).toBe(200);
    const cart = await designProduct(browser, catalog, 'A5 flyer', { Headline: 'Open day' });
    expect(cart.text).toContain('A5 flyer');
    const poom = cxmlFromForm(
      returnFormOf(await clickButton(browser, cart, 'Transfer cart to procurement system')),
    );
    expect(poom).toContain('<SupplierPartID>FLY-A5</SupplierPartID>');
    expect((await fetch(`${gatewayServer.url}/readyz`)).status).toBe(200);
  });
});
