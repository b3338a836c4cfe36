/**
 * How a designed cart line names itself to the buyer's system: its part number (cXML SupplierPartID, OCI
 * VENDORMAT) and its description. The line reference (SupplierPartAuxiliaryID, EXT_PRODUCT_ID) stays the
 * key the gateway matches on; these two are what people and part-number-keyed ERPs see.
 *
 * Decisions:
 * - `sku-design` part numbers are `<SKU>-D<design id>`: the "D" keeps a design id from reading as a size or
 *   a quantity suffix, and a SKU that itself ends in `-D<digits>` still resolves first by exact match.
 * - The description is the configured product name and a short design label, "Business cards (design
 *   1234)": the print service's project name is the template's name, the same for every design, so two
 *   designs of one product could not be told apart in a requisition.
 */
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import { type CatalogEntry, findProductBySku } from './catalog.ts';

export type PartIdStyle = ResolvedBuyer['supplierPartIds'];

const DESIGN_SUFFIX = /^(.+)-D(\d{1,12})$/;

/** The SupplierPartID / VENDORMAT of a designed line for a buyer whose setting is `style`. */
export function supplierPartIdOf(style: PartIdStyle, line: { sku: string; designId: number }): string {
  return style === 'sku-design' ? `${line.sku}-D${line.designId}` : line.sku;
}

/**
 * The product a part number a buyer sends back names: a SKU as it is, or a `sku-design` part number's SKU.
 *
 * @example
 * productOfPartId(storefront, 'BC-STD-D1234') // → the product BC-STD
 */
export function productOfPartId(storefront: ResolvedStorefront, partId: string): CatalogEntry | undefined {
  const exact = findProductBySku(storefront, partId);
  if (exact !== undefined) return exact;
  const designed = DESIGN_SUFFIX.exec(partId);
  return designed?.[1] === undefined ? undefined : findProductBySku(storefront, designed[1]);
}

/**
 * A designed line's description: the product's name and the design label, the name shortened with "..." when
 * the whole would pass `maxLength` (OCI's 40-character DESCRIPTION), so the label that tells designs apart
 * is never the part cut off.
 *
 * `designLabel` is the label in the description's language ("Entwurf 1234" beside a German name).
 *
 * @example
 * lineDescription('Business cards', 1234) // → 'Business cards (design 1234)'
 */
export function lineDescription(
  productName: string,
  designId: number,
  maxLength = Infinity,
  designLabel = `design ${designId}`,
): string {
  const label = ` (${designLabel})`;
  const name = [...productName];
  const room = maxLength - label.length;
  if (name.length <= room) return `${productName}${label}`;
  if (room < 4) return label.trim().slice(0, maxLength);
  // Three dots, not "…": OCI buyers in ISO-8859-1 have no ellipsis character.
  return `${name
    .slice(0, room - 3)
    .join('')
    .trimEnd()}...${label}`;
}
