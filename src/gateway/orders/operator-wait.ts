/**
 * A PO waiting for an operator over one matter (a held invoice, a document given up): the matter is a
 * flag kept as the record and, while the PO waits over it, a `lastError` beginning with the matter's
 * prefix. Whatever puts a PO in the queue or takes it out again goes through here, so a PO already waiting
 * over something else never loses that reason, and one an action moved on is told again.
 */
import { StoreError } from '../../store/store-error.ts';
import type { OrderState, PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { withFlags } from './po-record.ts';

/** One matter a PO can wait for an operator over. */
export interface OperatorMatter {
  flag: string;
  /** How the PO's lastError begins while it waits over this matter. */
  prefix: string;
  /** The states a PO leaves for `needs_operator` over it; a PO waiting over something else stays so. */
  from: readonly OrderState[];
}

/**
 * Flags the PO with the matter (once) and, with a `reason` (text beginning with the matter's prefix), puts
 * it in the operators' queue unless it already waits there over something else: that reason stays, and the
 * flag says this waits too. False when nothing changed (already flagged, and told or nothing to tell). Read
 * afresh: one look can flag twice, and a stale copy would drop a flag.
 */
export async function awaitOperator(
  ctx: GatewayContext,
  poId: string,
  matter: OperatorMatter,
  reason?: string,
): Promise<boolean> {
  const po = await ctx.store.orders.get(poId);
  if (po === undefined) return false;
  const tells =
    reason !== undefined &&
    (matter.from.includes(po.state) || po.lastError?.startsWith(matter.prefix) === true);
  const toldAlready = po.state === 'needs_operator' && po.lastError === reason;
  if (po.flags.includes(matter.flag) && (!tells || toldAlready)) return false;
  await ctx.store.orders.update(po.id, {
    flags: withFlags(po.flags, [matter.flag]),
    ...(tells && { state: 'needs_operator', lastError: reason }),
  });
  return true;
}

/** How a wait ends: what still keeps the PO waiting, where it goes when nothing does, and what it says. */
export interface OperatorWaitEnd {
  /** The reason the PO still waits over the same matter (another held invoice, say), if any. */
  stillWaiting(po: PurchaseOrder): Promise<string | undefined>;
  /** Where the PO goes once nothing of the matter is left. */
  settledState(po: PurchaseOrder): OrderState;
  /** The PO's lastError afterwards, from the reason it waited for. */
  settledText(waitedFor: string): string;
}

/**
 * Takes a PO out of the operators' queue once the matter it waited for is settled, or names what of the
 * matter is still open. A PO waiting over something else (its lastError says so) is left alone, and so is
 * one an operator acted on meanwhile: theirs is the later word. The flag stays as the record.
 */
export async function endOperatorWait(
  ctx: GatewayContext,
  poId: string,
  matter: Pick<OperatorMatter, 'prefix'>,
  end: OperatorWaitEnd,
): Promise<void> {
  const po = await ctx.store.orders.get(poId);
  const waitedFor = po?.lastError;
  if (po?.state !== 'needs_operator' || waitedFor?.startsWith(matter.prefix) !== true) return;
  const still = await end.stillWaiting(po);
  if (still === waitedFor) return;
  try {
    await ctx.store.orders.update(
      po.id,
      still !== undefined
        ? { lastError: still }
        : { state: end.settledState(po), lastError: end.settledText(waitedFor) },
      { ifState: ['needs_operator'] },
    );
  } catch (error) {
    if (!(error instanceof StoreError && error.code === 'conflict')) throw error;
  }
}
