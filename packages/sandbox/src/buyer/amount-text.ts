/**
 * The simulator's view of the amounts in the documents it reads: text in, text out, on the kernel's exact
 * decimals (`0.12` × `500` is `60.00`, never `60.00000000000001`). A buyer system is lenient, so a bare
 * point (`.5`) is accepted and a value that is no number yields undefined for the caller to report. A
 * line's amount is what a buyer's system books: quantity × price ÷ the price basis (cXML
 * PriceBasisQuantity, OCI PRICEUNIT), rounded once to the currency's ISO 4217 minor units, so a JPY cart
 * shows no decimals and a BHD one three.
 */
import {
  addDecimals,
  type Decimal,
  formatDecimal,
  formatMoney,
  lineAmount,
  readDecimal,
} from 'punchgate/kernel';
import type { RequisitionLine } from './requisition.ts';

/** cXML `%r8;` spellings of a quantity, as a buyer system reads them. */
const QUANTITY = { signed: true, barePoint: true, exponent: true } as const;

function read(text: string): Decimal | undefined {
  return readDecimal(text.trim(), { signed: true, barePoint: true });
}

/** True when `text` is a plain decimal number such as `12`, `0.5` or `-3.25`. */
export function isDecimal(text: string): boolean {
  return read(text) !== undefined;
}

type PricedLine = Pick<RequisitionLine, 'quantity' | 'unitPrice' | 'currency' | 'priceBasis'>;

/** The line's amount as a Decimal in its currency's minor units; undefined when a figure is not a number. */
function amountOf(line: PricedLine): Decimal | undefined {
  const quantity = readDecimal(line.quantity.trim(), QUANTITY);
  const price = read(line.unitPrice);
  if (quantity === undefined || price === undefined) return undefined;
  const { priceBasis } = line;
  if (priceBasis === undefined) return lineAmount(quantity, price, undefined, line.currency);
  const per = readDecimal(priceBasis.quantity.trim(), QUANTITY);
  const conversionFactor = readDecimal(priceBasis.conversionFactor.trim(), QUANTITY);
  if (per === undefined || conversionFactor === undefined || per.units === 0n) return undefined;
  return lineAmount(quantity, price, { quantity: per, conversionFactor }, line.currency);
}

/**
 * A line's amount as a buyer's system books it, e.g. `113.18` for 2,500 at 45.27 EUR per 1,000 and
 * `11318` in JPY; undefined when a figure is not a number.
 */
export function lineAmountText(line: PricedLine): string | undefined {
  const amount = amountOf(line);
  return amount === undefined ? undefined : formatMoney(amount, line.currency);
}

/**
 * The lines' amounts, and `extra` amounts such as a cart's charges, added up in `currency`'s minor units;
 * undefined when a figure is not a number.
 */
export function linesTotalText(
  lines: readonly PricedLine[],
  currency: string,
  extra: readonly string[] = [],
): string | undefined {
  const amounts: Decimal[] = [];
  for (const amount of [...lines.map(amountOf), ...extra.map(read)]) {
    if (amount === undefined) return undefined;
    amounts.push(amount);
  }
  return formatMoney(addDecimals(amounts), currency);
}

/** True when two amounts are the same number (`12.0` and `12.00`). */
export function sameAmount(a: string, b: string): boolean {
  const x = read(a);
  const y = read(b);
  return x !== undefined && y !== undefined && formatDecimal(x) === formatDecimal(y);
}
