/**
 * Which PO lines a print order's items and shipments are: what the ship notices (print-order-sync.ts) and
 * the invoice figures (../invoices/invoice-figures.ts) both read off a print order, kept below both so that the
 * figures need not import the sync that invoices.
 */
import type { Order } from '../../../schemas/print-api.ts';
import type { ShipNoticeLine } from '../../cxml/index.ts';
import type { OwnerGroup, PoLine } from './po-record.ts';

/**
 * The PO line of each print-order item (by item id): items of a PIPO order are the ordered designs
 * (product_id = design id), matched to the group's lines by design, in order, each line at most once.
 */
export function itemLines(order: Order, group: OwnerGroup): Map<number, PoLine> {
  const remaining = [...group.lines];
  const lineOfItem = new Map<number, PoLine>();
  for (const item of order.items) {
    const at = remaining.findIndex((line) => line.designId === item.product_id);
    if (at !== -1) lineOfItem.set(item.id, remaining.splice(at, 1)[0] as PoLine);
  }
  return lineOfItem;
}

/**
 * The PO lines of one shipment. Items of a PIPO order are the ordered designs (product_id = design id),
 * so items are matched to the group's lines by design, in order (a design ordered on two lines gives two
 * items).
 */
export function shipmentLines(order: Order, shipmentIndex: number, group: OwnerGroup): ShipNoticeLine[] {
  const lineOfItem = itemLines(order, group);
  let lines = order.items
    .filter((item) => item.shipment_index === shipmentIndex)
    .flatMap((item) => lineOfItem.get(item.id) ?? []);
  // An order whose items cannot be told apart still ships whole when it has a single shipment.
  if (lines.length === 0 && order.shipments.length === 1) lines = group.lines;
  return lines.map((line) => ({
    lineNumber: line.lineNumber,
    quantity: line.quantity,
    unitOfMeasure: line.unitOfMeasure,
    supplierPartID: line.supplierPartID,
    ...(line.lineRef !== undefined && { supplierPartAuxiliaryID: line.lineRef }),
  }));
}
