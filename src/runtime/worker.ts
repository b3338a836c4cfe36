/**
 * The gateway on Cloudflare Workers. The config file is bundled into the Worker when wrangler builds it (the
 * `punchgate-worker-config` alias in wrangler.toml names the file): a Worker variable or secret holds at most
 * 5 KB, a print shop's catalog and buyers take more. The secrets the file refers to with {"env": "NAME"} are
 * Worker secrets (`wrangler secret put NAME`), the store is the D1 binding the file names, and the print
 * service and the buyers are reached with the runtime's `fetch`. The Cron Trigger (`scheduled`) runs the
 * host's background round within the subrequests and D1 queries one invocation may make.
 *
 * One host is built per isolate and environment and reused by its requests; a build that fails (a broken
 * config, D1 not answering) is not cached, so the next request tries again.
 */
import bundledConfig from 'punchgate-worker-config';
import type { ResolvedConfig } from '../../schemas/config.ts';
import type { Logger } from '../gateway/deps.ts';
import { systemClock } from '../store/clock.ts';
import { createD1Store, type D1Database, isD1Database } from '../store/d1.ts';
import { createSubrequestBudget, SUBREQUESTS_PER_ROUND } from './subrequest-budget.ts';
import { createWorkerLogger, LogSettingsError } from './worker-logging.ts';
import {
  type BackgroundRoundReport,
  createGatewayHost,
  describe,
  type GatewayHost,
  loadConfig,
  roundFailureFields,
} from './host.ts';

/** The Worker's bindings: the D1 database and the secrets the config refers to. */
export type WorkerEnv = Record<string, unknown>;

/** The parts of the Workers runtime's `ExecutionContext` and `ScheduledController` used here. */
export interface WorkerExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
export interface WorkerScheduledController {
  readonly scheduledTime: number;
  readonly cron: string;
}

/** Why the Worker refuses to serve: every problem, by config path, never with a secret's value. */
export class WorkerConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`punchgate cannot start: ${problems.join('; ')}`);
    this.name = 'WorkerConfigError';
    this.problems = problems;
  }
}

/** Where older versions read the whole config from: refused while set, so it is never silently ignored. */
const LEGACY_CONFIG_VARIABLE = 'PUNCHGATE_CONFIG';

/**
 * JSON lines through `console` at the Worker's `LOG_LEVEL`. A bad `LOG_LEVEL` is one more reason not to
 * start; it is logged at the default level with the others.
 */
function workerLoggerFor(env: WorkerEnv): { logger: Logger; problems: readonly string[] } {
  try {
    return { logger: createWorkerLogger('punchgate', env), problems: [] };
  } catch (error) {
    if (!(error instanceof LogSettingsError)) throw error;
    return { logger: createWorkerLogger('punchgate', {}), problems: error.problems };
  }
}

/** What the store section must say on Workers, checked on the raw file so it is listed with every other problem. */
function storeProblems(json: unknown, env: WorkerEnv): string[] {
  const store = (json as { store?: { kind?: unknown; binding?: unknown } } | null)?.store;
  if (store?.kind !== 'd1') {
    return [`store.kind: must be "d1" on Workers, not ${JSON.stringify(store?.kind ?? 'sqlite')}`];
  }
  if (typeof store.binding === 'string' && !isD1Database(env[store.binding])) {
    return [`store.binding: the Worker has no D1 binding named "${store.binding}" (see wrangler.toml)`];
  }
  return [];
}

/** E-mail notifications need SMTP connections, which a Worker cannot open: refused, never silently dropped. */
function emailProblems(json: unknown): string[] {
  const notifications = (json as { notifications?: { email?: unknown } } | null)?.notifications;
  if (notifications?.email === undefined) return [];
  return [
    "notifications.email: e-mail needs SMTP connections, which Workers cannot open; announce through notifications.webhook (a chat webhook, or a mail service's HTTP API behind one)",
  ];
}

/**
 * Checks the bundled config against the Worker's environment the way `punchgate check-config` checks a file,
 * plus what only a Worker can be missing (its D1 binding), and resolves the secrets.
 */
export function readWorkerConfig(
  env: WorkerEnv,
  json: unknown = bundledConfig,
): { config: ResolvedConfig; database: D1Database; logger: Logger } {
  const { logger, problems: logProblems } = workerLoggerFor(env);
  const problems = [...logProblems];
  if (env[LEGACY_CONFIG_VARIABLE] !== undefined) {
    problems.push(
      `${LEGACY_CONFIG_VARIABLE}: the config is no longer read from a variable; it is bundled from the file ` +
        'wrangler.toml names (docs/workers.md). Delete it: npx wrangler secret delete PUNCHGATE_CONFIG',
    );
  }
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') strings[name] = value;
  const loaded = loadConfig(json, strings);
  if (!loaded.ok) problems.push(...loaded.problems.map((p) => `${p.path}: ${p.message}`));
  problems.push(...storeProblems(json, env), ...emailProblems(json));
  if (!loaded.ok || problems.length > 0) throw new WorkerConfigError(problems);
  const { config } = loaded;
  return { config, logger, database: env[(config.store as { binding: string }).binding] as D1Database };
}

export interface WorkerHost {
  host: GatewayHost;
  logger: Logger;
  runRound(): Promise<BackgroundRoundReport & { subrequests: number; d1Statements: number }>;
}

/**
 * Builds the gateway host for a Worker environment (what `fetch` and `scheduled` use, once per isolate).
 *
 * @example
 * const { host } = await createWorkerHost(env);
 * return host.gateway.app.fetch(request);
 */
export async function createWorkerHost(env: WorkerEnv, json: unknown = bundledConfig): Promise<WorkerHost> {
  const { config, database, logger } = readWorkerConfig(env, json);
  const budget = createSubrequestBudget(SUBREQUESTS_PER_ROUND);
  const store = await createD1Store({ database, clock: systemClock, onStatements: budget.countD1 });
  const host = await createGatewayHost({
    config,
    store,
    logger,
    // Cloudflare puts the visitor's address in this header; the throttle counts failures per address.
    clientAddress: (c) => c.req.header('CF-Connecting-IP'),
    fetch: budget.fetch,
    printFetchFor: () => budget.fetch,
    // The budget (subrequests and D1 statements) is what bounds a round; the counts only cap a round of
    // cheap work. Cron rounds come a minute apart, more than the sweep's interval: every one looks for
    // lost work, however close together a test or a backlog runs them.
    worker: { maxJobsPerTick: 10, maxMessagesPerTick: 20, hasRoomFor: budget.hasRoomFor, sweepIntervalMs: 0 },
    roomToNotify: () => budget.hasRoomFor('notify'),
    heartbeat: 'store',
  });
  const runRound = () => budget.during(() => host.runBackgroundRound());
  return { host, logger, runRound };
}

const built = new WeakMap<object, Promise<WorkerHost>>();

function hostFor(env: WorkerEnv): Promise<WorkerHost> {
  let pending = built.get(env);
  if (pending === undefined) {
    pending = createWorkerHost(env);
    built.set(env, pending);
    pending.catch(() => built.delete(env));
  }
  return pending;
}

function logStartFailure(env: WorkerEnv, error: unknown): void {
  const { logger } = workerLoggerFor(env);
  if (error instanceof WorkerConfigError) {
    logger.error('punchgate cannot start', {
      problemCount: error.problems.length,
      problems: error.problems.join('; '),
    });
  } else {
    logger.error('punchgate cannot start', { error: describe(error) });
  }
}

function startFailure(env: WorkerEnv, error: unknown): Response {
  logStartFailure(env, error);
  return new Response('punchgate is not available; the operator has been told why in the Worker logs.\n', {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '30' },
  });
}

export default {
  async fetch(request: Request, env: WorkerEnv): Promise<Response> {
    let target: WorkerHost;
    try {
      target = await hostFor(env);
    } catch (error) {
      return startFailure(env, error);
    }
    return target.host.gateway.app.fetch(request);
  },

  async scheduled(controller: WorkerScheduledController, env: WorkerEnv, ctx: WorkerExecutionContext) {
    const work = (async () => {
      let target: WorkerHost;
      try {
        target = await hostFor(env);
      } catch (error) {
        logStartFailure(env, error);
        throw error;
      }
      let round: Awaited<ReturnType<WorkerHost['runRound']>>;
      try {
        round = await target.runRound();
      } catch (error) {
        // The step and the stack in the line, as on Node; the invocation still fails for the Cron's record.
        target.logger.error('background round failed', {
          cron: controller.cron,
          ...roundFailureFields(error),
        });
        throw error;
      }
      const { purged, ...report } = round;
      const purgedFields = Object.fromEntries(
        Object.entries(purged).map(([what, n]) => [`purged.${what}`, n]),
      );
      target.logger.info('background round done', { cron: controller.cron, ...report, ...purgedFields });
    })();
    ctx.waitUntil(work);
    await work;
  },
};
