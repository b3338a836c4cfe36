/**
 * The print shop's staff reading a PIPO order's job ticket. PIPO order create carries product ids and no
 * quantities, so a punch-out gateway writes each design's quantity into the order's history (the status
 * comments): `1. QUANTITY 500 EA — Business cards (design 2001)`. The sandbox stands in for the staff who
 * enter that quantity on the item: an item of a product with `priceTiers` in the seed takes the ticket's
 * quantity and the tier's unit price, and the order's shipping and tax are charged again. Nothing else in
 * the interface changes; an item whose product has no tiers, or that the ticket does not name, is left as
 * it is.
 */
import { chargeOrder } from './pipo-charges.ts';
import { templateOf } from './resources.ts';
import { type ItemRecord, type OrderRecord, roundMoney, type SandboxState } from './state.ts';

const TICKET_LINE = /^\s*\d+\.\s+QUANTITY\s+(\d+)\s+\S+\s+.*\((?:design|product)\s+(\d+)[,)]/gm;

/** The quantities a ticket gives, by design (or product) id. */
function ticketQuantities(comments: string): Map<number, number> {
  const quantities = new Map<number, number>();
  for (const match of comments.matchAll(TICKET_LINE)) {
    const quantity = Number(match[1]);
    const id = Number(match[2]);
    if (Number.isSafeInteger(quantity) && quantity > 0) quantities.set(id, quantity);
  }
  return quantities;
}

function tierPrice(tiers: readonly { minQuantity: number; price: number }[], quantity: number) {
  let best: { minQuantity: number; price: number } | undefined;
  for (const tier of tiers) {
    if (tier.minQuantity <= quantity && (best === undefined || tier.minQuantity >= best.minQuantity))
      best = tier;
  }
  return best?.price;
}

/**
 * A PIPO order's items by product id, and the quantity each product last took from a ticket: a ticket split
 * over hundreds of history entries names a few products in each, and looking at all of a 5,000-item
 * order's items for every entry made the gateway's job quadratic in its lines. An order's items are fixed
 * when it is created and their quantities change only here, so a product that already took a quantity
 * has nothing to change when a later entry names the same one.
 */
interface TicketedItems {
  byProduct: Map<number, ItemRecord[]>;
  applied: Map<number, number>;
}
const ticketed = new WeakMap<OrderRecord, TicketedItems>();

function ticketedItems(order: OrderRecord): TicketedItems {
  let known = ticketed.get(order);
  if (known === undefined) {
    const byProduct = new Map<number, ItemRecord[]>();
    for (const item of order.items) {
      const same = byProduct.get(item.productId);
      if (same === undefined) byProduct.set(item.productId, [item]);
      else same.push(item);
    }
    known = { byProduct, applied: new Map() };
    ticketed.set(order, known);
  }
  return known;
}

/**
 * Applies a job ticket in `comments` to a PIPO order's items; true when an item changed (its totals are
 * then charged again).
 */
export function applyTicketQuantities(
  state: SandboxState,
  order: OrderRecord,
  comments: string | undefined,
  taxExempt: boolean,
): boolean {
  if (order.charges === null || comments === undefined) return false;
  const { byProduct, applied } = ticketedItems(order);
  let changed = false;
  for (const [productId, quantity] of ticketQuantities(comments)) {
    const template = templateOf(state, productId);
    const items = byProduct.get(productId);
    if (template === undefined || items === undefined || applied.get(productId) === quantity) continue;
    applied.set(productId, quantity);
    const price = tierPrice(template.priceTiers, quantity);
    if (price === undefined) continue;
    for (const item of items) {
      if (item.quantity === quantity && item.basePrice === roundMoney(quantity * price)) continue;
      item.quantity = quantity;
      item.basePrice = roundMoney(quantity * price);
      item.weight = roundMoney(quantity * template.weight);
      changed = true;
    }
  }
  if (changed) chargeOrder(order, taxExempt);
  return changed;
}
