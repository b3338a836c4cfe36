/**
 * Where the PostgreSQL tests find their database: `PUNCHGATE_TEST_PG_URL` when it names one, otherwise the
 * throwaway server the run started (test/support/postgres-global-setup.ts). Either way the suites run:
 * there is no machine on which they skip.
 */
import pg from 'pg';
import { afterAll, describe, inject } from 'vitest';
import { createPostgresStore, type PostgresStoreOptions } from '../../src/store/postgres.ts';

function testDatabaseUrl(): string {
  const url = inject('postgresUrl');
  if (!url) {
    throw new Error(
      'no PostgreSQL for the tests: run them with vitest.config.ts, whose global setup provides one (PUNCHGATE_TEST_PG_URL or a throwaway server)',
    );
  }
  return url;
}

export const pgUrl: string = testDatabaseUrl();

/** `describe` whose tests get the test database's URL. */
export function describeWithPostgres(name: string, body: (url: string) => void): void {
  describe(name, () => body(pgUrl));
}

/** A client of the test database for `use` alone, ended whatever `use` throws. */
export async function withClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Hands out fresh schemas in the test database, one per call, and drops them after the file's tests.
 */
export function useTestSchemas(): {
  fresh(): string;
  open(
    schema: string,
    options?: Omit<PostgresStoreOptions, 'url' | 'schema'>,
  ): ReturnType<typeof createPostgresStore>;
} {
  const created: string[] = [];
  const prefix = `t${process.pid}_${Date.now().toString(36)}`;
  // One schema per test, each with every table of the store: dropping 130 of them takes more than the
  // default 30 s hook timeout on a loaded machine, after every test has passed.
  afterAll(async () => {
    if (created.length === 0) return;
    await withClient(async (client) => {
      for (const schema of created) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    });
  }, 180_000);
  return {
    fresh() {
      const schema = `${prefix}_${created.length + 1}`;
      created.push(schema);
      return schema;
    },
    open(schema, options = {}) {
      return createPostgresStore({ url: pgUrl, schema, ...options });
    },
  };
}
