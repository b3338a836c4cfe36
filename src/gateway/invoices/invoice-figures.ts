/**
 * The figures of an invoice (issue 19), worked out from the PO and the print order as the print service
 * reports it, with no I/O: what `buildInvoiceDetailRequest` takes as lines and summary, or the reasons the
 * invoice must wait for an operator.
 *
 * A PIPO order carries no quantities, so the print order holds one item per design: the invoice bills the
 * PO's lines at the PO's quantities and confirmed unit prices. From the print order come the shipping,
 * the promotion and the tax rate (its tax ÷ its items' totals, applied to the invoiced subtotal); the
 * buyer's `defaultTaxPercent`/`defaultShipping` stand in only where the print order has no tax or no
 * shipping at all. Every amount is exact decimal arithmetic rounded half up once to the currency's ISO 4217
 * minor units (JPY none, BHD three), and the summary adds up to the last of them: DueAmount = NetAmount =
 * Subtotal + Tax + Shipping − Discount. A PO line priced per N (PriceBasisQuantity) is invoiced at its own
 * price and basis, its amount quantity × price × conversionFactor ÷ N; it is held against the print
 * service's per-piece price per ordered unit.
 *
 * Scope: a print order is one owner group of the PO (`groupOfPrintOrder`). Per order, every line of the
 * group is invoiced, with the order's tax (`tax_total`, else its shipments' sum), shipping (its shipments'
 * sum, else `shipping_total`, which the interface says is the primary shipment's) and promotion. Per
 * shipment, the lines `shipmentLines` gives for the shipment, with that shipment's own tax and shipping;
 * the promotion goes on the first invoice of the print order only (`withPromotion`), and an order with a
 * single shipment is invoiced exactly as per order.
 *
 * Charges the PO carries (its Shipping and Tax, quoted in the punch-out cart) are what the buyer agreed to:
 * the invoice bills the PO's figure, shared over several invoices of one PO by their part of the PO's lines.
 * The print order's own figure is held against it like a unit price (within the tolerance billed at the
 * PO's and flagged, beyond it held naming both). A charge the PO does not carry is billed from the print
 * order, unless the buyer's `chargesNotOnPo` holds such invoices.
 */
import type { InvoiceConfig, RemitToAddress } from '../../../schemas/config.ts';
import type { Order, OrderItem, Shipment } from '../../../schemas/print-api.ts';
import type {
  InvoiceLineInput,
  InvoicePartnerInput,
  InvoiceSummaryInput,
  InvoiceTaxAt,
  InvoiceTaxInput,
  Money,
} from '../../cxml/index.ts';
import {
  addDecimals,
  compareDecimals,
  type Decimal,
  decimalFromNumber,
  divideDecimals,
  formatDecimal,
  multiplyDecimals,
  parseDecimal,
  roundDecimal,
} from '../../kernel/decimal.ts';
import {
  formatMoney,
  lineAmount,
  minorUnits,
  priceForBasis,
  pricePerUnit,
  roundMoney,
} from '../../kernel/money.ts';
import type { InvoiceHoldPrices } from '../../store/types.ts';
import { exactPriceBasis } from '../punchout/pricing.ts';
import type { OwnerGroup, PoLine, StoredRequest } from '../orders/po-record.ts';
import { itemLines, shipmentLines } from '../orders/print-order-lines.ts';

/** What one invoice covers: the whole print order, or one of its shipments. */
export type InvoiceScope =
  | { readonly per: 'order' }
  | {
      readonly per: 'shipment';
      readonly shipmentIndex: number;
      /** Put the print order's promotion on this invoice: true for the first invoice of the print order. */
      readonly withPromotion: boolean;
    };

/** The settings the figures read: a buyer's `invoices` block. */
type InvoiceFigureSettings = Pick<
  InvoiceConfig,
  'taxAt' | 'priceTolerancePercent' | 'defaultTaxPercent' | 'defaultShipping'
> &
  Partial<Pick<InvoiceConfig, 'chargesNotOnPo'>>;

/** The charges a PO carries (header Shipping/Tax, or an OCI buyer's charge lines): what the buyer agreed to. */
export interface PoCharges {
  readonly shipping?: Money;
  readonly tax?: Money;
  /** The sum of the PO's product lines: the charges are shared over its invoices by their part of it. */
  readonly linesTotal: string;
  /**
   * The PO's Tax is of its lines and its Shipping (the storefront's `charges.tax.onShipping` quoted it so):
   * its rate is worked out over both, and the invoice taxes the shipping it bills at it.
   */
  readonly taxesShipping?: boolean;
}

export interface InvoiceFiguresInput {
  /** The print order as `GET /order/{id}` returns it. */
  readonly order: Order;
  /** The PO lines of that print order (`groupOfPrintOrder(po, order.id)`). */
  readonly group: OwnerGroup;
  /** The PO's currency (`storedRequest(po).total.currency`). */
  readonly currency: string;
  readonly scope: InvoiceScope;
  readonly settings: InvoiceFigureSettings;
  /**
   * An operator's release of a held invoice: where the print order's unit price differs from the PO's
   * beyond the tolerance, bill the PO's (`po`) or accept the print order's for the lines concerned
   * (`print-order`) instead of holding the invoice; the same for a charge. Every other reason to hold
   * still holds it.
   */
  readonly prices?: InvoiceHoldPrices;
  /** The PO's charges; absent, the PO is read as carrying none. */
  readonly poCharges?: PoCharges;
}

/**
 * A print-order price that differs from the PO's: within the tolerance (or beyond it, released by an operator
 * at the PO's prices) invoiced at the PO's and flagged; accepted by an operator, invoiced at the print order's.
 */
export interface PriceDeviation {
  /** The PO lines concerned (one, or those the print order's items could not be matched to). */
  readonly lineNumbers: readonly number[];
  /** The print order's unit price(s): an item's total over its quantity. */
  readonly printOrder: string;
  /** The PO line's unit price(s). */
  readonly po: string;
  /** |printOrder − po| ÷ po in percent, 2 decimals. */
  readonly percent: string;
  /** Whose price the invoice bills: the PO's, unless an operator accepted the print order's. */
  readonly billed: InvoiceHoldPrices;
  /** Beyond the buyer's tolerance: invoiced only because an operator released it. */
  readonly beyondTolerance: boolean;
  /** Set where the difference is in a charge (the figures are then amounts, not unit prices). */
  readonly charge?: ChargeKind;
}

type ChargeKind = 'shipping' | 'tax';

type InvoiceHoldReason =
  | 'totals_do_not_add_up'
  | 'price_beyond_tolerance'
  | 'no_lines'
  | 'currency_mismatch'
  | 'negative_charge'
  | 'tax_without_items'
  | 'discount_exceeds_total'
  | 'charge_beyond_tolerance'
  | 'charge_not_on_po';

interface InvoiceHold {
  readonly reason: InvoiceHoldReason;
  /** For the operator, with the figures. */
  readonly message: string;
}

type TaxSource = 'print-order' | 'config' | 'po' | 'none';

export interface InvoiceFigures {
  readonly currency: string;
  readonly taxAt: InvoiceTaxAt;
  readonly lines: readonly InvoiceLineInput[];
  readonly summary: InvoiceSummaryInput;
  /** Within-tolerance price differences (for the flag and the invoice's Comments); empty when none. */
  readonly deviations: readonly PriceDeviation[];
  /** Where the tax rate and the shipping came from. */
  readonly taxSource: TaxSource;
  readonly shippingSource: TaxSource;
}

export type InvoiceFiguresResult =
  | { readonly ok: true; readonly figures: InvoiceFigures }
  | {
      readonly ok: false;
      readonly holds: readonly InvoiceHold[];
      /** The holds' messages in one text, for `lastError` and the PO's history. */
      readonly message: string;
    };

const ZERO: Decimal = { units: 0n, scale: 0 };
/** A per-N price held against a per-piece one: enough decimals that a basis of 10^k loses nothing. */
const PER_UNIT_DECIMALS = 10;

/** The print order's own total may differ from its items' sum by rounding, no more: half a minor unit. */
function addUpSlack(currency: string): Decimal {
  return { units: 5n, scale: minorUnits(currency) + 1 };
}

const lenient = { barePoint: true, exponent: true, signed: true } as const;

function money(value: Decimal, currency: string): string {
  return formatMoney(value, currency);
}

function negate(value: Decimal): Decimal {
  return { units: -value.units, scale: value.scale };
}

function abs(value: Decimal): Decimal {
  return value.units < 0n ? negate(value) : value;
}

function subtract(a: Decimal, b: Decimal): Decimal {
  return addDecimals([a, negate(b)]);
}

function isZero(value: Decimal): boolean {
  return value.units === 0n;
}

const sum = (values: readonly Decimal[]): Decimal => addDecimals(values);
const fromNumber = (value: number): Decimal => decimalFromNumber(value);

/** A tax rate as an exact fraction, so a rate of 1/3 loses nothing before the amount is rounded. */
interface Rate {
  readonly numerator: Decimal;
  readonly denominator: Decimal;
}

function applyRate(amount: Decimal, rate: Rate, currency: string): Decimal {
  return divideDecimals(multiplyDecimals(amount, rate.numerator), rate.denominator, minorUnits(currency));
}

const HUNDRED: Decimal = { units: 100n, scale: 0 };

/**
 * The rate as the invoice states it. A rate read back from rounded amounts (3.71 tax on 45.00) is
 * 8.244444…% exactly, a figure no tax authority sets, which an accounts-payable check of taxable × rate
 * stumbles over; so it is stated with the fewest decimals, up to four, at which it still gives the very
 * tax it was read from (8.24 % of 45.00 is 3.71). A rate that is not a ratio of amounts (a configured
 * percent, 8.125) has more decimals than the currency and is stated exactly.
 */
function ratePercent(rate: Rate, currency: string): string {
  const percent = divideDecimals(multiplyDecimals(rate.numerator, HUNDRED), rate.denominator, 6);
  const decimals = minorUnits(currency);
  if (rate.numerator.scale <= decimals) {
    const gives = (candidate: Decimal) =>
      compareDecimals(
        divideDecimals(multiplyDecimals(rate.denominator, candidate), HUNDRED, decimals),
        rate.numerator,
      ) === 0;
    for (let places = 0; places <= 4; places++) {
      const nearest = roundDecimal(percent, places);
      const stated = [0n, -1n, 1n]
        .map((step) => ({ units: nearest.units + step, scale: nearest.scale }))
        .find(gives);
      if (stated !== undefined) return formatDecimal(stated, { minDecimals: 0 });
    }
  }
  return formatDecimal(percent, { minDecimals: 0 });
}

/** The line's amount at `unitPrice` (per the line's price basis), rounded once to the currency. */
function poLineAmount(line: PoLine, unitPrice: Decimal, currency: string): Decimal {
  return lineAmount(
    parseDecimal(line.quantity, lenient),
    unitPrice,
    exactPriceBasis(line.priceBasis),
    currency,
  );
}

/** A PO line's unit price, as confirmed, of its price basis (45.20 for a price per 1,000). */
function linePrice(line: PoLine): Decimal {
  return parseDecimal(line.unitPrice.value, lenient);
}

/** A PO line's price of one ordered unit: what the print service's per-piece price is held against. */
function lineUnitPrice(line: PoLine): Decimal {
  return pricePerUnit(linePrice(line), exactPriceBasis(line.priceBasis), PER_UNIT_DECIMALS);
}

/**
 * What the print order charges a unit of an item: its total over its quantity. A PIPO order carries no
 * quantities, so its items are one per design at the service's own quantity (often 1): only the unit price
 * can be held against the PO's; where the item's quantity is the PO line's, this is the same comparison
 * as the totals.
 */
function itemUnitPrice(item: OrderItem): Decimal {
  const total = fromNumber(item.sub_total);
  return item.quantity > 0 ? divideDecimals(total, fromNumber(item.quantity), 6) : total;
}

/** A unit price as written in a message: at least the currency's decimals, every decimal it has. */
function unitPriceText(value: Decimal, currency: string): string {
  return formatDecimal(value, { minDecimals: minorUnits(currency) });
}

function itemTotal(items: readonly OrderItem[]): Decimal {
  return sum(items.map((item) => fromNumber(item.sub_total)));
}

function listNumbers(numbers: readonly number[]): string {
  return numbers.join(', ');
}

/** The percentage `difference` is of `base`, 2 decimals; undefined when the base is zero. */
function percentOf(difference: Decimal, base: Decimal): string | undefined {
  if (isZero(base)) return undefined;
  return formatDecimal(
    divideDecimals(multiplyDecimals(difference, { units: 100n, scale: 0 }), abs(base), 2),
    {
      minDecimals: 2,
    },
  );
}

interface Comparison {
  readonly lineNumbers: readonly number[];
  readonly printOrder: Decimal;
  readonly po: Decimal;
  /** How the print order's side is named in a message. */
  readonly what: string;
  readonly currency: string;
}

/** The PO lines in scope, in PO order, and the print-order items in scope. */
function scopeOf(
  order: Order,
  group: OwnerGroup,
  scope: InvoiceScope,
): { lines: PoLine[]; items: OrderItem[]; wholeOrder: boolean } {
  if (scope.per === 'order' || order.shipments.length <= 1) {
    return { lines: [...group.lines], items: [...order.items], wholeOrder: true };
  }
  const numbers = new Set(shipmentLines(order, scope.shipmentIndex, group).map((line) => line.lineNumber));
  return {
    lines: group.lines.filter((line) => numbers.has(line.lineNumber)),
    items: order.items.filter((item) => item.shipment_index === scope.shipmentIndex),
    wholeOrder: false,
  };
}

/** Each matched item against its PO line, then whatever could not be matched as one remainder. */
function comparisons(
  order: Order,
  group: OwnerGroup,
  lines: readonly PoLine[],
  items: readonly OrderItem[],
  currency: string,
) {
  const lineOfItem = itemLines(order, group);
  const inScope = new Set(lines.map((line) => line.lineNumber));
  const matchedLines = new Set<number>();
  const result: Comparison[] = [];
  const unmatchedItems: OrderItem[] = [];
  for (const item of items) {
    const line = lineOfItem.get(item.id);
    if (line === undefined || !inScope.has(line.lineNumber)) {
      unmatchedItems.push(item);
      continue;
    }
    matchedLines.add(line.lineNumber);
    // An item of the line's own quantity that charges the line's amount charges the same price: its
    // per-piece price, worked back from a rounded total, may differ from a per-N price in the sixth decimal.
    if (sameAmount(item, line, currency)) continue;
    result.push({
      lineNumbers: [line.lineNumber],
      printOrder: itemUnitPrice(item),
      po: lineUnitPrice(line),
      what: `item ${item.id}`,
      currency,
    });
  }
  const unmatchedLines = lines.filter((line) => !matchedLines.has(line.lineNumber));
  if (unmatchedItems.length > 0 || unmatchedLines.length > 0) {
    result.push({
      lineNumbers: unmatchedLines.map((line) => line.lineNumber),
      printOrder: sum(unmatchedItems.map(itemUnitPrice)),
      po: sum(unmatchedLines.map(lineUnitPrice)),
      what:
        unmatchedItems.length === 0
          ? 'no item'
          : `item${unmatchedItems.length === 1 ? '' : 's'} ${unmatchedItems.map((item) => item.id).join(', ')} (not matched to PO lines by design)`,
      currency,
    });
  }
  return result;
}

/** The item is for the PO line's quantity and its total is the line's amount, to the currency's minor unit. */
function sameAmount(item: OrderItem, line: PoLine, currency: string): boolean {
  const quantity = parseDecimal(line.quantity, lenient);
  if (compareDecimals(fromNumber(item.quantity), quantity) !== 0) return false;
  const po = poLineAmount(line, linePrice(line), currency);
  return compareDecimals(roundMoney(fromNumber(item.sub_total), currency), po) === 0;
}

function comparisonText(c: Comparison, percent: string | undefined): string {
  const lines =
    c.lineNumbers.length === 0
      ? 'No PO line'
      : `PO line${c.lineNumbers.length === 1 ? '' : 's'} ${listNumbers(c.lineNumbers)}`;
  const off = percent === undefined ? '' : ` (${percent}% off)`;
  return `${lines}: the print order charges ${unitPriceText(c.printOrder, c.currency)} a unit (${c.what}), the PO ${unitPriceText(c.po, c.currency)}${off}`;
}

type Hold = (reason: InvoiceHoldReason, message: string) => void;

/** difference × 100 > tolerance × base, exactly; any difference on a zero amount is beyond it. */
function beyondTolerance(difference: Decimal, base: Decimal, tolerance: Decimal): boolean {
  return (
    isZero(base) ||
    compareDecimals(
      multiplyDecimals(difference, { units: 100n, scale: 0 }),
      multiplyDecimals(tolerance, abs(base)),
    ) > 0
  );
}

/**
 * Each comparison within the tolerance is a deviation; beyond it, a hold naming both amounts, unless an
 * operator released it (`prices`): at the PO's prices it is a deviation like any other; accepting the print
 * order's, the unit price of the one PO line concerned becomes the print order's (`acceptedPrices`). A
 * difference that is not one line's (items not matched to PO lines) cannot be priced per line, and holds.
 */
function priceDeviations(
  compared: readonly Comparison[],
  tolerancePercent: number,
  prices: InvoiceHoldPrices | undefined,
  hold: Hold,
): { deviations: PriceDeviation[]; acceptedPrices: Map<number, Decimal> } {
  const tolerance = fromNumber(tolerancePercent);
  const deviations: PriceDeviation[] = [];
  const acceptedPrices = new Map<number, Decimal>();
  for (const c of compared) {
    const difference = abs(subtract(c.printOrder, c.po));
    if (isZero(difference)) continue;
    const percent = percentOf(difference, c.po);
    const beyond = beyondTolerance(difference, c.po, tolerance);
    const [onlyLine, ...moreLines] = c.lineNumbers;
    const accepted = beyond && prices === 'print-order' && onlyLine !== undefined && moreLines.length === 0;
    if (beyond && prices !== 'po' && !accepted) {
      hold(
        'price_beyond_tolerance',
        `${comparisonText(c, percent)}, beyond the ${formatDecimal(tolerance)}% tolerance.`,
      );
      continue;
    }
    if (accepted) acceptedPrices.set(onlyLine, c.printOrder);
    deviations.push({
      lineNumbers: c.lineNumbers,
      printOrder: unitPriceText(c.printOrder, c.currency),
      po: unitPriceText(c.po, c.currency),
      percent: percent ?? '0.00',
      billed: accepted ? 'print-order' : 'po',
      beyondTolerance: beyond,
    });
  }
  return { deviations, acceptedPrices };
}

/**
 * The tax rate and the shipping of the invoice: the shipment's own, or the whole order's (tax_total, else
 * its shipments' sum; its shipments' shipping, else shipping_total); the buyer's defaults only where the
 * print order has no tax, or no shipping, anywhere.
 */
function charges(
  order: Order,
  shipment: Shipment | undefined,
  items: readonly OrderItem[],
  settings: InvoiceFigureSettings,
  where: string,
  hold: Hold,
  currency: string,
): { rate: Rate; shipping: Decimal; taxSource: TaxSource; shippingSource: TaxSource } {
  const shipments = order.shipments;
  const shipmentsTax = sum(shipments.map((s) => fromNumber(s.tax_total)));
  const shipmentsShipping = sum(shipments.map((s) => fromNumber(s.shipping_total)));
  const orderTax = fromNumber(order.tax_total);
  const orderShipping = fromNumber(order.shipping_total);
  let tax: Decimal;
  let shipping: Decimal;
  if (shipment !== undefined) {
    tax = fromNumber(shipment.tax_total);
    shipping = fromNumber(shipment.shipping_total);
  } else {
    tax = isZero(orderTax) ? shipmentsTax : orderTax;
    shipping = isZero(shipmentsShipping) ? orderShipping : shipmentsShipping;
  }
  if (tax.units < 0n || shipping.units < 0n) {
    hold(
      'negative_charge',
      `${where} has a negative tax (${money(tax, currency)}) or shipping (${money(shipping, currency)}).`,
    );
  }
  const printOrderHasTax = !isZero(orderTax) || !isZero(shipmentsTax);
  const printOrderHasShipping = !isZero(orderShipping) || !isZero(shipmentsShipping);

  const taxedItems = itemTotal(items);
  let rate: Rate = { numerator: ZERO, denominator: { units: 1n, scale: 0 } };
  let taxSource: TaxSource = printOrderHasTax ? 'print-order' : 'none';
  if (!isZero(tax)) {
    if (isZero(taxedItems)) {
      hold(
        'tax_without_items',
        `${where} carries tax ${money(tax, currency)} on items totalling ${money(ZERO, currency)}.`,
      );
    } else {
      rate = { numerator: tax, denominator: taxedItems };
    }
  } else if (!printOrderHasTax && settings.defaultTaxPercent !== undefined) {
    rate = { numerator: parseDecimal(settings.defaultTaxPercent), denominator: { units: 100n, scale: 0 } };
    taxSource = 'config';
  }
  let shippingSource: TaxSource = printOrderHasShipping ? 'print-order' : 'none';
  if (isZero(shipping) && !printOrderHasShipping && settings.defaultShipping !== undefined) {
    shipping = parseDecimal(settings.defaultShipping);
    shippingSource = 'config';
  }
  return { rate, shipping: roundMoney(shipping, currency), taxSource, shippingSource };
}

const CHARGE_NAMES: Record<ChargeKind, string> = { shipping: 'shipping', tax: 'tax' };

/** A charge of the invoice: what the print order charges for its scope, and the PO's figure if it has one. */
interface ChargeSides {
  readonly kind: ChargeKind;
  readonly printOrder: Decimal;
  /** Undefined where the PO carries no such charge. */
  readonly po: Decimal | undefined;
}

/**
 * Whose figure of a charge the invoice bills: the PO's where it carries one (the print order's held against
 * it like a unit price), else the print order's, unless the buyer holds charges not on the PO. An
 * operator's release (`prices`) decides what would be held; `po` for a charge the PO lacks bills none.
 */
function billedCharge(
  sides: ChargeSides,
  settings: InvoiceFigureSettings,
  prices: InvoiceHoldPrices | undefined,
  hold: Hold,
  currency: string,
): { billed: InvoiceHoldPrices; deviation?: PriceDeviation } {
  const name = CHARGE_NAMES[sides.kind];
  const printOrder = money(sides.printOrder, currency);
  if (sides.po === undefined) {
    if (isZero(sides.printOrder) || settings.chargesNotOnPo !== 'hold') return { billed: 'print-order' };
    if (prices === undefined) {
      hold(
        'charge_not_on_po',
        `The print order charges ${name} ${printOrder} and the PO carries none; the buyer's invoices hold charges not on the PO.`,
      );
      return { billed: 'po' };
    }
    const deviation = {
      lineNumbers: [],
      printOrder,
      po: money(ZERO, currency),
      percent: '100.00',
      billed: prices,
    };
    return { billed: prices, deviation: { ...deviation, beyondTolerance: true, charge: sides.kind } };
  }
  const difference = abs(subtract(sides.printOrder, sides.po));
  if (isZero(difference)) return { billed: 'po' };
  const percent = percentOf(difference, sides.po) ?? '100.00';
  const beyond = beyondTolerance(difference, sides.po, fromNumber(settings.priceTolerancePercent));
  if (beyond && prices === undefined) {
    hold(
      'charge_beyond_tolerance',
      `The print order charges ${name} ${printOrder}, the PO ${money(sides.po, currency)} (${percent}% off), beyond the ${formatDecimal(fromNumber(settings.priceTolerancePercent))}% tolerance.`,
    );
    return { billed: 'po' };
  }
  const billed = beyond && prices !== undefined ? prices : 'po';
  return {
    billed,
    deviation: {
      lineNumbers: [],
      printOrder,
      po: money(sides.po, currency),
      percent,
      billed,
      beyondTolerance: beyond,
      charge: sides.kind,
    },
  };
}

/** The PO's figure for the invoice's part of its lines: the whole figure when the invoice bills them all. */
function poShare(value: Decimal, scopeSubtotal: Decimal, linesTotal: Decimal, currency: string): Decimal {
  if (isZero(linesTotal) || compareDecimals(scopeSubtotal, linesTotal) === 0) return value;
  return divideDecimals(multiplyDecimals(value, scopeSubtotal), linesTotal, minorUnits(currency));
}

/**
 * The shipping and tax rate the invoice bills, with the deviations and sources: each charge from the PO or
 * the print order by `billedCharge`. `subtotal` is what the invoice's lines bill, `poSubtotal` the same
 * lines at the PO's prices (their part of the PO).
 */
function reconciledCharges(
  input: InvoiceFiguresInput,
  printOrder: { rate: Rate; shipping: Decimal; taxSource: TaxSource; shippingSource: TaxSource },
  subtotal: Decimal,
  poSubtotal: Decimal,
  hold: Hold,
): {
  rate: Rate;
  shipping: Decimal;
  taxSource: TaxSource;
  shippingSource: TaxSource;
  deviations: PriceDeviation[];
  /** The rate is of the lines and the shipping: the shipping billed is taxed at it too. */
  taxesShipping: boolean;
} {
  const { poCharges, settings, prices, currency } = input;
  const amountOf = (charge: Money | undefined, kind: ChargeKind): Decimal | undefined => {
    if (charge === undefined) return undefined;
    if (charge.currency !== currency) {
      hold(
        'currency_mismatch',
        `The PO's ${CHARGE_NAMES[kind]} is in ${charge.currency}, the PO in ${currency}.`,
      );
      return undefined;
    }
    return parseDecimal(charge.value, lenient);
  };
  const linesTotal = parseDecimal(poCharges?.linesTotal ?? '0', lenient);
  const poShipping = amountOf(poCharges?.shipping, 'shipping');
  const poTax = amountOf(poCharges?.tax, 'tax');
  // Tax on the shipping too: the rate is of lines plus shipping, and so is this invoice's part of the tax.
  const poShippingShare =
    poShipping === undefined ? undefined : poShare(poShipping, poSubtotal, linesTotal, currency);
  const taxedShipping = poCharges?.taxesShipping === true ? poShipping : undefined;
  const taxBase = taxedShipping === undefined ? linesTotal : sum([linesTotal, taxedShipping]);
  const poTaxable = taxedShipping === undefined ? poSubtotal : sum([poSubtotal, poShippingShare ?? ZERO]);
  const poRate: Rate | undefined =
    poTax === undefined
      ? undefined
      : isZero(taxBase)
        ? { numerator: ZERO, denominator: { units: 1n, scale: 0 } }
        : { numerator: poTax, denominator: taxBase };
  const deviations: PriceDeviation[] = [];
  const shipping = billedCharge(
    {
      kind: 'shipping',
      printOrder: printOrder.shipping,
      po: poShippingShare,
    },
    settings,
    prices,
    hold,
    currency,
  );
  const tax = billedCharge(
    {
      kind: 'tax',
      printOrder: applyRate(subtotal, printOrder.rate, currency),
      po: poRate === undefined ? undefined : applyRate(poTaxable, poRate, currency),
    },
    settings,
    prices,
    hold,
    currency,
  );
  for (const charge of [shipping, tax]) if (charge.deviation !== undefined) deviations.push(charge.deviation);
  const none: Rate = { numerator: ZERO, denominator: { units: 1n, scale: 0 } };
  const fromPo = (billed: InvoiceHoldPrices, onPo: boolean) => billed === 'po' && onPo;
  return {
    rate: tax.billed === 'print-order' ? printOrder.rate : (poRate ?? none),
    shipping: shipping.billed === 'print-order' ? printOrder.shipping : (poShippingShare ?? ZERO),
    taxSource: fromPo(tax.billed, poRate !== undefined)
      ? 'po'
      : tax.billed === 'po'
        ? 'none'
        : printOrder.taxSource,
    shippingSource: fromPo(shipping.billed, poShipping !== undefined)
      ? 'po'
      : shipping.billed === 'po'
        ? 'none'
        : printOrder.shippingSource,
    deviations,
    taxesShipping: tax.billed !== 'print-order' && poRate !== undefined && taxedShipping !== undefined,
  };
}

/**
 * One PO line as invoiced: its quantity and unit price of the PO's price basis (the PO's, or the print
 * order's per-piece price restated per that basis where an operator accepted it), the basis echoed, the
 * subtotal rounded once to the currency's minor units, its tax.
 */
/** The price per the line's basis an invoice bills: the PO's, or a per-unit price an operator accepted. */
function billedUnitPrice(line: PoLine, acceptedPerUnit: Decimal | undefined): Decimal {
  if (acceptedPerUnit === undefined) return linePrice(line);
  const basis = exactPriceBasis(line.priceBasis);
  return priceForBasis(acceptedPerUnit, basis, Math.max(acceptedPerUnit.scale, PER_UNIT_DECIMALS));
}

function invoiceLine(
  line: PoLine,
  index: number,
  acceptedPerUnit: Decimal | undefined,
  rate: Rate,
  taxAt: InvoiceTaxAt,
  percentageRate: string,
  currency: string,
): InvoiceLineInput & { readonly amount: Decimal } {
  const unitPrice = billedUnitPrice(line, acceptedPerUnit);
  const amount = poLineAmount(line, unitPrice, currency);
  return {
    amount,
    invoiceLineNumber: index + 1,
    lineNumber: line.lineNumber,
    quantity: formatDecimal(parseDecimal(line.quantity, lenient)),
    unitOfMeasure: line.unitOfMeasure,
    unitPrice: unitPriceText(unitPrice, currency),
    ...(line.priceBasis !== undefined && { priceBasis: line.priceBasis }),
    supplierPartID: line.supplierPartID,
    ...(line.lineRef !== undefined && { supplierPartAuxiliaryID: line.lineRef }),
    ...(line.description !== '' && { description: line.description }),
    subtotal: money(amount, currency),
    ...(taxAt === 'line' && {
      tax: {
        amount: money(applyRate(amount, rate, currency), currency),
        taxableAmount: money(amount, currency),
        percentageRate,
      },
    }),
  };
}

/**
 * The figures of one invoice, or why it must wait for an operator (every reason found, each with its
 * figures). Pure: the same input gives the same figures, so a re-sent invoice is the same invoice.
 *
 * @example
 * const result = invoiceFigures({
 *   order, group: groupOfPrintOrder(po, order.id)!, currency: storedRequest(po).total.currency,
 *   scope: { per: 'shipment', shipmentIndex: 1, withPromotion: true }, settings: buyer.invoices,
 * });
 * if (!result.ok) flag(po, FLAG.invoiceHeld, result.message);
 */
export function invoiceFigures(input: InvoiceFiguresInput): InvoiceFiguresResult {
  const { order, group, currency, scope, settings } = input;
  const holds: InvoiceHold[] = [];
  const hold: Hold = (reason, message) => {
    holds.push({ reason, message });
  };
  const where =
    scope.per === 'shipment' && order.shipments.length > 1
      ? `shipment ${scope.shipmentIndex} of print order ${order.id}`
      : `print order ${order.id}`;
  const Where = `${where.charAt(0).toUpperCase()}${where.slice(1)}`;

  // The print order must agree with itself before its figures are used.
  const itemsSum = itemTotal(order.items);
  const orderSubTotal = fromNumber(order.sub_total);
  if (compareDecimals(abs(subtract(itemsSum, orderSubTotal)), addUpSlack(currency)) > 0) {
    hold(
      'totals_do_not_add_up',
      `Print order ${order.id}'s items add up to ${money(itemsSum, currency)} but its sub_total is ${money(orderSubTotal, currency)}.`,
    );
  }

  const { lines, items, wholeOrder } = scopeOf(order, group, scope);
  const shipment = wholeOrder
    ? undefined
    : order.shipments.find((s) => scope.per === 'shipment' && s.index === scope.shipmentIndex);
  if (!wholeOrder && shipment === undefined) {
    hold('no_lines', `Print order ${order.id} has no ${where.split(' of ')[0]}: nothing to invoice.`);
  } else if (lines.length === 0) {
    hold('no_lines', `No PO line matches the items of ${where}: nothing to invoice.`);
  }
  const foreign = lines.filter((line) => line.unitPrice.currency !== currency);
  if (foreign.length > 0) {
    hold(
      'currency_mismatch',
      `PO line${foreign.length === 1 ? '' : 's'} ${listNumbers(foreign.map((l) => l.lineNumber))} ${foreign.length === 1 ? 'is' : 'are'} priced in ${[...new Set(foreign.map((l) => l.unitPrice.currency))].join(', ')}, the PO in ${currency}.`,
    );
  }

  // Prices: what the print order charges a unit against the PO's unit prices.
  const { deviations, acceptedPrices } = priceDeviations(
    comparisons(order, group, lines, items, currency),
    settings.priceTolerancePercent,
    input.prices,
    hold,
  );

  const printOrderCharges = charges(order, shipment, items, settings, Where, hold, currency);
  const amountsAt = (accepted: (line: PoLine) => Decimal | undefined) =>
    sum(lines.map((line) => poLineAmount(line, billedUnitPrice(line, accepted(line)), currency)));
  const reconciled = reconciledCharges(
    input,
    printOrderCharges,
    amountsAt((line) => acceptedPrices.get(line.lineNumber)),
    amountsAt(() => undefined),
    hold,
  );
  const { rate, shipping, taxSource, shippingSource, taxesShipping } = reconciled;
  deviations.push(...reconciled.deviations);

  // A promotion only ever lowers the bill: a service that writes it negative means the same amount.
  const promotion = abs(fromNumber(order.promotion_total));
  const discount = roundMoney(
    scope.per === 'order' || wholeOrder || scope.withPromotion ? promotion : ZERO,
    currency,
  );

  // The lines at the PO's terms, and the summary.
  const percentageRate = ratePercent(rate, currency);
  const invoiceLines = lines.map((line, index) =>
    invoiceLine(
      line,
      index,
      acceptedPrices.get(line.lineNumber),
      rate,
      settings.taxAt,
      percentageRate,
      currency,
    ),
  );
  const subtotal = sum(invoiceLines.map((line) => line.amount));
  const linesTax =
    settings.taxAt === 'line'
      ? sum(invoiceLines.map((line) => parseDecimal(line.tax?.amount ?? '0', lenient)))
      : applyRate(subtotal, rate, currency);
  // With the shipping taxed, the tax is one rounding of lines plus shipping at the PO's rate (for the
  // whole PO exactly the PO's Tax, however the cart rounded it); the shipping's part is what the lines'
  // tax leaves, stated as a TaxDetail of its own.
  const taxAmount = taxesShipping ? applyRate(sum([subtotal, shipping]), rate, currency) : linesTax;
  const gross = sum([subtotal, taxAmount, shipping]);
  const net = subtract(gross, discount);
  if (net.units < 0n) {
    hold(
      'discount_exceeds_total',
      `The promotion of ${money(discount, currency)} exceeds what ${where} bills (${money(gross, currency)}).`,
    );
  }
  if (holds.length > 0) {
    return { ok: false, holds, message: holds.map((h) => h.message).join(' ') };
  }
  const summaryTax: InvoiceTaxInput = {
    amount: money(taxAmount, currency),
    taxableAmount: money(subtotal, currency),
    percentageRate,
    ...(taxesShipping &&
      !isZero(shipping) && {
        shippingTax: {
          taxableAmount: money(shipping, currency),
          amount: money(subtract(taxAmount, linesTax), currency),
        },
      }),
  };
  return {
    ok: true,
    figures: {
      currency,
      taxAt: settings.taxAt,
      lines: invoiceLines.map(({ amount: _amount, ...line }) => line),
      summary: {
        subtotal: money(subtotal, currency),
        tax: summaryTax,
        shipping: money(shipping, currency),
        ...(!isZero(discount) && { discount: money(discount, currency) }),
        gross: money(gross, currency),
        net: money(net, currency),
        due: money(net, currency),
      },
      deviations,
      taxSource,
      shippingSource,
    },
  };
}

/** The amount negated, written with the decimals it had (the invoice's, in its currency's minor units). */
function negated(text: string): string {
  const value = parseDecimal(text, lenient);
  return formatDecimal(negate(value), { minDecimals: value.scale });
}

function negatedTax(tax: InvoiceTaxInput): InvoiceTaxInput {
  return {
    ...tax,
    amount: negated(tax.amount),
    ...(tax.taxableAmount !== undefined && { taxableAmount: negated(tax.taxableAmount) }),
    ...(tax.shippingTax !== undefined && {
      shippingTax: {
        taxableAmount: negated(tax.shippingTax.taxableAmount),
        amount: negated(tax.shippingTax.amount),
      },
    }),
  };
}

/**
 * A credit memo's figures: the invoice's, every amount negated (quantities and unit prices stay as they
 * were). Build it with `purpose: 'creditMemo'` and the original invoice as `originalInvoice`.
 */
export function creditMemoFigures(figures: InvoiceFigures): InvoiceFigures {
  const { summary } = figures;
  return {
    ...figures,
    lines: figures.lines.map((line) => ({
      ...line,
      subtotal: negated(line.subtotal),
      ...(line.tax !== undefined && { tax: negatedTax(line.tax) }),
    })),
    summary: {
      subtotal: negated(summary.subtotal),
      tax: negatedTax(summary.tax),
      ...(summary.shipping !== undefined && { shipping: negated(summary.shipping) }),
      ...(summary.discount !== undefined && { discount: negated(summary.discount) }),
      gross: negated(summary.gross),
      net: negated(summary.net),
      due: negated(summary.due),
    },
  };
}

/** The deviations as the invoice's Comments (and the PO's history); undefined when there are none. */
export function deviationComments(deviations: readonly PriceDeviation[]): string | undefined {
  if (deviations.length === 0) return undefined;
  const subject = (d: PriceDeviation) =>
    d.charge ??
    (d.lineNumbers.length === 0
      ? 'items not on the PO'
      : `line${d.lineNumbers.length === 1 ? '' : 's'} ${listNumbers(d.lineNumbers)}`);
  const describe = (d: PriceDeviation) =>
    `${subject(d)}: print order ${d.printOrder}, PO ${d.po} (${d.percent}%)`;
  const parts = (billed: InvoiceHoldPrices, beyond: boolean) =>
    deviations
      .filter((d) => d.billed === billed && d.beyondTolerance === beyond)
      .map(describe)
      .join('; ');
  const sentences = [
    ['po', false, "Invoiced at the PO's prices; the print order's differ within tolerance"],
    [
      'po',
      true,
      "Invoiced at the PO's prices, as the supplier's operator decided; the print order's differ beyond tolerance",
    ],
    ['print-order', true, "Invoiced at the print order's prices, as the supplier's operator agreed"],
  ] as const;
  return sentences
    .map(([billed, beyond, text]) => ({ text, list: parts(billed, beyond) }))
    .filter(({ list }) => list !== '')
    .map(({ text, list }) => `${text}: ${list}.`)
    .join(' ');
}

/** One invoice per shipment or per print order, as the buyer's settings say (`on-status` is always per order). */
function invoicePer(settings: Pick<InvoiceConfig, 'send' | 'per'>): 'shipment' | 'order' {
  return settings.send === 'on-status' ? 'order' : (settings.per ?? 'shipment');
}

/** The key that makes an invoice happen once: `order`, or `shipment:<index>`. */
export function invoiceKey(scope: InvoiceScope): string {
  return scope.per === 'order' ? 'order' : `shipment:${scope.shipmentIndex}`;
}

/** What an invoice key covers, as an operator reads it: "the whole print order", "shipment 2". */
export function invoiceKeyText(key: string): string {
  if (key === 'order') return 'the whole print order';
  const shipment = /^shipment:(\d+)$/.exec(key);
  return shipment === null ? key : `shipment ${shipment[1]}`;
}

/**
 * The invoices a print order is due now, by the buyer's settings, leaving out those already issued (by
 * `invoiceKey`). Per shipment, the promotion goes on the first invoice of the print order: the one made
 * while none was issued yet, lowest shipment index first.
 */
export function invoicesDue(
  order: Order,
  settings: Pick<InvoiceConfig, 'send' | 'per' | 'status'>,
  issuedKeys: readonly string[],
): InvoiceScope[] {
  if (settings.send === 'off' || order.is_deleted) return [];
  const issued = new Set(issuedKeys);
  if (settings.send === 'on-status') {
    const reached =
      settings.status !== undefined &&
      order.status.trim().toLowerCase() === settings.status.trim().toLowerCase();
    return reached && !issued.has('order') ? [{ per: 'order' }] : [];
  }
  const shipped = order.shipments.filter((s) => s.shipped_on !== null);
  if (invoicePer(settings) === 'order') {
    const allShipped = order.shipments.length > 0 && shipped.length === order.shipments.length;
    return allShipped && !issued.has('order') ? [{ per: 'order' }] : [];
  }
  let first = issued.size === 0;
  const due: InvoiceScope[] = [];
  for (const s of [...shipped].sort((a, b) => a.index - b.index)) {
    const scope: InvoiceScope = { per: 'shipment', shipmentIndex: s.index, withPromotion: first };
    if (issued.has(invoiceKey(scope))) continue;
    due.push(scope);
    first = false;
  }
  return due;
}

/** A gateway invoice id: the prefix and the buyer's sequence, 6 digits at least (`INV-000042`). */
export function gatewayInvoiceId(prefix: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new RangeError(`invoice sequence must be a whole number from 1, got ${sequence}`);
  }
  return `${prefix}${String(sequence).padStart(6, '0')}`;
}

/**
 * The print service's invoice number for an invoice (`invoiceIds: print-service`), with `-<shipment
 * index>` when per-shipment invoices split an order of several shipments; undefined while the print order
 * has none (the invoice waits; flag `invoice_number_missing`).
 */
export function printServiceInvoiceId(order: Order, scope: InvoiceScope): string | undefined {
  const number = order.invoice_number.trim();
  if (number === '') return undefined;
  return scope.per === 'shipment' && order.shipments.length > 1 ? `${number}-${scope.shipmentIndex}` : number;
}

/** A credit memo's own id: the credited invoice's with `-CR`. */
export function creditMemoInvoiceId(invoiceID: string): string {
  return `${invoiceID}-CR`;
}

/**
 * The invoice's partners: remit-to from the buyer's `remitTo` (else the supplier's name alone, else none)
 * and bill-to from the PO's BillTo.
 */
export function invoicePartners(
  remitTo: RemitToAddress | undefined,
  supplierName: string | undefined,
  billTo: StoredRequest['billTo'],
): InvoicePartnerInput[] {
  const partners: InvoicePartnerInput[] = [];
  if (remitTo !== undefined) {
    partners.push({
      role: 'remitTo',
      name: remitTo.name,
      address: {
        street: remitTo.street,
        city: remitTo.city,
        ...(remitTo.state !== undefined && { state: remitTo.state }),
        ...(remitTo.postalCode !== undefined && { postalCode: remitTo.postalCode }),
        isoCountryCode: remitTo.country,
      },
    });
  } else if (supplierName !== undefined && supplierName.trim() !== '') {
    partners.push({ role: 'remitTo', name: supplierName });
  }
  if (billTo !== undefined && billTo.name.trim() !== '') {
    partners.push({
      role: 'billTo',
      name: billTo.name,
      ...(billTo.addressID !== undefined && { addressID: billTo.addressID }),
      address: {
        deliverTo: billTo.deliverTo,
        street: billTo.street,
        ...(billTo.city !== undefined && { city: billTo.city }),
        ...(billTo.state !== undefined && { state: billTo.state }),
        ...(billTo.postalCode !== undefined && { postalCode: billTo.postalCode }),
        ...(billTo.country !== undefined && { country: billTo.country }),
        ...(billTo.isoCountryCode !== undefined && { isoCountryCode: billTo.isoCountryCode }),
      },
      ...(billTo.email !== undefined && { email: billTo.email }),
    });
  }
  return partners;
}
