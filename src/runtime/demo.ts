/**
 * `npm start`: the whole story in one process on one port — the sandbox print service under /sandbox,
 * the buyer simulator under /buyer and the gateway at the root — from `fixtures/demo.config.json` and
 * `fixtures/sandbox-seed.json`, with the data in `.punchgate/`. The demo config is written for
 * http://127.0.0.1:8080; another port is substituted throughout.
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { createPrintApi } from '../print-api/index.ts';
import { createNodeGateway } from './gateway-node.ts';
import { loadConfig } from './host.ts';
import { createNodeLogger } from './logging.ts';
import { type RunningServer, serveNode } from './node.ts';
import { loadSandboxPackage } from './sandbox-package.ts';

const DEMO_CONFIG = new URL('../../fixtures/demo.config.json', import.meta.url);
const DEMO_SEED = new URL('../../fixtures/sandbox-seed.json', import.meta.url);
const WRITTEN_FOR = '127.0.0.1:8080';

export interface RunningDemo {
  server: RunningServer;
  urls: { buyer: string; gateway: string; sandbox: string; admin: string };
  close(): Promise<void>;
}

export interface DemoOptions {
  /** 0 picks a free port; the demo's URLs follow the port it got. */
  port: number;
  host?: string;
  /** Where browsers reach the demo when that is not the bound address (default the server's own URL). */
  publicUrl?: string;
  /** No request or worker logs (tests). */
  quiet?: boolean;
  /**
   * The SQLite file for the gateway's data instead of the config's `.punchgate/demo.db` (tests use a temp
   * folder). Either is emptied at start.
   */
  storePath?: string;
}

/**
 * @example
 * const demo = await startDemo({ port: 0, quiet: true, storePath: join(tmp, 'demo.db') });
 * console.log(demo.urls.buyer); // http://127.0.0.1:40123/buyer
 * await demo.close();
 */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { createBuyerSimulator, createSandbox, readSeedFile } = await loadSandboxPackage();
  const host = options.host ?? '127.0.0.1';
  // The public URLs are in the config, so the port must be known before anything is built; until the
  // parts are ready, requests get 503.
  let root: Hono | undefined;
  const server = await serveNode(
    { fetch: (request, env) => root?.fetch(request, env) ?? new Response('starting', { status: 503 }) },
    { port: options.port, hostname: host },
  );
  const base = options.publicUrl?.replace(/\/+$/, '') ?? server.url;
  const authority = new URL(base).host;

  const configText = (await readFile(DEMO_CONFIG, 'utf8')).replaceAll(WRITTEN_FOR, authority);
  const resolved = loadConfig(JSON.parse(configText), {});
  if (!resolved.ok)
    throw new Error(`demo config: ${resolved.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  const storePath =
    options.storePath ?? (resolved.config.store.kind === 'sqlite' ? resolved.config.store.path : undefined);
  if (storePath === undefined) throw new Error('the demo config must use a sqlite store');
  const config = { ...resolved.config, store: { kind: 'sqlite' as const, path: storePath } };
  // The sandbox starts from its seed on every run, so the gateway's demo data starts afresh too: kept,
  // its POs would name print order ids the new sandbox hands to other orders.
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${storePath}${suffix}`, { force: true });

  const seed = await readSeedFile(DEMO_SEED);
  if (!seed.ok)
    throw new Error(`sandbox seed: ${seed.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);

  const quiet = { info() {}, warn() {}, error() {} };
  const sandbox = createSandbox(seed.seed, {
    logger: options.quiet ? quiet : createNodeLogger('sandbox'),
    mergeDelayMs: 3000,
  });
  const node = await createNodeGateway(config, {
    logger: options.quiet ? quiet : createNodeLogger('gateway'),
  });

  const storefront = config.storefronts[0];
  if (storefront === undefined) throw new Error('demo config has no storefront');
  const operator = createPrintApi({
    baseUrl: storefront.apiBaseUrl,
    token: storefront.apiToken,
    key: storefront.apiKey,
  });
  let tracking = 0;
  const simulator = createBuyerSimulator({
    gatewayUrl: base,
    publicUrl: `${base}/buyer`,
    // What a print shop's staff would do: finish the files, then ship with a tracking number.
    async advanceOrder(printOrderIds) {
      sandbox.control.finishMerges();
      for (const id of printOrderIds) {
        tracking += 1;
        await operator.markShipped(Number(id), {
          trackingNumber: `1Z999AA1${String(tracking).padStart(8, '0')}`,
        });
      }
      await sandbox.control.idle();
      await node.gateway.context.store.ping();
    },
  });

  // Not strict: /buyer/ and /buyer are one page, as people type them (the sandbox and the simulator
  // are lenient on their own too, but mounted here the root's router decides).
  const app = new Hono({ strict: false });
  app.get('/', (c) => c.redirect('/buyer', 302));
  app.route('/sandbox', sandbox.app);
  app.route('/buyer', simulator.app);
  app.all('*', (c) => node.gateway.app.fetch(c.req.raw, c.env));
  root = app;

  node.startBackground({ tickMs: 1000 });

  return {
    server,
    urls: {
      buyer: `${base}/buyer`,
      gateway: `${base}/cxml`,
      sandbox: `${base}/sandbox/api/v2`,
      admin: `${base}/admin`,
    },
    async close() {
      await server.close();
      await node.close();
    },
  };
}
