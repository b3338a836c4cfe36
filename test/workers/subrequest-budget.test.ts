/**
 * The Worker's background round within the subrequests and D1 statements one invocation may make: work is
 * claimed only while a job's (or a document batch's) worth of both is left, documents keep their share, and
 * past the limit a fetch is refused with a reason instead of by the runtime.
 */
import { describe, expect, it } from 'vitest';
import {
  createSubrequestBudget,
  D1_STATEMENTS_PER_ROUND,
  SUBREQUESTS_PER_ROUND,
} from '../../src/runtime/subrequest-budget.ts';

function countingFetch() {
  const calls: string[] = [];
  const fetch = (async (input: RequestInfo | URL) => {
    calls.push(String(input));
    return new Response('ok');
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

describe('the subrequest budget of a background round', () => {
  it('claims jobs while one fits besides the documents, then documents, and never passes the limit', async () => {
    const upstream = countingFetch();
    const budget = createSubrequestBudget(SUBREQUESTS_PER_ROUND, upstream.fetch);
    // A queue far longer than one round: 100 jobs of five calls each, 100 documents of one call each.
    const report = await budget.during(async () => {
      let jobs = 0;
      let messages = 0;
      while (jobs < 100 && budget.hasRoomFor('job')) {
        for (let call = 0; call < 5; call++) await budget.fetch(`https://print.example/job/${jobs}/${call}`);
        jobs++;
      }
      while (messages < 100 && budget.hasRoomFor('message')) {
        for (let doc = 0; doc < 10; doc++) await budget.fetch(`https://buyer.example/doc/${messages + doc}`);
        messages += 10;
      }
      return { jobs, messages };
    });
    expect(report).toEqual({ jobs: 6, messages: 20, subrequests: 50, d1Statements: 0 });
    expect(upstream.calls).toHaveLength(50);
  });

  it('refuses the fetch past the limit during a round, with the reason', async () => {
    const upstream = countingFetch();
    const budget = createSubrequestBudget(3, upstream.fetch);
    await expect(
      budget.during(async () => {
        for (let n = 0; n < 4; n++) await budget.fetch(`https://print.example/${n}`);
        return {};
      }),
    ).rejects.toThrow('subrequest budget of this round (3) is spent');
    expect(upstream.calls).toHaveLength(3);
    // Requests between rounds have their own invocations and limits: not refused.
    await budget.fetch('https://print.example/request');
    expect(upstream.calls).toHaveLength(4);
    // The next round starts with the whole budget again.
    expect(await budget.during(async () => ({ done: true }))).toEqual({
      done: true,
      subrequests: 0,
      d1Statements: 0,
    });
    expect(budget.remaining()).toBe(3);
  });

  it('leaves the reconciliation one read at a time while anything beyond the documents share is left', async () => {
    const budget = createSubrequestBudget(SUBREQUESTS_PER_ROUND, countingFetch().fetch);
    const reads = await budget.during(async () => {
      let n = 0;
      while (budget.hasRoomFor('reconcile')) {
        await budget.fetch(`https://print.example/order/${n}`);
        n++;
      }
      return { n };
    });
    expect(reads).toEqual({ n: 40, subrequests: 40, d1Statements: 0 });
  });

  it('counts D1 statements too: a job only while its statements fit besides the documents and the closing', async () => {
    const budget = createSubrequestBudget(SUBREQUESTS_PER_ROUND, countingFetch().fetch);
    expect(D1_STATEMENTS_PER_ROUND).toBe(50);
    const report = await budget.during(async () => {
      // The round's opening reads, then jobs of 19 statements each (one print order, as measured).
      budget.countD1(5);
      let requeued = 0;
      while (budget.hasRoomFor('requeue')) {
        budget.countD1(2);
        requeued++;
      }
      let jobs = 0;
      while (budget.hasRoomFor('job')) {
        budget.countD1(19);
        jobs++;
      }
      let messages = 0;
      while (budget.hasRoomFor('message')) {
        budget.countD1(3);
        messages++;
      }
      budget.countD1(6); // purges and the heartbeat
      return { requeued, jobs, messages };
    });
    // Re-queueing never takes the one job's room; the round ends within the limit.
    expect(report).toMatchObject({ requeued: 2, jobs: 1, messages: 4 });
    expect(report.d1Statements).toBeLessThanOrEqual(D1_STATEMENTS_PER_ROUND);
  });
});

describe('the notification step of a Worker round', () => {
  it('runs on what the round left: after a PO job, not once the round has spent nearly all its D1 queries', async () => {
    const busy = createSubrequestBudget(SUBREQUESTS_PER_ROUND, countingFetch().fetch);
    const afterJob = await busy.during(async () => {
      busy.countD1(5 + 19 + 3 + 6); // opening reads, one PO job, one document, purges and the heartbeat
      const notify = busy.hasRoomFor('notify');
      busy.countD1(8); // four more documents
      return { notify, thenNotify: busy.hasRoomFor('notify') };
    });
    expect(afterJob).toMatchObject({ notify: true, thenNotify: false });
    const spent = createSubrequestBudget(3, countingFetch().fetch);
    const noFetchLeft = await spent.during(async () => {
      for (let n = 0; n < 3; n++) await spent.fetch(`https://buyer.example/doc/${n}`);
      return { notify: spent.hasRoomFor('notify') };
    });
    expect(noFetchLeft.notify).toBe(false);
  });
});
