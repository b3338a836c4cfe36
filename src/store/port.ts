/**
 * The Store port: everything punchgate must not lose, behind one async interface that the SQLite, D1 and
 * PostgreSQL adapters all implement with the same observable behaviour (one shared test suite).
 *
 * Semantics every adapter keeps:
 *
 * - **Async, copies out.** Every method returns a Promise. Records handed out are fresh copies; mutating one
 *   changes nothing stored.
 * - **Time.** Methods whose whole job is time-driven take `now` or a cut-off (`sessions.expire`, `jobs.claim`,
 *   `outbox.claimDue`, the purges, `stats`); everything else reads the injected {@link Clock} (stamps, expiry
 *   checks). A session
 *   or one-time token is expired once now reaches its `expiresAt`.
 * - **Idempotent intake.** `orders.accept`, `jobs.enqueue`, `outbox.enqueue`, `printOrders.add` and
 *   `invoices.issue` insert unless their dedupe key exists, atomically, and answer `{ created, <record> }`
 *   with the record that won. Fifty concurrent calls with one document create exactly one record.
 * - **At-least-once work.** `jobs.claim` and `outbox.claimDue` hand out work under a lease (`leaseUntil =
 *   now + leaseMs`) and count the claim in `attempts`. A worker that dies simply lets the lease run out; the
 *   next claim after `leaseUntil` takes the work again. So a job or message can run more than once: handlers
 *   must be idempotent (the print order carries the PO number as `external_id`; outbox messages carry
 *   payloadIDs the buyer dedupes on).
 * - **Fencing.** Finishing calls (`complete`, `retry`, `kill`, `markDelivered`, `markRetry`, `markDead`) and
 *   `jobs.renewLease` take the {@link Claim} (`{ id, attempts }`, e.g. the claimed record itself) and apply
 *   only while that claim is still the current one; a worker whose lease ran out and whose work was
 *   re-claimed gets `undefined` and must not assume its outcome was recorded.
 * - **Dead letters.** A job whose attempts reach `maxAttempts` goes `dead` on `retry`, or on the next claim
 *   once its lease expires (a job that kills its worker cannot loop forever). Outbox messages go dead only
 *   when the caller says so. `resurrect` puts a dead record back to pending, due now, attempts reset.
 * - **Outbox order.** Messages of one purchase order are delivered in the order they were queued: a message
 *   is not claimed while an earlier one for the same `poId` is pending or sending (dead ones do not block).
 * - **Partial updates.** `update` patches change only the fields present, in one atomic step, so two
 *   writers patching different fields never undo each other. A field cannot be cleared by a patch. Updates
 *   of a record that does not exist answer `undefined`; a failed condition (`ifVersion`, `ifState`) throws
 *   `StoreError` `conflict`.
 * - **No read-back unless asked.** Where a caller has no use for the record, a method writes without
 *   reading it back: `sessions.patch` and `orders.patch` are `update` answering only whether a record was
 *   patched (same conditions, same `conflict`); `sessions.create` answers the record built from what it
 *   wrote; `cart.countBySession` counts without reading lines. A read-back costs a row's mapping (and on
 *   SQL `RETURNING *`) on every punch-in and transfer.
 * - **Housekeeping.** `sessions.expire`, `cart.purgeStale`, `jobs.purgeFinished`, `outbox.purgeDelivered` and
 *   `events.purgeProcessed` delete what is no longer needed and answer how many rows went; with
 *   `{ limit }` ({@link PurgeOptions}) at most that many, so a bounded round (Workers) leaves the rest for
 *   the next. Purchase orders, print orders, invoices, user mappings, reorder items and every document sent to a buyer
 *   are kept forever (an invoice's number is never handed out again): `outbox.purgeDelivered` deletes only the delivery-queue rows of delivered messages, the
 *   message itself (and its dedupe key) stays readable with its purchase order.
 * - **Errors.** Only {@link StoreError} codes escape adapters (`duplicate`, `conflict`, `invalid`,
 *   `unavailable`, `incompatible_schema`); anything else is a bug.
 *
 * Where the adapters live: `sql/` holds the one SQL store (statements and migrations written once, a
 * dialect for what differs) that `sqlite.ts`, `d1.ts` and `postgres.ts` drive, each only a driver and its
 * migration run (another SQL database is a driver plus, if it spells something differently, a dialect).
 * A store that lives only as long as the process is SQLite at `:memory:`.
 *
 * @example
 * ```ts
 * const { created, order } = await store.orders.accept({ buyerId, payloadId, orderId, type: 'new', raw,
 *   document, answer: { code: 200, text: 'OK' } });
 * if (created) await store.jobs.enqueue({ kind: 'process_order', key: `po:${order.id}`,
 *   payload: { poId: order.id }, runAt: clock.now() });
 * const job = await store.jobs.claim(clock.now(), 60_000, ['process_order']);
 * if (job) await store.jobs.complete(job);
 * ```
 */
import type {
  AttachmentFile,
  AttachmentInfo,
  CartLine,
  CartLinePatch,
  Claim,
  InboxEvent,
  Invoice,
  InvoiceHold,
  InvoiceHoldSettlement,
  InvoiceHoldState,
  Job,
  JobFilter,
  NewCartLine,
  NewInboxEvent,
  NewInvoice,
  NewInvoiceHold,
  NewJob,
  NewOrderIntake,
  NewOrderNote,
  OrderCommit,
  OrderCommitResult,
  NewOutboxMessage,
  NewPunchoutSession,
  NewPurchaseOrder,
  NewRefusal,
  NewReorderItem,
  NewStatusUpdate,
  NewTrackedPrintOrder,
  NewUserMapping,
  OrderFilter,
  OrderIntakeResult,
  OrderNote,
  OrderState,
  OutboxFilter,
  OutboxMessage,
  Page,
  PurgeOptions,
  PunchoutSession,
  PurchaseOrder,
  PurchaseOrderPatch,
  Refusal,
  RefusalCaps,
  RefusalFilter,
  ReorderItem,
  SessionPatch,
  StatusUpdate,
  StoreStats,
  TimeWindow,
  TrackedPrintOrder,
  TrackedPrintOrderPatch,
  UserMapping,
  WaitingOrder,
} from './types.ts';

export type { Clock } from './clock.ts';

/**
 * How long records of expired one-time tokens are kept before the sweep deletes them. An expired token is
 * refused anyway; the grace only guards against instances whose clocks disagree by less than this.
 */
export const ONE_TIME_TOKEN_SWEEP_GRACE_MS = 5 * 60_000;

interface SessionStore {
  /**
   * Stores a new open session (version 1). Throws `duplicate` if the id is taken. The answer is the record
   * as stored, built from what was written (nothing is read back: every field is either the input's or
   * set here).
   */
  create(session: NewPunchoutSession): Promise<PunchoutSession>;
  /** The session, unless unknown or expired. */
  get(id: string): Promise<PunchoutSession | undefined>;
  /** Applies the patch and bumps `version`; with `ifVersion`, only if the version still matches. */
  update(
    id: string,
    patch: SessionPatch,
    options?: { ifVersion?: number },
  ): Promise<PunchoutSession | undefined>;
  /**
   * `update` without the session read back: true when patched, false when the session is unknown or
   * expired, and a `conflict` with `ifVersion` as `update` throws. For callers that have no use for the
   * record (closing a session at transfer, a renewed token, kept lines).
   */
  patch(id: string, patch: SessionPatch, options?: { ifVersion?: number }): Promise<boolean>;
  /** Deletes sessions expired at `now`; answers how many. Cart lines stay. */
  expire(now: Date, options?: PurgeOptions): Promise<number>;
  /**
   * How many of the buyer's stored sessions were created at or after `since`, expired or not (expired ones
   * count until `expire` deletes them; a session's record outlives its URLs by a day, so a count over the
   * last 24 hours is complete). No index serves it: for an operator's page, not for every request.
   */
  countByBuyerSince(buyerId: string, since: Date): Promise<number>;
}

interface OneTimeTokenStore {
  /**
   * True the first time a token id is presented before its expiry, false ever after (and for an expired
   * token). Records of long-expired tokens are swept as a side effect.
   */
  consumeOnce(jti: string, expiresAt: Date): Promise<boolean>;
}

interface UserStore {
  get(buyerId: string, userKey: string): Promise<UserMapping | undefined>;
  /** Inserts or replaces the mapping for (`buyerId`, `userKey`); `createdAt` survives a replace. */
  put(user: NewUserMapping): Promise<UserMapping>;
}

interface CartStore {
  /** Appends a line to its session's cart. Throws `duplicate` if the line reference is taken. */
  add(line: NewCartLine): Promise<CartLine>;
  /** The line in any state. */
  get(lineRef: string): Promise<CartLine | undefined>;
  /**
   * The known lines among `lineRefs` in any state, read at once however many they are (a PO's lines): each
   * line once, in the order of its first mention; unknown references are left out.
   */
  getMany(lineRefs: readonly string[]): Promise<CartLine[]>;
  /**
   * The session's lines in state `cart` or `ordered`, by position: an edit or inspect punch-out moves
   * ordered lines into its session without changing their state (which guards against ordering twice).
   */
  listBySession(sessionId: string): Promise<CartLine[]>;
  /** How many lines `listBySession` would answer, without reading them (the catalog shows the count). */
  countBySession(sessionId: string): Promise<number>;
  update(lineRef: string, patch: CartLinePatch): Promise<CartLine | undefined>;
  /** Marks the known lines among `lineRefs` ordered by `poId` (whatever their state); answers them. */
  markOrdered(lineRefs: readonly string[], poId: string): Promise<CartLine[]>;
  /** Deletes lines never ordered and untouched since `updatedBefore`; answers how many. */
  purgeStale(updatedBefore: Date, options?: PurgeOptions): Promise<number>;
}

/** Files that came with purchase orders: written by `orders.acceptWithLines`, read here. */
interface AttachmentStore {
  /** The order's attachments in message order, without their bytes. */
  list(poId: string): Promise<AttachmentInfo[]>;
  /** One attachment with its bytes; undefined when the order has none at that position. */
  get(poId: string, position: number): Promise<AttachmentFile | undefined>;
}

interface OrderStore {
  /**
   * Records a purchase order unless one with the same (`buyerId`, `payloadId`) or the same (`buyerId`,
   * `orderId`, `type`, `orderRevisionKey`) exists, atomically; answers the stored order (the earlier
   * one if not created). So one `new` and one `delete` per orderID, and one `update` per `orderVersion`
   * (per payloadID for updates without a version).
   */
  accept(order: NewPurchaseOrder): Promise<{ created: boolean; order: PurchaseOrder }>;
  /**
   * The PO intake in one transaction, one commit (on D1 one batch): `accept`, and only if that creates the
   * order, its cart lines marked ordered by it (as `cart.markOrdered`) and its job queued (as
   * `jobs.enqueue`) and its attachments stored. All of it is stored or none. A copy of a stored order changes nothing and answers
   * that order, exactly as `accept` does; a created order is answered by its id, nothing is read back.
   */
  acceptWithLines(intake: NewOrderIntake): Promise<OrderIntakeResult>;
  get(id: string): Promise<PurchaseOrder | undefined>;
  getByPayloadId(buyerId: string, payloadId: string): Promise<PurchaseOrder | undefined>;
  /**
   * The buyer's `new` order with this orderID: the original that an update or delete of the order refers
   * to. There is at most one (`accept` keeps one `new` per orderID), and the lookup is indexed by that key.
   */
  getByOrderId(buyerId: string, orderId: string): Promise<PurchaseOrder | undefined>;
  /**
   * What a document arriving from the buyer may repeat, in one read (intake's only read before it stores):
   * the order stored under its payloadID, and the buyer's `new` order of its orderID (`getByOrderId`'s).
   */
  findEarlier(
    buyerId: string,
    payloadId: string,
    orderId: string,
  ): Promise<{ byPayloadId?: PurchaseOrder; newOfOrderId?: PurchaseOrder }>;
  list(filter?: OrderFilter): Promise<Page<PurchaseOrder>>;
  /**
   * The ids of the orders in `state`, newest first, at most `limit` (a page's default and bound): what the
   * order worker needs each round, without reading every record's documents (megabytes for a big PO).
   */
  listIds(state: OrderState, limit?: number): Promise<string[]>;
  /**
   * The orders at `needs_operator`, newest first, at most `limit` (a page's default and bound), without
   * their documents: what the notifications read every round, which must not parse megabytes to do so.
   */
  listWaiting(limit?: number): Promise<WaitingOrder[]>;
  /** With `ifState`, applies only while the order is in one of those states. */
  update(
    id: string,
    patch: PurchaseOrderPatch,
    options?: { ifState?: readonly OrderState[] },
  ): Promise<PurchaseOrder | undefined>;
  /**
   * `update` without the order read back: true when patched, false when there is no such order, and a
   * `conflict` with `ifState` as `update` throws. A PO's document can be megabytes, and `update` answers
   * it whole (copied, or read and parsed from SQL), which the order job has no use for.
   */
  patch(
    id: string,
    patch: PurchaseOrderPatch,
    options?: { ifState?: readonly OrderState[] },
  ): Promise<boolean>;
  /**
   * Several writes of an order's job in one transaction, one commit (on D1 one batch): see
   * {@link OrderCommit}. What the job would otherwise write in four to six calls, each a commit of its own.
   */
  commit(writes: OrderCommit): Promise<OrderCommitResult>;
  /**
   * `listIds`, leaving out the orders that have a live job (pending or running) under the key
   * `jobKeyPrefix` + the order's id: the orders whose job was lost or died, which the worker queues again
   * or settles, without a write per order each round for the many whose job is simply waiting.
   */
  listIdsWithoutLiveJob(state: OrderState, jobKeyPrefix: string, limit?: number): Promise<string[]>;
  /**
   * The orders received within the window (`createdAt`), oldest first, a page at a time: an export reads
   * a year of POs this way without holding it. Keyset paging on the id, so a page costs the same however
   * far in it is.
   */
  listReceived(window: TimeWindow): Promise<Page<PurchaseOrder>>;
}

/**
 * A buyer's reorder items: each design the buyer ordered through a PO, by its part number, with what it was
 * last ordered at. Kept forever (a buyer reorders business cards years later).
 */
interface ReorderStore {
  /**
   * Records each item, in one atomic batch: a new part number is inserted; a known one takes the item's
   * values only when its `orderedAt` is not earlier than the stored one's, so a job run again for an older
   * PO never moves an item back. Of two items with one part number, the later in the list wins.
   */
  record(items: readonly NewReorderItem[]): Promise<void>;
  /** The buyer's item with this part number; undefined for another buyer's or an unknown one. */
  get(buyerId: string, partId: string): Promise<ReorderItem | undefined>;
  /** The buyer's items, most recently ordered first, at most `limit` (default and bound: a page's). */
  listByBuyer(buyerId: string, limit?: number): Promise<ReorderItem[]>;
}

/** Operators' notes on purchase orders, kept forever with them. */
interface OrderNoteStore {
  add(note: NewOrderNote): Promise<OrderNote>;
  /** The PO's notes, oldest first. */
  listByPo(poId: string): Promise<OrderNote[]>;
}

/**
 * The refusals log (`Refusal`): working data, bounded in count by the caps each `add` applies and in age by
 * `purgeBefore` (housekeeping), so a flood of refused requests cannot grow it without bound.
 */
interface RefusalLog {
  /**
   * Records a refusal, then drops the oldest entries beyond `caps`: those of its client address past
   * `perAddress`, and any past `total`. One atomic batch; newest first is what an operator reads, so a
   * flood pushes out its own older entries (and, past `total`, the oldest of all) rather than being dropped.
   */
  add(refusal: NewRefusal, caps: RefusalCaps): Promise<Refusal>;
  /** Newest first. */
  list(filter?: RefusalFilter): Promise<Page<Refusal>>;
  /** Entries of `buyerId` recorded at or after `since` (for "this buyer's documents are being refused"). */
  countByBuyerSince(buyerId: string, since: Date): Promise<number>;
  /** Deletes entries recorded before `before`, at most `options.limit`; answers how many. */
  purgeBefore(before: Date, options?: PurgeOptions): Promise<number>;
}

interface JobQueue {
  /**
   * Queues a pending job unless one with the same key is pending, running or dead. A `done` job never
   * blocks its key (so purging done jobs changes nothing here): work that must not run twice is guarded
   * by its caller and handler, e.g. a purchase order's job is queued only while the order is `received` or
   * `processing`, and its handler does nothing once the order has moved on.
   */
  enqueue(job: NewJob): Promise<{ created: boolean; job: Job }>;
  get(id: string): Promise<Job | undefined>;
  /**
   * Takes the most overdue job (pending and due, or running with an expired lease), of one of `kinds` if
   * given: it becomes `running`, `attempts` +1, leased until `now + leaseMs`.
   */
  claim(now: Date, leaseMs: number, kinds?: readonly string[]): Promise<Job | undefined>;
  /**
   * Moves the lease of a running job to `leaseUntil` (the worker's heartbeat, so leases can be short and a
   * dead worker's job is taken over soon), only while `claim` is the current claim; `undefined` otherwise.
   * A claim whose lease ran out but that nobody has taken over yet is still current and may renew.
   */
  renewLease(claim: Claim, leaseUntil: Date): Promise<Job | undefined>;
  complete(claim: Claim): Promise<Job | undefined>;
  /** Back to pending, due at `runAt`; dead instead once `attempts` has reached `maxAttempts`. */
  retry(claim: Claim, error: string, runAt: Date): Promise<Job | undefined>;
  kill(claim: Claim, error: string): Promise<Job | undefined>;
  list(filter?: JobFilter): Promise<Page<Job>>;
  /** Dead → pending, due now, attempts 0. `undefined` unless the job is dead. */
  resurrect(id: string): Promise<Job | undefined>;
  /** Deletes `done` jobs last updated before `finishedBefore`; answers how many. Dead jobs stay. */
  purgeFinished(finishedBefore: Date, options?: PurgeOptions): Promise<number>;
}

/**
 * Documents to buyers and their delivery queue. A message is a document kept forever with its purchase
 * order (buyer, kind, url, body, dedupe key, and once delivered its delivery record) plus a row in the
 * delivery queue (state, attempts, lease, next attempt). Only the queue rows of delivered messages are ever
 * purged; a purged message reads exactly as it did before, `delivered`.
 */
interface Outbox {
  /** Queues a message unless one with the same `dedupeKey` was ever queued (purged or not). */
  enqueue(message: NewOutboxMessage): Promise<{ created: boolean; message: OutboxMessage }>;
  get(id: string): Promise<OutboxMessage | undefined>;
  /** Takes up to `limit` (default 1) due messages, oldest first, one purchase order's in queue order. */
  claimDue(now: Date, leaseMs: number, limit?: number): Promise<OutboxMessage[]>;
  markDelivered(claim: Claim): Promise<OutboxMessage | undefined>;
  markRetry(claim: Claim, error: string, nextAttemptAt: Date): Promise<OutboxMessage | undefined>;
  markDead(claim: Claim, error: string): Promise<OutboxMessage | undefined>;
  list(filter?: OutboxFilter): Promise<Page<OutboxMessage>>;
  /** Dead → pending, due now, attempts 0. `undefined` unless the message is dead. */
  resurrect(id: string): Promise<OutboxMessage | undefined>;
  /**
   * The first message to the buyer that carried the document with this payloadID (a re-send carries the
   * same document, so the same payloadID); undefined when the buyer was sent none. Indexed.
   */
  findByPayloadId(buyerId: string, payloadId: string): Promise<OutboxMessage | undefined>;
  /** Deletes the queue rows of messages delivered before `deliveredBefore`; answers how many. */
  purgeDelivered(deliveredBefore: Date, options?: PurgeOptions): Promise<number>;
}

interface PrintOrderStore {
  /** Starts tracking a print order unless it is tracked already; answers the stored record. */
  add(printOrder: NewTrackedPrintOrder): Promise<{ created: boolean; printOrder: TrackedPrintOrder }>;
  get(storefrontId: string, printOrderId: number): Promise<TrackedPrintOrder | undefined>;
  listByPo(poId: string): Promise<TrackedPrintOrder[]>;
  update(
    storefrontId: string,
    printOrderId: number,
    patch: TrackedPrintOrderPatch,
  ): Promise<TrackedPrintOrder | undefined>;
  /** Open print orders, least recently checked first (never checked before all), up to `limit` (100). */
  listOpen(options?: { limit?: number }): Promise<TrackedPrintOrder[]>;
  /**
   * The highest print order id tracked for the storefront, open or closed; `undefined` if none. The print
   * service numbers orders upwards, so an order created after this one was tracked has a higher id.
   */
  highestId(storefrontId: string): Promise<number | undefined>;
}

/**
 * Invoices (and credit memos) sent to buyers, kept forever: the record of which invoiceID was given to
 * what, so a repeated round never invoices twice and an invoiceID is never handed out again.
 */
interface InvoiceStore {
  /**
   * Records an invoice unless one with the same dedupe key exists (atomically; 50 concurrent calls create
   * one); gateway ids take the buyer's next sequence number, never reused, unique per buyer (two buyers
   * each have their own 1, 2, 3…). Throws `duplicate` when the buyer already has an invoice with this
   * invoiceID under another dedupe key, and `invalid` for a gateway id without `idPrefix`.
   */
  issue(invoice: NewInvoice): Promise<{ created: boolean; invoice: Invoice }>;
  get(id: string): Promise<Invoice | undefined>;
  /** The buyer's invoice (or credit memo) with this cXML invoiceID; undefined when it has none. */
  getByInvoiceId(buyerId: string, invoiceId: string): Promise<Invoice | undefined>;
  /** The purchase order's invoices, oldest first. */
  listByPo(poId: string): Promise<Invoice[]>;
  /** The print order's invoices, oldest first. */
  listByPrintOrder(storefrontId: string, printOrderId: number): Promise<Invoice[]>;
  /** The invoices dated within the window (`invoiceDate`), oldest first, a page at a time (exports). */
  listDated(window: TimeWindow): Promise<Page<Invoice>>;
}

/**
 * Invoices that could not go out as they stand, each a record of its own until an operator settles it (or
 * the print order's figures are put right): one per print order and scope, kept forever.
 */
interface InvoiceHoldStore {
  /**
   * Records the hold, or finds the one of this print order and scope: an open one (`held`) takes the new
   * reason and amounts (the figures may have moved), a settled one is returned as it is. Atomic.
   */
  hold(hold: NewInvoiceHold): Promise<InvoiceHold>;
  get(id: string): Promise<InvoiceHold | undefined>;
  /** The purchase order's holds, oldest first, whatever their state. */
  listByPo(poId: string): Promise<InvoiceHold[]>;
  /**
   * Moves a hold on, only from one of `from`; undefined when it is no longer in one of them (someone
   * settled it meanwhile).
   */
  settle(
    id: string,
    settlement: InvoiceHoldSettlement,
    from: readonly InvoiceHoldState[],
  ): Promise<InvoiceHold | undefined>;
}

/** What buyers said of the documents we sent them (StatusUpdateRequests), kept forever. */
interface StatusUpdateStore {
  /**
   * Records the update unless the buyer's StatusUpdateRequest with this payloadID is recorded already
   * (atomically); answers the stored one, the earlier one if not created.
   */
  record(update: NewStatusUpdate): Promise<{ created: boolean; update: StatusUpdate }>;
  /** The purchase order's updates, in the order they were received. */
  listByPo(poId: string): Promise<StatusUpdate[]>;
  /**
   * The latest InvoiceStatus the buyer gave each of its invoices in updates received since `receivedFrom`,
   * by invoice record id: one read for a buyer's whole summary, however many POs it spans.
   */
  latestInvoiceStatuses(buyerId: string, receivedFrom: Date): Promise<Map<string, string>>;
}

interface EventInbox {
  add(event: NewInboxEvent): Promise<InboxEvent>;
  get(id: string): Promise<InboxEvent | undefined>;
  /** Unprocessed events, oldest first, up to `limit` (100). */
  listUnprocessed(options?: { limit?: number }): Promise<InboxEvent[]>;
  /** False if the event is unknown. */
  markProcessed(id: string): Promise<boolean>;
  /** Deletes processed events received before `receivedBefore`; answers how many. */
  purgeProcessed(receivedBefore: Date, options?: PurgeOptions): Promise<number>;
}

/**
 * When recurring work last completed, by name, readable from every instance (on Workers the Cron round
 * runs in another isolate than the one answering `/readyz`, so a timestamp in memory would not be seen).
 */
interface HeartbeatStore {
  /** Records that `name` completed at `at`, unless a later time is stored: a late writer never moves it back. */
  beat(name: string, at: Date): Promise<void>;
  /** When `name` last completed; `undefined` if it never has. */
  last(name: string): Promise<Date | undefined>;
}

/** What a failed-authentication counter holds for a key (times in ms since the epoch). */
export interface GuessCount {
  /** Failures counted since the window began (a lock starts the count afresh). */
  failures: number;
  windowStart: number;
  /** When the key's lock ends; in the past (or 0) when it is not locked. */
  lockedUntil: number;
  /** Length of the last lock (0: never locked). */
  lockMs: number;
}

/** The limit a counter counts towards, in milliseconds. */
export interface GuessLimit {
  maxFailures: number;
  windowMs: number;
  maxLockMs: number;
}

/**
 * Failed-authentication counters every instance shares, kept across restarts. Counting is one atomic
 * step per call, so instances counting at once never lose a failure.
 */
interface GuessCounterStore {
  /** Counts `count` failures against `key` at `at` under `limit` and answers the key's count afterwards. */
  fail(key: string, count: number, at: Date, limit: GuessLimit): Promise<GuessCount>;
  /** The key's count; `undefined` when it has none. */
  get(key: string): Promise<GuessCount | undefined>;
  /** Forgets the key's failures and locks (a right secret from that key). */
  forget(key: string): Promise<void>;
  /** Deletes counters neither counting nor locked since `before`. */
  purgeIdle(before: Date, options?: PurgeOptions): Promise<number>;
}

/**
 * What the notification channels have announced to the operators: per channel, the announcement keys (an
 * exception's subject and cause) of every message sent, kept so an exception still open next round is not
 * announced again, and so a channel's messages can be counted for its rate limit by every instance.
 */
interface NotificationLog {
  /** Of `keys`, those already recorded for `channel` (in no particular order). */
  announcedAmong(channel: string, keys: readonly string[]): Promise<string[]>;
  /** Records that the message `messageId` announced `keys` on `channel` at `at`; a key recorded before stays as it was. */
  record(channel: string, messageId: string, keys: readonly string[], at: Date): Promise<void>;
  /** How many messages `channel` sent at or after `since`. */
  messagesSince(channel: string, since: Date): Promise<number>;
}

export interface Store {
  readonly sessions: SessionStore;
  readonly tokens: OneTimeTokenStore;
  readonly users: UserStore;
  readonly cart: CartStore;
  readonly orders: OrderStore;
  readonly refusals: RefusalLog;
  readonly orderNotes: OrderNoteStore;
  readonly reorders: ReorderStore;
  readonly attachments: AttachmentStore;
  readonly jobs: JobQueue;
  readonly outbox: Outbox;
  readonly printOrders: PrintOrderStore;
  readonly invoices: InvoiceStore;
  readonly invoiceHolds: InvoiceHoldStore;
  readonly statusUpdates: StatusUpdateStore;
  readonly events: EventInbox;
  readonly heartbeat: HeartbeatStore;
  readonly guessCounters: GuessCounterStore;
  readonly notifications: NotificationLog;
  /**
   * Counts by state for `/metrics`, each a cheap aggregate over an index. `now` is the instant the figures
   * are taken at (adapters need it for nothing else today).
   */
  stats(now: Date): Promise<StoreStats>;
  /** Resolves when the backing database answers (for `/readyz`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
