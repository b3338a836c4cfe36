/**
 * Telling the buyer that some lines of an order now stand otherwise — rejected because their print order
 * was cancelled, or (a status notice) given a shipment date — as Fulfill.dtd allows: a line appears in one
 * confirmation only, so a line an earlier confirmation named is changed by an `operation="update"` of that
 * confirmation (same confirmID, version + 1, a DocumentReference to the version it replaces, every item
 * again), and lines no confirmation named yet go into a new `detail` with a confirmID of its own.
 */
import {
  buildConfirmationRequest,
  type ConfirmationItemInput,
  type ConfirmationRead,
  type ConfirmationStatusInput,
} from '../../cxml/index.ts';
import type { PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import {
  confirmationWithheld,
  enqueue,
  envelope,
  orderReference,
  withholdConfirmation,
} from './buyer-documents.ts';
import { lineConfirmations, newConfirmID, sentConfirmations } from './sent-confirmations.ts';

export interface LineStatus {
  readonly lineNumber: number;
  readonly quantity: string;
  readonly unitOfMeasure: string;
  /** The line's one status, for its whole quantity. */
  readonly status: ConfirmationStatusInput;
}

export interface LineStatusChange {
  readonly order: PurchaseOrder;
  readonly lines: readonly LineStatus[];
  /**
   * `decision`: what the lines now are, whatever was confirmed before (a cancellation). `notice`: news
   * about lines still plainly accepted (a shipment date); a line confirmed otherwise — rejected, on changed
   * terms, under review — keeps that status, since a notice must not turn it back into an accept.
   */
  readonly kind: 'decision' | 'notice';
  /** The dedupe key of the change: each document it queues is keyed by it, so a retried step queues none twice. */
  readonly dedupeKey: string;
  /** What a new confirmID is made of (`newConfirmID`). */
  readonly reference: string;
  readonly comments: string;
}

/** What came of a change: documents queued, nothing new to say, withheld by the buyer, or no URL to send to. */
export type LineStatusOutcome = 'queued' | 'unchanged' | 'withheld' | 'no_url';

const plainlyAccepted = (item: ConfirmationItemInput | undefined) =>
  item?.statuses?.every((s) => s.type === 'accept' && s.unitPrice === undefined && s.itemIn === undefined) ??
  true;

const instant = (date: Date | string | undefined) =>
  date === undefined ? undefined : new Date(date).getTime();

/** Whether the buyer already holds exactly this status for the line. */
function alreadySays(item: ConfirmationItemInput | undefined, line: LineStatus): boolean {
  const [held, ...more] = item?.statuses ?? [];
  if (held === undefined || more.length > 0) return false;
  const wanted = line.status;
  return (
    held.type === wanted.type &&
    held.unitPrice === undefined &&
    held.itemIn === undefined &&
    (held.comments ?? '') === (wanted.comments ?? '') &&
    instant(held.shipmentDate) === instant(wanted.shipmentDate) &&
    instant(held.deliveryDate) === instant(wanted.deliveryDate)
  );
}

const itemOf = (line: LineStatus): ConfirmationItemInput => ({
  lineNumber: line.lineNumber,
  quantity: line.quantity,
  unitOfMeasure: line.unitOfMeasure,
  statuses: [line.status],
});

interface Planned {
  /** The confirmations to update, each with its items as they will stand. */
  readonly updates: ReadonlyMap<ConfirmationRead, ConfirmationItemInput[]>;
  /** Lines no standing confirmation names. */
  readonly fresh: ConfirmationItemInput[];
}

function plan(change: LineStatusChange, ownerOf: ReadonlyMap<number, ConfirmationRead>): Planned {
  const updates = new Map<ConfirmationRead, ConfirmationItemInput[]>();
  const fresh: ConfirmationItemInput[] = [];
  for (const line of change.lines) {
    const owner = ownerOf.get(line.lineNumber);
    if (owner === undefined) {
      fresh.push(itemOf(line));
      continue;
    }
    const held = owner.items.find((item) => item.lineNumber === line.lineNumber);
    if (alreadySays(held, line) || (change.kind === 'notice' && !plainlyAccepted(held))) continue;
    const items = updates.get(owner) ?? [...owner.items];
    updates.set(
      owner,
      items.map((item) => (item.lineNumber === line.lineNumber ? itemOf(line) : item)),
    );
  }
  return { updates, fresh };
}

/**
 * Queues what the buyer must hear for `change`: an update of each standing confirmation that named a
 * changed line, and a new `detail` for lines none named. Nothing when the order was rejected whole, or the
 * buyer already holds these statuses. A buyer's OCInstruction notAllowed withholds it all: a notice
 * quietly, a decision before an operator (as `queueConfirmation` does).
 */
export async function queueLineStatuses(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  change: LineStatusChange,
): Promise<LineStatusOutcome> {
  const { order } = change;
  const sent = await sentConfirmations(ctx, order);
  const standing = lineConfirmations(sent, order.payloadId);
  if (standing.rejected) return 'unchanged';
  const { updates, fresh } = plan(change, standing.ownerOf);
  if (updates.size === 0 && fresh.length === 0) return 'unchanged';
  const withheld = confirmationWithheld(order);
  if (withheld !== undefined) {
    await withholdConfirmation(
      ctx,
      {
        type: 'detail',
        queueOf: order,
        dedupeKey: change.dedupeKey,
        comments: change.comments,
        ...(change.kind === 'notice' && { quietIfWithheld: true as const }),
      },
      withheld,
    );
    return 'withheld';
  }
  const queue = (dedupeKey: string, build: (base: ReturnType<typeof envelope>) => string) =>
    enqueue(ctx, buyer, {
      queueOf: order,
      kind: 'confirmation',
      dedupeKey,
      build: () => build(envelope(ctx, buyer, order)),
    });
  let queued = true;
  for (const [previous, items] of updates) {
    const confirmID = previous.confirmID ?? previous.payloadID;
    queued &&= await queue(`${change.dedupeKey}:${confirmID}`, (base) =>
      buildConfirmationRequest({
        ...base,
        ...orderReference(order),
        type: previous.type,
        operation: 'update',
        amends: previous.payloadID,
        confirmID,
        version: (previous.version ?? 1) + 1,
        noticeDate: base.timestamp,
        comments: change.comments,
        items,
      }),
    );
  }
  if (fresh.length > 0) {
    const confirmID = newConfirmID(sent, change.reference);
    queued &&= await queue(change.dedupeKey, (base) =>
      buildConfirmationRequest({
        ...base,
        ...orderReference(order),
        type: 'detail',
        confirmID,
        version: 1,
        noticeDate: base.timestamp,
        comments: change.comments,
        items: fresh,
      }),
    );
  }
  return queued ? 'queued' : 'no_url';
}
