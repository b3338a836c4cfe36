/**
 * The exceptions open right now, read afresh each round from what already records them: POs waiting for
 * an operator (with their flags), dead letters and dead jobs, the background round's heartbeat, the print
 * service's failing calls, and the buyers' refused documents. Nothing here keeps state of its own; what was
 * announced already is the notification log's. (A buyer locked out by failed secrets is not read here: its
 * counter is one store read per buyer, more than a Worker's round can spare for every configured buyer.)
 */
import type { GatewayContext } from '../context.ts';
import {
  announcementKey,
  deadDocumentException,
  type OpenException,
  purchaseOrderExceptions,
} from './exceptions.ts';

/** Read per kind and round at most: more than an operator takes in, and the next round finds the rest. */
const READ_LIMIT = 100;
const HOUR_MS = 3_600_000;

export interface ExceptionThresholds {
  /** Minutes a storefront's calls must have failed without a break. */
  printServiceFailingMinutes: number;
  /** Refused documents of one buyer within the last hour. */
  refusalsPerHour: number;
  staleAfterSeconds: number;
}

/** The gateway's start, from which an instance that never completed a round counts as overdue. */
export interface RoundFacts {
  startedAt: Date;
  lastRoundAt(): Promise<Date | undefined>;
}

function consoleLink(ctx: GatewayContext, path: string): string {
  return `${ctx.publicUrl}${path}`;
}

const orderLink = (ctx: GatewayContext, poId: string) =>
  consoleLink(ctx, `/admin/ui/orders/${encodeURIComponent(poId)}`);

async function waitingOrders(ctx: GatewayContext): Promise<OpenException[]> {
  const waiting = await ctx.store.orders.listWaiting(READ_LIMIT);
  return waiting.flatMap((po) => purchaseOrderExceptions(po, orderLink(ctx, po.id)));
}

async function deadLetters(ctx: GatewayContext): Promise<OpenException[]> {
  const documents = await ctx.store.outbox.list({ state: 'dead', limit: READ_LIMIT });
  const jobs = await ctx.store.jobs.list({ state: 'dead', limit: READ_LIMIT });
  return [
    ...documents.items.map((message) =>
      deadDocumentException(
        { id: message.poId, buyerId: message.buyerId },
        `${message.kind} after ${message.attempts} attempts`,
        orderLink(ctx, message.poId),
      ),
    ),
    ...jobs.items.map(
      (job): OpenException => ({
        event: 'job_dead',
        subject: `job:${job.id}`,
        cause: 'job_dead',
        summary: `Background job ${job.kind} (${job.key}) was given up after ${job.attempts} attempts`,
        link: consoleLink(ctx, '/admin/ui/dead-letters'),
      }),
    ),
  ];
}

async function overdueRound(
  ctx: GatewayContext,
  round: RoundFacts,
  staleAfterSeconds: number,
): Promise<OpenException[]> {
  const last = await round.lastRoundAt();
  const since = last ?? round.startedAt;
  if (ctx.clock.now().getTime() - since.getTime() <= staleAfterSeconds * 1000) return [];
  return [
    {
      event: 'background_round_overdue',
      subject: 'background-round',
      // One outage, one announcement: the next outage follows another completed round.
      cause: `overdue_since:${since.toISOString()}`,
      summary: `No background round has completed since ${since.toISOString()}: POs, documents to buyers and invoices wait`,
    },
  ];
}

/** The day (UTC) a lasting exception is announced for: at most once a day per subject and kind. */
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

function failingPrintServices(ctx: GatewayContext, minutes: number): OpenException[] {
  return ctx.metrics
    .printApiFailing()
    .filter((outage) => outage.failingForMs >= minutes * 60_000)
    .map((outage) => ({
      event: 'print_service_failing',
      subject: `storefront:${outage.storefrontId}`,
      // Per day, not per run of failures: the run's start is this process's own reading, so two instances
      // (or one restarted) would each announce the same outage; the notification log's key is shared by all.
      cause: `failing_on:${dayOf(ctx.clock.now())}`,
      summary: `Every call to the print service of storefront ${outage.storefrontId} has failed for ${Math.floor(outage.failingForMs / 60_000)} minutes`,
    }));
}

async function refusedBuyers(ctx: GatewayContext, perHour: number): Promise<OpenException[]> {
  const now = ctx.clock.now();
  const recent = await ctx.store.refusals.list({
    from: new Date(now.getTime() - HOUR_MS),
    limit: READ_LIMIT,
  });
  const counts = new Map<string, number>();
  // A refusal that named no configured buyer belongs to nobody an operator could call.
  for (const { buyerId } of recent.items)
    if (buyerId !== undefined) counts.set(buyerId, (counts.get(buyerId) ?? 0) + 1);
  const found: OpenException[] = [];
  for (const [buyerId, count] of counts) {
    if (count < perHour) continue;
    found.push({
      event: 'buyer_refused_repeatedly',
      subject: `buyer:${buyerId}`,
      cause: `refused:${dayOf(now)}`,
      summary: `${count} documents of buyer ${buyerId} were refused within the last hour`,
      link: consoleLink(ctx, `/admin/ui/buyers/${encodeURIComponent(buyerId)}`),
    });
  }
  return found;
}

/**
 * Every exception open now, each key once (a dead document found both as a PO flag and as a dead letter is
 * one exception), in a stable order: the order the sources are read in.
 */
export async function findOpenExceptions(
  ctx: GatewayContext,
  round: RoundFacts,
  thresholds: ExceptionThresholds,
): Promise<OpenException[]> {
  const all = [
    ...(await overdueRound(ctx, round, thresholds.staleAfterSeconds)),
    ...failingPrintServices(ctx, thresholds.printServiceFailingMinutes),
    ...(await waitingOrders(ctx)),
    ...(await deadLetters(ctx)),
    ...(await refusedBuyers(ctx, thresholds.refusalsPerHour)),
  ];
  const seen = new Set<string>();
  return all.filter((exception) => {
    const key = announcementKey(exception);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
