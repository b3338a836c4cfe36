/**
 * Which document of an order a purchase order is, for the intake's dedupe: the stores refuse a second
 * record with the same (buyer, orderID, type, revision key). A new order and a cancellation exist once per
 * orderID, so their key is empty: a PO re-sent under a fresh payloadID must not order twice. A buyer may
 * send many changes of one order, so an update's key is its `orderVersion` (the same version re-sent is
 * the same change) or, when it carries none, its payloadID (only a resend of the very document repeats).
 *
 * The SQL migrations that add the key to existing rows spell this same rule in SQL; keep them in step.
 */
import type { NewPurchaseOrder } from './types.ts';

/**
 * @example
 * ```ts
 * orderRevisionKey({ type: 'update', orderVersion: '2', payloadId: 'p-9' }); // 'version:2'
 * orderRevisionKey({ type: 'new', payloadId: 'p-1' }); // ''
 * ```
 */
export function orderRevisionKey(
  order: Pick<NewPurchaseOrder, 'type' | 'payloadId' | 'orderVersion'>,
): string {
  if (order.type !== 'update') return '';
  return order.orderVersion === undefined ? `payload:${order.payloadId}` : `version:${order.orderVersion}`;
}
