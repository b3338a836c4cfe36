/**
 * Each purchase-order line's status as a procurement system records it from the supplier's
 * ConfirmationRequests, read from the line statuses (ConfirmationStatus), never from Comments — what a
 * buyer's system files, so the demo shows what such a system would believe. Fulfill.dtd: an `accept`,
 * `reject`, `backordered` or `except` confirmation (operation new) speaks for the whole order and discards
 * the earlier ones; a `detail` or `allDetail` changes only the lines it names; an `update` restates its
 * confirmation, so its lines replace what that confirmation said.
 */
import type { ConfirmationView, PurchaseOrder } from './requisition.ts';

export interface LineStatus {
  /** The status types for the line, e.g. `accept`, `reject`, or `accept 300, backordered 200` when split. */
  readonly status: string;
  /** The line statuses' own Comments (a reason), joined; '' when none. */
  readonly reason: string;
}

/** A whole-order confirmation's word on every line it does not name. */
const WHOLE_ORDER: Readonly<Record<string, string>> = {
  accept: 'accept',
  except: 'accept',
  reject: 'reject',
  backordered: 'backordered',
};

function statusOfItem(item: ConfirmationView['items'][number]): LineStatus {
  const { statuses } = item;
  const status =
    statuses.length === 1
      ? (statuses[0]?.type ?? '')
      : statuses.map((s) => `${s.type} ${s.quantity}`).join(', ');
  return { status, reason: statuses.flatMap((s) => (s.comments === '' ? [] : [s.comments])).join(' ') };
}

/**
 * The line statuses of `order` by line number (as text, as the documents carry it), for `lineCount` lines;
 * a line no confirmation has spoken for yet is absent.
 */
export function lineStatuses(order: PurchaseOrder, lineCount: number): Map<string, LineStatus> {
  const lines = new Map<string, LineStatus>();
  for (const confirmation of order.confirmations) {
    // A confirmation of another document (a change order) says nothing of this order's lines.
    if (confirmation.orderPayloadID !== undefined && confirmation.orderPayloadID !== order.payloadID)
      continue;
    const whole = WHOLE_ORDER[confirmation.type];
    if (whole !== undefined && confirmation.operation === 'new') {
      // A whole-order reject gives its reason in the header only (Fulfill.dtd: "no further line item detail").
      const reason = whole === 'reject' ? confirmation.comments : '';
      for (let n = 1; n <= lineCount; n++) lines.set(String(n), { status: whole, reason });
    }
    for (const item of confirmation.items) lines.set(item.lineNumber, statusOfItem(item));
  }
  return lines;
}
