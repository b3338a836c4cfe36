/**
 * What a SQL adapter provides to the SQL store: a small async driver over one database (better-sqlite3, D1,
 * pg). Every store operation is one statement or one atomic batch, so no driver needs an interactive
 * transaction (D1 has none). Drivers translate their own failures into `StoreError` (`duplicate` for a
 * unique-key violation, `unavailable` for lock, I/O and connection trouble).
 */

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

export interface SqlDriver {
  run(statement: SqlStatement): Promise<SqlResult>;
  /** Runs the statements in order as one transaction: all take effect or none. */
  batch(statements: readonly SqlStatement[]): Promise<SqlResult[]>;
  close(): Promise<void>;
}
