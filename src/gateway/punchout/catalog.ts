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

/** A quantity the product accepts: a whole number within its configured bounds. */
export function checkQuantity(product: CatalogEntry, quantity: number): number {
  if (!Number.isSafeInteger(quantity) || quantity < product.minQuantity || quantity > product.maxQuantity) {
    throw new GatewayError(
      'invalid_quantity',
      `The quantity for ${product.name} must be a whole number from ${product.minQuantity} to ${product.maxQuantity}.`,
    );
  }
  return quantity;
}

export function priceText(product: CatalogEntry, quantity: number): string {
  return formatAmount(unitPriceFor(product, quantity));
}
