/**
 * A storefront's catalog as the gateway sells it: the products of the config, found by SKU, priced by
 * quantity.
 */
import type { ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { type Locale, localeOf } from '../i18n/locale.ts';
import { FALLBACK_LANGUAGE } from '../i18n/session-language.ts';
import { formatPrice, unitPriceFor } from './pricing.ts';

export type CatalogEntry = ResolvedStorefront['products'][number];

/** What every lookup and search of one storefront's catalog reads, built once per storefront. */
export interface CatalogIndex {
  readonly bySku: ReadonlyMap<string, CatalogEntry>;
  /** Per product, in catalog order: its searchable texts folded (see `foldForSearch`). */
  readonly searchTexts: readonly string[];
}

/**
 * Keyed by the resolved storefront object, which the config hands out once and never changes: a lookup
 * per cart line, PO line and page was a linear search, so 10,000 products made every call slow.
 */
const indexes = new WeakMap<ResolvedStorefront, CatalogIndex>();

/** Text compared without case and accents: `Büro` and `BURO` are both `buro` (ß stays ß). */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The storefront's index; `createGatewayContext` builds every storefront's at config load, so requests
 * only read it (a storefront made elsewhere, as in tests, is indexed on first use).
 */
export function catalogIndex(storefront: ResolvedStorefront): CatalogIndex {
  let index = indexes.get(storefront);
  if (index === undefined) {
    // The first product of a SKU wins, as the linear search did (the config check refuses duplicates).
    const bySku = new Map<string, CatalogEntry>();
    for (const product of storefront.products) if (!bySku.has(product.sku)) bySku.set(product.sku, product);
    index = {
      bySku,
      // A product's translations are searched too: a German user types the German name.
      searchTexts: storefront.products.map((p) =>
        foldForSearch(
          [
            p.name,
            p.description,
            p.sku,
            p.matGroup,
            p.unspsc,
            ...Object.values(p.translations ?? {}).flatMap((t) => [t.name, t.description]),
          ].join(' '),
        ),
      ),
    };
    indexes.set(storefront, index);
  }
  return index;
}

export function productBySku(storefront: ResolvedStorefront, sku: string): CatalogEntry {
  const product = catalogIndex(storefront).bySku.get(sku);
  if (product === undefined) throw new GatewayError('unknown_product', `This catalog has no product ${sku}.`);
  return product;
}

export function findProductBySku(storefront: ResolvedStorefront, sku: string): CatalogEntry | undefined {
  return catalogIndex(storefront).bySku.get(sku);
}

/**
 * A cart line of a product put in as it is (from the catalog, `printProductId`), not a saved design: its
 * `designId` is the product's own print-service id. Saved designs and products share the print service's
 * one id space (a project id is a product id), so a design never has its template's id.
 */
export function isCatalogLine(
  storefront: ResolvedStorefront,
  line: { sku: string; designId: number },
): boolean {
  const printProductId = findProductBySku(storefront, line.sku)?.printProductId;
  return printProductId !== undefined && printProductId === line.designId;
}

/** The quantities a product is sold in, as the cart's quantity input carries them (min, max, step). */
export interface QuantityBounds {
  min: number;
  max: number;
  step: number;
}

export function quantityBounds(product: CatalogEntry): QuantityBounds {
  // The config has no order increment for a product: every whole number within its bounds is orderable.
  return { min: product.minQuantity, max: product.maxQuantity, step: 1 };
}

/**
 * Why the product cannot be ordered in this quantity, in words a user can act on; undefined when it can.
 * The cart shows it next to the line, and `checkQuantity` refuses with it.
 */
export function quantityProblem(
  product: CatalogEntry,
  quantity: number,
  locale: Locale = localeOf(FALLBACK_LANGUAGE),
): string | undefined {
  const { min, max } = quantityBounds(product);
  if (Number.isSafeInteger(quantity) && quantity >= min && quantity <= max) return undefined;
  // The product's name in the message's language where it has one (a translation's language is its key).
  const name = product.translations?.[locale.language]?.name ?? product.name;
  return locale.t('cart.quantityProblem', { name, min, max });
}

/** A quantity the product accepts: a whole number within its configured bounds. */
export function checkQuantity(product: CatalogEntry, quantity: number): number {
  const problem = quantityProblem(product, quantity);
  if (problem !== undefined) throw new GatewayError('invalid_quantity', problem);
  return quantity;
}

/** One price break: from this quantity on, this unit price (formatted). */
export interface PriceBreak {
  from: number;
  unitPrice: string;
}

/**
 * The price breaks a buyer can reach, lowest quantity first: the price at the product's minimum, then each
 * tier that starts above the minimum and not above the maximum. A tier below the minimum (the config's
 * required tier from 1 when the minimum is 100) can never apply, so it is not shown.
 */
export function priceBreaks(product: CatalogEntry, currency: string): PriceBreak[] {
  const { min, max } = quantityBounds(product);
  const starts = new Set([
    min,
    ...product.prices.map((t) => t.minQuantity).filter((q) => q > min && q <= max),
  ]);
  return [...starts]
    .sort((a, b) => a - b)
    .map((from) => ({ from, unitPrice: priceText(product, from, currency) }));
}

/** The product's unit price (of its `priceUnit` units) at a quantity, as carts store and send it. */
export function priceText(product: CatalogEntry, quantity: number, currency: string): string {
  return formatPrice(unitPriceFor(product, quantity), currency);
}
