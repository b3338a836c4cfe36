/**
 * The operator's decision on a buyer's cancellation of a shipped or invoiced order (flag
 * `cancel_after_ship`, see `../orders/cancel-after-ship.ts`): `cancel` carries it out — the print orders
 * set to their storefront's cancel status, the PO and the cancellation `cancelled`, the buyer's lines
 * `reject`ed as asked and the invoices credited by credit memo (unless the buyer's ControlKeys allow no
 * invoice document) — or `refuse` keeps the order: the lines `accept`ed again with the operator's note.
 * Either answer amends the "under review" confirmation the buyer holds.
 */
import type { PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { queueLineStatuses } from '../documents/confirmation-updates.ts';
import { GatewayError } from '../http/errors.ts';
import { linesWithStatus } from '../orders/cancel-after-ship.ts';
import { FLAG } from '../orders/po-record.ts';
import { syncPrintOrder } from '../orders/print-order-sync.ts';
import { cancelPrintOrder } from '../orders/process-order.ts';

/** The buyer's cancellation records waiting on `original`'s decision. */
async function waitingCancellations(ctx: GatewayContext, original: PurchaseOrder): Promise<PurchaseOrder[]> {
  const found: PurchaseOrder[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.store.orders.list({
      state: 'needs_operator',
      buyerId: original.buyerId,
      limit: 500,
      ...(cursor && { cursor }),
    });
    found.push(
      ...page.items.filter(
        (po) =>
          po.type === 'delete' && po.orderId === original.orderId && po.flags.includes(FLAG.cancelAfterShip),
      ),
    );
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return found;
}

const without = (flags: readonly string[], flag: string) => flags.filter((f) => f !== flag);

export async function decideCancellation(
  ctx: GatewayContext,
  original: PurchaseOrder,
  decision: 'cancel' | 'refuse',
  note: string,
): Promise<PurchaseOrder> {
  if (original.type !== 'new' || !original.flags.includes(FLAG.cancelAfterShip)) {
    throw new GatewayError(
      'conflict',
      `Purchase order record ${original.id} has no cancellation waiting for a decision.`,
    );
  }
  const printOrders = await ctx.store.printOrders.listByPo(original.id);
  const cancellations = await waitingCancellations(ctx, original);
  const buyer = ctx.buyer(original.buyerId);
  const reference = original.printOrderIds.join(',') || `PG-${original.id}`;
  if (decision === 'refuse') {
    await ctx.store.orders.patch(original.id, {
      state: 'ordered',
      flags: without(original.flags, FLAG.cancelAfterShip),
      lastError: `Cancellation refused by an operator: ${note}`,
    });
    for (const cancellation of cancellations) {
      await ctx.store.orders.patch(cancellation.id, {
        state: 'failed',
        flags: without(cancellation.flags, FLAG.cancelAfterShip),
        lastError: `Refused by an operator: ${note}`,
      });
    }
    await queueLineStatuses(ctx, buyer, {
      order: original,
      kind: 'decision',
      dedupeKey: `cancel-refused:${original.id}`,
      reference,
      comments: `The cancellation of order ${original.orderId} is refused: ${note}`,
      lines: linesWithStatus(original, { type: 'accept', comments: `Cancellation refused: ${note}` }),
    });
    ctx.logger.info('cancellation refused by an operator', { po: original.id });
    return (await ctx.store.orders.get(original.id)) ?? original;
  }
  const missing = printOrders.filter((p) => ctx.storefront(p.storefrontId).cancelStatus === undefined);
  if (missing.length > 0) {
    throw new GatewayError(
      'conflict',
      `No cancel status is configured for the storefront of print order ${missing.map((p) => p.printOrderId).join(', ')}; ` +
        'cancel it by hand and mark the PO handled.',
    );
  }
  const [cancellation] = cancellations;
  for (const printOrder of printOrders) {
    const cancelStatus = ctx.storefront(printOrder.storefrontId).cancelStatus;
    if (cancelStatus !== undefined)
      await cancelPrintOrder(ctx, printOrder, cancellation ?? original, cancelStatus);
  }
  // Cancelled before the print orders are looked at again, so that their cancel status is not taken for
  // the supplier's own cancellation.
  await ctx.store.orders.patch(original.id, {
    state: 'cancelled',
    flags: without(original.flags, FLAG.cancelAfterShip),
    lastError: `Cancelled by an operator at the buyer's request: ${note}`,
  });
  for (const waiting of cancellations) {
    await ctx.store.orders.patch(waiting.id, {
      state: 'cancelled',
      flags: without(waiting.flags, FLAG.cancelAfterShip),
    });
  }
  await queueLineStatuses(ctx, buyer, {
    order: original,
    kind: 'decision',
    dedupeKey: `cancel-accepted:${original.id}`,
    reference,
    comments: `Order ${original.orderId} is cancelled as requested: ${note}`,
    lines: linesWithStatus(original, {
      type: 'reject',
      comments: `Cancelled at the buyer's request: ${note}`,
    }),
  });
  // The credit memos of what was invoiced, now rather than at the next webhook.
  for (const printOrder of printOrders)
    await syncPrintOrder(ctx, printOrder.storefrontId, printOrder.printOrderId);
  ctx.logger.info('cancellation carried out by an operator', { po: original.id });
  return (await ctx.store.orders.get(original.id)) ?? original;
}
