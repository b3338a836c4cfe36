/**
 * `PriceBasisQuantity` as a buyer's system reads it wherever a price is quoted (a cart's ItemIn, the PO's
 * ItemOut, an invoice's InvoiceDetailItem): the price is for `quantity` units, one ordered unit being
 * `conversionFactor` of them. Values as received; a missing conversionFactor reads as 1.
 */
import type { RequisitionLine } from './requisition.ts';
import { attr, childText, first, type XmlNode } from './xml-reader.ts';

export type PriceBasisText = NonNullable<RequisitionLine['priceBasis']>;

/** The PriceBasisQuantity child of `container` (an ItemDetail or InvoiceDetailItem), if it has one. */
export function readPriceBasis(container: XmlNode | undefined): PriceBasisText | undefined {
  const basis = first(container, 'PriceBasisQuantity');
  if (basis === undefined) return undefined;
  return {
    quantity: attr(basis, 'quantity')?.trim() ?? '',
    conversionFactor: attr(basis, 'conversionFactor')?.trim() || '1',
    unitOfMeasure: childText(basis, 'UnitOfMeasure')?.trim() ?? '',
  };
}

/** How a page or a refusal names a basis: `per 1,000 EA`, or `per unit` for none. */
export function priceBasisText(basis: PriceBasisText | undefined): string {
  if (basis === undefined) return 'per unit';
  const quantity = /^\d{1,15}$/.test(basis.quantity)
    ? Number(basis.quantity).toLocaleString('en-US')
    : basis.quantity;
  return `per ${quantity} ${basis.unitOfMeasure}`.trim();
}
