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
import type { GatewayDeps, LogFields, Logger, ResolvedStorefront } from '../gateway/deps.ts';
import { createMetrics, type Metrics } from '../gateway/http/metrics.ts';
import { createGateway, type Gateway } from '../gateway/index.ts';
import { PUNCHOUT_PROTOCOLS } from '../gateway/app/protocols.ts';
import {
  createConfiguredNotifier,
  type EmailSettings,
  type NotificationChannel,
  notificationProblems,
} from '../gateway/notifications/index.ts';
import { createOrderWorker, type OrderWorkerOptions, type TickResult } from '../gateway/orders/index.ts';
import { failedStep, inStep } from '../gateway/round-step.ts';
import { createPrintApi, type FetchLike, type PrintApi } from '../print-api/index.ts';
import { systemClock } from '../store/clock.ts';
import { type HousekeepingReport, purgeExpired } from '../store/housekeeping.ts';
import type { Clock, Store } from '../store/port.ts';
import { StoreError } from '../store/store-error.ts';

/** How long after a failed webhook registration the next round tries again. */
const WEBHOOK_RETRY_MS = 60_000;

export type LoadedConfig = { ok: true; config: ResolvedConfig } | { ok: false; problems: ConfigProblem[] };

/**
 * Everything any runtime would refuse about a config, in one pass: the schema, references between
 * sections, unset environment variables, weak secrets, and protocol settings the buyer's system cannot take (OCI's NEW_ITEM-* values).
 * `check-config`, `serve` and the Worker all load through here, so they agree on every file.
 */
export function loadConfig(value: unknown, env: Readonly<Record<string, string | undefined>>): LoadedConfig {
  const loaded = loadGatewayConfig(value, env);
  if (!loaded.ok) return loaded;
  const problems = [
    ...Object.values(PUNCHOUT_PROTOCOLS).flatMap((p) => p.configProblems?.(loaded.config) ?? []),
    ...notificationProblems(loaded.config),
  ];
  return problems.length > 0 ? { ok: false, problems } : loaded;
}

/**
 * What a valid config may still get wrong, for `check-config` and `serve` to warn about (never a refusal):
 * a buyer without `authAllowedAddresses` is locked by failed authentications from anywhere, so whoever can
 * name it (its cXML identity, its OCI URL) can shut its real procurement system out by failing on purpose.
 */
export function configWarnings(config: ResolvedConfig): ConfigProblem[] {
  return config.buyers.flatMap((buyer, index) =>
    buyer.authAllowedAddresses.length > 0
      ? []
      : [
          {
            path: `buyers[${index}].authAllowedAddresses`,
            message: `not set: anyone who knows buyer "${buyer.id}"'s identity can lock it out by failing authentication; list the addresses of its procurement system`,
          },
        ],
  );
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
  /** Large documents parsed off the event loop (Node: a worker thread); default inline. */
  parseLargeCxml?: GatewayDeps['parseLargeCxml'];
  /** The console's test punch-out (Node: the buyer simulator of `@punchgate/sandbox`); default none. */
  testPunchout?: GatewayDeps['testPunchout'];
  /** The HMAC of signed tokens (Node: `node:crypto`'s); default Web Crypto's. */
  hmacSha256?: GatewayDeps['hmacSha256'];
  /** Bounds of one round's work (Workers keep them small to stay within their per-invocation limits). */
  worker?: OrderWorkerOptions;
  /** Default: a fresh one. */
  metrics?: Metrics;
  /**
   * Where the round's heartbeat lives: `instance` (memory; each Node process answers for its own rounds, so a
   * stuck instance fails its own `/readyz`) or `store` (Workers: the Cron round runs in another isolate than
   * the ones answering `/readyz` and `/metrics`, which read it from the store). Default `instance`.
   */
  heartbeat?: 'instance' | 'store';
  /**
   * The e-mail channel of `notifications.email`, where the runtime can open SMTP connections (Node:
   * src/runtime/smtp-channel.ts). Default none: only the webhook channel is built.
   */
  emailChannel?: (email: EmailSettings) => NotificationChannel;
  /**
   * Asked after the round's work, before its notification step: false leaves the notifications to the next
   * round (a Worker's round that has spent its subrequests and D1 queries). Default: always.
   */
  roomToNotify?: () => boolean;
}

/** The store heartbeat's name for the background round. */
export const BACKGROUND_ROUND_HEARTBEAT = 'background-round';

export interface BackgroundRoundReport extends TickResult {
  /** True once the print service webhooks are registered (tried again every round until they are). */
  webhooksRegistered: boolean;
  purged: HousekeepingReport;
}

export interface GatewayHost {
  gateway: Gateway;
  /**
   * One round of background work; the heartbeat `/readyz` and the metrics watch is recorded at its end. Concurrent calls share the round in progress; several instances may run
   * rounds at once, since every piece of work is claimed from the store under a lease.
   */
  runBackgroundRound(): Promise<BackgroundRoundReport>;
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
  // Created before the gateway so the print-service transports count into the same object.
  const metrics = options.metrics ?? createMetrics();
  const sharedHeartbeat = options.heartbeat === 'store';
  const gateway = await createGateway({
    config,
    store,
    clock,
    logger,
    metrics,
    ...(sharedHeartbeat && { lastBackgroundRoundAt: () => store.heartbeat.last(BACKGROUND_ROUND_HEARTBEAT) }),
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    ...(options.clientAddress !== undefined && { clientAddress: options.clientAddress }),
    ...(options.parseLargeCxml !== undefined && { parseLargeCxml: options.parseLargeCxml }),
    ...(options.testPunchout !== undefined && { testPunchout: options.testPunchout }),
    ...(options.hmacSha256 !== undefined && { hmacSha256: options.hmacSha256 }),
    printApiFor(storefront) {
      let client = clients.get(storefront.id);
      if (client === undefined) {
        const transport: FetchLike =
          options.printFetchFor?.(storefront) ?? ((input, init) => fetch(input, init));
        client = createPrintApi({
          baseUrl: storefront.apiBaseUrl,
          token: storefront.apiToken,
          key: storefront.apiKey,
          fetch: metrics.instrumentFetch(transport, storefront.id),
        });
        clients.set(storefront.id, client);
      }
      return client;
    },
  });
  const orders = createOrderWorker(gateway.context, options.worker);
  const startedAt = clock.now();
  const notifier = createConfiguredNotifier(
    gateway.context,
    {
      startedAt,
      lastRoundAt: sharedHeartbeat
        ? () => store.heartbeat.last(BACKGROUND_ROUND_HEARTBEAT)
        : async () => metrics.lastBackgroundRoundAt(),
    },
    options.emailChannel,
  );
  let webhooksRegistered = false;
  let nextRegistrationAt = 0;
  let running: Promise<BackgroundRoundReport> | undefined;

  /**
   * Registers the order webhooks until every storefront has them. A failure is logged by the registration
   * itself; it is tried again a minute later rather than every round, so an unreachable print service is
   * not asked every few seconds. Reconciliation finds the orders' progress meanwhile.
   */
  async function registerWebhooks(): Promise<void> {
    const now = clock.now().getTime();
    if (webhooksRegistered || now < nextRegistrationAt) return;
    try {
      const results = await orders.startup();
      webhooksRegistered = results.every((result) => result.outcome !== 'failed');
    } catch (error) {
      logger.warn('print service webhooks not registered', roundFailureFields(error, 'webhooks'));
    }
    if (!webhooksRegistered) nextRegistrationAt = now + WEBHOOK_RETRY_MS;
  }

  /**
   * The round, then the notifications: after the order work, so a channel that is slow or down never holds
   * a PO up (each message has its deadline, and the step never throws), and also after a round that
   * failed, since failing rounds are what makes the background round overdue.
   */
  async function round(): Promise<BackgroundRoundReport> {
    try {
      return await orderRound();
    } finally {
      if (notifier !== undefined && (options.roomToNotify?.() ?? true)) await notifier.announce();
    }
  }

  // Each step named (the order worker names its own within `orders`), so a failed round's log line says
  // which one it was in: roundFailureFields.
  async function orderRound(): Promise<BackgroundRoundReport> {
    await inStep('webhooks', registerWebhooks);
    const work = await inStep('orders', () => orders.tick());
    const now = clock.now();
    const purged = await inStep('housekeeping', () => purgeExpired(store, now, config.housekeeping));
    // Only a round that completed beats; one that threw leaves the heartbeat to age into a failing /readyz.
    const completedAt = clock.now();
    metrics.backgroundRoundCompleted(completedAt);
    if (sharedHeartbeat) {
      await inStep('heartbeat', () => store.heartbeat.beat(BACKGROUND_ROUND_HEARTBEAT, completedAt));
    }
    return { ...work, webhooksRegistered, purged };
  }

  return {
    gateway,
    runBackgroundRound() {
      running ??= round().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Causes followed into a failure's stack at most (a cause chain is short; this only bounds a cycle). */
const MAX_CAUSES = 3;

/**
 * The fields a failed background round (or a step of it that carries on) is logged with: the step it was
 * in, the error as `describe` gives it, and — unless the store is simply away, which the next round meets
 * by trying again and whose message says all there is — the stack, with its causes', so a programming
 * error can be found from the one line. Only the errors' own names, messages and stack frames go out,
 * never the other fields an error may carry (a print-service answer, a query's parameters).
 */
export function roundFailureFields(error: unknown, step = 'round'): LogFields {
  const fields: LogFields = { step: failedStep(error) ?? step, error: describe(error) };
  if (error instanceof StoreError && error.code === 'unavailable') return fields;
  const stacks: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth <= MAX_CAUSES; depth++) {
    stacks.push(current.stack ?? describe(current));
    current = current.cause;
  }
  if (stacks.length > 0) fields.stack = stacks.join('\ncaused by: ');
  return fields;
}
