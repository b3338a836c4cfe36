/**
 * What a PO line must carry before the gateway accepts it, whatever the cart said: a quantity the product
 * can be printed in, a price that is not negative, and the storefront's currency. These are refusals, not
 * deviations to flag: a quantity of 0 or a credit price would otherwise become a print order. Pure: the
 * intake looks up the product and the storefront, this only judges.
 */
import { compareDecimals, type Decimal, readDecimal } from '../../kernel/decimal.ts';
import type { CatalogEntry } from '../punchout/catalog.ts';

/** As the cXML codec reads them: Money may carry a sign, a quantity (cXML `%r8;`) also an exponent. */
const MONEY_SYNTAX = { signed: true, barePoint: true } as const;
const QUANTITY_SYNTAX = { signed: true, barePoint: true, exponent: true } as const;

/** The values of one PO line this check judges, as the buyer sent them. */
export interface LineValues {
  quantity: string;
  unitPrice: { value: string; currency: string };
}

/** What the line is checked against: the product its cart line is a design of, if still in the catalog. */
export interface LineTerms {
  product: Pick<CatalogEntry, 'sku' | 'minQuantity' | 'maxQuantity'> | undefined;
  currency: string;
}

const whole = (value: Decimal): boolean => value.units % 10n ** BigInt(value.scale) === 0n;
const decimalOf = (value: number): Decimal => ({ units: BigInt(value), scale: 0 });

/**
 * Each problem of the line as a phrase (`quantity 0 is not a whole number from 100 to 100000 (product
 * BC-STD)`), in the order quantity, price, currency; none when the line may be ordered.
 *
 * @example
 * lineProblems({ quantity: '0', unitPrice: { value: '-5', currency: 'EUR' } }, { product, currency: 'USD' });
 * // ['quantity 0 is not a whole number from 100 to 100000 (product BC-STD)',
 * //  'unit price -5 is negative', 'currency EUR is not the storefront's currency USD']
 */
export function lineProblems(line: LineValues, terms: LineTerms): string[] {
  const problems: string[] = [];
  const quantity = readDecimal(line.quantity.trim(), QUANTITY_SYNTAX);
  const { product } = terms;
  if (product === undefined) {
    // The product left the catalog since the punch-out: its bounds are unknown, a print run still is not 0.
    if (quantity === undefined || quantity.units <= 0n || !whole(quantity)) {
      problems.push(`quantity ${line.quantity} is not a positive whole number`);
    }
  } else if (
    quantity === undefined ||
    !whole(quantity) ||
    compareDecimals(quantity, decimalOf(product.minQuantity)) < 0 ||
    compareDecimals(quantity, decimalOf(product.maxQuantity)) > 0
  ) {
    problems.push(
      `quantity ${line.quantity} is not a whole number from ${product.minQuantity} to ${product.maxQuantity} (product ${product.sku})`,
    );
  }
  const price = readDecimal(line.unitPrice.value.trim(), MONEY_SYNTAX);
  if (price === undefined) problems.push(`unit price ${line.unitPrice.value} is not a number`);
  else if (price.units < 0n) problems.push(`unit price ${line.unitPrice.value} is negative`);
  // Judged per line: JAGGAER sends the header Total in another currency than the prices it totals.
  if (line.unitPrice.currency.trim().toUpperCase() !== terms.currency.toUpperCase()) {
    problems.push(`currency ${line.unitPrice.currency} is not the storefront's currency ${terms.currency}`);
  }
  return problems;
}
