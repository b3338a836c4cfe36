/**
 * The schema's migrations, written once for SQLite, D1 and PostgreSQL: entry `i` brings a database from
 * version `i` to `i + 1`, and `schema_version` records each one applied. Column types come from the dialect
 * (`int64` for instants and the print service's ids, `float64`, `serialKey` for ids the database assigns);
 * migrations 2 and 3 are spelled per database because SQLite cannot drop a constraint or a column's
 * NOT NULL and rebuilds the table instead, where PostgreSQL alters it in place.
 *
 * Never edit a shipped migration: a database migrated by an older punchgate must come out the same. A new
 * column is one new entry at the end (an `ALTER TABLE … ADD COLUMN`, its type from the dialect where it is
 * an instant or an id) plus its place in `statements.ts` and in the row mapper.
 */
import { postgresDialect, type SqlDialect, sqliteDialect } from './dialect.ts';

/**
 * The outbox as one record per message (schema 3 on): the queue row while a message has one, else its kept
 * document, which reads as delivered once its queue row is purged. Portable SQL, shared by every dialect.
 */
const OUTBOX_MESSAGES_VIEW = `
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

/** Migration 3's delivery queue, the same on every database but for its integer type. */
const outboxQueue = (d: SqlDialect) => `  CREATE TABLE outbox_queue (
    id ${d.int64} PRIMARY KEY,
    po_id TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at ${d.int64} NOT NULL,
    lease_until ${d.int64},
    last_error TEXT,
    delivered_at ${d.int64},
    updated_at ${d.int64} NOT NULL
  );
  CREATE INDEX outbox_queue_due ON outbox_queue (state, next_attempt_at);
  CREATE INDEX outbox_queue_po ON outbox_queue (po_id, id);`;

const FILL_OUTBOX_QUEUE = `  INSERT INTO outbox_queue (id, po_id, state, attempts, next_attempt_at, lease_until, last_error, delivered_at,
      updated_at)
    SELECT id, po_id, state, attempts, next_attempt_at, lease_until, last_error, delivered_at, updated_at
    FROM outbox;`;

/**
 * The columns of jobs and of webhook events after their id, and the jobs' indexes: written once because
 * SQLite's migration 3 rebuilds both tables and must give them back exactly as migration 1 made them.
 */
const jobColumns = (d: SqlDialect) => `    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    run_at ${d.int64} NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    state TEXT NOT NULL,
    lease_until ${d.int64},
    last_error TEXT,
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL`;

const JOB_INDEXES = `  CREATE UNIQUE INDEX jobs_open_key ON jobs (key) WHERE state <> 'done';
  CREATE INDEX jobs_due ON jobs (state, run_at);`;

/**
 * A purchase order's columns after its dedupe key, and its payload uniqueness: SQLite's migration 2
 * rebuilds the table around a new key and keeps these as migration 1 made them.
 */
const orderRecordColumns = (d: SqlDialect) => `    state TEXT NOT NULL,
    raw TEXT NOT NULL,
    document TEXT NOT NULL,
    answer_code INTEGER NOT NULL,
    answer_text TEXT NOT NULL,
    print_order_ids TEXT NOT NULL,
    flags TEXT NOT NULL,
    last_error TEXT,
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL,
    UNIQUE (buyer_id, payload_id),`;

const eventColumns = (d: SqlDialect) => `    storefront_id TEXT NOT NULL,
    event TEXT NOT NULL,
    body TEXT NOT NULL,
    received_at ${d.int64} NOT NULL,
    processed INTEGER NOT NULL`;

type Migration = (d: SqlDialect) => string;

/** Migration 1, the punch-out's tables: sessions, one-time tokens, user mappings, cart lines. */
const punchOutTables = (d: SqlDialect) => `
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
    pipo_token_obtained_at ${d.int64},
    version INTEGER NOT NULL,
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL,
    expires_at ${d.int64} NOT NULL
  );
  CREATE INDEX sessions_expires_at ON sessions (expires_at);

  CREATE TABLE one_time_tokens (
    jti TEXT PRIMARY KEY,
    expires_at ${d.int64} NOT NULL
  );
  CREATE INDEX one_time_tokens_expires_at ON one_time_tokens (expires_at);

  CREATE TABLE users (
    buyer_id TEXT NOT NULL,
    user_key TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    pipo_user_id ${d.int64} NOT NULL,
    username TEXT NOT NULL,
    email TEXT NOT NULL,
    password_enc TEXT NOT NULL,
    is_temp INTEGER NOT NULL,
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL,
    PRIMARY KEY (buyer_id, user_key)
  );

  CREATE TABLE cart_lines (
    line_ref TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    buyer_id TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    user_ref TEXT NOT NULL,
    design_id ${d.int64} NOT NULL,
    product_id ${d.int64} NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    quantity ${d.float64} NOT NULL,
    unit_price TEXT NOT NULL,
    currency TEXT NOT NULL,
    uom TEXT NOT NULL,
    unspsc TEXT,
    lead_time_days INTEGER,
    position INTEGER NOT NULL,
    state TEXT NOT NULL,
    po_id TEXT,
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL
  );
  CREATE INDEX cart_lines_session ON cart_lines (session_id, position);
  CREATE INDEX cart_lines_updated_at ON cart_lines (updated_at);
`;

/** Migration 1, the order flow's tables: purchase orders, jobs, the outbox, print orders, webhook events. */
const orderFlowTables = (d: SqlDialect) => `
  CREATE TABLE purchase_orders (
    id ${d.serialKey},
    buyer_id TEXT NOT NULL,
    payload_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    type TEXT NOT NULL,
${orderRecordColumns(d)}
    UNIQUE (buyer_id, order_id, type)
  );
  CREATE INDEX purchase_orders_state ON purchase_orders (state, id);

  CREATE TABLE jobs (
    id ${d.serialKey},
${jobColumns(d)}
  );
${JOB_INDEXES}

  CREATE TABLE outbox (
    id ${d.serialKey},
    buyer_id TEXT NOT NULL,
    po_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    dedupe_key TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at ${d.int64} NOT NULL,
    state TEXT NOT NULL,
    lease_until ${d.int64},
    last_error TEXT,
    delivered_at ${d.int64},
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL
  );
  CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
  CREATE INDEX outbox_po ON outbox (po_id, id);

  CREATE TABLE print_orders (
    storefront_id TEXT NOT NULL,
    print_order_id ${d.int64} NOT NULL,
    po_id TEXT NOT NULL,
    state TEXT NOT NULL,
    last_status TEXT,
    shipments_notified TEXT NOT NULL,
    confirmed INTEGER NOT NULL,
    last_checked_at ${d.int64},
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL,
    PRIMARY KEY (storefront_id, print_order_id)
  );
  CREATE INDEX print_orders_po ON print_orders (po_id);
  CREATE INDEX print_orders_open ON print_orders (state, last_checked_at);

  CREATE TABLE inbox_events (
    id ${d.serialKey},
${eventColumns(d)}
  );
  CREATE INDEX inbox_events_unprocessed ON inbox_events (processed, id);
  `;

/**
 * 2: updates are deduped per orderVersion instead of one per order (see order-revision.ts); existing rows
 * take their orderVersion from the stored request, as the intake wrote it. SQLite cannot drop a table's
 * UNIQUE constraint, so the table is rebuilt; ids are copied, so references keep working.
 */
const SQLITE_ORDER_REVISIONS = `
  CREATE TABLE purchase_orders_v2 (
    id INTEGER PRIMARY KEY,
    buyer_id TEXT NOT NULL,
    payload_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    type TEXT NOT NULL,
    order_version TEXT,
    revision_key TEXT NOT NULL,
${orderRecordColumns(sqliteDialect)}
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
  `;

/** 2 on PostgreSQL: the same, altering the table in place. */
const POSTGRES_ORDER_REVISIONS = `
  ALTER TABLE purchase_orders ADD COLUMN order_version TEXT;
  ALTER TABLE purchase_orders ADD COLUMN revision_key TEXT;
  UPDATE purchase_orders SET order_version = document::jsonb #>> '{request,orderVersion}';
  UPDATE purchase_orders SET revision_key = CASE WHEN type <> 'update' THEN ''
    WHEN order_version IS NOT NULL THEN 'version:' || order_version ELSE 'payload:' || payload_id END;
  ALTER TABLE purchase_orders ALTER COLUMN revision_key SET NOT NULL;
  ALTER TABLE purchase_orders DROP CONSTRAINT purchase_orders_buyer_id_order_id_type_key;
  ALTER TABLE purchase_orders ADD CONSTRAINT purchase_orders_revision
    UNIQUE (buyer_id, order_id, type, revision_key);
  `;

/**
 * 3: housekeeping. The outbox splits into the documents sent to buyers, kept forever with their purchase
 * order (the delivery record is written into the document when it is delivered), and the delivery queue,
 * whose rows of delivered messages are purged. Ids are copied, so message ids stay as they were. The
 * outbox_messages view reads a message from its queue row while there is one, else from the document.
 * Jobs and webhook deliveries are purged now: their tables are rebuilt with AUTOINCREMENT so SQLite
 * never hands a purged id out again (an event's id is its sync job's key; admin links name job ids).
 */
const sqliteHousekeeping = (d: SqlDialect) => `
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

${outboxQueue(d)}

  INSERT INTO buyer_documents (id, buyer_id, po_id, kind, dedupe_key, url, body, created_at, attempts,
      next_attempt_at, last_error, delivered_at, updated_at)
    SELECT id, buyer_id, po_id, kind, dedupe_key, url, body, created_at,
      CASE WHEN state = 'delivered' THEN attempts END, CASE WHEN state = 'delivered' THEN next_attempt_at END,
      CASE WHEN state = 'delivered' THEN last_error END, CASE WHEN state = 'delivered' THEN delivered_at END,
      CASE WHEN state = 'delivered' THEN updated_at END
    FROM outbox;
${FILL_OUTBOX_QUEUE}
  DROP TABLE outbox;

${OUTBOX_MESSAGES_VIEW}

  CREATE TABLE jobs_v3 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
${jobColumns(d)}
  );
  INSERT INTO jobs_v3 (id, kind, key, payload, run_at, attempts, max_attempts, state, lease_until, last_error,
      created_at, updated_at)
    SELECT id, kind, key, payload, run_at, attempts, max_attempts, state, lease_until, last_error, created_at,
      updated_at
    FROM jobs;
  DROP TABLE jobs;
  ALTER TABLE jobs_v3 RENAME TO jobs;
${JOB_INDEXES}
  CREATE INDEX jobs_finished ON jobs (state, updated_at);

  CREATE TABLE inbox_events_v3 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
${eventColumns(d)}
  );
  INSERT INTO inbox_events_v3 (id, storefront_id, event, body, received_at, processed)
    SELECT id, storefront_id, event, body, received_at, processed FROM inbox_events;
  DROP TABLE inbox_events;
  ALTER TABLE inbox_events_v3 RENAME TO inbox_events;
  CREATE INDEX inbox_events_unprocessed ON inbox_events (processed, id);
  `;

/**
 * 3 on PostgreSQL: the outbox table becomes buyer_documents, kept forever (its identity goes on numbering
 * messages, and never hands a purged id out again, nor do those of jobs and events), and its queue columns
 * move to outbox_queue; a delivered document keeps its delivery record.
 */
const postgresHousekeeping = (d: SqlDialect) => `
${outboxQueue(d)}
${FILL_OUTBOX_QUEUE}

  ALTER TABLE outbox RENAME TO buyer_documents;
  ALTER INDEX outbox_po RENAME TO buyer_documents_po;
  ALTER TABLE buyer_documents ALTER COLUMN attempts DROP NOT NULL,
    ALTER COLUMN next_attempt_at DROP NOT NULL, ALTER COLUMN updated_at DROP NOT NULL;
  UPDATE buyer_documents SET attempts = NULL, next_attempt_at = NULL, last_error = NULL, delivered_at = NULL,
      updated_at = NULL
    WHERE state <> 'delivered';
  ALTER TABLE buyer_documents DROP COLUMN state, DROP COLUMN lease_until;

${OUTBOX_MESSAGES_VIEW}

  CREATE INDEX jobs_finished ON jobs (state, updated_at);
  `;

/**
 * Migration 8 in SQLite: the `creating:` flags parsed with text functions (SQLite has no regular
 * expressions; a CAST to INTEGER reads the digits up to the next colon).
 */
const SQLITE_CREATE_ATTEMPTS_FROM_FLAGS = `UPDATE purchase_orders SET
    create_attempts = (
      SELECT json_group_array(json(json_patch(
        json_object(
          'index', CAST(substr(f.value, 10) AS INTEGER),
          'searches', CASE WHEN instr(f.value, ':searches=') > 0
            THEN CAST(substr(f.value, instr(f.value, ':searches=') + 10) AS INTEGER) ELSE 0 END),
        CASE WHEN instr(f.value, ':after=') > 0
          THEN json_object('after', CAST(substr(f.value, instr(f.value, ':after=') + 7) AS INTEGER))
          ELSE '{}' END)))
      FROM json_each(purchase_orders.flags) AS f WHERE f.value LIKE 'creating:%'),
    flags = (SELECT json_group_array(f.value) FROM json_each(purchase_orders.flags) AS f
      WHERE f.value NOT LIKE 'creating:%')
  WHERE EXISTS (SELECT 1 FROM json_each(purchase_orders.flags) AS f WHERE f.value LIKE 'creating:%');`;

/** Migration 8 in PostgreSQL: the same, read with regular expressions; flags keep their order. */
const POSTGRES_CREATE_ATTEMPTS_FROM_FLAGS = `UPDATE purchase_orders SET
    create_attempts = (
      SELECT json_agg(jsonb_strip_nulls(jsonb_build_object(
        'index', (regexp_match(f.value, '^creating:(\\d+)'))[1]::bigint,
        'after', (regexp_match(f.value, ':after=(\\d+)'))[1]::bigint,
        'searches', COALESCE((regexp_match(f.value, ':searches=(\\d+)'))[1]::bigint, 0)))
        ORDER BY f.n)::text
      FROM jsonb_array_elements_text(purchase_orders.flags::jsonb) WITH ORDINALITY AS f (value, n)
      WHERE f.value LIKE 'creating:%'),
    flags = COALESCE((
      SELECT json_agg(f.value ORDER BY f.n)::text
      FROM jsonb_array_elements_text(purchase_orders.flags::jsonb) WITH ORDINALITY AS f (value, n)
      WHERE f.value NOT LIKE 'creating:%'), '[]')
  WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text(purchase_orders.flags::jsonb) AS f (value)
    WHERE f.value LIKE 'creating:%');`;

/** Entry `i` brings a database from version `i` to `i + 1`. */
const MIGRATIONS: readonly Migration[] = [
  (d) => punchOutTables(d) + orderFlowTables(d),
  (d) => (d.name === 'sqlite' ? SQLITE_ORDER_REVISIONS : POSTGRES_ORDER_REVISIONS),
  (d) => (d.name === 'sqlite' ? sqliteHousekeeping(d) : postgresHousekeeping(d)),
  // 4: heartbeats of recurring work, so every instance sees when the background round last completed (on
  // Workers the Cron round runs in another isolate than the one answering /readyz).
  (d) => `
  CREATE TABLE heartbeats (
    name TEXT PRIMARY KEY,
    at ${d.int64} NOT NULL
  );
  `,
  // 5: the random token `orders.acceptWithLines` writes with an order, so the later statements of its one
  // batch (cart lines, job) act only on the order that batch created, never on an earlier copy's.
  () => `
  ALTER TABLE purchase_orders ADD COLUMN intake_nonce TEXT;
  `,
  // 6: a purchase order's raw document and stored document in parts, for a database whose rows hold less
  // than a big PO (D1: 2,000,000 bytes a row). `text_chunks` counts a PO's parts; 0 keeps both inline.
  () => `
  ALTER TABLE purchase_orders ADD COLUMN text_chunks INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE purchase_order_chunks (
    po_id TEXT NOT NULL,
    part TEXT NOT NULL,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (po_id, part, seq)
  );
  `,
  // 7: invoices and credit memos sent to buyers, kept forever. A gateway-numbered invoice has its buyer's
  // sequence number; an invoiceID is unique per buyer, and an invoice per dedupe key (its outbox document's).
  (d) => `
  CREATE TABLE invoices (
    id ${d.serialKey},
    buyer_id TEXT NOT NULL,
    po_id TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    print_order_id ${d.int64} NOT NULL,
    scope TEXT NOT NULL,
    purpose TEXT NOT NULL,
    invoice_id TEXT NOT NULL,
    sequence INTEGER,
    invoice_date ${d.int64} NOT NULL,
    amounts TEXT NOT NULL,
    credits_invoice TEXT,
    dedupe_key TEXT NOT NULL UNIQUE,
    created_at ${d.int64} NOT NULL,
    UNIQUE (buyer_id, invoice_id),
    UNIQUE (buyer_id, sequence)
  );
  CREATE INDEX invoices_po ON invoices (po_id, id);
  CREATE INDEX invoices_print_order ON invoices (storefront_id, print_order_id, id);
  `,
  // 8: a purchase order's print-order creates whose outcome may be unknown, as their own JSON column: they
  // were `creating:<index>[:after=<id>][:searches=<n>]` entries among the operator's flags, which every
  // reader had to tell apart by their text. Each becomes `{ index, after?, searches }`.
  (d) => `
  ALTER TABLE purchase_orders ADD COLUMN create_attempts TEXT NOT NULL DEFAULT '[]';
  ${d.name === 'sqlite' ? SQLITE_CREATE_ATTEMPTS_FROM_FLAGS : POSTGRES_CREATE_ATTEMPTS_FROM_FLAGS}
  `,
  // 9: documents sent to buyers are kept forever, and held our SharedSecret in clear; they are now stored
  // redacted (the post puts the current secret back in). Every SharedSecret of a document we built holds
  // the one secret configured when it was built, written as the builder writes it, so the first one's
  // content, cut out by position, is replaced everywhere in the document; the same content as
  // `redactSharedSecrets` leaves. SQLite spells strpos instr.
  (d) => {
    const at = (needle: string) => `${d.name === 'sqlite' ? 'instr' : 'strpos'}(body, '${needle}')`;
    const content = `substr(body, ${at('<SharedSecret>')} + 14, ${at('</SharedSecret>')} - ${at('<SharedSecret>')} - 14)`;
    return `
  UPDATE buyer_documents
    SET body = replace(body, '<SharedSecret>' || ${content} || '</SharedSecret>',
      '<SharedSecret>[redacted]</SharedSecret>')
    WHERE ${at('<SharedSecret>')} > 0 AND ${at('</SharedSecret>')} > ${at('<SharedSecret>')};
  `;
  },
  // 10: invoices held for an operator, each a record of its own (they were a flag on the PO, which a later
  // action could clear without the invoice ever going out): one per print order and scope, kept forever.
  (d) => `
  CREATE TABLE invoice_holds (
    id ${d.serialKey},
    buyer_id TEXT NOT NULL,
    po_id TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    print_order_id ${d.int64} NOT NULL,
    scope TEXT NOT NULL,
    reason TEXT NOT NULL,
    amounts TEXT NOT NULL,
    state TEXT NOT NULL,
    prices TEXT,
    note TEXT,
    invoice_id TEXT,
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL,
    UNIQUE (storefront_id, print_order_id, scope)
  );
  CREATE INDEX invoice_holds_po ON invoice_holds (po_id, id);
  CREATE INDEX invoice_holds_open ON invoice_holds (state);
  `,
  // 11: buyer documents refused in a way an operator must hear of (a new PO reusing a stored orderID): the
  // refusal's facts only, never the document, listed newest first per buyer.
  (d) => `
  CREATE TABLE refused_documents (
    id ${d.serialKey},
    buyer_id TEXT NOT NULL,
    document_type TEXT NOT NULL,
    payload_id TEXT NOT NULL,
    order_id TEXT,
    code INTEGER NOT NULL,
    reason TEXT NOT NULL,
    related_po_id TEXT,
    created_at ${d.int64} NOT NULL
  );
  CREATE INDEX refused_documents_buyer ON refused_documents (buyer_id, id);
  `,
  // 12: test mode. A session, its cart lines and a PO remember the deploymentMode of the document that made
  // them, so a test PO orders only test lines; a PO remembers the storefront its print orders go to, so
  // every later step (retries, reconciliation, an operator's retry) finds the test storefront of a test PO
  // from the PO and never falls back to the buyer's production one. Everything stored before was production.
  () => `
  ALTER TABLE sessions ADD COLUMN deployment_mode TEXT NOT NULL DEFAULT 'production';
  ALTER TABLE cart_lines ADD COLUMN deployment_mode TEXT NOT NULL DEFAULT 'production';
  ALTER TABLE purchase_orders ADD COLUMN deployment_mode TEXT NOT NULL DEFAULT 'production';
  ALTER TABLE purchase_orders ADD COLUMN storefront_id TEXT;
  `,
  // 13: files that came with a purchase order (parts of its multipart/related message), kept with it. The
  // bytes are base64 text in parts of their own rows, as a big PO's text is (D1: 2,000,000 bytes a row),
  // which every driver binds as it binds any text.
  (d) => `
  CREATE TABLE purchase_order_attachments (
    po_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    content_id TEXT,
    filename TEXT,
    content_type TEXT NOT NULL,
    size ${d.int64} NOT NULL,
    PRIMARY KEY (po_id, position)
  );
  CREATE TABLE purchase_order_attachment_chunks (
    po_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (po_id, position, seq)
  );
  `,
  // 14: failed-authentication counters shared by every instance and kept across restarts: a guesser who
  // spreads his tries over instances, or waits for a restart, counts against the same key. One row per
  // key (a buyer, a buyer and address, an address for the admin token), updated in place.
  (d) => `
  CREATE TABLE guess_counters (
    key TEXT PRIMARY KEY,
    window_start ${d.int64} NOT NULL,
    failures INTEGER NOT NULL,
    locked_until ${d.int64} NOT NULL,
    lock_ms ${d.int64} NOT NULL
  );
  CREATE INDEX guess_counters_idle ON guess_counters (locked_until);
  `,
  // 15: the refusals log. Every buyer document or punch-in the gateway refused, with what it answered, who
  // sent it from where and the document as received (secrets blanked, cut short): what onboarding a buyer
  // needs to read. It takes over `refused_documents` (its rows come along, without a document), and unlike
  // them its entries are working data: capped per client address and in all, purged after their retention.
  (d) => `
  CREATE TABLE refusals (
    id ${d.serialKey},
    buyer_id TEXT,
    channel TEXT NOT NULL,
    document_type TEXT NOT NULL,
    payload_id TEXT,
    client_address TEXT NOT NULL,
    status INTEGER NOT NULL,
    answer TEXT NOT NULL,
    document TEXT NOT NULL,
    document_bytes ${d.int64} NOT NULL,
    created_at ${d.int64} NOT NULL
  );
  CREATE INDEX refusals_buyer ON refusals (buyer_id, id);
  CREATE INDEX refusals_address ON refusals (client_address, id);
  CREATE INDEX refusals_created ON refusals (created_at);
  INSERT INTO refusals (buyer_id, channel, document_type, payload_id, client_address, status, answer, document,
      document_bytes, created_at)
    SELECT buyer_id, 'cxml', document_type, payload_id, 'unknown', code, reason, '', 0, created_at
    FROM refused_documents ORDER BY id;
  DROP TABLE refused_documents;
  `,
  // 16: operators' notes on purchase orders, kept forever with the PO and read per PO, oldest first.
  (d) => `
  CREATE TABLE order_notes (
    id ${d.serialKey},
    po_id TEXT NOT NULL,
    text TEXT NOT NULL,
    author TEXT NOT NULL,
    created_at ${d.int64} NOT NULL
  );
  CREATE INDEX order_notes_po ON order_notes (po_id, id);
  `,
  // 17: what buyers say of the documents we sent them (StatusUpdateRequests: an invoice rejected, paid),
  // one row per request kept forever with its PO; and the documents we sent found by their payloadID, which
  // a buyer's DocumentReference names, through an index on the payloadID in their text (no column to fill).
  (d) => `
  CREATE TABLE status_updates (
    id ${d.serialKey},
    buyer_id TEXT NOT NULL,
    po_id TEXT NOT NULL,
    payload_id TEXT NOT NULL,
    document_id TEXT,
    invoice_record_id TEXT,
    status_code INTEGER NOT NULL,
    status_text TEXT NOT NULL,
    status_message TEXT NOT NULL,
    invoice_status TEXT,
    partial_amount TEXT,
    comments TEXT NOT NULL,
    received_at ${d.int64} NOT NULL,
    UNIQUE (buyer_id, payload_id)
  );
  CREATE INDEX status_updates_po ON status_updates (po_id, id);
  CREATE INDEX buyer_documents_payload ON buyer_documents (buyer_id, (${documentPayloadId(d)}));
  `,
  // 18: a cart line's price may be for N units (a product priced per thousand): kept with the line, so a
  // changed config never reads an old per-piece price as a per-thousand one.
  () => `ALTER TABLE cart_lines ADD COLUMN price_unit INTEGER NOT NULL DEFAULT 1;`,
  // 19: what each notification channel has announced to the operators, one row per exception (subject and
  // cause) and channel, so an exception is announced once per channel however many rounds find it open,
  // and a channel's messages of the last hour can be counted for its rate limit on every instance.
  (d) => `
  CREATE TABLE notifications_sent (
    channel TEXT NOT NULL,
    announcement_key TEXT NOT NULL,
    message_id TEXT NOT NULL,
    sent_at ${d.int64} NOT NULL,
    PRIMARY KEY (channel, announcement_key)
  );
  CREATE INDEX notifications_sent_at ON notifications_sent (channel, sent_at);
  `,
  // 20: the language a punch-out session's pages and cart texts are in, decided once at punch-in (or at
  // the first page a browser opens), so every later page and the cart sent back speak the same language.
  () => `ALTER TABLE sessions ADD COLUMN language TEXT;`,
  // 21: a buyer's reorder items, one per design ordered through a PO (buyer and part number), with what it
  // was last ordered at; listed per buyer, most recently ordered first. Kept forever.
  (d) => `
  CREATE TABLE reorder_items (
    buyer_id TEXT NOT NULL,
    part_id TEXT NOT NULL,
    storefront_id TEXT NOT NULL,
    user_ref TEXT NOT NULL,
    design_id ${d.int64} NOT NULL,
    product_id ${d.int64} NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    thumbnail_url TEXT NOT NULL,
    quantity ${d.int64} NOT NULL,
    unit_price TEXT NOT NULL,
    price_unit INTEGER NOT NULL,
    currency TEXT NOT NULL,
    uom TEXT NOT NULL,
    po_id TEXT NOT NULL,
    ordered_at ${d.int64} NOT NULL,
    created_at ${d.int64} NOT NULL,
    updated_at ${d.int64} NOT NULL,
    PRIMARY KEY (buyer_id, part_id)
  );
  CREATE INDEX reorder_items_recent ON reorder_items (buyer_id, ordered_at);
  `,
];

/**
 * The payloadID of a document we sent, read from its stored text: the first `payloadID="…"`, which is the
 * `<cXML>` root's (the envelope writes it before anything else that could carry one); NULL for a text
 * without one. Migration 15 indexes it; `outbox.findByPayloadId` queries by this very expression, because
 * a database uses an expression index only for a query that spells the expression alike. Never change it:
 * the index of a migrated database keeps the expression it was built with.
 */
export function documentPayloadId(d: SqlDialect): string {
  const find = (haystack: string, needle: string) =>
    `${d.name === 'sqlite' ? 'instr' : 'strpos'}(${haystack}, '${needle}')`;
  const start = `${find('body', 'payloadID="')} + 11`;
  const end = find(`substr(body, ${start})`, '"');
  return `CASE WHEN ${find('body', 'payloadID="')} > 0 AND ${end} > 0 THEN substr(body, ${start}, ${end} - 1) END`;
}

/** The migrations in `dialect`'s spelling. */
function migrationsFor(d: SqlDialect): readonly string[] {
  return MIGRATIONS.map((migration) => migration(d));
}

/** Bookkeeping of applied migrations, created before anything else. */
function schemaVersionFor(d: SqlDialect) {
  return {
    create: `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at ${d.int64} NOT NULL)`,
    current: 'SELECT COALESCE(MAX(version), 0) AS version FROM schema_version',
    record: d.compile('INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)').sql,
  } as const;
}

export const sqliteMigrations = migrationsFor(sqliteDialect);
export const sqliteSchemaVersion = schemaVersionFor(sqliteDialect);
export const postgresMigrations = migrationsFor(postgresDialect);
export const postgresSchemaVersion = schemaVersionFor(postgresDialect);
