/**
 * The session pages of OCI's DETAIL and SOURCING punch-ins: a product page (with the design of an earlier
 * line when PRODUCTID named one) and search results, each product with "Design" into the editor. Their
 * errors (expired or closed sessions, unknown products) go to the gateway's error handler like those of
 * every punch-out page.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../http/errors.ts';
import { sendPage } from '../http/send-page.ts';
import { type CatalogEntry, priceBreaks, productBySku } from '../punchout/catalog.ts';
import { addToCartView, productPage } from '../punchout/catalog-page.ts';
import { pricedUnitText } from '../punchout/pricing.ts';
import { searchProducts } from '../punchout/product-search.ts';
import { lineText, productText } from '../punchout/product-text.ts';
import { sessionPageSecurity, sessionPageUrl, sessionScope } from '../punchout/session-scope.ts';
import { type ProductDetailView, renderProductsPage } from './product-pages.ts';

export function createOciSessionPages(ctx: GatewayContext): Hono {
  const app = new Hono();

  async function ociSessionScope(token: string) {
    const scope = await sessionScope(ctx, token);
    if (scope.buyer.protocol !== 'oci')
      throw new GatewayError('token_invalid', 'This link is not valid for this page.');
    const punchoutUrl = (rest: string) => sessionPageUrl(ctx, token, rest);
    const cartCount = await ctx.store.cart.countBySession(scope.session.id);
    return { ...scope, punchoutUrl, cartCount };
  }

  type SessionScope = Awaited<ReturnType<typeof ociSessionScope>>;

  function productView(s: SessionScope, product: CatalogEntry): ProductDetailView {
    const text = productText(product, s.locale.language, s.storefront);
    return {
      sku: product.sku,
      name: text.name,
      description: text.description,
      thumbnailUrl: ctx
        .editorUrlsFor(s.storefront)
        .thumbnailUrl({ productId: product.productId, width: 320, height: 224 }),
      // The breaks a buyer can reach, as the catalog and cart show them (no tier below the minimum).
      prices: priceBreaks(product, s.storefront.currency).map((b) => ({
        minQuantity: b.from,
        unitPrice: b.unitPrice,
      })),
      currency: s.storefront.currency,
      uom: pricedUnitText(product.priceUnit, product.uom, s.locale.language),
      minQuantity: product.minQuantity,
      leadTimeDays: product.leadTimeDays,
      designUrl: s.punchoutUrl(`design/${encodeURIComponent(product.sku)}`),
      addToCart: addToCartView(product, s.punchoutUrl),
    };
  }

  function sendProductsPage(
    c: Context,
    s: SessionScope,
    view: Pick<
      Parameters<typeof renderProductsPage>[0],
      'heading' | 'notice' | 'design' | 'products' | 'paging'
    >,
  ): Promise<Response> {
    const page = renderProductsPage({
      locale: s.locale,
      title: s.storefront.name ?? s.locale.t('page.catalogTitle'),
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
      heading: productText(product, s.locale.language, s.storefront).name,
      design: ownLine && {
        name: lineText(ownLine, product, s.storefront, s.locale).name,
        lineRef: ownLine.lineRef,
        thumbnailUrl: ctx
          .editorUrlsFor(s.storefront)
          .thumbnailUrl({ productId: ownLine.designId, width: 80, height: 56 }),
      },
      products: [productView(s, product)],
    });
  });

  // A page of hits at a time, as the catalog: SAP's `*` lists every product.
  app.get('/s/:token/search', async (c) => {
    const s = await ociSessionScope(c.req.param('token'));
    const searchString = c.req.query('q') ?? '';
    const hits = searchProducts(s.storefront, searchString);
    const requested = c.req.query('page');
    const pageUrl = (n: number) =>
      sessionPageUrl(
        ctx,
        s.token,
        `search?q=${encodeURIComponent(searchString)}${n > 1 ? `&page=${n}` : ''}`,
        'oci',
      );
    const { shown, paging, pastLast } = productPage(hits, requested, pageUrl);
    const { locale } = s;
    const found =
      hits.length === 1
        ? locale.t('product.foundOne')
        : locale.t('product.foundMany', { count: hits.length });
    const pastLastNotice = locale.t('catalog.pastLast', { asked: requested ?? '', page: paging.page });
    return sendProductsPage(c, s, {
      heading: locale.t('product.searchHeading', { query: searchString }),
      notice:
        hits.length === 0
          ? locale.t('product.noHits', { query: searchString })
          : pastLast
            ? `${found} ${pastLastNotice}`
            : found,
      products: shown.map((product) => productView(s, product)),
      paging,
    });
  });

  return app;
}
