/**
 * The gateway on Cloudflare Workers: the config JSON from the `PUNCHGATE_CONFIG` variable, its secrets from
 * the Worker environment (`wrangler secret put`), the D1 store from the binding the config names, and the
 * global `fetch` for the print service and the buyers. A Cron Trigger (`scheduled`) does the housekeeping
 * that no request does.
 *
 * One gateway is built per isolate and environment and reused by its requests; a build that fails (a bad
 * config, D1 not answering) is not cached, so the next request tries again.
 */
import { parseGatewayConfig, type ResolvedConfig, resolveConfigSecrets } from '../../schemas/config.ts';
import type { Logger } from '../gateway/deps.ts';
import { createPunchgate, type Gateway } from '../gateway/index.ts';
import { createOrderWorker, type OrderWorker, type TickResult } from '../gateway/orders/index.ts';
import { createPrintApi, type PrintApi } from '../print-api/index.ts';
import { systemClock } from '../store/clock.ts';
import { createD1Store, isD1Database } from '../store/d1.ts';
import type { Store } from '../store/port.ts';

/** The Worker's bindings: `PUNCHGATE_CONFIG`, the D1 database, and the secrets the config refers to. */
export type WorkerEnv = Record<string, unknown>;

/** The parts of the Workers runtime's `ExecutionContext` and `ScheduledController` used here. */
export interface WorkerExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
export interface WorkerScheduledController {
  readonly scheduledTime: number;
  readonly cron: string;
}

export interface WorkerGateway {
  gateway: Gateway;
  store: Store;
  orders: OrderWorker;
  /** The order worker's start-up (webhook registration), run once per isolate before its first tick. */
  started?: Promise<unknown> | undefined;
}

/** Why the Worker cannot start; listed by config path, never with a secret's value. */
export class WorkerConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`punchgate cannot start: ${problems.join('; ')}`);
    this.name = 'WorkerConfigError';
    this.problems = problems;
  }
}

const CONFIG_VARIABLE = 'PUNCHGATE_CONFIG';

/** Console lines as JSON: Workers Logs and `wrangler tail` index their fields. */
const workerLogger: Logger = {
  info: (message, fields) => console.log(JSON.stringify({ level: 'info', message, ...fields })),
  warn: (message, fields) => console.warn(JSON.stringify({ level: 'warn', message, ...fields })),
  error: (message, fields) => console.error(JSON.stringify({ level: 'error', message, ...fields })),
};

/** Reads the config from the environment and resolves its secrets there. */
export function readWorkerConfig(env: WorkerEnv): ResolvedConfig {
  const text = env[CONFIG_VARIABLE];
  if (typeof text !== 'string' || text.trim() === '') {
    throw new WorkerConfigError([`${CONFIG_VARIABLE}: is not set (the gateway config as JSON text)`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new WorkerConfigError([`${CONFIG_VARIABLE}: is not valid JSON: ${(error as Error).message}`]);
  }
  const parsed = parseGatewayConfig(json);
  if (!parsed.ok) throw new WorkerConfigError(parsed.problems.map((p) => `${p.path}: ${p.message}`));
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') strings[name] = value;
  const resolved = resolveConfigSecrets(parsed.config, strings);
  if (!resolved.ok) throw new WorkerConfigError(resolved.problems.map((p) => `${p.path}: ${p.message}`));
  return resolved.config;
}

/**
 * Builds the gateway for a Worker environment (what `fetch` and `scheduled` use, once per isolate).
 *
 * @example
 * ```ts
 * const { gateway } = await createWorkerGateway(env);
 * return gateway.app.fetch(request);
 * ```
 */
export async function createWorkerGateway(env: WorkerEnv): Promise<WorkerGateway> {
  const config = readWorkerConfig(env);
  if (config.store.kind !== 'd1') {
    throw new WorkerConfigError([`store.kind: must be "d1" on Workers, not "${config.store.kind}"`]);
  }
  const database = env[config.store.binding];
  if (!isD1Database(database)) {
    throw new WorkerConfigError([
      `store.binding: the Worker has no D1 binding named "${config.store.binding}" (see wrangler.toml)`,
    ]);
  }
  const store = await createD1Store({ database, clock: systemClock });
  const clients = new Map<string, PrintApi>();
  const gateway = await createPunchgate({
    config,
    store,
    clock: systemClock,
    logger: workerLogger,
    // Cloudflare puts the visitor's address in this header; the throttle counts failures per address.
    clientAddress: (c) => c.req.header('CF-Connecting-IP'),
    // Through an arrow: the runtime's fetch refuses to be called with another `this`.
    fetch: (input, init) => fetch(input, init),
    printApiFor(storefront) {
      let client = clients.get(storefront.id);
      if (client === undefined) {
        client = createPrintApi({
          baseUrl: storefront.apiBaseUrl,
          token: storefront.apiToken,
          key: storefront.apiKey,
        });
        clients.set(storefront.id, client);
      }
      return client;
    },
  });
  return { gateway, store, orders: createOrderWorker(gateway.context) };
}

const built = new WeakMap<object, Promise<WorkerGateway>>();

function gatewayFor(env: WorkerEnv): Promise<WorkerGateway> {
  let pending = built.get(env);
  if (pending === undefined) {
    pending = createWorkerGateway(env);
    built.set(env, pending);
    pending.catch(() => built.delete(env));
  }
  return pending;
}

function startFailure(error: unknown): Response {
  if (error instanceof WorkerConfigError) {
    workerLogger.error('punchgate cannot start', { problems: error.problems.join('; ') });
  } else {
    workerLogger.error('punchgate cannot start', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return new Response('punchgate is not available; the operator has been told why in the Worker logs.\n', {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '30' },
  });
}

/**
 * The scheduled work of one Cron Trigger run: the order worker's round (webhook deliveries, purchase order
 * jobs, the reconciliation poll, documents to buyers), and sessions past their expiry deleted (cart lines
 * stay for the purchase order that may still come).
 */
export async function runScheduledWork(
  target: WorkerGateway,
  now: Date,
): Promise<TickResult & { expiredSessions: number }> {
  target.started ??= target.orders.startup().catch((error: unknown) => {
    // Registration is retried by the next isolate; the reconciliation poll covers missed webhooks meanwhile.
    target.started = undefined;
    workerLogger.warn('order webhooks not registered', {
      error: error instanceof Error ? error.message : String(error),
    });
  });
  await target.started;
  const round = await target.orders.tick();
  const expiredSessions = await target.store.sessions.expire(now);
  return { ...round, expiredSessions };
}

export default {
  async fetch(request: Request, env: WorkerEnv): Promise<Response> {
    let target: WorkerGateway;
    try {
      target = await gatewayFor(env);
    } catch (error) {
      return startFailure(error);
    }
    return target.gateway.app.fetch(request);
  },

  async scheduled(controller: WorkerScheduledController, env: WorkerEnv, ctx: WorkerExecutionContext) {
    const work = gatewayFor(env).then(async (target) => {
      const result = await runScheduledWork(target, new Date(controller.scheduledTime));
      workerLogger.info('scheduled work done', { cron: controller.cron, ...result });
    });
    ctx.waitUntil(work);
    await work;
  },
};
