/**
 * The Store port over any SQL database reached through a small async {@link SqlDriver}: one implementation
 * of the port's semantics for SQLite (better-sqlite3), D1 and PostgreSQL, which differ only in their driver
 * and their SQL text. Every operation is one statement, or a driver batch that runs atomically, so nothing
 * here needs an interactive transaction (D1 has none).
 *
 * This module is pure: no `node:*`, no I/O of its own.
 */
import type { Clock } from './clock.ts';
import { orderRevisionKey } from './order-revision.ts';
import { batchSize, pageSize, parseCursor, purgeLimit, toPage } from './paging.ts';
import { ONE_TIME_TOKEN_SWEEP_GRACE_MS, type Store } from './port.ts';
import type { sqliteStatements } from './sqlite-sql.ts';
import { StoreError } from './store-error.ts';
import {
  type CartLine,
  type CartLineState,
  type CxmlAnswer,
  DEFAULT_MAX_ATTEMPTS,
  type InboxEvent,
  JOB_STATES,
  type Job,
  type JobState,
  type JsonObject,
  type JsonValue,
  ORDER_STATES,
  type OrderState,
  type OrderType,
  type OutboxKind,
  type OutboxMessage,
  type OutboxState,
  type Page,
  type PrintOrderState,
  type Protocol,
  type PunchoutSession,
  type PurgeOptions,
  type PurchaseOrder,
  type SessionOperation,
  type SessionState,
  type StoreStats,
  type TrackedPrintOrder,
  type UserMapping,
} from './types.ts';

export type SqlValue = string | number | null;
export type SqlRow = Record<string, unknown>;

export interface SqlStatement {
  sql: string;
  params: readonly SqlValue[];
}

export interface SqlResult {
  /** Rows of a SELECT or a `RETURNING` clause; empty otherwise. */
  rows: SqlRow[];
  /** Rows inserted, updated or deleted. */
  changes: number;
}

/**
 * What an adapter provides. Drivers translate their own failures into `StoreError` (`duplicate` for a
 * unique-key violation, `unavailable` for lock, I/O and connection trouble).
 */
export interface SqlDriver {
  run(statement: SqlStatement): Promise<SqlResult>;
  /** Runs the statements in order as one transaction: all take effect or none. */
  batch(statements: readonly SqlStatement[]): Promise<SqlResult[]>;
  close(): Promise<void>;
}

/** The statement names every SQL dialect module provides, with the parameter order of the SQLite text. */
export type StoreStatements = { readonly [Name in keyof typeof sqliteStatements]: string };

/**
 * @example
 * ```ts
 * const store = createSqlStore(myD1Driver, sqliteStatements, systemClock);
 * ```
 */
export function createSqlStore(driver: SqlDriver, sql: StoreStatements, clock: Clock): Store {
  const now = () => clock.now().getTime();
  const statement = (text: string, ...params: SqlValue[]): SqlStatement => ({ sql: text, params });
  const rows = async (text: string, ...params: SqlValue[]) =>
    (await driver.run(statement(text, ...params))).rows;
  const first = async (text: string, ...params: SqlValue[]) => (await rows(text, ...params))[0];
  /** Runs a purge statement (cut-off, row bound) and answers how many rows it deleted. */
  const purge = async (text: string, before: Date, options: PurgeOptions | undefined) =>
    (await driver.run(statement(text, before.getTime(), purgeLimit(options?.limit) ?? null))).changes;
  const pageOf = <T extends { id: string }>(
    found: SqlRow[],
    size: number,
    toRecord: (row: SqlRow) => T,
  ): Page<T> => toPage(found.map(toRecord), size);

  return {
    sessions: {
      async create(s) {
        const at = now();
        const row = await first(
          sql.sessionInsert,
          s.id,
          s.buyerId,
          s.storefrontId,
          s.protocol,
          s.operation,
          s.buyerCookie ?? null,
          s.returnUrl,
          s.returnTarget ?? null,
          jsonOrNull(s.ociEcho),
          s.buyerUserKey,
          s.pipoUserRef,
          jsonOrNull(s.extrinsics),
          jsonOrNull(s.contact),
          jsonOrNull(s.shipTo),
          s.pipoToken?.token ?? null,
          msOrNull(s.pipoToken?.obtainedAt),
          at,
          at,
          s.expiresAt.getTime(),
        );
        return toSession(row!);
      },
      async get(id) {
        const row = await first(sql.sessionGet, id, now());
        return row && toSession(row);
      },
      async update(id, patch, options = {}) {
        const at = now();
        const ifVersion = options.ifVersion ?? null;
        const row = await first(
          sql.sessionUpdate,
          patch.state ?? null,
          msOrNull(patch.expiresAt),
          patch.pipoToken?.token ?? null,
          msOrNull(patch.pipoToken?.obtainedAt),
          patch.pipoUserRef ?? null,
          at,
          id,
          at,
          ifVersion,
          ifVersion,
        );
        if (row) return toSession(row);
        const current = await first(sql.sessionGet, id, at);
        if (current && ifVersion !== null) {
          throw new StoreError('conflict', `session ${id} is at version ${Number(current.version)}`);
        }
        return undefined;
      },
      async expire(at, options) {
        return purge(sql.sessionsExpire, at, options);
      },
    },

    tokens: {
      async consumeOnce(jti, expiresAt) {
        const at = now();
        if (expiresAt.getTime() <= at) return false;
        const [, inserted] = await driver.batch([
          statement(sql.tokensSweep, at - ONE_TIME_TOKEN_SWEEP_GRACE_MS),
          statement(sql.tokenInsert, jti, expiresAt.getTime()),
        ]);
        return inserted!.changes === 1;
      },
    },

    users: {
      async get(buyerId, userKey) {
        const row = await first(sql.userGet, buyerId, userKey);
        return row && toUser(row);
      },
      async put(u) {
        const at = now();
        const row = await first(
          sql.userUpsert,
          u.buyerId,
          u.userKey,
          u.storefrontId,
          u.pipoUserId,
          u.username,
          u.email,
          u.passwordEnc,
          flag(u.isTemp),
          at,
          at,
        );
        return toUser(row!);
      },
    },

    cart: {
      async add(l) {
        const at = now();
        const row = await first(
          sql.cartInsert,
          l.lineRef,
          l.sessionId,
          l.buyerId,
          l.storefrontId,
          l.userRef,
          l.designId,
          l.productId,
          l.sku,
          l.name,
          l.quantity,
          l.unitPrice,
          l.currency,
          l.uom,
          l.unspsc ?? null,
          l.leadTimeDays ?? null,
          at,
          at,
          l.sessionId,
        );
        return toCartLine(row!);
      },
      async get(lineRef) {
        const row = await first(sql.cartGet, lineRef);
        return row && toCartLine(row);
      },
      async listBySession(sessionId) {
        return (await rows(sql.cartListBySession, sessionId)).map(toCartLine);
      },
      async update(lineRef, p) {
        const row = await first(
          sql.cartUpdate,
          p.sessionId ?? null,
          p.designId ?? null,
          p.name ?? null,
          p.quantity ?? null,
          p.unitPrice ?? null,
          p.currency ?? null,
          p.position ?? null,
          p.state ?? null,
          now(),
          lineRef,
        );
        return row && toCartLine(row);
      },
      async markOrdered(lineRefs, poId) {
        const marked = (await rows(sql.cartMarkOrdered, poId, now(), JSON.stringify(lineRefs))).map(
          toCartLine,
        );
        const order = new Map(lineRefs.map((ref, index) => [ref, index] as const).reverse());
        return marked.sort((a, b) => order.get(a.lineRef)! - order.get(b.lineRef)!);
      },
      async purgeStale(updatedBefore, options) {
        return purge(sql.cartPurgeStale, updatedBefore, options);
      },
    },

    orders: {
      async accept(o) {
        const at = now();
        const [inserted, existing] = await driver.batch([
          statement(
            sql.orderInsert,
            o.buyerId,
            o.payloadId,
            o.orderId,
            o.type,
            o.orderVersion ?? null,
            orderRevisionKey(o),
            o.state ?? 'received',
            o.raw,
            JSON.stringify(o.document),
            o.answer.code,
            o.answer.text,
            JSON.stringify(o.flags ?? []),
            at,
            at,
          ),
          statement(
            sql.orderFindDuplicate,
            o.buyerId,
            o.payloadId,
            o.orderId,
            o.type,
            orderRevisionKey(o),
            o.payloadId,
          ),
        ]);
        const created = inserted!.rows[0];
        return { created: created !== undefined, order: toOrder(created ?? existing!.rows[0]!) };
      },
      async get(id) {
        const row = await first(sql.orderGet, id);
        return row && toOrder(row);
      },
      async getByPayloadId(buyerId, payloadId) {
        const row = await first(sql.orderGetByPayloadId, buyerId, payloadId);
        return row && toOrder(row);
      },
      async getByOrderId(buyerId, orderId) {
        const row = await first(sql.orderGetNew, buyerId, orderId);
        return row && toOrder(row);
      },
      async list(filter = {}) {
        const size = pageSize(filter.limit);
        const below = parseCursor(filter.cursor) ?? null;
        const state = filter.state ?? null;
        const buyerId = filter.buyerId ?? null;
        const found = await rows(sql.orderList, state, state, buyerId, buyerId, below, below, size + 1);
        return pageOf(found, size, toOrder);
      },
      async update(id, p, options = {}) {
        const ifState = options.ifState ? JSON.stringify(options.ifState) : null;
        const row = await first(
          sql.orderUpdate,
          p.state ?? null,
          jsonOrNull(p.printOrderIds),
          jsonOrNull(p.flags),
          p.lastError ?? null,
          now(),
          id,
          ifState,
          ifState,
        );
        if (row) return toOrder(row);
        const current = await first(sql.orderGet, id);
        if (current && ifState !== null)
          throw new StoreError('conflict', `order ${id} is ${String(current.state)}`);
        return undefined;
      },
    },

    jobs: {
      async enqueue(j) {
        const at = now();
        const [inserted, open] = await driver.batch([
          statement(
            sql.jobInsert,
            j.kind,
            j.key,
            JSON.stringify(j.payload),
            j.runAt.getTime(),
            j.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
            at,
            at,
          ),
          statement(sql.jobFindOpen, j.key),
        ]);
        const created = inserted!.rows[0];
        return { created: created !== undefined, job: toJob(created ?? open!.rows[0]!) };
      },
      async get(id) {
        const row = await first(sql.jobGet, id);
        return row && toJob(row);
      },
      async claim(at, leaseMs, kinds) {
        const t = at.getTime();
        const kindList = kinds ? JSON.stringify(kinds) : null;
        const stamp = now();
        const [, claimed] = await driver.batch([
          statement(sql.jobBuryExhausted, stamp, t, kindList, kindList),
          statement(sql.jobClaim, t + leaseMs, stamp, t, t, kindList, kindList),
        ]);
        const row = claimed!.rows[0];
        return row && toJob(row);
      },
      async renewLease(claim, leaseUntil) {
        const row = await first(sql.jobRenewLease, leaseUntil.getTime(), now(), claim.id, claim.attempts);
        return row && toJob(row);
      },
      async complete(claim) {
        const row = await first(sql.jobComplete, now(), claim.id, claim.attempts);
        return row && toJob(row);
      },
      async retry(claim, error, runAt) {
        const row = await first(sql.jobRetry, runAt.getTime(), error, now(), claim.id, claim.attempts);
        return row && toJob(row);
      },
      async kill(claim, error) {
        const row = await first(sql.jobKill, error, now(), claim.id, claim.attempts);
        return row && toJob(row);
      },
      async list(filter = {}) {
        const size = pageSize(filter.limit);
        const below = parseCursor(filter.cursor) ?? null;
        const state = filter.state ?? null;
        const kind = filter.kind ?? null;
        const found = await rows(sql.jobList, state, state, kind, kind, below, below, size + 1);
        return pageOf(found, size, toJob);
      },
      async resurrect(id) {
        const at = now();
        const row = await first(sql.jobResurrect, at, at, id);
        return row && toJob(row);
      },
      async purgeFinished(finishedBefore, options) {
        return purge(sql.jobPurgeFinished, finishedBefore, options);
      },
    },

    outbox: {
      async enqueue(m) {
        const at = now();
        const [, queued, stored] = await driver.batch([
          statement(sql.outboxInsert, m.buyerId, m.poId, m.kind, m.dedupeKey, m.url, m.body, at),
          statement(sql.outboxQueueInsert, m.nextAttemptAt?.getTime() ?? at, m.dedupeKey),
          statement(sql.outboxFindByDedupeKey, m.dedupeKey),
        ]);
        return { created: queued!.rows.length > 0, message: toOutboxMessage(stored!.rows[0]!) };
      },
      async get(id) {
        const row = await first(sql.outboxGet, id);
        return row && toOutboxMessage(row);
      },
      async claimDue(at, leaseMs, limit = 1) {
        const t = at.getTime();
        const claimed = await rows(sql.outboxClaimDue, t + leaseMs, now(), t, t, batchSize(limit));
        return claimed
          .map(toOutboxMessage)
          .sort(
            (a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || Number(a.id) - Number(b.id),
          );
      },
      async markDelivered(claim) {
        const at = now();
        const [delivered] = await driver.batch([
          statement(sql.outboxDelivered, at, at, claim.id, claim.attempts),
          statement(sql.outboxRecordDelivery, claim.id, claim.attempts),
        ]);
        const row = delivered!.rows[0];
        return row && toOutboxMessage(row);
      },
      async markRetry(claim, error, nextAttemptAt) {
        const row = await first(
          sql.outboxRetry,
          nextAttemptAt.getTime(),
          error,
          now(),
          claim.id,
          claim.attempts,
        );
        return row && toOutboxMessage(row);
      },
      async markDead(claim, error) {
        const row = await first(sql.outboxDead, error, now(), claim.id, claim.attempts);
        return row && toOutboxMessage(row);
      },
      async list(filter = {}) {
        const size = pageSize(filter.limit);
        const below = parseCursor(filter.cursor) ?? null;
        const state = filter.state ?? null;
        const buyerId = filter.buyerId ?? null;
        const poId = filter.poId ?? null;
        const found = await rows(
          sql.outboxList,
          state,
          state,
          buyerId,
          buyerId,
          poId,
          poId,
          below,
          below,
          size + 1,
        );
        return pageOf(found, size, toOutboxMessage);
      },
      async resurrect(id) {
        const at = now();
        const row = await first(sql.outboxResurrect, at, at, id);
        return row && toOutboxMessage(row);
      },
      async purgeDelivered(deliveredBefore, options) {
        return purge(sql.outboxPurgeDelivered, deliveredBefore, options);
      },
    },

    printOrders: {
      async add(p) {
        const at = now();
        const [inserted, existing] = await driver.batch([
          statement(sql.printOrderInsert, p.storefrontId, p.printOrderId, p.poId, at, at),
          statement(sql.printOrderGet, p.storefrontId, p.printOrderId),
        ]);
        const created = inserted!.rows[0];
        return { created: created !== undefined, printOrder: toPrintOrder(created ?? existing!.rows[0]!) };
      },
      async get(storefrontId, printOrderId) {
        const row = await first(sql.printOrderGet, storefrontId, printOrderId);
        return row && toPrintOrder(row);
      },
      async listByPo(poId) {
        return (await rows(sql.printOrderListByPo, poId)).map(toPrintOrder);
      },
      async update(storefrontId, printOrderId, p) {
        const row = await first(
          sql.printOrderUpdate,
          p.state ?? null,
          p.lastStatus ?? null,
          jsonOrNull(p.shipmentsNotified),
          p.confirmed === undefined ? null : flag(p.confirmed),
          msOrNull(p.lastCheckedAt),
          now(),
          storefrontId,
          printOrderId,
        );
        return row && toPrintOrder(row);
      },
      async listOpen(options = {}) {
        return (await rows(sql.printOrderListOpen, batchSize(options.limit))).map(toPrintOrder);
      },
      async highestId(storefrontId) {
        const highest = (await first(sql.printOrderHighestId, storefrontId))?.highest;
        return highest === null || highest === undefined ? undefined : Number(highest);
      },
    },

    events: {
      async add(e) {
        const row = await first(sql.eventInsert, e.storefrontId, e.event, JSON.stringify(e.body), now());
        return toEvent(row!);
      },
      async get(id) {
        const row = await first(sql.eventGet, id);
        return row && toEvent(row);
      },
      async listUnprocessed(options = {}) {
        return (await rows(sql.eventListUnprocessed, batchSize(options.limit))).map(toEvent);
      },
      async markProcessed(id) {
        return (await driver.run(statement(sql.eventMarkProcessed, id))).changes > 0;
      },
      async purgeProcessed(receivedBefore, options) {
        return purge(sql.eventPurgeProcessed, receivedBefore, options);
      },
    },

    heartbeat: {
      async beat(name, at) {
        await driver.run(statement(sql.heartbeatBeat, name, at.getTime()));
      },
      async last(name) {
        const row = await first(sql.heartbeatLast, name);
        return row && date(row.at);
      },
    },

    async stats() {
      return toStats(await rows(sql.stats));
    },

    async ping() {
      await rows(sql.ping);
    },
    async close() {
      await driver.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Rows → records. Numbers go through Number() because PostgreSQL drivers hand BIGINT back as text.

function toSession(r: SqlRow): PunchoutSession {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    storefrontId: text(r.storefront_id),
    protocol: text(r.protocol) as Protocol,
    operation: text(r.operation) as SessionOperation,
    ...optional('buyerCookie', r.buyer_cookie, text),
    returnUrl: text(r.return_url),
    ...optional('returnTarget', r.return_target, text),
    ...optional('ociEcho', r.oci_echo, json<Record<string, string>>),
    buyerUserKey: text(r.buyer_user_key),
    pipoUserRef: text(r.pipo_user_ref),
    ...optional('extrinsics', r.extrinsics, json<JsonObject>),
    ...optional('contact', r.contact, json<JsonObject>),
    ...optional('shipTo', r.ship_to, json<JsonObject>),
    expiresAt: date(r.expires_at),
    ...(r.pipo_token != null && {
      pipoToken: { token: text(r.pipo_token), obtainedAt: date(r.pipo_token_obtained_at) },
    }),
    state: text(r.state) as SessionState,
    version: Number(r.version),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

function toUser(r: SqlRow): UserMapping {
  return {
    buyerId: text(r.buyer_id),
    userKey: text(r.user_key),
    storefrontId: text(r.storefront_id),
    pipoUserId: Number(r.pipo_user_id),
    username: text(r.username),
    email: text(r.email),
    passwordEnc: text(r.password_enc),
    isTemp: bool(r.is_temp),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

function toCartLine(r: SqlRow): CartLine {
  return {
    lineRef: text(r.line_ref),
    sessionId: text(r.session_id),
    buyerId: text(r.buyer_id),
    storefrontId: text(r.storefront_id),
    userRef: text(r.user_ref),
    designId: Number(r.design_id),
    productId: Number(r.product_id),
    sku: text(r.sku),
    name: text(r.name),
    quantity: Number(r.quantity),
    unitPrice: text(r.unit_price),
    currency: text(r.currency),
    uom: text(r.uom),
    ...optional('unspsc', r.unspsc, text),
    ...optional('leadTimeDays', r.lead_time_days, Number),
    position: Number(r.position),
    state: text(r.state) as CartLineState,
    ...optional('poId', r.po_id, text),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

function toOrder(r: SqlRow): PurchaseOrder {
  const answer: CxmlAnswer = { code: Number(r.answer_code), text: text(r.answer_text) };
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    payloadId: text(r.payload_id),
    orderId: text(r.order_id),
    type: text(r.type) as OrderType,
    ...optional('orderVersion', r.order_version, text),
    state: text(r.state) as OrderState,
    raw: text(r.raw),
    document: json<JsonValue>(r.document),
    answer,
    printOrderIds: json<number[]>(r.print_order_ids),
    flags: json<string[]>(r.flags),
    ...optional('lastError', r.last_error, text),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

function toJob(r: SqlRow): Job {
  return {
    id: text(r.id),
    kind: text(r.kind),
    key: text(r.key),
    payload: json<JsonValue>(r.payload),
    runAt: date(r.run_at),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    state: text(r.state) as JobState,
    ...optional('leaseUntil', r.lease_until, date),
    ...optional('lastError', r.last_error, text),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

function toOutboxMessage(r: SqlRow): OutboxMessage {
  return {
    id: text(r.id),
    buyerId: text(r.buyer_id),
    poId: text(r.po_id),
    kind: text(r.kind) as OutboxKind,
    dedupeKey: text(r.dedupe_key),
    url: text(r.url),
    body: text(r.body),
    attempts: Number(r.attempts),
    nextAttemptAt: date(r.next_attempt_at),
    state: text(r.state) as OutboxState,
    ...optional('leaseUntil', r.lease_until, date),
    ...optional('lastError', r.last_error, text),
    ...optional('deliveredAt', r.delivered_at, date),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

function toPrintOrder(r: SqlRow): TrackedPrintOrder {
  return {
    storefrontId: text(r.storefront_id),
    printOrderId: Number(r.print_order_id),
    poId: text(r.po_id),
    state: text(r.state) as PrintOrderState,
    ...optional('lastStatus', r.last_status, text),
    shipmentsNotified: json<number[]>(r.shipments_notified),
    confirmed: bool(r.confirmed),
    ...optional('lastCheckedAt', r.last_checked_at, date),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

function toEvent(r: SqlRow): InboxEvent {
  return {
    id: text(r.id),
    storefrontId: text(r.storefront_id),
    event: text(r.event),
    body: json<JsonValue>(r.body),
    receivedAt: date(r.received_at),
    processed: bool(r.processed),
  };
}

/** The rows of the `stats` statement: (kind, state, count) per state, (kind, oldest) per oldest instant. */
function toStats(found: SqlRow[]): StoreStats {
  const counts = <S extends string>(kind: string, states: readonly S[]): Record<S, number> => {
    const byState = Object.fromEntries(states.map((s) => [s, 0])) as Record<S, number>;
    for (const r of found) {
      if (r.kind === kind && text(r.state) in byState) byState[text(r.state) as S] = Number(r.count);
    }
    return byState;
  };
  const oldest = <K extends string>(kind: string, key: K) =>
    optional(key, found.find((r) => r.kind === kind)?.oldest, date);
  const messages = counts('message', ['pending', 'sending', 'dead'] as const);
  return {
    ordersByState: counts('order', ORDER_STATES),
    ...oldest('unordered', 'oldestUnorderedAt'),
    jobsByState: counts('job', JOB_STATES),
    outbox: { ...messages, ...oldest('undelivered', 'oldestPendingAt') },
  };
}

/** `{ [key]: convert(value) }`, or `{}` for a NULL column, so absent fields stay absent. */
function optional<K extends string, V>(
  key: K,
  value: unknown,
  convert: (value: unknown) => V,
): { [P in K]?: V } {
  return value === null || value === undefined ? {} : ({ [key]: convert(value) } as { [P in K]?: V });
}

function text(value: unknown): string {
  return String(value);
}

function date(value: unknown): Date {
  return new Date(Number(value));
}

function bool(value: unknown): boolean {
  return value === true || Number(value) === 1;
}

function json<T>(value: unknown): T {
  return JSON.parse(String(value)) as T;
}

// Records → parameters.

function flag(value: boolean): number {
  return value ? 1 : 0;
}

function msOrNull(value: Date | undefined): number | null {
  return value === undefined ? null : value.getTime();
}

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
