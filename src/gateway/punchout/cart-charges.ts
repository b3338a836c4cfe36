/**
 * The shipping and tax a cart quotes, from its storefront's `charges` and the buyer's `cartCharges`, with no
 * I/O. They go into the cart (cXML header Shipping and Tax, OCI charge lines) so the PO the buyer sends back
 * carries them, and the invoice can bill what the buyer agreed to.
 *
 * Shipping is flat per cart, a fixed amount per line, or per line from a table (by the line's quantity, or
 * by its weight where the product has one and the table has `byWeight` rows); a line the table has no row
 * for cannot be quoted, and the transfer is refused naming the product rather than sent without charges.
 * Tax is a rate of the lines, chosen by the punch-out's ShipTo, and of the shipping too where the rule says
 * `onShipping` (EU VAT taxes a delivery at the rate of what it delivers); a tax-exempt buyer is quoted none.
 * Amounts are exact decimals rounded half up once to the currency's ISO 4217 minor units (`kernel/money.ts`:
 * a JPY cart quotes whole yen, a BHD one fils); with line tax the header's Tax is the sum of the lines'
 * taxes plus the shipping's, so the two never disagree.
 */
import type { ChargeRules, ShippingRule, TaxRule } from '../../../schemas/config.ts';
import {
  addDecimals,
  compareDecimals,
  type Decimal,
  decimalFromNumber,
  divideDecimals,
  formatDecimal,
  multiplyDecimals,
  parseDecimal,
} from '../../kernel/decimal.ts';
import { formatMoney, minorUnits, roundMoney } from '../../kernel/money.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import { findProductBySku } from './catalog.ts';
import { formatTotal, lineTotal } from './pricing.ts';

const HUNDRED: Decimal = { units: 100n, scale: 0 };

/** A cart line as the charges see it. */
export interface ChargedLine {
  /** The product's name, for a refusal. */
  readonly productName: string;
  readonly quantity: number;
  /** The line's amount: unit price × quantity, as the cart shows it. */
  readonly amount: string;
  /** Weight of one unit in kg, where the product has one. */
  readonly weightKg?: number;
}

/** Where the cart ships, as the punch-out's ShipTo names it. */
export interface ChargeShipTo {
  readonly country?: string;
  readonly region?: string;
}

export interface CartChargeSettings {
  readonly taxExempt: boolean;
  readonly taxAt: 'header' | 'line';
}

export interface Charge {
  /** In the currency's minor units (`9.95` EUR, `1200` JPY, `1.250` BHD). */
  readonly amount: string;
  readonly description: string;
}

export interface CartCharges {
  readonly shipping?: Charge;
  readonly tax?: Charge & {
    /** The rate applied, in percent. */
    readonly percent: string;
    /** Each line's tax, in line order, with `taxAt: 'line'`; empty otherwise. */
    readonly lines: readonly string[];
    /** The part of `amount` that is tax on the shipping (`onShipping`), where there is shipping. */
    readonly shipping?: string;
  };
}

export type CartChargesResult =
  | { readonly ok: true; readonly charges: CartCharges }
  | { readonly ok: false; readonly productName: string; readonly message: string };

/** A table's row for a quantity or weight: the first whose upTo is not below it. */
function rowAmount(rows: readonly { upTo: number; amount: string }[], measure: Decimal): Decimal | undefined {
  const row = rows.find((r) => compareDecimals(measure, decimalFromNumber(r.upTo)) <= 0);
  return row === undefined ? undefined : parseDecimal(row.amount);
}

type Shipping = { ok: true; amount: Decimal } | { ok: false; productName: string; message: string };

function shippingOf(rule: ShippingRule, lines: readonly ChargedLine[]): Shipping {
  if (lines.length === 0) return { ok: true, amount: { units: 0n, scale: 0 } };
  if (rule.kind === 'flat') return { ok: true, amount: parseDecimal(rule.amount) };
  if (rule.kind === 'per-line') {
    return { ok: true, amount: multiplyDecimals(parseDecimal(rule.amount), decimalFromNumber(lines.length)) };
  }
  const amounts: Decimal[] = [];
  for (const line of lines) {
    const byWeight = line.weightKg !== undefined && rule.byWeight !== undefined;
    const measure = byWeight
      ? multiplyDecimals(decimalFromNumber(line.quantity), decimalFromNumber(line.weightKg ?? 0))
      : decimalFromNumber(line.quantity);
    const amount = rowAmount(byWeight ? (rule.byWeight ?? []) : rule.byQuantity, measure);
    if (amount === undefined) {
      const what = byWeight ? `${formatDecimal(measure)} kg` : `quantity ${line.quantity}`;
      return {
        ok: false,
        productName: line.productName,
        message: `The shipping of ${line.productName} at ${what} cannot be quoted: the shop's shipping table has no row for it. Choose a smaller quantity, or ask the supplier.`,
      };
    }
    amounts.push(amount);
  }
  return { ok: true, amount: addDecimals(amounts) };
}

/** The rate for the ship-to: a row of its country and region, else of its country alone, else the default. */
export function taxPercentFor(rule: TaxRule, shipTo: ChargeShipTo): string {
  const country = shipTo.country?.trim().toUpperCase();
  const region = shipTo.region?.trim().toUpperCase();
  const rows = rule.byShipTo.filter((row) => row.country === country);
  const exact = rows.find((row) => row.region !== undefined && row.region.toUpperCase() === region);
  return (exact ?? rows.find((row) => row.region === undefined))?.percent ?? rule.percent;
}

function applyPercent(amount: Decimal, percent: string, currency: string): Decimal {
  return divideDecimals(multiplyDecimals(amount, parseDecimal(percent)), HUNDRED, minorUnits(currency));
}

/**
 * The tax of the lines (and of the shipping, with `onShipping`). With the tax on the lines, the shipping's
 * tax cannot sit on a line of its own in cXML: it is part of the header's Tax, which says so in its
 * Description, so the header stays the lines' taxes plus the shipping's.
 */
function taxOf(
  rule: TaxRule,
  lines: readonly ChargedLine[],
  shipping: Decimal | undefined,
  context: { shipTo: ChargeShipTo; taxAt: CartChargeSettings['taxAt']; currency: string },
): NonNullable<CartCharges['tax']> {
  const { currency } = context;
  const money = (value: Decimal) => formatMoney(value, currency);
  const percent = taxPercentFor(rule, context.shipTo);
  const amounts = lines.map((line) => parseDecimal(line.amount));
  const taxedShipping =
    rule.onShipping && shipping !== undefined && shipping.units !== 0n ? shipping : undefined;
  if (context.taxAt === 'line') {
    const lineTaxes = amounts.map((amount) => applyPercent(amount, percent, currency));
    const shippingTax =
      taxedShipping === undefined ? undefined : applyPercent(taxedShipping, percent, currency);
    return {
      amount: money(addDecimals([...lineTaxes, ...(shippingTax === undefined ? [] : [shippingTax])])),
      description:
        shippingTax === undefined
          ? rule.description
          : `${rule.description} (incl. ${money(shippingTax)} on shipping)`,
      percent,
      lines: lineTaxes.map(money),
      ...(shippingTax !== undefined && { shipping: money(shippingTax) }),
    };
  }
  const lineTax = applyPercent(addDecimals(amounts), percent, currency);
  // One rounding of the whole base in the header, as a header-taxed invoice bills it; the shipping's part
  // is what the lines' tax leaves of it.
  const whole =
    taxedShipping === undefined
      ? lineTax
      : applyPercent(addDecimals([...amounts, taxedShipping]), percent, currency);
  return {
    amount: money(whole),
    description: rule.description,
    percent,
    lines: [],
    ...(taxedShipping !== undefined && {
      shipping: money(addDecimals([whole, { units: -lineTax.units, scale: lineTax.scale }])),
    }),
  };
}

/**
 * The cart's charges, or the product whose line the rules cannot quote.
 *
 * @example
 * quoteCartCharges(storefront.charges, buyer.cartCharges, [{ productName: 'Business cards', quantity: 500,
 *   amount: '45.00' }], { shipTo: { country: 'US' }, currency: 'USD' });
 * // → { ok: true, charges: { shipping: { amount: '9.95', … }, tax: { amount: '3.71', … } } }
 */
export function quoteCartCharges(
  rules: ChargeRules | undefined,
  settings: CartChargeSettings,
  lines: readonly ChargedLine[],
  { shipTo, currency }: { shipTo: ChargeShipTo; currency: string },
): CartChargesResult {
  if (rules === undefined || lines.length === 0) return { ok: true, charges: {} };
  let shipping: Charge | undefined;
  let shippingAmount: Decimal | undefined;
  if (rules.shipping !== undefined) {
    const quoted = shippingOf(rules.shipping, lines);
    if (!quoted.ok) return quoted;
    shippingAmount = roundMoney(quoted.amount, currency);
    shipping = { amount: formatMoney(shippingAmount, currency), description: rules.shippingDescription };
  }
  const tax =
    rules.tax === undefined || settings.taxExempt
      ? undefined
      : taxOf(rules.tax, lines, shippingAmount, { shipTo, taxAt: settings.taxAt, currency });
  return {
    ok: true,
    charges: { ...(shipping !== undefined && { shipping }), ...(tax !== undefined && { tax }) },
  };
}

/** The ShipTo of the punch-out, as stored with the session (the setup request's Address). */
function sessionShipTo(session: PunchoutSession): ChargeShipTo {
  const shipTo = session.shipTo;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  const country = text(shipTo?.isoCountryCode);
  const region = text(shipTo?.state);
  return { ...(country !== undefined && { country }), ...(region !== undefined && { region }) };
}

/**
 * The charges of a session's cart lines by its storefront's rules and its buyer's settings. Lines kept from
 * an edit that the gateway does not know are the buyer's own, and carry none. A cart these rules cannot
 * quote is not transferred: a cart without its charges would make a PO without them.
 */
export function quoteSessionCharges(
  {
    session,
    buyer,
    storefront,
  }: { session: PunchoutSession; buyer: ResolvedBuyer; storefront: ResolvedStorefront },
  lines: readonly CartLine[],
): CartChargesResult {
  const charged = lines.map((line): ChargedLine => {
    const product = findProductBySku(storefront, line.sku);
    return {
      productName: product?.name ?? line.name,
      quantity: line.quantity,
      amount: formatTotal([lineTotal(line, line.currency)], line.currency),
      ...(product?.weightKg !== undefined && { weightKg: product.weightKg }),
    };
  });
  return quoteCartCharges(storefront.charges, buyer.cartCharges, charged, {
    shipTo: sessionShipTo(session),
    currency: storefront.currency,
  });
}
