/**
 * The gateway on Node: the config file read and checked, secrets taken from process.env, the SQLite
 * store (with the session cache in front), pooled undici transports to the print service, and the
 * server. `punchgate serve` and the demo start the gateway through here.
 */
import { readFile } from 'node:fs/promises';
import {
  type ConfigProblem,
  parseGatewayConfig,
  type ResolvedConfig,
  resolveConfigSecrets,
} from '../../schemas/config.ts';
import type { GatewayDeps, Logger } from '../gateway/deps.ts';
import { createPunchgate, type Gateway } from '../gateway/index.ts';
import { createOrderWorker } from '../gateway/orders/index.ts';
import { createPrintApi, type PrintApi } from '../print-api/index.ts';
import { createNodeFetch, type NodeFetch } from '../print-api/node-fetch.ts';
import { withSessionCache } from '../store/cached.ts';
import { systemClock } from '../store/clock.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { Store } from '../store/port.ts';
import { createPostgresStore } from '../store/postgres.ts';
import { createSqliteStore } from '../store/sqlite.ts';

export type ConfigFileResult =
  | { ok: true; config: ResolvedConfig }
  | { ok: false; problems: ConfigProblem[] };

/**
 * Reads, validates and resolves a config file: every problem is listed by path (`buyers[1].sharedSecret`),
 * including environment variables that are referenced but not set.
 */
export async function readConfigFile(
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ConfigFileResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : 'cannot be read';
    return { ok: false, problems: [{ path: '(file)', message: `${path}: ${reason}` }] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [{ path: '(file)', message: `${path} is not valid JSON: ${(error as Error).message}` }],
    };
  }
  const parsed = parseGatewayConfig(json);
  if (!parsed.ok) return parsed;
  return resolveConfigSecrets(parsed.config, env);
}

/**
 * Sessions kept in memory in front of SQLite. The cache only saves reads of hot sessions (a punch-out's
 * pages are minutes apart), so it need not hold every live session: 10,000 cover the busy ones while
 * 100,000 live sessions stay well within the memory budget of the benchmark.
 */
const SESSION_CACHE_SIZE = 10_000;

/** The store a config names, as the gateway on Node opens it. */
export async function openStore(store: ResolvedConfig['store']): Promise<Store> {
  switch (store.kind) {
    case 'sqlite':
      return withSessionCache(createSqliteStore({ path: store.path }), {
        max: SESSION_CACHE_SIZE,
        ttlMs: 60_000,
      });
    case 'memory':
      return createMemoryStore();
    case 'postgres':
      // Several instances share it, so the session cache would serve stale sessions: none in front.
      return createPostgresStore({ url: store.url });
    case 'd1':
      throw new Error(
        'store.kind "d1" is a Cloudflare D1 binding: it works only on Workers (src/runtime/worker.ts)',
      );
  }
}

export interface NodeGateway {
  gateway: Gateway;
  store: Store;
  /**
   * Starts the background work once the server listens: registers the print service webhooks, then runs
   * the order worker (PO jobs, buyer outbox, reconciliation) every `tickMs` and deletes expired sessions.
   */
  startBackground(options?: { tickMs?: number }): Promise<void>;
  close(): Promise<void>;
}

/** Builds the gateway with Node's dependencies (the caller serves `gateway.app`). */
export async function createNodeGateway(
  config: ResolvedConfig,
  options: { logger: Logger; store?: Store; fetch?: typeof fetch },
): Promise<NodeGateway> {
  const store = options.store ?? (await openStore(config.store));
  const transports = new Map<string, NodeFetch>();
  const clients = new Map<string, PrintApi>();
  const deps: GatewayDeps = {
    config,
    store,
    clock: systemClock,
    logger: options.logger,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    printApiFor(storefront) {
      let client = clients.get(storefront.id);
      if (client === undefined) {
        const transport = createNodeFetch();
        transports.set(storefront.id, transport);
        client = createPrintApi({
          baseUrl: storefront.apiBaseUrl,
          token: storefront.apiToken,
          key: storefront.apiKey,
          fetch: transport,
        });
        clients.set(storefront.id, client);
      }
      return client;
    },
  };
  const gateway = await createPunchgate(deps);
  const worker = createOrderWorker(gateway.context);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  return {
    gateway,
    store,
    async startBackground({ tickMs = 2000 } = {}) {
      try {
        await worker.startup();
      } catch (error) {
        // The print service may be down at start; reconciliation still finds the orders' progress later.
        options.logger.warn('webhook registration failed; relying on reconciliation', {
          error: error instanceof Error ? error.message : 'unknown',
        });
      }
      const round = async () => {
        try {
          await worker.tick();
          await store.sessions.expire(systemClock.now());
        } catch (error) {
          options.logger.error('background round failed', {
            error: error instanceof Error ? error.name : 'unknown',
          });
        }
      };
      timer = setInterval(() => {
        running = round();
      }, tickMs);
      timer.unref();
      running = round();
    },
    async close() {
      if (timer !== undefined) clearInterval(timer);
      await running;
      await Promise.all([...transports.values()].map((t) => t.close()));
      await store.close();
    },
  };
}
