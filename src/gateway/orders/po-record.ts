/**
 * What a stored purchase order holds in its `document` field: the OrderRequest as parsed (no secrets), and
 * the lines resolved against the punch-out cart at intake — design, owner and what the cart said — so the
 * processing job never depends on cart lines that a later edit punch-out may change. Print orders are made
 * per design owner; the groups are derived here, in one deterministic order, so `printOrderIds[i]` is
 * always the print order of group `i`.
 */
import * as z from 'zod';
import {
  addressSchema,
  credentialSchema,
  cxmlHeaderSchema,
  distributionSchema,
  extrinsicListSchema,
  type OrderRequest,
  orderItemSchema,
  orderRequestSchema,
  priceBasisQuantitySchema,
  timestampValueSchema,
} from '../../cxml/index.ts';
import type { Store } from '../../store/port.ts';
import type { JsonValue, PurchaseOrder } from '../../store/types.ts';
import { GatewayError } from '../http/errors.ts';
import { letOthersRun, SLICED_LINES } from './slices.ts';

const optional = <T extends z.ZodType>(schema: T) => schema.exactOptional();

/**
 * Documents stored before the codec's values were plain data hold two things differently: an extrinsic
 * list as `{ list: [...] }` and a timestamp's instant as `date`. Both are read as today's shape here (and
 * the float copies they also held, `amount` and `quantityNumber`, are not in the schema and so are dropped),
 * so a PO accepted by an older punchgate is processed, confirmed and invoiced like any other.
 */
function upgradedExtrinsics(stored: unknown): unknown {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored) || !('list' in stored)) {
    return stored;
  }
  return stored.list;
}
function upgradedTimestamp(stored: unknown): unknown {
  if (typeof stored !== 'object' || stored === null || !('date' in stored) || 'instant' in stored) {
    return stored;
  }
  const { date, ...rest } = stored;
  return { ...rest, instant: date };
}
const storedExtrinsicsSchema = z.preprocess(upgradedExtrinsics, extrinsicListSchema);
const storedTimestampSchema = z.preprocess(upgradedTimestamp, timestampValueSchema);

const itemSchema = orderItemSchema.extend({
  requestedDeliveryDate: optional(storedTimestampSchema),
  extrinsics: storedExtrinsicsSchema,
});

/**
 * The parsed OrderRequest as stored: the codec's own schema without the raw text (it has its own field)
 * and without the header credentials' SharedSecret values.
 */
const storedRequestSchema = orderRequestSchema.omit({ raw: true }).extend({
  header: cxmlHeaderSchema.extend({
    from: z.array(credentialSchema.omit({ sharedSecret: true })),
    to: z.array(credentialSchema.omit({ sharedSecret: true })),
    sender: cxmlHeaderSchema.shape.sender.extend({
      credentials: z.array(credentialSchema.omit({ sharedSecret: true })),
    }),
  }),
  timestamp: storedTimestampSchema,
  orderDate: optional(storedTimestampSchema),
  requestedDeliveryDate: optional(storedTimestampSchema),
  extrinsics: storedExtrinsicsSchema,
  items: z.array(itemSchema),
});
export type StoredRequest = z.infer<typeof storedRequestSchema>;

export const poLineSchema = z.object({
  lineNumber: z.number(),
  /** The punch-out cart line it orders (SupplierPartAuxiliaryID); absent for a product ordered by its part id alone. */
  lineRef: optional(z.string()),
  supplierPartID: z.string(),
  description: z.string(),
  /** The quantity exactly as the buyer sent it. */
  quantity: z.string(),
  unitOfMeasure: z.string(),
  unitPrice: z.object({ value: z.string(), currency: z.string() }),
  /** What the unit price is for (ItemDetail/PriceBasisQuantity), as sent; absent: one ordered unit. */
  priceBasis: optional(priceBasisQuantitySchema),
  requestedDeliveryDate: optional(z.string()),
  shipTo: optional(addressSchema),
  comments: z.string(),
  /**
   * The line's accounting (cost centre, GL account, … with the amount charged to each), kept for the job
   * ticket and the invoice; absent when the buyer sent none.
   */
  distribution: optional(z.array(distributionSchema)),
  /** The line's own Extrinsics (ItemDetail), as sent; absent when it has none. */
  extrinsics: optional(extrinsicListSchema),
  storefrontId: z.string(),
  /** The design owner's user mapping key: whose login places the print order. */
  userRef: z.string(),
  /**
   * The print-service product id the print order is created with: the saved design (PIPO project), or for
   * a product ordered as it is (`asIs`), the product's `printProductId`.
   */
  designId: z.number(),
  /** The line orders a catalog product as it is, without a design. */
  asIs: optional(z.literal(true)),
  /** What the punch-out cart said of the line; absent when the PO names no cart line. */
  cart: optional(
    z.object({
      sku: z.string(),
      quantity: z.number(),
      unitPrice: z.string(),
      /** How many units the cart's unit price was for; absent: 1. */
      priceUnit: optional(z.number()),
      currency: z.string(),
      state: z.string(),
      poId: optional(z.string()),
    }),
  ),
});
/** One PO line with its cart line: the buyer's values first, then ours. */
export type PoLine = z.infer<typeof poLineSchema>;

export const mismatchSchema = z.object({
  lineNumber: z.number(),
  lineRef: z.string(),
  field: z.enum(['quantity', 'price', 'sku', 'already_ordered']),
  po: z.string(),
  cart: z.string(),
});
/** A difference between the PO and the punch-out cart, shown to operators and in the print order history. */
export type Mismatch = z.infer<typeof mismatchSchema>;
export type MismatchField = Mismatch['field'];

export const rejectedLineSchema = z.object({
  lineNumber: z.number(),
  supplierPartID: z.string(),
  /** Why the gateway cannot produce it, as the buyer reads it in the line's `reject` status. */
  reason: z.string(),
});
/** A PO line the gateway cannot produce, which the buyer's `unknownLines` let the rest of the PO go ahead without. */
export type RejectedLine = z.infer<typeof rejectedLineSchema>;

/**
 * The shape of the documents this punchgate's intake writes, said in each of them. Intake builds the
 * document from values it has just checked (the codec's, the cart's), so one that says this shape is read
 * back as it is: checking it again cost the order job ≈ 40 µs a line, 200 ms for a 5,000-line PO. One
 * without it (an older punchgate's) or with another (a newer one's) is checked like data from the wire.
 */
const DOCUMENT_SHAPE = 2;

const poDocumentSchema = z.object({
  /** Which punchgate wrote it: see DOCUMENT_SHAPE. Absent in documents older than the mark. */
  shape: optional(z.literal(DOCUMENT_SHAPE)),
  /** The parsed OrderRequest without its header credentials' secrets or the raw text. */
  request: storedRequestSchema,
  lines: z.array(poLineSchema),
  mismatches: z.array(mismatchSchema),
  /** Lines left out of the print orders; absent when there are none. */
  rejectedLines: optional(z.array(rejectedLineSchema)),
});
export type PoDocument = z.infer<typeof poDocumentSchema>;

/** The catalog SKU of the product a line orders: its cart line's, or the PO's part id for a line without one. */
export function lineSku(line: PoLine): string {
  return line.cart?.sku ?? line.supplierPartID.trim();
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
  /** The PO has lines the gateway cannot produce and the buyer's `unknownLines` is `hold`. */
  unproducibleLines: 'unproducible_lines',
  changedByBuyer: 'changed_by_buyer',
  unknownOrder: 'unknown_order',
  noCancelStatus: 'no_cancel_status',
  printOrderDeleted: 'print_order_deleted',
  cancelledBySupplier: 'cancelled_by_supplier',
  uncertainPrintOrder: 'uncertain_print_order',
  /** A print order exists but a later step failed for good: confirmed as it is, the rest is an operator's. */
  placedIncomplete: 'placed_incomplete',
  noOrderStatusUrl: 'no_order_status_url',
  /** The PO's job died with its worker on the last attempt and was given one more run to settle it. */
  resumedAfterCrash: 'resumed_after_crash',
  /** A print order's figures need an operator before it can be invoiced (the PO's lastError says why). */
  invoiceHeld: 'invoice_held',
  /** Invoiced at the PO's prices while the print order's differ within the buyer's tolerance. */
  invoicePriceDeviation: 'invoice_price_deviation',
  /** `invoiceIds: print-service` and the print order has no invoice_number yet: the invoice waits. */
  invoiceNumberMissing: 'invoice_number_missing',
  /**
   * An operator marked the PO handled while one of its invoices waited: its invoicing was settled by hand,
   * and the gateway no longer invoices it on its own (an operator's "invoice now" still does).
   */
  invoicesSettledByOperator: 'invoices_settled_by_operator',
  /** A document to the buyer was given up after its last attempt (a dead letter): an operator sends it again. */
  documentDead: 'document_dead',
  /** A test PO of a buyer without a test storefront: stored and confirmed, never sent to a print service. */
  testNotSent: 'test_not_sent',
  /**
   * A PO whose recorded storefront it may not go to (a test PO's test storefront gone or now a production
   * one, lines designed elsewhere): it waits for an operator rather than go anywhere else.
   */
  storefrontNotAllowed: 'storefront_not_allowed',
  /**
   * The buyer's OCInstruction allows no confirmation and one that had something to say (a rejection, a
   * deviation from the cart) was not sent: the PO's lastError says what it would have said.
   */
  confirmationWithheld: 'confirmation_withheld',
  /** A line has no usable ship-to address, its own nor the order's (see ship-to.ts). */
  shipToMissing: 'ship_to_missing',
  /** An operator retried a PO held for its ship-to address: it is placed without one. */
  shipToReleased: 'ship_to_released_by_operator',
  /** The buyer rejected one of the PO's invoices (InvoiceStatus `rejected`; the PO's lastError quotes it). */
  invoiceRejected: 'invoice_rejected',
  /**
   * The buyer cancelled (OrderRequest delete) an order already shipped or invoiced: nothing is cancelled
   * or credited until an operator decides (the original and the cancellation both carry it).
   */
  cancelAfterShip: 'cancel_after_ship',
} as const;

export const MISMATCH_FLAGS: Record<MismatchField, string> = {
  quantity: FLAG.quantityMismatch,
  price: FLAG.priceMismatch,
  sku: FLAG.skuMismatch,
  already_ordered: FLAG.lineAlreadyOrdered,
};

/**
 * A quantity or price of the PO that is not the cart's: what a buyer's `poDeviations` governs (confirm the
 * PO's terms, refuse the PO, or accept and flag). A SKU or an already-ordered line is only ever flagged.
 */
export function isDeviation(mismatch: Mismatch): boolean {
  return mismatch.field === 'quantity' || mismatch.field === 'price';
}

/** The parsed OrderRequest as stored: secrets and the raw text left out (the raw text has its own field). */
export function requestForStorage({ raw: _raw, header, ...request }: OrderRequest): StoredRequest {
  const strip = (credentials: OrderRequest['header']['from']) =>
    credentials.map(({ sharedSecret: _secret, ...credential }) => credential);
  return {
    ...request,
    header: {
      from: strip(header.from),
      to: strip(header.to),
      sender: { credentials: strip(header.sender.credentials), userAgent: header.sender.userAgent },
    },
  };
}

/**
 * The document as the store's `document` field takes it: plain data already (the codec's values are), so it
 * is handed over as it is, without a JSON round trip; every store keeps it as JSON.
 */
export function storableDocument(document: PoDocument): JsonValue {
  return { ...document, shape: DOCUMENT_SHAPE };
}

/** A document this punchgate's intake wrote (see DOCUMENT_SHAPE), in the few fields that say so. */
function writtenByIntake(document: JsonValue): document is PoDocument {
  return (
    typeof document === 'object' &&
    document !== null &&
    !Array.isArray(document) &&
    document.shape === DOCUMENT_SHAPE &&
    Array.isArray(document.lines) &&
    Array.isArray(document.mismatches) &&
    typeof document.request === 'object' &&
    document.request !== null &&
    !Array.isArray(document.request) &&
    Array.isArray(document.request.items)
  );
}

/**
 * Each record's document parsed once: the check below walks every line, which for a 5,000-line PO costs
 * tens of ms, and the order job asks for the same record's document from several steps (groups, job
 * ticket, confirmation). Keyed by the record object, so a record read again from the store (a new object)
 * is parsed again, and by the stored value too, so a record whose `document` was replaced is not served
 * the old parse. Callers treat the parsed document as read-only; nothing writes into it.
 */
const parsedDocuments = new WeakMap<PurchaseOrder, { source: JsonValue; parsed: PoDocument }>();

/**
 * The PO's document: as stored when this punchgate's intake wrote it (DOCUMENT_SHAPE), else checked like
 * data from the wire: a record that does not hold what an intake wrote (written by a punchgate this one
 * does not understand) is a bug to report, not to guess at.
 */
export function poDocument(order: PurchaseOrder): PoDocument {
  if (writtenByIntake(order.document)) return order.document;
  const known = parsedDocuments.get(order);
  if (known !== undefined && known.source === order.document) return known.parsed;
  const read = poDocumentSchema.safeParse(order.document);
  if (read.success) {
    parsedDocuments.set(order, { source: order.document, parsed: read.data });
    return read.data;
  }
  const where = read.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(document)'}: ${issue.message}`);
  throw new GatewayError(
    'internal',
    `PO record ${order.id} (orderID ${order.orderId}) has a stored document this punchgate cannot read: ${where.join('; ')}`,
    { cause: read.error },
  );
}

/**
 * `poDocument` for the order job, in slices: checking a 5,000-line PO's document at once takes ≈ 200 ms,
 * all of it holding the event loop. Its items and lines are checked SLICED_LINES at a time, the event loop
 * let run between; what comes out is what `poDocument` gives (and its later calls are served from the
 * same cache). A document that does not check out is checked again whole, so the error names its paths
 * as `poDocument`'s does.
 */
export async function readPoDocument(order: PurchaseOrder): Promise<PoDocument> {
  if (writtenByIntake(order.document)) return order.document;
  const known = parsedDocuments.get(order);
  if (known !== undefined && known.source === order.document) return known.parsed;
  // A PO has a line per item at most: the items tell whether slicing is worth it (`lines` is read only then).
  const stored = order.document as { request?: { items?: unknown }; lines?: unknown };
  const items = stored?.request?.items;
  if (!Array.isArray(items) || items.length < SLICED_LINES) return poDocument(order);
  const lines = stored.lines;
  if (!Array.isArray(lines)) return poDocument(order);
  const checked = async <T>(all: unknown[], schema: z.ZodType<T>): Promise<T[] | undefined> => {
    const out: T[] = [];
    for (let from = 0; from < all.length; from += SLICED_LINES) {
      await letOthersRun(all.length);
      const read = z.array(schema).safeParse(all.slice(from, from + SLICED_LINES));
      if (!read.success) return undefined;
      out.push(...read.data);
    }
    return out;
  };
  const head = poDocumentSchema.safeParse({
    ...stored,
    request: { ...stored.request, items: [] },
    lines: [],
  });
  const readItems = head.success ? await checked(items, itemSchema) : undefined;
  const readLines = readItems === undefined ? undefined : await checked(lines, poLineSchema);
  if (!head.success || readItems === undefined || readLines === undefined) return poDocument(order);
  const parsed: PoDocument = {
    ...head.data,
    request: { ...head.data.request, items: readItems },
    lines: readLines,
  };
  parsedDocuments.set(order, { source: order.document, parsed });
  return parsed;
}

export function storedRequest(order: PurchaseOrder): StoredRequest {
  return poDocument(order).request;
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

/**
 * The `new` purchase order an update or delete refers to: through the DocumentReference chain (new ←
 * update ← delete) first, then by the buyer's orderID.
 */
export async function findOriginalOrder(
  store: Store,
  change: PurchaseOrder,
): Promise<PurchaseOrder | undefined> {
  const { buyerId, orderId, deploymentMode } = change;
  // A test change never touches a production order, nor a production change a test one: an order of the
  // other mode is not this change's original.
  const sameMode = (found: PurchaseOrder | undefined) =>
    found?.deploymentMode === deploymentMode ? found : undefined;
  let payloadId = storedRequest(change).previousPayloadID;
  for (let hop = 0; payloadId !== undefined && hop < 20; hop++) {
    const found = sameMode(await store.orders.getByPayloadId(buyerId, payloadId));
    if (found === undefined) break;
    if (found.type === 'new') return found;
    payloadId = storedRequest(found).previousPayloadID;
  }
  return sameMode(await store.orders.getByOrderId(buyerId, orderId));
}

/** A new list of `existing` and those of `added` it lacks, so no flag is repeated. */
export function withFlags(existing: readonly string[], added: readonly string[]): string[] {
  return [...existing, ...added.filter((flag) => !existing.includes(flag))];
}
