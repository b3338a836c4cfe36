/**
 * A buyer's reorder items: each design the buyer ordered through a PO, orderable again as it is. Recorded
 * when a production PO has become print orders (test POs are not the buyer's catalog), read for the
 * catalog page, level-2 setups and the catalog export.
 *
 * Decisions:
 * - The part number is `R-<SKU>-<design id>` (`reorderPartId`): derived, so it is the same however often
 *   the design is ordered and by whom, unique per buyer (a design id names one design of one print
 *   service), readable in a requisition, and the leading `R-` keeps it apart from a storefront SKU and
 *   from a `sku-design` part number (`<SKU>-D<id>`). A configured SKU equal to a buyer's reorder part
 *   number would be shadowed by the reorder item for that buyer.
 * - The thumbnail is the editor host's `productthumb.ashx` URL of the design: it carries no token, so an
 *   approver's browser or a buyer's catalog can show it without any credential.
 * - An item is "no longer available" when its product is no longer in its storefront's catalog (or the
 *   storefront is gone); it is shown as such, never ordered. The print service is not asked per item: a
 *   catalog page lists many and must not cost a call each.
 */
import { readDecimal, safeIntegerOf } from '../../kernel/decimal.ts';
import type { NewReorderItem, PurchaseOrder, ReorderItem } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer, ResolvedConfig, ResolvedStorefront } from '../deps.ts';
import type { PoDocument } from '../orders/po-record.ts';
import { type CatalogEntry, findProductBySku } from '../punchout/catalog.ts';
import { lineDescription } from '../punchout/line-identity.ts';

/** Reorder items a catalog export carries at most: the most recently ordered (the store's largest page). */
export const MAX_EXPORTED_REORDERS = 500;

/**
 * Reorder items the catalog page shows at most, the most recently ordered: half a page of product cards,
 * so the page stays small; older ones are found through the buyer's catalog search (the export).
 */
export const MAX_SHOWN_REORDERS = 24;

/** The width and height of a reorder item's thumbnail: the catalog card's. */
const THUMBNAIL = { width: 200, height: 140 } as const;

/**
 * @example
 * reorderPartId('BC-STD', 1234) // → 'R-BC-STD-1234'
 */
export function reorderPartId(sku: string, designId: number): string {
  return `R-${sku}-${designId}`;
}

/** Whether the buyer has reorders turned on (`buyers[].catalog.reorders`). */
export function reordersOn(buyer: Pick<ResolvedBuyer, 'catalog'>): boolean {
  return buyer.catalog.reorders;
}

/** A whole number from a quantity as the buyer sent it, else undefined (a fraction, a typo). */
function wholeQuantity(text: string | undefined): number | undefined {
  const decimal = text === undefined ? undefined : readDecimal(text.trim(), { signed: true });
  const whole = decimal === undefined ? undefined : safeIntegerOf(decimal);
  return whole !== undefined && whole >= 1 ? whole : undefined;
}

/**
 * The reorder items a placed PO makes: one per designed line whose product is still in the catalog (a
 * product ordered as it is, without a design, is in the catalog already). Quantity and price are the PO's
 * own, as the buyer ordered them; the price basis is the PO's PriceBasisQuantity, else the cart's.
 */
export function reorderItemsOf(
  ctx: Pick<GatewayContext, 'storefront' | 'editorUrlsFor'>,
  order: Pick<PurchaseOrder, 'id' | 'buyerId' | 'createdAt'>,
  document: Pick<PoDocument, 'lines'>,
): NewReorderItem[] {
  const items: NewReorderItem[] = [];
  for (const line of document.lines) {
    if (line.asIs === true || line.cart === undefined) continue;
    const storefront = ctx.storefront(line.storefrontId);
    const product = findProductBySku(storefront, line.cart.sku);
    if (product === undefined) continue;
    const urls = ctx.editorUrlsFor(storefront);
    items.push({
      buyerId: order.buyerId,
      partId: reorderPartId(product.sku, line.designId),
      storefrontId: storefront.id,
      userRef: line.userRef,
      designId: line.designId,
      productId: product.productId,
      sku: product.sku,
      name: lineDescription(product.name, line.designId),
      thumbnailUrl: urls.thumbnailUrl({ productId: line.designId, ...THUMBNAIL }),
      quantity: wholeQuantity(line.quantity) ?? line.cart.quantity,
      unitPrice: line.unitPrice.value,
      ...priceUnitOf(wholeQuantity(line.priceBasis?.quantity) ?? line.cart.priceUnit),
      currency: line.unitPrice.currency,
      uom: product.uom,
      poId: order.id,
      orderedAt: order.createdAt,
    });
  }
  return items;
}

function priceUnitOf(units: number | undefined): { priceUnit?: number } {
  return units === undefined || units === 1 ? {} : { priceUnit: units };
}

/**
 * Records the designs of a production PO that has become print orders as the reorder items of a buyer
 * with reorders on (no write for the others). Never throws: the PO is placed and confirmed already, and a
 * store failure here costs only the items, which the design's next PO records again.
 */
export async function recordReorderItems(
  ctx: GatewayContext,
  buyer: Pick<ResolvedBuyer, 'catalog'>,
  order: PurchaseOrder,
  document: Pick<PoDocument, 'lines'>,
): Promise<void> {
  if (order.deploymentMode !== 'production' || !reordersOn(buyer)) return;
  try {
    await recordItems(ctx, order, document);
  } catch (error) {
    ctx.logger.warn('reorder items not recorded', {
      po: order.id,
      buyer: order.buyerId,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

async function recordItems(
  ctx: GatewayContext,
  order: PurchaseOrder,
  document: Pick<PoDocument, 'lines'>,
): Promise<void> {
  // One statement per design, not per line: a PO of many lines of a few designs (one per cost centre or
  // ship-to) writes a few rows. The later line wins, as the store takes the later of one part number.
  const byPart = new Map(reorderItemsOf(ctx, order, document).map((item) => [item.partId, item]));
  const items = [...byPart.values()];
  if (items.length === 0) return;
  await ctx.store.reorders.record(items);
  ctx.logger.info('reorder items recorded', { po: order.id, buyer: order.buyerId, items: items.length });
}

/** A reorder item with the catalog product it is ordered as now, or none when it is no longer available. */
export interface ReorderOffer {
  item: ReorderItem;
  storefront?: ResolvedStorefront;
  /** Absent: the item's product is gone from its storefront's catalog, so it cannot be ordered. */
  product?: CatalogEntry;
}

/** What the item is ordered as today, from the config alone. */
export function reorderOffer(config: Pick<ResolvedConfig, 'storefronts'>, item: ReorderItem): ReorderOffer {
  const storefront = config.storefronts.find((s) => s.id === item.storefrontId);
  const product = storefront === undefined ? undefined : findProductBySku(storefront, item.sku);
  return {
    item,
    ...(storefront !== undefined && { storefront }),
    ...(product !== undefined && { product }),
  };
}
