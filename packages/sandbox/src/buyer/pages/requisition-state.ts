/**
 * One word for where a requisition stands, as a procurement system's list shows it: from draft through
 * ordered and confirmed to shipped and invoiced, derived from the order's answer and the documents that arrived.
 */
import { html } from 'hono/html';
import { lineStatuses } from '../line-statuses.ts';
import type { Requisition } from '../requisition.ts';
import type { Html } from './layout.ts';

export interface RequisitionState {
  readonly label: string;
  /** CSS modifier of the pill: good, bad, wait or '' (neutral). */
  readonly tone: 'good' | 'bad' | 'wait' | '';
}

export function requisitionState(requisition: Requisition): RequisitionState {
  const order = requisition.order;
  if (order !== undefined) {
    const { code } = order.answer;
    if (code === 0 && order.answer.text === 'Sending') return { label: 'Ordering', tone: 'wait' };
    if (code < 200 || code >= 300) return { label: 'Order not accepted', tone: 'bad' };
    const invoiced = (order.invoices ?? []).some((i) => i.answer.code === 200 && i.purpose === 'standard');
    if (invoiced) return { label: 'Invoiced', tone: 'good' };
    if (order.shipNotices.length > 0) return { label: 'Shipped', tone: 'good' };
    // What the lines' statuses say, as a procurement system records them, not what a Comment says.
    const statuses = [...lineStatuses(order, requisition.lines.length).values()];
    const rejected = statuses.filter((s) => s.status === 'reject').length;
    if (rejected > 0 && rejected === requisition.lines.length)
      return { label: 'Rejected by supplier', tone: 'bad' };
    if (rejected > 0)
      return { label: `Partly rejected (${rejected} of ${requisition.lines.length} lines)`, tone: 'bad' };
    const decisive = [...order.confirmations]
      .reverse()
      .find((c) => c.type !== 'detail' && c.type !== 'allDetail');
    if (decisive !== undefined) return { label: `Confirmed (${decisive.type})`, tone: 'good' };
    if (order.confirmations.length > 0) return { label: 'Confirmed (detail)', tone: 'good' };
    return { label: 'Ordered', tone: 'wait' };
  }
  if (requisition.punchouts.some((p) => p.state === 'open')) return { label: 'In catalog', tone: 'wait' };
  return requisition.lines.length > 0 ? { label: 'Draft', tone: '' } : { label: 'Empty', tone: '' };
}

/** The mark of a requisition of the test account, beside its state; nothing for production. */
export function testPill(requisition: Pick<Requisition, 'deploymentMode'>): Html {
  return requisition.deploymentMode === 'test' ? html` <span class="pill test">Test</span>` : html``;
}
