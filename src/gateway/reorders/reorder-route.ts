/**
 * The catalog page's "Add to cart" of a reorder item (`POST /punchout/s/<token>/reorder/<part>`): the design
 * into the cart as it was ordered, then the cart.
 */
import type { Hono } from 'hono';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import { sessionPageUrl, sessionScope } from '../punchout/session-scope.ts';
import { addReorderLine, findOffer, isAvailable } from './reorder-start.ts';

/** The catalog page's query that says a reorder item chosen is no longer available. */
export function unavailableQuery(partId: string): string {
  return `catalog?unavailable=${encodeURIComponent(partId)}`;
}

/** "Add to cart" of a reorder item on the catalog page: the design into the cart as it was ordered. */
export function reorderRoute(ctx: GatewayContext, app: Hono): void {
  app.post('/s/:token/reorder/:partId', async (c) => {
    const s = await sessionScope(ctx, c.req.param('token'));
    if (s.session.operation === 'inspect')
      throw new GatewayError('inspect_read_only', 'This cart is read only.');
    const partId = c.req.param('partId');
    const offer = await findOffer(ctx, s, partId);
    if (offer === undefined) {
      throw new GatewayError('unknown_product', `This catalog has no item ${partId} ordered before.`);
    }
    // A page older than the config change: the catalog now says why the item cannot be ordered.
    if (!isAvailable(offer)) return c.redirect(sessionPageUrl(ctx, s.token, unavailableQuery(partId)), 303);
    await addReorderLine(ctx, s.session, s.storefront, offer);
    return c.redirect(sessionPageUrl(ctx, s.token, 'cart'), 303);
  });
}
