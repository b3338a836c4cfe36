/**
 * The catalog page's "Ordered before" section: the buyer's reorder items with their thumbnail and what
 * they were last ordered at, each with a button that puts the design in the cart as it is, or saying that
 * it is no longer available. Its texts are all in `REORDER_TEXT`, one place for the page's languages.
 */
import { html, type SafeHtml } from '../http/html.ts';
import { formatPrice, pricedUnitText } from '../punchout/pricing.ts';
import type { ReorderOffer } from './reorder-items.ts';

/** Every text the section shows. */
export const REORDER_TEXT = {
  heading: 'Ordered before',
  intro: 'Designs your organisation has ordered: add one to the cart as it was ordered.',
  preview: (name: string) => `Preview of ${name}`,
  lastOrdered: (quantity: string, price: string) => `Last ordered: ${quantity} at ${price}`,
  addToCart: 'Add to cart',
  addToCartLabel: (name: string) => `Add ${name} to the cart as ordered before`,
  unavailable: 'No longer available: its product is no longer in the catalog.',
  chosenUnavailable: (name: string) =>
    `${name} cannot be ordered again: its product is no longer in the catalog. Choose a product to design instead.`,
} as const;

export interface OrderedBeforeView {
  offers: readonly ReorderOffer[];
  /** The `reorder/<part>` form action of an item, a session page URL. */
  addUrl: (partId: string) => string;
  /** A part number a level-2 setup named that is no longer available, said at the top of the section. */
  unavailablePartId?: string | undefined;
}

function lastOrderedText({ item }: ReorderOffer): string {
  const unit = pricedUnitText(item.priceUnit, item.uom);
  return REORDER_TEXT.lastOrdered(
    `${item.quantity} ${item.uom}`,
    `${formatPrice(item.unitPrice, item.currency)} ${item.currency} / ${unit}`,
  );
}

function renderOffer(offer: ReorderOffer, addUrl: (partId: string) => string): SafeHtml {
  const { item } = offer;
  const action =
    offer.product === undefined
      ? html`<p class="notice">${REORDER_TEXT.unavailable}</p>`
      : html`<form class="actions" method="post" action="${addUrl(item.partId)}" aria-label="${REORDER_TEXT.addToCartLabel(item.name)}">
<button class="button primary" type="submit">${REORDER_TEXT.addToCart}</button>
</form>`;
  return html`<article class="card" data-part="${item.partId}">
<img src="${item.thumbnailUrl}" alt="${REORDER_TEXT.preview(item.name)}" width="200" height="140">
<h3>${item.name}</h3>
<p class="muted">${lastOrderedText(offer)}</p>
${action}
</article>`;
}

/** The section, or nothing when the buyer has no reorder items. */
export function renderOrderedBefore(view: OrderedBeforeView): SafeHtml | undefined {
  if (view.offers.length === 0) return undefined;
  const chosen = view.offers.find((o) => o.item.partId === view.unavailablePartId && o.product === undefined);
  return html`<section aria-labelledby="ordered-before">
<h2 id="ordered-before">${REORDER_TEXT.heading}</h2>
${chosen ? html`<p class="notice" role="status">${REORDER_TEXT.chosenUnavailable(chosen.item.name)}</p>` : ''}
<p class="muted">${REORDER_TEXT.intro}</p>
<div class="grid">${view.offers.map((offer) => renderOffer(offer, view.addUrl))}</div>
</section>`;
}
