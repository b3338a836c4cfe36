import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres.ts';
import { postgresMigrations, postgresSchemaVersion } from '../../src/store/postgres-sql.ts';
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

    it('migrates a version 1 schema: existing orders get their dedupe keys, later changes their own rows', async () => {
      const schema = schemas.fresh();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schema}`);
        await client.query(`SET search_path = ${schema}`);
        await client.query(postgresSchemaVersion.create);
        await client.query(postgresMigrations[0]!);
        await client.query(postgresSchemaVersion.record, [1, 0]);
        const request = (orderVersion?: string) => JSON.stringify({ request: { orderVersion }, lines: [] });
        for (const [id, payloadId, orderId, type, document] of [
          [7, 'p-new', 'PO-1', 'new', request('1')],
          [8, 'p-change', 'PO-1', 'update', request('2')],
          [9, 'p-cancel', 'PO-1', 'delete', request()],
          [10, 'p-change-unversioned', 'PO-2', 'update', request()],
          [11, 'p-odd', 'PO-3', 'new', '"a JSON string"'],
        ] as const) {
          await client.query(
            `INSERT INTO purchase_orders (id, buyer_id, payload_id, order_id, type, state, raw, document,
              answer_code, answer_text, print_order_ids, flags, created_at, updated_at)
            VALUES ($1, 'acme', $2, $3, $4, 'ordered', '<cXML/>', $5, 200, 'OK', '[5001]', '[]', 0, 0)`,
            [id, payloadId, orderId, type, document],
          );
        }
        const store = await schemas.open(schema, { clock: createManualClock(T0) });
        const { rows } = await client.query(
          'SELECT id::integer AS id, order_version, revision_key FROM purchase_orders ORDER BY id',
        );
        expect(rows).toEqual([
          { id: 7, order_version: '1', revision_key: '' },
          { id: 8, order_version: '2', revision_key: 'version:2' },
          { id: 9, order_version: null, revision_key: '' },
          { id: 10, order_version: null, revision_key: 'payload:p-change-unversioned' },
          { id: 11, order_version: null, revision_key: '' },
        ]);
        const order = (payloadId: string, type: 'new' | 'update', orderId: string, orderVersion?: string) =>
          store.orders.accept({
            buyerId: 'acme',
            payloadId,
            orderId,
            type,
            ...(orderVersion !== undefined && { orderVersion }),
            raw: '<cXML/>',
            document: {},
            answer: { code: 200, text: 'OK' },
          });
        expect((await order('p-new-again', 'new', 'PO-1')).order.id).toBe('7');
        expect((await order('p-change-again', 'update', 'PO-1', '2')).order.id).toBe('8');
        expect((await order('p-change-3', 'update', 'PO-1', '3')).created).toBe(true);
        expect((await order('p-change-unversioned-2', 'update', 'PO-2')).created).toBe(true);
        await store.close();
      } finally {
        await client.end();
      }
    });

    it('migrates a version 2 schema: messages keep their ids and read as before, delivered ones can be purged', async () => {
      const schema = schemas.fresh();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schema}`);
        await client.query(`SET search_path = ${schema}`);
        await client.query(postgresSchemaVersion.create);
        for (const [index, migration] of postgresMigrations.slice(0, 2).entries()) {
          await client.query(migration);
          await client.query(postgresSchemaVersion.record, [index + 1, 0]);
        }
        for (const row of [
          ['7', 'confirm:7', '<accept/>', 2, 1000, 'delivered', null, 'HTTP 503', 5000, 0, 5000],
          ['7', 'ship:7:0', '<ship/>', 0, 6000, 'pending', null, null, null, 6000, 6000],
          ['8', 'confirm:8', '<accept/>', 1, 0, 'sending', 9000, null, null, 0, 0],
          ['9', 'confirm:9', '<accept/>', 3, 0, 'dead', null, 'HTTP 400', null, 0, 7000],
        ]) {
          await client.query(
            `INSERT INTO outbox (buyer_id, po_id, kind, dedupe_key, url, body, attempts, next_attempt_at, state,
              lease_until, last_error, delivered_at, created_at, updated_at)
            VALUES ('acme', $1, 'confirmation', $2, 'https://buyer.example.com/cxml', $3, $4, $5, $6, $7, $8, $9,
              $10, $11)`,
            row,
          );
        }
        const store = await schemas.open(schema, { clock: createManualClock(T0) });
        const { rows } = await client.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'outbox%' ORDER BY 1",
          [schema],
        );
        expect(rows.map((r) => r.table_name)).toEqual(['outbox_messages', 'outbox_queue']);
        const delivered = {
          id: '1',
          buyerId: 'acme',
          poId: '7',
          kind: 'confirmation',
          dedupeKey: 'confirm:7',
          url: 'https://buyer.example.com/cxml',
          body: '<accept/>',
          attempts: 2,
          nextAttemptAt: new Date(1000),
          state: 'delivered',
          lastError: 'HTTP 503',
          deliveredAt: new Date(5000),
          createdAt: new Date(0),
          updatedAt: new Date(5000),
        };
        expect(await store.outbox.get('1')).toStrictEqual(delivered);
        expect(await store.outbox.get('3')).toMatchObject({
          state: 'sending',
          attempts: 1,
          leaseUntil: new Date(9000),
        });
        expect(await store.outbox.get('4')).toMatchObject({
          state: 'dead',
          attempts: 3,
          lastError: 'HTTP 400',
        });
        const listed = await store.outbox.list({ poId: '7' });
        expect(listed.items.map((m) => [m.id, m.state])).toEqual([
          ['2', 'pending'],
          ['1', 'delivered'],
        ]);

        expect(await store.outbox.purgeDelivered(T0)).toBe(1);
        expect(await store.outbox.get('1')).toStrictEqual(delivered);
        expect(await store.outbox.list({ poId: '7' })).toStrictEqual(listed);
        const again = await store.outbox.enqueue({
          buyerId: 'acme',
          poId: '7',
          kind: 'confirmation',
          dedupeKey: 'confirm:7',
          url: 'https://buyer.example.com/cxml',
          body: '<accept/>',
        });
        expect(again).toStrictEqual({ created: false, message: delivered });
        expect((await store.outbox.claimDue(T0, 60_000, 10)).map((m) => m.id)).toEqual(['3', '2']);
        const fresh = await store.outbox.enqueue({ ...again.message, dedupeKey: 'ship:7:1' });
        expect(fresh.created).toBe(true);
        expect(Number(fresh.message.id)).toBeGreaterThan(4);
        await store.close();
      } finally {
        await client.end();
      }
    });

    it('migrates a version 3 schema: print orders tracked before give the highest id, heartbeats start empty', async () => {
      const schema = schemas.fresh();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA ${schema}`);
        await client.query(`SET search_path = ${schema}`);
        await client.query(postgresSchemaVersion.create);
        for (const [index, migration] of postgresMigrations.slice(0, 3).entries()) {
          await client.query(migration);
          await client.query(postgresSchemaVersion.record, [index + 1, 0]);
        }
        for (const [printOrderId, state] of [
          [5007, 'closed'],
          [5001, 'closed'],
          [5004, 'open'],
        ] as const) {
          await client.query(
            `INSERT INTO print_orders (storefront_id, print_order_id, po_id, state, shipments_notified,
              confirmed, created_at, updated_at) VALUES ('demo', $1, '7', $2, '[]', 1, 0, 0)`,
            [printOrderId, state],
          );
        }
        const store = await schemas.open(schema, { clock: createManualClock(T0) });
        const { rows } = await client.query('SELECT version FROM schema_version ORDER BY version');
        expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
        expect(await store.printOrders.highestId('demo')).toBe(5007);
        expect(await store.printOrders.get('demo', 5004)).toMatchObject({ state: 'open', confirmed: true });
        expect(await store.heartbeat.last('background-round')).toBeUndefined();
        await store.heartbeat.beat('background-round', T0);
        expect(await store.heartbeat.last('background-round')).toStrictEqual(T0);
        await store.close();
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
