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
 *   begin with it, then the product's description. Both in the session's language where the product has
 *   a translation for it (OCI has no field to say which language a text is in). VENDORMAT follows the
 *   buyer's `supplierPartIds`.
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
import type { Locale } from '../i18n/locale.ts';
import type { CatalogEntry } from '../punchout/catalog.ts';
import { findProductBySku, priceText } from '../punchout/catalog.ts';
import { lineDescription, supplierPartIdOf } from '../punchout/line-identity.ts';
import { lineText, productText } from '../punchout/product-text.ts';
import { itemOptions } from './buyer-settings.ts';

/**
 * The NEW_ITEM-* fields of items for this buyer, or a GatewayError the page can show when they cannot be
 * expressed in SAP's fields (more than 99999 lines, a value longer than its SAP field).
 *
 * @example
 * itemFields(buyer, 'iso-8859-1', lines.map((line) => ociLineOfCartLine(buyer, storefront, locale, line)));
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
 * A cart line of the session as an OCI item, its texts in the session's language; `thumbnailUrl`, the
 * design's thumbnail link, goes where the buyer's `cartThumbnails` says: an ATTACHMENT the buyer's system
 * downloads, or the long text's last line.
 */
export function ociLineOfCartLine(
  buyer: ResolvedOciBuyer,
  storefront: ResolvedStorefront,
  locale: Locale,
  line: CartLine,
  thumbnailUrl?: string,
): OciCartLine {
  const product = findProductBySku(storefront, line.sku);
  const description = shortDescription(storefront, locale, product, line);
  const text = longText(storefront, locale, product, description).longText;
  const preview =
    thumbnailUrl !== undefined && buyer.cartThumbnails === 'longtext'
      ? locale.t('line.preview', { url: thumbnailUrl })
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
  locale: Locale,
  product: CatalogEntry,
  quantity: number,
  design?: Pick<CartLine, 'lineRef' | 'name' | 'designId'>,
): OciCartLine {
  const description = design
    ? shortDescription(storefront, locale, product, design)
    : productText(product, locale.language, storefront).name;
  return {
    ...productFields(buyer, product),
    lineRef: design?.lineRef ?? product.sku,
    sku: design
      ? supplierPartIdOf(buyer.supplierPartIds, { sku: product.sku, designId: design.designId })
      : product.sku,
    description,
    ...longText(storefront, locale, product, description),
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
  storefront: ResolvedStorefront,
  locale: Locale,
  product: CatalogEntry | undefined,
  line: Pick<CartLine, 'name' | 'designId'>,
): string {
  const translated = lineText(line, product, storefront, locale, OCI_FIELD_LENGTHS.DESCRIPTION);
  if (translated.language !== storefront.language) return translated.name;
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

function longText(
  storefront: ResolvedStorefront,
  locale: Locale,
  product: CatalogEntry | undefined,
  name: string,
): Pick<OciCartLine, 'longText'> {
  const shown = product && productText(product, locale.language, storefront);
  // The product's whole name, unless the description already shows it (it was shortened to fit, or it is
  // a line's description from before the gateway named lines after the product).
  const parts = [shown && !name.startsWith(shown.name) ? shown.name : '', shown?.description ?? ''];
  const text = parts.filter((part) => part.trim() !== '').join('\n');
  return text === '' ? {} : { longText: text };
}
