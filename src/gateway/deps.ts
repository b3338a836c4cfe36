/**
 * Everything the gateway does to the outside world arrives through `GatewayDeps`, so the same app runs on
 * Node, on Workers and in tests (where the print service is the sandbox app's own `request`).
 */
import type { Context } from 'hono';
import type { BuyerConfig, ResolvedConfig } from '../../schemas/config.ts';

export type { ResolvedConfig };

import type { CxmlParseOptions, CxmlRequest } from '../cxml/index.ts';
import type { HmacSha256 } from '../kernel/signed-claims.ts';
import type { PrintApi } from '../print-api/index.ts';
import type { Clock, Store } from '../store/port.ts';
import type { Metrics } from './http/metrics.ts';

export type ResolvedStorefront = ResolvedConfig['storefronts'][number];
export type ResolvedBuyer = ResolvedConfig['buyers'][number];
export type ResolvedCxmlBuyer = Extract<ResolvedBuyer, { protocol: 'cxml' }>;
export type ResolvedOciBuyer = Extract<ResolvedBuyer, { protocol: 'oci' }>;
export type BuyerProtocol = BuyerConfig['protocol'];

export interface LogFields {
  [key: string]: string | number | boolean | undefined;
}

/** Structured logging; never hand it secrets, passwords or PIPO tokens. */
export interface Logger {
  /** Detail an operator turns on with `LOG_LEVEL=debug` (probe requests, for one); optional for old loggers. */
  debug?(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /**
   * Runs `work` with `fields` (the request id) added to every line this logger writes until `work` settles,
   * however deep the call. Only loggers that can follow asynchronous work (Node's AsyncLocalStorage) have
   * it; elsewhere the lines that matter name the request themselves, and Workers Logs groups an
   * invocation's lines anyway.
   */
  withFields?<T>(fields: LogFields, work: () => T): T;
}

export interface GatewayDeps {
  config: ResolvedConfig;
  store: Store;
  /** A print-service client for a storefront (one per storefront is enough; the factory may cache). */
  printApiFor(storefront: ResolvedStorefront): PrintApi;
  clock: Clock;
  /**
   * The HMAC-SHA-256 every signed token is made and checked with. Default: Web Crypto's (Workers); Node
   * hands in `node:crypto`'s synchronous one (src/runtime/node-hmac.ts), several times cheaper per token.
   */
  hmacSha256?: HmacSha256;
  /** Random URL-safe text of about `bytes` bytes of entropy; injectable for deterministic tests. */
  randomId?: (bytes?: number) => string;
  logger?: Logger;
  /** Outbound HTTP to buyers (order status documents). */
  fetch?: typeof fetch;
  /**
   * The caller's address, for failed-secret throttling, as the runtime adapter knows it (Node: the socket,
   * through Hono's connection info; Workers: CF-Connecting-IP). Default: unknown, so every caller shares one
   * throttle bucket — fine in process, never in production, where the runtime hands this in.
   */
  clientAddress?: (c: Context) => string | undefined;
  /**
   * Counters and the background round's heartbeat, created by the host before the gateway so the
   * print-service transports it instruments count into the same object. Default: a fresh one.
   */
  metrics?: Metrics;
  /**
   * Where `/readyz` reads when the last background round completed. Default: this instance's metrics,
   * right wherever the instance runs its own rounds (Node). On Workers the Cron invocation may run in
   * another isolate than the one answering `/readyz`, so the Worker hands in a heartbeat both can read.
   */
  lastBackgroundRoundAt?: () => Promise<Date | undefined>;
  /**
   * `parseCxmlRequest` off the event loop, for documents larger than their head (a 5,000-line PO takes
   * hundreds of ms to parse): Node hands in a worker thread's (src/runtime/node-cxml-parser.ts). Default:
   * none, every document is parsed inline (Workers have no threads).
   */
  parseLargeCxml?: (bytes: Uint8Array, options: CxmlParseOptions) => Promise<CxmlRequest>;
  /**
   * The console's test punch-out (Buyers page): the buyer simulator run against one buyer's live settings.
   * Node hands one in that loads `@punchgate/sandbox` (src/runtime/test-punchout.ts); default none (Workers),
   * and the page says which package to install.
   */
  testPunchout?: (request: TestPunchoutRequest) => Promise<TestPunchoutOutcome>;
}

/** What the console hands the test punch-out: the buyer as configured, and how to reach this gateway. */
export interface TestPunchoutRequest {
  buyer: ResolvedBuyer;
  /** The supplier's credentials, the To of a setup request. */
  supplierCredentials: readonly { domain: string; identity: string }[];
  /** The gateway's public base URL (no trailing slash): every request goes to it … */
  gatewayUrl: string;
  /** … through this, the gateway app's own fetch (in process, no network). */
  fetch: typeof fetch;
}

export interface TestPunchoutStep {
  name: string;
  ok: boolean;
  detail: string;
}

export type TestPunchoutOutcome =
  | { ran: true; ok: boolean; steps: TestPunchoutStep[]; elapsedMs: number }
  /** The run could not start: the one line to show (the package to install). */
  | { ran: false; reason: string };

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Random bytes drawn from the system's CSPRNG a pool at a time: one `getRandomValues` call per 4 KiB
 * instead of one per id (a call costs about as much as filling the pool; a request takes three to five
 * ids). Each byte is handed out once; the pool is refilled when it runs short.
 */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let poolNext = POOL_BYTES;

export function cryptoRandomId(bytes = 16): string {
  if (bytes > POOL_BYTES) throw new RangeError(`cryptoRandomId: at most ${POOL_BYTES} bytes, not ${bytes}`);
  if (poolNext + bytes > POOL_BYTES) {
    crypto.getRandomValues(pool);
    poolNext = 0;
  }
  let out = '';
  for (let i = poolNext; i < poolNext + bytes; i++) out += URL_SAFE[(pool[i] ?? 0) & 63];
  poolNext += bytes;
  return out;
}
