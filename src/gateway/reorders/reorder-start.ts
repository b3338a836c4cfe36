/**
 * Reorder items in a punch-out: the offers a session may order (the buyer's items on the session's
 * storefront, when the buyer has reorders on), a design put in the cart as it was ordered, and a level-2
 * setup naming one, which opens the cart with the design at its last quantity. The catalog page's "Add to
 * cart" of one is reorder-route.ts.
 *
 * A reorder line is a cart line like any other, but its design is the one the buyer ordered before, as it
 * is, and its owner (`userRef`) is whoever saved that design: a PO of the line is placed as that owner, as
 * every PO is, so any requester of the buyer can reorder it, temporary or mapped. The user cannot open it
 * in the editor (it is not theirs); its quantity can change. It is priced from today's catalog, as every
 * cart line is; the PO is checked against that price.
 */
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import { addCartLine } from '../punchout/cart-lines.ts';
import type { StartTarget } from '../punchout/link-targets.ts';
import { MAX_SHOWN_REORDERS, type ReorderOffer, reorderOffer, reordersOn } from './reorder-items.ts';

interface SessionParts {
  buyer: ResolvedBuyer;
  session: PunchoutSession;
}

/**
 * The buyer's reorder offers in this session, the most recently ordered first (`MAX_SHOWN_REORDERS` of
 * them); none when the buyer has reorders off. Items of another storefront (a test punch-out on the test
 * storefront) are not this session's to order.
 */
export async function sessionReorders(ctx: GatewayContext, s: SessionParts): Promise<ReorderOffer[]> {
  if (!reordersOn(s.buyer)) return [];
  const items = await ctx.store.reorders.listByBuyer(s.buyer.id, MAX_SHOWN_REORDERS);
  return items
    .filter((item) => item.storefrontId === s.session.storefrontId)
    .map((item) => reorderOffer(ctx.config, item));
}

/**
 * The offer a part number names for this session, or undefined when it names none of the buyer's items
 * on the session's storefront: another buyer's item is answered like a made-up one.
 */
export async function findOffer(
  ctx: GatewayContext,
  s: SessionParts,
  partId: string,
): Promise<ReorderOffer | undefined> {
  if (!reordersOn(s.buyer)) return undefined;
  const item = await ctx.store.reorders.get(s.buyer.id, partId);
  if (item === undefined || item.storefrontId !== s.session.storefrontId) return undefined;
  return reorderOffer(ctx.config, item);
}

/** The design of an available offer as a new line of the session's cart, at its last quantity. */
export function addReorderLine(
  ctx: GatewayContext,
  session: PunchoutSession,
  storefront: ResolvedStorefront,
  offer: ReorderOffer & { product: NonNullable<ReorderOffer['product']> },
): Promise<CartLine> {
  const { item, product } = offer;
  return addCartLine(ctx, { session, storefront }, product, {
    designId: item.designId,
    name: item.name,
    quantity: item.quantity,
    userRef: item.userRef,
  });
}

export function isAvailable(
  offer: ReorderOffer,
): offer is ReorderOffer & { product: NonNullable<ReorderOffer['product']> } {
  return offer.product !== undefined;
}

/**
 * Where a level-2 setup naming `partId` starts, when it names one of the buyer's reorder items: the cart,
 * with the design put in at its last quantity; or the catalog saying the item is no longer available.
 * Undefined when it names no reorder item of the buyer (it may name a product).
 */
export async function reorderStartTarget(
  ctx: GatewayContext,
  s: SessionParts & { storefront: ResolvedStorefront },
  partId: string,
): Promise<StartTarget | undefined> {
  const offer = await findOffer(ctx, s, partId);
  if (offer === undefined) return undefined;
  if (!isAvailable(offer)) return { kind: 'unavailable', partId };
  await addReorderLine(ctx, s.session, s.storefront, offer);
  ctx.logger.info('reorder put in the cart', {
    buyer: s.buyer.id,
    session: s.session.id,
    part: partId,
    design: offer.item.designId,
  });
  return { kind: 'cart' };
}
