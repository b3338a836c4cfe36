/**
 * The pages a buyer's user sees during a punch-out: the catalog, the cart, the hand-back form and the
 * pages that explain why something did not work. They take plain view models, so the routes decide what
 * is shown and these functions only decide how.
 */
import { html, type SafeHtml } from '../http/html.ts';
import { renderPage } from '../http/layout.ts';
import type { Locale } from '../i18n/locale.ts';
import type { PriceBreak } from './catalog.ts';

/** What a product's card shows, the same for every session of a language (its "Design" link is the session's own). */
export interface CatalogProductView {
  sku: string;
  name: string;
  description?: string | undefined;
  thumbnailUrl: string;
  /** The unit prices by quantity. */
  priceBreaks: readonly PriceBreak[];
  minQuantity: number;
  currency: string;
  uom: string;
}

/** A product card rendered up to its "Design" link, which holds the session token. */
export interface CatalogCard {
  readonly name: string;
  readonly body: SafeHtml;
}

/** Rendered once per product and language (catalog-page.ts), not on every catalog request. */
export function renderCatalogCard(p: CatalogProductView, locale: Locale): CatalogCard {
  return {
    name: p.name,
    body: html`<img src="${p.thumbnailUrl}" alt="${locale.t('card.preview', { name: p.name })}" width="200" height="140">
<h2>${p.name}</h2>
${p.description ? html`<p class="muted">${p.description}</p>` : ''}
<p class="price">${locale.priceBreaks(p.priceBreaks, p.currency)} / ${p.uom}</p>
<p class="muted">${locale.t('card.minimum', { min: p.minQuantity, uom: p.uom, sku: p.sku })}</p>
`,
  };
}

/** "Add to cart" of a product orderable as it is (`printProductId`): a quantity, no trip to the editor. */
export interface AddToCartView {
  /** Where the form posts (`add/<sku>` of the session). */
  url: string;
  min: number;
  max: number;
  uom: string;
}

export function renderAddToCart(name: string, add: AddToCartView, locale: Locale): SafeHtml {
  return html`<form class="actions" method="post" action="${add.url}" aria-label="${locale.t('add.label', { name })}">
<label>${locale.t('add.quantity', { uom: add.uom })} <input type="number" name="quantity" min="${String(add.min)}" max="${String(add.max)}" step="1" value="${String(add.min)}" required></label>
<button class="button primary" type="submit">${locale.t('add.submit')}</button>
</form>`;
}

/** Where the page stands in the (searched) catalog, and the links to its neighbours. */
export interface CatalogPaging {
  page: number;
  pages: number;
  /** 1-based positions of the first and last product shown, of `total`. */
  first: number;
  last: number;
  total: number;
  previousUrl?: string | undefined;
  nextUrl?: string | undefined;
}

export interface CatalogView {
  locale: Locale;
  title: string;
  buyerName: string;
  cards: readonly { card: CatalogCard; designUrl: string; addToCart?: AddToCartView | undefined }[];
  cartUrl: string;
  cartCount: number;
  /** The catalog's own URL: the search form's action. */
  catalogUrl: string;
  /** The search as typed ('' when none). */
  query: string;
  /** How many products a search found, or why this page is not the one asked for. */
  notice?: string | undefined;
  /** A search that found nothing: the page says so instead of showing an empty grid. */
  noHits?: string | undefined;
  paging: CatalogPaging;
  /** The buyer's designs ordered before, above the products (../reorders/ordered-before.ts). */
  orderedBefore?: SafeHtml | undefined;
}

/** Where a page of products stands, with its previous/next links; nothing when all fit on one page. */
export function renderCatalogPaging(paging: CatalogPaging, locale: Locale): SafeHtml | '' {
  if (paging.pages <= 1) return '';
  return html`<nav class="actions" aria-label="${locale.t('paging.label')}">
${paging.previousUrl ? html`<a class="button" rel="prev" href="${paging.previousUrl}">${locale.t('paging.previous')}</a>` : ''}
<span>${locale.t('paging.position', { page: paging.page, pages: paging.pages, first: paging.first, last: paging.last, total: paging.total })}</span>
${paging.nextUrl ? html`<a class="button" rel="next" href="${paging.nextUrl}">${locale.t('paging.next')}</a>` : ''}
</nav>`;
}

export function renderCatalogPage(view: CatalogView): string {
  const { locale } = view;
  const cards = view.cards.map(
    ({ card, designUrl, addToCart }) => html`<article class="card">
${card.body}${addToCart ? renderAddToCart(card.name, addToCart, locale) : ''}<a class="button${addToCart ? '' : ' primary'}" href="${designUrl}">${locale.t('catalog.design', { name: card.name })}</a>
</article>`,
  );
  const search = html`<form class="actions" method="get" action="${view.catalogUrl}" role="search">
<label for="catalog-search">${locale.t('catalog.searchLabel')}</label>
<input id="catalog-search" type="search" name="q" value="${view.query}">
<button type="submit">${locale.t('catalog.search')}</button>
${view.query === '' ? '' : html`<a class="button" href="${view.catalogUrl}">${locale.t('catalog.showAll')}</a>`}
</form>`;
  const products = view.noHits
    ? html`<p class="notice" role="status">${view.noHits}</p>`
    : html`${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
<section class="grid" aria-label="${locale.t('catalog.products')}">${cards}</section>
${renderCatalogPaging(view.paging, locale)}`;
  return renderPage({
    lang: locale.language,
    title: view.title,
    context: view.buyerName,
    heading: locale.t('catalog.heading'),
    body: html`<p><a class="button" href="${view.cartUrl}">${locale.t('catalog.cart', { count: view.cartCount })}</a></p>
${view.orderedBefore ?? ''}
${search}
${products}`,
  });
}

interface CartLineView {
  lineRef: string;
  name: string;
  sku: string;
  designId: number;
  quantity: number;
  /** What the quantity input shows: the line's quantity, or what the user typed when it was refused. */
  quantityInput: string;
  /** The product's orderable quantities; absent for a product no longer in the catalog. */
  bounds?: { min: number; max: number; step: number } | undefined;
  /** The unit prices by quantity. */
  priceBreaks?: readonly PriceBreak[] | undefined;
  /** Why this quantity cannot be ordered (a refused update, or a quantity an edit brought in). */
  quantityProblem?: string | undefined;
  unitPrice: string;
  total: string;
  uom: string;
  thumbnailUrl?: string | undefined;
  proofUrl?: string | undefined;
  editUrl?: string | undefined;
  quantityAction?: string | undefined;
  removeAction?: string | undefined;
}

/** A line of the requisition the gateway does not know, shown and handed back exactly as sent. */
interface KeptLineView {
  supplierPartID: string;
  supplierPartAuxiliaryID?: string | undefined;
  description: string;
  quantity: string;
  /** Price with its own currency, or absent when the buyer sent none. */
  unitPrice?: string | undefined;
  uom?: string | undefined;
  removeAction?: string | undefined;
}

export interface CartView {
  locale: Locale;
  title: string;
  buyerName: string;
  currency: string;
  lines: readonly CartLineView[];
  /** Lines kept as sent (edit and inspect), after the cart's own lines. */
  keptLines?: readonly KeptLineView[] | undefined;
  total: string;
  /** Inspect sessions show the cart read-only. */
  readOnly: boolean;
  catalogUrl?: string | undefined;
  transferAction: string;
  transferLabel: string;
  cancelAction?: string | undefined;
  notice?: string | undefined;
  /** Why the cart cannot be transferred as it is; the transfer button is disabled, cancel stays. */
  transferBlocked?: string | undefined;
  /** An edit cart with no lines: the transfer form carries a checkbox with this text that must be ticked. */
  confirmEmpty?: string | undefined;
}

export function renderCartPage(view: CartView): string {
  const { locale } = view;
  const rows = view.lines.map((line) => {
    const bounds = line.bounds ?? { min: 1, max: undefined, step: 1 };
    const problemId = `q-${line.lineRef}-problem`;
    const problem = line.quantityProblem
      ? html`<p class="error" id="${problemId}">${line.quantityProblem}</p>`
      : '';
    const quantity =
      view.readOnly || line.quantityAction === undefined
        ? html`${locale.count(line.quantity)}`
        : html`<form class="inline" method="post" action="${line.quantityAction}">
<label class="muted" for="q-${line.lineRef}">${locale.t('cart.quantity')}</label>
<input id="q-${line.lineRef}" type="number" name="quantity" min="${bounds.min}"${
            bounds.max === undefined ? '' : html` max="${bounds.max}"`
          } step="${bounds.step}" value="${line.quantityInput}" required${
            line.quantityProblem ? html` aria-invalid="true" aria-describedby="${problemId}"` : ''
          }>
<button type="submit">${locale.t('cart.update')}</button></form>${problem}`;
    const orderable = line.bounds
      ? html`<br><span class="muted">${locale.t('cart.orderable', { min: line.bounds.min, max: line.bounds.max, uom: line.uom })}${
          line.priceBreaks
            ? html` · ${locale.t('cart.priceBreaks', { breaks: locale.priceBreaks(line.priceBreaks, view.currency) })}`
            : ''
        }</span>`
      : '';
    const actions = view.readOnly
      ? ''
      : html`${line.editUrl ? html`<a class="button" href="${line.editUrl}">${locale.t('cart.editDesign')}</a>` : ''}
${line.removeAction ? html`<form class="inline" method="post" action="${line.removeAction}"><button type="submit">${locale.t('cart.remove')}</button></form>` : ''}`;
    return html`<tr>
<td>${line.thumbnailUrl ? html`<img src="${line.thumbnailUrl}" alt="" width="80" height="56">` : ''}</td>
<td><strong>${line.name}</strong><br><span class="muted">${locale.t('cart.lineInfo', { sku: line.sku, design: String(line.designId), ref: line.lineRef })}</span>${orderable}
${line.proofUrl ? html`<br><a href="${line.proofUrl}" target="_blank" rel="noopener noreferrer">${locale.t('cart.proof')}</a>` : ''}</td>
<td class="num">${quantity}</td>
<td class="num">${locale.money(line.unitPrice, view.currency)} / ${line.uom}</td>
<td class="num">${locale.money(line.total, view.currency)}</td>
<td>${actions}</td>
</tr>`;
  });
  const kept = (view.keptLines ?? []).map(
    (line) => html`<tr class="kept">
<td></td>
<td><strong>${line.description}</strong><br><span class="muted">SupplierPartID ${line.supplierPartID}${
      line.supplierPartAuxiliaryID === undefined ? '' : html` · ref ${line.supplierPartAuxiliaryID}`
    } · ${locale.t('cart.keptAsSent')}</span></td>
<td class="num">${line.quantity}</td>
<td class="num">${line.unitPrice ?? ''}${line.uom === undefined ? '' : html` / ${line.uom}`}</td>
<td class="num"></td>
<td>${
      view.readOnly || line.removeAction === undefined
        ? ''
        : html`<form class="inline" method="post" action="${line.removeAction}"><button type="submit">${locale.t('cart.remove')}</button></form>`
    }</td>
</tr>`,
  );
  const table =
    view.lines.length === 0 && kept.length === 0
      ? html`<p class="notice">${locale.t('cart.empty')}</p>`
      : html`<table>
<thead><tr><th></th><th>${locale.t('cart.item')}</th><th class="num">${locale.t('cart.quantity')}</th><th class="num">${locale.t('cart.unitPrice')}</th><th class="num">${locale.t('cart.total')}</th><th></th></tr></thead>
<tbody>${rows}${kept}</tbody>
<tfoot><tr><th colspan="4" class="num">${locale.t('cart.cartTotal')}</th><th class="num">${locale.money(view.total, view.currency)}</th><th></th></tr></tfoot>
</table>`;
  return renderPage({
    lang: locale.language,
    title: view.title,
    context: view.buyerName,
    heading: locale.t(view.readOnly ? 'cart.headingReadOnly' : 'cart.heading'),
    body: html`${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ''}
${table}
${view.transferBlocked ? html`<p class="error" id="transfer-blocked" role="alert">${view.transferBlocked}</p>` : ''}
<div class="actions">
${view.catalogUrl && !view.readOnly ? html`<a class="button" href="${view.catalogUrl}">${locale.t('cart.addAnother')}</a>` : ''}
<form class="inline" method="post" action="${view.transferAction}">${
      view.confirmEmpty
        ? html`<label><input type="checkbox" name="confirmEmpty" value="yes" required> ${view.confirmEmpty}</label> `
        : ''
    }<button class="primary" type="submit"${
      view.transferBlocked ? html` disabled aria-describedby="transfer-blocked"` : ''
    }>${view.transferLabel}</button></form>
${view.cancelAction ? html`<form class="inline" method="post" action="${view.cancelAction}"><button type="submit">${locale.t('cart.cancel')}</button></form>` : ''}
</div>`,
  });
}

export interface ReturnForm {
  action: string;
  target: string;
  fields: readonly (readonly [name: string, value: string])[];
  /** Form encoding declared to the browser (OCI buyers may want ISO-8859-1). */
  acceptCharset?: string;
}

/** The hand-back to the procurement system: a form that submits itself, with a button when scripts are off. */
export function renderReturnFormPage(options: {
  locale: Locale;
  title: string;
  message: string;
  form: ReturnForm;
}): string {
  const { locale } = options;
  const inputs = options.form.fields.map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return renderPage({
    lang: locale.language,
    title: options.title,
    heading: options.message,
    autoSubmit: true,
    body: html`<form method="post" action="${options.form.action}" target="${options.form.target}"${
      options.form.acceptCharset ? html` accept-charset="${options.form.acceptCharset}"` : ''
    } data-autosubmit>
${inputs}
<p class="muted">${locale.t('return.nothingHappens')}</p>
<button class="primary" type="submit">${locale.t('return.button')}</button>
</form>`,
  });
}

/** A page that explains a problem in words a buyer's user can act on, with the way back where there is one. */
export function renderMessagePage(options: {
  locale: Locale;
  title: string;
  heading: string;
  message: string;
  kind: 'error' | 'notice';
  back?: ReturnForm | undefined;
}): string {
  const back = options.back
    ? html`<form method="post" action="${options.back.action}" target="${options.back.target}">
${options.back.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button class="primary" type="submit">${options.locale.t('return.button')}</button>
</form>`
    : html`<p class="muted">${options.locale.t('return.startAgain')}</p>`;
  return renderPage({
    lang: options.locale.language,
    title: options.title,
    heading: options.heading,
    body: html`<p class="${options.kind}" role="${options.kind === 'error' ? 'alert' : 'status'}">${options.message}</p>
${back}`,
  });
}
