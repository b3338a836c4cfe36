/**
 * The browser side of a punch-out: start URL → catalog → the editor (on the print service's editor host)
 * → back to us with the saved design → cart → transfer or cancel. Every URL carries a signed token bound
 * to its session and purpose; no cookies, because procurement systems frame these pages. What differs by
 * protocol (the hand-back and cancel forms and their page) comes from the buyer's `PunchoutProtocol`.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { ERROR_ANSWERS, GatewayError } from '../http/errors.ts';
import { addAccessFields } from '../http/request-id.ts';
import { type PageStatus, sendPage } from '../http/send-page.ts';
import { resolveSessionLanguage } from '../i18n/session-language.ts';
import { type CartCharges, quoteSessionCharges } from './cart-charges.ts';
import { cartPage, emptyTransferNeedsConfirm, transferBlockedReason } from './cart-pages.ts';
import { catalogPage } from './catalog-page.ts';
import { isCatalogLine, priceText, productBySku, quantityProblem } from './catalog.ts';
import { addCatalogLine, addDesignLine, editorRedirect, savedDesign } from './editor.ts';
import { removeKeptLine } from './kept-lines.ts';
import { lineDescription } from './line-identity.ts';
import { parseReturnTargetRef, parseStartTargetRef, type StartTarget } from './link-targets.ts';
import { orderedBeforeSection, reorderRoute, unavailableQuery } from '../reorders/reorder-route.ts';
import type { ReturnForm } from './pages.ts';
import {
  type SessionScope,
  sessionPageSecurity,
  sessionPageUrl,
  sessionScope,
  signSessionToken,
} from './session-scope.ts';
import { detachedSessionId, loadOpenSession } from './sessions.ts';

/** How much of a refused quantity the cart shows back in its input (enough for any real typo). */
const MAX_TYPED_QUANTITY = 20;

/** A cart line now shows another design of its product: the returned one, named after it. */
async function redesignLine(
  ctx: GatewayContext,
  s: SessionScope,
  line: CartLine,
  designId: number,
): Promise<void> {
  const product = productBySku(s.storefront, line.sku);
  await ctx.store.cart.update(line.lineRef, { designId, name: lineDescription(product.name, designId) });
}

/**
 * The session with its language decided: a punch-in that named none it knows (a cXML setup without a known
 * xml:lang) takes the language of the browser opening the start page, else the buyer's default, and keeps
 * it for every later page and the cart it sends back.
 */
async function sessionWithLanguage(
  ctx: GatewayContext,
  c: Context,
  session: PunchoutSession,
): Promise<PunchoutSession> {
  if (session.language !== undefined) return session;
  const { buyer } = ctx.sessionParties(session);
  const language = resolveSessionLanguage({
    acceptLanguage: c.req.header('accept-language'),
    buyerDefault: buyer.language,
  });
  await ctx.store.sessions.patch(session.id, { language });
  return { ...session, language };
}

/** A line of this session's cart that may change: not removed, not transferred, not in an inspect. */
async function changeableLine(ctx: GatewayContext, s: SessionScope, lineRef: string): Promise<CartLine> {
  const line = await ctx.store.cart.get(lineRef);
  if (line === undefined || line.sessionId !== s.session.id || line.state === 'removed') {
    throw new GatewayError('unknown_line', 'That line is not in this cart.');
  }
  if (s.session.operation === 'inspect')
    throw new GatewayError('inspect_read_only', 'This cart is read only.');
  return line;
}

/** A line whose design the session's user may open in the editor again: their own, and a design at all. */
async function redesignableLine(ctx: GatewayContext, s: SessionScope, lineRef: string): Promise<CartLine> {
  const line = await changeableLine(ctx, s, lineRef);
  if (isCatalogLine(s.storefront, line)) {
    throw new GatewayError(
      'bad_request',
      'This line is a catalog product without a design; only its quantity can change.',
    );
  }
  if (line.userRef !== s.session.pipoUserRef) {
    throw new GatewayError(
      'design_not_owned',
      'This design belongs to another user; only its quantity can change.',
    );
  }
  return line;
}

/** "Add to cart" of a product ordered as it is (`printProductId`): into the cart from the catalog, no editor. */
function addToCartRoute(ctx: GatewayContext, app: Hono): void {
  app.post('/s/:token/add/:sku', async (c) => {
    const s = await sessionScope(ctx, c.req.param('token'));
    if (s.session.operation === 'inspect')
      throw new GatewayError('inspect_read_only', 'This cart is read only.');
    const form = await c.req.parseBody();
    const raw = typeof form.quantity === 'string' ? form.quantity.trim() : '';
    const quantity = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
    await addCatalogLine(ctx, s, c.req.param('sku'), quantity);
    return c.redirect(sessionPageUrl(ctx, s.token, 'cart'), 303);
  });
}

/**
 * The cart's charges when it may be transferred, else the cart page saying why not (409: the request is
 * fine, the cart is not ready; the page says which lines and keeps cancel). An edit handing back nothing
 * makes the buyer delete the requisition's lines: only on an explicit yes. A cart the charge rules cannot
 * quote is not transferred.
 */
async function transferable(
  ctx: GatewayContext,
  c: Context,
  s: SessionScope,
  lines: readonly CartLine[],
): Promise<{ ok: true; charges: CartCharges } | { ok: false; refusal: Response }> {
  const refuse = async (message: string | undefined) => ({
    ok: false as const,
    refusal: await sendPage(c, await cartPage(ctx, s, lines, message), sessionPageSecurity(s), 409),
  });
  if (transferBlockedReason(s, lines) !== undefined) return refuse(undefined);
  if (emptyTransferNeedsConfirm(s, lines) && (await c.req.parseBody()).confirmEmpty !== 'yes') {
    return refuse(s.locale.t('cart.emptyNotConfirmed'));
  }
  const quoted = quoteSessionCharges(s, lines);
  return quoted.ok ? { ok: true, charges: quoted.charges } : refuse(quoted.message);
}

/**
 * Closes the session and hands the form back to the procurement system in a self-submitting page; the
 * request's access line says so (`cart transferred` with its line count, or `cart cancelled`).
 */
async function handBack(
  ctx: GatewayContext,
  c: Context,
  s: SessionScope,
  form: ReturnForm,
  { state, lines }: { state: 'transferred' | 'cancelled'; lines?: number },
  message: string,
): Promise<Response> {
  addAccessFields(c, { event: `cart ${state}`, buyer: s.buyer.id, session: s.session.id, lines });
  await ctx.store.sessions.patch(s.session.id, { state });
  ctx.metrics.count('punchgate_carts_returned_total', { protocol: s.session.protocol, outcome: state });
  return ctx.protocolOf(s.buyer).sendReturnPage(c, s, form, message);
}

/** The session page a start URL opens, as a path below the session's token. */
function startPage(target: StartTarget): string {
  switch (target.kind) {
    case 'design':
      return `design/${encodeURIComponent(target.sku)}`;
    case 'unavailable':
      return unavailableQuery(target.partId);
    default:
      return target.kind;
  }
}

export function createPunchoutRoutes(ctx: GatewayContext): Hono {
  const app = new Hono();
  const scope = (c: Context) => sessionScope(ctx, c.req.param('token') ?? '');
  const backTo = (s: SessionScope, rest: string) => sessionPageUrl(ctx, s.token, rest);

  // The one-time start URL of the setup response: it opens the session once and then never again.
  app.get('/start/:token', async (c) => {
    const claims = await ctx.tokens.verify(c.req.param('token'), 'start', ctx.clock.now());
    if (
      claims.jti === undefined ||
      !(await ctx.store.tokens.consumeOnce(claims.jti, new Date(claims.exp * 1000)))
    ) {
      throw new GatewayError(
        'token_used',
        'This punch-out link was already used. Start the punch-out again from your procurement system.',
      );
    }
    const session = await sessionWithLanguage(ctx, c, await loadOpenSession(ctx, claims.sid));
    const rest = startPage(parseStartTargetRef(claims.ref));
    return c.redirect(sessionPageUrl(ctx, await signSessionToken(ctx, session), rest), 303);
  });

  app.get('/s/:token/catalog', async (c) => {
    const s = await scope(c);
    if (s.session.operation === 'inspect') return c.redirect(backTo(s, 'cart'), 303);
    const [cartCount, orderedBefore] = await Promise.all([
      ctx.store.cart.countBySession(s.session.id),
      orderedBeforeSection(ctx, s, c.req.query('unavailable')),
    ]);
    const query = { q: c.req.query('q'), page: c.req.query('page') };
    return sendPage(c, catalogPage(ctx, s, cartCount, query, orderedBefore), sessionPageSecurity(s));
  });

  app.get('/s/:token/design/:sku', async (c) => {
    const s = await scope(c);
    if (s.session.operation === 'inspect')
      throw new GatewayError('inspect_read_only', 'This cart is read only.');
    const product = productBySku(s.storefront, c.req.param('sku'));
    return editorRedirect(ctx, s, product.productId, { kind: 'sku', sku: product.sku });
  });

  addToCartRoute(ctx, app);
  reorderRoute(ctx, app);

  app.get('/s/:token/cart', async (c) => {
    const s = await scope(c);
    const lines = await ctx.store.cart.listBySession(s.session.id);
    return sendPage(c, await cartPage(ctx, s, lines, c.req.query('notice')), sessionPageSecurity(s));
  });

  app.get('/s/:token/cart/:lineRef/edit', async (c) => {
    const s = await scope(c);
    const line = await redesignableLine(ctx, s, c.req.param('lineRef'));
    return editorRedirect(ctx, s, line.designId, { kind: 'line', lineRef: line.lineRef });
  });

  app.post('/s/:token/cart/:lineRef/quantity', async (c) => {
    const s = await scope(c);
    const line = await changeableLine(ctx, s, c.req.param('lineRef'));
    const product = productBySku(s.storefront, line.sku);
    const form = await c.req.parseBody();
    const raw = typeof form.quantity === 'string' ? form.quantity.trim() : '';
    const quantity = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
    const problem = quantityProblem(product, quantity, s.locale);
    if (problem !== undefined) {
      // The cart again, not an error page: the message by the line and the typed value kept, so the user
      // corrects it where it is (a page without the cart would leave them no way back).
      const lines = await ctx.store.cart.listBySession(s.session.id);
      const refused = { lineRef: line.lineRef, typed: raw.slice(0, MAX_TYPED_QUANTITY), problem };
      const status = ERROR_ANSWERS.invalid_quantity.http as PageStatus;
      return sendPage(c, await cartPage(ctx, s, lines, undefined, refused), sessionPageSecurity(s), status);
    }
    await ctx.store.cart.update(line.lineRef, {
      quantity,
      unitPrice: priceText(product, quantity, line.currency),
      priceUnit: product.priceUnit,
    });
    return c.redirect(backTo(s, 'cart'), 303);
  });

  app.post('/s/:token/cart/:lineRef/remove', async (c) => {
    const s = await scope(c);
    const line = await changeableLine(ctx, s, c.req.param('lineRef'));
    await ctx.store.cart.update(
      line.lineRef,
      line.state === 'ordered' ? { sessionId: detachedSessionId(s.session.id) } : { state: 'removed' },
    );
    return c.redirect(backTo(s, 'cart'), 303);
  });

  app.post('/s/:token/kept/:index/remove', async (c) => {
    const s = await scope(c);
    await removeKeptLine(ctx, s.session, c.req.param('index'));
    return c.redirect(backTo(s, 'cart'), 303);
  });

  app.post('/s/:token/transfer', async (c) => {
    const s = await scope(c);
    const lines = await ctx.store.cart.listBySession(s.session.id);
    const ready = await transferable(ctx, c, s, lines);
    if (!ready.ok) return ready.refusal;
    const form = await ctx.protocolOf(s.buyer).cartForm(ctx, s, lines, ready.charges);
    const transferred = { state: 'transferred', lines: lines.length } as const;
    return handBack(ctx, c, s, form, transferred, s.locale.t('return.sending'));
  });

  app.post('/s/:token/cancel', async (c) => {
    const s = await scope(c);
    const form = ctx.protocolOf(s.buyer).cancelForm(ctx, s);
    return handBack(ctx, c, s, form, { state: 'cancelled' }, s.locale.t('return.cancelling'));
  });

  // The editor's cart return URL (`cru`): the saved design comes back as `productid`.
  app.get('/return/:token', async (c) => {
    const claims = await ctx.tokens.verify(c.req.param('token'), 'return', ctx.clock.now());
    const session = await loadOpenSession(ctx, claims.sid);
    const s: SessionScope = {
      session,
      token: await signSessionToken(ctx, session),
      ...ctx.sessionParties(session),
    };
    const designId = await savedDesign(ctx, s, c.req.query('productid') ?? '');
    const target = parseReturnTargetRef(claims.ref);
    if (target === undefined) throw new GatewayError('token_invalid', 'This return link is not valid.');
    if (target.kind === 'line') {
      await redesignLine(ctx, s, await changeableLine(ctx, s, target.lineRef), designId);
    } else {
      await addDesignLine(ctx, s, target.sku, designId);
    }
    return c.redirect(backTo(s, 'cart'), 303);
  });

  return app;
}
