/**
 * Failed-secret throttling. A wrong SharedSecret (or OCI password) counts against the pair (buyer, client
 * address); once a pair has `maxFailures` failures inside `windowSeconds`, every further attempt from it is
 * refused, even with the right secret, until the oldest of those failures leaves the window. Guessing a
 * secret then costs a window per few tries, while the same buyer from its other addresses, and other
 * buyers from the same address, carry on. The table is an LRU with a fixed number of entries, so a flood
 * of made-up buyers or addresses cannot grow memory; the clock is the gateway's, so tests freeze it.
 */
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../store/port.ts';
import { GatewayError } from '../http/errors.ts';

export interface SecretThrottleOptions {
  clock: Clock;
  /** Failures allowed inside the window before the pair is refused (default 5). */
  maxFailures?: number;
  /** Length of the window in seconds (default 900). */
  windowSeconds?: number;
  /** Most (buyer, address) pairs remembered at once (default 10,000). */
  maxEntries?: number;
}

export interface SecretThrottle {
  /** Throws `throttled` while the pair is refused; call before checking the secret. */
  check(buyerId: string, address: string): void;
  /** Counts a wrong secret for the pair. */
  fail(buyerId: string, address: string): void;
  /** A right secret: clears this pair's count (and only this pair's). */
  succeed(buyerId: string, address: string): void;
  /**
   * The whole rule around one authentication, for every protocol: refused while the pair is throttled;
   * an error `isWrongSecret` recognises counts against the pair; success clears the pair's count.
   */
  guard<T>(
    buyerId: string,
    address: string,
    authenticate: () => T,
    isWrongSecret: (error: unknown) => boolean,
  ): T;
}

/** The key for an address the runtime cannot tell (in-process requests, proxies that hide it). */
export const UNKNOWN_ADDRESS = 'unknown';

/**
 * @example
 * const throttle = createSecretThrottle({ clock });
 * const buyer = throttle.guard(claimed.id, address, () => checkSecret(request), isBadSecret);
 */
export function createSecretThrottle(options: SecretThrottleOptions): SecretThrottle {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = (options.windowSeconds ?? 900) * 1000;
  if (!Number.isInteger(maxFailures) || maxFailures < 1) throw new TypeError('maxFailures must be >= 1');
  if (!(windowMs > 0)) throw new TypeError('windowSeconds must be > 0');
  // Per pair, the times of its most recent failures (at most maxFailures of them), oldest first.
  const failures = new LRUCache<string, number[]>({ max: options.maxEntries ?? 10_000 });
  const keyOf = (buyerId: string, address: string) => `${buyerId}\u0000${address}`;

  function recent(key: string, now: number): number[] {
    const times = (failures.get(key) ?? []).filter((t) => now - t < windowMs);
    if (times.length === 0) failures.delete(key);
    return times;
  }

  const throttle: SecretThrottle = {
    check(buyerId, address) {
      const now = options.clock.now().getTime();
      const times = recent(keyOf(buyerId, address), now);
      if (times.length < maxFailures) return;
      const waitSeconds = Math.max(1, Math.ceil(((times[0] ?? now) + windowMs - now) / 1000));
      throw new GatewayError(
        'throttled',
        `Too many failed authentication attempts for this buyer from this address; try again in ${waitSeconds} seconds.`,
      );
    },
    fail(buyerId, address) {
      const now = options.clock.now().getTime();
      const key = keyOf(buyerId, address);
      const times = recent(key, now);
      times.push(now);
      failures.set(key, times.slice(-maxFailures));
    },
    succeed(buyerId, address) {
      failures.delete(keyOf(buyerId, address));
    },
    guard(buyerId, address, authenticate, isWrongSecret) {
      throttle.check(buyerId, address);
      try {
        const result = authenticate();
        throttle.succeed(buyerId, address);
        return result;
      } catch (error) {
        if (isWrongSecret(error)) throttle.fail(buyerId, address);
        throw error;
      }
    },
  };
  return throttle;
}
