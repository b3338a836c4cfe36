/**
 * The subrequest budget of one background round on Workers. One invocation may make a limited number of
 * outbound fetches (50 on the Free plan); a round that goes past it is cut off by the runtime mid-job. So
 * the round counts its fetches, claims more work only while a job's worth is left, and leaves the rest of
 * the queue for the next Cron run. Runtime-agnostic, so it is tested on Node.
 */

/**
 * Subrequests (outbound fetches) one Cron invocation may make on the Workers Free plan. Paid plans allow
 * more; 50 keeps one deployment right for both, and a round that runs out leaves the rest for the next one.
 */
export const SUBREQUESTS_PER_ROUND = 50;
/**
 * What a round keeps in hand before it claims more work. A PO job makes about five calls per print order
 * (log-in, create, process, read, history) and a cut-off create's search a bounded number more; a document
 * batch posts up to ten; the reconciliation reads one print order per call.
 */
const ROOM_FOR = { job: 15, reconcile: 1, message: 10 } as const;
/** Jobs stop while this much is left, so the buyers' documents are not starved by a queue of POs. */
const KEPT_FOR_MESSAGES = ROOM_FOR.message;

/**
 * Counts the subrequests of a background round: the host's outbound fetches go through `fetch`, and the
 * order worker asks `hasRoomFor` before claiming more. Requests served while a round runs share the isolate
 * and are counted too, which only ends the round early.
 */
export function createSubrequestBudget(
  limit: number,
  underlying: typeof fetch = (i, init) => fetch(i, init),
) {
  let used = 0;
  let inRound = false;
  const remaining = () => limit - used;
  return {
    remaining,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
      if (inRound && used >= limit) {
        // The runtime would refuse it anyway; refusing here says why in the log, and the work is retried.
        return Promise.reject(new Error(`subrequest budget of this round (${limit}) is spent`));
      }
      used++;
      return underlying(input, init);
    }) as typeof fetch,
    hasRoomFor(work: keyof typeof ROOM_FOR): boolean {
      const kept = work === 'message' ? 0 : KEPT_FOR_MESSAGES;
      return remaining() - kept >= ROOM_FOR[work];
    },
    async during<T>(round: () => Promise<T>): Promise<T & { subrequests: number }> {
      used = 0;
      inRound = true;
      try {
        const result = await round();
        return { ...result, subrequests: used };
      } finally {
        inRound = false;
      }
    },
  };
}
