/**
 * Reorder items on the catalog page: its "Ordered before" section, and the "Add to cart" of one (`POST
 * /punchout/s/<token>/reorder/<part>`), which puts the design in the cart as it was ordered.
 */
import type { Hono } from 'hono';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import type { SafeHtml } from '../http/html.ts';
import { type SessionScope, sessionPageUrl, sessionScope } from '../punchout/session-scope.ts';
import { thumbnailUrl } from '../punchout/thumbnail-links.ts';
import { renderOrderedBefore } from './ordered-before.ts';
import { addReorderLine, findOffer, isAvailable, sessionReorders } from './reorder-start.ts';

/**
 * The catalog page's "Ordered before" section for the session, or nothing when the buyer has no reorder
 * items; `unavailablePartId` is the item a level-2 setup named that can no longer be ordered.
 */
export async function orderedBeforeSection(
  ctx: GatewayContext,
  s: SessionScope,
  unavailablePartId: string | undefined,
): Promise<SafeHtml | undefined> {
  const offers = await sessionReorders(ctx, s);
  const links = await Promise.all(
    offers.map(
      async ({ item }) =>
        [
          item.partId,
          await thumbnailUrl(ctx.config, item.storefrontId, item.designId, ctx.hmacSha256),
        ] as const,
    ),
  );
  return renderOrderedBefore({
    locale: s.locale,
    offers,
    thumbnails: new Map(links),
    addUrl: (partId) => sessionPageUrl(ctx, s.token, `reorder/${encodeURIComponent(partId)}`),
    unavailablePartId,
  });
}

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
