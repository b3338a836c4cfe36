/**
 * What a stored purchase order holds in its `document` field: the OrderRequest as parsed (no secrets), and
 * the lines resolved against the punch-out cart at intake — design, owner and what the cart said — so the
 * processing job never depends on cart lines that a later edit punch-out may change. Print orders are made
 * per design owner; the groups are derived here, in one deterministic order, so `printOrderIds[i]` is
 * always the print order of group `i`.
 */
import type { Address, Money, OrderRequest } from '../../cxml/index.ts';
import type { Store } from '../../store/port.ts';
import type { JsonObject, JsonValue, PurchaseOrder } from '../../store/types.ts';

/** One PO line with its cart line: the buyer's values first, then ours. */
export interface PoLine {
  lineNumber: number;
  lineRef: string;
  supplierPartID: string;
  description: string;
  /** The quantity exactly as the buyer sent it. */
  quantity: string;
  unitOfMeasure: string;
  unitPrice: { value: string; currency: string };
  requestedDeliveryDate?: string;
  shipTo?: Address;
  comments: string;
  storefrontId: string;
  /** The design owner's user mapping key: whose login places the print order. */
  userRef: string;
  designId: number;
  cart: { sku: string; quantity: number; unitPrice: string; currency: string; state: string; poId?: string };
}

export type MismatchField = 'quantity' | 'price' | 'sku' | 'already_ordered';

/** A difference between the PO and the punch-out cart, shown to operators and in the print order history. */
export interface Mismatch {
  lineNumber: number;
  lineRef: string;
  field: MismatchField;
  po: string;
  cart: string;
}

export interface PoDocument {
  /** The parsed OrderRequest without its header credentials' secrets or the raw text. */
  request: JsonObject;
  lines: PoLine[];
  mismatches: Mismatch[];
}

/** The lines of one print order: one design owner in one storefront. */
export interface OwnerGroup {
  index: number;
  storefrontId: string;
  userRef: string;
  lines: PoLine[];
}

export const FLAG = {
  quantityMismatch: 'quantity_mismatch',
  priceMismatch: 'price_mismatch',
  skuMismatch: 'sku_mismatch',
  lineAlreadyOrdered: 'line_already_ordered',
  updateNeedsOperator: 'update_needs_operator',
  changedByBuyer: 'changed_by_buyer',
  unknownOrder: 'unknown_order',
  noCancelStatus: 'no_cancel_status',
  printOrderDeleted: 'print_order_deleted',
  cancelledBySupplier: 'cancelled_by_supplier',
  uncertainPrintOrder: 'uncertain_print_order',
  noOrderStatusUrl: 'no_order_status_url',
  /** The PO's job died with its worker on the last attempt and was given one more run to settle it. */
  resumedAfterCrash: 'resumed_after_crash',
} as const;

export const MISMATCH_FLAGS: Record<MismatchField, string> = {
  quantity: FLAG.quantityMismatch,
  price: FLAG.priceMismatch,
  sku: FLAG.skuMismatch,
  already_ordered: FLAG.lineAlreadyOrdered,
};

/**
 * Marks that the print order of group `index` is being created. It stays only if the gateway could not
 * tell whether the print service made the order (a timeout, a crash), so the next attempt searches for it
 * (`find-print-order.ts`) instead of possibly ordering twice.
 */
export function creatingFlag(index: number): string {
  return `creating:${index}`;
}

export function isCreatingFlag(flag: string): boolean {
  return flag.startsWith('creating:');
}

/** Plain JSON of a parsed value (Dates become strings, functions vanish), as the store keeps it. */
export function toJson<T>(value: T): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** The parsed OrderRequest as stored: secrets and the raw text left out (the raw text has its own field). */
export function requestForStorage(request: OrderRequest): JsonObject {
  const { raw: _raw, header, ...rest } = request;
  const strip = (credentials: OrderRequest['header']['from']) =>
    credentials.map(({ sharedSecret: _secret, ...credential }) => credential);
  return toJson({
    ...rest,
    header: {
      from: strip(header.from),
      to: strip(header.to),
      sender: { credentials: strip(header.sender.credentials), userAgent: header.sender.userAgent },
    },
  }) as JsonObject;
}

/** The document as received, with SharedSecret values blanked: a stored PO must not keep the buyer's secret. */
export function redactSecrets(raw: string): string {
  return raw.replace(/(<SharedSecret\b[^>]*>)[\s\S]*?(<\/SharedSecret\s*>)/gi, '$1[redacted]$2');
}

export function poDocument(order: PurchaseOrder): PoDocument {
  const document = order.document as unknown as Partial<PoDocument> | null;
  return {
    request: (document?.request ?? {}) as JsonObject,
    lines: document?.lines ?? [],
    mismatches: document?.mismatches ?? [],
  };
}

/** A value of the stored request, typed as the codec typed it (after the JSON round trip). */
export interface StoredRequest {
  orderID: string;
  type: OrderRequest['type'];
  orderDate?: { raw: string };
  orderVersion?: string;
  previousPayloadID?: string;
  total: Money;
  shipTo?: Address;
  billTo?: Address;
  shipping?: Money & { description: string };
  tax?: Money & { description: string };
  contacts: { role?: string; name: string; emails: string[]; phone?: string }[];
  comments: string;
  extrinsics: { list: { name: string; value: string }[] };
  requestedDeliveryDate?: { raw: string };
}

export function storedRequest(order: PurchaseOrder): StoredRequest {
  return poDocument(order).request as unknown as StoredRequest;
}

/** Lines grouped by design owner, groups in the order their first line appears on the PO. */
export function ownerGroups(lines: readonly PoLine[]): OwnerGroup[] {
  const groups = new Map<string, OwnerGroup>();
  for (const line of lines) {
    const key = `${line.storefrontId}\u0000${line.userRef}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { index: groups.size, storefrontId: line.storefrontId, userRef: line.userRef, lines: [] };
      groups.set(key, group);
    }
    group.lines.push(line);
  }
  return [...groups.values()];
}

/** The group a print order was made for, by its place in `printOrderIds`. */
export function groupOfPrintOrder(order: PurchaseOrder, printOrderId: number): OwnerGroup | undefined {
  const index = order.printOrderIds.indexOf(printOrderId);
  if (index === -1) return undefined;
  return ownerGroups(poDocument(order).lines)[index];
}

/** How far back the fallback search for an order's earlier documents looks (pages of 500). */
const MAX_SCAN_PAGES = 10;

/**
 * The `new` purchase order an update or delete refers to: through the DocumentReference chain (new ←
 * update ← delete) first, then by the buyer's orderID among their recent orders.
 */
export async function findOriginalOrder(
  store: Store,
  buyerId: string,
  orderId: string,
  previousPayloadID: string | undefined,
): Promise<PurchaseOrder | undefined> {
  let payloadId = previousPayloadID;
  for (let hop = 0; payloadId !== undefined && hop < 20; hop++) {
    const found = await store.orders.getByPayloadId(buyerId, payloadId);
    if (found === undefined) break;
    if (found.type === 'new') return found;
    payloadId = storedRequest(found).previousPayloadID;
  }
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SCAN_PAGES; page++) {
    const result = await store.orders.list({ buyerId, limit: 500, ...(cursor !== undefined && { cursor }) });
    const match = result.items.find((o) => o.orderId === orderId && o.type === 'new');
    if (match !== undefined) return match;
    if (result.nextCursor === undefined) return undefined;
    cursor = result.nextCursor;
  }
  return undefined;
}

/** Adds flags without repeating any; answers the new list, or undefined if nothing changes. */
export function withFlags(existing: readonly string[], added: readonly string[]): string[] | undefined {
  const missing = added.filter((flag) => !existing.includes(flag));
  return missing.length === 0 ? undefined : [...existing, ...missing];
}
