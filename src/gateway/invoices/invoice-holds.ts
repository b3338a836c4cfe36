/**
 * Invoices held for an operator, each a record of its own (`store.invoiceHolds`): a PO with one open stays
 * at `needs_operator`, saying why, whatever else is done to it, until the invoice goes out or an operator
 * waives it. The PO's flag and lastError only show the hold; they are never what keeps it.
 */
import type { InvoiceHold, PurchaseOrder, PurchaseOrderPatch } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { FLAG, withFlags } from '../orders/po-record.ts';
import { invoiceKeyText } from './invoice-figures.ts';

/** How the PO's lastError begins while an invoice waits for an operator or for the print service. */
export const INVOICE_WAIT = 'Invoice not sent: ';

/** The PO's holds still waiting for an operator. */
export async function openHolds(ctx: GatewayContext, poId: string): Promise<InvoiceHold[]> {
  return (await ctx.store.invoiceHolds.listByPo(poId)).filter((hold) => hold.state === 'held');
}

/** What the PO says while `holds` wait: its lastError names each held invoice and why. */
export function holdText(holds: readonly InvoiceHold[]): string {
  const reasons = holds.map((hold) =>
    holds.length === 1
      ? hold.reason
      : `print order ${hold.printOrderId} (${invoiceKeyText(hold.scope)}): ${hold.reason}`,
  );
  return `${INVOICE_WAIT}${reasons.join(' ')}`;
}

/** The patch that keeps a PO with open holds at `needs_operator`, flagged, with their reasons. */
export function parkedForHolds(
  po: Pick<PurchaseOrder, 'flags'>,
  holds: readonly InvoiceHold[],
): PurchaseOrderPatch {
  return {
    state: 'needs_operator',
    flags: withFlags(po.flags, [FLAG.invoiceHeld]),
    lastError: holdText(holds),
  };
}
