/**
 * The records the gateway keeps. `New*` types are what a caller hands in; the full types add what the
 * store stamps (ids, state defaults, attempts, `createdAt`/`updatedAt` from the store's clock).
 *
 * Optional fields are absent, never `undefined`, on records the store returns. Ids the store assigns are
 * strings of decimal digits (increasing in insertion order); ids the caller chooses (session id, line
 * reference, one-time token id) are opaque. JSON fields hold plain JSON: a `Date` put into one comes back
 * as a string, exactly as it would from a TEXT column.
 */

import type { BuyerProtocol } from '../../schemas/config.ts';
import type { InvoiceStatusType, ReportedStatus } from '../cxml/request-types.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * Plain JSON of a parsed value as the store keeps it (Dates become strings, undefined and functions vanish):
 * the one place a value becomes a `JsonValue`, typed as the JSON shape the caller knows it has.
 */
export function toJson<T extends JsonValue = JsonValue>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** One page of a listing, newest first; pass `nextCursor` back as `cursor` for the next page. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Listing window shared by every `list`. `limit` defaults to 50 and is capped at 500. */
interface PageRequest {
  limit?: number;
  cursor?: string;
}

/**
 * cXML's deploymentMode, kept on what a document in that mode makes (its session, the session's cart lines,
 * the PO): a test document may only act on test records and a production one on production records.
 */
export const DEPLOYMENT_MODES = ['production', 'test'] as const;
export type DeploymentMode = (typeof DEPLOYMENT_MODES)[number];

// ---------------------------------------------------------------------------------------------------------
// Punch-out sessions (hours)

/** The protocol a session's buyer punched out with: one a buyer can be configured with. */
export type Protocol = BuyerProtocol;
export const SESSION_OPERATIONS = ['create', 'edit', 'inspect'] as const;
export type SessionOperation = (typeof SESSION_OPERATIONS)[number];
export const SESSION_STATES = ['open', 'transferred', 'cancelled'] as const;
type SessionState = (typeof SESSION_STATES)[number];

/** A PIPO session token kept with the punch-out session so every editor hop needs no new login. */
export interface PipoToken {
  /** The gateway keeps it encrypted (`PipoAccounts.sealed`); the store holds it as given. */
  token: string;
  obtainedAt: Date;
}

export interface NewPunchoutSession {
  /** Opaque random id chosen by the gateway; it travels inside signed URL tokens. */
  id: string;
  buyerId: string;
  /** The storefront's id in the gateway config. */
  storefrontId: string;
  protocol: Protocol;
  operation: SessionOperation;
  /** The setup request's mode; its cart lines and cart take it on. Defaults to `production`. */
  deploymentMode?: DeploymentMode;
  /** cXML BuyerCookie, echoed in the PunchOutOrderMessage. */
  buyerCookie?: string;
  /** BrowserFormPost URL or OCI HOOK_URL, checked against the buyer's allow-list at punch-in. */
  returnUrl: string;
  /** OCI `returntarget` / form target the cart is posted into. */
  returnTarget?: string;
  /** OCI fields echoed back on transfer (`~OkCode`, `~TARGET`, `~CALLER`, ...), by field name. */
  ociEcho?: Record<string, string>;
  /** Stable id of the buyer's end user (UserEmail, Contact, OCI username, ...). */
  buyerUserKey: string;
  /** `userKey` of the {@link UserMapping} (same buyer) whose PIPO account this session uses. */
  pipoUserRef: string;
  extrinsics?: JsonObject;
  contact?: JsonObject;
  shipTo?: JsonObject;
  /** The session is gone once the clock reaches this instant. */
  expiresAt: Date;
  pipoToken?: PipoToken;
  /**
   * The language of the session's pages and cart texts (an ISO 639-1 code), once the punch-in or the
   * first page has told it; absent on sessions opened before languages were kept.
   */
  language?: string;
}

export interface PunchoutSession extends NewPunchoutSession {
  deploymentMode: DeploymentMode;
  state: SessionState;
  /** Starts at 1, +1 on every update; pass it as `ifVersion` for a compare-and-set update. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface SessionPatch {
  state?: SessionState;
  expiresAt?: Date;
  pipoToken?: PipoToken;
  pipoUserRef?: string;
  /** Replaces the whole object (an edit's kept lines live in it: src/gateway/punchout/kept-lines.ts). */
  extrinsics?: JsonObject;
  language?: string;
}

// ---------------------------------------------------------------------------------------------------------
// User mapping (forever)

export interface NewUserMapping {
  buyerId: string;
  /** The buyer's user key for a mapped user; any unique key (e.g. per session) for a temporary user. */
  userKey: string;
  storefrontId: string;
  pipoUserId: number;
  username: string;
  email: string;
  /** Encrypted by the gateway; the store never sees the plaintext. */
  passwordEnc: string;
  isTemp: boolean;
}

export interface UserMapping extends NewUserMapping {
  createdAt: Date;
  updatedAt: Date;
}

// ---------------------------------------------------------------------------------------------------------
// Cart lines (until the PO arrives)

export const CART_LINE_STATES = ['cart', 'removed', 'ordered'] as const;
type CartLineState = (typeof CART_LINE_STATES)[number];

export interface NewCartLine {
  /** Short, stable, ASCII, unique (e.g. `L-7K2M9Q`): becomes SupplierPartAuxiliaryID / EXT_PRODUCT_ID. */
  lineRef: string;
  sessionId: string;
  buyerId: string;
  storefrontId: string;
  /** `userKey` of the owning {@link UserMapping}: whose PIPO login places the order. */
  userRef: string;
  /** PIPO project id of the saved design. */
  designId: number;
  /** Template (product) id. */
  productId: number;
  sku: string;
  name: string;
  quantity: number;
  /** Decimal as text, so no binary rounding creeps into prices: the price of `priceUnit` units. */
  unitPrice: string;
  /** How many units `unitPrice` is for (the product's `priceUnit` when priced); absent means 1. */
  priceUnit?: number;
  currency: string;
  uom: string;
  unspsc?: string;
  leadTimeDays?: number;
  /** The mode of the punch-out session that made the line. Defaults to `production`. */
  deploymentMode?: DeploymentMode;
}

export interface CartLine extends NewCartLine {
  deploymentMode: DeploymentMode;
  /** Sort key within the session; `add` appends after the session's last line. */
  position: number;
  state: CartLineState;
  /** The purchase order that ordered this line (the latest one, if ordered again). */
  poId?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** `sessionId` moves a line into another session (an edit punch-out re-opening a requisition). */
export interface CartLinePatch {
  sessionId?: string;
  designId?: number;
  name?: string;
  quantity?: number;
  unitPrice?: string;
  priceUnit?: number;
  currency?: string;
  position?: number;
  state?: 'cart' | 'removed';
}

// ---------------------------------------------------------------------------------------------------------
// Purchase orders (forever)

export const ORDER_TYPES = ['new', 'update', 'delete'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export const ORDER_STATES = [
  'received',
  'processing',
  'ordered',
  'failed',
  'cancelled',
  'needs_operator',
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** The cXML Status given to the buyer, kept so a retried document gets the very same answer. */
export interface CxmlAnswer {
  code: number;
  text: string;
}

export interface NewPurchaseOrder {
  buyerId: string;
  payloadId: string;
  /** The buyer's PO number (cXML `orderID`). */
  orderId: string;
  type: OrderType;
  /**
   * The document's cXML `orderVersion`, if any. Two updates of one order with different versions are two
   * changes; see `orderRevisionKey` for how each type is deduped.
   */
  orderVersion?: string;
  /** Defaults to `received`. */
  state?: OrderState;
  /** The document exactly as received. */
  raw: string;
  /** The parsed document. */
  document: JsonValue;
  answer: CxmlAnswer;
  flags?: string[];
  /** The document's deploymentMode. Defaults to `production`. */
  deploymentMode?: DeploymentMode;
  /**
   * The storefront (config id) the PO's print orders go to, fixed at intake; absent for a test PO that has
   * no test storefront, which never reaches a print service.
   */
  storefrontId?: string;
}

/**
 * A purchase order's whole intake, stored in one transaction by `orders.acceptWithLines`: the order, the
 * cart lines it orders and its processing job, whose key and payload name the id the store gives the order.
 */
export interface NewOrderIntake {
  order: NewPurchaseOrder;
  /** Cart lines marked `ordered` by the order (state and `poId`), whatever their state; unknown ones skipped. */
  lineRefs: readonly string[];
  /** Queued under key `keyPrefix` + the order's id, payload `{ poId: <the order's id> }`. */
  job: { kind: string; keyPrefix: string; runAt: Date; maxAttempts?: number };
  /** Files that came with the order, stored with it (a copy of a stored order adds none). */
  attachments?: readonly NewAttachment[];
}

/**
 * A file that came with a purchase order (a part of its `multipart/related` message), as intake hands it
 * to the store: kept with the order, for ever, like the order itself.
 */
export interface NewAttachment {
  /** Its place in the buyer's message, from 1 (the cXML part counts): unique within the order. */
  position: number;
  /** The Content-ID a `cid:` URL names it by, without angle brackets. */
  contentId?: string;
  filename?: string;
  /** The media type the buyer's part declared, as declared; never trusted to serve it by. */
  contentType: string;
  content: Uint8Array;
}

/** A stored attachment as listed: what it is, without its bytes. */
export interface AttachmentInfo {
  poId: string;
  position: number;
  contentId?: string;
  filename?: string;
  contentType: string;
  /** Decoded bytes. */
  size: number;
}

/** A stored attachment with its bytes, as a download hands them out. */
export interface AttachmentFile extends AttachmentInfo {
  content: Uint8Array<ArrayBuffer>;
}

/** A created intake is answered by the order's id alone (its caller holds the rest), a copy by the stored order. */
export type OrderIntakeResult = { created: true; id: string } | { created: false; order: PurchaseOrder };

export interface PurchaseOrder {
  id: string;
  buyerId: string;
  payloadId: string;
  orderId: string;
  type: OrderType;
  orderVersion?: string;
  state: OrderState;
  raw: string;
  document: JsonValue;
  answer: CxmlAnswer;
  deploymentMode: DeploymentMode;
  /** See {@link NewPurchaseOrder.storefrontId}; absent also on POs stored before it was recorded. */
  storefrontId?: string;
  printOrderIds: number[];
  /** Findings an operator should see, e.g. `quantity_mismatch`, `price_mismatch`. */
  flags: string[];
  /** Print-order creates of this PO whose outcome may be unknown, at most one per owner group. */
  createAttempts: CreateAttempt[];
  lastError?: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A create of one owner group's print order, recorded before the call goes out and dropped once its outcome
 * is known. One left behind (a timeout, a crash) makes the next attempt search for the order the call may
 * have made instead of possibly ordering twice, going on from where earlier searches stopped.
 */
export interface CreateAttempt {
  /** The owner group whose print order was being created. */
  index: number;
  /**
   * An order id known to exist before the create was sent, moved up by the searches past orders that were
   * not ours: every id up to it has been ruled out. Absent when no such id was known.
   */
  after?: number;
  /** Searches so far that ended inconclusive. */
  searches: number;
}

/** A purchase order waiting for an operator, as `orders.listWaiting` lists it: its facts, not its documents. */
export type WaitingOrder = Pick<
  PurchaseOrder,
  'id' | 'buyerId' | 'orderId' | 'flags' | 'lastError' | 'updatedAt'
>;

export interface PurchaseOrderPatch {
  state?: OrderState;
  printOrderIds?: number[];
  flags?: string[];
  createAttempts?: CreateAttempt[];
  lastError?: string;
}

/**
 * Writes that belong to one step of a purchase order's job, made in one transaction (`orders.commit`): the
 * print orders it now tracks, patches of the order, the documents it queues for the buyer, and the job
 * it finishes. All of them take effect or none; each keeps the meaning of the method it stands for.
 */
export interface OrderCommit {
  /** Tracked unless tracked already (as `printOrders.add`), then `set` applied (as `printOrders.update`). */
  printOrders?: readonly (NewTrackedPrintOrder & { set?: TrackedPrintOrderPatch })[];
  /**
   * Applied in order, each as `orders.patch` (only while the order is in one of `ifState`, when given); one
   * whose condition fails is skipped, not an error: `patched` says which applied.
   */
  patches?: readonly { id: string; patch: PurchaseOrderPatch; ifState?: readonly OrderState[] }[];
  /** Queued unless their dedupe key was ever queued (as `outbox.enqueue`). */
  messages?: readonly NewOutboxMessage[];
  /** The job these writes finish: completed as `jobs.complete` does, only while the claim is current. */
  completes?: Claim;
}

export interface OrderCommitResult {
  /** Per entry of `patches`: whether it applied (the order exists and its state met the condition). */
  patched: boolean[];
  /** Per entry of `messages`: whether it was queued now (false: its dedupe key was queued before). */
  queued: boolean[];
  /** Whether `completes` completed the job (false without one, or when the claim was no longer current). */
  completed: boolean;
}

export interface OrderFilter extends PageRequest {
  state?: OrderState;
  buyerId?: string;
}

/** Where a refused request arrived: `/cxml` (every cXML document) or `/oci/{buyer}` (a punch-in). */
export const REFUSAL_CHANNELS = ['cxml', 'oci'] as const;
export type RefusalChannel = (typeof REFUSAL_CHANNELS)[number];

/**
 * A buyer document or punch-in the gateway refused, as the refusals log keeps it: who claimed to send it
 * from where, what it was answered, and the document as received. The document comes to the store with
 * every secret already blanked and cut to the log's bound (`gateway/refusals/`); the store never sees one.
 */
export interface NewRefusal {
  /** The configured buyer the request claimed to come from; absent when it named none ("unknown"). */
  buyerId?: string;
  channel: RefusalChannel;
  /** A cXML document kind (`PunchOutSetupRequest`), `punch-in`, or what made it unreadable (`too_large`). */
  documentType: string;
  payloadId?: string;
  /** The caller's address (`unknown` when the runtime cannot tell). */
  clientAddress: string;
  /** The cXML Status code (its HTTP answer is always 200), or the HTTP status of an OCI page. */
  status: number;
  /** The answer's text as sent: the cXML Status text and detail, or the error page's heading and message. */
  answer: string;
  /** The document as received, secrets blanked, cut short with a marker past the log's bound. */
  document: string;
  /** How many bytes arrived (the stored document may be shorter). */
  documentBytes: number;
}

export interface Refusal extends NewRefusal {
  id: string;
  createdAt: Date;
}

/** How many entries the log keeps: the newest of each client address, and the newest in all. */
export interface RefusalCaps {
  perAddress: number;
  total: number;
}

export interface RefusalFilter extends PageRequest {
  buyerId?: string;
  /** Entries at or after this instant. */
  from?: Date;
  /** Entries before this instant. */
  to?: Date;
}

/**
 * A time window over records for an export: oldest first, continued after the cursor (the last record's
 * id). `from` and `to` are inclusive; absent, the window is open on that side.
 */
export interface TimeWindow extends PageRequest {
  buyerId?: string;
  from?: Date;
  to?: Date;
}

// ---------------------------------------------------------------------------------------------------------
// Operators' notes on purchase orders (forever, with the PO)

export interface NewOrderNote {
  poId: string;
  text: string;
  /** Who wrote it, as the operator surface names the caller (the console session, the admin API). */
  author: string;
}

export interface OrderNote extends NewOrderNote {
  id: string;
  createdAt: Date;
}

// ---------------------------------------------------------------------------------------------------------
// Reorder items (forever: a buyer's designs ordered through POs, orderable again as they are)

export interface NewReorderItem {
  buyerId: string;
  /** The item's part number, unique per buyer and stable for one design of one product (`reorderPartId`). */
  partId: string;
  storefrontId: string;
  /** `userKey` of the design owner's {@link UserMapping}: whose login places a reorder's print order. */
  userRef: string;
  /** PIPO project id of the saved design. */
  designId: number;
  /** Template (product) id. */
  productId: number;
  sku: string;
  /** The design's name as its cart line had it. */
  name: string;
  /** The editor host's thumbnail of the design: a URL without any session token. */
  thumbnailUrl: string;
  /** The quantity last ordered. */
  quantity: number;
  /** Decimal as text: the unit price last ordered, for `priceUnit` units. */
  unitPrice: string;
  /** How many units `unitPrice` is for; absent means 1. */
  priceUnit?: number;
  currency: string;
  uom: string;
  /** The purchase order that last ordered the design. */
  poId: string;
  /** When that purchase order was received: a later record of an earlier order never replaces it. */
  orderedAt: Date;
}

export interface ReorderItem extends NewReorderItem {
  createdAt: Date;
  updatedAt: Date;
}

// ---------------------------------------------------------------------------------------------------------
// Jobs (durable work queue)

export const JOB_STATES = ['pending', 'running', 'done', 'dead'] as const;
type JobState = (typeof JOB_STATES)[number];

export interface NewJob {
  /** What to do, e.g. `process_order`, `process_event`, `reconcile`. */
  kind: string;
  /** Dedupe key: at most one job per key is pending, running or dead at a time. */
  key: string;
  payload: JsonValue;
  runAt: Date;
  /** Defaults to {@link DEFAULT_MAX_ATTEMPTS}. */
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 10;

export interface Job {
  id: string;
  kind: string;
  key: string;
  payload: JsonValue;
  runAt: Date;
  /** Claims so far; the claim that set it is the one allowed to finish the job. */
  attempts: number;
  maxAttempts: number;
  state: JobState;
  leaseUntil?: Date;
  lastError?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Proof of a claim: the job's id and the attempt number the claim gave it. A `Job` is one. */
export interface Claim {
  id: string;
  attempts: number;
}

export interface JobFilter extends PageRequest {
  state?: JobState;
  kind?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Outbox (messages to buyers)

export const OUTBOX_KINDS = ['confirmation', 'ship_notice', 'status_update', 'invoice'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];
export const OUTBOX_STATES = ['pending', 'sending', 'delivered', 'dead'] as const;
type OutboxState = (typeof OUTBOX_STATES)[number];

export interface NewOutboxMessage {
  buyerId: string;
  poId: string;
  kind: OutboxKind;
  /** Unique forever, e.g. `ship:<printOrderId>:<shipmentIndex>`: the same notice is never queued twice. */
  dedupeKey: string;
  url: string;
  /** The cXML document to post. */
  body: string;
  /** Defaults to now. */
  nextAttemptAt?: Date;
}

export interface OutboxMessage {
  id: string;
  buyerId: string;
  poId: string;
  kind: OutboxKind;
  dedupeKey: string;
  url: string;
  body: string;
  /** Claims so far; fences late answers of an earlier claim, like {@link Job.attempts}. */
  attempts: number;
  nextAttemptAt: Date;
  state: OutboxState;
  leaseUntil?: Date;
  lastError?: string;
  deliveredAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface OutboxFilter extends PageRequest {
  state?: OutboxState;
  buyerId?: string;
  poId?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Print orders placed for purchase orders (forever)

export const PRINT_ORDER_STATES = ['open', 'closed'] as const;
type PrintOrderState = (typeof PRINT_ORDER_STATES)[number];

export interface NewTrackedPrintOrder {
  storefrontId: string;
  printOrderId: number;
  poId: string;
}

export interface TrackedPrintOrder extends NewTrackedPrintOrder {
  /** `open` until nothing more will be reported to the buyer; only open ones are reconciled. */
  state: PrintOrderState;
  lastStatus?: string;
  /** Indexes of the shipments already queued as ship notices. */
  shipmentsNotified: number[];
  confirmed: boolean;
  lastCheckedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface TrackedPrintOrderPatch {
  state?: PrintOrderState;
  lastStatus?: string;
  shipmentsNotified?: number[];
  confirmed?: boolean;
  lastCheckedAt?: Date;
}

// ---------------------------------------------------------------------------------------------------------
// Invoices sent to buyers (forever)

export const INVOICE_PURPOSES = ['standard', 'creditMemo'] as const;
type InvoicePurpose = (typeof INVOICE_PURPOSES)[number];

/** An invoice's figures, each a decimal string as the print service gives it (no binary rounding). */
export interface InvoiceAmounts {
  currency: string;
  subtotal: string;
  tax: string;
  shipping: string;
  discount: string;
  due: string;
}

export interface NewInvoice {
  buyerId: string;
  poId: string;
  storefrontId: string;
  printOrderId: number;
  /** What the invoice covers: 'order' or 'shipment:<index>'. */
  scope: string;
  purpose: InvoicePurpose;
  /**
   * The id to use (the print service's invoice number, a credit memo's `<original>-CR`); absent: the
   * buyer's next gateway sequence number, written `<idPrefix><6-digit zero-padded sequence>` (more digits
   * once a buyer passes 999999).
   */
  invoiceId?: string;
  /** Required when `invoiceId` is absent. */
  idPrefix?: string;
  invoiceDate: Date;
  amounts: InvoiceAmounts;
  /** For a credit memo: the store id of the invoice it credits. */
  creditsInvoice?: string;
}

export interface Invoice extends Omit<NewInvoice, 'invoiceId' | 'idPrefix'> {
  /** Store id. */
  id: string;
  /** The invoice's cXML invoiceID, fixed forever (stored, never recomputed). */
  invoiceId: string;
  /** The buyer's gateway sequence number, when the id came from there. */
  sequence?: number;
  /** `invoice:<storefrontId>:<printOrderId>:<scope>:<purpose>` — also the outbox dedupe key of its document. */
  dedupeKey: string;
  createdAt: Date;
}

/** The dedupe key of an invoice: one per print order, scope and purpose, forever. */
export function invoiceDedupeKey(
  invoice: Pick<NewInvoice, 'storefrontId' | 'printOrderId' | 'scope' | 'purpose'>,
): string {
  return `invoice:${invoice.storefrontId}:${invoice.printOrderId}:${invoice.scope}:${invoice.purpose}`;
}

// ---------------------------------------------------------------------------------------------------------
// Invoices held for an operator (forever: the record of who settled what, and how)

export const INVOICE_HOLD_STATES = ['held', 'invoiced', 'waived'] as const;
/**
 * `held`: waits for an operator; `invoiced`: the invoice went out (released by an operator at the prices
 * chosen, or once the print order's figures were put right); `waived`: no invoice, by an operator's decision.
 */
export type InvoiceHoldState = (typeof INVOICE_HOLD_STATES)[number];

export const INVOICE_HOLD_PRICES = ['po', 'print-order'] as const;
/** Whose unit prices an operator's release invoices at, where the PO's and the print order's differ. */
export type InvoiceHoldPrices = (typeof INVOICE_HOLD_PRICES)[number];

/** What the held invoice would bill at either side's prices, for the operator's choice; absent where it cannot be worked out. */
export interface InvoiceHoldAmounts {
  currency: string;
  atPoPrices?: string;
  atPrintOrderPrices?: string;
}

export interface NewInvoiceHold {
  buyerId: string;
  poId: string;
  storefrontId: string;
  printOrderId: number;
  /** What the invoice would cover, as an invoice's `scope`: 'order' or 'shipment:<index>'. */
  scope: string;
  /** Why it is held, with the figures. */
  reason: string;
  amounts: InvoiceHoldAmounts;
}

export interface InvoiceHold extends NewInvoiceHold {
  /** Store id. */
  id: string;
  state: InvoiceHoldState;
  /** Whose prices an operator's release invoiced at. */
  prices?: InvoiceHoldPrices;
  /** The operator's note (a waiver's reason), or how the hold ended. */
  note?: string;
  /** The invoice that settled it. */
  invoiceId?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** How a hold is settled: the invoice that went out (at an operator's prices), or a waiver with its note. */
export type InvoiceHoldSettlement =
  | { state: 'invoiced'; invoiceId: string; prices?: InvoiceHoldPrices; note?: string }
  | { state: 'waived'; note: string };

// ---------------------------------------------------------------------------------------------------------
// Webhook deliveries received

export interface NewInboxEvent {
  storefrontId: string;
  /** Event name, e.g. `order_updated`. */
  event: string;
  body: JsonValue;
}

export interface InboxEvent extends NewInboxEvent {
  id: string;
  receivedAt: Date;
  processed: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// The buyer's word on documents we sent (forever): StatusUpdateRequests, each once

/**
 * A StatusUpdateRequest the buyer sent about a document of ours, as recorded: which document (and, for an
 * InvoiceStatus, which invoice) it is about, and what it said. Kept forever with its purchase order: an
 * invoice's history of statuses is the record of how the buyer's accounts payable treated it.
 */
export interface NewStatusUpdate {
  buyerId: string;
  poId: string;
  /** The StatusUpdateRequest's payloadID: one record per document, however often the buyer sends it. */
  payloadId: string;
  /** The outbox message id of the document it names (the first that carried it); absent when none. */
  documentId?: string;
  /** The store id of the invoice an InvoiceStatus reports on; absent for the Status of another document. */
  invoiceRecordId?: string;
  /** The buyer's Status: code, text and content. */
  status: ReportedStatus;
  /** InvoiceStatus@type, for an invoice. */
  invoiceStatus?: InvoiceStatusType;
  /** What the buyer paid where it is not the whole amount (InvoiceStatus/PartialAmount). */
  partialAmount?: { value: string; currency: string };
  /** The InvoiceStatus's Comments ('' when none). */
  comments: string;
}

export interface StatusUpdate extends NewStatusUpdate {
  /** Store id, increasing in the order the updates were received. */
  id: string;
  receivedAt: Date;
}

// ---------------------------------------------------------------------------------------------------------
// Housekeeping and figures

/** Bounds one purge call: at most `limit` rows are deleted (default: all that are due); the rest wait. */
export interface PurgeOptions {
  limit?: number;
}

/** Aggregate figures of the order flow, for `/metrics`. Every state is present, counted 0 when empty. */
export interface StoreStats {
  ordersByState: Record<OrderState, number>;
  /** `createdAt` of the oldest purchase order in state `received` or `processing`; absent when none. */
  oldestUnorderedAt?: Date;
  jobsByState: Record<JobState, number>;
  outbox: {
    pending: number;
    sending: number;
    dead: number;
    /** `createdAt` of the oldest message still to deliver (pending or sending); absent when none. */
    oldestPendingAt?: Date;
  };
  /** Invoices held for an operator now (state `held`). */
  invoicesHeld: number;
}
