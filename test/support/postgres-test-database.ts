/**
 * Where the PostgreSQL tests find their database: `PUNCHGATE_TEST_PG_URL` (`.ci/run` starts a throwaway
 * cluster and sets it). In CI a missing variable fails the run; on a developer's machine without PostgreSQL
 * the tests are skipped, and the skipped suite's title says why.
 */
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { createPostgresStore, type PostgresStoreOptions } from '../../src/store/postgres.ts';

export const pgUrl = process.env.PUNCHGATE_TEST_PG_URL;
const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** `describe` that needs PostgreSQL: required in CI, skipped with its reason elsewhere. */
export function describeWithPostgres(name: string, body: (url: string) => void): void {
  if (pgUrl) {
    describe(name, () => body(pgUrl));
  } else if (inCi) {
    describe(name, () => {
      it('needs PostgreSQL', () => {
        throw new Error('PUNCHGATE_TEST_PG_URL is not set: CI must start PostgreSQL (see .ci/run)');
      });
    });
  } else {
    describe.skip(`${name} (skipped: PUNCHGATE_TEST_PG_URL is not set; .ci/run shows how to start one)`, () =>
      body(''));
  }
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
  afterAll(async () => {
    if (!pgUrl || created.length === 0) return;
    await withClient(async (client) => {
      for (const schema of created) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    });
  });
  return {
    fresh() {
      const schema = `${prefix}_${created.length + 1}`;
      created.push(schema);
      return schema;
    },
    open(schema, options = {}) {
      return createPostgresStore({ url: pgUrl ?? '', schema, ...options });
    },
  };
}
