/**
 * What an operator does with a PO the gateway parked for them (`needs_operator`), besides a retry:
 *
 * - attach print order N: the order the operator found for a PO whose create outcome was unknown (or made
 *   by hand) becomes the PO's print order, once verified to carry the PO number, and the PO's job carries on
 *   with it — history note, `accept` to the buyer, tracking — without creating another;
 * - mark handled: the PO leaves the operator's queue with the operator's note and no buyer document (but
 *   for a held invoice, which waits for its own actions: invoice or waive, invoicing.ts).
 *
 * A retry of a PO whose create outcome is unknown is refused (process-order.ts `retryPurchaseOrder`): it
 * could print the order twice.
 */
import type { PurchaseOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError, StaleRecordError } from '../http/errors.ts';
import { openHolds, parkedForHolds } from '../invoices/invoice-holds.ts';
import { FLAG, ownerGroups, poDocument, withFlags } from '../orders/po-record.ts';
import { requeueProcessing } from '../orders/process-order.ts';
import { readPrintOrder } from '../orders/read-print-order.ts';
import type { StaleGuard } from './admin-schemas.ts';

const OPERATOR_FLAG = {
  /** The operator named the print order of a PO (attach). */
  attached: 'print_order_attached',
  /** The operator closed the PO by hand (mark handled). */
  handled: 'handled_by_operator',
} as const;

/**
 * Attaches print order `printOrderId` to a parked `new` PO as the print order of its next owner group (the
 * one whose create was cut off), after checking that the print service's order carries the PO number as
 * its integration_id or po_number and is no other PO's; then the PO's job runs again and finds it there.
 */
export async function attachPrintOrder(
  ctx: GatewayContext,
  order: PurchaseOrder,
  printOrderId: number,
): Promise<PurchaseOrder> {
  const refuse = (why: string) => new GatewayError('conflict', why);
  if (order.type !== 'new') {
    throw refuse(
      `Purchase order record ${order.id} is a ${order.type} request; only a new PO has print orders.`,
    );
  }
  if (order.state !== 'needs_operator' && order.state !== 'failed') {
    throw refuse(
      `Purchase order record ${order.id} is ${order.state}; a print order is attached only to a PO ` +
        'waiting for an operator or failed.',
    );
  }
  const group = ownerGroups(poDocument(order).lines)[order.printOrderIds.length];
  if (group === undefined) {
    throw refuse(
      `Purchase order record ${order.id} has all its print orders (${order.printOrderIds.join(', ')}).`,
    );
  }
  // A test PO's print order can only be one of its own test storefront (none without one).
  if (order.deploymentMode === 'test' && order.storefrontId !== group.storefrontId) {
    throw refuse(
      `Purchase order record ${order.id} is a test order ` +
        (order.storefrontId === undefined
          ? 'without a test storefront: it is never sent to a print service, so it has no print order.'
          : `on test storefront "${order.storefrontId}": a print order of storefront "${group.storefrontId}" is not its own.`),
    );
  }
  const found = await readPrintOrder(ctx, group.storefrontId, printOrderId);
  if (found.integration_id !== order.orderId && found.po_number !== order.orderId) {
    const carried = found.integration_id || found.po_number || '';
    throw refuse(
      `Print order ${printOrderId} carries PO number "${carried}", not "${order.orderId}": it is not the ` +
        `print order of purchase order record ${order.id}.`,
    );
  }
  const storefront = ctx.storefront(group.storefrontId);
  const tracked = await ctx.store.printOrders.get(storefront.id, printOrderId);
  if (tracked !== undefined) {
    throw refuse(
      `Print order ${printOrderId} is already the print order of purchase order record ${tracked.poId}.`,
    );
  }
  await ctx.store.printOrders.add({ storefrontId: storefront.id, printOrderId, poId: order.id });
  const updated = await ctx.store.orders.update(
    order.id,
    {
      state: 'received',
      printOrderIds: [...order.printOrderIds, printOrderId],
      flags: withFlags(
        order.flags.filter((f) => f !== FLAG.uncertainPrintOrder),
        [OPERATOR_FLAG.attached],
      ),
      createAttempts: [],
    },
    { ifState: [order.state] },
  );
  if (updated === undefined)
    throw refuse(`Purchase order record ${order.id} changed meanwhile; read it again.`);
  await requeueProcessing(ctx, updated);
  ctx.logger.info('print order attached by an operator', { po: order.id, printOrder: printOrderId });
  return updated;
}

/**
 * Closes a PO waiting for an operator who has dealt with it by hand: `ordered` when it has print orders (they
 * stay tracked), else `cancelled` (nothing for the gateway to follow). The buyer gets no document.
 */
export async function markHandled(
  ctx: GatewayContext,
  order: PurchaseOrder,
  note: string,
): Promise<PurchaseOrder> {
  if (order.state !== 'needs_operator') {
    throw new GatewayError(
      'conflict',
      `Purchase order record ${order.id} is ${order.state}; only a PO waiting for an operator can be marked handled.`,
    );
  }
  // An invoice waiting for the service's number that the operator settled by hand must not wait again on
  // the next look; a held invoice is settled only by its own actions (invoice, waive), so it keeps the PO
  // waiting for them.
  const numberWaits = order.flags.includes(FLAG.invoiceNumberMissing);
  const flags = withFlags(order.flags, [
    OPERATOR_FLAG.handled,
    ...(numberWaits ? [FLAG.invoicesSettledByOperator] : []),
  ]);
  const held = await openHolds(ctx, order.id);
  const updated = await ctx.store.orders.update(
    order.id,
    held.length > 0
      ? parkedForHolds({ flags }, held)
      : {
          state: order.printOrderIds.length > 0 ? 'ordered' : 'cancelled',
          lastError: `Handled by an operator: ${note}`,
          flags,
        },
    { ifState: ['needs_operator'] },
  );
  if (updated === undefined) {
    throw new GatewayError('conflict', `Purchase order record ${order.id} changed meanwhile; read it again.`);
  }
  ctx.logger.info('purchase order marked handled by an operator', { po: order.id });
  return updated;
}

/** Refuses an action on a PO that changed since the operator saw it (see `StaleGuard`). */
export function refuseIfStale(order: PurchaseOrder, guard: StaleGuard): void {
  const stateMoved = guard.expectedState !== undefined && guard.expectedState !== order.state;
  const timeMoved =
    guard.expectedUpdatedAt !== undefined &&
    Date.parse(guard.expectedUpdatedAt) !== order.updatedAt.getTime();
  if (stateMoved || timeMoved) {
    throw new StaleRecordError(
      `Purchase order ${order.id} changed meanwhile: it is now ${order.state} (updated ${order.updatedAt.toISOString()}); nothing was done.`,
      { state: order.state, updatedAt: order.updatedAt },
    );
  }
}
