/**
 * A new line of a session's cart, whichever way it comes: a saved design back from the editor, a catalog
 * product put in as it is, or a design ordered before (../reorders).
 */
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedStorefront } from '../deps.ts';
import { type CatalogEntry, priceText } from './catalog.ts';
import { newLineRef } from './line-refs.ts';

/**
 * A new cart line of `product` in the session's cart, priced for its quantity. The design is the session
 * user's unless `userRef` names its owner (a reorder of a design someone else saved): a PO of the line is
 * placed as that owner.
 */
export function addCartLine(
  ctx: GatewayContext,
  { session, storefront }: { session: PunchoutSession; storefront: ResolvedStorefront },
  product: CatalogEntry,
  line: { designId: number; name: string; quantity: number; userRef?: string },
): Promise<CartLine> {
  return ctx.store.cart.add({
    lineRef: newLineRef(),
    sessionId: session.id,
    buyerId: session.buyerId,
    storefrontId: session.storefrontId,
    // The line is as test as the punch-out that made it: only a PO of the same mode may order it.
    deploymentMode: session.deploymentMode,
    userRef: line.userRef ?? session.pipoUserRef,
    designId: line.designId,
    productId: product.productId,
    sku: product.sku,
    name: line.name,
    quantity: line.quantity,
    unitPrice: priceText(product, line.quantity, storefront.currency),
    ...(product.priceUnit !== 1 && { priceUnit: product.priceUnit }),
    currency: storefront.currency,
    uom: product.uom,
    ...(product.unspsc !== undefined && { unspsc: product.unspsc }),
    ...(product.leadTimeDays !== undefined && { leadTimeDays: product.leadTimeDays }),
  });
}
