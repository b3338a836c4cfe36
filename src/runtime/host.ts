/**
 * The one composition of a running gateway, shared by `punchgate serve`, the demo and the Worker so they
 * cannot diverge again: the config loaded and checked the same way everywhere, one print-service client per
 * storefront, and the background round with everything it must do (webhook registration until it succeeds,
 * PO jobs, reconciliation, documents to buyers, session expiry and housekeeping).
 *
 * Runtime-agnostic: the runtime hands in its store, its transports and its logger, and decides when rounds
 * run (an interval on Node, the Cron Trigger on Workers). No Node or Workers globals here.
 */
import type { Context } from 'hono';
import { type ConfigProblem, loadGatewayConfig, type ResolvedConfig } from '../../schemas/config.ts';
import type { Logger, ResolvedStorefront } from '../gateway/deps.ts';
import { createPunchgate, type Gateway } from '../gateway/index.ts';
import { ociBuyerProblems } from '../gateway/oci/buyer-settings.ts';
import { createOrderWorker, type OrderWorkerOptions, type TickResult } from '../gateway/orders/index.ts';
import { createPrintApi, type FetchLike, type PrintApi } from '../print-api/index.ts';
import { systemClock } from '../store/clock.ts';
import type { Clock, Store } from '../store/port.ts';

export type LoadedConfig = { ok: true; config: ResolvedConfig } | { ok: false; problems: ConfigProblem[] };

/**
 * Everything any runtime would refuse about a config, in one pass: the schema, references between
 * sections, unset environment variables, weak secrets, and OCI values the buyer's system cannot take.
 * `check-config`, `serve` and the Worker all load through here, so they agree on every file.
 */
export function loadConfig(value: unknown, env: Readonly<Record<string, string | undefined>>): LoadedConfig {
  const loaded = loadGatewayConfig(value, env);
  if (!loaded.ok) return loaded;
  const problems = ociBuyerProblems(loaded.config);
  return problems.length > 0 ? { ok: false, problems } : loaded;
}

export interface GatewayHostOptions {
  config: ResolvedConfig;
  store: Store;
  logger: Logger;
  clock?: Clock;
  /** The transport to one storefront's print service (Node: a pooled undici agent). Default: `fetch`. */
  printFetchFor?: (storefront: ResolvedStorefront) => FetchLike;
  /** Outbound HTTP to buyers (order status documents). */
  fetch?: typeof fetch;
  clientAddress?: (c: Context) => string | undefined;
  /** Bounds of one round's work (Workers keep them small to stay within their per-invocation limits). */
  worker?: OrderWorkerOptions;
}

export interface BackgroundRoundReport extends TickResult {
  /** True once the print service webhooks are registered (tried again every round until they are). */
  webhooksRegistered: boolean;
  expiredSessions: number;
  purged: HousekeepingReport;
}

export interface GatewayHost {
  gateway: Gateway;
  /**
   * One round of background work. Concurrent calls share the round in progress; several instances may run
   * rounds at once, since every piece of work is claimed from the store under a lease.
   */
  runBackgroundRound(): Promise<BackgroundRoundReport>;
  /** When the last round completed (undefined before the first). */
  lastRoundAt(): Date | undefined;
}

/**
 * @example
 * const host = await createGatewayHost({ config, store, logger });
 * serve({ fetch: host.gateway.app.fetch });
 * setInterval(() => void host.runBackgroundRound(), config.background.intervalSeconds * 1000);
 */
export async function createGatewayHost(options: GatewayHostOptions): Promise<GatewayHost> {
  const { config, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const clients = new Map<string, PrintApi>();
  const gateway = await createPunchgate({
    config,
    store,
    clock,
    logger,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    ...(options.clientAddress !== undefined && { clientAddress: options.clientAddress }),
    printApiFor(storefront) {
      let client = clients.get(storefront.id);
      if (client === undefined) {
        const transport = options.printFetchFor?.(storefront);
        client = createPrintApi({
          baseUrl: storefront.apiBaseUrl,
          token: storefront.apiToken,
          key: storefront.apiKey,
          ...(transport !== undefined && { fetch: transport }),
        });
        clients.set(storefront.id, client);
      }
      return client;
    },
  });
  const orders = createOrderWorker(gateway.context, options.worker);
  let webhooksRegistered = false;
  let running: Promise<BackgroundRoundReport> | undefined;
  let lastRoundAt: Date | undefined;

  async function registerWebhooks(): Promise<void> {
    try {
      await orders.startup();
      webhooksRegistered = true;
    } catch (error) {
      // The print service may be down; reconciliation finds the orders' progress meanwhile, and the next
      // round tries again.
      logger.warn('print service webhooks not registered yet; relying on reconciliation', {
        error: describe(error),
      });
    }
  }

  async function round(): Promise<BackgroundRoundReport> {
    if (!webhooksRegistered) await registerWebhooks();
    const work = await orders.tick();
    const now = clock.now();
    const expiredSessions = await store.sessions.expire(now);
    const purged = await purgeExpired(store, now, config.housekeeping);
    lastRoundAt = now;
    return { ...work, webhooksRegistered, expiredSessions, purged };
  }

  return {
    gateway,
    lastRoundAt: () => lastRoundAt,
    runBackgroundRound() {
      running ??= round().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}

// Until the store's housekeeping module lands: the purges the port has today.
type HousekeepingReport = Record<string, number>;
async function purgeExpired(
  target: Store,
  now: Date,
  retention: ResolvedConfig['housekeeping'],
): Promise<HousekeepingReport> {
  const before = (days: number) => new Date(now.getTime() - days * 86_400_000);
  return {
    cartLines: await target.cart.purgeStale(before(retention.staleCartLineDays)),
    events: await target.events.purgeProcessed(before(retention.processedEventDays)),
  };
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
