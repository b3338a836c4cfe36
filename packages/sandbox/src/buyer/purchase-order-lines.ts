/**
 * The purchase order as the simulator sent it, read back from the stored OrderRequest: what an invoice is
 * checked against (each ItemOut's lineNumber, quantity, unit, unit price and part number, and the order's
 * currency). Read from the document itself, so the check holds the supplier to exactly what was sent.
 */
import { type PriceBasisText, readPriceBasis } from './price-basis.ts';
import { all, attr, childText, first, path, rawText, readCxmlRoot, text } from './xml-reader.ts';

export interface OrderedLine {
  readonly lineNumber: string;
  readonly quantity: string;
  readonly unitOfMeasure: string;
  readonly unitPrice: string;
  /** What the price is for, when the PO quoted it per more than one unit. */
  readonly priceBasis?: PriceBasisText;
  readonly currency: string;
  readonly supplierPartID: string;
  readonly supplierPartAuxiliaryID?: string;
  readonly description: string;
}

export interface OrderedDocument {
  readonly currency: string;
  readonly lines: readonly OrderedLine[];
}

/**
 * @example
 * const po = readOrderedLines(requisition.order.document);
 * po.lines[0]?.unitPrice; // '0.09'
 */
export function readOrderedLines(document: string): OrderedDocument {
  const order = path(readCxmlRoot(document), 'Request', 'OrderRequest');
  const total = path(order, 'OrderRequestHeader', 'Total', 'Money');
  const lines = all(order, 'ItemOut').map((item) => {
    const money = path(item, 'ItemDetail', 'UnitPrice', 'Money');
    const itemID = first(item, 'ItemID');
    const auxiliary = first(itemID, 'SupplierPartAuxiliaryID');
    const priceBasis = readPriceBasis(first(item, 'ItemDetail'));
    return {
      lineNumber: attr(item, 'lineNumber') ?? '',
      quantity: attr(item, 'quantity') ?? '',
      unitOfMeasure: childText(first(item, 'ItemDetail'), 'UnitOfMeasure')?.trim() ?? '',
      unitPrice: text(money).trim(),
      ...(priceBasis !== undefined && { priceBasis }),
      currency: attr(money, 'currency') ?? '',
      supplierPartID: childText(itemID, 'SupplierPartID')?.trim() ?? '',
      ...(auxiliary !== undefined && { supplierPartAuxiliaryID: rawText(auxiliary) }),
      description: childText(first(item, 'ItemDetail'), 'Description')?.trim() ?? '',
    };
  });
  return { currency: attr(total, 'currency') ?? lines[0]?.currency ?? '', lines };
}
