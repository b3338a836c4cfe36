/**
 * The gateway as a benchmark server, in a child process of its own: built the way `punchgate serve`
 * builds it (`createNodeGateway`: SQLite store, pooled undici transports, `createNodeLogger('gateway')` on
 * stderr, which bench-servers.ts points at a file; the background jobs are not started, so no order job
 * runs beside the measured requests)
 * from the test config pointed at a running sandbox, with a temporary database file.
 *
 * Options (from the parent, see harness/child-server.ts):
 * - `sandboxUrl`: the print service the storefront talks to;
 * - `reuseSeconds`: `sessions.pipoTokenReuseSeconds` (0 = every punch-in logs in);
 * - `orderLines`: when set, that many cart lines of the returning user are seeded through the store API,
 *   as the PO-intake case's OrderRequests name them (`L-00000001`…);
 * - `postgres`: when set, the store is that PostgreSQL schema instead of a SQLite file (several gateway
 *   servers may share one: the first seeds it, the others pass `orderLines` 0 and find the lines there).
 *
 * The returning user is made once here, with one real punch-in, so measured setups find the mapping.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeGateway } from '../../src/runtime/gateway-node.ts';
import { createNodeLogger } from '../../src/runtime/logging.ts';
import { serveNode } from '../../src/runtime/node.ts';
import { createPostgresStore } from '../../src/store/postgres.ts';
import { setupRequest } from '../../test/support/cxml-documents.ts';
import { seedOrderLines } from '../../test/support/order-lines.ts';
import { benchGatewayConfig } from '../harness/bench-gateway.ts';
import { childServerOptions } from '../harness/child-server.ts';

export interface GatewayServerOptions {
  readonly sandboxUrl: string;
  readonly reuseSeconds: number;
  readonly orderLines?: number;
  readonly postgres?: { readonly url: string; readonly schema: string };
}

export interface GatewayServerReady {
  readonly url: string;
  /** The seeded cart lines, when `orderLines` was asked for. */
  readonly lineRefs: readonly string[];
}

const options = childServerOptions<GatewayServerOptions>();
if (options.sandboxUrl === undefined) {
  console.error('gateway-server: no sandboxUrl in BENCH_SERVER_OPTIONS');
  process.exit(2);
}
const { sandboxUrl } = options;

const dataDir = mkdtempSync(join(tmpdir(), 'punchgate-bench-'));
const config = benchGatewayConfig({
  sandboxUrl,
  reuseSeconds: options.reuseSeconds ?? 600,
  databasePath: join(dataDir, 'gateway.db'),
});
// Logging as `punchgate serve` sets it up (src/cli.ts): its lines are part of what a request costs.
const store =
  options.postgres === undefined
    ? undefined
    : await createPostgresStore({ url: options.postgres.url, schema: options.postgres.schema });
const node = await createNodeGateway(config, {
  logger: createNodeLogger('gateway'),
  ...(store !== undefined && { store }),
});

const first = await node.gateway.app.fetch(
  new Request(`${config.publicUrl}/cxml`, { method: 'POST', body: setupRequest() }),
);
const firstAnswer = await first.text();
if (!firstAnswer.includes('<Status code="200"')) {
  console.error(`gateway-server: the first punch-in failed:\n${firstAnswer}`);
  process.exit(2);
}

// The lines test/cxml/large-order-request.ts's OrderRequest names, as the returning user's.
const lineRefs =
  options.orderLines !== undefined && options.orderLines > 0
    ? await seedOrderLines(node.store, config.storefronts[0]?.products ?? [], {
        sessionId: 'bench-order-session',
        lines: options.orderLines,
        expiresAt: new Date(Date.now() + 86_400_000),
      })
    : [];

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
