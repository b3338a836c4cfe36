/**
 * The ConfirmationRequests already queued for a purchase order, read back from the documents as they were
 * built (the outbox keeps each forever): which confirmIDs are taken, and which confirmation last spoke for
 * each line of the order. Fulfill.dtd lets a line appear in one confirmation only and a confirmation change
 * only by an `update` restating it whole, so whatever changes a line's status must know both.
 */
import { type ConfirmationRead, readConfirmationRequest } from '../../cxml/index.ts';
import type { OutboxMessage, PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';

/** The confirmations queued on `queueOf`'s queue, oldest first, whatever order they answer. */
export async function sentConfirmations(
  ctx: GatewayContext,
  queueOf: PurchaseOrder,
): Promise<ConfirmationRead[]> {
  const messages: OutboxMessage[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.store.outbox.list({ poId: queueOf.id, limit: 500, ...(cursor && { cursor }) });
    messages.push(...page.items.filter((m) => m.kind === 'confirmation'));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  // The store pages newest first; the record ids ascend with queueing, the clock may not (a frozen one).
  messages.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || Number(a.id) - Number(b.id));
  return messages.map((m) => readConfirmationRequest(m.body));
}

/**
 * A confirmID for a new confirmation: `reference` itself (the print order ids) for the order's first,
 * `reference-2`, `reference-3`, … after it, never one an earlier confirmation carries (an update keeps its
 * original's confirmID, so a reused one would make the buyer file a new confirmation as a version of another).
 */
export function newConfirmID(sent: readonly ConfirmationRead[], reference: string): string {
  const taken = new Set(sent.flatMap((c) => (c.confirmID === undefined ? [] : [c.confirmID])));
  if (!taken.has(reference)) return reference;
  for (let n = taken.size + 1; ; n++) if (!taken.has(`${reference}-${n}`)) return `${reference}-${n}`;
}

/** What the buyer holds about one order's lines, per Fulfill.dtd, after every confirmation sent. */
export interface LineConfirmations {
  /** The order's latest whole-order confirmation rejected it: nothing about a line can follow. */
  readonly rejected: boolean;
  /** The latest version of each confirmation that names lines, by the line numbers it names. */
  readonly ownerOf: ReadonlyMap<number, ConfirmationRead>;
}

/**
 * The standing confirmations of the order whose payloadID is `orderPayloadID`: an `accept`, `except`,
 * `backordered` or `reject` (operation new) discards every earlier one, and each update replaces its
 * confirmation's previous version whole.
 */
export function lineConfirmations(
  sent: readonly ConfirmationRead[],
  orderPayloadID: string,
): LineConfirmations {
  let latest = new Map<string, ConfirmationRead>();
  let rejected = false;
  for (const confirmation of sent) {
    if (confirmation.orderPayloadID !== orderPayloadID) continue;
    const wholeOrder = ['accept', 'except', 'backordered', 'reject'].includes(confirmation.type);
    if (wholeOrder && confirmation.operation === 'new') {
      latest = new Map();
      rejected = confirmation.type === 'reject';
    }
    latest.set(confirmation.confirmID ?? confirmation.payloadID, confirmation);
  }
  const ownerOf = new Map<number, ConfirmationRead>();
  for (const confirmation of latest.values()) {
    for (const item of confirmation.items) ownerOf.set(item.lineNumber, confirmation);
  }
  return { rejected, ownerOf };
}
