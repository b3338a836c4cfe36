/**
 * The trip through the print service's editor: the redirect that opens it with a PIPO token and a signed
 * return URL, and the return, which reads the saved design and puts it in the cart, as a new line or as a
 * line's new design.
 */
import { PrintApiError } from '../../print-api/index.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError, upstreamError } from '../http/errors.ts';
import { productBySku, quantityProblem } from './catalog.ts';
import { addCartLine } from './cart-lines.ts';
import { lineDescription } from './line-identity.ts';
import { type ReturnTarget, returnTargetRef } from './link-targets.ts';
import type { SessionScope } from './session-scope.ts';
import { sessionUrlTtl } from './sessions.ts';

/** What a page says while the print service times out, is away or answers nonsense. */
const PRINT_SERVICE_AWAY = 'The print service is not answering; please try again.';

/** A 303 to the editor for `productId`; the design saved there comes back to `target`. */
export async function editorRedirect(
  ctx: GatewayContext,
  s: SessionScope,
  productId: number,
  target: ReturnTarget,
): Promise<Response> {
  const pipoToken = await editorToken(ctx, s);
  const returnToken = await ctx.tokens.sign(
    { sid: s.session.id, pur: 'return', ref: returnTargetRef(target) },
    sessionUrlTtl(ctx, s.session),
    ctx.clock.now(),
  );
  const url = ctx.editorUrlsFor(s.storefront).onlineEditorUrl({
    productId,
    token: pipoToken,
    cartReturnUrl: `${ctx.publicUrl}/punchout/return/${returnToken}`,
  });
  return new Response(null, { status: 303, headers: { Location: url, 'Cache-Control': 'no-store' } });
}

/** The session's PIPO token for the editor, kept on the session when it had to be renewed. */
async function editorToken(ctx: GatewayContext, s: SessionScope): Promise<string> {
  try {
    const login = await ctx.accounts.sessionToken(s.buyer, s.storefront, s.session);
    if (login.upstreamCalls > 0) {
      await ctx.store.sessions.patch(s.session.id, { pipoToken: await ctx.accounts.sealed(login) });
    }
    return login.token;
  } catch (error) {
    throw upstreamError(error, 'open the editor', PRINT_SERVICE_AWAY);
  }
}

/**
 * The saved design `productid` of an editor return, checked by reading it from the print service as the
 * session's user (a design of someone else is refused).
 */
export async function savedDesign(ctx: GatewayContext, s: SessionScope, rawId: string): Promise<number> {
  // Design ids start at 1; the client refuses 0 before asking, which must not read as an outage.
  if (!/^\d{1,12}$/.test(rawId) || Number(rawId) < 1) {
    throw new GatewayError(
      'bad_request',
      'The editor returned no saved design (productid is missing or not a number).',
    );
  }
  const designId = Number(rawId);
  await ctx.accounts
    .withToken(s.buyer, s.storefront, s.session.pipoUserRef, (token) =>
      ctx.printApiFor(s.storefront).pipo.getProject(token, designId),
    )
    .catch((error: unknown) => {
      if (error instanceof PrintApiError && error.code === 'not_found') {
        throw new GatewayError(
          'design_not_owned',
          `Design ${designId} does not belong to this punch-out user.`,
        );
      }
      throw upstreamError(error, 'read the design', PRINT_SERVICE_AWAY);
    });
  return designId;
}

/**
 * A new cart line of a product orderable as it is, put in from the catalog without the editor: its
 * `designId` is the product's own print-service id (`printProductId`), which the print order is made
 * with, and the quantity is the one chosen, within the product's bounds.
 */
export function addCatalogLine(
  ctx: GatewayContext,
  s: Pick<SessionScope, 'storefront' | 'locale'> & { session: PunchoutSession },
  sku: string,
  quantity: number,
): Promise<CartLine> {
  const product = productBySku(s.storefront, sku);
  if (product.printProductId === undefined) {
    throw new GatewayError('unknown_product', `${product.name} is ordered as a design: design it first.`);
  }
  const problem = quantityProblem(product, quantity, s.locale);
  if (problem !== undefined) throw new GatewayError('invalid_quantity', problem);
  return addCartLine(ctx, s, product, { designId: product.printProductId, name: product.name, quantity });
}

/** A new cart line of the product `sku` with the saved design, at the product's minimum quantity. */
export function addDesignLine(
  ctx: GatewayContext,
  s: Pick<SessionScope, 'storefront'> & { session: PunchoutSession },
  sku: string,
  designId: number,
): Promise<CartLine> {
  const product = productBySku(s.storefront, sku);
  const name = lineDescription(product.name, designId);
  return addCartLine(ctx, s, product, { designId, name, quantity: product.minQuantity });
}
