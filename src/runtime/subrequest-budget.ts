/**
 * The budget of one background round on Workers: the subrequests (outbound fetches) and the D1 queries one
 * invocation may make (50 of each on the Free plan). A round that goes past either is cut off by the
 * runtime mid-job. So the round counts both, claims more work only while that work's worth of each is left
 * (plus what the documents and the round's closing housekeeping keep), and leaves the rest of the queue for
 * the next Cron run. Runtime-agnostic, so it is tested on Node.
 */

/**
 * Subrequests (outbound fetches) one Cron invocation may make on the Workers Free plan. Paid plans allow
 * more; 50 keeps one deployment right for both, and a round that runs out leaves the rest for the next one.
 */
export const SUBREQUESTS_PER_ROUND = 50;
/**
 * D1 queries one invocation may make on the Free plan (Cloudflare's D1 limits page: "Queries per Worker
 * invocation", 50 Free, 1,000 Paid). Counted per statement, a batch counting each of its statements: stricter
 * than counting round trips, so the bound holds however D1 counts a batch.
 */
export const D1_STATEMENTS_PER_ROUND = 50;

export type RoundWork = 'job' | 'reconcile' | 'message' | 'requeue' | 'event' | 'notify';

/**
 * What a round keeps in hand before it claims more work, in subrequests. A PO job makes about five calls
 * per print order (log-in, create, process, read, history) and a cut-off create's search a bounded number
 * more; a document batch posts up to ten; the reconciliation reads one print order per call. Re-queueing a
 * PO and turning a webhook delivery into a job make no call.
 */
const ROOM_FOR = { job: 15, reconcile: 1, message: 10, requeue: 0, event: 0, notify: 1 } as const;
/**
 * The same in D1 statements, as measured under workerd (bench/cases/worker-cpu.ts): a PO job of one print
 * order makes 19 (its claim 2, two reads of the PO, four state and flag updates, the print order's
 * bookkeeping 7, the confirmation queued 4, the job completed), each further print order about 7: room for
 * two; one
 * reconciled print order up to 4; one document posted 3 (claim, delivered and its record); re-queueing an
 * order's job 2, plus the 2 reads that follow it in the round (orders left processing, webhook deliveries);
 * a webhook delivery at most 4 (the print order looked up, its sync job, the delivery marked).
 */
/*
 * The notification step (`notify`): its reads of the open exceptions (POs waiting, dead documents and jobs,
 * refusals, the heartbeat: 5, a PO kept in parts one more), the channel's log read twice and one message
 * recorded, with room for a second; and the webhook's one post (new exceptions go out as one digest).
 */
const D1_ROOM_FOR = { job: 26, reconcile: 4, message: 4, requeue: 4, event: 4, notify: 10 } as const;
/** Jobs stop while this much is left, so the buyers' documents are not starved by a queue of POs. */
const KEPT_FOR_MESSAGES = { subrequests: ROOM_FOR.message, d1: D1_ROOM_FOR.message } as const;
/**
 * D1 statements every round makes after its last claim: the housekeeping purges (5) and the heartbeat (1),
 * with room for a job outcome recorded late.
 */
const D1_KEPT_FOR_CLOSING = 8;

/**
 * Counts the subrequests and D1 statements of a background round: the host's outbound fetches go through
 * `fetch`, the D1 store reports its statements to `countD1`, and the order worker asks `hasRoomFor` before
 * claiming more. Requests served while a round runs share the isolate and are counted too, which only ends
 * the round early.
 */
export function createSubrequestBudget(
  limit: number,
  underlying: typeof fetch = (i, init) => fetch(i, init),
  d1Limit: number = D1_STATEMENTS_PER_ROUND,
) {
  let used = 0;
  let d1Used = 0;
  let inRound = false;
  const remaining = () => limit - used;
  const d1Remaining = () => d1Limit - d1Used;
  return {
    remaining,
    d1Remaining,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
      if (inRound && used >= limit) {
        // The runtime would refuse it anyway; refusing here says why in the log, and the work is retried.
        return Promise.reject(new Error(`subrequest budget of this round (${limit}) is spent`));
      }
      used++;
      return underlying(input, init);
    }) as typeof fetch,
    /** The D1 store's count of statements sent (one a statement, a batch's each). */
    countD1(statements: number): void {
      d1Used += statements;
    },
    hasRoomFor(work: RoundWork): boolean {
      // The notification step comes last, after the closing housekeeping: it takes what is left, or waits
      // for a round with room (a round that ran a PO job has none on the Free plan).
      if (work === 'notify') return remaining() >= ROOM_FOR.notify && d1Remaining() >= D1_ROOM_FOR.notify;
      const forMessages = work === 'message';
      const kept = forMessages ? 0 : KEPT_FOR_MESSAGES.subrequests;
      // Re-queueing (mostly finding the job there already) never takes the room of the one job it is for.
      const d1Kept =
        D1_KEPT_FOR_CLOSING +
        (forMessages ? 0 : KEPT_FOR_MESSAGES.d1) +
        (work === 'requeue' ? D1_ROOM_FOR.job : 0);
      return remaining() - kept >= ROOM_FOR[work] && d1Remaining() - d1Kept >= D1_ROOM_FOR[work];
    },
    async during<T>(round: () => Promise<T>): Promise<T & { subrequests: number; d1Statements: number }> {
      used = 0;
      d1Used = 0;
      inRound = true;
      try {
        const result = await round();
        return { ...result, subrequests: used, d1Statements: d1Used };
      } finally {
        inRound = false;
      }
    },
  };
}
