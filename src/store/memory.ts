/**
 * The in-memory Store: plain Maps, no I/O, safe on Workers. For tests, the demo and single-process use
 * where losing everything on restart is acceptable. Each method runs to completion without awaiting, so
 * every check-then-write is atomic on the one JavaScript thread, which is what makes the idempotent and
 * exclusive operations of the port hold here.
 */
import { type Clock, systemClock } from './clock.ts';
import { orderRevisionKey } from './order-revision.ts';
import { batchSize, pageSize, parseCursor, purgeLimit, toPage } from './paging.ts';
import {
  type CartStore,
  type EventInbox,
  type HeartbeatStore,
  type InvoiceStore,
  type JobQueue,
  ONE_TIME_TOKEN_SWEEP_GRACE_MS,
  type OneTimeTokenStore,
  type OrderStore,
  type Outbox,
  type PrintOrderStore,
  type SessionStore,
  type Store,
  type UserStore,
} from './port.ts';
import { StoreError } from './store-error.ts';
import {
  type CartLine,
  type Claim,
  DEFAULT_MAX_ATTEMPTS,
  gatewayInvoiceId,
  type InboxEvent,
  type Invoice,
  invoiceDedupeKey,
  JOB_STATES,
  type Job,
  type NewJob,
  type NewPurchaseOrder,
  ORDER_STATES,
  type OrderState,
  type OutboxMessage,
  type Page,
  type PurgeOptions,
  type PunchoutSession,
  type SessionPatch,
  type PurchaseOrder,
  type PurchaseOrderPatch,
  type TrackedPrintOrder,
  type UserMapping,
} from './types.ts';

/**
 * @example
 * ```ts
 * const store = createMemoryStore({ clock: { now: () => new Date('2025-03-01T10:00:00Z') } });
 * await store.tokens.consumeOnce('jti-1', new Date('2025-03-01T10:05:00Z')); // true
 * ```
 */
export function createMemoryStore(options: { clock?: Clock } = {}): Store {
  const state = createMemoryState(options.clock ?? systemClock);
  return {
    sessions: memorySessions(state),
    tokens: memoryTokens(state),
    users: memoryUsers(state),
    cart: memoryCart(state),
    orders: memoryOrders(state),
    jobs: memoryJobs(state),
    outbox: memoryOutbox(state),
    printOrders: memoryPrintOrders(state),
    invoices: memoryInvoices(state),
    events: memoryEvents(state),
    heartbeat: memoryHeartbeat(state),
    stats: memoryStats(state),
    async ping() {},
    async close() {},
  };
}

/**
 * Everything the sub-stores share: one Map per record kind, one id counter (so ids are unique across kinds,
 * as a single sequence would make them) and one clock.
 */
interface MemoryState {
  sessions: Map<string, PunchoutSession>;
  tokens: Map<string, number>;
  users: Map<string, UserMapping>;
  lines: Map<string, CartLine>;
  orders: Map<string, PurchaseOrder>;
  jobs: Map<string, Job>;
  outbox: Map<string, OutboxMessage>;
  /** Ids of the messages whose delivery-queue row exists (every message until its row is purged). */
  deliveryQueue: Set<string>;
  printOrders: Map<string, TrackedPrintOrder>;
  events: Map<string, InboxEvent>;
  /** Milliseconds since the epoch, by heartbeat name. */
  heartbeats: Map<string, number>;
  nextId: () => string;
  now: () => Date;
}

function createMemoryState(clock: Clock): MemoryState {
  let lastId = 0;
  return {
    sessions: new Map(),
    tokens: new Map(),
    users: new Map(),
    lines: new Map(),
    orders: new Map(),
    jobs: new Map(),
    outbox: new Map(),
    deliveryQueue: new Set(),
    printOrders: new Map(),
    events: new Map(),
    heartbeats: new Map(),
    nextId: () => String(++lastId),
    now: () => clock.now(),
  };
}

function memorySessions(state: MemoryState): SessionStore {
  const { sessions, now } = state;

  function liveSession(id: string): PunchoutSession | undefined {
    const session = sessions.get(id);
    return session && session.expiresAt.getTime() > now().getTime() ? session : undefined;
  }

  /** The one step behind `update` and `patch`: the stored session after the patch, undefined if none. */
  function patchSession(
    id: string,
    patch: SessionPatch,
    options: { ifVersion?: number },
  ): PunchoutSession | undefined {
    const session = liveSession(id);
    if (!session) return undefined;
    if (options.ifVersion !== undefined && session.version !== options.ifVersion) {
      throw new StoreError('conflict', `session ${id} is at version ${session.version}`);
    }
    Object.assign(
      session,
      pickDefined(patch, ['state', 'expiresAt', 'pipoToken', 'pipoUserRef', 'extrinsics']),
    );
    session.version += 1;
    session.updatedAt = now();
    return session;
  }

  return {
    async create(input) {
      if (sessions.has(input.id)) throw new StoreError('duplicate', `session ${input.id} exists`);
      const at = now();
      const session: PunchoutSession = {
        ...pickDefined(input, [
          'id',
          'buyerId',
          'storefrontId',
          'protocol',
          'operation',
          'buyerCookie',
          'returnUrl',
          'returnTarget',
          'buyerUserKey',
          'pipoUserRef',
          'expiresAt',
          'pipoToken',
        ]),
        ...jsonFields(input, ['ociEcho', 'extrinsics', 'contact', 'shipTo']),
        state: 'open',
        version: 1,
        createdAt: at,
        updatedAt: at,
      };
      sessions.set(session.id, session);
      return copy(session);
    },
    async get(id) {
      const session = liveSession(id);
      return session && copy(session);
    },
    async update(id, patch, options = {}) {
      const session = patchSession(id, patch, options);
      return session && copy(session);
    },
    async patch(id, patch, options = {}) {
      return patchSession(id, patch, options) !== undefined;
    },
    async expire(at, options) {
      return deleteWhere(sessions, (s) => s.expiresAt.getTime() <= at.getTime(), options);
    },
    async countByBuyerSince(buyerId, since) {
      let count = 0;
      for (const session of sessions.values()) {
        if (session.buyerId === buyerId && session.createdAt.getTime() >= since.getTime()) count++;
      }
      return count;
    },
  };
}

function memoryTokens(state: MemoryState): OneTimeTokenStore {
  const { tokens, now } = state;
  return {
    async consumeOnce(jti, expiresAt) {
      const at = now().getTime();
      deleteWhere(tokens, (expiry) => expiry <= at - ONE_TIME_TOKEN_SWEEP_GRACE_MS);
      if (expiresAt.getTime() <= at || tokens.has(jti)) return false;
      tokens.set(jti, expiresAt.getTime());
      return true;
    },
  };
}

function memoryUsers(state: MemoryState): UserStore {
  const { users, now } = state;
  return {
    async get(buyerId, userKey) {
      const user = users.get(userMapKey(buyerId, userKey));
      return user && copy(user);
    },
    async put(input) {
      const key = userMapKey(input.buyerId, input.userKey);
      const at = now();
      const user: UserMapping = {
        ...pickDefined(input, [
          'buyerId',
          'userKey',
          'storefrontId',
          'pipoUserId',
          'username',
          'email',
          'passwordEnc',
          'isTemp',
        ]),
        createdAt: users.get(key)?.createdAt ?? at,
        updatedAt: at,
      };
      users.set(key, user);
      return copy(user);
    },
  };
}

function memoryCart(state: MemoryState): CartStore {
  const { lines, now } = state;
  return {
    async add(input) {
      if (lines.has(input.lineRef)) throw new StoreError('duplicate', `line ${input.lineRef} exists`);
      let lastPosition = 0;
      for (const line of lines.values()) {
        if (line.sessionId === input.sessionId) lastPosition = Math.max(lastPosition, line.position);
      }
      const at = now();
      const line: CartLine = {
        ...pickDefined(input, [
          'lineRef',
          'sessionId',
          'buyerId',
          'storefrontId',
          'userRef',
          'designId',
          'productId',
          'sku',
          'name',
          'quantity',
          'unitPrice',
          'currency',
          'uom',
          'unspsc',
          'leadTimeDays',
        ]),
        position: lastPosition + 1,
        state: 'cart',
        createdAt: at,
        updatedAt: at,
      };
      lines.set(line.lineRef, line);
      return copy(line);
    },
    async get(lineRef) {
      const line = lines.get(lineRef);
      return line && copy(line);
    },
    async getMany(lineRefs) {
      return [...new Set(lineRefs)].flatMap((lineRef) => {
        const line = lines.get(lineRef);
        return line ? [copy(line)] : [];
      });
    },
    async listBySession(sessionId) {
      return [...lines.values()]
        .filter((line) => line.sessionId === sessionId && line.state !== 'removed')
        .sort(
          (a, b) =>
            a.position - b.position ||
            a.createdAt.getTime() - b.createdAt.getTime() ||
            compareText(a.lineRef, b.lineRef),
        )
        .map(copy);
    },
    async countBySession(sessionId) {
      let count = 0;
      for (const line of lines.values()) {
        if (line.sessionId === sessionId && line.state !== 'removed') count++;
      }
      return count;
    },
    async update(lineRef, patch) {
      const line = lines.get(lineRef);
      if (!line) return undefined;
      Object.assign(
        line,
        pickDefined(patch, [
          'sessionId',
          'designId',
          'name',
          'quantity',
          'unitPrice',
          'currency',
          'position',
          'state',
        ]),
      );
      line.updatedAt = now();
      return copy(line);
    },
    async markOrdered(lineRefs, poId) {
      return markLinesOrdered(state, lineRefs, poId).map(copy);
    },
    async purgeStale(updatedBefore, options) {
      return deleteWhere(
        lines,
        (line) => line.state !== 'ordered' && line.updatedAt.getTime() < updatedBefore.getTime(),
        options,
      );
    },
  };
}

/** Marks the known lines among `lineRefs` ordered by `poId`; answers the stored lines (no copies). */
function markLinesOrdered(state: MemoryState, lineRefs: readonly string[], poId: string): CartLine[] {
  const at = state.now();
  const marked: CartLine[] = [];
  for (const lineRef of new Set(lineRefs)) {
    const line = state.lines.get(lineRef);
    if (!line) continue;
    Object.assign(line, { state: 'ordered', poId, updatedAt: at });
    marked.push(line);
  }
  return marked;
}

/** `accept` without copies: the earlier order of the same document, or the one stored now. */
function acceptOrder(
  state: MemoryState,
  input: NewPurchaseOrder,
): { created: boolean; order: PurchaseOrder } {
  const { orders, nextId, now } = state;
  const existing =
    find(orders, (o) => o.buyerId === input.buyerId && o.payloadId === input.payloadId) ??
    find(
      orders,
      (o) =>
        o.buyerId === input.buyerId &&
        o.orderId === input.orderId &&
        o.type === input.type &&
        orderRevisionKey(o) === orderRevisionKey(input),
    );
  if (existing) return { created: false, order: existing };
  const at = now();
  const order: PurchaseOrder = {
    id: nextId(),
    ...pickDefined(input, ['buyerId', 'payloadId', 'orderId', 'type', 'orderVersion', 'raw', 'answer']),
    state: input.state ?? 'received',
    document: jsonCopy(input.document),
    printOrderIds: [],
    flags: jsonCopy(input.flags ?? []),
    createdAt: at,
    updatedAt: at,
  };
  orders.set(order.id, order);
  return { created: true, order };
}

function memoryOrders(state: MemoryState): OrderStore {
  const { orders } = state;
  return {
    async accept(input) {
      const { created, order } = acceptOrder(state, input);
      return { created, order: copy(order) };
    },
    // No await between the three steps: on the one JavaScript thread they happen as one.
    async acceptWithLines({ order: input, lineRefs, job }) {
      const { created, order } = acceptOrder(state, input);
      if (!created) return { created, order: copy(order) };
      markLinesOrdered(state, lineRefs, order.id);
      enqueueJob(state, {
        kind: job.kind,
        key: `${job.keyPrefix}${order.id}`,
        payload: { poId: order.id },
        runAt: job.runAt,
        ...(job.maxAttempts !== undefined && { maxAttempts: job.maxAttempts }),
      });
      return { created, id: order.id };
    },
    async get(id) {
      const order = orders.get(id);
      return order && copy(order);
    },
    async getByPayloadId(buyerId, payloadId) {
      const order = find(orders, (o) => o.buyerId === buyerId && o.payloadId === payloadId);
      return order && copy(order);
    },
    async getByOrderId(buyerId, orderId) {
      const order = find(orders, (o) => o.buyerId === buyerId && o.orderId === orderId && o.type === 'new');
      return order && copy(order);
    },
    async list(filter = {}) {
      return listPage(
        orders,
        filter,
        (o) =>
          (filter.state === undefined || o.state === filter.state) &&
          (filter.buyerId === undefined || o.buyerId === filter.buyerId),
      );
    },
    async listIds(state, limit) {
      return [...orders.values()]
        .filter((o) => o.state === state)
        .map((o) => o.id)
        .sort((a, b) => Number(b) - Number(a))
        .slice(0, pageSize(limit));
    },
    async update(id, patch, options = {}) {
      const order = patchOrder(state, id, patch, options.ifState);
      return order && copy(order);
    },
    async patch(id, patch, options = {}) {
      return patchOrder(state, id, patch, options.ifState) !== undefined;
    },
  };
}

/** `orders.update` without the copy it answers: the stored order, patched, or undefined if there is none. */
function patchOrder(
  { orders, now }: MemoryState,
  id: string,
  patch: PurchaseOrderPatch,
  ifState: readonly OrderState[] | undefined,
): PurchaseOrder | undefined {
  const order = orders.get(id);
  if (!order) return undefined;
  if (ifState && !ifState.includes(order.state)) {
    throw new StoreError('conflict', `order ${id} is ${order.state}`);
  }
  Object.assign(
    order,
    pickDefined(patch, ['state', 'lastError']),
    jsonFields(patch, ['printOrderIds', 'flags']),
  );
  order.updatedAt = now();
  return order;
}

/** `enqueue` without copies: the open job of the key, or the one queued now. */
function enqueueJob(state: MemoryState, input: NewJob): { created: boolean; job: Job } {
  const { jobs, nextId, now } = state;
  const existing = find(jobs, (j) => j.key === input.key && j.state !== 'done');
  if (existing) return { created: false, job: existing };
  const at = now();
  const job: Job = {
    id: nextId(),
    kind: input.kind,
    key: input.key,
    payload: jsonCopy(input.payload),
    runAt: new Date(input.runAt),
    attempts: 0,
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    state: 'pending',
    createdAt: at,
    updatedAt: at,
  };
  jobs.set(job.id, job);
  return { created: true, job };
}

function memoryJobs(state: MemoryState): JobQueue {
  const { jobs, now } = state;
  return {
    async enqueue(input) {
      const { created, job } = enqueueJob(state, input);
      return { created, job: copy(job) };
    },
    async get(id) {
      const job = jobs.get(id);
      return job && copy(job);
    },
    async claim(at, leaseMs, kinds) {
      const t = at.getTime();
      const ofKind = (job: Job) => kinds === undefined || kinds.includes(job.kind);
      const leaseExpired = (job: Job) => job.state === 'running' && (job.leaseUntil?.getTime() ?? 0) <= t;
      for (const job of jobs.values()) {
        if (ofKind(job) && leaseExpired(job) && job.attempts >= job.maxAttempts) {
          finish(job, { state: 'dead', lastError: `lease expired on attempt ${job.attempts}` }, now);
        }
      }
      const next = [...jobs.values()]
        .filter(
          (job) =>
            ofKind(job) && ((job.state === 'pending' && job.runAt.getTime() <= t) || leaseExpired(job)),
        )
        .sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || Number(a.id) - Number(b.id))[0];
      if (!next) return undefined;
      Object.assign(next, {
        state: 'running',
        attempts: next.attempts + 1,
        leaseUntil: new Date(t + leaseMs),
        updatedAt: now(),
      });
      return copy(next);
    },
    async renewLease(claim, leaseUntil) {
      const job = claimed(jobs, claim, 'running');
      if (!job) return undefined;
      return copy(Object.assign(job, { leaseUntil: new Date(leaseUntil), updatedAt: now() }));
    },
    async complete(claim) {
      const job = claimed(jobs, claim, 'running');
      return job && copy(finish(job, { state: 'done' }, now));
    },
    async retry(claim, error, runAt) {
      const job = claimed(jobs, claim, 'running');
      if (!job) return undefined;
      const state = job.attempts >= job.maxAttempts ? 'dead' : 'pending';
      return copy(finish(job, { state, lastError: error, runAt: new Date(runAt) }, now));
    },
    async kill(claim, error) {
      const job = claimed(jobs, claim, 'running');
      return job && copy(finish(job, { state: 'dead', lastError: error }, now));
    },
    async list(filter = {}) {
      return listPage(
        jobs,
        filter,
        (j) =>
          (filter.state === undefined || j.state === filter.state) &&
          (filter.kind === undefined || j.kind === filter.kind),
      );
    },
    async resurrect(id) {
      const job = jobs.get(id);
      if (job?.state !== 'dead') return undefined;
      return copy(finish(job, { state: 'pending', attempts: 0, runAt: now() }, now));
    },
    async purgeFinished(finishedBefore, options) {
      return deleteWhere(
        jobs,
        (j) => j.state === 'done' && j.updatedAt.getTime() < finishedBefore.getTime(),
        options,
      );
    },
  };
}

function memoryOutbox(state: MemoryState): Outbox {
  const { outbox, deliveryQueue, nextId, now } = state;
  return {
    async enqueue(input) {
      const existing = find(outbox, (m) => m.dedupeKey === input.dedupeKey);
      if (existing) return { created: false, message: copy(existing) };
      const at = now();
      const message: OutboxMessage = {
        id: nextId(),
        ...pickDefined(input, ['buyerId', 'poId', 'kind', 'dedupeKey', 'url', 'body']),
        attempts: 0,
        nextAttemptAt: new Date(input.nextAttemptAt ?? at),
        state: 'pending',
        createdAt: at,
        updatedAt: at,
      };
      outbox.set(message.id, message);
      deliveryQueue.add(message.id);
      return { created: true, message: copy(message) };
    },
    async get(id) {
      const message = outbox.get(id);
      return message && copy(message);
    },
    async claimDue(at, leaseMs, limit = 1) {
      const t = at.getTime();
      const all = [...outbox.values()];
      const inFlight = (m: OutboxMessage) => m.state === 'pending' || m.state === 'sending';
      const due = all
        .filter(
          (m) =>
            ((m.state === 'pending' && m.nextAttemptAt.getTime() <= t) ||
              (m.state === 'sending' && (m.leaseUntil?.getTime() ?? 0) <= t)) &&
            !all.some((e) => e.poId === m.poId && Number(e.id) < Number(m.id) && inFlight(e)),
        )
        .sort(byDueThenId)
        .slice(0, batchSize(limit));
      const updatedAt = now();
      for (const m of due) {
        Object.assign(m, {
          state: 'sending',
          attempts: m.attempts + 1,
          leaseUntil: new Date(t + leaseMs),
          updatedAt,
        });
      }
      return due.map(copy);
    },
    async markDelivered(claim) {
      const message = claimed(outbox, claim, 'sending');
      return message && copy(finish(message, { state: 'delivered', deliveredAt: now() }, now));
    },
    async markRetry(claim, error, nextAttemptAt) {
      const message = claimed(outbox, claim, 'sending');
      return (
        message &&
        copy(
          finish(
            message,
            { state: 'pending', lastError: error, nextAttemptAt: new Date(nextAttemptAt) },
            now,
          ),
        )
      );
    },
    async markDead(claim, error) {
      const message = claimed(outbox, claim, 'sending');
      return message && copy(finish(message, { state: 'dead', lastError: error }, now));
    },
    async list(filter = {}) {
      return listPage(
        outbox,
        filter,
        (m) =>
          (filter.state === undefined || m.state === filter.state) &&
          (filter.buyerId === undefined || m.buyerId === filter.buyerId) &&
          (filter.poId === undefined || m.poId === filter.poId),
      );
    },
    async resurrect(id) {
      const message = outbox.get(id);
      if (message?.state !== 'dead') return undefined;
      return copy(finish(message, { state: 'pending', attempts: 0, nextAttemptAt: now() }, now));
    },
    async purgeDelivered(deliveredBefore, options) {
      const bound = rowBound(options);
      let purged = 0;
      for (const id of deliveryQueue) {
        if (purged >= bound) break;
        const delivered = outbox.get(id)?.deliveredAt;
        if (delivered === undefined || delivered.getTime() >= deliveredBefore.getTime()) continue;
        deliveryQueue.delete(id);
        purged += 1;
      }
      return purged;
    },
  };
}

function memoryPrintOrders(state: MemoryState): PrintOrderStore {
  const { printOrders, now } = state;
  return {
    async add(input) {
      const key = printOrderKey(input.storefrontId, input.printOrderId);
      const existing = printOrders.get(key);
      if (existing) return { created: false, printOrder: copy(existing) };
      const at = now();
      const printOrder: TrackedPrintOrder = {
        storefrontId: input.storefrontId,
        printOrderId: input.printOrderId,
        poId: input.poId,
        state: 'open',
        shipmentsNotified: [],
        confirmed: false,
        createdAt: at,
        updatedAt: at,
      };
      printOrders.set(key, printOrder);
      return { created: true, printOrder: copy(printOrder) };
    },
    async get(storefrontId, printOrderId) {
      const printOrder = printOrders.get(printOrderKey(storefrontId, printOrderId));
      return printOrder && copy(printOrder);
    },
    async listByPo(poId) {
      return [...printOrders.values()]
        .filter((p) => p.poId === poId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.printOrderId - b.printOrderId)
        .map(copy);
    },
    async update(storefrontId, printOrderId, patch) {
      const printOrder = printOrders.get(printOrderKey(storefrontId, printOrderId));
      if (!printOrder) return undefined;
      Object.assign(
        printOrder,
        pickDefined(patch, ['state', 'lastStatus', 'confirmed', 'lastCheckedAt']),
        jsonFields(patch, ['shipmentsNotified']),
      );
      printOrder.updatedAt = now();
      return copy(printOrder);
    },
    async listOpen(options = {}) {
      return [...printOrders.values()]
        .filter((p) => p.state === 'open')
        .sort(
          (a, b) =>
            (a.lastCheckedAt?.getTime() ?? 0) - (b.lastCheckedAt?.getTime() ?? 0) ||
            a.printOrderId - b.printOrderId ||
            compareText(a.storefrontId, b.storefrontId),
        )
        .slice(0, batchSize(options.limit))
        .map(copy);
    },
    async highestId(storefrontId) {
      let highest: number | undefined;
      for (const p of printOrders.values()) {
        if (p.storefrontId === storefrontId && (highest === undefined || p.printOrderId > highest)) {
          highest = p.printOrderId;
        }
      }
      return highest;
    },
  };
}

/**
 * Invoices by id, with the buyer's last gateway sequence number beside them (invoices are never deleted, so
 * it is their highest): kept in this closure, which is all that reads them.
 */
function memoryInvoices(state: MemoryState): InvoiceStore {
  const { nextId, now } = state;
  const invoices = new Map<string, Invoice>();
  const lastSequence = new Map<string, number>();
  const sorted = (matches: (invoice: Invoice) => boolean) =>
    [...invoices.values()]
      .filter(matches)
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map(copy);
  return {
    async issue(input) {
      const { invoiceId: explicitId, idPrefix, ...fields } = input;
      if (explicitId === undefined && idPrefix === undefined) {
        throw new StoreError('invalid', 'an invoice needs an invoiceId or an idPrefix');
      }
      const dedupeKey = invoiceDedupeKey(input);
      const existing = find(invoices, (i) => i.dedupeKey === dedupeKey);
      if (existing) return { created: false, invoice: copy(existing) };
      const sequence = explicitId === undefined ? (lastSequence.get(input.buyerId) ?? 0) + 1 : undefined;
      const invoiceId = explicitId ?? gatewayInvoiceId(idPrefix!, sequence!);
      if (find(invoices, (i) => i.buyerId === input.buyerId && i.invoiceId === invoiceId)) {
        throw new StoreError('duplicate', `buyer ${input.buyerId} has an invoice ${invoiceId}`);
      }
      const invoice: Invoice = {
        ...pickDefined(fields, [
          'buyerId',
          'poId',
          'storefrontId',
          'printOrderId',
          'scope',
          'purpose',
          'invoiceDate',
          'creditsInvoice',
        ]),
        amounts: jsonCopy(fields.amounts),
        id: nextId(),
        invoiceId,
        ...(sequence !== undefined && { sequence }),
        dedupeKey,
        createdAt: now(),
      };
      if (sequence !== undefined) lastSequence.set(input.buyerId, sequence);
      invoices.set(invoice.id, invoice);
      return { created: true, invoice: copy(invoice) };
    },
    async get(id) {
      const invoice = invoices.get(id);
      return invoice && copy(invoice);
    },
    async listByPo(poId) {
      return sorted((i) => i.poId === poId);
    },
    async listByPrintOrder(storefrontId, printOrderId) {
      return sorted((i) => i.storefrontId === storefrontId && i.printOrderId === printOrderId);
    },
  };
}

function memoryEvents(state: MemoryState): EventInbox {
  const { events, nextId, now } = state;
  return {
    async add(input) {
      const event: InboxEvent = {
        id: nextId(),
        storefrontId: input.storefrontId,
        event: input.event,
        body: jsonCopy(input.body),
        receivedAt: now(),
        processed: false,
      };
      events.set(event.id, event);
      return copy(event);
    },
    async get(id) {
      const event = events.get(id);
      return event && copy(event);
    },
    async listUnprocessed(options = {}) {
      return [...events.values()]
        .filter((e) => !e.processed)
        .sort((a, b) => Number(a.id) - Number(b.id))
        .slice(0, batchSize(options.limit))
        .map(copy);
    },
    async markProcessed(id) {
      const event = events.get(id);
      if (!event) return false;
      event.processed = true;
      return true;
    },
    async purgeProcessed(receivedBefore, options) {
      return deleteWhere(
        events,
        (e) => e.processed && e.receivedAt.getTime() < receivedBefore.getTime(),
        options,
      );
    },
  };
}

function memoryHeartbeat(state: MemoryState): HeartbeatStore {
  const { heartbeats } = state;
  return {
    async beat(name, at) {
      const stored = heartbeats.get(name);
      if (stored === undefined || at.getTime() > stored) heartbeats.set(name, at.getTime());
    },
    async last(name) {
      const stored = heartbeats.get(name);
      return stored === undefined ? undefined : new Date(stored);
    },
  };
}

function memoryStats(state: MemoryState): Store['stats'] {
  const { orders, jobs, outbox } = state;
  return async () => {
    const ordersByState = countBy(ORDER_STATES, orders.values());
    const jobsByState = countBy(JOB_STATES, jobs.values());
    const messages = countBy(['pending', 'sending', 'delivered', 'dead'] as const, outbox.values());
    const oldest = (records: Iterable<{ createdAt: Date }>) =>
      [...records].reduce<Date | undefined>(
        (min, r) => (min === undefined || r.createdAt < min ? r.createdAt : min),
        undefined,
      );
    const oldestUnorderedAt = oldest(
      [...orders.values()].filter((o) => o.state === 'received' || o.state === 'processing'),
    );
    const oldestPendingAt = oldest(
      [...outbox.values()].filter((m) => m.state === 'pending' || m.state === 'sending'),
    );
    return {
      ordersByState,
      ...(oldestUnorderedAt && { oldestUnorderedAt: new Date(oldestUnorderedAt) }),
      jobsByState,
      outbox: {
        pending: messages.pending,
        sending: messages.sending,
        dead: messages.dead,
        ...(oldestPendingAt && { oldestPendingAt: new Date(oldestPendingAt) }),
      },
    };
  };
}

/** Ends a lease (or sets any other outcome) and stamps the change at `now()`. */
function finish<T extends { leaseUntil?: Date; updatedAt: Date }>(
  record: T,
  changes: Partial<T>,
  now: () => Date,
): T {
  delete record.leaseUntil;
  return Object.assign(record, changes, { updatedAt: now() });
}

function claimed<T extends { state: string; attempts: number }>(
  records: Map<string, T>,
  claim: Claim,
  state: T['state'],
): T | undefined {
  const record = records.get(claim.id);
  return record && record.state === state && record.attempts === claim.attempts ? record : undefined;
}

function listPage<T extends { id: string }>(
  records: Map<string, T>,
  request: { limit?: number; cursor?: string },
  matches: (record: T) => boolean,
): Page<T> {
  const size = pageSize(request.limit);
  const below = parseCursor(request.cursor);
  const rows = [...records.values()]
    .filter((r) => (below === undefined || Number(r.id) < below) && matches(r))
    .sort((a, b) => Number(b.id) - Number(a.id))
    .slice(0, size + 1)
    .map(copy);
  return toPage(rows, size);
}

function find<T>(records: Map<string, T>, matches: (record: T) => boolean): T | undefined {
  for (const record of records.values()) if (matches(record)) return record;
  return undefined;
}

function deleteWhere<T>(
  records: Map<string, T>,
  matches: (record: T) => boolean,
  options?: PurgeOptions,
): number {
  const bound = rowBound(options);
  let deleted = 0;
  for (const [key, record] of records) {
    if (deleted >= bound) break;
    if (matches(record)) {
      records.delete(key);
      deleted += 1;
    }
  }
  return deleted;
}

function rowBound(options: PurgeOptions | undefined): number {
  return purgeLimit(options?.limit) ?? Number.POSITIVE_INFINITY;
}

function countBy<S extends string>(
  states: readonly S[],
  records: Iterable<{ state: string }>,
): Record<S, number> {
  const counts = Object.fromEntries(states.map((s) => [s, 0])) as Record<S, number>;
  for (const { state } of records) if (state in counts) counts[state as S] += 1;
  return counts;
}

function byDueThenId(a: OutboxMessage, b: OutboxMessage): number {
  return a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || Number(a.id) - Number(b.id);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Copies the named fields that are set, so absent stays absent and callers keep no alias into the store. */
function pickDefined<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) {
    if (source[key] !== undefined) picked[key] = structuredClone(source[key]);
  }
  return picked;
}

/** Like `pickDefined` for JSON fields, which go through JSON exactly as a TEXT column would take them. */
function jsonFields<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) {
    if (source[key] !== undefined) picked[key] = jsonCopy(source[key]);
  }
  return picked;
}

function jsonCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function copy<T>(record: T): T {
  return structuredClone(record);
}

function userMapKey(buyerId: string, userKey: string): string {
  return JSON.stringify([buyerId, userKey]);
}

function printOrderKey(storefrontId: string, printOrderId: number): string {
  return JSON.stringify([storefrontId, printOrderId]);
}
