/**
 * A big purchase order on SQLite: its raw and stored documents kept in parts beside a small row (an UPDATE
 * rewrites a row whole), its document serialised in slices (jsonInSlices), and its intake still all or
 * nothing when the database fails between the parts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_SLICE, jsonInSlices } from '../../src/store/sql/json-in-slices.ts';
import { createSqliteStore, SQLITE_INLINE_ORDER_CHARS } from '../../src/store/sqlite.ts';
import type { JsonValue, NewPurchaseOrder } from '../../src/store/types.ts';
import { createManualClock } from './manual-clock.ts';
import { cartLine, T0 } from './store-suite.ts';

const LINES = 2_000;
/** Cart lines the order names: enough to see them marked or left, few enough to add one by one. */
const CART_LINES = 20;
const lineRef = (i: number) => `L-${String(i).padStart(6, '0')}`;

/** A document shaped like a PO's: items in the request, lines and mismatches beside it, non-ASCII text. */
function bigDocument(lines: number): JsonValue {
  const items = Array.from({ length: lines }, (_, i) => ({
    lineNumber: i + 1,
    supplierPartAuxiliaryID: lineRef(i + 1),
    description: `Visitenkarten „Grüße“ ${'x'.repeat(120)}`,
    quantity: '100',
  }));
  return {
    shape: 2,
    request: { orderID: 'PO-BIG', items, comments: 'Bitte schnell 🚚' },
    lines: items.map((item) => ({ ...item, designId: 9001, cart: { sku: 'BC-STD', quantity: 100 } })),
    mismatches: [],
  };
}

function bigOrder(payloadId: string): NewPurchaseOrder {
  return {
    buyerId: 'acme',
    payloadId,
    orderId: `PO-${payloadId}`,
    type: 'new',
    raw: `<?xml version="1.0"?><cXML payloadID="${payloadId}">${'<ItemOut/>'.repeat(30_000)}</cXML>`,
    document: bigDocument(LINES),
    answer: { code: 200, text: 'OK' },
  };
}

const JOB = { kind: 'process_order', keyPrefix: 'po:', runAt: T0, maxAttempts: 5 };

describe('jsonInSlices', () => {
  it('writes exactly what JSON.stringify writes, big arrays nested or not', async () => {
    const value = {
      first: [1, 2, 3],
      big: Array.from({ length: JSON_SLICE * 2 + 7 }, (_, i) => ({ i, text: `„${i}“`, nothing: null })),
      nested: { deeper: { rows: Array.from({ length: JSON_SLICE + 1 }, (_, i) => [i, `r${i}`]) } },
      empty: [],
      // A field JSON.stringify leaves out, and an array element it writes as null.
      gone: undefined,
      holes: Array.from({ length: JSON_SLICE }, (_, i) => (i % 2 === 0 ? i : undefined)),
    } as unknown as JsonValue;
    expect(await jsonInSlices(value)).toBe(JSON.stringify(value));
    expect(await jsonInSlices(bigDocument(LINES))).toBe(JSON.stringify(bigDocument(LINES)));
    expect(await jsonInSlices({ small: [1, 2], text: 'ä' })).toBe('{"small":[1,2],"text":"ä"}');
  });

  it('lets work queued meanwhile run before a big document is written whole', async () => {
    const happened: string[] = [];
    const writing = jsonInSlices(bigDocument(LINES)).then(() => happened.push('written'));
    setTimeout(() => happened.push('other request'), 0);
    await writing;
    expect(happened).toEqual(['other request', 'written']);
  });
});

describe('a big purchase order on SQLite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'punchgate-big-order-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function storeWithLines(name: string) {
    const path = join(dir, `${name}.db`);
    const store = createSqliteStore({ path, clock: createManualClock(T0) });
    for (let i = 1; i <= CART_LINES; i++) {
      await store.cart.add(
        cartLine({ lineRef: lineRef(i), sessionId: 'sess-1', userRef: 'jane', quantity: 100 }),
      );
    }
    return { store, path };
  }

  it('keeps its documents in parts beside a small row, and reads and updates it whole', async () => {
    const { store, path } = await storeWithLines('parts');
    const input = bigOrder('big-1@buyer');
    const result = await store.orders.acceptWithLines({
      order: input,
      lineRefs: Array.from({ length: CART_LINES }, (_, i) => lineRef(i + 1)),
      job: JOB,
    });
    if (!result.created) throw new Error('expected a created order');
    const db = new Database(path, { readonly: true });
    try {
      const row = db
        .prepare('SELECT LENGTH(raw) AS raw, LENGTH(document) AS document, text_chunks FROM purchase_orders')
        .get() as { raw: number; document: number; text_chunks: number };
      expect(row).toMatchObject({ raw: 0, document: 0 });
      const parts = db.prepare(
        'SELECT COUNT(*) AS n, MAX(LENGTH(text)) AS longest FROM purchase_order_chunks',
      );
      const { n, longest } = parts.get() as { n: number; longest: number };
      expect(n).toBe(row.text_chunks);
      expect(n).toBeGreaterThan(2);
      expect(longest).toBeLessThanOrEqual(SQLITE_INLINE_ORDER_CHARS);
    } finally {
      db.close();
    }
    expect(await store.orders.patch(result.id, { state: 'processing' }, { ifState: ['received'] })).toBe(
      true,
    );
    const stored = await store.orders.get(result.id);
    expect(stored).toMatchObject({ state: 'processing', raw: input.raw });
    expect(stored?.document).toStrictEqual(input.document);
    expect(await store.cart.get(lineRef(CART_LINES))).toMatchObject({ state: 'ordered', poId: result.id });
    await store.close();
  });

  it('stores nothing of it when the database fails between its parts: no order, no parts, lines open', async () => {
    const { store, path } = await storeWithLines('atomic');
    const db = new Database(path);
    // The third part of the document fails: the order row, its job, its lines and two parts came before.
    db.exec(`CREATE TRIGGER fail_third_part BEFORE INSERT ON purchase_order_chunks
      WHEN NEW.part = 'document' AND NEW.seq = 2 BEGIN SELECT RAISE(ABORT, 'injected failure'); END`);
    db.close();
    await expect(
      store.orders.acceptWithLines({
        order: bigOrder('big-2@buyer'),
        lineRefs: Array.from({ length: CART_LINES }, (_, i) => lineRef(i + 1)),
        job: JOB,
      }),
    ).rejects.toThrow(/injected failure/);
    expect((await store.orders.list()).items).toEqual([]);
    expect((await store.jobs.list()).items).toEqual([]);
    const lines = await store.cart.getMany([lineRef(1), lineRef(CART_LINES)]);
    expect(lines.map((line) => line.state)).toEqual(['cart', 'cart']);
    const check = new Database(path, { readonly: true });
    try {
      expect(check.prepare('SELECT COUNT(*) AS n FROM purchase_order_chunks').get()).toEqual({ n: 0 });
    } finally {
      check.close();
    }
    await store.close();
  });
});
