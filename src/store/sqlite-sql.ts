/**
 * Every SQL text of the SQLite dialect: the schema migrations and the statements `createSqlStore` runs.
 * Cloudflare D1 speaks the same dialect and can take both unchanged; a PostgreSQL module supplies the same
 * statement names with `$n` placeholders and its own JSON-array and upsert spellings.
 *
 * Conventions that keep the text portable: instants are INTEGER milliseconds since the epoch, booleans
 * INTEGER 0/1, JSON is TEXT, ids the store assigns are INTEGER PRIMARY KEYs, parameters are positional `?`,
 * and every statement that hands back a record does so with `RETURNING *` (SQLite 3.35+, D1, PostgreSQL;
 * an outbox queue row adds its document's fields).
 * A list parameter (job kinds, line references, states) travels as one JSON array text read by `json_each`.
 * Patches use `COALESCE(?, column)`: a NULL parameter leaves the column as it is.
 */

/**
 * The outbox as one record per message (schema 3 on): the queue row while a message has one, else its kept
 * document, which reads as delivered once its queue row is purged. Portable SQL, shared by every dialect.
 */
export const OUTBOX_MESSAGES_VIEW = `
  CREATE VIEW outbox_messages AS
    SELECT d.id, d.buyer_id, d.po_id, d.kind, d.dedupe_key, d.url, d.body, d.created_at,
      CASE WHEN q.id IS NULL THEN 'delivered' ELSE q.state END AS state,
      CASE WHEN q.id IS NULL THEN d.attempts ELSE q.attempts END AS attempts,
      CASE WHEN q.id IS NULL THEN d.next_attempt_at ELSE q.next_attempt_at END AS next_attempt_at,
      q.lease_until,
      CASE WHEN q.id IS NULL THEN d.last_error ELSE q.last_error END AS last_error,
      CASE WHEN q.id IS NULL THEN d.delivered_at ELSE q.delivered_at END AS delivered_at,
      CASE WHEN q.id IS NULL THEN d.updated_at ELSE q.updated_at END AS updated_at
    FROM buyer_documents d LEFT JOIN outbox_queue q ON q.id = d.id;`;

/** Schema migrations; entry `i` brings a database from version `i` to `i + 1`. Never edit a shipped one. */
export const sqliteMigrations: readonly string[] = [
  `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    buyer_id TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    protocol TEXT NOT NULL,
    operation TEXT NOT NULL,
    buyer_cookie TEXT,
    return_url TEXT NOT NULL,
    return_target TEXT,
    oci_echo TEXT,
    buyer_user_key TEXT NOT NULL,
    pipo_user_ref TEXT NOT NULL,
    extrinsics TEXT,
    contact TEXT,
    ship_to TEXT,
    state TEXT NOT NULL,
    pipo_token TEXT,
    pipo_token_obtained_at INTEGER,
    version INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX sessions_expires_at ON sessions (expires_at);

  CREATE TABLE one_time_tokens (
    jti TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  CREATE INDEX one_time_tokens_expires_at ON one_time_tokens (expires_at);

  CREATE TABLE users (
    buyer_id TEXT NOT NULL,
    user_key TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    pipo_user_id INTEGER NOT NULL,
    username TEXT NOT NULL,
    email TEXT NOT NULL,
    password_enc TEXT NOT NULL,
    is_temp INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (buyer_id, user_key)
  );

  CREATE TABLE cart_lines (
    line_ref TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    buyer_id TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    user_ref TEXT NOT NULL,
    design_id INTEGER NOT NULL,
    product_id INTEGER NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    quantity REAL NOT NULL,
    unit_price TEXT NOT NULL,
    currency TEXT NOT NULL,
    uom TEXT NOT NULL,
    unspsc TEXT,
    lead_time_days INTEGER,
    position INTEGER NOT NULL,
    state TEXT NOT NULL,
    po_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX cart_lines_session ON cart_lines (session_id, position);
  CREATE INDEX cart_lines_updated_at ON cart_lines (updated_at);

  CREATE TABLE purchase_orders (
    id INTEGER PRIMARY KEY,
    buyer_id TEXT NOT NULL,
    payload_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    type TEXT NOT NULL,
    state TEXT NOT NULL,
    raw TEXT NOT NULL,
    document TEXT NOT NULL,
    answer_code INTEGER NOT NULL,
    answer_text TEXT NOT NULL,
    print_order_ids TEXT NOT NULL,
    flags TEXT NOT NULL,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (buyer_id, payload_id),
    UNIQUE (buyer_id, order_id, type)
  );
  CREATE INDEX purchase_orders_state ON purchase_orders (state, id);

  CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    run_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    state TEXT NOT NULL,
    lease_until INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX jobs_open_key ON jobs (key) WHERE state <> 'done';
  CREATE INDEX jobs_due ON jobs (state, run_at);

  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    buyer_id TEXT NOT NULL,
    po_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    dedupe_key TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    state TEXT NOT NULL,
    lease_until INTEGER,
    last_error TEXT,
    delivered_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
  CREATE INDEX outbox_po ON outbox (po_id, id);

  CREATE TABLE print_orders (
    storefront_id TEXT NOT NULL,
    print_order_id INTEGER NOT NULL,
    po_id TEXT NOT NULL,
    state TEXT NOT NULL,
    last_status TEXT,
    shipments_notified TEXT NOT NULL,
    confirmed INTEGER NOT NULL,
    last_checked_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (storefront_id, print_order_id)
  );
  CREATE INDEX print_orders_po ON print_orders (po_id);
  CREATE INDEX print_orders_open ON print_orders (state, last_checked_at);

  CREATE TABLE inbox_events (
    id INTEGER PRIMARY KEY,
    storefront_id TEXT NOT NULL,
    event TEXT NOT NULL,
    body TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    processed INTEGER NOT NULL
  );
  CREATE INDEX inbox_events_unprocessed ON inbox_events (processed, id);
  `,
  // 2: updates are deduped per orderVersion instead of one per order (see order-revision.ts). SQLite cannot
  // drop a table's UNIQUE constraint, so the table is rebuilt; ids are copied, so references keep working.
  // Existing rows take their orderVersion from the stored request, as the intake wrote it.
  `
  CREATE TABLE purchase_orders_v2 (
    id INTEGER PRIMARY KEY,
    buyer_id TEXT NOT NULL,
    payload_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    type TEXT NOT NULL,
    order_version TEXT,
    revision_key TEXT NOT NULL,
    state TEXT NOT NULL,
    raw TEXT NOT NULL,
    document TEXT NOT NULL,
    answer_code INTEGER NOT NULL,
    answer_text TEXT NOT NULL,
    print_order_ids TEXT NOT NULL,
    flags TEXT NOT NULL,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (buyer_id, payload_id),
    UNIQUE (buyer_id, order_id, type, revision_key)
  );
  INSERT INTO purchase_orders_v2 (id, buyer_id, payload_id, order_id, type, order_version, revision_key, state,
      raw, document, answer_code, answer_text, print_order_ids, flags, last_error, created_at, updated_at)
    SELECT id, buyer_id, payload_id, order_id, type, version,
      CASE WHEN type <> 'update' THEN '' WHEN version IS NOT NULL THEN 'version:' || version
        ELSE 'payload:' || payload_id END,
      state, raw, document, answer_code, answer_text, print_order_ids, flags, last_error, created_at, updated_at
    FROM (SELECT *, CASE WHEN json_valid(document)
        THEN CAST(json_extract(document, '$.request.orderVersion') AS TEXT) END AS version
      FROM purchase_orders);
  DROP TABLE purchase_orders;
  ALTER TABLE purchase_orders_v2 RENAME TO purchase_orders;
  CREATE INDEX purchase_orders_state ON purchase_orders (state, id);
  `,
  // 3: housekeeping. The outbox splits into the documents sent to buyers, kept forever with their purchase
  // order (the delivery record is written into the document when it is delivered), and the delivery queue,
  // whose rows of delivered messages are purged. Ids are copied, so message ids stay as they were. The
  // outbox_messages view reads a message from its queue row while there is one, else from the document.
  // Jobs and webhook deliveries are purged now: their tables are rebuilt with AUTOINCREMENT so SQLite
  // never hands a purged id out again (an event's id is its sync job's key; admin links name job ids).
  `
  CREATE TABLE buyer_documents (
    id INTEGER PRIMARY KEY,
    buyer_id TEXT NOT NULL,
    po_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    dedupe_key TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER,
    next_attempt_at INTEGER,
    last_error TEXT,
    delivered_at INTEGER,
    updated_at INTEGER
  );
  CREATE INDEX buyer_documents_po ON buyer_documents (po_id, id);

  CREATE TABLE outbox_queue (
    id INTEGER PRIMARY KEY,
    po_id TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    lease_until INTEGER,
    last_error TEXT,
    delivered_at INTEGER,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX outbox_queue_due ON outbox_queue (state, next_attempt_at);
  CREATE INDEX outbox_queue_po ON outbox_queue (po_id, id);

  INSERT INTO buyer_documents (id, buyer_id, po_id, kind, dedupe_key, url, body, created_at, attempts,
      next_attempt_at, last_error, delivered_at, updated_at)
    SELECT id, buyer_id, po_id, kind, dedupe_key, url, body, created_at,
      CASE WHEN state = 'delivered' THEN attempts END, CASE WHEN state = 'delivered' THEN next_attempt_at END,
      CASE WHEN state = 'delivered' THEN last_error END, CASE WHEN state = 'delivered' THEN delivered_at END,
      CASE WHEN state = 'delivered' THEN updated_at END
    FROM outbox;
  INSERT INTO outbox_queue (id, po_id, state, attempts, next_attempt_at, lease_until, last_error, delivered_at,
      updated_at)
    SELECT id, po_id, state, attempts, next_attempt_at, lease_until, last_error, delivered_at, updated_at
    FROM outbox;
  DROP TABLE outbox;

${OUTBOX_MESSAGES_VIEW}

  CREATE TABLE jobs_v3 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    run_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    state TEXT NOT NULL,
    lease_until INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  INSERT INTO jobs_v3 (id, kind, key, payload, run_at, attempts, max_attempts, state, lease_until, last_error,
      created_at, updated_at)
    SELECT id, kind, key, payload, run_at, attempts, max_attempts, state, lease_until, last_error, created_at,
      updated_at
    FROM jobs;
  DROP TABLE jobs;
  ALTER TABLE jobs_v3 RENAME TO jobs;
  CREATE UNIQUE INDEX jobs_open_key ON jobs (key) WHERE state <> 'done';
  CREATE INDEX jobs_due ON jobs (state, run_at);
  CREATE INDEX jobs_finished ON jobs (state, updated_at);

  CREATE TABLE inbox_events_v3 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    storefront_id TEXT NOT NULL,
    event TEXT NOT NULL,
    body TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    processed INTEGER NOT NULL
  );
  INSERT INTO inbox_events_v3 (id, storefront_id, event, body, received_at, processed)
    SELECT id, storefront_id, event, body, received_at, processed FROM inbox_events;
  DROP TABLE inbox_events;
  ALTER TABLE inbox_events_v3 RENAME TO inbox_events;
  CREATE INDEX inbox_events_unprocessed ON inbox_events (processed, id);
  `,
  // 4: heartbeats of recurring work, so every instance sees when the background round last completed (on
  // Workers the Cron round runs in another isolate than the one answering /readyz).
  `
  CREATE TABLE heartbeats (
    name TEXT PRIMARY KEY,
    at INTEGER NOT NULL
  );
  `,
];

/** Bookkeeping of applied migrations, created before anything else. */
export const sqliteSchemaVersion = {
  create:
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)',
  current: 'SELECT COALESCE(MAX(version), 0) AS version FROM schema_version',
  record: 'INSERT INTO schema_version (version, applied_at) VALUES (?, ?)',
} as const;

const JOB_DUE = `((state = 'pending' AND run_at <= ?) OR (state = 'running' AND lease_until <= ?))`;
const OF_KINDS = `(? IS NULL OR kind IN (SELECT value FROM json_each(?)))`;
/** A purge's row bound: NULL deletes every due row (SQLite takes a negative LIMIT as none). */
const UP_TO = 'LIMIT COALESCE(?, -1)';
/**
 * The document fields of the queue row an outbox UPDATE returns, so it hands back a whole message (SQLite
 * lets `RETURNING` read other tables only through subqueries). PostgreSQL takes the same text.
 */
export const WITH_DOCUMENT = ['buyer_id', 'kind', 'dedupe_key', 'url', 'body', 'created_at']
  .map((column) => `(SELECT ${column} FROM buyer_documents d WHERE d.id = outbox_queue.id) AS ${column}`)
  .join(', ');

/** The statements of the Store port; `createSqlStore` binds the `?`s in the order they appear. */
export const sqliteStatements = {
  ping: 'SELECT 1 AS ok',

  sessionInsert: `INSERT INTO sessions (id, buyer_id, storefront_id, protocol, operation, buyer_cookie, return_url,
      return_target, oci_echo, buyer_user_key, pipo_user_ref, extrinsics, contact, ship_to, state, pipo_token,
      pipo_token_obtained_at, version, created_at, updated_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, 1, ?, ?, ?) RETURNING *`,
  sessionGet: 'SELECT * FROM sessions WHERE id = ? AND expires_at > ?',
  sessionUpdate: `UPDATE sessions SET state = COALESCE(?, state), expires_at = COALESCE(?, expires_at),
      pipo_token = COALESCE(?, pipo_token), pipo_token_obtained_at = COALESCE(?, pipo_token_obtained_at),
      pipo_user_ref = COALESCE(?, pipo_user_ref), version = version + 1, updated_at = ?
    WHERE id = ? AND expires_at > ? AND (? IS NULL OR version = ?) RETURNING *`,
  sessionsExpire: `DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE expires_at <= ? ${UP_TO})`,

  tokensSweep: 'DELETE FROM one_time_tokens WHERE expires_at <= ?',
  tokenInsert: 'INSERT INTO one_time_tokens (jti, expires_at) VALUES (?, ?) ON CONFLICT (jti) DO NOTHING',

  userGet: 'SELECT * FROM users WHERE buyer_id = ? AND user_key = ?',
  userUpsert: `INSERT INTO users (buyer_id, user_key, storefront_id, pipo_user_id, username, email, password_enc,
      is_temp, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (buyer_id, user_key) DO UPDATE SET storefront_id = excluded.storefront_id,
      pipo_user_id = excluded.pipo_user_id, username = excluded.username, email = excluded.email,
      password_enc = excluded.password_enc, is_temp = excluded.is_temp, updated_at = excluded.updated_at
    RETURNING *`,

  cartInsert: `INSERT INTO cart_lines (line_ref, session_id, buyer_id, storefront_id, user_ref, design_id, product_id,
      sku, name, quantity, unit_price, currency, uom, unspsc, lead_time_days, position, state, created_at, updated_at)
    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(MAX(position), 0) + 1, 'cart', ?, ?
    FROM cart_lines WHERE session_id = ? RETURNING *`,
  cartGet: 'SELECT * FROM cart_lines WHERE line_ref = ?',
  cartListBySession: `SELECT * FROM cart_lines WHERE session_id = ? AND state = 'cart'
    ORDER BY position, created_at, line_ref`,
  cartUpdate: `UPDATE cart_lines SET session_id = COALESCE(?, session_id), design_id = COALESCE(?, design_id),
      name = COALESCE(?, name), quantity = COALESCE(?, quantity), unit_price = COALESCE(?, unit_price),
      currency = COALESCE(?, currency), position = COALESCE(?, position), state = COALESCE(?, state),
      updated_at = ?
    WHERE line_ref = ? RETURNING *`,
  cartMarkOrdered: `UPDATE cart_lines SET state = 'ordered', po_id = ?, updated_at = ?
    WHERE line_ref IN (SELECT value FROM json_each(?)) RETURNING *`,
  cartPurgeStale: `DELETE FROM cart_lines WHERE line_ref IN (SELECT line_ref FROM cart_lines
    WHERE state <> 'ordered' AND updated_at < ? ${UP_TO})`,

  orderInsert: `INSERT INTO purchase_orders (buyer_id, payload_id, order_id, type, order_version, revision_key,
      state, raw, document, answer_code, answer_text, print_order_ids, flags, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, ?) ON CONFLICT DO NOTHING RETURNING *`,
  orderFindDuplicate: `SELECT * FROM purchase_orders
    WHERE buyer_id = ? AND (payload_id = ? OR (order_id = ? AND type = ? AND revision_key = ?))
    ORDER BY CASE WHEN payload_id = ? THEN 0 ELSE 1 END, id LIMIT 1`,
  orderGet: 'SELECT * FROM purchase_orders WHERE id = ?',
  orderGetByPayloadId: 'SELECT * FROM purchase_orders WHERE buyer_id = ? AND payload_id = ?',
  // The whole UNIQUE (buyer_id, order_id, type, revision_key) key, so the lookup is that index's (a `new`
  // order's revision key is always '').
  orderGetNew: `SELECT * FROM purchase_orders
    WHERE buyer_id = ? AND order_id = ? AND type = 'new' AND revision_key = ''`,
  orderList: `SELECT * FROM purchase_orders
    WHERE (? IS NULL OR state = ?) AND (? IS NULL OR buyer_id = ?) AND (? IS NULL OR id < ?)
    ORDER BY id DESC LIMIT ?`,
  orderUpdate: `UPDATE purchase_orders SET state = COALESCE(?, state), print_order_ids = COALESCE(?, print_order_ids),
      flags = COALESCE(?, flags), last_error = COALESCE(?, last_error), updated_at = ?
    WHERE id = ? AND (? IS NULL OR state IN (SELECT value FROM json_each(?))) RETURNING *`,

  jobInsert: `INSERT INTO jobs (kind, key, payload, run_at, attempts, max_attempts, state, created_at, updated_at)
    VALUES (?, ?, ?, ?, 0, ?, 'pending', ?, ?) ON CONFLICT DO NOTHING RETURNING *`,
  jobFindOpen: `SELECT * FROM jobs WHERE key = ? AND state <> 'done'`,
  jobGet: 'SELECT * FROM jobs WHERE id = ?',
  jobBuryExhausted: `UPDATE jobs SET state = 'dead', lease_until = NULL,
      last_error = 'lease expired on attempt ' || attempts, updated_at = ?
    WHERE state = 'running' AND lease_until <= ? AND attempts >= max_attempts AND ${OF_KINDS}`,
  jobClaim: `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ?
    WHERE id = (SELECT id FROM jobs WHERE ${JOB_DUE} AND ${OF_KINDS} ORDER BY run_at, id LIMIT 1)
    RETURNING *`,
  jobRenewLease: `UPDATE jobs SET lease_until = ?, updated_at = ?
    WHERE id = ? AND state = 'running' AND attempts = ? RETURNING *`,
  jobComplete: `UPDATE jobs SET state = 'done', lease_until = NULL, updated_at = ?
    WHERE id = ? AND state = 'running' AND attempts = ? RETURNING *`,
  jobRetry: `UPDATE jobs SET state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END,
      run_at = ?, last_error = ?, lease_until = NULL, updated_at = ?
    WHERE id = ? AND state = 'running' AND attempts = ? RETURNING *`,
  jobKill: `UPDATE jobs SET state = 'dead', last_error = ?, lease_until = NULL, updated_at = ?
    WHERE id = ? AND state = 'running' AND attempts = ? RETURNING *`,
  jobList: `SELECT * FROM jobs WHERE (? IS NULL OR state = ?) AND (? IS NULL OR kind = ?) AND (? IS NULL OR id < ?)
    ORDER BY id DESC LIMIT ?`,
  jobResurrect: `UPDATE jobs SET state = 'pending', attempts = 0, run_at = ?, lease_until = NULL, updated_at = ?
    WHERE id = ? AND state = 'dead' RETURNING *`,
  jobPurgeFinished: `DELETE FROM jobs WHERE id IN (SELECT id FROM jobs
    WHERE state = 'done' AND updated_at < ? ${UP_TO})`,

  // A message is a buyer document plus its delivery-queue row (see migration 3). Enqueue inserts the
  // document unless its dedupe key exists, then the queue row only for a document that never had one: an
  // undelivered document without a queue row is the one just inserted (purged rows were delivered ones).
  outboxInsert: `INSERT INTO buyer_documents (buyer_id, po_id, kind, dedupe_key, url, body, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
  outboxQueueInsert: `INSERT INTO outbox_queue (id, po_id, state, attempts, next_attempt_at, updated_at)
    SELECT d.id, d.po_id, 'pending', 0, ?, d.created_at FROM buyer_documents d
    WHERE d.dedupe_key = ? AND d.delivered_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM outbox_queue q WHERE q.id = d.id)
    RETURNING id`,
  outboxFindByDedupeKey: 'SELECT * FROM outbox_messages WHERE dedupe_key = ?',
  outboxGet: 'SELECT * FROM outbox_messages WHERE id = ?',
  outboxClaimDue: `UPDATE outbox_queue SET state = 'sending', attempts = attempts + 1, lease_until = ?, updated_at = ?
    WHERE id IN (
      SELECT o.id FROM outbox_queue o
      WHERE ((o.state = 'pending' AND o.next_attempt_at <= ?) OR (o.state = 'sending' AND o.lease_until <= ?))
        AND NOT EXISTS (SELECT 1 FROM outbox_queue e
          WHERE e.po_id = o.po_id AND e.id < o.id AND e.state IN ('pending', 'sending'))
      ORDER BY o.next_attempt_at, o.id LIMIT ?)
    RETURNING *, ${WITH_DOCUMENT}`,
  outboxDelivered: `UPDATE outbox_queue SET state = 'delivered', delivered_at = ?, lease_until = NULL, updated_at = ?
    WHERE id = ? AND state = 'sending' AND attempts = ? RETURNING *, ${WITH_DOCUMENT}`,
  /** Copies the delivery record into the document, in the batch right after the claim's `outboxDelivered`. */
  outboxRecordDelivery: `UPDATE buyer_documents
    SET (attempts, next_attempt_at, last_error, delivered_at, updated_at) = (SELECT q.attempts,
      q.next_attempt_at, q.last_error, q.delivered_at, q.updated_at FROM outbox_queue q WHERE q.id = buyer_documents.id)
    WHERE id = ? AND delivered_at IS NULL AND EXISTS (SELECT 1 FROM outbox_queue q
      WHERE q.id = buyer_documents.id AND q.state = 'delivered' AND q.attempts = ?)`,
  outboxRetry: `UPDATE outbox_queue SET state = 'pending', next_attempt_at = ?, last_error = ?, lease_until = NULL,
      updated_at = ?
    WHERE id = ? AND state = 'sending' AND attempts = ? RETURNING *, ${WITH_DOCUMENT}`,
  outboxDead: `UPDATE outbox_queue SET state = 'dead', last_error = ?, lease_until = NULL, updated_at = ?
    WHERE id = ? AND state = 'sending' AND attempts = ? RETURNING *, ${WITH_DOCUMENT}`,
  outboxList: `SELECT * FROM outbox_messages
    WHERE (? IS NULL OR state = ?) AND (? IS NULL OR buyer_id = ?) AND (? IS NULL OR po_id = ?)
      AND (? IS NULL OR id < ?)
    ORDER BY id DESC LIMIT ?`,
  outboxResurrect: `UPDATE outbox_queue SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_until = NULL,
      updated_at = ?
    WHERE id = ? AND state = 'dead' RETURNING *, ${WITH_DOCUMENT}`,
  /** Only queue rows whose document holds its delivery record go (that record is what stays). */
  outboxPurgeDelivered: `DELETE FROM outbox_queue WHERE id IN (SELECT q.id FROM outbox_queue q
    JOIN buyer_documents d ON d.id = q.id
    WHERE q.state = 'delivered' AND d.delivered_at < ? ${UP_TO})`,

  printOrderInsert: `INSERT INTO print_orders (storefront_id, print_order_id, po_id, state, shipments_notified,
      confirmed, created_at, updated_at)
    VALUES (?, ?, ?, 'open', '[]', 0, ?, ?) ON CONFLICT (storefront_id, print_order_id) DO NOTHING RETURNING *`,
  printOrderGet: 'SELECT * FROM print_orders WHERE storefront_id = ? AND print_order_id = ?',
  printOrderListByPo: 'SELECT * FROM print_orders WHERE po_id = ? ORDER BY created_at, print_order_id',
  printOrderUpdate: `UPDATE print_orders SET state = COALESCE(?, state), last_status = COALESCE(?, last_status),
      shipments_notified = COALESCE(?, shipments_notified), confirmed = COALESCE(?, confirmed),
      last_checked_at = COALESCE(?, last_checked_at), updated_at = ?
    WHERE storefront_id = ? AND print_order_id = ? RETURNING *`,
  printOrderListOpen: `SELECT * FROM print_orders WHERE state = 'open'
    ORDER BY COALESCE(last_checked_at, 0), print_order_id, storefront_id LIMIT ?`,
  /** Read from the primary key's index (storefront_id, print_order_id) alone. */
  printOrderHighestId: 'SELECT MAX(print_order_id) AS highest FROM print_orders WHERE storefront_id = ?',

  eventInsert: `INSERT INTO inbox_events (storefront_id, event, body, received_at, processed)
    VALUES (?, ?, ?, ?, 0) RETURNING *`,
  eventGet: 'SELECT * FROM inbox_events WHERE id = ?',
  eventListUnprocessed: 'SELECT * FROM inbox_events WHERE processed = 0 ORDER BY id LIMIT ?',
  eventMarkProcessed: 'UPDATE inbox_events SET processed = 1 WHERE id = ?',
  eventPurgeProcessed: `DELETE FROM inbox_events WHERE id IN (SELECT id FROM inbox_events
    WHERE processed = 1 AND received_at < ? ${UP_TO})`,

  /** An earlier time than the stored one changes nothing, so a round that finishes late never moves it back. */
  heartbeatBeat: `INSERT INTO heartbeats (name, at) VALUES (?, ?)
    ON CONFLICT (name) DO UPDATE SET at = excluded.at WHERE excluded.at > heartbeats.at`,
  heartbeatLast: 'SELECT at FROM heartbeats WHERE name = ?',

  /** Every figure of `stats` in one statement (one round trip, one snapshot): kind, state, count, oldest. */
  stats: `SELECT 'order' AS kind, state, COUNT(*) AS count, NULL AS oldest FROM purchase_orders GROUP BY state
    UNION ALL SELECT 'unordered', NULL, NULL, MIN(created_at) FROM purchase_orders
      WHERE state IN ('received', 'processing')
    UNION ALL SELECT 'job', state, COUNT(*), NULL FROM jobs GROUP BY state
    UNION ALL SELECT 'message', state, COUNT(*), NULL FROM outbox_queue WHERE state <> 'delivered' GROUP BY state
    UNION ALL SELECT 'undelivered', NULL, NULL, MIN(d.created_at) FROM outbox_queue q
      JOIN buyer_documents d ON d.id = q.id WHERE q.state IN ('pending', 'sending')`,
} as const;
