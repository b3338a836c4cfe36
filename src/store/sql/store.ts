/**
 * The Store port over any SQL database reached through a small async {@link SqlDriver}: one implementation
 * of the port's semantics for SQLite (better-sqlite3), D1 and PostgreSQL, which differ only in their driver
 * and their dialect (`dialect.ts`); the SQL text is written once (`statements.ts`). Every operation is one
 * statement, or a driver batch that runs atomically, so nothing here needs an interactive transaction (D1
 * has none). One factory per sub-store over a shared {@link SqlContext}.
 *
 * This module is pure: no `node:*`, no I/O of its own.
 */
import { base64ToBytes, bytesToBase64 } from '../../kernel/base64.ts';
import type { Clock } from '../clock.ts';
import { orderRevisionKey } from '../order-revision.ts';
import { batchSize, pageSize, parseCursor, purgeLimit, toPage } from '../paging.ts';
import { type GuessCount, ONE_TIME_TOKEN_SWEEP_GRACE_MS, type Store } from '../port.ts';
import { StoreError } from '../store-error.ts';
import {
  type CartLine,
  DEFAULT_MAX_ATTEMPTS,
  invoiceDedupeKey,
  type NewPurchaseOrder,
  type OrderCommit,
  type OrderCommitResult,
  type OrderState,
  type Page,
  type PurchaseOrderPatch,
  type PurgeOptions,
  type JsonObject,
  type NewAttachment,
  type SessionPatch,
  type TimeWindow,
} from '../types.ts';
import type { CompiledSql, SqlDialect } from './dialect.ts';
import type { SqlDriver, SqlRow, SqlStatement, SqlValue } from './driver.ts';
import {
  date,
  flag,
  jsonOrNull,
  msOrNull,
  toCartLine,
  toEvent,
  toRefusal,
  toOrderNote,
  toReorderItem,
  toInvoice,
  toInvoiceHold,
  toJob,
  toOrder,
  toOutboxMessage,
  toPrintOrder,
  toAttachment,
  toSession,
  toStats,
  toStatusUpdate,
  toUser,
  toWaitingOrder,
} from './rows.ts';
import { jsonInSlices } from './json-in-slices.ts';
import { invoiceLock, orderChunkInsert, type StoreStatements, storeStatements } from './statements.ts';

export interface SqlStoreOptions {
  /**
   * The most UTF-16 units of a purchase order's raw and stored documents together that stay in its row; a
   * PO with more is stored in parts (`purchase_order_chunks`) of at most this many each. For a database
   * whose rows are small (D1) or rewritten whole on every update (SQLite); unlimited by default
   * (PostgreSQL keeps big values out of the row itself).
   */
  maxInlineOrderChars?: number;
  /** For a database that locks rows (PostgreSQL, `postgres-intake.ts`): how a PO's intake takes its lines. */
  intakeRowLocking?: IntakeRowLocking;
}

/**
 * Statements a PO's intake runs where the database locks rows, passed in by that database's store so the
 * Worker's bundle carries none of them.
 */
export interface IntakeRowLocking {
  /** Locks the cart lines of the JSON array `$1` in reference order (POs naming the same lines queue). */
  lockLines: CompiledSql;
  /** The whole intake of a PO without parts or attachments as one statement, one round trip. */
  intakeAtOnce: CompiledSql;
}

/**
 * @example
 * ```ts
 * const store = createSqlStore(myD1Driver, sqliteDialect, systemClock);
 * ```
 */
export function createSqlStore(
  driver: SqlDriver,
  dialect: SqlDialect,
  clock: Clock,
  options: SqlStoreOptions = {},
): Store {
  const context = createSqlContext(driver, storeStatements(dialect), clock);
  return {
    sessions: sqlSessions(context),
    tokens: sqlTokens(context),
    users: sqlUsers(context),
    cart: sqlCart(context),
    orders: sqlOrders(context, {
      maxInlineChars: options.maxInlineOrderChars ?? Number.POSITIVE_INFINITY,
      insertChunks: orderChunkInsert(dialect),
      ...(options.intakeRowLocking !== undefined && { rowLocking: options.intakeRowLocking }),
    }),
    attachments: sqlAttachments(context),
    jobs: sqlJobs(context),
    outbox: sqlOutbox(context),
    printOrders: sqlPrintOrders(context),
    invoices: sqlInvoices(context, invoiceLock(dialect)),
    invoiceHolds: sqlInvoiceHolds(context),
    events: sqlEvents(context),
    refusals: sqlRefusals(context),
    orderNotes: sqlOrderNotes(context),
    reorders: sqlReorders(context),
    statusUpdates: sqlStatusUpdates(context),
    heartbeat: sqlHeartbeat(context),
    guessCounters: sqlGuessCounters(context),
    notifications: sqlNotifications(context),
    async stats() {
      return toStats(await context.rows(context.sql.stats));
    },
    async ping() {
      await context.rows(context.sql.ping);
    },
    async close() {
      await driver.close();
    },
  };
}

/** What every sub-store shares: the driver, the compiled statements, the clock and small run helpers. */
interface SqlContext {
  driver: SqlDriver;
  sql: StoreStatements;
  /** Milliseconds since the epoch. */
  now(): number;
  rows(statement: CompiledSql, ...params: SqlValue[]): Promise<SqlRow[]>;
  first(statement: CompiledSql, ...params: SqlValue[]): Promise<SqlRow | undefined>;
  /** Runs a purge statement (cut-off, row bound) and answers how many rows it deleted. */
  purge(statement: CompiledSql, before: Date, options: PurgeOptions | undefined): Promise<number>;
}

function createSqlContext(driver: SqlDriver, sql: StoreStatements, clock: Clock): SqlContext {
  const rows = async (statement: CompiledSql, ...params: SqlValue[]) =>
    (await driver.run(statement.bind(...params))).rows;
  return {
    driver,
    sql,
    now: () => clock.now().getTime(),
    rows,
    first: async (statement, ...params) => (await rows(statement, ...params))[0],
    purge: async (statement, before, options) =>
      (await driver.run(statement.bind(before.getTime(), purgeLimit(options?.limit) ?? null))).changes,
  };
}

/**
 * Gives the event loop a turn after serialising a big document (its last slice, see jsonInSlices), before
 * writing it: the write (on SQLite, synchronous) takes tens of ms for a 5,000-line PO, and back to back with
 * the serialising they held up every other request. Below BIG_TEXT characters it goes on at once.
 */
function afterBigText(chars: number): Promise<void> {
  if (chars < BIG_TEXT) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
const BIG_TEXT = 256 * 1024;

/** A time window's filter parameters: buyer, from, to (milliseconds; NULL is open) and the cursor. */
function windowParams(window: TimeWindow): SqlValue[] {
  return [
    window.buyerId ?? null,
    window.from?.getTime() ?? null,
    window.to?.getTime() ?? null,
    parseCursor(window.cursor) ?? null,
  ];
}

/** A newest-first listing fetched with one extra row, as a page. */
function pageOf<T extends { id: string }>(
  found: SqlRow[],
  size: number,
  toRecord: (row: SqlRow) => T,
): Page<T> {
  return toPage(found.map(toRecord), size);
}

function sqlSessions({ sql: { sessions: sql }, driver, now, first, purge }: SqlContext): Store['sessions'] {
  /** The patch's parameters in `SESSION_PATCH` order. */
  const patchParams = (id: string, patch: SessionPatch, at: number, ifVersion: number | null) => [
    patch.state ?? null,
    msOrNull(patch.expiresAt),
    patch.pipoToken?.token ?? null,
    msOrNull(patch.pipoToken?.obtainedAt),
    patch.pipoUserRef ?? null,
    at,
    id,
    ifVersion,
    jsonOrNull(patch.extrinsics),
    patch.language ?? null,
  ];
  /** After a patch that applied to nothing: a live session at another version is a conflict. */
  async function refused(id: string, at: number, ifVersion: number | null): Promise<void> {
    if (ifVersion === null) return;
    const current = await first(sql.get, id, at);
    if (current) throw new StoreError('conflict', `session ${id} is at version ${Number(current.version)}`);
  }

  return {
    // The record is built from what is written, not read back (`RETURNING *` and its mapping were a
    // tenth of a punch-in's CPU): every column is the input's or a constant here. JSON fields are parsed
    // from the text written, so the answer holds copies exactly as a later `get` reads them.
    async create(s) {
      const at = now();
      const ociEcho = jsonOrNull(s.ociEcho);
      const extrinsics = jsonOrNull(s.extrinsics);
      const contact = jsonOrNull(s.contact);
      const shipTo = jsonOrNull(s.shipTo);
      await driver.run(
        sql.insert.bind(
          s.id,
          s.buyerId,
          s.storefrontId,
          s.protocol,
          s.operation,
          s.buyerCookie ?? null,
          s.returnUrl,
          s.returnTarget ?? null,
          ociEcho,
          s.buyerUserKey,
          s.pipoUserRef,
          extrinsics,
          contact,
          shipTo,
          s.pipoToken?.token ?? null,
          msOrNull(s.pipoToken?.obtainedAt),
          at,
          s.expiresAt.getTime(),
          s.deploymentMode ?? 'production',
          s.language ?? null,
        ),
      );
      return {
        id: s.id,
        buyerId: s.buyerId,
        storefrontId: s.storefrontId,
        protocol: s.protocol,
        operation: s.operation,
        deploymentMode: s.deploymentMode ?? 'production',
        ...(s.buyerCookie != null && { buyerCookie: s.buyerCookie }),
        returnUrl: s.returnUrl,
        ...(s.returnTarget != null && { returnTarget: s.returnTarget }),
        ...(ociEcho !== null && { ociEcho: JSON.parse(ociEcho) as Record<string, string> }),
        buyerUserKey: s.buyerUserKey,
        pipoUserRef: s.pipoUserRef,
        ...(extrinsics !== null && { extrinsics: JSON.parse(extrinsics) as JsonObject }),
        ...(contact !== null && { contact: JSON.parse(contact) as JsonObject }),
        ...(shipTo !== null && { shipTo: JSON.parse(shipTo) as JsonObject }),
        ...(s.language != null && { language: s.language }),
        expiresAt: new Date(s.expiresAt.getTime()),
        ...(s.pipoToken !== undefined && {
          pipoToken: { token: s.pipoToken.token, obtainedAt: new Date(s.pipoToken.obtainedAt.getTime()) },
        }),
        state: 'open',
        version: 1,
        createdAt: new Date(at),
        updatedAt: new Date(at),
      };
    },
    async get(id) {
      const row = await first(sql.get, id, now());
      return row && toSession(row);
    },
    async update(id, patch, options = {}) {
      const at = now();
      const ifVersion = options.ifVersion ?? null;
      const row = await first(sql.update, ...patchParams(id, patch, at, ifVersion));
      if (row) return toSession(row);
      await refused(id, at, ifVersion);
      return undefined;
    },
    async patch(id, patch, options = {}) {
      const at = now();
      const ifVersion = options.ifVersion ?? null;
      const { changes } = await driver.run(sql.patch.bind(...patchParams(id, patch, at, ifVersion)));
      if (changes > 0) return true;
      await refused(id, at, ifVersion);
      return false;
    },
    async expire(at, options) {
      return purge(sql.expire, at, options);
    },
    async countByBuyerSince(buyerId, since) {
      return Number((await first(sql.countByBuyerSince, buyerId, since.getTime()))?.n ?? 0);
    },
  };
}

function sqlTokens({ sql: { tokens: sql }, driver, now }: SqlContext): Store['tokens'] {
  return {
    async consumeOnce(jti, expiresAt) {
      const at = now();
      if (expiresAt.getTime() <= at) return false;
      const [, inserted] = await driver.batch([
        sql.sweep.bind(at - ONE_TIME_TOKEN_SWEEP_GRACE_MS),
        sql.insert.bind(jti, expiresAt.getTime()),
      ]);
      return inserted!.changes === 1;
    },
  };
}

function sqlUsers({ sql: { users: sql }, now, first }: SqlContext): Store['users'] {
  return {
    async get(buyerId, userKey) {
      const row = await first(sql.get, buyerId, userKey);
      return row && toUser(row);
    },
    async put(u) {
      const row = await first(
        sql.upsert,
        u.buyerId,
        u.userKey,
        u.storefrontId,
        u.pipoUserId,
        u.username,
        u.email,
        u.passwordEnc,
        flag(u.isTemp),
        now(),
      );
      return toUser(row!);
    },
  };
}

function sqlCart({ sql: { cart: sql }, now, rows, first, purge }: SqlContext): Store['cart'] {
  return {
    async add(l) {
      const row = await first(
        sql.insert,
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
        now(),
        l.deploymentMode ?? 'production',
        l.priceUnit ?? 1,
      );
      return toCartLine(row!);
    },
    async get(lineRef) {
      const row = await first(sql.get, lineRef);
      return row && toCartLine(row);
    },
    // One query whatever the count: the references travel as one JSON array parameter, so no database's
    // limit on bound parameters (D1: 100) applies.
    async getMany(lineRefs) {
      if (lineRefs.length === 0) return [];
      const found = new Map<string, CartLine>();
      for (const row of await rows(sql.getMany, JSON.stringify(lineRefs))) {
        const line = toCartLine(row);
        found.set(line.lineRef, line);
      }
      return [...new Set(lineRefs)].flatMap((lineRef) => found.get(lineRef) ?? []);
    },
    async listBySession(sessionId) {
      return (await rows(sql.listBySession, sessionId)).map(toCartLine);
    },
    async countBySession(sessionId) {
      return Number((await first(sql.countBySession, sessionId))?.n ?? 0);
    },
    async update(lineRef, p) {
      const row = await first(
        sql.update,
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
        p.priceUnit ?? null,
      );
      return row && toCartLine(row);
    },
    async markOrdered(lineRefs, poId) {
      const marked = (await rows(sql.markOrdered, poId, now(), JSON.stringify(lineRefs))).map(toCartLine);
      const order = new Map(lineRefs.map((ref, index) => [ref, index] as const).reverse());
      return marked.sort((a, b) => order.get(a.lineRef)! - order.get(b.lineRef)!);
    },
    async purgeStale(updatedBefore, options) {
      return purge(sql.purgeStale, updatedBefore, options);
    },
  };
}

/**
 * A new purchase order as `orders.insert` writes it: the statement's parameters and the row it stores (so
 * the record needs no `RETURNING *` of its document), the row's id still to come from the database.
 */
function orderInsert(
  o: NewPurchaseOrder,
  at: number,
  nonce: string | null,
  maxInlineChars: number,
  documentText = JSON.stringify(o.document),
) {
  const texts = { raw: o.raw, document: documentText };
  const chunks = textChunks(texts, maxInlineChars);
  const row = {
    buyer_id: o.buyerId,
    payload_id: o.payloadId,
    order_id: o.orderId,
    type: o.type,
    order_version: o.orderVersion ?? null,
    revision_key: orderRevisionKey(o),
    state: o.state ?? 'received',
    raw: texts.raw,
    document: texts.document,
    answer_code: o.answer.code,
    answer_text: o.answer.text,
    print_order_ids: '[]',
    flags: JSON.stringify(o.flags ?? []),
    create_attempts: '[]',
    deployment_mode: o.deploymentMode ?? 'production',
    storefront_id: o.storefrontId ?? null,
    created_at: at,
    updated_at: at,
  };
  // Stored in parts, the row keeps empty texts; the record (`row`) has them whole.
  const [raw, document] = chunks.length === 0 ? [row.raw, row.document] : ['', ''];
  const params: SqlValue[] = [
    ...[row.buyer_id, row.payload_id, row.order_id, row.type, row.order_version, row.revision_key],
    ...[row.state, raw, document, row.answer_code, row.answer_text, row.flags, at, nonce, chunks.length],
    ...[row.deployment_mode, row.storefront_id],
  ];
  const duplicate: SqlValue[] = [o.buyerId, o.payloadId, o.orderId, o.type, row.revision_key];
  return { row, params, duplicate, chunks };
}

/** A part of a purchase order's text stored on its own row (see `textChunks`). */
interface TextChunk {
  part: 'raw' | 'document';
  seq: number;
  text: string;
}

/**
 * A PO's raw and stored documents in parts of at most `maxChars` UTF-16 units each, when together they
 * exceed that (else none: both stay in the order's row). A part never ends between the two halves of a
 * surrogate pair, so each is valid text on its own.
 */
function textChunks(texts: { raw: string; document: string }, maxChars: number): TextChunk[] {
  if (texts.raw.length + texts.document.length <= maxChars) return [];
  const chunks: TextChunk[] = [];
  for (const part of ['raw', 'document'] as const) {
    const text = texts[part];
    for (let start = 0, seq = 0; start < text.length; seq++) {
      let end = Math.min(text.length, start + maxChars);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      chunks.push({ part, seq, text: text.slice(start, end) });
      start = end;
    }
  }
  return chunks;
}

/** Parts a statement inserts at most: D1 binds 100 parameters, three of which find the order. */
const CHUNKS_PER_STATEMENT = 96;

/** The statements inserting a new order's parts, found by its buyer, payloadID and intake nonce. */
function chunkInserts(
  insertChunks: OrderParts['insertChunks'],
  o: NewPurchaseOrder,
  nonce: string,
  chunks: readonly TextChunk[],
): SqlStatement[] {
  const statements: SqlStatement[] = [];
  for (let i = 0; i < chunks.length; i += CHUNKS_PER_STATEMENT) {
    const some = chunks.slice(i, i + CHUNKS_PER_STATEMENT);
    statements.push(insertChunks(some).bind(o.buyerId, o.payloadId, nonce, ...some.map((c) => c.text)));
  }
  return statements;
}

/**
 * The base64 characters of an attachment stored in one row: 1,000,000 ASCII bytes stay well within D1's
 * 2,000,000 bytes a row, and a multiple of 4 keeps each part whole base64 on its own.
 */
const ATTACHMENT_CHUNK_CHARS = 1_000_000;

/**
 * The statements storing a new order's attachments, found as its other intake statements find it (by its
 * buyer, payloadID and intake nonce, so a copy of a stored order adds none): a row per attachment, and its
 * bytes as base64 in parts.
 */
function attachmentInserts(
  sql: StoreStatements['attachments'],
  o: NewPurchaseOrder,
  nonce: string,
  attachments: readonly NewAttachment[],
): SqlStatement[] {
  const order = [o.buyerId, o.payloadId, nonce] as const;
  return attachments.flatMap((a) => {
    const data = bytesToBase64(a.content);
    const parts: SqlStatement[] = [];
    for (let start = 0, seq = 0; start < data.length; start += ATTACHMENT_CHUNK_CHARS, seq++) {
      const part = data.slice(start, start + ATTACHMENT_CHUNK_CHARS);
      parts.push(sql.insertChunk.bind(...order, a.position, seq, part));
    }
    const row = [a.position, a.contentId ?? null, a.filename ?? null, a.contentType, a.content.length];
    return [sql.insert.bind(...order, ...row), ...parts];
  });
}

function sqlAttachments({ sql: { attachments: sql }, rows, first }: SqlContext): Store['attachments'] {
  return {
    async list(poId) {
      return (await rows(sql.list, poId)).map(toAttachment);
    },
    async get(poId, position) {
      const row = await first(sql.get, poId, position);
      if (row === undefined) return undefined;
      const data = (await rows(sql.chunks, poId, position)).map((chunk) => String(chunk.data)).join('');
      const content = base64ToBytes(data);
      // Only this store writes the column, always as base64: anything else is a damaged row, not a refusal.
      if (content === undefined) throw new Error(`attachment ${position} of PO ${poId} is stored damaged`);
      return { ...toAttachment(row), content };
    },
  };
}

/** The parameters of `orders.update` and `orders.patch`, in their statements' order. */
function orderPatch(
  id: string,
  p: PurchaseOrderPatch,
  ifState: readonly OrderState[] | undefined,
  at: SqlValue,
): SqlValue[] {
  const states = ifState ? JSON.stringify(ifState) : null;
  return [
    p.state ?? null,
    jsonOrNull(p.printOrderIds),
    jsonOrNull(p.flags),
    p.lastError ?? null,
    at,
    id,
    states,
    jsonOrNull(p.createAttempts),
  ];
}

/** How `orders` stores a PO too big for one row: the most its row keeps, and the statement of its parts. */
interface OrderParts {
  maxInlineChars: number;
  insertChunks: ReturnType<typeof orderChunkInsert>;
  rowLocking?: IntakeRowLocking;
}

/**
 * `orders.commit`: the statements `printOrders.add` and `.update`, `orders.patch`, `outbox.enqueue` and
 * `jobs.complete` run, in one batch, so one commit (one fsync) stands for all of them.
 */
async function commitOrderWrites(
  { sql, driver, now }: SqlContext,
  writes: OrderCommit,
): Promise<OrderCommitResult> {
  const at = now();
  const statements: SqlStatement[] = [];
  for (const p of writes.printOrders ?? []) {
    statements.push(sql.printOrders.insert.bind(p.storefrontId, p.printOrderId, p.poId, at));
    if (p.set === undefined) continue;
    const { set } = p;
    statements.push(
      sql.printOrders.update.bind(
        set.state ?? null,
        set.lastStatus ?? null,
        jsonOrNull(set.shipmentsNotified),
        set.confirmed === undefined ? null : flag(set.confirmed),
        msOrNull(set.lastCheckedAt),
        at,
        p.storefrontId,
        p.printOrderId,
      ),
    );
  }
  const patchesFrom = statements.length;
  for (const { id, patch, ifState } of writes.patches ?? []) {
    statements.push(sql.orders.patch.bind(...orderPatch(id, patch, ifState, at)));
  }
  const messagesFrom = statements.length;
  for (const m of writes.messages ?? []) {
    statements.push(
      sql.outbox.insert.bind(m.buyerId, m.poId, m.kind, m.dedupeKey, m.url, m.body, at),
      sql.outbox.queueInsert.bind(m.nextAttemptAt?.getTime() ?? at, m.dedupeKey),
    );
  }
  const completeAt = statements.length;
  if (writes.completes !== undefined) {
    statements.push(sql.jobs.complete.bind(at, writes.completes.id, writes.completes.attempts));
  }
  if (statements.length === 0) return { patched: [], queued: [], completed: false };
  const results = await driver.batch(statements);
  const answered = (index: number) => (results[index]?.rows.length ?? 0) > 0;
  return {
    patched: (writes.patches ?? []).map((_, i) => answered(patchesFrom + i)),
    queued: (writes.messages ?? []).map((_, i) => answered(messagesFrom + 2 * i + 1)),
    completed: writes.completes !== undefined && answered(completeAt),
  };
}

function sqlOrders(
  context: SqlContext,
  { maxInlineChars, insertChunks, rowLocking }: OrderParts,
): Store['orders'] {
  const {
    sql: { orders: sql, attachments: attachmentSql },
    driver,
    now,
    rows,
    first,
  } = context;
  /** The orders of `found` whose texts are stored in parts, made whole again: one query for all. */
  async function whole(found: SqlRow[]): Promise<SqlRow[]> {
    const ids = found.filter((row) => Number(row.text_chunks ?? 0) > 0).map((row) => String(row.id));
    if (ids.length === 0) return found;
    const parts = new Map<string, { raw: string[]; document: string[] }>();
    for (const chunk of await rows(sql.chunks, JSON.stringify(ids))) {
      const id = String(chunk.po_id);
      const texts = parts.get(id) ?? { raw: [], document: [] };
      texts[chunk.part === 'raw' ? 'raw' : 'document'].push(String(chunk.text));
      parts.set(id, texts);
    }
    return found.map((row) => {
      const texts = parts.get(String(row.id));
      return texts === undefined
        ? row
        : { ...row, raw: texts.raw.join(''), document: texts.document.join('') };
    });
  }
  const order = async (row: SqlRow | undefined) => row && toOrder((await whole([row]))[0]!);
  /** After an update that changed nothing: a conflict when the order exists in another state. */
  async function refusedPatch(id: string, ifState: readonly OrderState[] | undefined): Promise<void> {
    if (ifState === undefined) return;
    const current = await first(sql.state, id);
    if (current) throw new StoreError('conflict', `order ${id} is ${String(current.state)}`);
  }
  return {
    async accept(o) {
      const nonce = crypto.randomUUID();
      const { row, params, duplicate, chunks } = orderInsert(o, now(), nonce, maxInlineChars);
      const [inserted, existing] = await driver.batch([
        sql.insert.bind(...params),
        sql.findDuplicate.bind(...duplicate),
        ...chunkInserts(insertChunks, o, nonce, chunks),
      ]);
      const id = inserted!.rows[0]?.id;
      if (id === undefined) return { created: false, order: (await order(existing!.rows[0]!))! };
      return { created: true, order: toOrder({ ...row, id }) };
    },
    // One batch, one commit. The nonce ties the batch's later statements to the order its insert created:
    // when a copy was stored before, the insert does nothing and neither do they. Where the database locks
    // rows (PostgreSQL), a PO without parts or attachments is one statement instead, and a batch locks the
    // lines in reference order before it marks them (`IntakeRowLocking`).
    async acceptWithLines({ order: o, lineRefs, job, attachments = [] }) {
      const at = now();
      const nonce = crypto.randomUUID();
      const documentText = await jsonInSlices(o.document);
      const { row, params, duplicate, chunks } = orderInsert(o, at, nonce, maxInlineChars, documentText);
      const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      await afterBigText(row.document.length + row.raw.length);
      const jobParams = [job.kind, job.keyPrefix, job.runAt.getTime(), maxAttempts, at];
      const refs = JSON.stringify(lineRefs);
      const [inserted] =
        rowLocking !== undefined && chunks.length === 0 && attachments.length === 0
          ? [await driver.run(rowLocking.intakeAtOnce.bind(...params, ...jobParams, refs))]
          : await driver.batch([
              sql.insert.bind(...params),
              sql.queueIntake.bind(...jobParams, o.buyerId, o.payloadId, nonce),
              ...chunkInserts(insertChunks, o, nonce, chunks),
              ...attachmentInserts(attachmentSql, o, nonce, attachments),
              // Last, so the lines' locks are held only until the commit: POs naming them wait that long.
              ...(rowLocking === undefined ? [] : [rowLocking.lockLines.bind(refs)]),
              sql.markIntakeLines.bind(at, refs, o.buyerId, o.payloadId, nonce),
            ]);
      const id = inserted!.rows[0]?.id;
      if (id !== undefined) return { created: true, id: String(id) };
      // Only a copy reads the stored order back; stored orders are never deleted, so it is there.
      return { created: false, order: (await order(await first(sql.findDuplicate, ...duplicate)))! };
    },
    async get(id) {
      return order(await first(sql.get, id));
    },
    async getByPayloadId(buyerId, payloadId) {
      return order(await first(sql.getByPayloadId, buyerId, payloadId));
    },
    async getByOrderId(buyerId, orderId) {
      return order(await first(sql.getNew, buyerId, orderId));
    },
    async findEarlier(buyerId, payloadId, orderId) {
      const found = (await whole(await rows(sql.findEarlier, buyerId, payloadId, orderId))).map(toOrder);
      const byPayloadId = found.find((o) => o.payloadId === payloadId);
      const newOfOrderId = found.find((o) => o.orderId === orderId && o.type === 'new');
      return {
        ...(byPayloadId !== undefined && { byPayloadId }),
        ...(newOfOrderId !== undefined && { newOfOrderId }),
      };
    },
    async list(filter = {}) {
      const size = pageSize(filter.limit);
      const below = parseCursor(filter.cursor) ?? null;
      const found = await rows(sql.list, filter.state ?? null, filter.buyerId ?? null, below, size + 1);
      return pageOf(await whole(found.slice(0, size + 1)), size, toOrder);
    },
    async listReceived(window) {
      const size = pageSize(window.limit);
      const found = await rows(sql.listReceived, ...windowParams(window), size + 1);
      return pageOf(await whole(found), size, toOrder);
    },
    async listIds(state, limit) {
      return (await rows(sql.listIds, state, pageSize(limit))).map((row) => String(row.id));
    },
    async listIdsWithoutLiveJob(state, jobKeyPrefix, limit) {
      const found = await rows(sql.listIdsWithoutLiveJob, state, jobKeyPrefix, pageSize(limit));
      return found.map((row) => String(row.id));
    },
    async commit(writes) {
      return commitOrderWrites(context, writes);
    },
    async listWaiting(limit) {
      return (await rows(sql.listWaiting, pageSize(limit))).map(toWaitingOrder);
    },
    async update(id, p, options = {}) {
      const row = await first(sql.update, ...orderPatch(id, p, options.ifState, now()));
      if (row) return order(row);
      await refusedPatch(id, options.ifState);
      return undefined;
    },
    async patch(id, p, options = {}) {
      if (await first(sql.patch, ...orderPatch(id, p, options.ifState, now()))) return true;
      await refusedPatch(id, options.ifState);
      return false;
    },
  };
}

/**
 * How often `jobs.enqueue` runs its batch when the open job of its key finished between the insert and the
 * read. Each further try needs yet another job of the key to be queued and finished in that instant, so one
 * more is all it ever takes; the bound only keeps a loop from being endless.
 */
const ENQUEUE_TRIES = 5;

function sqlJobs({ sql: { jobs: sql }, driver, now, rows, first, purge }: SqlContext): Store['jobs'] {
  return {
    async enqueue(j) {
      // At READ COMMITTED (PostgreSQL) the read after the insert sees a newer snapshot than the insert did:
      // the open job that kept the insert out may have been completed by another instance in between, and
      // then neither statement answers a row (a reconcile job finishing while another instance's round
      // schedules the next one). The key is free by then, so the batch runs again: it queues the job, or
      // reads the open one queued meanwhile. SQLite and D1 run a batch alone, so there it answers at once.
      for (let attempt = 1; ; attempt++) {
        const [inserted, open] = await driver.batch([
          sql.insert.bind(
            j.kind,
            j.key,
            JSON.stringify(j.payload),
            j.runAt.getTime(),
            j.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
            now(),
          ),
          sql.findOpen.bind(j.key),
        ]);
        const created = inserted!.rows[0];
        const row = created ?? open!.rows[0];
        if (row !== undefined) return { created: created !== undefined, job: toJob(row) };
        if (attempt >= ENQUEUE_TRIES) {
          throw new StoreError(
            'unavailable',
            `job ${j.key}: its open job kept finishing while this one was queued; try again`,
          );
        }
      }
    },
    async get(id) {
      const row = await first(sql.get, id);
      return row && toJob(row);
    },
    async claim(at, leaseMs, kinds) {
      const t = at.getTime();
      const kindList = kinds ? JSON.stringify(kinds) : null;
      const stamp = now();
      const [, claimed] = await driver.batch([
        sql.buryExhausted.bind(stamp, t, kindList),
        sql.claim.bind(t + leaseMs, stamp, t, kindList),
      ]);
      const row = claimed!.rows[0];
      return row && toJob(row);
    },
    async renewLease(claim, leaseUntil) {
      const row = await first(sql.renewLease, leaseUntil.getTime(), now(), claim.id, claim.attempts);
      return row && toJob(row);
    },
    async complete(claim) {
      const row = await first(sql.complete, now(), claim.id, claim.attempts);
      return row && toJob(row);
    },
    async retry(claim, error, runAt) {
      const row = await first(sql.retry, runAt.getTime(), error, now(), claim.id, claim.attempts);
      return row && toJob(row);
    },
    async kill(claim, error) {
      const row = await first(sql.kill, error, now(), claim.id, claim.attempts);
      return row && toJob(row);
    },
    async list(filter = {}) {
      const size = pageSize(filter.limit);
      const below = parseCursor(filter.cursor) ?? null;
      const found = await rows(sql.list, filter.state ?? null, filter.kind ?? null, below, size + 1);
      return pageOf(found, size, toJob);
    },
    async resurrect(id) {
      const row = await first(sql.resurrect, now(), id);
      return row && toJob(row);
    },
    async purgeFinished(finishedBefore, options) {
      return purge(sql.purgeFinished, finishedBefore, options);
    },
  };
}

function sqlOutbox({ sql: { outbox: sql }, driver, now, rows, first, purge }: SqlContext): Store['outbox'] {
  return {
    async enqueue(m) {
      const at = now();
      const [, queued, stored] = await driver.batch([
        sql.insert.bind(m.buyerId, m.poId, m.kind, m.dedupeKey, m.url, m.body, at),
        sql.queueInsert.bind(m.nextAttemptAt?.getTime() ?? at, m.dedupeKey),
        sql.findByDedupeKey.bind(m.dedupeKey),
      ]);
      return { created: queued!.rows.length > 0, message: toOutboxMessage(stored!.rows[0]!) };
    },
    async get(id) {
      const row = await first(sql.get, id);
      return row && toOutboxMessage(row);
    },
    async claimDue(at, leaseMs, limit = 1) {
      const t = at.getTime();
      const claimed = await rows(sql.claimDue, t + leaseMs, now(), t, batchSize(limit));
      return claimed
        .map(toOutboxMessage)
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || Number(a.id) - Number(b.id));
    },
    async markDelivered(claim) {
      const [delivered] = await driver.batch([
        sql.delivered.bind(now(), claim.id, claim.attempts),
        sql.recordDelivery.bind(claim.id, claim.attempts),
      ]);
      const row = delivered!.rows[0];
      return row && toOutboxMessage(row);
    },
    async markRetry(claim, error, nextAttemptAt) {
      const row = await first(sql.retry, nextAttemptAt.getTime(), error, now(), claim.id, claim.attempts);
      return row && toOutboxMessage(row);
    },
    async markDead(claim, error) {
      const row = await first(sql.dead, error, now(), claim.id, claim.attempts);
      return row && toOutboxMessage(row);
    },
    async list(filter = {}) {
      const size = pageSize(filter.limit);
      const below = parseCursor(filter.cursor) ?? null;
      const { state = null, buyerId = null, poId = null } = filter;
      const queued = state === 'delivered' ? null : state;
      const delivered = state === 'delivered' ? state : null;
      const found = await rows(sql.list, queued, buyerId, poId, below, size + 1, delivered);
      return pageOf(found, size, toOutboxMessage);
    },
    async resurrect(id) {
      const row = await first(sql.resurrect, now(), id);
      return row && toOutboxMessage(row);
    },
    async findByPayloadId(buyerId, payloadId) {
      const row = await first(sql.findByPayloadId, buyerId, payloadId);
      return row && toOutboxMessage(row);
    },
    async purgeDelivered(deliveredBefore, options) {
      return purge(sql.purgeDelivered, deliveredBefore, options);
    },
  };
}

function sqlPrintOrders({
  sql: { printOrders: sql },
  driver,
  now,
  rows,
  first,
}: SqlContext): Store['printOrders'] {
  return {
    async add(p) {
      const [inserted, existing] = await driver.batch([
        sql.insert.bind(p.storefrontId, p.printOrderId, p.poId, now()),
        sql.get.bind(p.storefrontId, p.printOrderId),
      ]);
      const created = inserted!.rows[0];
      return { created: created !== undefined, printOrder: toPrintOrder(created ?? existing!.rows[0]!) };
    },
    async get(storefrontId, printOrderId) {
      const row = await first(sql.get, storefrontId, printOrderId);
      return row && toPrintOrder(row);
    },
    async listByPo(poId) {
      return (await rows(sql.listByPo, poId)).map(toPrintOrder);
    },
    async update(storefrontId, printOrderId, p) {
      const row = await first(
        sql.update,
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
      return (await rows(sql.listOpen, batchSize(options.limit))).map(toPrintOrder);
    },
    async highestId(storefrontId) {
      const highest = (await first(sql.highestId, storefrontId))?.highest;
      return highest === null || highest === undefined ? undefined : Number(highest);
    },
  };
}

/**
 * How often `invoices.issue` tries a gateway-numbered insert that hit a unique key: the number is computed
 * from what is stored, and a concurrent transaction could have taken it (PostgreSQL's issues for one buyer
 * take turns behind the dialect's `exclusive` lock, so this is a guard). A clash with an invoiceID the buyer
 * already has under another dedupe key stays a `duplicate` after the last try.
 */
const INVOICE_NUMBER_TRIES = 3;

function sqlInvoices(
  { sql: { invoices: sql }, driver, now, rows, first }: SqlContext,
  lock: CompiledSql | undefined,
): Store['invoices'] {
  /** One try: the insert (its number taken in the statement) and the stored record, in one batch. */
  async function insert(params: SqlValue[], numbered: boolean, dedupeKey: string, buyerId: string) {
    const turn = numbered && lock ? [lock.bind(buyerId)] : [];
    const results = await driver.batch([
      ...turn,
      (numbered ? sql.insertNumbered : sql.insertExplicit).bind(...params),
      sql.findByDedupeKey.bind(dedupeKey),
    ]);
    const [inserted, stored] = results.slice(turn.length);
    return { created: inserted!.rows.length > 0, invoice: toInvoice(stored!.rows[0]!) };
  }
  return {
    async issue(i) {
      if (i.invoiceId === undefined && i.idPrefix === undefined) {
        throw new StoreError('invalid', 'an invoice needs an invoiceId or an idPrefix');
      }
      const dedupeKey = invoiceDedupeKey(i);
      const numbered = i.invoiceId === undefined;
      const params: SqlValue[] = [
        ...[i.buyerId, i.poId, i.storefrontId, i.printOrderId, i.scope, i.purpose, i.invoiceDate.getTime()],
        ...[JSON.stringify(i.amounts), i.creditsInvoice ?? null, dedupeKey, now()],
        numbered ? i.idPrefix! : i.invoiceId!,
      ];
      for (let attempt = 1; ; attempt++) {
        try {
          return await insert(params, numbered, dedupeKey, i.buyerId);
        } catch (error) {
          const clash = error instanceof StoreError && error.code === 'duplicate';
          if (!(clash && numbered && attempt < INVOICE_NUMBER_TRIES)) throw error;
        }
      }
    },
    async get(id) {
      const row = await first(sql.get, id);
      return row && toInvoice(row);
    },
    async getByInvoiceId(buyerId, invoiceId) {
      const row = await first(sql.getByInvoiceId, buyerId, invoiceId);
      return row && toInvoice(row);
    },
    async listByPo(poId) {
      return (await rows(sql.listByPo, poId)).map(toInvoice);
    },
    async listByPrintOrder(storefrontId, printOrderId) {
      return (await rows(sql.listByPrintOrder, storefrontId, printOrderId)).map(toInvoice);
    },
    async listDated(window) {
      const size = pageSize(window.limit);
      return pageOf(await rows(sql.listDated, ...windowParams(window), size + 1), size, toInvoice);
    },
  };
}

function sqlInvoiceHolds({
  sql: { invoiceHolds: sql },
  driver,
  now,
  rows,
  first,
}: SqlContext): Store['invoiceHolds'] {
  return {
    async hold(h) {
      const [, found] = await driver.batch([
        sql.hold.bind(
          ...[h.buyerId, h.poId, h.storefrontId, h.printOrderId, h.scope, h.reason],
          ...[JSON.stringify(h.amounts), now()],
        ),
        sql.find.bind(h.storefrontId, h.printOrderId, h.scope),
      ]);
      return toInvoiceHold(found!.rows[0]!);
    },
    async get(id) {
      const row = await first(sql.get, id);
      return row && toInvoiceHold(row);
    },
    async listByPo(poId) {
      return (await rows(sql.listByPo, poId)).map(toInvoiceHold);
    },
    async settle(id, settlement, from) {
      const row = await first(
        sql.settle,
        id,
        settlement.state,
        settlement.state === 'invoiced' ? (settlement.prices ?? null) : null,
        settlement.note ?? null,
        settlement.state === 'invoiced' ? settlement.invoiceId : null,
        now(),
        JSON.stringify(from),
      );
      return row && toInvoiceHold(row);
    },
  };
}

function sqlEvents({ sql: { events: sql }, driver, now, rows, first, purge }: SqlContext): Store['events'] {
  return {
    async add(e) {
      const row = await first(sql.insert, e.storefrontId, e.event, JSON.stringify(e.body), now());
      return toEvent(row!);
    },
    async get(id) {
      const row = await first(sql.get, id);
      return row && toEvent(row);
    },
    async listUnprocessed(options = {}) {
      return (await rows(sql.listUnprocessed, batchSize(options.limit))).map(toEvent);
    },
    async markProcessed(id) {
      return (await driver.run(sql.markProcessed.bind(id))).changes > 0;
    },
    async purgeProcessed(receivedBefore, options) {
      return purge(sql.purgeProcessed, receivedBefore, options);
    },
  };
}

function sqlRefusals({
  sql: { refusals: sql },
  driver,
  now,
  rows,
  first,
  purge,
}: SqlContext): Store['refusals'] {
  return {
    async add(r, caps) {
      const [inserted] = await driver.batch([
        sql.insert.bind(
          r.buyerId ?? null,
          r.channel,
          r.documentType,
          r.payloadId ?? null,
          r.clientAddress,
          r.status,
          r.answer,
          r.document,
          r.documentBytes,
          now(),
        ),
        sql.trimAddress.bind(r.clientAddress, capOf(caps.perAddress)),
        sql.trimTotal.bind(capOf(caps.total)),
      ]);
      return toRefusal(inserted!.rows[0]!);
    },
    async list(filter = {}) {
      const size = pageSize(filter.limit);
      const below = parseCursor(filter.cursor) ?? null;
      const found = await rows(
        sql.list,
        filter.buyerId ?? null,
        msOrNull(filter.from),
        msOrNull(filter.to),
        below,
        size + 1,
      );
      return pageOf(found, size, toRefusal);
    },
    async countByBuyerSince(buyerId, since) {
      return Number((await first(sql.countByBuyerSince, buyerId, since.getTime()))?.n ?? 0);
    },
    async purgeBefore(before, options) {
      return purge(sql.purgeOld, before, options);
    },
  };
}

/** A cap is a count of entries kept: at least one, the one just added. */
function capOf(cap: number): number {
  if (!(Number.isInteger(cap) && cap >= 1))
    throw new StoreError('invalid', `a refusals cap must be 1 or more, got ${cap}`);
  return cap;
}

function sqlOrderNotes({ sql: { orderNotes: sql }, now, rows, first }: SqlContext): Store['orderNotes'] {
  return {
    async add(n) {
      return toOrderNote((await first(sql.insert, n.poId, n.text, n.author, now()))!);
    },
    async listByPo(poId) {
      return (await rows(sql.listByPo, poId)).map(toOrderNote);
    },
  };
}

function sqlReorders({ sql: { reorders: sql }, driver, now, rows, first }: SqlContext): Store['reorders'] {
  return {
    async record(items) {
      if (items.length === 0) return;
      const at = now();
      await driver.batch(
        items.map((i) =>
          sql.record.bind(
            ...[i.buyerId, i.partId, i.storefrontId, i.userRef, i.designId, i.productId, i.sku, i.name],
            ...[i.thumbnailUrl, i.quantity, i.unitPrice, i.priceUnit ?? 1, i.currency, i.uom, i.poId],
            ...[i.orderedAt.getTime(), at],
          ),
        ),
      );
    },
    async get(buyerId, partId) {
      const row = await first(sql.get, buyerId, partId);
      return row && toReorderItem(row);
    },
    async listByBuyer(buyerId, limit) {
      return (await rows(sql.listByBuyer, buyerId, pageSize(limit))).map(toReorderItem);
    },
  };
}

function sqlStatusUpdates({
  sql: { statusUpdates: sql },
  driver,
  now,
  rows,
}: SqlContext): Store['statusUpdates'] {
  return {
    async record(u) {
      const [inserted, found] = await driver.batch([
        sql.insert.bind(
          ...[u.buyerId, u.poId, u.payloadId, u.documentId ?? null, u.invoiceRecordId ?? null],
          ...[u.status.code, u.status.text, u.status.message, u.invoiceStatus ?? null],
          ...[u.partialAmount === undefined ? null : JSON.stringify(u.partialAmount), u.comments, now()],
        ),
        sql.find.bind(u.buyerId, u.payloadId),
      ]);
      return { created: inserted!.rows.length > 0, update: toStatusUpdate(found!.rows[0]!) };
    },
    async listByPo(poId) {
      return (await rows(sql.listByPo, poId)).map(toStatusUpdate);
    },
    async latestInvoiceStatuses(buyerId, receivedFrom) {
      const latest = new Map<string, string>();
      // Oldest first: a later status of the same invoice replaces an earlier one.
      for (const row of await rows(sql.invoiceStatuses, buyerId, receivedFrom.getTime())) {
        latest.set(String(row.invoice_record_id), String(row.invoice_status));
      }
      return latest;
    },
  };
}

function sqlHeartbeat({ sql: { heartbeat: sql }, driver, first }: SqlContext): Store['heartbeat'] {
  return {
    async beat(name, at) {
      await driver.run(sql.beat.bind(name, at.getTime()));
    },
    async last(name) {
      const row = await first(sql.last, name);
      return row && date(row.at);
    },
  };
}

function toGuessCount(row: SqlRow): GuessCount {
  return {
    failures: Number(row.failures),
    windowStart: Number(row.window_start),
    lockedUntil: Number(row.locked_until),
    lockMs: Number(row.lock_ms),
  };
}

function sqlGuessCounters({
  sql: { guessCounters: sql },
  driver,
  first,
  purge,
}: SqlContext): Store['guessCounters'] {
  return {
    async fail(key, count, at, limit) {
      const ms = at.getTime();
      await driver.run(sql.open.bind(key, ms));
      const row = await first(sql.fail, key, ms, count, limit.windowMs, limit.maxFailures, limit.maxLockMs);
      return toGuessCount(row!);
    },
    async get(key) {
      const row = await first(sql.get, key);
      return row && toGuessCount(row);
    },
    async forget(key) {
      await driver.run(sql.forget.bind(key));
    },
    purgeIdle(before, options) {
      return purge(sql.purgeIdle, before, options);
    },
  };
}

function sqlNotifications({
  sql: { notifications: sql },
  driver,
  rows,
  first,
}: SqlContext): Store['notifications'] {
  return {
    async announcedAmong(channel, keys) {
      if (keys.length === 0) return [];
      const found = await rows(sql.announcedAmong, channel, JSON.stringify(keys));
      return found.map((row) => String(row.announcement_key));
    },
    async record(channel, messageId, keys, at) {
      if (keys.length === 0) return;
      await driver.run(sql.record.bind(channel, JSON.stringify(keys), messageId, at.getTime()));
    },
    async messagesSince(channel, since) {
      const row = await first(sql.messagesSince, channel, since.getTime());
      return Number(row?.count ?? 0);
    },
  };
}
