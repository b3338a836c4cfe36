/**
 * Wrong admin tokens, counted once for the JSON admin API's bearer check and the console's sign-in form.
 */
import type { GatewayContext } from '../context.ts';
import { createFailureCounter, type FailureCounter, type FailureLimit } from '../punchout/throttle.ts';

/**
 * Wrong admin tokens per client address: from the 31st within 15 minutes the address is refused (429 with
 * Retry-After), the right token included, for 15 minutes, doubling while it goes on (up to 4 hours). Per
 * address, not overall, so a guesser cannot lock the operators out; an operator's own typos stay far below.
 */
const ADMIN_FAILURE_LIMIT: FailureLimit = {
  maxFailures: 30,
  windowSeconds: 900,
  maxLockSeconds: 14_400,
};

// One counter per gateway context (one per running gateway), kept beside it rather than in it so the
// admin token adds nothing to the context every route is built from.
const failuresByContext = new WeakMap<GatewayContext, FailureCounter>();

/**
 * The wrong-admin-token counter of this gateway, per client address: the one the JSON API's bearer check
 * and the console's sign-in both count against, so a guesser gets ADMIN_FAILURE_LIMIT tries in all, not
 * that many on each.
 */
export function adminTokenFailures(ctx: GatewayContext): FailureCounter {
  let failures = failuresByContext.get(ctx);
  if (failures === undefined) {
    failures = createFailureCounter({
      clock: ctx.clock,
      limit: ADMIN_FAILURE_LIMIT,
      shared: { counters: ctx.store.guessCounters, prefix: 'admin:' },
    });
    failuresByContext.set(ctx, failures);
  }
  return failures;
}
