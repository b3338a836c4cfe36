/**
 * Following a print order after it was placed: whatever tells us something may have changed — a webhook
 * delivery, or the reconciliation poll that catches the deliveries the print service loses "silently" —
 * ends in one place, `syncPrintOrder`, which reads the order as it is now (`GET /order/{id}`) and queues
 * what the buyer has not been told yet: the lines of a print order the supplier cancelled rejected, a
 * status notice for buyers with `confirmDetails` (`print-order-confirmations.ts`), one ShipNoticeRequest per shipment that has shipped, with its own lines, and the
 * invoices the buyer's settings make due (`../invoices/invoicing.ts`).
 */
import type { Order } from '../../../schemas/print-api.ts';
import { isPrintApiError } from '../../print-api/index.ts';
import type { PurchaseOrder, TrackedPrintOrder, TrackedPrintOrderPatch } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { queueShipNotice } from '../documents/buyer-documents.ts';
import { shipNoticeCarrier } from '../documents/ship-notice-carrier.ts';
import { upstreamError } from '../http/errors.ts';
import { awaitsCreditOnCancel, invoicePrintOrder } from '../invoices/invoicing.ts';
import { FLAG, groupOfPrintOrder, withFlags } from './po-record.ts';
import {
  confirmCancelledPrintOrder,
  isCancelStatus,
  noticeStatusChange,
} from './print-order-confirmations.ts';
import { shipmentLines } from './print-order-lines.ts';

export const SYNC_PRINT_ORDER = 'sync_print_order';
export const RECONCILE = 'reconcile';

function nonEmpty(text: string | null | undefined): string | undefined {
  return text === null || text === undefined || text.trim() === '' ? undefined : text.trim();
}

/**
 * Tracking numbers as the service writes them: one, or several separated by commas or semicolons. White
 * space is not a separator: carriers print their numbers in groups ("1Z 999 AA1 01 2345 6784" is one UPS
 * number), and each number must reach the buyer as one ShipmentIdentifier.
 */
export function splitTrackingNumbers(text: string | null): string[] {
  return (text ?? '')
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

async function flagOrder(
  ctx: GatewayContext,
  po: PurchaseOrder,
  flag: string,
  lastError: string,
): Promise<void> {
  if (po.flags.includes(flag)) return;
  await ctx.store.orders.update(po.id, {
    flags: withFlags(po.flags, [flag]),
    lastError,
    ...(po.state === 'ordered' && { state: 'needs_operator' }),
  });
}

/**
 * Queues a notice for each shipment shipped since the last look; answers the shipments now dealt with and
 * whether one waits for a confirmation to be delivered first (the buyer's OCInstruction requiredBeforeASN):
 * a waiting shipment is not counted as notified, so a later look (the reconciliation) sends it.
 */
async function queueShipments(
  ctx: GatewayContext,
  buyer: ResolvedBuyer | undefined,
  po: PurchaseOrder,
  tracked: TrackedPrintOrder,
  order: Order,
): Promise<{ notified: number[]; waiting: boolean }> {
  const notified = [...tracked.shipmentsNotified];
  const group = groupOfPrintOrder(po, tracked.printOrderId);
  const shipped = order.shipments
    .filter((s) => s.shipped_on !== null && !notified.includes(s.index))
    .sort((a, b) => a.index - b.index);
  let waiting = false;
  for (const shipment of shipped) {
    const lines = group === undefined ? [] : shipmentLines(order, shipment.index, group);
    if (buyer !== undefined && lines.length > 0) {
      const primary = shipment.index === 1;
      const trackingNumbers = splitTrackingNumbers(shipment.tracking_numbers);
      const provider =
        nonEmpty(shipment.provider) ?? (primary ? nonEmpty(order.shipping_provider) : undefined);
      const service = nonEmpty(shipment.service) ?? (primary ? nonEmpty(order.shipping_service) : undefined);
      const carrier = shipNoticeCarrier(ctx.storefront(tracked.storefrontId).carriers, {
        ...(provider !== undefined && { provider }),
        ...(service !== undefined && { service }),
        tracked: trackingNumbers.length > 0,
      });
      const outcome = await queueShipNotice(ctx, buyer, tracked.storefrontId, {
        order: po,
        printOrderId: tracked.printOrderId,
        shipmentIndex: shipment.index,
        ...(shipment.shipped_on !== null && { shipmentDate: shipment.shipped_on }),
        ...(carrier !== undefined && { carrier }),
        ...(service !== undefined && { service }),
        trackingNumbers,
        lines,
      });
      if (outcome === 'waiting') {
        waiting = true;
        continue;
      }
    } else {
      ctx.logger.warn('shipment not reported: no PO lines match its items', {
        po: po.id,
        printOrder: tracked.printOrderId,
        shipment: shipment.index,
      });
    }
    notified.push(shipment.index);
  }
  return { notified, waiting };
}

/**
 * Compares the print order as it is now with what was last seen, queues what the buyer should hear, and
 * records what was seen. `order` undefined means the service no longer has it.
 */
async function observePrintOrder(
  ctx: GatewayContext,
  tracked: TrackedPrintOrder,
  order: Order | undefined,
): Promise<void> {
  const po = await ctx.store.orders.get(tracked.poId);
  // Until the PO's job has confirmed it, the job owns the print order; the next look will catch up.
  if (po === undefined || !tracked.confirmed) return;
  const now = ctx.clock.now();
  const key = [tracked.storefrontId, tracked.printOrderId] as const;
  if (order === undefined || order.is_deleted) {
    await ctx.store.printOrders.update(...key, {
      state: 'closed',
      lastStatus: 'deleted',
      lastCheckedAt: now,
    });
    if (po.state !== 'cancelled') {
      await flagOrder(
        ctx,
        po,
        FLAG.printOrderDeleted,
        `Print order ${tracked.printOrderId} was deleted on the print service.`,
      );
    }
    return;
  }
  const buyer = ctx.buyers.byId(po.buyerId);
  const patch: TrackedPrintOrderPatch = { lastCheckedAt: now };
  const cancelled = isCancelStatus(ctx, tracked.storefrontId, order.status);
  // Flagged before the buyer is told, so that a confirmation the buyer forbids adds its note to the flag's
  // reason rather than being overwritten by it.
  if (cancelled && po.state !== 'cancelled') {
    await flagOrder(
      ctx,
      po,
      FLAG.cancelledBySupplier,
      `Print order ${tracked.printOrderId} was set to "${order.status}" on the print service.`,
    );
  }
  if (order.status !== tracked.lastStatus) {
    // A PO the buyer cancelled set this status itself (its record already says so): nothing to tell.
    if (buyer !== undefined && cancelled && po.state !== 'cancelled') {
      await confirmCancelledPrintOrder(ctx, buyer, po, tracked, order);
    } else if (buyer?.confirmDetails === true && !cancelled && tracked.lastStatus !== undefined) {
      await noticeStatusChange(ctx, buyer, po, tracked, order);
    }
    patch.lastStatus = order.status;
  }
  const { notified, waiting: shipNoticeWaits } = await queueShipments(ctx, buyer, po, tracked, order);
  if (notified.length !== tracked.shipmentsNotified.length) patch.shipmentsNotified = notified;

  const allShipped = order.shipments.length > 0 && order.shipments.every((s) => s.shipped_on !== null);
  const invoicing =
    buyer === undefined
      ? { waiting: false }
      : await invoicePrintOrder(ctx, buyer, po, tracked, order, cancelled);
  // Shipped is done unless an invoice or a ship notice is still due; it keeps the order in the
  // reconciliation poll.
  if ((allShipped && !invoicing.waiting && !shipNoticeWaits) || cancelled) patch.state = 'closed';
  await ctx.store.printOrders.update(...key, patch);
}

/**
 * Reads the print order now and observes it; nothing to do for an order we do not track or have closed
 * (unless its invoices would need a credit memo, were it cancelled).
 */
export async function syncPrintOrder(
  ctx: GatewayContext,
  storefrontId: string,
  printOrderId: number,
): Promise<void> {
  const tracked = await ctx.store.printOrders.get(storefrontId, printOrderId);
  if (tracked === undefined || !tracked.confirmed) return;
  // Closed is done with, unless it was invoiced: a cancellation after that still owes the buyer a credit memo.
  if (tracked.state === 'closed' && !(await awaitsCreditOnCancel(ctx, tracked))) return;
  let order: Order | undefined;
  try {
    order = await ctx.printApiFor(ctx.storefront(storefrontId)).getOrder(printOrderId);
  } catch (error) {
    if (!(isPrintApiError(error) && error.code === 'not_found')) {
      throw upstreamError(error, `read print order ${printOrderId}`);
    }
  }
  await observePrintOrder(ctx, tracked, order);
}

/**
 * The reconciliation poll: every open print order not looked at within the interval is read again. One
 * order the service cannot answer for does not stop the others; it stays first in line for next time.
 */
export async function reconcilePrintOrders(
  ctx: GatewayContext,
  hasRoomForAnother: () => boolean = () => true,
): Promise<{ checked: number; failed: number }> {
  const now = ctx.clock.now();
  const cutoff = now.getTime() - ctx.config.orders.reconcileIntervalSeconds * 1000;
  let checked = 0;
  let failed = 0;
  for (const tracked of await ctx.store.printOrders.listOpen({ limit: 100 })) {
    if (tracked.lastCheckedAt !== undefined && tracked.lastCheckedAt.getTime() > cutoff) break;
    // The ones left are the longest unchecked at the next run.
    if (!hasRoomForAnother()) break;
    try {
      await syncPrintOrder(ctx, tracked.storefrontId, tracked.printOrderId);
      checked++;
    } catch (error) {
      failed++;
      ctx.logger.warn('reconciliation could not read a print order', {
        printOrder: tracked.printOrderId,
        error: error instanceof Error ? error.message : 'unknown',
      });
    }
  }
  return { checked, failed };
}
