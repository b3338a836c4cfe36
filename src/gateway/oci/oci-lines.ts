/**
 * Our cart lines and catalog products as OCI items (`OciCartLine`), the one input of the NEW_ITEM-* fields
 * of a transfer, a VALIDATE answer and a search result.
 *
 * Decisions:
 * - EXT_PRODUCT_ID is the line reference of a designed line: SAP sends it back as PRODUCTID (DETAIL,
 *   VALIDATE) and the purchase order names it. An item without a design (a search hit, or VALIDATE of a
 *   SKU) has no line reference, so its EXT_PRODUCT_ID is the SKU, which resolves back to the product.
 * - DESCRIPTION is the design's name (the product's for an undesigned item); the long text carries the
 *   product's name when the design's differs, then the product's description.
 * - UNSPSC falls back to 82121500 "Printing", as in the cXML cart.
 */
import {
  buildOciItems,
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

/** A cart line of the session as an OCI item. */
export function ociLineOfCartLine(
  buyer: ResolvedOciBuyer,
  storefront: ResolvedStorefront,
  line: CartLine,
): OciCartLine {
  const product = findProductBySku(storefront, line.sku);
  return {
    ...productFields(buyer, product),
    lineRef: line.lineRef,
    sku: line.sku,
    description: line.name,
    ...longText(product, line.name),
    quantity: line.quantity,
    unitPrice: line.unitPrice,
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
  design?: { lineRef: string; name: string },
): OciCartLine {
  const name = design?.name ?? product.name;
  return {
    ...productFields(buyer, product),
    lineRef: design?.lineRef ?? product.sku,
    sku: product.sku,
    description: name,
    ...longText(product, name),
    quantity,
    unitPrice: priceText(product, quantity),
    currency: storefront.currency,
    uom: product.uom,
    ...(product.leadTimeDays !== undefined && { leadTimeDays: product.leadTimeDays }),
    unspsc: product.unspsc ?? DEFAULT_UNSPSC,
  };
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
  const parts = [product && product.name !== name ? product.name : '', product?.description ?? ''];
  const text = parts.filter((part) => part.trim() !== '').join('\n');
  return text === '' ? {} : { longText: text };
}
