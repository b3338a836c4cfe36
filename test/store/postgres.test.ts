import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres.ts';
import { postgresMigrations, postgresSchemaVersion } from '../../src/store/sql/migrations.ts';
import { describeWithPostgres, useTestSchemas, withClient } from '../support/postgres-test-database.ts';
import { createManualClock } from './manual-clock.ts';
import {
  acceptOrderIn,
  expectVersion2MessagesMigrated,
  expectVersion3Migrated,
  expectVersion7Migrated,
  expectVersion7DocumentsRedacted,
  version1Orders,
  version1OrdersMigrated,
  version2Messages,
  version3PrintOrders,
  version7Orders,
  version7Documents,
} from './migration-checks.ts';
import { cxmlSession, expectStoreError, runStoreSuite, T0 } from './store-suite.ts';

describeWithPostgres('PostgreSQL store', (url) => {
  const schemas = useTestSchemas();

  let suiteSchema = '';
  runStoreSuite(
    'postgres',
    async ({ clock }) => {
      suiteSchema = schemas.fresh();
      return schemas.open(suiteSchema, { clock });
    },
    {
      async failCartLineUpdates() {
        const schema = suiteSchema;
        await withClient(async (client) => {
          await client.query(`CREATE FUNCTION ${schema}.fail_cart_line_updates() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
          await client.query(`CREATE TRIGGER fail_cart_line_updates BEFORE UPDATE ON ${schema}.cart_lines
            FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_cart_line_updates()`);
        });
        return async () => {
          await withClient(async (client) => {
            await client.query(`DROP TRIGGER fail_cart_line_updates ON ${schema}.cart_lines`);
          });
        };
      },
      async failAttachmentWrites() {
        const schema = suiteSchema;
        await withClient(async (client) => {
          await client.query(`CREATE FUNCTION ${schema}.fail_attachment_writes() RETURNS trigger
            LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
          await client.query(`CREATE TRIGGER fail_attachment_writes
            BEFORE INSERT ON ${schema}.purchase_order_attachment_chunks
            FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_attachment_writes()`);
        });
        return async () => {
          await withClient(async (client) => {
            await client.query(
              `DROP TRIGGER fail_attachment_writes ON ${schema}.purchase_order_attachment_chunks`,
            );
          });
        };
      },
    },
  );

  /** Creates `schema` at an older version and leaves the client's search path on it, for that version's rows. */
  async function createSchemaAtVersion(client: pg.Client, schema: string, version: number): Promise<void> {
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(`SET search_path = ${schema}`);
    await client.query(postgresSchemaVersion.create);
    for (const [index, migration] of postgresMigrations.slice(0, version).entries()) {
      await client.query(migration);
      await client.query(postgresSchemaVersion.record, [index + 1, 0]);
    }
  }

  describe('PostgreSQL specifics', () => {
    it('creates the schema once and records its version, even when instances start together', async () => {
      const schema = schemas.fresh();
      const stores = await Promise.all([1, 2, 3].map(() => schemas.open(schema)));
      await Promise.all(stores.map((s) => s.close()));
      await withClient(async (client) => {
        const { rows } = await client.query(`SELECT version FROM ${schema}.schema_version ORDER BY version`);
        expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
      });
    });

    it('migrates a version 1 schema: existing orders get their dedupe keys, later changes their own rows', async () => {
      const schema = schemas.fresh();
      await withClient(async (client) => {
        await createSchemaAtVersion(client, schema, 1);
        for (const row of version1Orders('"a JSON string"')) {
          await client.query(
            `INSERT INTO purchase_orders (id, buyer_id, payload_id, order_id, type, state, raw, document,
              answer_code, answer_text, print_order_ids, flags, created_at, updated_at)
            VALUES ($1, 'acme', $2, $3, $4, 'ordered', '<cXML/>', $5, 200, 'OK', '[5001]', '[]', 0, 0)`,
            [...row],
          );
        }
        const store = await schemas.open(schema, { clock: createManualClock(T0) });
        const { rows } = await client.query(
          'SELECT id::integer AS id, order_version, revision_key FROM purchase_orders ORDER BY id',
        );
        expect(rows).toEqual(version1OrdersMigrated);
        const order = acceptOrderIn(store);
        expect((await order('p-new-again', 'new', 'PO-1')).order.id).toBe('7');
        expect((await order('p-change-again', 'update', 'PO-1', '2')).order.id).toBe('8');
        expect((await order('p-change-3', 'update', 'PO-1', '3')).created).toBe(true);
        expect((await order('p-change-unversioned-2', 'update', 'PO-2')).created).toBe(true);
        await store.close();
      });
    });

    it('migrates a version 2 schema: messages keep their ids and read as before, delivered ones can be purged', async () => {
      const schema = schemas.fresh();
      await withClient(async (client) => {
        await createSchemaAtVersion(client, schema, 2);
        // The serial column numbers them 1 to 4 in this order.
        for (const [, ...row] of version2Messages) {
          await client.query(
            `INSERT INTO outbox (buyer_id, po_id, kind, dedupe_key, url, body, attempts, next_attempt_at, state,
              lease_until, last_error, delivered_at, created_at, updated_at)
            VALUES ('acme', $1, 'confirmation', $2, 'https://buyer.example.com/cxml', $3, $4, $5, $6, $7, $8, $9,
              $10, $11)`,
            [...row],
          );
        }
        const store = await schemas.open(schema, { clock: createManualClock(T0) });
        const { rows } = await client.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'outbox%' ORDER BY 1",
          [schema],
        );
        expect(rows.map((r) => r.table_name)).toEqual(['outbox_messages', 'outbox_queue']);
        const fresh = await expectVersion2MessagesMigrated(store, {
          delivered: '1',
          pending: '2',
          sending: '3',
          dead: '4',
        });
        expect(fresh.created).toBe(true);
        expect(Number(fresh.message.id)).toBeGreaterThan(4);
        await store.close();
      });
    });

    it('migrates a version 3 schema: print orders tracked before give the highest id, heartbeats start empty', async () => {
      const schema = schemas.fresh();
      await withClient(async (client) => {
        await createSchemaAtVersion(client, schema, 3);
        for (const row of version3PrintOrders) {
          await client.query(
            `INSERT INTO print_orders (storefront_id, print_order_id, po_id, state, shipments_notified,
              confirmed, created_at, updated_at) VALUES ('demo', $1, '7', $2, '[]', 1, 0, 0)`,
            [...row],
          );
        }
        const store = await schemas.open(schema, { clock: createManualClock(T0) });
        const { rows } = await client.query('SELECT version FROM schema_version ORDER BY version');
        expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
        await expectVersion3Migrated(store);
        await store.close();
      });
    });

    it('migrates a version 7 schema: create attempts get their own field, sent documents keep no SharedSecret', async () => {
      const schema = schemas.fresh();
      await withClient(async (client) => {
        await createSchemaAtVersion(client, schema, 7);
        for (const [id, orderId, flags] of version7Orders) {
          await client.query(
            `INSERT INTO purchase_orders (id, buyer_id, payload_id, order_id, type, revision_key, state, raw,
              document, answer_code, answer_text, print_order_ids, flags, created_at, updated_at)
            VALUES ($1, 'acme', $2, $2, 'new', '', 'processing', '<cXML/>', '{}', 200, 'OK', '[]', $3, 0, 0)`,
            [id, orderId, flags],
          );
        }
        for (const row of version7Documents) {
          await client.query(
            `INSERT INTO buyer_documents (id, buyer_id, po_id, kind, dedupe_key, url, body, created_at, attempts,
              next_attempt_at, delivered_at, updated_at)
            VALUES ($1, 'acme', '7', 'confirmation', $2, 'https://buyer.example.com/cxml', $3, 0, 1, 0, 5000, 5000)`,
            [...row],
          );
        }
        const store = await schemas.open(schema, { clock: createManualClock(T0) });
        const { rows } = await client.query('SELECT version FROM schema_version ORDER BY version');
        expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
        await expectVersion7Migrated(store);
        await expectVersion7DocumentsRedacted(store);
        await store.close();
      });
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
      await withClient(async (client) => {
        await client.query(`INSERT INTO ${schema}.schema_version (version, applied_at) VALUES ($1, 0)`, [
          postgresMigrations.length + 1,
        ]);
      });
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
