/**
 * Posting queued documents to buyers, at least once: a message is delivered when the buyer answers with
 * a cXML Status in the 2xx range; anything else — a network failure, a non-2xx HTTP status, an answer
 * that is not cXML, a cXML 4xx or 5xx — is tried again with exponential backoff, the very same bytes
 * (same payloadID, which the buyer dedupes on), until `orders.outboxMaxAttempts`; then it is dead-lettered
 * for an operator to look at and retry, and its PO flagged `document_dead` (waiting for an operator, unless
 * it waits for one already over something else) until the document is delivered. A document is stored with our SharedSecret redacted: each post puts
 * the secret configured at that moment back in, so a retry or a resend after a rotation carries the new one.
 */
import { withSharedSecret } from '../../cxml/index.ts';
import type { OutboxMessage } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { awaitOperator, endOperatorWait, type OperatorMatter } from '../orders/operator-wait.ts';
import { FLAG } from '../orders/po-record.ts';
import { retryDelayMs } from './retry-delay.ts';

/** How long one post may take before it counts as failed. */
export const POST_TIMEOUT_MS = 30_000;
/** Outbox backoff: 1 minute doubling up to 6 hours, the hourly-retry window cXML suggests. */
const OUTBOX_BACKOFF = { baseMs: 60_000, maxMs: 6 * 3_600_000 } as const;

export interface CxmlAnswerStatus {
  code: number;
  text: string;
}

/** The Status of a cXML Response, read leniently (any attribute order, either quote). */
export function readResponseStatus(xml: string): CxmlAnswerStatus | undefined {
  if (!/<cXML\b/i.test(xml)) return undefined;
  const element = /<Status\b([^>]*)>/.exec(xml)?.[1];
  if (element === undefined) return undefined;
  const code = /\bcode\s*=\s*["']\s*(\d{3})\s*["']/.exec(element)?.[1];
  if (code === undefined) return undefined;
  const text = /\btext\s*=\s*"([^"]*)"|\btext\s*=\s*'([^']*)'/.exec(element);
  return { code: Number(code), text: text?.[1] ?? text?.[2] ?? '' };
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'dead';

async function post(ctx: GatewayContext, message: OutboxMessage): Promise<string | undefined> {
  let response: Response;
  try {
    response = await ctx.fetch(message.url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=UTF-8' },
      body: withSharedSecret(message.body, ctx.config.supplier.sharedSecret),
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
  } catch (error) {
    return `not reached: ${error instanceof Error ? error.message : String(error)}`;
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) return `HTTP ${response.status}`;
  const status = readResponseStatus(text);
  if (status === undefined) return `HTTP ${response.status} without a cXML Status`;
  if (status.code >= 200 && status.code < 300) return undefined;
  return `cXML Status ${status.code} ${status.text}`.trim();
}

/**
 * Posts one claimed message and records the outcome under its claim.
 *
 * @example
 * for (const message of await store.outbox.claimDue(now, 120_000, 10)) await deliverMessage(ctx, message);
 */
export async function deliverMessage(ctx: GatewayContext, message: OutboxMessage): Promise<DeliveryOutcome> {
  const outcome = await postAndRecord(ctx, message);
  ctx.metrics.count('punchgate_buyer_document_posts_total', { kind: message.kind, outcome });
  return outcome;
}

async function postAndRecord(ctx: GatewayContext, message: OutboxMessage): Promise<DeliveryOutcome> {
  const failure = await post(ctx, message);
  const { outbox } = ctx.store;
  if (failure === undefined) {
    await outbox.markDelivered(message);
    ctx.logger.info('document delivered to buyer', { buyer: message.buyerId, dedupeKey: message.dedupeKey });
    await settleDeadDocument(ctx, message);
    return 'delivered';
  }
  if (message.attempts >= ctx.config.orders.outboxMaxAttempts) {
    await outbox.markDead(message, failure);
    ctx.logger.error('document dead-lettered', {
      buyer: message.buyerId,
      dedupeKey: message.dedupeKey,
      error: failure,
    });
    await flagDeadDocument(ctx, message, failure);
    return 'dead';
  }
  const next = new Date(ctx.clock.now().getTime() + retryDelayMs(message.attempts, OUTBOX_BACKOFF));
  await outbox.markRetry(message, failure, next);
  ctx.logger.warn('document delivery failed; will retry', {
    buyer: message.buyerId,
    dedupeKey: message.dedupeKey,
    attempt: message.attempts,
    error: failure,
  });
  return 'retry';
}

/** How the PO's lastError begins while one of its documents is a dead letter. */
const DOCUMENT_DEAD = 'Document to the buyer given up: ';

/** A PO with a document given up; one still ordering or cancelled goes to the operators' queue. */
const DEAD_DOCUMENT: OperatorMatter = {
  flag: FLAG.documentDead,
  prefix: DOCUMENT_DEAD,
  from: ['ordered', 'cancelled'],
};

/**
 * Flags the PO of a document given up and, unless it waits for an operator over something else already
 * (that reason stays; the flag says this waits too), puts it in the operators' queue with the reason.
 */
async function flagDeadDocument(ctx: GatewayContext, message: OutboxMessage, failure: string): Promise<void> {
  const reason = `${DOCUMENT_DEAD}the ${message.kind} document ${message.dedupeKey} after ${message.attempts} attempts (${failure}). Fix the cause, then send it again from the dead letters.`;
  await awaitOperator(ctx, message.poId, DEAD_DOCUMENT, reason);
}

/**
 * Once a document given up was sent after all (an operator moved it back), its PO leaves the operators'
 * queue if that was all it waited for and no other document of it is dead. The flag stays as the record.
 */
async function settleDeadDocument(ctx: GatewayContext, message: OutboxMessage): Promise<void> {
  // A document never given up has no wait to end (a dead letter keeps its last error when it is sent
  // again): reading its PO after every delivery read a 5,000-line PO's 7 MB for nothing.
  if (message.lastError === undefined) return;
  return endOperatorWait(ctx, message.poId, DEAD_DOCUMENT, {
    stillWaiting: async (po) => {
      const stillDead = await ctx.store.outbox.list({ poId: po.id, state: 'dead', limit: 1 });
      return stillDead.items.length > 0 ? po.lastError : undefined;
    },
    settledState: (po) => (po.printOrderIds.length > 0 || po.type !== 'new' ? 'ordered' : 'cancelled'),
    settledText: (waitedFor) => `Delivered after it was given up: ${waitedFor}`,
  });
}
