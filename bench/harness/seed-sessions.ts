/**
 * Stored sessions in bulk for the cases about many of them: one INSERT … SELECT over a recursive CTE, in
 * one transaction on a connection of its own, writes rows as the store's create path would (the same
 * columns, JSON extrinsics, a PIPO token), about 3 s for 1,000,000 (a 380 MB file). The store that reads
 * them stays open on its own connection (WAL mode: it sees them at its next read).
 */
import Database from 'better-sqlite3';

export interface SessionSeed {
  /** Rows written, ids `${prefix}${i, 8 digits}${suffix}` for i from `from` (default 0). */
  readonly count: number;
  readonly prefix: string;
  readonly suffix?: string;
  readonly from?: number;
  /** Their createdAt/updatedAt and pipo token time, and their expiry (ms since the epoch). */
  readonly now: number;
  readonly expiresAt: number;
}

/**
 * The ids of session-memory's bulk-seeded sessions, which its probe seeds or copies from a template file
 * seeded by the case (the sessions it creates have base-36 ids past them: no id twice).
 */
export const MEMORY_PROBE_SEED = { prefix: 's', suffix: '-bench-session-id' } as const;

/** The id of the i-th seeded session. */
export function seededSessionId(seed: Pick<SessionSeed, 'prefix' | 'suffix'>, i: number): string {
  return `${seed.prefix}${String(i).padStart(8, '0')}${seed.suffix ?? ''}`;
}

/** Writes the sessions of `seed` into the SQLite file at `path` (migrated already: open the store first). */
export function seedSessions(path: string, seed: SessionSeed): void {
  if (seed.count <= 0) return;
  const db = new Database(path);
  try {
    db.pragma('synchronous = OFF');
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
       INSERT INTO sessions (id, buyer_id, storefront_id, protocol, operation, buyer_cookie, return_url,
         buyer_user_key, pipo_user_ref, extrinsics, state, pipo_token, pipo_token_obtained_at, version, created_at,
         updated_at, expires_at)
       SELECT ? || substr('00000000' || i, -8) || ?, 'acme', 'demo', 'cxml', 'create', 'cookie-' || i,
         'https://s1-eu.ariba.example/Buyer/punchout?client=ACME&req=1234567',
         'user' || (i % 5000) || '@acme.example', 'user' || (i % 5000) || '@acme.example',
         json_object('UniqueName', 'user' || (i % 5000), 'UserEmail', 'user' || (i % 5000) || '@acme.example'),
         'open', printf('%032x', i), ?, 1, ?, ?, ?
       FROM n`,
    ).run(
      seed.from ?? 0,
      (seed.from ?? 0) + seed.count,
      seed.prefix,
      seed.suffix ?? '',
      seed.now,
      seed.now,
      seed.now,
      seed.expiresAt,
    );
    // Into the database file, as a gateway's sessions would be by now, not left in a WAL as large.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
