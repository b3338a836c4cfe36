/**
 * A buyer's cancellation (OrderRequest `type="delete"`) of an order that has already shipped or been
 * invoiced is not carried out by itself: voiding goods on their way, or crediting an invoice, is a
 * decision. The original PO and the cancellation wait for an operator (flag `cancel_after_ship`), the
 * print orders keep their status, no credit memo goes out, and the buyer hears that the cancellation is
 * under review: its lines `unknown` (Fulfill.dtd's status for "being researched"), not `reject`.
 */
import { isPrintApiError } from '../../print-api/index.ts';
import type { PurchaseOrder, TrackedPrintOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { type LineStatus, queueLineStatuses } from '../documents/confirmation-updates.ts';
import { upstreamError } from '../http/errors.ts';
import { FLAG, poDocument, withFlags } from './po-record.ts';

/**
 * What of the order has gone beyond recall, for the operator to read: its print orders with a shipment
 * shipped (as the print service says now), and its invoices; undefined when nothing has.
 */
export async function deliveredPart(
  ctx: GatewayContext,
  original: PurchaseOrder,
  printOrders: readonly TrackedPrintOrder[],
): Promise<string | undefined> {
  const parts: string[] = [];
  for (const printOrder of printOrders) {
    try {
      const order = await ctx
        .printApiFor(ctx.storefront(printOrder.storefrontId))
        .getOrder(printOrder.printOrderId);
      if (order.shipments.some((s) => s.shipped_on !== null))
        parts.push(`print order ${printOrder.printOrderId} has shipped`);
    } catch (error) {
      if (isPrintApiError(error) && error.code === 'not_found') continue;
      throw upstreamError(error, `read print order ${printOrder.printOrderId}`);
    }
  }
  const invoices = (await ctx.store.invoices.listByPo(original.id)).filter((i) => i.purpose === 'standard');
  if (invoices.length > 0) parts.push(`invoice ${invoices.map((i) => i.invoiceId).join(', ')} was sent`);
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** The order's produced lines, each with one status for its whole quantity. */
export function linesWithStatus(order: PurchaseOrder, status: LineStatus['status']): LineStatus[] {
  return poDocument(order).lines.map((line) => ({
    lineNumber: line.lineNumber,
    quantity: line.quantity,
    unitOfMeasure: line.unitOfMeasure,
    status,
  }));
}

/** Parks the cancellation of an order that `delivered` describes, and tells the buyer it is under review. */
export async function parkCancelAfterShip(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  cancellation: PurchaseOrder,
  original: PurchaseOrder,
  delivered: string,
): Promise<void> {
  const reason =
    `The buyer cancelled purchase order ${original.orderId} (OrderRequest type delete, payloadID ` +
    `${cancellation.payloadId}) after ${delivered}. Nothing was cancelled or credited: cancel and credit it, ` +
    'or refuse the cancellation with a note to the buyer.';
  await ctx.store.orders.patch(original.id, {
    state: 'needs_operator',
    flags: withFlags(original.flags, [FLAG.cancelAfterShip]),
    lastError: reason,
  });
  const comments =
    `The cancellation of order ${original.orderId} was received after ${delivered}. It is under review; ` +
    'until the supplier confirms otherwise, the order stands as confirmed.';
  await queueLineStatuses(ctx, buyer, {
    order: original,
    kind: 'decision',
    dedupeKey: `cancel-review:${cancellation.id}`,
    reference: original.printOrderIds.join(',') || `PG-${original.id}`,
    comments,
    lines: linesWithStatus(original, { type: 'unknown', comments: 'Cancellation under review.' }),
  });
  await ctx.store.orders.patch(cancellation.id, {
    state: 'needs_operator',
    flags: withFlags(cancellation.flags, [FLAG.cancelAfterShip]),
    lastError: `Waits for the operator's decision on purchase order record ${original.id}. ${reason}`,
  });
  ctx.logger.info('cancellation of a shipped or invoiced order waits for an operator', {
    po: original.id,
    cancellation: cancellation.id,
  });
}
