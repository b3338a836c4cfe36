/**
 * The clock the store stamps `createdAt`/`updatedAt` with and measures expiry against. Injected so tests
 * freeze time and every adapter agrees with the gateway on what "now" is.
 */

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
