/**
 * Prices of catalog products, from the tiers in the config. Amounts are computed as exact decimals (the
 * kernel's BigInt `Decimal`) at four decimals, so that a line total never shows binary floating-point noise
 * (0.12 × 3 is 0.36, not 0.36000000000000004). A config price is a JSON number and a cart keeps its unit
 * price as text; both are read as the decimal they spell. `lineTotal` and `sumAmounts` hand back numbers
 * only as carriers of four-decimal amounts: below 10^11 such a number reads back as the same decimal.
 */
import type { CatalogProduct } from '../../../schemas/config.ts';
import {
  addDecimals,
  type Decimal,
  decimalFromNumber,
  formatDecimal,
  multiplyDecimal,
  parseDecimal,
  roundDecimal,
} from '../../kernel/decimal.ts';

/** The precision prices are kept at: cXML and OCI (SAP) both carry four decimals. */
const AMOUNT_DECIMALS = 4;

/** A money amount: a config number or the decimal text a cart line stores. */
export type Amount = number | string;

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

/** The amount rounded half up to four decimals. */
function toDecimal(amount: Amount): Decimal {
  const exact =
    typeof amount === 'number' ? decimalFromNumber(amount) : parseDecimal(amount.trim(), { signed: true });
  return roundDecimal(exact, AMOUNT_DECIMALS);
}

function toNumber(amount: Decimal): number {
  return Number(formatDecimal(amount));
}

export function lineTotal(unitPrice: Amount, quantity: number): number {
  return toNumber(multiplyDecimal(toDecimal(unitPrice), quantity));
}

export function sumAmounts(amounts: readonly Amount[]): number {
  return toNumber(addDecimals(amounts.map(toDecimal)));
}

/** A money amount as cXML and OCI write it: a decimal point, at least two decimals, at most four. */
export function formatAmount(amount: Amount): string {
  return formatDecimal(toDecimal(amount), { minDecimals: 2, maxDecimals: AMOUNT_DECIMALS });
}
