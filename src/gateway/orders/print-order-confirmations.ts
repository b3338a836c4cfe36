/**
 * What a print order's new status means to the buyer's confirmation of the PO. A print order the supplier
 * cancelled rejects its lines: a ConfirmationRequest `reject` when no line of the PO is left in production,
 * else its lines `reject` (through `queueLineStatuses`, which updates the confirmation that named them).
 * Any other status changes nothing the buyer confirmed, so it is told only to buyers with `confirmDetails`,
 * and then as only what differs from the PO: each line's shipment date once known (shipped, or the item's
 * due date), the status itself in the Comments.
 */
import type { Order } from '../../../schemas/print-api.ts';
import type { PurchaseOrder, TrackedPrintOrder } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { queueConfirmation } from '../documents/buyer-documents.ts';
import { type LineStatus, queueLineStatuses } from '../documents/confirmation-updates.ts';
import { groupOfPrintOrder, type PoLine, poDocument } from './po-record.ts';
import { itemLines } from './print-order-lines.ts';

/** Whether `status` is the cancel status of the print order's storefront. */
export function isCancelStatus(
  ctx: GatewayContext,
  storefrontId: string,
  status: string | undefined,
): boolean {
  const cancelStatus = ctx.storefront(storefrontId).cancelStatus;
  return cancelStatus !== undefined && status?.toLowerCase() === cancelStatus.toLowerCase();
}

const lineOf = (line: PoLine) => ({
  lineNumber: line.lineNumber,
  quantity: line.quantity,
  unitOfMeasure: line.unitOfMeasure,
});

/**
 * The supplier cancelled `tracked` (its status is now the storefront's cancel status): the buyer hears that
 * its lines are rejected, with the reason. The whole PO is rejected when every other print order of it is
 * cancelled too (lines the gateway could not produce were rejected at placing).
 */
export async function confirmCancelledPrintOrder(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  tracked: TrackedPrintOrder,
  order: Order,
): Promise<void> {
  const reason = `Print order ${tracked.printOrderId} was cancelled by the supplier (status "${order.status}").`;
  const others = (await ctx.store.printOrders.listByPo(po.id)).filter(
    (p) => !(p.storefrontId === tracked.storefrontId && p.printOrderId === tracked.printOrderId),
  );
  const dedupeKey = `cancelled:${tracked.storefrontId}:${tracked.printOrderId}`;
  if (others.every((p) => isCancelStatus(ctx, p.storefrontId, p.lastStatus))) {
    await queueConfirmation(ctx, buyer, {
      type: 'reject',
      answers: po,
      queueOf: po,
      dedupeKey,
      reference: po.printOrderIds.join(','),
      comments: `${reason} No line of this order will be delivered.`,
    });
    return;
  }
  const group = groupOfPrintOrder(po, tracked.printOrderId);
  await queueLineStatuses(ctx, buyer, {
    order: po,
    kind: 'decision',
    dedupeKey,
    reference: po.printOrderIds.join(','),
    comments: `${reason} Its lines are rejected; the other lines of this order stand as confirmed.`,
    lines: (group?.lines ?? []).map((line) => ({
      ...lineOf(line),
      status: { type: 'reject', comments: reason },
    })),
  });
}

/**
 * The shipment date of each of the print order's lines, where one is known: the day its shipment shipped,
 * else the item's due date.
 */
function shipmentDates(
  po: PurchaseOrder,
  tracked: TrackedPrintOrder,
  order: Order,
  status: string,
): LineStatus[] {
  const group = groupOfPrintOrder(po, tracked.printOrderId);
  if (group === undefined) return [];
  const lineOfItem = itemLines(order, group);
  return order.items.flatMap((item) => {
    const line = lineOfItem.get(item.id);
    if (line === undefined) return [];
    const shipped = order.shipments.find((s) => s.index === item.shipment_index)?.shipped_on ?? null;
    const date = shipped ?? item.due_on;
    if (date === null) return [];
    const what = shipped === null ? 'due to ship' : 'shipped';
    return [
      {
        ...lineOf(line),
        status: {
          type: 'accept',
          shipmentDate: new Date(date),
          comments: `Print order ${tracked.printOrderId} is "${status}"; the line is ${what} on this date.`,
        },
      },
    ];
  });
}

/**
 * A status change that is not a cancellation, for a buyer with `confirmDetails`: the lines that gained a
 * shipment date, or, when none did, a `detail` that names no line and says the status in its Comments.
 */
export async function noticeStatusChange(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  po: PurchaseOrder,
  tracked: TrackedPrintOrder,
  order: Order,
): Promise<void> {
  const dedupeKey = `detail:${tracked.storefrontId}:${tracked.printOrderId}:${order.status.toLowerCase()}`;
  const comments = `Print order ${tracked.printOrderId} is now "${order.status}".`;
  const lines = shipmentDates(po, tracked, order, order.status);
  // Lines the gateway could not produce stay rejected; a notice speaks only of lines in production.
  const rejected = new Set((poDocument(po).rejectedLines ?? []).map((line) => line.lineNumber));
  const news = lines.filter((line) => !rejected.has(line.lineNumber));
  const outcome =
    news.length === 0
      ? 'unchanged'
      : await queueLineStatuses(ctx, buyer, {
          order: po,
          kind: 'notice',
          dedupeKey,
          reference: po.printOrderIds.join(','),
          comments,
          lines: news,
        });
  if (outcome !== 'unchanged') return;
  await queueConfirmation(ctx, buyer, {
    type: 'detail',
    answers: po,
    queueOf: po,
    dedupeKey,
    reference: po.printOrderIds.join(','),
    comments,
    lineStatus: 'none',
    quietIfWithheld: true,
  });
}
