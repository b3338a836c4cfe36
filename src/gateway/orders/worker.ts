/**
 * The order flow's background work, runtime-agnostic and without timers of its own: the Node runtime calls
 * `tick()` on an interval, a Worker calls it from a Cron Trigger, tests call it on a frozen clock. Each tick
 * turns stored webhook deliveries into jobs, keeps the reconciliation poll scheduled, picks up purchase
 * orders whose job was lost, runs the due jobs and posts the due documents to buyers. Everything it works
 * on is claimed from the store under a lease, so several instances can tick at once and a crashed one's
 * work is taken over once its lease runs out.
 */
import { StoreError } from '../../store/store-error.ts';
import type { Job } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { deliverMessage, POST_TIMEOUT_MS } from '../documents/outbox-delivery.ts';
import { type Backoff, retryDelayMs } from '../documents/retry-delay.ts';
import { GatewayError, isRetryable } from '../http/errors.ts';
import { inStep } from '../round-step.ts';
import { drainEventInbox, type HookRegistration, registerEventHooks } from './events.ts';
import { FLAG, withFlags } from './po-record.ts';
import { RECONCILE, reconcilePrintOrders, SYNC_PRINT_ORDER, syncPrintOrder } from './print-order-sync.ts';
import {
  giveUpPurchaseOrder,
  PROCESS_ORDER,
  PROCESSING_KEY_PREFIX,
  processPurchaseOrder,
  queueProcessing,
} from './process-order.ts';

/**
 * A job's lease is short so that the job of a worker that died or lost its database is taken over within a
 * minute; a worker that is alive keeps its lease by renewing it every LEASE_RENEWAL_MS while the job runs,
 * however long its upstream calls take.
 */
export const JOB_LEASE_MS = 60_000;
const LEASE_RENEWAL_MS = JOB_LEASE_MS / 3;
/**
 * Outbox messages have no heartbeat: one claim must cover its posts. So a claim takes only as many messages
 * as can be posted, each within its timeout, well inside the lease (one now: 30 s of 60).
 */
const MESSAGE_LEASE_MS = 60_000;
const MESSAGES_PER_CLAIM = Math.max(1, Math.floor(MESSAGE_LEASE_MS / POST_TIMEOUT_MS) - 1);
/** Job backoff: 30 seconds doubling up to an hour. */
const JOB_BACKOFF: Backoff = { baseMs: 30_000, maxMs: 3_600_000 };
/** A job that failed only because the store was away is tried again this soon. */
const STORE_OUTAGE_RETRY_MS = 5_000;
/** How often the rounds look for lost work (see `sweep`): a third of a lease, so none waits much past it. */
export const SWEEP_INTERVAL_MS = JOB_LEASE_MS / 3;
const RECONCILE_KEY = 'reconcile';
/** The poll is rescheduled after every run; this only bounds a run that keeps failing. */
const RECONCILE_MAX_ATTEMPTS = 50;

export interface OrderWorkerOptions {
  /** Jobs run per tick at most (default 50); the rest wait for the next tick. */
  maxJobsPerTick?: number;
  /** Documents posted per tick at most (default 100). */
  maxMessagesPerTick?: number;
  /** How often a running job's lease is renewed (default a third of the lease); tests shorten it. */
  leaseRenewalMs?: number;
  /** How often a round looks for lost work (default SWEEP_INTERVAL_MS); 0 looks every round. */
  sweepIntervalMs?: number;
  /**
   * Asked before each job, each print order the reconciliation reads, each document posted, each order
   * whose job is queued again and each webhook delivery turned into a job: false ends that part of the
   * round, the rest waits for the next one. A Worker uses it to stay within the subrequests and D1 queries
   * one invocation may make.
   */
  hasRoomFor?: (work: 'job' | 'reconcile' | 'message' | 'requeue' | 'event') => boolean;
}

export interface TickResult {
  /** Jobs run (successfully or not). */
  jobs: number;
  /** Documents posted to buyers (delivered or not). */
  messages: number;
}

export interface OrderWorker {
  /** Registers the print service webhooks and schedules the reconciliation poll. */
  startup(): Promise<HookRegistration[]>;
  /** One round of due work; concurrent calls share the round in progress. */
  tick(): Promise<TickResult>;
}

interface JobKind {
  /**
   * Runs the job; answers true when it wrote the job's completion itself, with its last writes (one
   * transaction instead of two), so the worker has nothing left to record.
   */
  run(ctx: GatewayContext, job: Job, options: OrderWorkerOptions): Promise<boolean>;
  /** After the last attempt (or an error no retry can fix), before the job is dead-lettered. */
  giveUp?(ctx: GatewayContext, job: Job, error: unknown): Promise<void>;
  afterComplete?(ctx: GatewayContext, job: Job): Promise<void>;
}

function payloadField(job: Job, field: string): string | number {
  const payload = job.payload;
  const value =
    typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload[field] : undefined;
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new GatewayError('bad_request', `Job ${job.id} (${job.kind}) has no ${field} in its payload.`);
  }
  return value;
}

function scheduleReconcile(ctx: GatewayContext, runAt: Date): Promise<unknown> {
  return ctx.store.jobs.enqueue({
    kind: RECONCILE,
    key: RECONCILE_KEY,
    payload: {},
    runAt,
    maxAttempts: RECONCILE_MAX_ATTEMPTS,
  });
}

const JOB_KINDS: Record<string, JobKind> = {
  [PROCESS_ORDER]: {
    run: (ctx, job) => processPurchaseOrder(ctx, String(payloadField(job, 'poId')), job),
    giveUp: (ctx, job, error) => giveUpPurchaseOrder(ctx, String(payloadField(job, 'poId')), error),
  },
  [SYNC_PRINT_ORDER]: {
    async run(ctx, job) {
      await syncPrintOrder(
        ctx,
        String(payloadField(job, 'storefrontId')),
        Number(payloadField(job, 'printOrderId')),
      );
      return false;
    },
  },
  [RECONCILE]: {
    async run(ctx, _job, options) {
      const { checked, failed } = await reconcilePrintOrders(
        ctx,
        () => options.hasRoomFor?.('reconcile') ?? true,
      );
      if (checked + failed > 0) ctx.logger.info('print orders reconciled', { checked, failed });
      return false;
    },
    async afterComplete(ctx) {
      const next = ctx.clock.now().getTime() + ctx.config.orders.reconcileIntervalSeconds * 1000;
      await scheduleReconcile(ctx, new Date(next));
    },
  },
};

const KINDS = Object.keys(JOB_KINDS);

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A claimed job's hold on its lease while it runs. */
interface LeaseKeeper {
  /** Another worker took the job over (our claim is no longer current): its outcome is not ours to record. */
  readonly lost: boolean;
  /** Renews now and answers whether the claim is still ours; rejects when the store cannot say. */
  confirm(): Promise<boolean>;
  stop(): void;
}

/**
 * Renews the job's lease every `renewalMs` of real time while it runs (the only timer the worker has; it
 * never keeps a Node process alive). A renewal the store refuses means another worker has taken the job
 * over after our lease ran out — we were cut off from the database, or stalled: from then on this worker
 * leaves the job alone. A renewal that fails (the store away) is tried again at the next beat.
 */
function keepLease(ctx: GatewayContext, job: Job, renewalMs: number): LeaseKeeper {
  let lost = false;
  let renewing: Promise<boolean> | undefined;
  const renew = (): Promise<boolean> => {
    renewing ??= ctx.store.jobs
      .renewLease(job, new Date(ctx.clock.now().getTime() + JOB_LEASE_MS))
      .then((renewed) => {
        if (renewed === undefined && !lost) {
          lost = true;
          ctx.logger.warn('job lease lost to another worker; leaving the job to it', {
            job: job.id,
            kind: job.kind,
            attempt: job.attempts,
          });
        }
        return !lost;
      })
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  };
  const timer = setInterval(() => {
    renew().catch(() => {});
  }, renewalMs);
  (timer as { unref?: () => void }).unref?.();
  return {
    get lost() {
      return lost;
    },
    confirm: renew,
    stop: () => clearInterval(timer),
  };
}

/**
 * A job's outcome this worker could not write because the store went away. Kept in memory and written at
 * the start of the next rounds (fenced by the claim, so it is dropped if another worker took the job over
 * meanwhile): the job moves on about a round after the store is back instead of waiting out its lease.
 */
interface UnrecordedOutcome {
  job: Job;
  record(): Promise<unknown>;
}

/** Outcomes remembered at most; past it the lease settles the rest, as it would after a crash. */
const MAX_UNRECORDED = 200;

async function runJob(
  ctx: GatewayContext,
  job: Job,
  options: OrderWorkerOptions,
  unrecorded: UnrecordedOutcome[],
): Promise<void> {
  const kind = JOB_KINDS[job.kind];
  if (kind === undefined) {
    await ctx.store.jobs.kill(job, `No handler for job kind ${job.kind}.`);
    return;
  }
  const lease = keepLease(ctx, job, options.leaseRenewalMs ?? LEASE_RENEWAL_MS);
  let record: () => Promise<unknown>;
  try {
    const completed = await kind.run(ctx, job, options);
    // complete() is fenced by the claim, so a worker that lost the job records nothing here either.
    record = async () => {
      if (completed) return;
      if ((await ctx.store.jobs.complete(job)) !== undefined) await kind.afterComplete?.(ctx, job);
    };
  } catch (error) {
    record = () => (lease.lost ? Promise.resolve() : failJob(ctx, job, kind, error, lease));
  } finally {
    lease.stop();
  }
  try {
    await record();
  } catch (error) {
    if (!isStoreOutage(error)) throw error;
    if (unrecorded.length < MAX_UNRECORDED) unrecorded.push({ job, record });
    ctx.logger.warn('job outcome not recorded; the store is away, trying again next round', {
      job: job.id,
      kind: job.kind,
      error: describe(error),
    });
  }
}

function isStoreOutage(error: unknown): boolean {
  return error instanceof StoreError && error.code === 'unavailable';
}

/** Writes the outcomes an earlier round could not; those the store still cannot take stay for the next. */
async function recordUnrecorded(unrecorded: UnrecordedOutcome[]): Promise<void> {
  for (const outcome of unrecorded.splice(0)) {
    try {
      await outcome.record();
    } catch (error) {
      if (!isStoreOutage(error)) throw error;
      unrecorded.push(outcome);
    }
  }
}

/**
 * When the next attempt is due: soon after a store outage (the store answering again is all the job needs,
 * and the attempt it spent says nothing about the PO), else the backoff.
 */
function nextAttemptAt(ctx: GatewayContext, job: Job, error: unknown): Date {
  const delay = isStoreOutage(error) ? STORE_OUTAGE_RETRY_MS : retryDelayMs(job.attempts, JOB_BACKOFF);
  return new Date(ctx.clock.now().getTime() + delay);
}

async function failJob(
  ctx: GatewayContext,
  job: Job,
  kind: JobKind,
  error: unknown,
  lease: LeaseKeeper,
): Promise<void> {
  const reason = describe(error);
  const fields = { job: job.id, kind: job.kind, attempt: job.attempts, error: reason };
  if (isRetryable(error) && job.attempts < job.maxAttempts) {
    await ctx.store.jobs.retry(job, reason, nextAttemptAt(ctx, job, error));
    ctx.logger.warn('job failed; will retry', fields);
    return;
  }
  try {
    // Giving up acts on the PO (a reject to the buyer): only the worker that still holds the job may.
    if (!(await lease.confirm())) return;
    await kind.giveUp?.(ctx, job, error);
  } catch (giveUpError) {
    // Recording the failure failed too (the store is away): try the job again rather than lose the outcome.
    ctx.logger.error('job could not record its failure', { ...fields, cause: describe(giveUpError) });
    await ctx.store.jobs.retry(job, reason, nextAttemptAt(ctx, job, giveUpError));
    return;
  }
  await ctx.store.jobs.kill(job, reason);
  ctx.logger.error('job gave up', fields);
}

/**
 * Purchase orders stored but not yet picked up: their job may have been lost between accept and queue, or
 * have died while still at `received` (the process killed on each attempt before the job moved it on).
 * Nothing was created for such a PO (the create marker is stored with the move to `processing`), so a dead
 * job is brought back once; a second death sends the PO to an operator rather than round after round.
 */
async function queueReceivedOrders(ctx: GatewayContext, hasRoom: () => boolean): Promise<void> {
  // Ids only: a listing of whole records read (and, on SQL, parsed) every received PO's documents each round;
  // and only those without a live job, which intake queues with the PO: re-queueing the rest wrote once per PO.
  for (const id of await ctx.store.orders.listIdsWithoutLiveJob('received', PROCESSING_KEY_PREFIX, 50)) {
    if (!hasRoom()) return;
    const job = await queueProcessing(ctx, { id });
    if (job.state === 'dead') await settleDiedBeforeStart(ctx, id, job);
  }
}

async function settleDiedBeforeStart(ctx: GatewayContext, poId: string, job: Job): Promise<void> {
  const order = await ctx.store.orders.get(poId);
  if (order === undefined || order.state !== 'received') return;
  if (!order.flags.includes(FLAG.resumedAfterCrash)) {
    const marked = await ctx.store.orders.update(
      order.id,
      { flags: withFlags(order.flags, [FLAG.resumedAfterCrash]) },
      { ifState: ['received'] },
    );
    if (marked !== undefined && (await ctx.store.jobs.resurrect(job.id)) !== undefined) {
      ctx.logger.warn('purchase order job resumed after its worker died', { po: order.id, job: job.id });
      return;
    }
  }
  // Not giveUp: nothing was sent to the print service, so the operator's retry is safe and must not be
  // refused as for an order whose create may have gone through.
  const parked = await ctx.store.orders.update(
    order.id,
    {
      state: 'needs_operator',
      lastError:
        `Processing never got past its start (${job.lastError ?? 'no answer'}); no print order was created ` +
        'for it, so a retry places it.',
    },
    { ifState: ['received'] },
  );
  if (parked !== undefined) ctx.logger.warn('purchase order job died before it began', { po: order.id });
}

/**
 * Purchase orders left in `processing` by a job the store declared dead when its lease ran out on the last
 * attempt (the process was killed mid-job): no giveUp ran for them, so nothing else would ever move them.
 * A PO whose create may have been cut off gets its job back once, with fresh attempts: the next attempt
 * searches for the print order before creating, so the crash settles by itself. A second death, or a PO
 * without that marker, goes to an operator. Orders touched within a lease period are skipped: their job may
 * still be running (or just retried) and will move them itself.
 */
async function settleAbandonedOrders(ctx: GatewayContext, hasRoom: () => boolean): Promise<void> {
  const now = ctx.clock.now().getTime();
  const { items } = await ctx.store.orders.list({ state: 'processing', limit: 50 });
  for (const order of items) {
    if (now - order.updatedAt.getTime() < JOB_LEASE_MS) continue;
    if (!hasRoom()) return;
    const job = await queueProcessing(ctx, order);
    if (job.state !== 'dead') continue;
    const resumable = order.createAttempts.length > 0 && !order.flags.includes(FLAG.resumedAfterCrash);
    if (resumable) {
      const marked = await ctx.store.orders.update(
        order.id,
        { flags: withFlags(order.flags, [FLAG.resumedAfterCrash]) },
        { ifState: ['processing'] },
      );
      if (marked !== undefined && (await ctx.store.jobs.resurrect(job.id)) !== undefined) {
        ctx.logger.warn('purchase order job resumed after its worker died', { po: order.id, job: job.id });
        continue;
      }
    }
    await giveUpPurchaseOrder(
      ctx,
      order.id,
      new GatewayError(
        'needs_operator',
        `Processing stopped in the middle of its last attempt (${job.lastError ?? 'no answer'}): look for an ` +
          `order with external id ${order.orderId} before retrying.`,
      ),
    );
  }
}

/**
 * @example
 * const worker = createOrderWorker(gateway.context);
 * await worker.startup();
 * setInterval(() => void worker.tick(), 5_000); // Node; a Cron Trigger calls tick() on Workers
 */
export function createOrderWorker(ctx: GatewayContext, options: OrderWorkerOptions = {}): OrderWorker {
  const maxJobs = options.maxJobsPerTick ?? 50;
  const maxMessages = options.maxMessagesPerTick ?? 100;
  let running: Promise<TickResult> | undefined;
  const unrecorded: UnrecordedOutcome[] = [];

  async function runJobs(): Promise<number> {
    let count = 0;
    // Purchase orders first: however many order syncs webhooks queued, a PO waits for none of them.
    let kinds: readonly string[] = [PROCESS_ORDER];
    while (count < maxJobs && (options.hasRoomFor?.('job') ?? true)) {
      const job = await ctx.store.jobs.claim(ctx.clock.now(), JOB_LEASE_MS, kinds);
      if (job === undefined && kinds !== KINDS) {
        kinds = KINDS;
        continue;
      }
      if (job === undefined) break;
      await runJob(ctx, job, options, unrecorded);
      count++;
    }
    return count;
  }

  async function postMessages(): Promise<number> {
    let count = 0;
    while (count < maxMessages && (options.hasRoomFor?.('message') ?? true)) {
      const batch = await ctx.store.outbox.claimDue(
        ctx.clock.now(),
        MESSAGE_LEASE_MS,
        Math.min(MESSAGES_PER_CLAIM, maxMessages - count),
      );
      if (batch.length === 0) break;
      for (const message of batch) await deliverMessage(ctx, message);
      count += batch.length;
    }
    return count;
  }

  /**
   * The looks for work that was lost (the reconciliation poll's job, POs whose job is gone or whose worker
   * died): a crash's leftovers, which a lease of JOB_LEASE_MS keeps from being taken over sooner anyway. So
   * they run once per SWEEP_INTERVAL_MS of the clock, not every round: a round that only runs the due jobs
   * and posts costs the store four statements fewer, on every instance, every few seconds.
   */
  let nextSweepAt = Number.NEGATIVE_INFINITY;
  async function sweep(hasRoomFor: (work: 'requeue') => () => boolean): Promise<void> {
    const now = ctx.clock.now();
    if (now.getTime() < nextSweepAt) return;
    await inStep('orders.scheduleReconcile', () => scheduleReconcile(ctx, now));
    await inStep('orders.queueReceivedOrders', () => queueReceivedOrders(ctx, hasRoomFor('requeue')));
    await inStep('orders.settleAbandonedOrders', () => settleAbandonedOrders(ctx, hasRoomFor('requeue')));
    // Only a sweep that finished waits for the next: one the store cut short runs again next round.
    nextSweepAt = now.getTime() + (options.sweepIntervalMs ?? SWEEP_INTERVAL_MS);
  }

  // Each step named, so a failed tick's log line says which one it was in (see failedStep).
  async function round(): Promise<TickResult> {
    await inStep('orders.recordUnrecorded', () => recordUnrecorded(unrecorded));
    const hasRoomFor = (work: 'requeue' | 'event') => () => options.hasRoomFor?.(work) ?? true;
    await sweep(hasRoomFor);
    await inStep('orders.drainEventInbox', () => drainEventInbox(ctx, hasRoomFor('event')));
    const jobs = await inStep('orders.runJobs', runJobs);
    const messages = await inStep('orders.postMessages', postMessages);
    return { jobs, messages };
  }

  return {
    async startup() {
      await scheduleReconcile(ctx, ctx.clock.now());
      return registerEventHooks(ctx);
    },
    tick() {
      running ??= round().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
