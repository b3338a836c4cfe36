/**
 * The catalog page, `GET /punchout/s/<token>/catalog[?q=…][&page=N]`, which cXML and OCI sessions share: a
 * search form and CATALOG_PAGE_SIZE product cards a page. Every product's card is rendered once per
 * language (`prepareCatalogCards`: the storefront's own language at config load in `createGatewayContext`,
 * another at its first session); a request only picks the page's cards and adds their "Design" links,
 * which carry the session token. Without this, 10,000 products made a 6.7 MB page that took 237 ms on
 * every request.
 *
 * A page number past the last shows the last page, saying so (a link kept from a larger catalog or a wider
 * search still leads somewhere useful); a page number that is not a whole number from 1 shows the first.
 */
import type { EditorUrls } from '../../print-api/index.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedStorefront } from '../deps.ts';
import type { SafeHtml } from '../http/html.ts';
import type { Locale } from '../i18n/locale.ts';
import { type CatalogEntry, catalogIndex, priceBreaks, quantityBounds } from './catalog.ts';
import {
  type AddToCartView,
  type CatalogCard,
  type CatalogPaging,
  renderCatalogCard,
  renderCatalogPage,
} from './pages.ts';
import { pricedUnitText } from './pricing.ts';
import { searchProducts, searchWords } from './product-search.ts';
import { productText } from './product-text.ts';
import { type SessionScope, sessionPageUrl } from './session-scope.ts';

/** Products a catalog page shows: four rows of a wide grid, and a page that stays small (≈ 50 KB). */
export const CATALOG_PAGE_SIZE = 48;

/** The longest search the page keeps (longer ones are cut): enough for any product name. */
const MAX_QUERY_LENGTH = 200;

/** Every product's card by SKU in one language, rendered with what does not depend on the session. */
export function prepareCatalogCards(
  storefront: ResolvedStorefront,
  urls: EditorUrls,
  locale: Locale,
): ReadonlyMap<string, CatalogCard> {
  catalogIndex(storefront);
  return new Map(
    storefront.products.map((p) => {
      const text = productText(p, locale.language, storefront);
      const card = renderCatalogCard(
        {
          sku: p.sku,
          name: text.name,
          description: text.description,
          thumbnailUrl: urls.thumbnailUrl({ productId: p.productId, width: 200, height: 140 }),
          priceBreaks: priceBreaks(p, storefront.currency),
          minQuantity: quantityBounds(p).min,
          currency: storefront.currency,
          uom: pricedUnitText(p.priceUnit, p.uom, locale.language),
        },
        locale,
      );
      return [p.sku, card];
    }),
  );
}

/** One page of a product list: the products shown, where the page stands, and whether the ask was past the end. */
export interface ProductPage<T> {
  shown: readonly T[];
  paging: CatalogPaging;
  pastLast: boolean;
}

/**
 * The page of `items` that `requested` (the `page` parameter) asks for, 1-based and within bounds (past the
 * end: the last page, `pastLast` set), with previous/next links from `pageUrl`.
 *
 * @example
 * const { shown, paging } = productPage(hits, c.req.query('page'), (n) => link(`search?page=${n}`));
 */
export function productPage<T>(
  items: readonly T[],
  requested: string | undefined,
  pageUrl: (page: number) => string,
): ProductPage<T> {
  const pages = Math.max(1, Math.ceil(items.length / CATALOG_PAGE_SIZE));
  const asked = requested !== undefined && /^\d{1,9}$/.test(requested) ? Number(requested) : 1;
  const page = Math.min(Math.max(asked, 1), pages);
  const start = (page - 1) * CATALOG_PAGE_SIZE;
  const shown = items.slice(start, start + CATALOG_PAGE_SIZE);
  const paging: CatalogPaging = {
    page,
    pages,
    first: start + 1,
    last: start + shown.length,
    total: items.length,
    previousUrl: page > 1 ? pageUrl(page - 1) : undefined,
    nextUrl: page < pages ? pageUrl(page + 1) : undefined,
  };
  return { shown, paging, pastLast: asked > pages };
}

/** The "Add to cart" of a product orderable as it is; undefined for a product only ordered as a design. */
export function addToCartView(
  product: CatalogEntry,
  link: (rest: string) => string,
): AddToCartView | undefined {
  if (product.printProductId === undefined) return undefined;
  const { min, max } = quantityBounds(product);
  return { url: link(`add/${encodeURIComponent(product.sku)}`), min, max, uom: product.uom };
}

export interface CatalogQuery {
  q?: string | undefined;
  page?: string | undefined;
}

/** `orderedBefore`: the buyer's reorder items (../reorders), shown above the first page of the whole catalog. */
export function catalogPage(
  ctx: GatewayContext,
  s: SessionScope,
  cartCount: number,
  query: CatalogQuery = {},
  orderedBefore?: SafeHtml,
): string {
  const link = (rest: string) => sessionPageUrl(ctx, s.token, rest);
  const typed = (query.q ?? '').trim().slice(0, MAX_QUERY_LENGTH);
  const searching = searchWords(typed).length > 0;
  const products: readonly CatalogEntry[] = searching
    ? searchProducts(s.storefront, typed)
    : s.storefront.products;
  const pageUrl = (n: number) => {
    const params = new URLSearchParams();
    if (typed !== '') params.set('q', typed);
    if (n > 1) params.set('page', String(n));
    const search = params.toString();
    return link(search === '' ? 'catalog' : `catalog?${search}`);
  };
  const { shown, paging, pastLast } = productPage(products, query.page, pageUrl);
  const { locale } = s;
  const cards = ctx.catalogCards(s.storefront, locale);
  const found =
    products.length === 1
      ? locale.t('catalog.foundOne', { query: typed })
      : locale.t('catalog.foundMany', { count: products.length, query: typed });
  const notices = [
    searching ? found : undefined,
    pastLast ? locale.t('catalog.pastLast', { asked: query.page ?? '', page: paging.page }) : undefined,
  ].filter((notice) => notice !== undefined);
  return renderCatalogPage({
    locale,
    title: s.storefront.name ?? locale.t('page.catalogTitle'),
    buyerName: s.buyer.name ?? s.buyer.id,
    cartUrl: link('cart'),
    cartCount,
    catalogUrl: link('catalog'),
    query: typed,
    notice: notices.length === 0 ? undefined : notices.join(' '),
    noHits: products.length === 0 ? locale.t('catalog.noHits', { query: typed }) : undefined,
    paging,
    orderedBefore: searching || paging.page > 1 ? undefined : orderedBefore,
    cards: shown.flatMap((p) => {
      const card = cards.get(p.sku);
      if (card === undefined) return [];
      const designUrl = link(`design/${encodeURIComponent(p.sku)}`);
      return [{ card, designUrl, addToCart: addToCartView(p, link) }];
    }),
  });
}
