/**
 * What an OCI punch-in does, by FUNCTION (the route in oci-routes.ts has checked the login and HOOK_URL):
 * none opens a session at the catalog, DETAIL/DETAILADD at a product page, SOURCING at search results;
 * VALIDATE and BACKGROUND_SEARCH answer at once without a session.
 */
import { ceilingOf, parseDecimal } from '../../kernel/decimal.ts';
import { type OciPunchIn, renderOciSearchResults, renderOciTransferForm } from '../../oci/index.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { LogFields, ResolvedOciBuyer, ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import type { Locale } from '../i18n/locale.ts';
import { type CatalogEntry, checkQuantity, findProductBySku } from '../punchout/catalog.ts';
import { CATALOG_PAGE_SIZE } from '../punchout/catalog-page.ts';
import { LINE_REF_PATTERN } from '../punchout/line-refs.ts';
import { sessionPageUrl, signSessionToken } from '../punchout/session-scope.ts';
import { openSession } from '../punchout/sessions.ts';
import { itemFields, ociLineOfProduct } from './oci-lines.ts';
import { ociPageResponse } from './oci-page.ts';
import { buyerUserFromPunchIn } from './oci-user.ts';
import { searchProducts } from './product-search.ts';
import { sessionFieldsOf } from './session-fields.ts';

/** A PRODUCTID resolved: the product, and the cart line when it was one of our line references. */
interface NamedProduct {
  product: CatalogEntry;
  line?: CartLine;
}

/** An accepted punch-in with the buyer and storefront it is for. */
export interface PunchInScope {
  buyer: ResolvedOciBuyer;
  storefront: ResolvedStorefront;
  punchIn: OciPunchIn;
  frameAncestors: readonly string[];
  /** The punch-in's language (session-fields.ts `punchInLanguage`): its pages and its items' texts. */
  locale: Locale;
  /** Puts what the punch-in did on the request's access line (`addAccessFields` of its context). */
  addAccessFields(fields: LogFields): void;
}

export const noStoreRedirect = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });

export async function openOciSession(ctx: GatewayContext, scope: PunchInScope) {
  const opened = await openSession(ctx, {
    buyer: scope.buyer,
    protocol: 'oci',
    operation: 'create',
    user: buyerUserFromPunchIn(scope.punchIn),
    ...sessionFieldsOf(scope.punchIn),
    language: scope.locale.language,
  });
  scope.addAccessFields(opened.accessFields);
  return opened;
}

/** A URL of the session's OCI pages; the token is the same kind the punch-out pages use. */
async function sessionUrl(ctx: GatewayContext, session: PunchoutSession, rest: string): Promise<string> {
  return sessionPageUrl(ctx, await signSessionToken(ctx, session), rest, 'oci');
}

/**
 * PRODUCTID is what we sent as EXT_PRODUCT_ID: a line reference of this buyer's, or a SKU. A line
 * reference of another buyer reads as an unknown product, so nothing tells a caller it exists.
 */
async function namedProduct(
  ctx: GatewayContext,
  scope: PunchInScope,
  productId: string,
): Promise<NamedProduct> {
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

export async function validate(ctx: GatewayContext, scope: PunchInScope): Promise<Response> {
  const { buyer, storefront, punchIn, locale } = scope;
  const { product, line } = await namedProduct(ctx, scope, punchIn.productId ?? '');
  // A print run is whole: a fractional QUANTITY (the reader allows three decimals) is rounded up.
  const wanted = Number(ceilingOf(parseDecimal(punchIn.quantity ?? '1', { barePoint: true })));
  const quantity = checkQuantity(product, Math.max(product.minQuantity, wanted));
  const fields = itemFields(buyer, punchIn.charset, [
    ociLineOfProduct(buyer, storefront, locale, product, quantity, line),
  ]);
  const page = renderOciTransferForm({
    hookUrl: punchIn.hookUrl,
    fields,
    target: punchIn.formTarget,
    echoFields: punchIn.echoFields,
    charset: punchIn.charset,
    autoSubmit: true,
    lang: locale.language,
    labels: {
      title: locale.t('oci.validateTitle'),
      notice: locale.t('oci.validateNotice'),
      submit: locale.t('oci.validateSubmit'),
    },
  });
  return ociPageResponse(page, {
    charset: punchIn.charset,
    frameAncestors: scope.frameAncestors,
    autoSubmit: true,
  });
}

/**
 * The first page of hits, as SOURCING's search results and the catalog show them (CATALOG_PAGE_SIZE): a
 * background search has no way to ask for the next page, and SAP's `*` would otherwise get every product
 * of a large catalog as NEW_ITEM fields. When hits are left out, the page's notice says how many and asks
 * for a narrower search.
 */
export function backgroundSearch(scope: PunchInScope): Response {
  const { buyer, storefront, punchIn, locale } = scope;
  const searchString = punchIn.searchString ?? '';
  const hits = searchProducts(storefront, searchString);
  const shown = hits.length > CATALOG_PAGE_SIZE ? hits.slice(0, CATALOG_PAGE_SIZE) : hits;
  const fields = itemFields(
    buyer,
    punchIn.charset,
    shown.map((product) => ociLineOfProduct(buyer, storefront, locale, product, product.minQuantity)),
  );
  const page = renderOciSearchResults({
    hookUrl: punchIn.hookUrl,
    fields,
    target: punchIn.formTarget,
    echoFields: punchIn.echoFields,
    charset: punchIn.charset,
    searchString,
    lang: locale.language,
    labels: {
      title: locale.t('oci.searchTitle'),
      submit: locale.t('oci.searchSubmit'),
      notice:
        shown.length < hits.length
          ? locale.t('oci.searchFirst', { shown: shown.length, total: hits.length })
          : locale.t('oci.searchNotice'),
    },
  });
  return ociPageResponse(page, {
    charset: punchIn.charset,
    frameAncestors: scope.frameAncestors,
    autoSubmit: false,
  });
}

export async function detail(ctx: GatewayContext, scope: PunchInScope): Promise<Response> {
  const { product, line } = await namedProduct(ctx, scope, scope.punchIn.productId ?? '');
  const { session } = await openOciSession(ctx, scope);
  const query = line === undefined ? '' : `?line=${encodeURIComponent(line.lineRef)}`;
  return noStoreRedirect(
    await sessionUrl(ctx, session, `product/${encodeURIComponent(product.sku)}${query}`),
  );
}

export async function sourcing(ctx: GatewayContext, scope: PunchInScope): Promise<Response> {
  const opened = await openOciSession(ctx, scope);
  const searchString = scope.punchIn.searchString;
  if (searchString === undefined) return noStoreRedirect(opened.startUrl);
  return noStoreRedirect(
    await sessionUrl(ctx, opened.session, `search?q=${encodeURIComponent(searchString)}`),
  );
}
