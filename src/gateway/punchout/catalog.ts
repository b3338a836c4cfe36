/**
 * A storefront's catalog as the gateway sells it: the products of the config, found by SKU or product id,
 * priced by quantity.
 */
import type { ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { formatAmount, unitPriceFor } from './pricing.ts';

export type CatalogEntry = ResolvedStorefront['products'][number];

export function productBySku(storefront: ResolvedStorefront, sku: string): CatalogEntry {
  const product = storefront.products.find((p) => p.sku === sku);
  if (product === undefined) throw new GatewayError('unknown_product', `This catalog has no product ${sku}.`);
  return product;
}

export function findProductBySku(storefront: ResolvedStorefront, sku: string): CatalogEntry | undefined {
  return storefront.products.find((p) => p.sku === sku);
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
export function quantityProblem(product: CatalogEntry, quantity: number): string | undefined {
  const { min, max } = quantityBounds(product);
  if (Number.isSafeInteger(quantity) && quantity >= min && quantity <= max) return undefined;
  return `The quantity for ${product.name} must be a whole number from ${min} to ${max}.`;
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
export function priceBreaks(product: CatalogEntry): PriceBreak[] {
  const { min, max } = quantityBounds(product);
  const starts = new Set([
    min,
    ...product.prices.map((t) => t.minQuantity).filter((q) => q > min && q <= max),
  ]);
  return [...starts].sort((a, b) => a - b).map((from) => ({ from, unitPrice: priceText(product, from) }));
}

/** Price breaks as the catalog and the cart write them: "100+ 0.12, 500+ 0.09". */
export function priceBreaksText(product: CatalogEntry): string {
  return priceBreaks(product)
    .map((b) => `${b.from}+ ${b.unitPrice}`)
    .join(', ');
}

export function priceText(product: CatalogEntry, quantity: number): string {
  return formatAmount(unitPriceFor(product, quantity));
}
