/**
 * Everything the gateway does to the outside world arrives through `GatewayDeps`, so the same app runs on
 * Node, on Workers and in tests (where the print service is the sandbox app's own `request`).
 */
import type { Context } from 'hono';
import type { BuyerConfig, ResolvedConfig } from '../../schemas/config.ts';

export type { ResolvedConfig };

import type { PrintApi } from '../print-api/index.ts';
import type { Clock, Store } from '../store/port.ts';

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
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface GatewayDeps {
  config: ResolvedConfig;
  store: Store;
  /** A print-service client for a storefront (one per storefront is enough; the factory may cache). */
  printApiFor(storefront: ResolvedStorefront): PrintApi;
  clock: Clock;
  /** Random URL-safe text of about `bytes` bytes of entropy; injectable for deterministic tests. */
  randomId?: (bytes?: number) => string;
  logger?: Logger;
  /** Outbound HTTP to buyers (order status documents). */
  fetch?: typeof fetch;
  /**
   * The caller's address, for failed-secret throttling. Default: the socket @hono/node-server hands in as
   * `c.env.incoming`; behind a proxy or on Workers, read the trusted header instead (e.g. CF-Connecting-IP).
   */
  clientAddress?: (c: Context) => string | undefined;
}

export function socketClientAddress(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function cryptoRandomId(bytes = 16): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  let out = '';
  for (const byte of data) out += URL_SAFE[byte & 63];
  return out;
}
