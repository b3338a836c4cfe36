/**
 * The supplier's own order ids behind a purchase order, as far as its confirmations name them: the
 * ConfirmationHeader confirmID (cXML: "the supplier's order reference"; several comma-separated, a counter
 * `-n` after them dropped) and extrinsics whose name says
 * print order (`printOrderId`, `PrintOrderID`, `print-order-id`). The demo's control hook gets them.
 */
import type { PurchaseOrder } from './requisition.ts';

const PRINT_ORDER_EXTRINSIC = /^print[-_ ]?order[-_ ]?ids?$/i;

export function printOrderIds(order: PurchaseOrder): string[] {
  const ids = new Set<string>();
  for (const confirmation of order.confirmations) {
    // punchgate's confirmID is the print order ids, comma-separated, with `-2`, `-3`, … on the order's later
    // confirmations: each id once, a number without its counter (another supplier's `PRINT-4711` as it is).
    for (const id of confirmation.confirmID?.split(/[\s,]+/) ?? []) {
      if (id !== '') ids.add(id.replace(/^(\d+)-\d+$/, '$1'));
    }
    for (const extrinsic of confirmation.extrinsics) {
      if (!PRINT_ORDER_EXTRINSIC.test(extrinsic.name)) continue;
      for (const id of extrinsic.value.split(/[\s,]+/)) if (id !== '') ids.add(id);
    }
  }
  return [...ids];
}
