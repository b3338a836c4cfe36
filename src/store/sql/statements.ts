/**
 * Every statement the SQL store runs, written once for SQLite, D1 and PostgreSQL and grouped by sub-store.
 * The few real differences come from the dialect (`dialect.ts`): JSON array expansion, store-id matching
 * and `SKIP LOCKED`; placeholders are `$n` (reused where a value is needed twice), compiled to the
 * database's spelling once, when the store is created.
 *
 * Conventions that keep the text portable: instants are integer milliseconds since the epoch, booleans
 * 0/1, JSON is TEXT, every statement that hands back a record does so with `RETURNING *` (SQLite 3.35+, D1,
 * PostgreSQL; an outbox queue row adds its document's fields). A list parameter (job kinds, line references,
 * states) travels as one JSON array text. Patches use `COALESCE($n, column)`: a NULL parameter leaves the
 * column as it is. An optional filter is `($n IS NULL OR column = $n)`. Where PostgreSQL cannot infer a
 * parameter's type (`$n IS NULL`, the SELECT list of an INSERT … SELECT) a cast sits right on the
 * placeholder (`$n::text`); the SQLite spelling drops it.
 *
 * Adding a column: one migration in `migrations.ts`, the column in the INSERT/UPDATE here, and its field in
 * the row mapper (`rows.ts`).
 */
import type { CompiledSql, SqlDialect } from './dialect.ts';
import { documentPayloadId } from './migrations.ts';

/** A purge's row bound `$n`: NULL deletes every due row (the largest 64-bit integer is no bound). */
const upTo = (n: number) => `LIMIT COALESCE($${n}, 9223372036854775807)`;

/** `$n` (a JSON array text) is NULL, no filter, or holds `column`. */
const inList = (d: SqlDialect, column: string, n: number) =>
  `($${n}::text IS NULL OR ${column} IN (${d.jsonArrayElements(n)}))`;

/** A term of a listing's WHERE that applies only when `$n` (of PostgreSQL type `cast`) is given, not NULL. */
type WhenGiven = (n: number, cast: 'text' | 'bigint', term: string) => string;

/**
 * A listing whose filters are each optional. One text with `($n IS NULL OR column = $n)` would serve every
 * combination, but neither SQLite nor PostgreSQL's generic plan can use an index through it: every call
 * would read the table in key order, at a cost growing with all that is stored (the background round's
 * look for POs left `processing` would read every PO, a PO's job every buyer document). So each
 * combination of filters given gets a text of its own (see `compileListing`): the given filters' terms,
 * and `$n IS NULL` for the others, true and bound alike, so every variant takes the same values.
 */
interface Listing {
  readonly listing: (whenGiven: WhenGiven) => string;
}

const listing = (text: (whenGiven: WhenGiven) => string): Listing => ({ listing: text });

/** `column = $n`, when `$n` is given. */
const equals = (whenGiven: WhenGiven, column: string, n: number) => whenGiven(n, 'text', `${column} = $${n}`);

/**
 * The document fields of the queue row an outbox UPDATE returns, so it hands back a whole message (SQLite
 * lets `RETURNING` read other tables only through subqueries).
 */
const WITH_DOCUMENT = ['buyer_id', 'kind', 'dedupe_key', 'url', 'body', 'created_at']
  .map((column) => `(SELECT ${column} FROM buyer_documents d WHERE d.id = outbox_queue.id) AS ${column}`)
  .join(', ');

/** A session patch, `$1`…`$9`: absent fields (NULL) keep their value; only live, with `$8` only at that version. */
const SESSION_PATCH = `UPDATE sessions SET state = COALESCE($1, state), expires_at = COALESCE($2, expires_at),
      pipo_token = COALESCE($3, pipo_token), pipo_token_obtained_at = COALESCE($4, pipo_token_obtained_at),
      pipo_user_ref = COALESCE($5, pipo_user_ref), extrinsics = COALESCE($9, extrinsics),
      language = COALESCE($10, language),
      version = version + 1, updated_at = $6
    WHERE id = $7 AND expires_at > $6 AND ($8::integer IS NULL OR version = $8)`;

const sessionSql = {
  insert: `INSERT INTO sessions (id, buyer_id, storefront_id, protocol, operation, buyer_cookie, return_url,
      return_target, oci_echo, buyer_user_key, pipo_user_ref, extrinsics, contact, ship_to, state, pipo_token,
      pipo_token_obtained_at, version, created_at, updated_at, expires_at, deployment_mode, language)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'open', $15, $16, 1, $17, $17, $18, $19, $20)`,
  get: 'SELECT * FROM sessions WHERE id = $1 AND expires_at > $2',
  update: `${SESSION_PATCH} RETURNING *`,
  /** `update` without the row back: whether it applied is the statement's change count. */
  patch: SESSION_PATCH,
  expire: `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= $1 ${upTo(2)})`,
  countByBuyerSince: 'SELECT COUNT(*) AS n FROM sessions WHERE buyer_id = $1 AND created_at >= $2',
};

const tokenSql = {
  sweep: 'DELETE FROM one_time_tokens WHERE expires_at <= $1',
  insert: 'INSERT INTO one_time_tokens (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING',
};

const userSql = {
  get: 'SELECT * FROM users WHERE buyer_id = $1 AND user_key = $2',
  upsert: `INSERT INTO users (buyer_id, user_key, storefront_id, pipo_user_id, username, email, password_enc,
      is_temp, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
    ON CONFLICT (buyer_id, user_key) DO UPDATE SET storefront_id = excluded.storefront_id,
      pipo_user_id = excluded.pipo_user_id, username = excluded.username, email = excluded.email,
      password_enc = excluded.password_enc, is_temp = excluded.is_temp, updated_at = excluded.updated_at
    RETURNING *`,
};

const cartSql = (d: SqlDialect) => ({
  insert: `INSERT INTO cart_lines (line_ref, session_id, buyer_id, storefront_id, user_ref, design_id, product_id,
      sku, name, quantity, unit_price, currency, uom, unspsc, lead_time_days, position, state, created_at, updated_at,
      deployment_mode, price_unit)
    SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::bigint, $7::bigint, $8::text, $9::text,
      $10::float8, $11::text, $12::text, $13::text, $14::text, $15::integer,
      COALESCE(MAX(position), 0) + 1, 'cart', $16::bigint, $16, $17::text, $18::integer
    FROM cart_lines WHERE session_id = $2 RETURNING *`,
  get: 'SELECT * FROM cart_lines WHERE line_ref = $1',
  listBySession: `SELECT * FROM cart_lines WHERE session_id = $1 AND state IN ('cart', 'ordered')
    ORDER BY position, created_at, line_ref`,
  countBySession: `SELECT COUNT(*) AS n FROM cart_lines WHERE session_id = $1 AND state IN ('cart', 'ordered')`,
  update: `UPDATE cart_lines SET session_id = COALESCE($1, session_id), design_id = COALESCE($2, design_id),
      name = COALESCE($3, name), quantity = COALESCE($4, quantity), unit_price = COALESCE($5, unit_price),
      currency = COALESCE($6, currency), position = COALESCE($7, position), state = COALESCE($8, state),
      updated_at = $9, price_unit = COALESCE($11, price_unit)
    WHERE line_ref = $10 RETURNING *`,
  getMany: `SELECT * FROM cart_lines WHERE line_ref IN (${d.jsonArrayElements(1)})`,
  markOrdered: `UPDATE cart_lines SET state = 'ordered', po_id = $1, updated_at = $2
    WHERE line_ref IN (${d.jsonArrayElements(3)}) RETURNING *`,
  purgeStale: `DELETE FROM cart_lines WHERE line_ref IN (SELECT line_ref FROM cart_lines
    WHERE state <> 'ordered' AND updated_at < $1 ${upTo(2)})`,
});

/**
 * The purchase order `orders.acceptWithLines` has just inserted in its batch: buyer `$b`, payloadID `$b+1`
 * (the unique key's index) and the batch's own nonce `$b+2`, which an earlier copy of the document lacks.
 */
const intakeOrder = (b: number) => `buyer_id = $${b} AND payload_id = $${b + 1} AND intake_nonce = $${b + 2}`;

const orderSql = (d: SqlDialect) => ({
  /** Only the id comes back: the caller holds the rest (the document need not travel twice). */
  insert: `INSERT INTO purchase_orders (buyer_id, payload_id, order_id, type, order_version, revision_key,
      state, raw, document, answer_code, answer_text, print_order_ids, flags, created_at, updated_at, intake_nonce,
      text_chunks, deployment_mode, storefront_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '[]', $12, $13, $13, $14, $15, $16, $17)
    ON CONFLICT DO NOTHING RETURNING id`,
  /** The intake's job, the same row `jobs.insert` writes, keyed and addressed by the new order's id. */
  queueIntake: `INSERT INTO jobs (kind, key, payload, run_at, attempts, max_attempts, state, created_at, updated_at)
    SELECT $1::text, $2::text || id, '{"poId":"' || id || '"}', $3::bigint, 0, $4::integer, 'pending', $5::bigint, $5
    FROM purchase_orders WHERE ${intakeOrder(6)} ON CONFLICT DO NOTHING`,
  /** The intake's cart lines, marked as `cart.markOrdered` does, by the new order only. */
  markIntakeLines: `UPDATE cart_lines
    SET state = 'ordered', po_id = (SELECT CAST(id AS TEXT) FROM purchase_orders WHERE ${intakeOrder(3)}),
      updated_at = $1
    WHERE line_ref IN (${d.jsonArrayElements(2)}) AND EXISTS (SELECT 1 FROM purchase_orders WHERE ${intakeOrder(3)})`,
  findDuplicate: `SELECT * FROM purchase_orders
    WHERE buyer_id = $1 AND (payload_id = $2 OR (order_id = $3 AND type = $4 AND revision_key = $5))
    ORDER BY CASE WHEN payload_id = $2 THEN 0 ELSE 1 END, id LIMIT 1`,
  get: `SELECT * FROM purchase_orders WHERE id = ${d.storeId(1)}`,
  getByPayloadId: 'SELECT * FROM purchase_orders WHERE buyer_id = $1 AND payload_id = $2',
  // The whole UNIQUE (buyer_id, order_id, type, revision_key) key, so the lookup is that index's (a `new`
  // order's revision key is always '').
  getNew: `SELECT * FROM purchase_orders
    WHERE buyer_id = $1 AND order_id = $2 AND type = 'new' AND revision_key = ''`,
  findEarlier: `SELECT * FROM purchase_orders WHERE buyer_id = $1
    AND (payload_id = $2 OR (order_id = $3 AND type = 'new' AND revision_key = ''))`,
  list: listing(
    (given) => `SELECT * FROM purchase_orders
    WHERE ${equals(given, 'state', 1)} AND ${equals(given, 'buyer_id', 2)} AND ${given(3, 'bigint', 'id < $3')}
    ORDER BY id DESC LIMIT $4`,
  ),
  /** Oldest first after the cursor `$4`, received within `$2`…`$3` (NULL: open), for exports. */
  listReceived: listing(
    (given) => `SELECT * FROM purchase_orders
    WHERE ${equals(given, 'buyer_id', 1)} AND ${given(2, 'bigint', 'created_at >= $2')}
      AND ${given(3, 'bigint', 'created_at <= $3')} AND ${given(4, 'bigint', 'id > $4')}
    ORDER BY id LIMIT $5`,
  ),
  /** `list` by state answering ids only (the purchase_orders_state index holds both). */
  listIds: 'SELECT id FROM purchase_orders WHERE state = $1 ORDER BY id DESC LIMIT $2',
  /** `listIds` without the orders that have an open job under key `$2` + their id (the jobs_open_key index). */
  // `state <> 'done'` spelled as the jobs_open_key index's own condition, so SQLite uses that partial index:
  // with `NOT IN ('done', 'dead')` it cannot tell the index applies and read every job for each PO.
  listIdsWithoutLiveJob: `SELECT id FROM purchase_orders p WHERE state = $1 AND NOT EXISTS (
      SELECT 1 FROM jobs j WHERE j.key = $2::text || CAST(p.id AS TEXT) AND j.state <> 'done' AND j.state <> 'dead')
    ORDER BY id DESC LIMIT $3`,
  /** The facts of the orders waiting for an operator, never their documents (read every round). */
  listWaiting: `SELECT id, buyer_id, order_id, flags, last_error, updated_at FROM purchase_orders
    WHERE state = 'needs_operator' ORDER BY id DESC LIMIT $1`,
  update: `UPDATE purchase_orders SET state = COALESCE($1, state), print_order_ids = COALESCE($2, print_order_ids),
      flags = COALESCE($3, flags), last_error = COALESCE($4, last_error), updated_at = $5,
      create_attempts = COALESCE($8, create_attempts)
    WHERE id = ${d.storeId(6)} AND ${inList(d, 'state', 7)} RETURNING *`,
  /** `update` answering only the id: the document (megabytes for a big PO) is not read back. */
  patch: `UPDATE purchase_orders SET state = COALESCE($1, state), print_order_ids = COALESCE($2, print_order_ids),
      flags = COALESCE($3, flags), last_error = COALESCE($4, last_error), updated_at = $5,
      create_attempts = COALESCE($8, create_attempts)
    WHERE id = ${d.storeId(6)} AND ${inList(d, 'state', 7)} RETURNING id`,
  state: `SELECT state FROM purchase_orders WHERE id = ${d.storeId(1)}`,
  /** The parts of the orders `$1` (a JSON array of ids) whose texts are stored in parts, in order. */
  chunks: `SELECT po_id, part, seq, text FROM purchase_order_chunks WHERE po_id IN (${d.jsonArrayElements(1)})
    ORDER BY po_id, part, seq`,
});

const attachmentSql = {
  /** One attachment of the order `orders.acceptWithLines`' batch has just inserted (found by `$1`–`$3`). */
  insert: `INSERT INTO purchase_order_attachments (po_id, position, content_id, filename, content_type, size)
    SELECT CAST(id AS TEXT), $4::integer, $5::text, $6::text, $7::text, $8::bigint
    FROM purchase_orders WHERE ${intakeOrder(1)}`,
  /** One part of an attachment's base64 text, for the same order. */
  insertChunk: `INSERT INTO purchase_order_attachment_chunks (po_id, position, seq, data)
    SELECT CAST(id AS TEXT), $4::integer, $5::integer, $6::text
    FROM purchase_orders WHERE ${intakeOrder(1)}`,
  list: `SELECT po_id, position, content_id, filename, content_type, size FROM purchase_order_attachments
    WHERE po_id = $1 ORDER BY position`,
  get: `SELECT po_id, position, content_id, filename, content_type, size FROM purchase_order_attachments
    WHERE po_id = $1 AND position = $2`,
  chunks: `SELECT data FROM purchase_order_attachment_chunks WHERE po_id = $1 AND position = $2 ORDER BY seq`,
};

/** Due: pending and due, or running with a lease that ran out (its worker is presumed dead). */
const JOB_DUE = `((state = 'pending' AND run_at <= $3) OR (state = 'running' AND lease_until <= $3))`;

const jobSql = (d: SqlDialect) => ({
  insert: `INSERT INTO jobs (kind, key, payload, run_at, attempts, max_attempts, state, created_at, updated_at)
    VALUES ($1, $2, $3, $4, 0, $5, 'pending', $6, $6) ON CONFLICT DO NOTHING RETURNING *`,
  findOpen: `SELECT * FROM jobs WHERE key = $1 AND state <> 'done'`,
  get: `SELECT * FROM jobs WHERE id = ${d.storeId(1)}`,
  buryExhausted: `UPDATE jobs SET state = 'dead', lease_until = NULL,
      last_error = 'lease expired on attempt ' || attempts, updated_at = $1
    WHERE id IN (SELECT id FROM jobs
      WHERE state = 'running' AND lease_until <= $2 AND attempts >= max_attempts AND ${inList(d, 'kind', 3)}
      ${d.skipLocked()})`,
  claim: `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = $1, updated_at = $2
    WHERE id = (SELECT id FROM jobs WHERE ${JOB_DUE} AND ${inList(d, 'kind', 4)}
      ORDER BY run_at, id LIMIT 1${d.skipLocked()})
    RETURNING *`,
  renewLease: `UPDATE jobs SET lease_until = $1, updated_at = $2
    WHERE id = ${d.storeId(3)} AND state = 'running' AND attempts = $4 RETURNING *`,
  complete: `UPDATE jobs SET state = 'done', lease_until = NULL, updated_at = $1
    WHERE id = ${d.storeId(2)} AND state = 'running' AND attempts = $3 RETURNING *`,
  retry: `UPDATE jobs SET state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END,
      run_at = $1, last_error = $2, lease_until = NULL, updated_at = $3
    WHERE id = ${d.storeId(4)} AND state = 'running' AND attempts = $5 RETURNING *`,
  kill: `UPDATE jobs SET state = 'dead', last_error = $1, lease_until = NULL, updated_at = $2
    WHERE id = ${d.storeId(3)} AND state = 'running' AND attempts = $4 RETURNING *`,
  list: listing(
    (given) => `SELECT * FROM jobs WHERE ${equals(given, 'state', 1)} AND ${equals(given, 'kind', 2)}
      AND ${given(3, 'bigint', 'id < $3')}
    ORDER BY id DESC LIMIT $4`,
  ),
  resurrect: `UPDATE jobs SET state = 'pending', attempts = 0, run_at = $1, lease_until = NULL, updated_at = $1
    WHERE id = ${d.storeId(2)} AND state = 'dead' RETURNING *`,
  purgeFinished: `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs
    WHERE state = 'done' AND updated_at < $1 ${upTo(2)})`,
});

// A message is a buyer document plus its delivery-queue row (see migration 3). Enqueue inserts the document
// unless its dedupe key exists, then the queue row only for a document that never had one: an undelivered
// document without a queue row is the one just inserted (purged rows were delivered ones).
const outboxSql = (d: SqlDialect) => ({
  insert: `INSERT INTO buyer_documents (buyer_id, po_id, kind, dedupe_key, url, body, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (dedupe_key) DO NOTHING`,
  queueInsert: `INSERT INTO outbox_queue (id, po_id, state, attempts, next_attempt_at, updated_at)
    SELECT d.id, d.po_id, 'pending', 0, $1::bigint, d.created_at FROM buyer_documents d
    WHERE d.dedupe_key = $2 AND d.delivered_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM outbox_queue q WHERE q.id = d.id)
    RETURNING id`,
  findByDedupeKey: 'SELECT * FROM outbox_messages WHERE dedupe_key = $1',
  get: `SELECT * FROM outbox_messages WHERE id = ${d.storeId(1)}`,
  claimDue: `UPDATE outbox_queue SET state = 'sending', attempts = attempts + 1, lease_until = $1,
      updated_at = $2
    WHERE id IN (
      SELECT o.id FROM outbox_queue o
      WHERE ((o.state = 'pending' AND o.next_attempt_at <= $3) OR (o.state = 'sending' AND o.lease_until <= $3))
        AND NOT EXISTS (SELECT 1 FROM outbox_queue e
          WHERE e.po_id = o.po_id AND e.id < o.id AND e.state IN ('pending', 'sending'))
      ORDER BY o.next_attempt_at, o.id LIMIT $4${d.skipLocked('o')})
    RETURNING *, ${WITH_DOCUMENT}`,
  delivered: `UPDATE outbox_queue SET state = 'delivered', delivered_at = $1, lease_until = NULL, updated_at = $1
    WHERE id = ${d.storeId(2)} AND state = 'sending' AND attempts = $3 RETURNING *, ${WITH_DOCUMENT}`,
  /** Copies the delivery record into the document, in the batch right after the claim's `delivered`. */
  recordDelivery: `UPDATE buyer_documents
    SET (attempts, next_attempt_at, last_error, delivered_at, updated_at) = (SELECT q.attempts,
      q.next_attempt_at, q.last_error, q.delivered_at, q.updated_at FROM outbox_queue q WHERE q.id = buyer_documents.id)
    WHERE id = ${d.storeId(1)} AND delivered_at IS NULL AND EXISTS (SELECT 1 FROM outbox_queue q
      WHERE q.id = buyer_documents.id AND q.state = 'delivered' AND q.attempts = $2)`,
  retry: `UPDATE outbox_queue SET state = 'pending', next_attempt_at = $1, last_error = $2, lease_until = NULL,
      updated_at = $3
    WHERE id = ${d.storeId(4)} AND state = 'sending' AND attempts = $5 RETURNING *, ${WITH_DOCUMENT}`,
  dead: `UPDATE outbox_queue SET state = 'dead', last_error = $1, lease_until = NULL, updated_at = $2
    WHERE id = ${d.storeId(3)} AND state = 'sending' AND attempts = $4 RETURNING *, ${WITH_DOCUMENT}`,
  /**
   * A state but `delivered` (`$1`) is the queue row's: found through the queue's state index instead of by
   * reading every document. A delivered document may have no queue row left, so `$6` ('delivered') reads
   * the view's state.
   */
  list: listing(
    (given) => `SELECT * FROM outbox_messages
    WHERE ${given(1, 'text', 'id IN (SELECT q.id FROM outbox_queue q WHERE q.state = $1)')}
      AND ${equals(given, 'state', 6)} AND ${equals(given, 'buyer_id', 2)} AND ${equals(given, 'po_id', 3)}
      AND ${given(4, 'bigint', 'id < $4')}
    ORDER BY id DESC LIMIT $5`,
  ),
  resurrect: `UPDATE outbox_queue SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_until = NULL,
      updated_at = $1
    WHERE id = ${d.storeId(2)} AND state = 'dead' RETURNING *, ${WITH_DOCUMENT}`,
  /** The first message of the document: the lowest id the payloadID index finds (migrations.ts). */
  findByPayloadId: `SELECT * FROM outbox_messages WHERE id = (SELECT MIN(id) FROM buyer_documents
    WHERE buyer_id = $1 AND (${documentPayloadId(d)}) = $2)`,
  /** Only queue rows whose document holds its delivery record go (that record is what stays). */
  purgeDelivered: `DELETE FROM outbox_queue WHERE id IN (SELECT q.id FROM outbox_queue q
    JOIN buyer_documents d ON d.id = q.id
    WHERE q.state = 'delivered' AND d.delivered_at < $1 ${upTo(2)})`,
});

const printOrderSql = {
  insert: `INSERT INTO print_orders (storefront_id, print_order_id, po_id, state, shipments_notified,
      confirmed, created_at, updated_at)
    VALUES ($1, $2, $3, 'open', '[]', 0, $4, $4) ON CONFLICT (storefront_id, print_order_id) DO NOTHING
    RETURNING *`,
  get: 'SELECT * FROM print_orders WHERE storefront_id = $1 AND print_order_id = $2',
  listByPo: 'SELECT * FROM print_orders WHERE po_id = $1 ORDER BY created_at, print_order_id',
  update: `UPDATE print_orders SET state = COALESCE($1, state), last_status = COALESCE($2, last_status),
      shipments_notified = COALESCE($3, shipments_notified), confirmed = COALESCE($4, confirmed),
      last_checked_at = COALESCE($5, last_checked_at), updated_at = $6
    WHERE storefront_id = $7 AND print_order_id = $8 RETURNING *`,
  listOpen: `SELECT * FROM print_orders WHERE state = 'open'
    ORDER BY COALESCE(last_checked_at, 0), print_order_id, storefront_id LIMIT $1`,
  /** Read from the primary key's index (storefront_id, print_order_id) alone. */
  highestId: 'SELECT MAX(print_order_id) AS highest FROM print_orders WHERE storefront_id = $1',
};

/** An invoice's columns but its number (`invoice_id`, `sequence`), in the order of `$1`–`$11` below. */
const INVOICE_COLUMNS = `buyer_id, po_id, storefront_id, print_order_id, scope, purpose, invoice_date, amounts,
      credits_invoice, dedupe_key, created_at`;

/**
 * Invoices. A gateway-numbered one takes its buyer's highest sequence number + 1 in the statement that
 * inserts it (one write transaction on SQLite and D1; on PostgreSQL after `lock`, which makes issues for
 * one buyer take turns), and its invoiceID is written then: `$12` (the prefix) and the number, zero-padded.
 */
const invoiceSql = (d: SqlDialect) => {
  const next = 'COALESCE(MAX(sequence), 0) + 1';
  return {
    insertNumbered: `INSERT INTO invoices (${INVOICE_COLUMNS}, invoice_id, sequence)
      SELECT $1::text, $2::text, $3::text, $4::bigint, $5::text, $6::text, $7::bigint, $8::text, $9::text,
        $10::text, $11::bigint, $12::text || ${d.zeroPad(next, 6)}, ${next}
      FROM invoices WHERE buyer_id = $1
      ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
    insertExplicit: `INSERT INTO invoices (${INVOICE_COLUMNS}, invoice_id, sequence)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL)
      ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
    findByDedupeKey: 'SELECT * FROM invoices WHERE dedupe_key = $1',
    get: `SELECT * FROM invoices WHERE id = ${d.storeId(1)}`,
    getByInvoiceId: 'SELECT * FROM invoices WHERE buyer_id = $1 AND invoice_id = $2',
    listByPo: 'SELECT * FROM invoices WHERE po_id = $1 ORDER BY id',
    listByPrintOrder: 'SELECT * FROM invoices WHERE storefront_id = $1 AND print_order_id = $2 ORDER BY id',
    listDated: listing(
      (given) => `SELECT * FROM invoices
      WHERE ${equals(given, 'buyer_id', 1)} AND ${given(2, 'bigint', 'invoice_date >= $2')}
        AND ${given(3, 'bigint', 'invoice_date <= $3')} AND ${given(4, 'bigint', 'id > $4')}
      ORDER BY id LIMIT $5`,
    ),
  };
};

/**
 * Held invoices. A hold found again while open takes the new reason and amounts; a settled one is left as
 * it is (the operator's decision stands). `settle` moves one only from the states it names (`$7`, a JSON
 * list), so two operators cannot settle it twice.
 */
const invoiceHoldSql = (d: SqlDialect) => ({
  hold: `INSERT INTO invoice_holds (buyer_id, po_id, storefront_id, print_order_id, scope, reason, amounts, state,
      created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'held', $8, $8)
    ON CONFLICT (storefront_id, print_order_id, scope) DO UPDATE SET reason = excluded.reason,
      amounts = excluded.amounts, updated_at = excluded.updated_at
      WHERE invoice_holds.state = 'held' AND (invoice_holds.reason <> excluded.reason
        OR invoice_holds.amounts <> excluded.amounts)`,
  find: 'SELECT * FROM invoice_holds WHERE storefront_id = $1 AND print_order_id = $2 AND scope = $3',
  get: `SELECT * FROM invoice_holds WHERE id = ${d.storeId(1)}`,
  listByPo: 'SELECT * FROM invoice_holds WHERE po_id = $1 ORDER BY id',
  settle: `UPDATE invoice_holds SET state = $2, prices = COALESCE($3::text, prices), note = COALESCE($4::text, note),
      invoice_id = COALESCE($5::text, invoice_id), updated_at = $6
    WHERE id = ${d.storeId(1)} AND state IN (${d.jsonArrayElements(7)}) RETURNING *`,
});

const eventSql = (d: SqlDialect) => ({
  insert: `INSERT INTO inbox_events (storefront_id, event, body, received_at, processed)
    VALUES ($1, $2, $3, $4, 0) RETURNING *`,
  get: `SELECT * FROM inbox_events WHERE id = ${d.storeId(1)}`,
  listUnprocessed: 'SELECT * FROM inbox_events WHERE processed = 0 ORDER BY id LIMIT $1',
  markProcessed: `UPDATE inbox_events SET processed = 1 WHERE id = ${d.storeId(1)}`,
  purgeProcessed: `DELETE FROM inbox_events WHERE id IN (SELECT id FROM inbox_events
    WHERE processed = 1 AND received_at < $1 ${upTo(2)})`,
});

const refusalSql = {
  insert: `INSERT INTO refusals (buyer_id, channel, document_type, payload_id, client_address, status, answer,
      document, document_bytes, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
  /** Every entry of address `$1` but its newest `$2`. */
  trimAddress: `DELETE FROM refusals WHERE client_address = $1 AND id <= (SELECT id FROM refusals
      WHERE client_address = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`,
  /** Every entry but the newest `$1`. */
  trimTotal: `DELETE FROM refusals WHERE id <= (SELECT id FROM refusals ORDER BY id DESC LIMIT 1 OFFSET $1)`,
  list: listing(
    (given) => `SELECT * FROM refusals WHERE ${equals(given, 'buyer_id', 1)}
      AND ${given(2, 'bigint', 'created_at >= $2')} AND ${given(3, 'bigint', 'created_at < $3')}
      AND ${given(4, 'bigint', 'id < $4')}
    ORDER BY id DESC LIMIT $5`,
  ),
  countByBuyerSince: 'SELECT COUNT(*) AS n FROM refusals WHERE buyer_id = $1 AND created_at >= $2',
  purgeOld: `DELETE FROM refusals WHERE id IN (SELECT id FROM refusals WHERE created_at < $1 ${upTo(2)})`,
};

/**
 * One failed-authentication counter per key, counted in one UPDATE so two instances counting at once never
 * lose a failure. $2 the time (ms), $3 failures to add, $4 the window and first lock (ms), $5 failures that
 * lock, $6 the longest lock (ms). A locked key counts nothing; a window that ran out starts afresh; the
 * failure that reaches the limit locks the key and starts the count anew, and a lock within the longest
 * lock of the previous one's end lasts twice as long. Every SET sees the row as it was.
 */
const freshFailures = 'CASE WHEN $2::bigint - window_start < $4::bigint THEN failures ELSE 0 END';
const locksNow = `(${freshFailures} + $3::bigint >= $5::bigint)`;
const nextLockMs = `CASE WHEN lock_ms > 0 AND $2::bigint - locked_until < $6::bigint
    THEN CASE WHEN lock_ms * 2 < $6::bigint THEN lock_ms * 2 ELSE $6::bigint END
    ELSE $4::bigint END`;
const stillLocked = 'locked_until > $2::bigint';
const guessCounterSql = {
  open: `INSERT INTO guess_counters (key, window_start, failures, locked_until, lock_ms)
    VALUES ($1, $2, 0, 0, 0) ON CONFLICT (key) DO NOTHING`,
  fail: `UPDATE guess_counters SET
      failures = CASE WHEN ${stillLocked} THEN failures WHEN ${locksNow} THEN 0
        ELSE ${freshFailures} + $3::bigint END,
      window_start = CASE WHEN ${stillLocked} THEN window_start WHEN ${locksNow} THEN $2::bigint
        WHEN $2::bigint - window_start < $4::bigint THEN window_start ELSE $2::bigint END,
      lock_ms = CASE WHEN ${stillLocked} THEN lock_ms WHEN ${locksNow} THEN ${nextLockMs} ELSE lock_ms END,
      locked_until = CASE WHEN ${stillLocked} THEN locked_until WHEN ${locksNow} THEN $2::bigint + ${nextLockMs}
        ELSE locked_until END
    WHERE key = $1 RETURNING window_start, failures, locked_until, lock_ms`,
  get: 'SELECT window_start, failures, locked_until, lock_ms FROM guess_counters WHERE key = $1',
  forget: 'DELETE FROM guess_counters WHERE key = $1',
  purgeIdle: `DELETE FROM guess_counters WHERE key IN (SELECT key FROM guess_counters
    WHERE locked_until < $1 AND window_start < $1 ${upTo(2)})`,
};

const orderNoteSql = {
  insert: 'INSERT INTO order_notes (po_id, text, author, created_at) VALUES ($1, $2, $3, $4) RETURNING *',
  listByPo: 'SELECT * FROM order_notes WHERE po_id = $1 ORDER BY id',
};

/**
 * A reorder item takes a later order's values, never an earlier one's (a job run again for an old PO); its
 * `created_at` stays. `WHERE true` tells SQLite's parser the ON CONFLICT belongs to the INSERT.
 */
const reorderSql = {
  record: `INSERT INTO reorder_items (buyer_id, part_id, storefront_id, user_ref, design_id, product_id, sku, name,
      thumbnail_url, quantity, unit_price, price_unit, currency, uom, po_id, ordered_at, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)
    ON CONFLICT (buyer_id, part_id) DO UPDATE SET storefront_id = excluded.storefront_id,
      user_ref = excluded.user_ref, design_id = excluded.design_id, product_id = excluded.product_id,
      sku = excluded.sku, name = excluded.name, thumbnail_url = excluded.thumbnail_url,
      quantity = excluded.quantity, unit_price = excluded.unit_price, price_unit = excluded.price_unit,
      currency = excluded.currency, uom = excluded.uom, po_id = excluded.po_id,
      ordered_at = excluded.ordered_at, updated_at = excluded.updated_at
    WHERE excluded.ordered_at >= reorder_items.ordered_at`,
  get: 'SELECT * FROM reorder_items WHERE buyer_id = $1 AND part_id = $2',
  listByBuyer: `SELECT * FROM reorder_items WHERE buyer_id = $1
    ORDER BY ordered_at DESC, part_id LIMIT $2`,
};

/** A buyer's StatusUpdateRequest is recorded once: a retried one finds the row the first one wrote. */
const statusUpdateSql = {
  insert: `INSERT INTO status_updates (buyer_id, po_id, payload_id, document_id, invoice_record_id, status_code,
      status_text, status_message, invoice_status, partial_amount, comments, received_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
    ON CONFLICT (buyer_id, payload_id) DO NOTHING RETURNING id`,
  find: 'SELECT * FROM status_updates WHERE buyer_id = $1 AND payload_id = $2',
  listByPo: 'SELECT * FROM status_updates WHERE po_id = $1 ORDER BY id',
  invoiceStatuses: `SELECT invoice_record_id, invoice_status FROM status_updates
    WHERE buyer_id = $1 AND received_at >= $2 AND invoice_record_id IS NOT NULL AND invoice_status IS NOT NULL
    ORDER BY id`,
};

const notificationSql = (d: SqlDialect) => ({
  announcedAmong: `SELECT announcement_key FROM notifications_sent
    WHERE channel = $1 AND announcement_key IN (${d.jsonArrayElements(2)})`,
  /** `WHERE true` tells SQLite's parser the ON CONFLICT belongs to the INSERT, not to a join. */
  record: `INSERT INTO notifications_sent (channel, announcement_key, message_id, sent_at)
    SELECT $1::text, k.*, $3::text, $4::bigint FROM (${d.jsonArrayElements(2)}) k WHERE true
    ON CONFLICT (channel, announcement_key) DO NOTHING`,
  messagesSince: `SELECT COUNT(DISTINCT message_id) AS count FROM notifications_sent
    WHERE channel = $1 AND sent_at >= $2`,
});

const heartbeatSql = {
  /** An earlier time than the stored one changes nothing, so a round that finishes late never moves it back. */
  beat: `INSERT INTO heartbeats (name, at) VALUES ($1, $2)
    ON CONFLICT (name) DO UPDATE SET at = excluded.at WHERE excluded.at > heartbeats.at`,
  last: 'SELECT at FROM heartbeats WHERE name = $1',
};

/**
 * Every figure of `stats` in one statement (one round trip, one snapshot): kind, state, count, oldest. The
 * first SELECT's CAST gives PostgreSQL the type of the `oldest` column its NULLs would otherwise leave open.
 * D1 allows five terms in a compound SELECT, so the held invoices are counted by a subquery of the
 * `unordered` row, in its otherwise empty `count` column.
 */
const STATS = `SELECT 'order' AS kind, state, COUNT(*) AS count, CAST(NULL AS BIGINT) AS oldest FROM purchase_orders
      GROUP BY state
    UNION ALL SELECT 'unordered', NULL, (SELECT COUNT(*) FROM invoice_holds WHERE state = 'held'), MIN(created_at)
      FROM purchase_orders WHERE state IN ('received', 'processing')
    UNION ALL SELECT 'job', state, COUNT(*), NULL FROM jobs GROUP BY state
    UNION ALL SELECT 'message', state, COUNT(*), NULL FROM outbox_queue WHERE state <> 'delivered' GROUP BY state
    UNION ALL SELECT 'undelivered', NULL, NULL, MIN(d.created_at) FROM outbox_queue q
      JOIN buyer_documents d ON d.id = q.id WHERE q.state IN ('pending', 'sending')`;

/**
 * The statement inserting the parts of the order `orders.acceptWithLines`' batch has just inserted (found as
 * `queueIntake` finds it, `$1`–`$3`): part `i` is `$(i + 4)`, the `i`-th text of `parts` (`raw` or
 * `document`), numbered in order within its kind by the caller. One statement for all of a PO's parts: each
 * bound text is a row of its own (within D1's 2,000,000 bytes), and up to 96 parts take one statement
 * (D1 binds at most 100 parameters).
 */
export function orderChunkInsert(d: SqlDialect) {
  return (parts: readonly { part: 'raw' | 'document'; seq: number }[]): CompiledSql => {
    // A VALUES list, not a compound SELECT (D1 allows few terms in one); its columns are column1… on both.
    const rows = parts.map(({ part, seq }, i) => `('${part}', ${seq}, $${i + 4}::text)`).join(', ');
    return d.compile(`INSERT INTO purchase_order_chunks (po_id, part, seq, text)
      SELECT CAST(p.id AS TEXT), c.column1, c.column2, c.column3 FROM purchase_orders p, (VALUES ${rows}) c
      WHERE p.buyer_id = $1 AND p.payload_id = $2 AND p.intake_nonce = $3`);
  };
}

type Compiled<Texts> = { readonly [Name in keyof Texts]: CompiledSql };

function compileAll<Texts extends Record<string, string | Listing>>(
  d: SqlDialect,
  texts: Texts,
): Compiled<Texts> {
  return Object.fromEntries(
    Object.entries(texts).map(([name, text]) => [
      name,
      typeof text === 'string' ? d.compile(text) : compileListing(d, text),
    ]),
  ) as Compiled<Texts>;
}

/**
 * A listing compiled once per combination of its optional values given (at first use): `bind` picks the
 * variant naming the values that are not NULL. `sql` is the text with every filter given.
 */
function compileListing(d: SqlDialect, { listing: text }: Listing): CompiledSql {
  const optional: number[] = [];
  const every = text((n, _cast, term) => {
    optional.push(n);
    return `(${term})`;
  });
  const variants = new Map<number, CompiledSql>();
  const variant = (given: number): CompiledSql => {
    let compiled = variants.get(given);
    if (compiled === undefined) {
      compiled = d.compile(
        text((n, cast, term) =>
          given & (1 << optional.indexOf(n)) ? `(${term})` : `$${n}::${cast} IS NULL`,
        ),
      );
      variants.set(given, compiled);
    }
    return compiled;
  };
  return {
    sql: d.compile(every).sql,
    bind: (...params) =>
      variant(optional.reduce((given, n, i) => (params[n - 1] === null ? given : given | (1 << i)), 0)).bind(
        ...params,
      ),
  };
}

/**
 * What makes `invoices.issue` calls for one buyer (`$1`) take turns, where the database needs it (the
 * dialect's `exclusive`): the first statement of their batch.
 */
export function invoiceLock(d: SqlDialect): CompiledSql | undefined {
  const text = d.exclusive(1);
  return text === undefined ? undefined : d.compile(text);
}

/** The statements of the Store port in `dialect`'s spelling, one group per sub-store. */
export function storeStatements(d: SqlDialect) {
  return {
    ping: d.compile('SELECT 1 AS ok'),
    stats: d.compile(STATS),
    sessions: compileAll(d, sessionSql),
    tokens: compileAll(d, tokenSql),
    users: compileAll(d, userSql),
    cart: compileAll(d, cartSql(d)),
    orders: compileAll(d, orderSql(d)),
    attachments: compileAll(d, attachmentSql),
    jobs: compileAll(d, jobSql(d)),
    outbox: compileAll(d, outboxSql(d)),
    printOrders: compileAll(d, printOrderSql),
    invoices: compileAll(d, invoiceSql(d)),
    invoiceHolds: compileAll(d, invoiceHoldSql(d)),
    events: compileAll(d, eventSql(d)),
    refusals: compileAll(d, refusalSql),
    orderNotes: compileAll(d, orderNoteSql),
    reorders: compileAll(d, reorderSql),
    statusUpdates: compileAll(d, statusUpdateSql),
    heartbeat: compileAll(d, heartbeatSql),
    guessCounters: compileAll(d, guessCounterSql),
    notifications: compileAll(d, notificationSql(d)),
  };
}

export type StoreStatements = ReturnType<typeof storeStatements>;
