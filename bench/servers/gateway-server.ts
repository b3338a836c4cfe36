/**
 * The gateway as a benchmark server, in a child process of its own: built the way `punchgate serve`
 * builds it (`createNodeGateway`: SQLite store with the session cache in front, pooled undici transports)
 * from the test config pointed at a running sandbox, with a temporary database file.
 *
 * Options (from the parent, see harness/child-server.ts):
 * - `sandboxUrl`: the print service the storefront talks to;
 * - `reuseSeconds`: `sessions.pipoTokenReuseSeconds` (0 = every punch-in logs in);
 * - `orderLines`: when set, that many cart lines of the returning user are seeded through the store API,
 *   as the PO-intake case's OrderRequests name them (`L-00000001`…).
 *
 * The returning user is made once here, with one real punch-in, so measured setups find the mapping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeGateway } from '../../src/runtime/gateway-node.ts';
import { serveNode } from '../../src/runtime/node.ts';
import { setupRequest } from '../../test/support/cxml-documents.ts';
import { resolveTestConfig, testConfig } from '../../test/support/stack.ts';
import { childServerOptions } from '../harness/child-server.ts';

export interface GatewayServerOptions {
  readonly sandboxUrl: string;
  readonly reuseSeconds: number;
  readonly orderLines?: number;
}

export interface GatewayServerReady {
  readonly url: string;
  /** The seeded cart lines, when `orderLines` was asked for. */
  readonly lineRefs: readonly string[];
}

/** The returning user of the benchmark: setupRequest()'s UniqueName, which is the buyer user's key. */
const RETURNING_USER_KEY = 'jroe';

const options = childServerOptions<GatewayServerOptions>();
if (options.sandboxUrl === undefined) {
  console.error('gateway-server: no sandboxUrl in BENCH_SERVER_OPTIONS');
  process.exit(2);
}
const { sandboxUrl } = options;

const dataDir = mkdtempSync(join(tmpdir(), 'punchgate-bench-'));
const base = testConfig();
const config = resolveTestConfig({
  ...base,
  store: { kind: 'sqlite', path: join(dataDir, 'gateway.db') },
  sessions: { pipoTokenReuseSeconds: options.reuseSeconds ?? 600 },
  storefronts: (base.storefronts ?? []).map((storefront) => ({
    ...storefront,
    apiBaseUrl: sandboxUrl,
    editorUrl: `${sandboxUrl}/editor`,
  })),
});

// Logging is I/O the measurement should not include (a terminal is slower than any log shipper).
const silent = { info() {}, warn() {}, error() {} };
const node = await createNodeGateway(config, { logger: silent });

const first = await node.gateway.app.fetch(
  new Request(`${config.publicUrl}/cxml`, { method: 'POST', body: setupRequest() }),
);
const firstAnswer = await first.text();
if (!firstAnswer.includes('<Status code="200"')) {
  console.error(`gateway-server: the first punch-in failed:\n${firstAnswer}`);
  process.exit(2);
}

const lineRefs: string[] = [];
if (options.orderLines !== undefined && options.orderLines > 0) {
  const session = await node.store.sessions.create({
    id: 'bench-order-session',
    buyerId: 'acme',
    storefrontId: 'demo',
    protocol: 'cxml',
    operation: 'create',
    returnUrl: 'https://buyer.example/punchout/return',
    buyerUserKey: RETURNING_USER_KEY,
    pipoUserRef: RETURNING_USER_KEY,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  // The SKUs test/cxml/large-order-request.ts writes into its ItemOut lines; its references, widened to
  // the gateway's 8-character form (`L-00000001`).
  const skus = ['BC-STD', 'FLY-A5', 'POS-CUSTOM'];
  const products = config.storefronts[0]?.products ?? [];
  for (let i = 1; i <= options.orderLines; i++) {
    const product = products.find((p) => p.sku === skus[i % 3]);
    if (product === undefined) throw new Error(`gateway-server: the test config has no ${skus[i % 3]}`);
    const line = await node.store.cart.add({
      lineRef: `L-${String(i).padStart(8, '0')}`,
      sessionId: session.id,
      buyerId: 'acme',
      storefrontId: 'demo',
      userRef: RETURNING_USER_KEY,
      designId: i,
      productId: product.productId,
      sku: product.sku,
      name: product.name,
      quantity: 100,
      unitPrice: '0.12',
      currency: 'USD',
      uom: product.uom,
    });
    lineRefs.push(line.lineRef);
  }
}

const server = await serveNode(node.gateway.app, { port: 0 });
const ready: GatewayServerReady = { url: server.url, lineRefs };
process.send?.(ready);
process.once('disconnect', () => {
  void server
    .close()
    .then(() => node.close())
    .finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
});
