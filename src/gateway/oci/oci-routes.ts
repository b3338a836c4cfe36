/**
 * `GET|POST /oci/:buyer`: the OCI punch-in, and the two session pages its FUNCTION calls open.
 *
 * The request is read from its raw bytes by the codec (query and urlencoded or multipart body, in the
 * buyer's charset), the login checked in constant time (wrong passwords count towards the failed-secret
 * throttle of the buyer and client address, like wrong cXML SharedSecrets), HOOK_URL checked against the
 * buyer's hosts and kept in the session; later requests never carry it. Then, by FUNCTION:
 * - none: a session, and a 303 to its one-time start URL (the catalog);
 * - `DETAIL` / `DETAILADD`: a session, and a 303 to the product page of PRODUCTID (a SKU, or a line
 *   reference from an earlier transfer, shown with its design); "Design" opens the editor, then the usual
 *   cart and transfer;
 * - `SOURCING`: a session and the products matching SEARCHSTRING, each with "Design" (the catalog when
 *   there is no SEARCHSTRING). Our products need a design before they can be ordered, so sourcing leads into
 *   the editor rather than transferring bare products;
 * - `VALIDATE`: no session, no UI: a page that posts the one item at its current price for QUANTITY to
 *   HOOK_URL at once. A whole-piece quantity below the product's minimum is raised to it (as a shop rounds up
 *   to a packaging unit); above the maximum it is refused;
 * - `BACKGROUND_SEARCH`: no session, server to server: the matching products as NEW_ITEM-* inputs of a form
 *   that is never submitted, with no script and no cookie, each at its minimum quantity.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  acceptOciPunchIn,
  DEFAULT_OCI_PARSE_LIMITS,
  OciError,
  type OciPunchIn,
  type OciPunchInRequest,
  renderOciSearchResults,
  renderOciTransferForm,
} from '../../oci/index.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedOciBuyer, ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { sendPage } from '../http/send-page.ts';
import { type CatalogEntry, checkQuantity, findProductBySku, productBySku } from '../punchout/catalog.ts';
import { LINE_REF_PATTERN } from '../punchout/line-refs.ts';
import { renderMessagePage } from '../punchout/pages.ts';
import { formatAmount } from '../punchout/pricing.ts';
import {
  sessionPageSecurity,
  sessionPageUrl,
  sessionScope,
  signSessionToken,
} from '../punchout/session-scope.ts';
import { frameAncestorsFor, openSession } from '../punchout/sessions.ts';
import { checkOciBuyers, punchInSettings } from './buyer-settings.ts';
import { itemFields, ociLineOfProduct } from './oci-lines.ts';
import { ociPageResponse } from './oci-page.ts';
import { buyerUserFromPunchIn } from './oci-user.ts';
import { type ProductDetailView, renderProductsPage } from './product-pages.ts';
import { searchProducts } from './product-search.ts';
import { punchInErrorPage } from './punch-in-errors.ts';
import { sessionFieldsOf } from './session-fields.ts';

/** A PRODUCTID resolved: the product, and the cart line when it was one of our line references. */
interface NamedProduct {
  product: CatalogEntry;
  line?: CartLine;
}

interface PunchInScope {
  buyer: ResolvedOciBuyer;
  storefront: ResolvedStorefront;
  punchIn: OciPunchIn;
  frameAncestors: readonly string[];
}

const VALIDATE_LABELS = {
  title: 'Checking your item',
  notice:
    'The current price of your item is being returned to your procurement system. If nothing happens, press the button.',
  submit: 'Return item',
};

/**
 * @example
 * app.route('/oci', createOciRoutes(ctx));
 */
export function createOciRoutes(ctx: GatewayContext): Hono {
  checkOciBuyers(ctx.config);
  const app = new Hono();
  const noStoreRedirect = (location: string) =>
    new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

  function ociBuyerNamed(id: string): ResolvedOciBuyer | undefined {
    const buyer = ctx.buyers.byId(id);
    return buyer?.protocol === 'oci' ? buyer : undefined;
  }

  async function readRequest(c: Context): Promise<OciPunchInRequest> {
    const contentType = c.req.header('content-type');
    return {
      method: c.req.method,
      query: new URL(c.req.url).search,
      ...(contentType !== undefined && { contentType }),
      body: new Uint8Array(await c.req.arrayBuffer()),
    };
  }

  function noCatalogPage(c: Context): Promise<Response> {
    const page = renderMessagePage({
      title: 'Print catalog',
      heading: 'No catalog here',
      message:
        "There is no OCI catalog at this address. Check the catalog's URL in your procurement system's settings.",
      kind: 'error',
    });
    return sendPage(c, page, { frameAncestors: [] }, 404);
  }

  app.all(
    '/:buyer',
    bodyLimit({
      maxSize: DEFAULT_OCI_PARSE_LIMITS.maxBodyBytes,
      onError: (c) => {
        const buyer = ociBuyerNamed(c.req.param('buyer') ?? '');
        if (buyer === undefined) return noCatalogPage(c);
        const error = new OciError(
          'body_too_large',
          `The request body is larger than ${DEFAULT_OCI_PARSE_LIMITS.maxBodyBytes} bytes.`,
        );
        return punchInErrorPage(ctx, c, error, { buyer: buyer.id, frameAncestors: frameAncestorsFor(buyer) });
      },
    }),
    async (c) => {
      const buyer = ociBuyerNamed(c.req.param('buyer'));
      if (buyer === undefined) return noCatalogPage(c);
      const frameAncestors = frameAncestorsFor(buyer);
      const address = ctx.clientAddress(c);
      try {
        const punchIn = acceptLogin(await readRequest(c), buyer, address);
        ctx.logger.info('oci punch-in accepted', {
          buyer: buyer.id,
          method: c.req.method,
          function: punchIn.function ?? 'shop',
          charset: punchIn.charset,
          charsetSource: punchIn.charsetSource,
        });
        if (c.req.method === 'GET') {
          ctx.logger.warn('oci punch-in by GET: the password travels in the URL', { buyer: buyer.id });
        }
        const scope: PunchInScope = {
          buyer,
          storefront: ctx.storefront(buyer.storefront),
          punchIn,
          frameAncestors,
        };
        switch (punchIn.function) {
          case 'VALIDATE':
            return await validate(scope);
          case 'BACKGROUND_SEARCH':
            return backgroundSearch(scope);
          case 'DETAIL':
          case 'DETAILADD':
            return await detail(scope);
          case 'SOURCING':
            return await sourcing(scope);
          case undefined:
            return noStoreRedirect((await open(scope)).startUrl);
        }
      } catch (error) {
        return punchInErrorPage(ctx, c, error, { buyer: buyer.id, frameAncestors });
      }
    },
  );

  /** The codec's whole punch-in check, with wrong passwords counted against the (buyer, address) pair. */
  function acceptLogin(request: OciPunchInRequest, buyer: ResolvedOciBuyer, address: string): OciPunchIn {
    return ctx.secretThrottle.guard(
      buyer.id,
      address,
      () => acceptOciPunchIn(request, punchInSettings(buyer)),
      (error) => error instanceof OciError && error.code === 'bad_login',
    );
  }

  function open(scope: PunchInScope) {
    return openSession(ctx, {
      buyer: scope.buyer,
      protocol: 'oci',
      operation: 'create',
      user: buyerUserFromPunchIn(scope.punchIn),
      ...sessionFieldsOf(scope.punchIn),
    });
  }

  /** A URL of the session's OCI pages; the token is the same kind the punch-out pages use. */
  async function sessionUrl(session: PunchoutSession, rest: string): Promise<string> {
    return sessionPageUrl(ctx, await signSessionToken(ctx, session), rest, 'oci');
  }

  /**
   * PRODUCTID is what we sent as EXT_PRODUCT_ID: a line reference of this buyer's, or a SKU. A line
   * reference of another buyer reads as an unknown product, so nothing tells a caller it exists.
   */
  async function namedProduct(scope: PunchInScope, productId: string): Promise<NamedProduct> {
    const id = productId.trim();
    if (LINE_REF_PATTERN.test(id)) {
      const line = await ctx.store.cart.get(id);
      const product = line && findProductBySku(scope.storefront, line.sku);
      if (line && product && line.buyerId === scope.buyer.id && line.storefrontId === scope.storefront.id) {
        return { product, line };
      }
    }
    const product = findProductBySku(scope.storefront, id);
    if (product === undefined) {
      throw new GatewayError('unknown_product', `This catalog has no product ${id.slice(0, 40)}.`);
    }
    return { product };
  }

  async function validate(scope: PunchInScope): Promise<Response> {
    const { buyer, storefront, punchIn } = scope;
    const { product, line } = await namedProduct(scope, punchIn.productId ?? '');
    const quantity = checkQuantity(product, Math.max(product.minQuantity, Math.ceil(punchIn.quantity ?? 1)));
    const design = line && { lineRef: line.lineRef, name: line.name };
    const fields = itemFields(buyer, punchIn.charset, [
      ociLineOfProduct(buyer, storefront, product, quantity, design),
    ]);
    const page = renderOciTransferForm({
      hookUrl: punchIn.hookUrl,
      fields,
      target: punchIn.formTarget,
      echoFields: punchIn.echoFields,
      charset: punchIn.charset,
      autoSubmit: true,
      labels: VALIDATE_LABELS,
    });
    return ociPageResponse(page, {
      charset: punchIn.charset,
      frameAncestors: scope.frameAncestors,
      autoSubmit: true,
    });
  }

  function backgroundSearch(scope: PunchInScope): Response {
    const { buyer, storefront, punchIn } = scope;
    const searchString = punchIn.searchString ?? '';
    const hits = searchProducts(storefront, searchString);
    const fields = itemFields(
      buyer,
      punchIn.charset,
      hits.map((product) => ociLineOfProduct(buyer, storefront, product, product.minQuantity)),
    );
    const page = renderOciSearchResults({
      hookUrl: punchIn.hookUrl,
      fields,
      target: punchIn.formTarget,
      echoFields: punchIn.echoFields,
      charset: punchIn.charset,
      searchString,
    });
    return ociPageResponse(page, {
      charset: punchIn.charset,
      frameAncestors: scope.frameAncestors,
      autoSubmit: false,
    });
  }

  async function detail(scope: PunchInScope): Promise<Response> {
    const { product, line } = await namedProduct(scope, scope.punchIn.productId ?? '');
    const { session } = await open(scope);
    const query = line === undefined ? '' : `?line=${encodeURIComponent(line.lineRef)}`;
    return noStoreRedirect(await sessionUrl(session, `product/${encodeURIComponent(product.sku)}${query}`));
  }

  async function sourcing(scope: PunchInScope): Promise<Response> {
    const opened = await open(scope);
    const searchString = scope.punchIn.searchString;
    if (searchString === undefined) return noStoreRedirect(opened.startUrl);
    return noStoreRedirect(await sessionUrl(opened.session, `search?q=${encodeURIComponent(searchString)}`));
  }

  // The session pages of DETAIL and SOURCING. Their errors (expired or closed sessions, unknown products)
  // go to the gateway's error handler like those of every punch-out page.
  async function ociSessionScope(token: string) {
    const scope = await sessionScope(ctx, token);
    if (scope.buyer.protocol !== 'oci')
      throw new GatewayError('token_invalid', 'This link is not valid for this page.');
    const punchoutUrl = (rest: string) => sessionPageUrl(ctx, token, rest);
    const cartCount = (await ctx.store.cart.listBySession(scope.session.id)).length;
    return { ...scope, punchoutUrl, cartCount };
  }

  type SessionScope = Awaited<ReturnType<typeof ociSessionScope>>;

  function productView(s: SessionScope, product: CatalogEntry): ProductDetailView {
    return {
      sku: product.sku,
      name: product.name,
      description: product.description,
      thumbnailUrl: ctx
        .editorUrlsFor(s.storefront)
        .thumbnailUrl({ productId: product.productId, width: 320, height: 224 }),
      prices: [...product.prices]
        .sort((a, b) => a.minQuantity - b.minQuantity)
        .map((tier) => ({ minQuantity: tier.minQuantity, unitPrice: formatAmount(tier.unitPrice) })),
      currency: s.storefront.currency,
      uom: product.uom,
      minQuantity: product.minQuantity,
      leadTimeDays: product.leadTimeDays,
      designUrl: s.punchoutUrl(`design/${encodeURIComponent(product.sku)}`),
    };
  }

  function sendProductsPage(
    c: Context,
    s: SessionScope,
    view: Pick<Parameters<typeof renderProductsPage>[0], 'heading' | 'notice' | 'design' | 'products'>,
  ): Promise<Response> {
    const page = renderProductsPage({
      title: s.storefront.name ?? 'Print catalog',
      buyerName: s.buyer.name ?? s.buyer.id,
      catalogUrl: s.punchoutUrl('catalog'),
      cartUrl: s.punchoutUrl('cart'),
      cartCount: s.cartCount,
      ...view,
    });
    return sendPage(c, page, sessionPageSecurity(s));
  }

  app.get('/s/:token/product/:sku', async (c) => {
    const s = await ociSessionScope(c.req.param('token'));
    const product = productBySku(s.storefront, c.req.param('sku'));
    const lineRef = c.req.query('line');
    const line = lineRef === undefined ? undefined : await ctx.store.cart.get(lineRef);
    const ownLine = line?.buyerId === s.buyer.id && line.sku === product.sku ? line : undefined;
    return sendProductsPage(c, s, {
      heading: product.name,
      design: ownLine && {
        name: ownLine.name,
        lineRef: ownLine.lineRef,
        thumbnailUrl: ctx
          .editorUrlsFor(s.storefront)
          .thumbnailUrl({ productId: ownLine.designId, width: 80, height: 56 }),
      },
      products: [productView(s, product)],
    });
  });

  app.get('/s/:token/search', async (c) => {
    const s = await ociSessionScope(c.req.param('token'));
    const searchString = c.req.query('q') ?? '';
    const hits = searchProducts(s.storefront, searchString);
    return sendProductsPage(c, s, {
      heading: `Products for “${searchString}”`,
      notice:
        hits.length === 0
          ? `No product matches “${searchString}”. Browse the whole catalog instead.`
          : `${hits.length} ${hits.length === 1 ? 'product matches' : 'products match'} your search.`,
      products: hits.map((product) => productView(s, product)),
    });
  });

  return app;
}
