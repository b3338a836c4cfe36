/**
 * Failed-secret throttling. Guessing is bounded per buyer, not per request or per address: every wrong
 * SharedSecret (or OCI password) a request made the gateway compare counts one failure against the buyer,
 * whichever address it came from, and against the pair (buyer, address). After `maxFailures` failures
 * inside `windowSeconds`, the buyer (or the pair) is locked: every attempt is refused before any secret is
 * compared, the right one included, for a window; each lock that follows within `maxLockSeconds` of the
 * previous one's end lasts twice as long, up to `maxLockSeconds`. So rotating addresses gains a guesser
 * nothing, and however many requests he sends, a buyer's secret is tested a handful of times per window.
 *
 * That lets a stranger lock a buyer out. Addresses on the buyer's allow-list (its procurement system's
 * published ranges) are therefore exempt from the buyer's lock, and their own failures count against their
 * pair only: a buyer's system that guesses from an allowed address is still throttled there, but cannot
 * lock the buyer elsewhere, and a stranger elsewhere cannot lock it out. A success clears its pair's
 * count, never the buyer's, or the real buyer's traffic would refill a guesser's budget.
 *
 * The tables are LRUs with a fixed number of entries, so a flood of made-up buyers or addresses cannot grow
 * memory; the clock is the gateway's, so tests freeze it.
 */
import { BoundedCache } from '../../kernel/bounded-cache.ts';
import type { Clock, GuessCount, Store } from '../../store/port.ts';
import { GatewayError } from '../http/errors.ts';

export interface FailureLimit {
  /** Failures allowed inside the window; the one that reaches it locks the key. */
  maxFailures: number;
  /** Length of the window, and of the first lock, in seconds. */
  windowSeconds: number;
  /** Longest lock, in seconds; a lock within this long of the previous one's end lasts twice as long. */
  maxLockSeconds: number;
}

/** The secrets' limit: 5 failures per 15 minutes, locks of 15 minutes doubling up to 4 hours. */
export const SECRET_FAILURE_LIMIT: FailureLimit = {
  maxFailures: 5,
  windowSeconds: 900,
  maxLockSeconds: 14_400,
};

/** Failures counted per key (a buyer, an address), each key locked for a growing time at its limit. */
export interface FailureCounter {
  /** Whole seconds until the key may try again; 0 when it may now. */
  lockedFor(key: string): number;
  /**
   * Counts `count` failures (default 1) against the key, locking it when they reach the limit. This
   * instance counts at once; the promise settles once the shared count (if any) is read back, which may
   * lock the key here for failures other instances counted.
   */
  fail(key: string, count?: number): Promise<void>;
  /** Forgets the key's failures and locks. */
  forget(key: string): Promise<void>;
  /** Failures counted against the key inside the window now (a lock starts the count afresh). */
  failuresOf(key: string): number;
}

interface Entry {
  /** Times of the failures inside the window since the last lock, oldest first. */
  failures: number[];
  lockedUntil: number;
  /** Length of the last lock in ms (0: never locked). */
  lockMs: number;
}

/**
 * @example
 * const admin = createFailureCounter({ clock, limit: ADMIN_FAILURE_LIMIT });
 * if (admin.lockedFor(address) > 0) refuse(); else if (!ok) admin.fail(address);
 */
export function createFailureCounter(options: {
  clock: Clock;
  limit: FailureLimit;
  /** Most keys remembered at once (default 10,000). */
  maxEntries?: number;
  /**
   * Counters every instance shares (the store's), with this counter's keys under `prefix`. Only failures
   * and right secrets reach it, never a plain check, so an authentication that succeeds costs no round trip:
   * a lock another instance set (or one from before a restart) takes hold here at the key's next failure.
   */
  shared?: { counters: Store['guessCounters']; prefix: string };
}): FailureCounter {
  const { maxFailures, windowSeconds, maxLockSeconds } = options.limit;
  if (!Number.isInteger(maxFailures) || maxFailures < 1) throw new TypeError('maxFailures must be >= 1');
  if (!(windowSeconds > 0)) throw new TypeError('windowSeconds must be > 0');
  if (!(maxLockSeconds >= windowSeconds)) throw new TypeError('maxLockSeconds must be >= windowSeconds');
  const windowMs = windowSeconds * 1000;
  const maxLockMs = maxLockSeconds * 1000;
  const entries = new BoundedCache<string, Entry>({ max: options.maxEntries ?? 10_000 });
  const now = () => options.clock.now().getTime();
  const shared = options.shared;
  const sharedLimit = { maxFailures, windowMs, maxLockMs };

  /** Takes the shared count as this instance's, where it knows of more failures or a later lock. */
  function adopt(key: string, counted: GuessCount): void {
    const mine = entries.get(key) ?? { failures: [], lockedUntil: 0, lockMs: 0 };
    if (counted.lockedUntil > mine.lockedUntil) {
      entries.set(key, { failures: [], lockedUntil: counted.lockedUntil, lockMs: counted.lockMs });
    } else if (counted.lockedUntil <= now() && counted.failures > mine.failures.length) {
      entries.set(key, { ...mine, failures: Array(counted.failures).fill(counted.windowStart) });
    }
  }

  return {
    lockedFor(key) {
      const entry = entries.get(key);
      if (entry === undefined) return 0;
      const at = now();
      if (entry.lockedUntil <= at) return 0;
      return Math.max(1, Math.ceil((entry.lockedUntil - at) / 1000));
    },
    async fail(key, count = 1) {
      if (count < 1) return;
      const at = now();
      const entry = entries.get(key) ?? { failures: [], lockedUntil: 0, lockMs: 0 };
      const failures = entry.failures.filter((t) => at - t < windowMs);
      for (let i = 0; i < count && failures.length < maxFailures; i++) failures.push(at);
      if (failures.length < maxFailures) {
        entries.set(key, { ...entry, failures });
      } else {
        // A lock soon after the last one means the guessing goes on: make it twice as long.
        const again = entry.lockMs > 0 && at - entry.lockedUntil < maxLockMs;
        const lockMs = again ? Math.min(entry.lockMs * 2, maxLockMs) : windowMs;
        entries.set(key, { failures: [], lockedUntil: at + lockMs, lockMs });
      }
      if (shared === undefined) return;
      const counted = await shared.counters.fail(shared.prefix + key, count, new Date(at), sharedLimit);
      adopt(key, counted);
    },
    async forget(key) {
      // Only a key this instance counted failures for is forgotten in the shared store too, so a right
      // secret costs no round trip; failures counted elsewhere run out with their window.
      if (!entries.delete(key) || shared === undefined) return;
      await shared.counters.forget(shared.prefix + key);
    },
    failuresOf(key) {
      const entry = entries.peek(key);
      if (entry === undefined) return 0;
      const at = now();
      return entry.failures.filter((t) => at - t < windowMs).length;
    },
  };
}

export interface SecretThrottleOptions {
  clock: Clock;
  /** Whether the address is on the buyer's allow-list (default: no allow-lists). */
  isAllowed?: (buyerId: string, address: string) => boolean;
  /** Per buyer and per (buyer, address) pair; default SECRET_FAILURE_LIMIT. */
  limit?: FailureLimit;
  /** Most pairs (and buyers) remembered at once (default 10,000). */
  maxEntries?: number;
  /** The counters every instance shares (the store's); without them each instance counts alone. */
  shared?: Store['guessCounters'];
}

export interface SecretThrottle {
  /** Throws `throttled` while the buyer (from this address) is locked; call before comparing a secret. */
  check(buyerId: string, address: string): void;
  /** Counts `count` wrong secrets (default 1) for the buyer from this address. */
  fail(buyerId: string, address: string, count?: number): Promise<void>;
  /** A right secret: clears this pair's count (not the buyer's). */
  succeed(buyerId: string, address: string): Promise<void>;
  /**
   * What is counted against the buyer itself (failures from addresses off its allow-list), by every
   * instance where the counters are shared, for an operator: failures in the current window, and the
   * seconds its lock has left (0: not locked). Nothing about the secrets tried; nothing about single
   * (buyer, address) pairs.
   */
  statusOf(buyerId: string): Promise<SecretThrottleStatus>;
  /**
   * The whole rule around one authentication, for every protocol: refused while locked; an error counts
   * as many failures as `wrongSecrets` says it compared (0: not a wrong secret); a success clears the pair.
   */
  guard<T>(
    buyerId: string,
    address: string,
    authenticate: () => T,
    wrongSecrets: (error: unknown) => number,
  ): Promise<T>;
}

interface SecretThrottleStatus {
  /** Failures counted against the buyer inside the window (a lock starts the count afresh). */
  failures: number;
  /** The limit those count towards. */
  maxFailures: number;
  windowSeconds: number;
  /** Seconds until the buyer's lock ends; 0 when not locked. */
  lockedForSeconds: number;
}

/** Where the buyers' counts are kept among the shared counters. */
const BUYER_PREFIX = 'secret:buyer:';

/** The key for an address the runtime cannot tell (in-process requests, proxies that hide it). */
export const UNKNOWN_ADDRESS = 'unknown';

function throttled(waitSeconds: number, fromThisAddress: boolean): GatewayError {
  const who = fromThisAddress ? 'this buyer from this address' : 'this buyer';
  return new GatewayError(
    'throttled',
    `Too many failed authentication attempts for ${who}; try again in ${waitSeconds} seconds.`,
    { retryAfterSeconds: waitSeconds },
  );
}

/**
 * @example
 * const throttle = createSecretThrottle({ clock, isAllowed: (buyer, address) => allowed(buyer, address) });
 * const buyer = await throttle.guard(claimed.id, address, () => checkSecret(request), secretsCompared);
 */
export function createSecretThrottle(options: SecretThrottleOptions): SecretThrottle {
  const limit = options.limit ?? SECRET_FAILURE_LIMIT;
  const counter = (prefix: string) =>
    createFailureCounter({
      clock: options.clock,
      limit,
      maxEntries: options.maxEntries ?? 10_000,
      ...(options.shared !== undefined && { shared: { counters: options.shared, prefix } }),
    });
  const buyers = counter(BUYER_PREFIX);
  const pairs = counter('secret:pair:');
  const isAllowed = options.isAllowed ?? (() => false);
  const pairOf = (buyerId: string, address: string) => `${buyerId}\u0000${address}`;

  const throttle: SecretThrottle = {
    check(buyerId, address) {
      // The allow-list (an address parsed against ranges) only matters while the buyer is locked.
      const buyerWait = buyers.lockedFor(buyerId);
      if (buyerWait > 0 && !isAllowed(buyerId, address)) throw throttled(buyerWait, false);
      const pairWait = pairs.lockedFor(pairOf(buyerId, address));
      if (pairWait > 0) throw throttled(pairWait, true);
    },
    async fail(buyerId, address, count = 1) {
      // Both counted here before either waits for the shared store, so a check right after sees them.
      const counting = [pairs.fail(pairOf(buyerId, address), count)];
      if (!isAllowed(buyerId, address)) counting.push(buyers.fail(buyerId, count));
      await Promise.all(counting);
    },
    succeed(buyerId, address) {
      return pairs.forget(pairOf(buyerId, address));
    },
    async statusOf(buyerId) {
      const local = { failures: buyers.failuresOf(buyerId), lockedForSeconds: buyers.lockedFor(buyerId) };
      const counted = await options.shared?.get(BUYER_PREFIX + buyerId);
      const at = options.clock.now().getTime();
      const inWindow = counted !== undefined && at - counted.windowStart < limit.windowSeconds * 1000;
      const lockedMs = counted === undefined ? 0 : counted.lockedUntil - at;
      return {
        failures: Math.max(local.failures, inWindow && lockedMs <= 0 ? counted.failures : 0),
        maxFailures: limit.maxFailures,
        windowSeconds: limit.windowSeconds,
        lockedForSeconds: Math.max(local.lockedForSeconds, lockedMs > 0 ? Math.ceil(lockedMs / 1000) : 0),
      };
    },
    async guard(buyerId, address, authenticate, wrongSecrets) {
      throttle.check(buyerId, address);
      let result: ReturnType<typeof authenticate>;
      try {
        result = authenticate();
      } catch (error) {
        await throttle.fail(buyerId, address, wrongSecrets(error));
        throw error;
      }
      await throttle.succeed(buyerId, address);
      return result;
    },
  };
  return throttle;
}
