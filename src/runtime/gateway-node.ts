/**
 * The gateway on Node: the config file read and checked, secrets taken from process.env, the SQLite
 * store, pooled undici transports to the print service, and the server. `punchgate serve` and the demo
 * start the gateway through here.
 */
import { readFile } from 'node:fs/promises';
import type { ResolvedConfig } from '../../schemas/config.ts';
import type { Logger } from '../gateway/deps.ts';
import type { Gateway } from '../gateway/index.ts';
import { createNodeFetch, type NodeFetch } from '../print-api/node-fetch.ts';
import type { Store } from '../store/port.ts';
import { createPostgresStore } from '../store/postgres.ts';
import { createSqliteStore } from '../store/sqlite.ts';
import { createOffThreadCxmlParser } from './node-cxml-parser.ts';
import { nodeHmacSha256 } from './node-hmac.ts';
import { nodeClientAddress } from './node.ts';
import { createGatewayHost, type LoadedConfig, loadConfig, roundFailureFields } from './host.ts';
import { loadSandboxPackage } from './sandbox-package.ts';
import { createSmtpChannel } from './smtp-channel.ts';
import { createTestPunchout } from './test-punchout.ts';

/**
 * A config file that cannot be read at all: a mistake in the command line (the wrong path, a file the
 * gateway's user may not read), not a problem of its content, so the commands answer it as a usage error.
 */
export class ConfigFileUnreadable extends Error {
  override readonly name = 'ConfigFileUnreadable';
  readonly path: string;
  /** `file not found`, `permission denied`, … */
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.path = path;
    this.reason = reason;
  }
}

const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'file not found',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
};

/**
 * Reads, validates and resolves a config file: every problem any runtime would refuse is listed by path
 * (`buyers[1].sharedSecret`), including environment variables that are referenced but not set.
 *
 * @throws ConfigFileUnreadable when the file cannot be read.
 */
export async function readConfigFile(
  path: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new ConfigFileUnreadable(path, READ_FAILURES[code] ?? `cannot be read (${code})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8 quotes the source around the mistake, line breaks and all; one problem stays one line.
    const reason = (error as Error).message.replace(/\s+/g, ' ');
    return { ok: false, problems: [{ path: '(file)', message: `${path} is not valid JSON: ${reason}` }] };
  }
  return loadConfig(json, env);
}

/** The store a config names, as the gateway on Node opens it. */
export async function openStore(store: ResolvedConfig['store']): Promise<Store> {
  switch (store.kind) {
    case 'sqlite':
      // No session cache in front: SQLite answers a session by its key in process in about 10 µs, which a
      // cache hit saved only 2.5 µs of (a cached session is copied out), while a miss or a create cost
      // 10–15 µs more. And it cost memory: a busy cache replaces entries that each outlive several young
      // collections, so every entry is promoted, and V8 grows the young generation in step with what
      // survives, up to its ceiling (2 × 64 MB on 64-bit Node 24), keeping the freed pages pooled: 100,000
      // sessions created and read held 300 MB RSS with a 10,000-entry cache, 140 MB without (the
      // session-memory bench case).
      return createSqliteStore({ path: store.path });
    case 'postgres':
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
   * Starts the background rounds once the server listens: the first at once (it registers the print service
   * webhooks), then every `config.background.intervalSeconds` (or `tickMs`), each after the last finished.
   */
  startBackground(options?: { tickMs?: number }): void;
  /** Stops the rounds, waits for the one in progress, closes the transports and the store. */
  close(): Promise<void>;
}

/** Builds the gateway with Node's dependencies (the caller serves `gateway.app`). */
export async function createNodeGateway(
  config: ResolvedConfig,
  options: { logger: Logger; store?: Store; fetch?: typeof fetch },
): Promise<NodeGateway> {
  const store = options.store ?? (await openStore(config.store));
  const transports: NodeFetch[] = [];
  const parser = createOffThreadCxmlParser();
  const host = await createGatewayHost({
    config,
    store,
    logger: options.logger,
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    clientAddress: nodeClientAddress,
    parseLargeCxml: parser.parse,
    hmacSha256: nodeHmacSha256,
    emailChannel: (email) => createSmtpChannel(email),
    // Loaded at the first test punch-out, so a gateway without the sandbox package starts as before.
    testPunchout: createTestPunchout(() => loadSandboxPackage(() => import('@punchgate/sandbox/buyer'))),
    printFetchFor() {
      const transport = createNodeFetch();
      transports.push(transport);
      return transport;
    },
  });
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  return {
    gateway: host.gateway,
    store,
    startBackground({ tickMs = config.background.intervalSeconds * 1000 } = {}) {
      const round = async () => {
        try {
          await host.runBackgroundRound();
        } catch (error) {
          // The store or the print service is away: the next round tries again, /readyz and the metrics
          // show how long rounds have been failing.
          options.logger.error('background round failed', roundFailureFields(error));
        }
        if (!stopped) {
          timer = setTimeout(() => {
            running = round();
          }, tickMs);
        }
      };
      running = round();
    },
    async close() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
      await Promise.all(transports.map((t) => t.close()));
      await parser.close();
      await store.close();
    },
  };
}
