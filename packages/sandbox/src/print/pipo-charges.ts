/**
 * What a PIPO order is charged besides its items, from its storefront's `pipoCharges` in the seed: each
 * shipment's shipping price, each shipment's tax (the rate times that shipment's items' sub_total, and
 * its shipping too with `taxOnShipping`, rounded to cents; none for a tax-exempt customer), and the promotion (a percentage of the order's
 * sub_total, or a fixed amount capped at sub_total + shipping). The order-level figures follow the
 * interface: tax_total sums the shipments' tax, sub_total the items'. A split charges again, so the new
 * shipment has its own shipping and tax.
 *
 * Money is computed in whole cents with integers, so 8.25 % of 0.12 is 0.01 on every machine.
 */
import { itemSubTotal } from './resources.ts';
import type { OrderCharges, OrderRecord } from './state.ts';

const cents = (money: number): number => Math.round(money * 100);

/** A rate in millionths of a percent: 8.25 → 8_250_000. */
const RATE_UNITS = 1_000_000;

/** `amountCents × percent %`, in cents, rounded half up (amounts here are never negative). */
function percentOf(amountCents: number, percent: number): number {
  const rate = Math.round(percent * RATE_UNITS);
  const scaled = amountCents * rate;
  const whole = 100 * RATE_UNITS;
  const quotient = Math.floor(scaled / whole);
  return (scaled % whole) * 2 >= whole ? quotient + 1 : quotient;
}

/** Sets every shipment's shipping and tax and the order's promotion from the order's charges. */
export function chargeOrder(order: OrderRecord, taxExempt: boolean): void {
  const charges = order.charges;
  if (charges === null) return;
  let subTotal = 0;
  let shipping = 0;
  order.shipments.forEach((shipment, i) => {
    const items = order.items.filter((item) => item.shipmentIndex === i + 1);
    const itemsCents = items.reduce((sum, item) => sum + cents(itemSubTotal(item)), 0);
    shipment.shippingTotal = charges.shippingPerShipment;
    const taxedCents = itemsCents + (charges.taxOnShipping ? cents(charges.shippingPerShipment) : 0);
    shipment.taxTotal = taxExempt ? 0 : percentOf(taxedCents, charges.taxRatePercent) / 100;
    subTotal += itemsCents;
    shipping += cents(charges.shippingPerShipment);
  });
  order.promotionTotal = promotionCents(charges, subTotal, shipping) / 100;
}

function promotionCents(charges: OrderCharges, subTotalCents: number, shippingCents: number): number {
  const promotion = charges.promotion;
  if (promotion === null) return 0;
  if (promotion.percent !== undefined) return percentOf(subTotalCents, promotion.percent);
  return Math.min(cents(promotion.amount ?? 0), subTotalCents + shippingCents);
}
