/**
 * The catalog page's "Ordered before" section: the buyer's reorder items with their thumbnail and what
 * they were last ordered at, each with a button that puts the design in the cart as it is, or saying that
 * it is no longer available, in the session's language (the `reorder.*` messages).
 */
import { html, type SafeHtml } from '../http/html.ts';
import type { Locale } from '../i18n/locale.ts';
import { pricedUnitText } from '../punchout/pricing.ts';
import type { ReorderOffer } from './reorder-items.ts';

export interface OrderedBeforeView {
  locale: Locale;
  offers: readonly ReorderOffer[];
  /** Each item's picture by part number: the gateway's own link, which opens no other design. */
  thumbnails: ReadonlyMap<string, string>;
  /** The `reorder/<part>` form action of an item, a session page URL. */
  addUrl: (partId: string) => string;
  /** A part number a level-2 setup named that is no longer available, said at the top of the section. */
  unavailablePartId?: string | undefined;
}

function lastOrderedText({ item }: ReorderOffer, locale: Locale): string {
  const unit = pricedUnitText(item.priceUnit, item.uom, locale.language);
  return locale.t('reorder.lastOrdered', {
    quantity: `${locale.count(item.quantity)} ${item.uom}`,
    price: `${locale.money(item.unitPrice, item.currency)} / ${unit}`,
  });
}

function renderOffer(offer: ReorderOffer, view: OrderedBeforeView): SafeHtml {
  const { item } = offer;
  const { locale } = view;
  const action =
    offer.product === undefined
      ? html`<p class="notice">${locale.t('reorder.unavailable')}</p>`
      : html`<form class="actions" method="post" action="${view.addUrl(item.partId)}" aria-label="${locale.t('reorder.addLabel', { name: item.name })}">
<button class="button primary" type="submit">${locale.t('add.submit')}</button>
</form>`;
  const thumbnail = view.thumbnails.get(item.partId);
  return html`<article class="card" data-part="${item.partId}">
${thumbnail === undefined ? '' : html`<img src="${thumbnail}" alt="${locale.t('card.preview', { name: item.name })}" width="200" height="140">`}
<h3>${item.name}</h3>
<p class="muted">${lastOrderedText(offer, locale)}</p>
${action}
</article>`;
}

/** The section, or nothing when the buyer has no reorder items. */
export function renderOrderedBefore(view: OrderedBeforeView): SafeHtml | undefined {
  if (view.offers.length === 0) return undefined;
  const chosen = view.offers.find((o) => o.item.partId === view.unavailablePartId && o.product === undefined);
  const { locale } = view;
  return html`<section aria-labelledby="ordered-before">
<h2 id="ordered-before">${locale.t('reorder.heading')}</h2>
${chosen ? html`<p class="notice" role="status">${locale.t('reorder.chosenUnavailable', { name: chosen.item.name })}</p>` : ''}
<p class="muted">${locale.t('reorder.intro')}</p>
<div class="grid">${view.offers.map((offer) => renderOffer(offer, view))}</div>
</section>`;
}
