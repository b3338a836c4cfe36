/**
 * The browser side of a punch-out: start URL → catalog → the editor (on the print service's editor host)
 * → back to us with the saved design → cart → transfer or cancel. Every URL carries a signed token bound
 * to its session and purpose; no cookies, because procurement systems frame these pages.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { PrintApiError } from '../../print-api/index.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { cxmlCancelForm, cxmlCartForm } from '../cxml/transfer.ts';
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import { ERROR_ANSWERS, GatewayError, publicMessage, upstreamError } from '../http/errors.ts';
import { contentSecurityPolicy, type PageSecurity } from '../http/layout.ts';
import { checkQuantity, priceText, productBySku } from './catalog.ts';
import { newLineRef } from './line-refs.ts';
import {
  type ReturnForm,
  renderCartPage,
  renderCatalogPage,
  renderMessagePage,
  renderReturnFormPage,
} from './pages.ts';
import { formatAmount, lineTotal, sumAmounts, unitPriceFor } from './pricing.ts';
import {
  editorOrigin,
  frameAncestorsFor,
  loadOpenSession,
  parseStartTargetRef,
  sessionUrlTtl,
} from './sessions.ts';

/** What a page says while the print service times out, is away or answers nonsense. */
const PRINT_SERVICE_AWAY = 'The print service is not answering; please try again.';

/** Builds the cart form for an OCI session; provided by the OCI module so this file stays protocol-neutral. */
export interface ReturnFormBuilders {
  cart(
    ctx: GatewayContext,
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    session: PunchoutSession,
    lines: readonly CartLine[],
  ): ReturnForm;
  cancel(
    ctx: GatewayContext,
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    session: PunchoutSession,
  ): ReturnForm;
  /**
   * Sends the hand-back page of a form built above, for a protocol whose page cannot be the generic UTF-8
   * one (OCI: the bytes, meta charset and accept-charset in the buyer's charset, e.g. ISO-8859-1).
   * Without it the routes send `renderReturnFormPage`.
   */
  sendReturnPage?(c: Context, form: ReturnForm, frameAncestors: readonly string[]): Promise<Response>;
}

interface SessionScope {
  session: PunchoutSession;
  buyer: ResolvedBuyer;
  storefront: ResolvedStorefront;
  /** The session token of this request's URL. */
  token: string;
}

export async function sendPage(
  c: Context,
  body: string,
  security: PageSecurity,
  status: 200 | 400 | 401 | 403 | 404 | 409 | 410 | 412 | 429 | 500 | 502 | 503 = 200,
): Promise<Response> {
  c.header('Content-Security-Policy', await contentSecurityPolicy(security));
  c.header('Cache-Control', 'no-store');
  return c.html(body, status);
}

export function createPunchoutRoutes(ctx: GatewayContext, ociForms: ReturnFormBuilders | undefined): Hono {
  const app = new Hono();
  const sessionPath = (token: string, rest: string) => `${ctx.publicUrl}/punchout/s/${token}/${rest}`;

  async function scope(token: string): Promise<SessionScope> {
    const claims = await ctx.tokens.verify(token, 'session', ctx.clock.now());
    const session = await loadOpenSession(ctx, claims.sid);
    return { session, token, ...ctx.sessionParties(session) };
  }

  function securityFor(
    s: Pick<SessionScope, 'buyer' | 'storefront'>,
    extra: Partial<PageSecurity> = {},
  ): PageSecurity {
    return {
      frameAncestors: frameAncestorsFor(s.buyer),
      imageOrigins: [editorOrigin(s.storefront)],
      ...extra,
    };
  }

  function returnFormFor(s: SessionScope, lines: readonly CartLine[]): ReturnForm {
    if (s.buyer.protocol === 'cxml') {
      const token = s.session.pipoToken?.token ?? '';
      return cxmlCartForm(ctx, s.buyer, s.storefront, s.session, lines, (line) =>
        proofUrl(s.storefront, token, line),
      );
    }
    if (ociForms === undefined) throw new GatewayError('bad_request', 'OCI is not enabled on this gateway.');
    return ociForms.cart(ctx, s.buyer, s.storefront, s.session, lines);
  }

  function cancelFormFor(s: Pick<SessionScope, 'buyer' | 'storefront' | 'session'>): ReturnForm {
    if (s.buyer.protocol === 'cxml') return cxmlCancelForm(ctx, s.buyer, s.storefront, s.session);
    if (ociForms === undefined) throw new GatewayError('bad_request', 'OCI is not enabled on this gateway.');
    return ociForms.cancel(ctx, s.buyer, s.storefront, s.session);
  }

  function proofUrl(storefront: ResolvedStorefront, pipoToken: string, line: CartLine): string {
    return ctx.editorUrlsFor(storefront).proofUrl({ token: pipoToken, productId: line.designId });
  }

  /**
   * A PIPO token the editor will accept: a recent one as is; an older one refreshed with `loggedin`
   * (which extends its life), or replaced by a new login when the service has let it lapse.
   */
  async function editorToken(s: SessionScope): Promise<string> {
    const current = s.session.pipoToken;
    const now = ctx.clock.now();
    const reuseMs = ctx.config.sessions.pipoTokenReuseSeconds * 1000;
    if (current && now.getTime() - current.obtainedAt.getTime() < reuseMs) return current.token;
    let token = current?.token;
    try {
      const alive = token !== undefined && (await ctx.printApiFor(s.storefront).pipo.isLoggedIn(token));
      if (!alive)
        token = (await ctx.accounts.tokenFor(s.buyer, s.storefront, s.session.pipoUserRef, token)).token;
    } catch (error) {
      throw upstreamError(error, 'open the editor', PRINT_SERVICE_AWAY);
    }
    await ctx.store.sessions.update(s.session.id, { pipoToken: { token: token ?? '', obtainedAt: now } });
    return token ?? '';
  }

  async function editorRedirect(s: SessionScope, productId: number, ref: string): Promise<Response> {
    const pipoToken = await editorToken(s);
    const returnToken = await ctx.tokens.sign(
      { sid: s.session.id, pur: 'return', ref },
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
    const session = await loadOpenSession(ctx, claims.sid);
    const token = await ctx.tokens.sign(
      { sid: session.id, pur: 'session' },
      sessionUrlTtl(ctx, session),
      ctx.clock.now(),
    );
    const target = parseStartTargetRef(claims.ref);
    const rest = target.kind === 'design' ? `design/${encodeURIComponent(target.sku)}` : target.kind;
    return c.redirect(sessionPath(token, rest), 303);
  });

  app.get('/s/:token/catalog', async (c) => {
    const s = await scope(c.req.param('token'));
    if (s.session.operation === 'inspect') return c.redirect(sessionPath(s.token, 'cart'), 303);
    const urls = ctx.editorUrlsFor(s.storefront);
    const cartCount = (await ctx.store.cart.listBySession(s.session.id)).length;
    const page = renderCatalogPage({
      title: s.storefront.name ?? 'Print catalog',
      buyerName: s.buyer.name ?? s.buyer.id,
      cartUrl: sessionPath(s.token, 'cart'),
      cartCount,
      products: s.storefront.products.map((p) => ({
        sku: p.sku,
        name: p.name,
        description: p.description,
        thumbnailUrl: urls.thumbnailUrl({ productId: p.productId, width: 200, height: 140 }),
        priceFrom: formatAmount(Math.min(...p.prices.map((t) => t.unitPrice))),
        currency: s.storefront.currency,
        uom: p.uom,
        designUrl: sessionPath(s.token, `design/${encodeURIComponent(p.sku)}`),
      })),
    });
    return sendPage(c, page, securityFor(s));
  });

  app.get('/s/:token/design/:sku', async (c) => {
    const s = await scope(c.req.param('token'));
    if (s.session.operation === 'inspect')
      throw new GatewayError('inspect_read_only', 'This cart is read only.');
    const product = productBySku(s.storefront, c.req.param('sku'));
    return editorRedirect(s, product.productId, `sku:${product.sku}`);
  });

  app.get('/s/:token/cart', async (c) => {
    const s = await scope(c.req.param('token'));
    const lines = await ctx.store.cart.listBySession(s.session.id);
    const readOnly = s.session.operation === 'inspect';
    const pipoToken = s.session.pipoToken?.token ?? '';
    const urls = ctx.editorUrlsFor(s.storefront);
    const page = renderCartPage({
      title: s.storefront.name ?? 'Print catalog',
      buyerName: s.buyer.name ?? s.buyer.id,
      currency: s.storefront.currency,
      readOnly,
      notice: c.req.query('notice'),
      catalogUrl: sessionPath(s.token, 'catalog'),
      transferAction: sessionPath(s.token, 'transfer'),
      transferLabel: readOnly ? 'Return to procurement system' : 'Transfer cart to procurement system',
      cancelAction: readOnly ? undefined : sessionPath(s.token, 'cancel'),
      total: formatAmount(sumAmounts(lines.map((l) => lineTotal(Number(l.unitPrice), l.quantity)))),
      lines: lines.map((line) => ({
        lineRef: line.lineRef,
        name: line.name,
        sku: line.sku,
        designId: line.designId,
        quantity: line.quantity,
        unitPrice: formatAmount(Number(line.unitPrice)),
        total: formatAmount(lineTotal(Number(line.unitPrice), line.quantity)),
        uom: line.uom,
        thumbnailUrl: urls.thumbnailUrl({ productId: line.designId, width: 80, height: 56 }),
        proofUrl: pipoToken ? proofUrl(s.storefront, pipoToken, line) : undefined,
        editUrl:
          line.userRef === s.session.pipoUserRef
            ? sessionPath(s.token, `cart/${line.lineRef}/edit`)
            : undefined,
        quantityAction: sessionPath(s.token, `cart/${line.lineRef}/quantity`),
        removeAction: sessionPath(s.token, `cart/${line.lineRef}/remove`),
      })),
    });
    return sendPage(c, page, securityFor(s));
  });

  async function lineOf(s: SessionScope, lineRef: string): Promise<CartLine> {
    const line = await ctx.store.cart.get(lineRef);
    if (line === undefined || line.sessionId !== s.session.id || line.state !== 'cart') {
      throw new GatewayError('unknown_line', 'That line is not in this cart.');
    }
    if (s.session.operation === 'inspect')
      throw new GatewayError('inspect_read_only', 'This cart is read only.');
    return line;
  }

  app.get('/s/:token/cart/:lineRef/edit', async (c) => {
    const s = await scope(c.req.param('token'));
    const line = await lineOf(s, c.req.param('lineRef'));
    if (line.userRef !== s.session.pipoUserRef) {
      throw new GatewayError(
        'design_not_owned',
        'This design belongs to another user; only its quantity can change.',
      );
    }
    return editorRedirect(s, line.designId, `line:${line.lineRef}`);
  });

  app.post('/s/:token/cart/:lineRef/quantity', async (c) => {
    const s = await scope(c.req.param('token'));
    const line = await lineOf(s, c.req.param('lineRef'));
    const product = productBySku(s.storefront, line.sku);
    const form = await c.req.parseBody();
    const raw = typeof form.quantity === 'string' ? form.quantity.trim() : '';
    const quantity = checkQuantity(product, /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN);
    await ctx.store.cart.update(line.lineRef, { quantity, unitPrice: priceText(product, quantity) });
    return c.redirect(sessionPath(s.token, 'cart'), 303);
  });

  app.post('/s/:token/cart/:lineRef/remove', async (c) => {
    const s = await scope(c.req.param('token'));
    const line = await lineOf(s, c.req.param('lineRef'));
    await ctx.store.cart.update(line.lineRef, { state: 'removed' });
    return c.redirect(sessionPath(s.token, 'cart'), 303);
  });

  /** Closes the session and hands the form back to the procurement system in a self-submitting page. */
  async function handBack(
    c: Context,
    s: SessionScope,
    form: ReturnForm,
    state: 'transferred' | 'cancelled',
    message: string,
  ): Promise<Response> {
    await ctx.store.sessions.update(s.session.id, { state });
    ctx.metrics.count('punchgate_carts_returned_total', { protocol: s.session.protocol, outcome: state });
    if (s.buyer.protocol === 'oci' && ociForms?.sendReturnPage) {
      return ociForms.sendReturnPage(c, form, frameAncestorsFor(s.buyer));
    }
    const page = renderReturnFormPage({ title: s.storefront.name ?? 'Print catalog', message, form });
    // No form-action directive: buyer systems redirect after receiving the cart, and browsers apply
    // form-action to those redirects too.
    return sendPage(c, page, securityFor(s, { formActions: 'any' }));
  }

  app.post('/s/:token/transfer', async (c) => {
    const s = await scope(c.req.param('token'));
    const lines = await ctx.store.cart.listBySession(s.session.id);
    const form = returnFormFor(s, lines);
    ctx.logger.info('cart transferred', { buyer: s.buyer.id, session: s.session.id, lines: lines.length });
    return handBack(c, s, form, 'transferred', 'Sending your cart to your procurement system…');
  });

  app.post('/s/:token/cancel', async (c) => {
    const s = await scope(c.req.param('token'));
    return handBack(
      c,
      s,
      cancelFormFor(s),
      'cancelled',
      'Returning to your procurement system without changes…',
    );
  });

  // The editor's cart return URL (`cru`): the saved design comes back as `productid`.
  app.get('/return/:token', async (c) => {
    const claims = await ctx.tokens.verify(c.req.param('token'), 'return', ctx.clock.now());
    const session = await loadOpenSession(ctx, claims.sid);
    const parties = ctx.sessionParties(session);
    const sessionToken = await ctx.tokens.sign(
      { sid: session.id, pur: 'session' },
      sessionUrlTtl(ctx, session),
      ctx.clock.now(),
    );
    const s: SessionScope = { session, token: sessionToken, ...parties };
    const rawId = c.req.query('productid') ?? '';
    // Design ids start at 1; the client refuses 0 before asking, which must not read as an outage.
    if (!/^\d{1,12}$/.test(rawId) || Number(rawId) < 1) {
      throw new GatewayError(
        'bad_request',
        'The editor returned no saved design (productid is missing or not a number).',
      );
    }
    const designId = Number(rawId);
    const project = await ctx.accounts
      .withToken(s.buyer, s.storefront, session.pipoUserRef, (token) =>
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

    const ref = claims.ref ?? '';
    if (ref.startsWith('line:')) {
      const line = await lineOf(s, ref.slice('line:'.length));
      await ctx.store.cart.update(line.lineRef, { designId, name: project.name });
    } else if (ref.startsWith('sku:')) {
      const product = productBySku(s.storefront, ref.slice('sku:'.length));
      const quantity = product.minQuantity;
      await ctx.store.cart.add({
        lineRef: newLineRef(),
        sessionId: session.id,
        buyerId: session.buyerId,
        storefrontId: session.storefrontId,
        userRef: session.pipoUserRef,
        designId,
        productId: product.productId,
        sku: product.sku,
        name: project.name || product.name,
        quantity,
        unitPrice: formatAmount(unitPriceFor(product, quantity)),
        currency: s.storefront.currency,
        uom: product.uom,
        ...(product.unspsc !== undefined && { unspsc: product.unspsc }),
        ...(product.leadTimeDays !== undefined && { leadTimeDays: product.leadTimeDays }),
      });
    } else {
      throw new GatewayError('token_invalid', 'This return link is not valid.');
    }
    return c.redirect(sessionPath(sessionToken, 'cart'), 303);
  });

  return app;
}

/**
 * The page for a failed punch-out request. An expired link still names its session (its signature is
 * checked), so the page can offer the way back: the cancel form to the stored return URL.
 */
export async function punchoutErrorPage(
  ctx: GatewayContext,
  c: Context,
  error: GatewayError,
  ociForms: ReturnFormBuilders | undefined,
): Promise<Response> {
  let back: ReturnForm | undefined;
  let security: PageSecurity = { frameAncestors: [] };
  const token = c.req.param('token');
  if (token !== undefined && (error.code === 'token_expired' || error.code === 'session_closed')) {
    const purpose = c.req.path.includes('/return/')
      ? 'return'
      : c.req.path.includes('/start/')
        ? 'start'
        : 'session';
    const claims = await ctx.tokens.verifyExpired(token, purpose);
    const session = claims && (await ctx.store.sessions.get(claims.sid));
    if (session) {
      const parties = ctx.sessionParties(session);
      security = { frameAncestors: frameAncestorsFor(parties.buyer), formActions: 'any' };
      if (error.code === 'token_expired' && session.state === 'open') {
        back =
          parties.buyer.protocol === 'cxml'
            ? cxmlCancelForm(ctx, parties.buyer, parties.storefront, session)
            : ociForms?.cancel(ctx, parties.buyer, parties.storefront, session);
      }
    }
  }
  const expired = error.code === 'token_expired';
  const page = renderMessagePage({
    title: 'Print catalog',
    heading: expired ? 'Your punch-out session has expired' : 'This page cannot be shown',
    message: expired
      ? 'For your security, catalog sessions end after a while. Return to your procurement system and punch out again; nothing in your requisition has changed.'
      : publicMessage(error, 'page'),
    kind: 'error',
    back,
  });
  const status = ERROR_ANSWERS[error.code].http as Parameters<typeof sendPage>[3];
  return sendPage(c, page, security, status);
}
