/**
 * Prices of catalog products, from the tiers in the config. Amounts are computed in ten-thousandths so
 * that a line total never shows binary floating-point noise (0.12 × 3 is 0.36, not 0.36000000000000004).
 */
import type { CatalogProduct } from '../../schemas/config.ts';

const SCALE = 10_000;

/** The unit price for a quantity: the tier with the highest minQuantity not above it. */
export function unitPriceFor(product: Pick<CatalogProduct, 'prices'>, quantity: number): number {
  let best: number | undefined;
  let bestMin = 0;
  for (const tier of product.prices) {
    if (tier.minQuantity <= quantity && tier.minQuantity >= bestMin) {
      best = tier.unitPrice;
      bestMin = tier.minQuantity;
    }
  }
  // The config schema requires a tier from quantity 1, so only a quantity below 1 finds none.
  if (best === undefined) throw new RangeError(`no price tier for quantity ${quantity}`);
  return best;
}

export function toScaled(amount: number): number {
  return Math.round(amount * SCALE);
}

export function lineTotal(unitPrice: number, quantity: number): number {
  return (toScaled(unitPrice) * quantity) / SCALE;
}

export function sumAmounts(amounts: readonly number[]): number {
  return amounts.reduce((sum, a) => sum + toScaled(a), 0) / SCALE;
}

/** A money amount as cXML and OCI write it: a decimal point, at least two decimals, at most four. */
export function formatAmount(amount: number): string {
  const fixed = (toScaled(amount) / SCALE).toFixed(4);
  return fixed.replace(/(\.\d\d\d?)0+$/, '$1').replace(/(\.\d\d)0$/, '$1');
}
