/**
 * Amounts and quantities, kept as the exact decimal string the buyer sent (a float would turn
 * `1505.0` into `1505` and `0.1 + 0.2` into trouble) next to a parsed number.
 */
import { CxmlError } from './error.ts';
import type { Charge, Money } from './request-types.ts';
import { attr, child, text, type XmlNode } from './xml-node.ts';

const MONEY = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** cXML `%r8;`: a non-negative real, exponent allowed. */
const QUANTITY = /^\+?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `<Money currency>` inside `container`; `where` names the container in errors (`ItemOut 2/UnitPrice`). */
export function readMoney(container: XmlNode | undefined, where: string): Money {
  const money = child(container, 'Money');
  if (money === undefined) throw new CxmlError('missing_field', `${where} has no Money`);
  const value = text(money);
  if (value === '') throw new CxmlError('missing_field', `${where}/Money is empty`);
  if (!MONEY.test(value)) {
    throw new CxmlError('invalid_value', `${where}/Money "${value}" is not a decimal number`);
  }
  const currency = attr(money, 'currency');
  if (currency === undefined || currency === '') {
    throw new CxmlError('missing_field', `${where}/Money has no currency attribute`);
  }
  return { value, amount: Number(value), currency };
}

/** Shipping or Tax: Money plus the Description text ('' when empty, as Coupa sends it). */
export function readCharge(container: XmlNode | undefined, where: string): Charge | undefined {
  if (container === undefined) return undefined;
  return { ...readMoney(container, where), description: text(child(container, 'Description')) };
}

export function readQuantity(value: string | undefined, where: string): { text: string; number: number } {
  if (value === undefined || value === '') {
    throw new CxmlError('missing_field', `${where} has no quantity attribute`);
  }
  if (!QUANTITY.test(value)) {
    throw new CxmlError('invalid_value', `${where} quantity "${value}" is not a non-negative number`);
  }
  return { text: value, number: Number(value) };
}
