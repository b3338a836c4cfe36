/**
 * A buyer's reorder items as catalog export items (../catalog-export), for buyers with
 * `catalog.reorders: true`: what `punchgate catalog` and the console's download add to the storefront's
 * products, so a requester finds "the same business cards again" in the procurement system's search and a
 * level-2 punch-out of one opens the cart with that design.
 */
import type { Store } from '../../store/port.ts';
import type { CatalogExportItem } from '../catalog-export/catalog-item.ts';
import type { ResolvedConfig } from '../deps.ts';
import { thumbnailUrl } from '../punchout/thumbnail-links.ts';
import { MAX_EXPORTED_REORDERS, type ReorderOffer, reorderOffer, reordersOn } from './reorder-items.ts';

/** The language of an item's description: the design's name is the configured product name's. */
function storefrontLanguage(config: ResolvedConfig, storefrontId: string): string {
  return config.storefronts.find((s) => s.id === storefrontId)?.language ?? 'en';
}

async function exportItem(
  config: ResolvedConfig,
  { item, product }: ReorderOffer & { product: NonNullable<ReorderOffer['product']> },
): Promise<CatalogExportItem> {
  return {
    supplierPartId: item.partId,
    // The name the design was ordered under, in the words of its storefront's language.
    descriptions: { [storefrontLanguage(config, item.storefrontId)]: item.name },
    ...(product.unspsc !== undefined && { unspsc: product.unspsc }),
    unitOfMeasure: item.uom,
    price: {
      amount: item.unitPrice,
      currency: item.currency,
      ...(item.priceUnit !== undefined && { basisQuantity: item.priceUnit }),
    },
    ...(product.leadTimeDays !== undefined && { leadTimeDays: product.leadTimeDays }),
    // The gateway's link, not the editor host's: a buyer's catalog is public to its users, and the link opens
    // this one picture where the editor host's URL would open any design by changing its number.
    thumbnailUrl: await thumbnailUrl(config, item.storefrontId, item.designId),
  };
}

/**
 * The buyer's reorder items that can be ordered today (on the buyer's production storefront, product still
 * in its catalog), the 500 most recently ordered first, with the price they were last ordered at; none when the
 * buyer is unknown or has reorders off.
 *
 * @example
 * const items = await reorderExportItems(store, config, 'acme');
 * // [{ supplierPartId: 'R-BC-STD-1234', descriptions: { en: 'Business cards (design 1234)' }, … }]
 */
export async function reorderExportItems(
  store: Store,
  config: ResolvedConfig,
  buyerId: string,
): Promise<CatalogExportItem[]> {
  const buyer = config.buyers.find((b) => b.id === buyerId);
  if (buyer === undefined || !reordersOn(buyer)) return [];
  const items = await store.reorders.listByBuyer(buyerId, MAX_EXPORTED_REORDERS);
  const exported = items.flatMap((item) => {
    if (item.storefrontId !== buyer.storefront) return [];
    const offer = reorderOffer(config, item);
    return offer.product === undefined ? [] : [exportItem(config, { ...offer, product: offer.product })];
  });
  return Promise.all(exported);
}
