/**
 * `createBuyerSimulator`: the emulated procurement system as a Hono app. Runtime-agnostic (Web APIs
 * only); the demo mounts it under `/buyer`, and tests drive it in process with `app.request()` and an
 * injected `fetch` that stands in for the gateway.
 */
import type { Hono } from 'hono';
import { type BuyerStore, createMemoryBuyerStore } from './buyer-store.ts';
import { DEMO_USERS, type DemoUser } from './demo-users.ts';
import { type BuyerProfile, DEFAULT_BUYER_PROFILES } from './profiles.ts';
import { createSimulatorRoutes } from './routes.ts';
import type { AdvanceOrder, SimulatorContext } from './simulator-context.ts';

export interface BuyerSimulatorOptions {
  /** The gateway's base URL, e.g. `http://127.0.0.1:8080`; cXML goes to `{gatewayUrl}/cxml`, OCI to `{gatewayUrl}/oci/{buyer}`. */
  readonly gatewayUrl: string;
  /** Where browsers reach this app, e.g. `http://127.0.0.1:8080/buyer`; every link and return URL is built from it. */
  readonly publicUrl: string;
  /** Default: DEFAULT_BUYER_PROFILES (Ariba-style, Coupa-style, SAP-style). */
  readonly profiles?: readonly BuyerProfile[];
  /** Default: DEMO_USERS. */
  readonly users?: readonly DemoUser[];
  /** Server-to-server requests to the gateway; default the global fetch. */
  readonly fetch?: typeof fetch;
  readonly clock?: { now(): Date };
  /** Letters and digits; used for BuyerCookies, payloadIDs and requisition ids. */
  readonly randomId?: () => string;
  /** Default: an in-memory store whose PO numbers start from the clock (see README.md). */
  readonly store?: BuyerStore;
  /** The demo's control hook; without it the page shows no "advance print order" button. */
  readonly advanceOrder?: AdvanceOrder;
}

export interface BuyerSimulator {
  readonly app: Hono;
}

function baseUrl(value: string, option: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new TypeError(`${option} must be an absolute http(s) URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function defaultRandomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A PO number that moves on by one every ten seconds of wall time, so a restarted demo (whose memory is
 * gone) does not reuse the orderIDs of the previous run, which the gateway would take as duplicates.
 */
export function firstOrderNumberAt(now: Date): number {
  return (Math.floor(now.getTime() / 10_000) % 900_000) + 100_000;
}

/**
 * @example
 * const { app } = createBuyerSimulator({
 *   gatewayUrl: 'http://127.0.0.1:8080',
 *   publicUrl: 'http://127.0.0.1:8080/buyer',
 *   advanceOrder: async (printOrderIds) => { await finishAndShip(printOrderIds); },
 * });
 * root.route('/buyer', app);
 */
/** The simulator's own routes, which a profile's invoicePath must leave alone. */
const RESERVED_PATHS = /^\/(requisitions|order-status)(\/|$)/;

export function createBuyerSimulator(options: BuyerSimulatorOptions): BuyerSimulator {
  const profiles = options.profiles ?? DEFAULT_BUYER_PROFILES;
  const users = options.users ?? DEMO_USERS;
  if (profiles.length === 0) throw new TypeError('profiles must name at least one profile');
  if (users.length === 0) throw new TypeError('users must name at least one user');
  const ids = new Set<string>();
  for (const profile of profiles) {
    if (!/^[A-Za-z0-9_-]+$/.test(profile.id))
      throw new TypeError(`profile id "${profile.id}" must be a slug`);
    if (ids.has(profile.id)) throw new TypeError(`profile id "${profile.id}" is used twice`);
    ids.add(profile.id);
    const path = profile.invoicePath;
    if (path !== undefined && (!/^(\/[A-Za-z0-9_-]+)+$/.test(path) || RESERVED_PATHS.test(path))) {
      throw new TypeError(
        `profile ${profile.id}: invoicePath "${path}" must be a path of slugs such as /coupa/invoices, outside the simulator's own routes`,
      );
    }
  }
  const invoicePaths = profiles.flatMap((p) => (p.invoicePath === undefined ? [] : [p.invoicePath]));
  if (new Set(invoicePaths).size !== invoicePaths.length) {
    throw new TypeError('two profiles name the same invoicePath');
  }
  const clock = options.clock ?? { now: () => new Date() };
  const ctx: SimulatorContext = {
    gatewayUrl: baseUrl(options.gatewayUrl, 'gatewayUrl'),
    publicUrl: baseUrl(options.publicUrl, 'publicUrl'),
    profiles,
    users,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    clock,
    randomId: options.randomId ?? defaultRandomId,
    store: options.store ?? createMemoryBuyerStore({ firstOrderNumber: firstOrderNumberAt(clock.now()) }),
    ...(options.advanceOrder !== undefined && { advanceOrder: options.advanceOrder }),
  };
  return { app: createSimulatorRoutes(ctx) };
}
