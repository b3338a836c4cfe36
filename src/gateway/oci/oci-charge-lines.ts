/**
 * The cart's quoted charges as OCI items. OCI has no field for a cart's shipping or tax, so a buyer who
 * wants them on the requisition names part numbers for them (`chargeLines`): each charge goes as one item
 * of quantity 1 at the charge's amount, and comes back on the PO as a line naming that part number, which
 * the PO reads as its Shipping or Tax (`chargeOfPoLine`), never as a product to print.
 */
import type { OciCartLine } from '../../oci/index.ts';
import type { ResolvedOciBuyer, ResolvedStorefront } from '../deps.ts';
import type { CartCharges } from '../punchout/cart-charges.ts';

/** UNSPSC 78102200 "Postal and small parcel and courier services". */
const SHIPPING_UNSPSC = '78102200';
/** UNSPSC 84111500 "Accounting services": where buyers commonly file a tax line. */
const TAX_UNSPSC = '84111500';

/** The charge items of a cart, shipping first; none where the buyer names no part number for a charge. */
export function ociChargeLines(
  buyer: Pick<ResolvedOciBuyer, 'chargeLines'>,
  storefront: Pick<ResolvedStorefront, 'currency'>,
  charges: CartCharges,
): OciCartLine[] {
  const items: OciCartLine[] = [];
  const add = (
    line: ResolvedOciBuyer['chargeLines']['shipping'],
    amount: string | undefined,
    unspsc: string,
  ) => {
    if (line === undefined || amount === undefined) return;
    items.push({
      lineRef: line.partId,
      sku: line.partId,
      description: line.description,
      quantity: 1,
      unitPrice: amount,
      currency: storefront.currency,
      uom: 'EA',
      unspsc: line.unspsc ?? unspsc,
      ...(line.matGroup !== undefined && { matGroup: line.matGroup }),
    });
  };
  add(buyer.chargeLines.shipping, charges.shipping?.amount, SHIPPING_UNSPSC);
  add(buyer.chargeLines.tax, charges.tax?.amount, TAX_UNSPSC);
  return items;
}
