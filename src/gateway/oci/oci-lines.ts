/**
 * Our cart lines and catalog products as OCI items (`OciCartLine`), the one input of the NEW_ITEM-* fields
 * of a transfer, a VALIDATE answer and a search result.
 *
 * Decisions:
 * - EXT_PRODUCT_ID is the line reference of a designed line: SAP sends it back as PRODUCTID (DETAIL,
 *   VALIDATE) and the purchase order names it. An item without a design (a search hit, or VALIDATE of a
 *   SKU) has no line reference, so its EXT_PRODUCT_ID is the SKU, which resolves back to the product.
 * - DESCRIPTION is the line's description, the product's name and its design label (the product's name
 *   for an undesigned item); the long text carries the product's whole name when the description does not
 *   begin with it, then the product's description. VENDORMAT follows the buyer's `supplierPartIds`.
 * - UNSPSC falls back to 82121500 "Printing", as in the cXML cart.
 */
import {
  buildOciItems,
  OCI_FIELD_LENGTHS,
  type OciCartLine,
  type OciCharset,
  OciError,
  type OciFormField,
} from '../../oci/index.ts';
import type { CartLine } from '../../store/types.ts';
import { DEFAULT_UNSPSC } from '../cxml/transfer.ts';
import type { ResolvedOciBuyer, ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import type { CatalogEntry } from '../punchout/catalog.ts';
import { findProductBySku, priceText } from '../punchout/catalog.ts';
import { lineDescription, supplierPartIdOf } from '../punchout/line-identity.ts';
import { itemOptions } from './buyer-settings.ts';

/**
 * The NEW_ITEM-* fields of items for this buyer, or a GatewayError the page can show when they cannot be
 * expressed in SAP's fields (more than 99999 lines, a value longer than its SAP field).
 *
 * @example
 * itemFields(buyer, 'iso-8859-1', lines.map((line) => ociLineOfCartLine(buyer, storefront, line)));
 */
export function itemFields(
  buyer: ResolvedOciBuyer,
  charset: OciCharset,
  items: readonly OciCartLine[],
): OciFormField[] {
  try {
    return buildOciItems(items, itemOptions(buyer, charset));
  } catch (error) {
    if (!(error instanceof OciError)) throw error;
    throw new GatewayError(
      'bad_request',
      `These items cannot be sent in SAP's catalog fields: ${error.message}`,
      { cause: error },
    );
  }
}

/**
 * A cart line of the session as an OCI item; `thumbnailUrl`, the design's thumbnail link, goes where the
 * buyer's `cartThumbnails` says: an ATTACHMENT the buyer's system downloads, or the long text's last line.
 */
export function ociLineOfCartLine(
  buyer: ResolvedOciBuyer,
  storefront: ResolvedStorefront,
  line: CartLine,
  thumbnailUrl?: string,
): OciCartLine {
  const product = findProductBySku(storefront, line.sku);
  const description = shortDescription(product, line);
  const text = longText(product, description).longText;
  const preview =
    thumbnailUrl !== undefined && buyer.cartThumbnails === 'longtext'
      ? `Preview: ${thumbnailUrl}`
      : undefined;
  const withPreview = [text, preview].filter((part) => part !== undefined).join('\n');
  return {
    ...productFields(buyer, product),
    lineRef: line.lineRef,
    sku: supplierPartIdOf(buyer.supplierPartIds, line),
    description,
    ...(withPreview !== '' && { longText: withPreview }),
    ...(thumbnailUrl !== undefined &&
      buyer.cartThumbnails === 'attachment' && {
        attachment: { url: thumbnailUrl, title: `design-${line.designId}.png` },
      }),
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    ...(line.priceUnit !== undefined && { priceUnit: line.priceUnit }),
    currency: line.currency,
    uom: line.uom,
    ...(line.leadTimeDays !== undefined && { leadTimeDays: line.leadTimeDays }),
    unspsc: line.unspsc ?? product?.unspsc ?? DEFAULT_UNSPSC,
  };
}

/**
 * A catalog product at a quantity, priced now. `extProductId` is the line reference when the item stands
 * for a designed line (VALIDATE of a line), else the SKU; `name` is the design's name for such a line.
 */
export function ociLineOfProduct(
  buyer: ResolvedOciBuyer,
  storefront: ResolvedStorefront,
  product: CatalogEntry,
  quantity: number,
  design?: Pick<CartLine, 'lineRef' | 'name' | 'designId'>,
): OciCartLine {
  const description = design ? shortDescription(product, design) : product.name;
  return {
    ...productFields(buyer, product),
    lineRef: design?.lineRef ?? product.sku,
    sku: design
      ? supplierPartIdOf(buyer.supplierPartIds, { sku: product.sku, designId: design.designId })
      : product.sku,
    description,
    ...longText(product, description),
    quantity,
    unitPrice: priceText(product, quantity, storefront.currency),
    priceUnit: product.priceUnit,
    currency: storefront.currency,
    uom: product.uom,
    ...(product.leadTimeDays !== undefined && { leadTimeDays: product.leadTimeDays }),
    unspsc: product.unspsc ?? DEFAULT_UNSPSC,
  };
}

/**
 * DESCRIPTION of a designed line within SAP's 40 characters: the product's name is shortened rather than
 * the design label cut off (the codec's cut would take the label, which tells two designs apart).
 */
function shortDescription(
  product: CatalogEntry | undefined,
  line: Pick<CartLine, 'name' | 'designId'>,
): string {
  const fits = [...line.name].length <= OCI_FIELD_LENGTHS.DESCRIPTION;
  return fits || product === undefined
    ? line.name
    : lineDescription(product.name, line.designId, OCI_FIELD_LENGTHS.DESCRIPTION);
}

function productFields(
  buyer: ResolvedOciBuyer,
  product: CatalogEntry | undefined,
): Pick<OciCartLine, 'manufacturerCode' | 'manufacturerPartId' | 'matGroup'> {
  return {
    ...(buyer.manufacturerCode !== undefined && { manufacturerCode: buyer.manufacturerCode }),
    ...(product?.manufacturerPartId !== undefined && { manufacturerPartId: product.manufacturerPartId }),
    ...(product?.matGroup !== undefined && { matGroup: product.matGroup }),
  };
}

function longText(product: CatalogEntry | undefined, name: string): Pick<OciCartLine, 'longText'> {
  // The product's whole name, unless the description already shows it (it was shortened to fit, or it is
  // a line's description from before the gateway named lines after the product).
  const parts = [product && !name.startsWith(product.name) ? product.name : '', product?.description ?? ''];
  const text = parts.filter((part) => part.trim() !== '').join('\n');
  return text === '' ? {} : { longText: text };
}
