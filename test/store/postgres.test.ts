import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres.ts';
import { postgresMigrations } from '../../src/store/postgres-sql.ts';
import { createManualClock } from './manual-clock.ts';
import { describeWithPostgres, useTestSchemas } from './postgres-test-database.ts';
import { cxmlSession, expectStoreError, runStoreSuite, T0 } from './store-suite.ts';

describeWithPostgres('PostgreSQL store', (url) => {
  const schemas = useTestSchemas();

  runStoreSuite('postgres', async ({ clock }) => schemas.open(schemas.fresh(), { clock }));

  describe('PostgreSQL specifics', () => {
    it('creates the schema once and records its version, even when instances start together', async () => {
      const schema = schemas.fresh();
      const stores = await Promise.all([1, 2, 3].map(() => schemas.open(schema)));
      await Promise.all(stores.map((s) => s.close()));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT version FROM ${schema}.schema_version ORDER BY version`);
        expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
      } finally {
        await client.end();
      }
    });

    it('keeps records across close and reopen', async () => {
      const schema = schemas.fresh();
      const clock = createManualClock(T0);
      const first = await schemas.open(schema, { clock });
      const session = await first.sessions.create(cxmlSession());
      await first.close();
      const second = await schemas.open(schema, { clock });
      expect(await second.sessions.get(session.id)).toStrictEqual(session);
      await second.close();
    });

    it('refuses a schema written by a newer punchgate', async () => {
      const schema = schemas.fresh();
      await (await schemas.open(schema)).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`INSERT INTO ${schema}.schema_version (version, applied_at) VALUES ($1, 0)`, [
        postgresMigrations.length + 1,
      ]);
      await client.end();
      await expect(schemas.open(schema)).rejects.toMatchObject({
        name: 'StoreError',
        code: 'incompatible_schema',
      });
    });

    it('answers unavailable once closed, and when the server cannot be reached', async () => {
      const store = await schemas.open(schemas.fresh());
      await store.close();
      await expectStoreError(store.sessions.get('x'), 'unavailable');
      await expectStoreError(store.ping(), 'unavailable');
      // Port 1 on loopback: nothing listens there, so the connection is refused at once.
      await expect(
        createPostgresStore({ url: 'postgres://nobody@127.0.0.1:1/none', connectTimeoutMs: 2000 }),
      ).rejects.toMatchObject({ name: 'StoreError', code: 'unavailable' });
    });

    it('refuses a schema name that is not a plain identifier', async () => {
      await expect(createPostgresStore({ url, schema: 'x; DROP TABLE y' })).rejects.toMatchObject({
        name: 'StoreError',
        code: 'invalid',
      });
    });
  });
});
