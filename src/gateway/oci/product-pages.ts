/**
 * The pages OCI's FUNCTION calls open inside a punch-out session: DETAIL's product page and SOURCING's
 * search results. Both show products in detail (description, price tiers, minimum quantity, lead time)
 * with a "Design" button into the editor; the rest of the punch-out (cart, transfer) is the usual one.
 */
import { html } from '../http/html.ts';
import { renderPage } from '../http/layout.ts';
import type { Locale } from '../i18n/locale.ts';
import {
  type AddToCartView,
  type CatalogPaging,
  renderAddToCart,
  renderCatalogPaging,
} from '../punchout/pages.ts';

export interface ProductDetailView {
  sku: string;
  name: string;
  description?: string | undefined;
  thumbnailUrl: string;
  /** Price tiers, formatted: from `minQuantity` on, `unitPrice` each. */
  prices: readonly { minQuantity: number; unitPrice: string }[];
  currency: string;
  uom: string;
  minQuantity: number;
  leadTimeDays?: number | undefined;
  designUrl: string;
  /** For a product orderable as it is: put it in the cart without the editor. */
  addToCart?: AddToCartView | undefined;
}

/** A design from the buyer's requisition that DETAIL named by its line reference. */
interface RequisitionDesignView {
  name: string;
  lineRef: string;
  thumbnailUrl: string;
}

export interface ProductsPageView {
  locale: Locale;
  title: string;
  buyerName: string;
  heading: string;
  /** Shown above the products, e.g. how many a search found. */
  notice?: string | undefined;
  design?: RequisitionDesignView | undefined;
  products: readonly ProductDetailView[];
  /** Search results come a page at a time, like the catalog's. */
  paging?: CatalogPaging | undefined;
  catalogUrl: string;
  cartUrl: string;
  cartCount: number;
}

export function renderProductsPage(view: ProductsPageView): string {
  const { locale } = view;
  const products = view.products.map(
    (p) => html`<article class="card">
<img src="${p.thumbnailUrl}" alt="${locale.t('card.preview', { name: p.name })}" width="320" height="224">
<h2>${p.name}</h2>
${p.description ? html`<p>${p.description}</p>` : ''}
<table aria-label="${locale.t('product.prices', { name: p.name })}">
<thead><tr><th>${locale.t('product.fromQuantity')}</th><th class="num">${locale.t('cart.unitPrice')}</th></tr></thead>
<tbody>${p.prices.map(
      (tier) =>
        html`<tr><td>${locale.count(tier.minQuantity)}</td><td class="num">${locale.money(tier.unitPrice, p.currency)} / ${p.uom}</td></tr>`,
    )}</tbody>
</table>
<p class="muted">${locale.t('product.facts', { sku: p.sku, min: p.minQuantity, uom: p.uom })}${
      p.leadTimeDays === undefined ? '' : html` · ${locale.t('product.shipsIn', { days: p.leadTimeDays })}`
    }</p>
${p.addToCart ? renderAddToCart(p.name, p.addToCart, locale) : ''}<a class="button${p.addToCart ? '' : ' primary'}" href="${p.designUrl}">${locale.t('catalog.design', { name: p.name })}</a>
</article>`,
  );
  const design = view.design
    ? html`<section class="notice" aria-label="${locale.t('product.requisition')}">
<img src="${view.design.thumbnailUrl}" alt="" width="80" height="56">
<p>${locale.t('product.inRequisition')} <strong>${view.design.name}</strong> <span class="muted">(ref ${view.design.lineRef})</span>.
${locale.t('product.orderAgain')}</p>
</section>`
    : '';
  return renderPage({
    lang: locale.language,
    title: view.title,
    context: view.buyerName,
    heading: view.heading,
    body: html`${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${design}
<section class="grid" aria-label="${locale.t('catalog.products')}">${products}</section>
${view.paging ? renderCatalogPaging(view.paging, locale) : ''}
<div class="actions">
<a class="button" href="${view.catalogUrl}">${locale.t('product.browseAll')}</a>
<a class="button" href="${view.cartUrl}">${locale.t('catalog.cart', { count: view.cartCount })}</a>
</div>`,
  });
}
