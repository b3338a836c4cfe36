/**
 * Amounts and quantities, kept as the exact decimal string the buyer sent (a float would turn
 * `1505.0` into `1505` and `0.1 + 0.2` into trouble); arithmetic on them reads them with
 * `kernel/decimal.ts`. Whether the text is a decimal is the kernel's one grammar, in the spellings cXML
 * allows.
 */
import { type DecimalSyntax, readDecimal } from '../kernel/decimal.ts';
import { CxmlError } from './error.ts';
import type { Charge, Money, PriceBasisQuantity } from './request-types.ts';
import { attr, child, childText, text, type XmlNode } from './xml-node.ts';

/** Money may be a credit (`-5.00`) and is written `5.`, `.5` or `+5` by some buyers. */
const MONEY: DecimalSyntax = { signed: true, barePoint: true };
/** cXML `%r8;`: a real with an exponent; a quantity is never negative, so only `+` is a sign it may carry. */
const QUANTITY: DecimalSyntax = { signed: true, barePoint: true, exponent: true };

/** `<Money currency>` inside `container`; `where` names the container in errors (`ItemOut 2/UnitPrice`). */
export function readMoney(container: XmlNode | undefined, where: string): Money {
  const money = child(container, 'Money');
  if (money === undefined) throw new CxmlError('missing_field', `${where} has no Money`);
  const value = text(money);
  if (value === '') throw new CxmlError('missing_field', `${where}/Money is empty`);
  if (readDecimal(value, MONEY) === undefined) {
    throw new CxmlError('invalid_value', `${where}/Money "${value}" is not a decimal number`);
  }
  const currency = attr(money, 'currency');
  if (currency === undefined || currency === '') {
    throw new CxmlError('missing_field', `${where}/Money has no currency attribute`);
  }
  return { value, currency };
}

/** Shipping or Tax: Money plus the Description text ('' when empty, as Coupa sends it). */
export function readCharge(container: XmlNode | undefined, where: string): Charge | undefined {
  if (container === undefined) return undefined;
  return { ...readMoney(container, where), description: text(child(container, 'Description')) };
}

/** A quantity attribute, exactly as sent once it is known to be a non-negative decimal. */
export function readQuantity(value: string | undefined, where: string): string {
  if (value === undefined || value === '') {
    throw new CxmlError('missing_field', `${where} has no quantity attribute`);
  }
  if (value.startsWith('-') || readDecimal(value, QUANTITY) === undefined) {
    throw new CxmlError('invalid_value', `${where} quantity "${value}" is not a non-negative number`);
  }
  return value;
}

/** A positive `%r8;` attribute of PriceBasisQuantity: a basis of 0 would price every unit at infinity. */
function positiveQuantity(value: string, where: string, name: string): string {
  const decimal = readDecimal(value, QUANTITY);
  if (value.startsWith('-') || decimal === undefined || decimal.units === 0n) {
    throw new CxmlError('invalid_value', `${where} ${name} "${value}" is not a number above zero`);
  }
  return value;
}

/**
 * `ItemDetail/PriceBasisQuantity`, exactly as sent. A missing conversionFactor (the DTD requires it, some
 * buyers leave it out) is 1, and a missing UnitOfMeasure is the line's own: the basis is then counted in
 * the ordered unit, which is what such a buyer means.
 */
export function readPriceBasis(
  detail: XmlNode | undefined,
  lineUnit: string | undefined,
  where: string,
): PriceBasisQuantity | undefined {
  const node = child(detail, 'PriceBasisQuantity');
  if (node === undefined) return undefined;
  const at = `${where}/ItemDetail/PriceBasisQuantity`;
  const quantity = attr(node, 'quantity') ?? '';
  if (quantity === '') throw new CxmlError('missing_field', `${at} has no quantity attribute`);
  const factor = attr(node, 'conversionFactor') ?? '';
  const unit = childText(node, 'UnitOfMeasure') ?? lineUnit ?? '';
  const description = childText(node, 'Description');
  return {
    quantity: positiveQuantity(quantity, at, 'quantity'),
    conversionFactor: factor === '' ? '1' : positiveQuantity(factor, at, 'conversionFactor'),
    unitOfMeasure: unit,
    ...(description !== undefined && description !== '' && { description }),
  };
}
