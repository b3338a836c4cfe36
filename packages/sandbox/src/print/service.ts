/**
 * The emulated print service's core: the state built from the seed, the virtual clock, randomness, the
 * precomputed API keys and the webhook dispatcher. Routes and the control API work through it; it knows
 * nothing of HTTP.
 */
import type { Context } from 'hono';
import type { SandboxSeed } from '../sandbox-seed.ts';
import { VirtualClock } from './clock.ts';
import { deriveSandboxKey } from './key-derivation.ts';
import { type SandboxLogger, silentLogger } from './logger.ts';
import { createStateFromSeed, type SandboxState } from './state.ts';
import { WebhookDispatcher } from './webhooks.ts';

/** What the sandbox takes from its host; every field has a default. */
export interface SandboxDeps {
  /** The base clock in epoch ms (default Date.now); the control API adds an offset on top. */
  readonly clock?: () => number;
  /** Random bytes for session tokens and generated credentials (default crypto.getRandomValues). */
  readonly random?: (size: number) => Uint8Array;
  /** Used for webhook deliveries (default the global fetch). */
  readonly fetch?: typeof fetch;
  readonly logger?: SandboxLogger;
  /** How long the print files of a processed order take to merge, on the virtual clock (default 3000). */
  readonly mergeDelayMs?: number;
  /** PIPO session idle period (default 1800 s). */
  readonly sessionIdleSeconds?: number;
  /** Timeout of one webhook delivery (default 5000 ms). */
  readonly webhookTimeoutMs?: number;
  /**
   * The client's address for the HTTPS rule. The default reads the socket @hono/node-server hands in as
   * `c.env.incoming`; undefined (an in-process `app.request`) counts as loopback.
   */
  readonly peerAddress?: (c: Context) => string | undefined;
  /** Where the sandbox is reachable (for the URLs the control API shows); default: from the request URL. */
  readonly publicBaseUrl?: string;
}

function defaultPeerAddress(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: unknown } } } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}

function defaultRandom(size: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(size));
}

/** Keys by `rounds:token`: many sandboxes of one seed (tests, resets) derive each key once. */
const derivedKeys = new Map<string, Promise<string>>();

function derivedKey(token: string, rounds: number): Promise<string> {
  const cacheKey = `${rounds}:${token}`;
  let key = derivedKeys.get(cacheKey);
  if (key === undefined) {
    key = deriveSandboxKey(token, rounds);
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

export class SandboxService {
  readonly seed: SandboxSeed;
  readonly clock: VirtualClock;
  readonly logger: SandboxLogger;
  readonly mergeDelayMs: number;
  readonly sessionIdleMs: number;
  readonly peerAddress: (c: Context) => string | undefined;
  readonly publicBaseUrl: string | undefined;
  readonly webhooks: WebhookDispatcher;
  readonly #random: (size: number) => Uint8Array;
  readonly #keys: Promise<ReadonlyMap<string, string>>;
  readonly #automationAgents: readonly string[];
  #state: SandboxState;

  constructor(seed: SandboxSeed, deps: SandboxDeps = {}) {
    this.seed = seed;
    this.clock = new VirtualClock(deps.clock ?? Date.now);
    this.logger = deps.logger ?? silentLogger;
    this.mergeDelayMs = deps.mergeDelayMs ?? 3000;
    this.sessionIdleMs = (deps.sessionIdleSeconds ?? 1800) * 1000;
    this.peerAddress = deps.peerAddress ?? defaultPeerAddress;
    this.publicBaseUrl = deps.publicBaseUrl?.replace(/\/+$/, '');
    this.#random = deps.random ?? defaultRandom;
    this.#automationAgents = seed.automationUserAgents.map((agent) => agent.toLowerCase());
    this.#state = createStateFromSeed(seed);
    // Every key is derived once, up front: the derivation is on every request's path otherwise.
    const tokens = seed.licenses.flatMap((license) => license.apiKeys.map((key) => key.token));
    this.#keys = Promise.all(
      tokens.map(async (token) => [token, await derivedKey(token, seed.keyRounds)] as const),
    ).then((entries) => new Map(entries));
    const fetchDelivery = deps.fetch ?? ((input, init) => fetch(input, init));
    this.webhooks = new WebhookDispatcher({
      fetch: fetchDelivery,
      logger: this.logger,
      timeoutMs: deps.webhookTimeoutMs ?? 5000,
      now: () => this.now(),
      state: () => this.#state,
    });
  }

  get state(): SandboxState {
    return this.#state;
  }

  /** Epoch ms on the virtual clock. */
  now(): number {
    return this.clock.now();
  }

  /** Back to the seed: state, sessions, hooks and the clock offset. */
  reset(): void {
    this.#state = createStateFromSeed(this.seed);
    this.clock.reset();
  }

  /** The derived key of a seed token; undefined for a token the seed does not know. */
  async keyOf(token: string): Promise<string | undefined> {
    return (await this.#keys).get(token);
  }

  /** Lower-case hex of `size` random bytes. */
  randomHex(size: number): string {
    let out = '';
    for (const byte of this.#random(size)) out += byte.toString(16).padStart(2, '0');
    return out;
  }

  /** Whether a User-Agent identifies an automation-platform integration (A05). */
  isAutomationAgent(userAgent: string | undefined): boolean {
    if (userAgent === undefined || userAgent === '') return false;
    const agent = userAgent.toLowerCase();
    return this.#automationAgents.some((marker) => agent.includes(marker));
  }
}
