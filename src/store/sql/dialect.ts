/**
 * What truly differs between the SQL databases the store runs on, so that statements and migrations are
 * written once (`statements.ts`, `migrations.ts`). SQLite and Cloudflare D1 share the SQLite dialect;
 * PostgreSQL has its own. Everything else — the upserts (`ON CONFLICT … DO UPDATE SET x = excluded.x`),
 * `RETURNING`, row-value updates, `COALESCE` patches — is spelled the same by all three.
 *
 * SQL text is written with numbered placeholders `$1`, `$2` …, reused where a value is needed twice, and a
 * PostgreSQL cast right on a placeholder (`$5::bigint`) where PostgreSQL cannot infer its type (`$5 IS NULL`,
 * the SELECT list of an INSERT … SELECT). Why SQLite does not simply get `?NNN`: better-sqlite3 takes a
 * numbered parameter for a named one and binds it only from an object, never from the positional arrays
 * every driver here passes. So the SQLite dialect rewrites each placeholder to an anonymous `+?` (dropping
 * the cast, which SQLite has no syntax for; the plus is explained in `compile`) and binds the values in the
 * order the `?`s appear.
 *
 * Pure: no `node:*`, no I/O.
 */
import type { SqlStatement, SqlValue } from './driver.ts';

/** A statement ready for one database: `bind` answers it with its values in that database's order. */
export interface CompiledSql {
  /** The text the database sees. */
  readonly sql: string;
  /** `params[n - 1]` is the value of `$n`. */
  bind(...params: SqlValue[]): SqlStatement;
}

export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** Spells the placeholders of `text` (written with `$n`) for this database. */
  compile(text: string): CompiledSql;
  /** A subquery of the elements of the JSON array text `$n`, as one text column. */
  jsonArrayElements(n: number): string;
  /**
   * `$n` compared with a store-assigned id. Ids travel as text; PostgreSQL would fail the cast of one that
   * is not a number, so there anything but 1–18 decimal digits becomes NULL and finds nothing. SQLite
   * compares the text with the INTEGER column as it always has.
   */
  storeId(n: number): string;
  /**
   * What a claim's row pick ends with: PostgreSQL locks the rows it picks and passes over rows another
   * transaction holds (READ COMMITTED would otherwise let two instances claim the same due row). SQLite
   * needs nothing: a write transaction there holds the whole database.
   */
  skipLocked(table?: string): string;
  /**
   * The integer `expression` as decimal text, zero-padded to at least `digits` digits (never cut short).
   */
  zeroPad(expression: string, digits: number): string;
  /**
   * A statement that makes the rest of its batch's transaction wait for every other transaction that took
   * the same text key `$n`, until it ends; `undefined` where a write transaction holds the whole database
   * anyway (SQLite, D1). For a value computed from what is stored (the next invoice number), which
   * READ COMMITTED would otherwise let two transactions compute alike.
   */
  exclusive(n: number): string | undefined;
  /** Column type of instants (milliseconds) and of the print service's numeric ids. */
  readonly int64: string;
  readonly float64: string;
  /** Column definition of an id the database assigns. */
  readonly serialKey: string;
}

const PLACEHOLDER = /\$(\d+)(?:::[a-z0-9_]+)?/g;

export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  compile(text) {
    const order: number[] = [];
    // `+?`, not `?`: SQLite as better-sqlite3 builds it (with STAT4) may choose a plan by a bare
    // parameter's bound value, and then prepares the statement again each time a value is bound, which
    // better-sqlite3 does at every call: 10–95 µs more per execution of most listings (those with an ORDER
    // BY), 3–15 times the statement's own work. Unary plus hands every comparison, insert and function the
    // same value with the same (no) affinity, and the planner still uses indexes through it; no statement
    // here needs a bound value to pick the one partial index (jobs_open_key: its queries spell its
    // condition, `state <> 'done'`).
    const sql = text.replace(PLACEHOLDER, (_, n: string) => {
      order.push(Number(n) - 1);
      return '+?';
    });
    return { sql, bind: (...params) => ({ sql, params: order.map((index) => params[index]!) }) };
  },
  jsonArrayElements: (n) => `SELECT value FROM json_each($${n})`,
  storeId: (n) => `$${n}`,
  skipLocked: () => '',
  zeroPad: (expression, digits) => `printf('%0${digits}d', ${expression})`,
  exclusive: () => undefined,
  int64: 'INTEGER',
  float64: 'REAL',
  serialKey: 'INTEGER PRIMARY KEY',
};

export const postgresDialect: SqlDialect = {
  name: 'postgres',
  compile(sql) {
    return { sql, bind: (...params) => ({ sql, params }) };
  },
  jsonArrayElements: (n) => `SELECT jsonb_array_elements_text($${n}::jsonb)`,
  storeId: (n) => `(CASE WHEN $${n}::text ~ '^[0-9]{1,18}$' THEN $${n}::text::bigint END)`,
  skipLocked: (table) => ` FOR UPDATE${table === undefined ? '' : ` OF ${table}`} SKIP LOCKED`,
  zeroPad: (expression, digits) =>
    `lpad(CAST(${expression} AS text), GREATEST(${digits}, length(CAST(${expression} AS text))), '0')`,
  // Keyed by schema too, so stores in different schemas of one database never wait for each other.
  exclusive: (n) => `SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':' || $${n}::text))`,
  int64: 'BIGINT',
  float64: 'DOUBLE PRECISION',
  serialKey: 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
};
