/**
 * Money in a currency: how many decimals its amounts have (ISO 4217 minor units: JPY 0, BHD 3, EUR 2), and
 * the one way a line amount is worked out from a quantity, a unit price and the quantity that price is for
 * (cXML `PriceBasisQuantity`, OCI `PRICEUNIT`). Every document punchgate writes formats its amounts here,
 * so a JPY cart, confirmation, invoice or OCI form never shows `.00` and a BHD one keeps its fils.
 *
 * Why a table rather than `Intl.NumberFormat(…).resolvedOptions().maximumFractionDigits`: Intl answers with
 * CLDR's display digits, not ISO 4217's, and the runtimes disagree (Node 24 gives HUF, IDR and COP 0 and
 * IQD 0, workerd gives HUF, IDR, COP 2 and IQD 0; ISO 4217 says 2, 2, 2 and 3). Buyers' systems (SAP TCURX,
 * Ariba, Coupa) follow ISO 4217, and the same cart must read the same on Node and on Workers.
 *
 * @example
 * formatMoney(parseDecimal('1234.5'), 'JPY'); // '1235'
 * lineAmount(parseDecimal('2500'), parseDecimal('45.20'), { quantity: parseDecimal('1000'), conversionFactor: ONE }, 'EUR');
 * // 113.00 as { units: 11300n, scale: 2 }
 */
import { type Decimal, divideDecimals, formatDecimal, multiplyDecimals, roundDecimal } from './decimal.ts';

/** ISO 4217 (list one, 2024) currencies whose minor unit is not 2; every other code has 2. */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/**
 * A unit price keeps up to this many decimals (at least the currency's): SAP's OCI price is DEC 23,4 and
 * JAGGAER takes four, which is why a price that needs more is quoted per thousand instead.
 */
export const UNIT_PRICE_DECIMALS = 4;

export const ONE: Decimal = { units: 1n, scale: 0 };

/** The decimals of an amount in `currency` (ISO 4217 minor units); 2 for a code the table does not list. */
export function minorUnits(currency: string): number {
  return MINOR_UNITS[currency.trim().toUpperCase()] ?? 2;
}

/** The amount rounded half away from zero to the currency's minor units (once: round exact values only). */
export function roundMoney(value: Decimal, currency: string): Decimal {
  return roundDecimal(value, minorUnits(currency));
}

/** An amount as documents write it: exactly the currency's minor units (`12.50` EUR, `1250` JPY, `1.250` BHD). */
export function formatMoney(value: Decimal, currency: string): string {
  const decimals = minorUnits(currency);
  return formatDecimal(value, { minDecimals: decimals, maxDecimals: decimals });
}

/** A unit price: at least the currency's decimals, at most {@link UNIT_PRICE_DECIMALS} (or the currency's, if more). */
export function formatUnitPrice(value: Decimal, currency: string): string {
  const decimals = minorUnits(currency);
  return formatDecimal(value, {
    minDecimals: decimals,
    maxDecimals: Math.max(decimals, UNIT_PRICE_DECIMALS),
  });
}

/**
 * What a unit price is quoted for: `quantity` units of the price basis, each `conversionFactor` of the
 * ordered unit's worth (cXML `PriceBasisQuantity@quantity` and `@conversionFactor`; OCI `PRICEUNIT` is a
 * quantity with factor 1). No basis means the price is for one ordered unit.
 */
export interface PriceBasis {
  readonly quantity: Decimal;
  readonly conversionFactor: Decimal;
}

/** A price basis of `n` units (OCI PRICEUNIT, config `priceUnit`); undefined for 1, the default basis. */
export function priceBasisOf(n: number): PriceBasis | undefined {
  if (!Number.isSafeInteger(n) || n < 1)
    throw new RangeError(`a price unit must be a whole number from 1, got ${n}`);
  return n === 1 ? undefined : { quantity: { units: BigInt(n), scale: 0 }, conversionFactor: ONE };
}

/**
 * quantity × unitPrice × conversionFactor ÷ basis quantity, rounded once to the currency's minor units, as
 * SAP Ariba computes a line with a PriceBasisQuantity: 2,500 at 45.20 per 1,000 is 113.00, not 2,500 × 0.0452
 * rounded per unit first.
 */
export function lineAmount(
  quantity: Decimal,
  unitPrice: Decimal,
  basis: PriceBasis | undefined,
  currency: string,
): Decimal {
  const exact = multiplyDecimals(quantity, unitPrice);
  if (basis === undefined) return roundMoney(exact, currency);
  return divideDecimals(
    multiplyDecimals(exact, basis.conversionFactor),
    basis.quantity,
    minorUnits(currency),
  );
}

/**
 * The price of one ordered unit, to `decimals` places: how a per-N price is held against a per-piece one
 * (the print service's, or a PO that a buyer's system rewrote per piece).
 */
export function pricePerUnit(unitPrice: Decimal, basis: PriceBasis | undefined, decimals: number): Decimal {
  if (basis === undefined) return unitPrice;
  return divideDecimals(multiplyDecimals(unitPrice, basis.conversionFactor), basis.quantity, decimals);
}

/** A price of one ordered unit restated per the basis (an operator accepting the print service's per-piece price). */
export function priceForBasis(perUnit: Decimal, basis: PriceBasis | undefined, decimals: number): Decimal {
  if (basis === undefined) return perUnit;
  return divideDecimals(multiplyDecimals(perUnit, basis.quantity), basis.conversionFactor, decimals);
}
