/**
 * Prices of catalog products, from the tiers in the config, and the totals of cart lines. Amounts are exact
 * decimals (the kernel's BigInt `Decimal`), so that a line total never shows binary floating-point noise
 * (0.12 × 3 is 0.36, not 0.36000000000000004). A config price is a JSON number and a cart keeps its unit
 * price as text; both are read as the decimal they spell. A product priced per N (`priceUnit`) keeps its
 * price per N everywhere: a line's total is quantity × price ÷ N, rounded once to the currency's minor
 * units (`kernel/money.ts`), never a per-piece price rounded first.
 */
import type { CatalogProduct } from '../../../schemas/config.ts';
import type { PriceBasisQuantity } from '../../cxml/request-types.ts';
import {
  addDecimals,
  type Decimal,
  decimalFromNumber,
  parseDecimal,
  roundDecimal,
} from '../../kernel/decimal.ts';
import {
  formatMoney,
  formatUnitPrice,
  lineAmount,
  minorUnits,
  type PriceBasis,
  priceBasisOf,
  UNIT_PRICE_DECIMALS,
} from '../../kernel/money.ts';

/** cXML's spellings of a `%r8;` quantity (`1000`, `1e3`, `+1000.`), as the codec accepted them. */
const QUANTITY_SYNTAX = { signed: true, barePoint: true, exponent: true } as const;

/**
 * A PriceBasisQuantity as the buyer sent it (text), as exact decimals for arithmetic; undefined for none.
 * The codec has checked both are numbers above zero.
 */
export function exactPriceBasis(
  basis: Pick<PriceBasisQuantity, 'quantity' | 'conversionFactor'> | undefined,
): PriceBasis | undefined {
  if (basis === undefined) return undefined;
  return {
    quantity: parseDecimal(basis.quantity.trim(), QUANTITY_SYNTAX),
    conversionFactor: parseDecimal(basis.conversionFactor.trim(), QUANTITY_SYNTAX),
  };
}

/** The cXML PriceBasisQuantity of a price of `priceUnit` units of `unitOfMeasure`; undefined for a price of one. */
export function priceBasisQuantity(
  priceUnit: number | undefined,
  unitOfMeasure: string,
): PriceBasisQuantity | undefined {
  if ((priceUnit ?? 1) === 1) return undefined;
  return { quantity: String(priceUnit), conversionFactor: '1', unitOfMeasure };
}

/** A money amount: a config number or the decimal text a cart line stores. */
export type Amount = number | string;

/** The unit price (of `priceUnit` units) for a quantity: the tier with the highest minQuantity not above it. */
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

/** The amount as an exact decimal, a unit price kept to at most four decimals (or the currency's, if more). */
function toDecimal(amount: Amount, currency: string): Decimal {
  const exact =
    typeof amount === 'number' ? decimalFromNumber(amount) : parseDecimal(amount.trim(), { signed: true });
  return roundDecimal(exact, Math.max(UNIT_PRICE_DECIMALS, minorUnits(currency)));
}

/** What a line total needs: its price, for how many units (default 1), and how many it orders. */
export interface PricedQuantity {
  readonly unitPrice: Amount;
  readonly priceUnit?: number;
  readonly quantity: number;
}

/** quantity × unitPrice ÷ priceUnit, rounded once to the currency's minor units. */
export function lineTotal(line: PricedQuantity, currency: string): Decimal {
  return lineAmount(
    { units: BigInt(line.quantity), scale: 0 },
    toDecimal(line.unitPrice, currency),
    priceBasisOf(line.priceUnit ?? 1),
    currency,
  );
}

/** The sum of line totals (and amounts such as kept lines' totals) as documents write it. */
export function formatTotal(amounts: readonly (Decimal | string)[], currency: string): string {
  const values = amounts.map((amount) =>
    typeof amount === 'string' ? parseDecimal(amount, { signed: true }) : amount,
  );
  return formatMoney(addDecimals(values), currency);
}

/** A unit price as cXML and OCI write it: at least the currency's decimals (`45` JPY, `0.50` EUR), at most four. */
export function formatPrice(amount: Amount, currency: string): string {
  return formatUnitPrice(toDecimal(amount, currency), currency);
}

/**
 * What a price is for, as pages write it after "EUR /": `EA`, or `1,000 EA` for a price per thousand
 * (German `1.000 EA`), grouped in every language since it reads as a unit, not a typed quantity.
 */
export function pricedUnitText(priceUnit: number | undefined, uom: string, language = 'en'): string {
  return (priceUnit ?? 1) === 1 ? uom : `${(priceUnit ?? 1).toLocaleString(language)} ${uom}`;
}
