/**
 * A database of its own for the PostgreSQL fault tests. Terminating backends hits every session of a
 * database, so these tests must not share one with the other PostgreSQL tests that run beside them; a
 * schema is not enough. Created in the test cluster (`PUNCHGATE_TEST_PG_URL`), dropped after the file.
 */
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { pgUrl } from './postgres-test-database.ts';

export interface FaultDatabase {
  /** The connection URL of the file's own database. */
  url(): string;
  /**
   * Ends every other session on the database, as `pg_terminate_backend` does when an operator or a
   * failover kills connections; answers how many it ended.
   */
  terminateBackends(): Promise<number>;
}

export function useFaultDatabase(): FaultDatabase {
  const name = `pgfaults_${process.pid}_${Date.now().toString(36)}`;
  let url = '';
  let killer: pg.Client | undefined;

  beforeAll(async () => {
    if (!pgUrl) return;
    await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
    const target = new URL(pgUrl);
    target.pathname = `/${name}`;
    url = target.toString();
  });

  afterAll(async () => {
    if (!pgUrl || url === '') return;
    await killer?.end().catch(() => {});
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });

  return {
    url: () => url,
    async terminateBackends() {
      if (killer === undefined) {
        killer = new pg.Client({ connectionString: url });
        killer.on('error', () => {});
        await killer.connect();
      }
      const result = await killer.query(
        `SELECT count(pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return result.rows[0].ended as number;
    },
  };
}

async function withAdmin(work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}
