/**
 * The one Store contract suite. Every adapter's test calls `runStoreSuite` with a factory; the factory gets
 * the suite's frozen clock and must hand back an empty store that uses it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCxmlRequest } from '../../src/cxml/index.ts';
import { type PoDocument, poDocument, requestForStorage } from '../../src/gateway/orders/po-record.ts';
import type { Clock } from '../../src/store/clock.ts';
import { purgeExpired, type Retention } from '../../src/store/housekeeping.ts';
import type { Store } from '../../src/store/port.ts';
import { StoreError, type StoreErrorCode } from '../../src/store/store-error.ts';
import type {
  NewCartLine,
  NewOutboxMessage,
  NewPunchoutSession,
  NewRefusal,
  NewPurchaseOrder,
  NewUserMapping,
  OrderState,
} from '../../src/store/types.ts';
import { fixtureBytes } from '../cxml/fixture-files.ts';
import { legacyPoDocument } from '../support/legacy-po-document.ts';
import { describeInvoices } from './invoice-suite.ts';
import { describeNotesAndExports } from './notes-export-suite.ts';
import { describeOrderCommit } from './order-commit-suite.ts';
import { describeStatusUpdates } from './status-update-suite.ts';
import { describeNotificationLog } from './notification-log-suite.ts';
import { describeReorders } from './reorder-suite.ts';
import { createManualClock, type ManualClock } from './manual-clock.ts';

export const T0 = new Date('2025-03-01T10:00:00.000Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The retention the housekeeping tests purge with: a day for sessions, a week or a month for the rest. */
export const TEST_RETENTION: Retention = {
  expiredSessionDays: 1,
  staleCartLineDays: 30,
  finishedJobDays: 7,
  deliveredMessageDays: 30,
  processedEventDays: 7,
  refusalDays: 30,
};

export function at(offsetMs: number): Date {
  return new Date(T0.getTime() + offsetMs);
}

export async function expectStoreError(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe(code);
}

export function cxmlSession(overrides: Partial<NewPunchoutSession> = {}): NewPunchoutSession {
  return {
    id: 'sess-cxml-1',
    buyerId: 'acme',
    storefrontId: 'demo',
    protocol: 'cxml',
    operation: 'create',
    buyerCookie: '34234234ADFSDF234234',
    returnUrl: 'https://buyer.example.com/punchout/return?x=1',
    buyerUserKey: 'jane.doe@acme.example',
    pipoUserRef: 'jane.doe@acme.example',
    extrinsics: { UserEmail: 'jane.doe@acme.example', CostCenter: '4711', Tags: ['a', 'b'] },
    contact: { name: 'Jane Doe', email: 'jane.doe@acme.example' },
    shipTo: { addressId: 'HQ', city: 'Zürich', postalCode: '8001' },
    expiresAt: at(2 * HOUR),
    ...overrides,
  };
}

function ociSession(overrides: Partial<NewPunchoutSession> = {}): NewPunchoutSession {
  return {
    id: 'sess-oci-1',
    buyerId: 'sap1',
    storefrontId: 'demo',
    protocol: 'oci',
    operation: 'create',
    returnUrl: 'https://srm.example.com/sap/bc/hook',
    returnTarget: '_top',
    ociEcho: { '~OkCode': 'ADDI', '~TARGET': '_top', '~CALLER': 'CTLG' },
    buyerUserKey: 'SAPUSER1',
    pipoUserRef: 'temp:sess-oci-1',
    expiresAt: at(HOUR),
    ...overrides,
  };
}

export function cartLine(overrides: Partial<NewCartLine> = {}): NewCartLine {
  return {
    lineRef: 'L-7K2M9Q',
    sessionId: 'sess-cxml-1',
    buyerId: 'acme',
    storefrontId: 'demo',
    userRef: 'jane.doe@acme.example',
    designId: 9001,
    productId: 101,
    sku: 'BC-STD',
    name: 'Business cards',
    quantity: 500,
    unitPrice: '0.12',
    currency: 'USD',
    uom: 'EA',
    unspsc: '82121500',
    leadTimeDays: 5,
    ...overrides,
  };
}

export function purchaseOrder(overrides: Partial<NewPurchaseOrder> = {}): NewPurchaseOrder {
  return {
    buyerId: 'acme',
    payloadId: '1740823200.42@buyer.example.com',
    orderId: 'PO-1001',
    type: 'new',
    raw: '<?xml version="1.0"?><cXML payloadID="1740823200.42@buyer.example.com"><Request/></cXML>',
    document: {
      orderID: 'PO-1001',
      items: [{ lineNumber: 1, ref: 'L-7K2M9Q', quantity: 500 }],
      note: 'Grüße',
    },
    answer: { code: 200, text: 'OK' },
    ...overrides,
  };
}

/** The record a store answers for `input` accepted at `at` as order `id`: received, nothing done yet. */
function receivedOrder(id: string, input: NewPurchaseOrder, at: Date) {
  return {
    id,
    buyerId: input.buyerId,
    payloadId: input.payloadId,
    orderId: input.orderId,
    type: input.type,
    state: 'received',
    raw: input.raw,
    document: input.document,
    answer: input.answer,
    deploymentMode: input.deploymentMode ?? 'production',
    ...(input.storefrontId !== undefined && { storefrontId: input.storefrontId }),
    printOrderIds: [],
    flags: [],
    createAttempts: [],
    createdAt: at,
    updatedAt: at,
  };
}

function outboxMessage(overrides: Partial<NewOutboxMessage> = {}): NewOutboxMessage {
  return {
    buyerId: 'acme',
    poId: '1',
    kind: 'confirmation',
    dedupeKey: 'confirm:5001',
    url: 'https://buyer.example.com/cxml/status',
    body: '<cXML><Request><ConfirmationRequest/></Request></cXML>',
    ...overrides,
  };
}

function user(overrides: Partial<NewUserMapping> = {}): NewUserMapping {
  return {
    buyerId: 'acme',
    userKey: 'jane.doe@acme.example',
    storefrontId: 'demo',
    pipoUserId: 4242,
    username: 'pg-acme-jane',
    email: 'jane.doe@acme.example',
    passwordEnc: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..iv.cipher.tag',
    isTemp: false,
    ...overrides,
  };
}

/** How an adapter's test makes its database fail halfway through a write, for the all-or-nothing checks. */
export interface StoreFaults {
  /** Makes every UPDATE of a cart line fail inside the database from now on; answers the undo. */
  failCartLineUpdates(): Promise<() => Promise<void>>;
  /** Makes every INSERT of an attachment's bytes fail inside the database from now on; answers the undo. */
  failAttachmentWrites(): Promise<() => Promise<void>>;
}

/** The fault of {@link StoreFaults} on SQLite and D1: a trigger that aborts any update of a cart line. */
export const SQLITE_FAIL_CART_LINE_UPDATES = `CREATE TRIGGER fail_cart_line_updates BEFORE UPDATE ON cart_lines
  BEGIN SELECT RAISE(ABORT, 'injected failure'); END`;

/** The attachment fault on SQLite and D1: the last statements of an intake batch abort. */
export const SQLITE_FAIL_ATTACHMENT_WRITES = `CREATE TRIGGER fail_attachment_writes
  BEFORE INSERT ON purchase_order_attachment_chunks BEGIN SELECT RAISE(ABORT, 'injected failure'); END`;

export function runStoreSuite(
  name: string,
  makeStore: (deps: { clock: Clock }) => Promise<Store>,
  faults: StoreFaults,
): void {
  describe(`Store contract: ${name}`, () => {
    let clock: ManualClock;
    let store: Store;

    beforeEach(async () => {
      clock = createManualClock(T0);
      store = await makeStore({ clock });
    });

    afterEach(async () => {
      await store.close();
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    describe('sessions', () => {
      it('creates an open session at version 1 and reads it back field for field', async () => {
        const input = cxmlSession();
        const created = await store.sessions.create(input);
        expect(created).toStrictEqual({
          ...input,
          deploymentMode: 'production',
          state: 'open',
          version: 1,
          createdAt: T0,
          updatedAt: T0,
        });
        expect(await store.sessions.get(input.id)).toStrictEqual(created);
      });

      it('keeps the mode of a test punch-out', async () => {
        const input = cxmlSession({ deploymentMode: 'test' });
        const created = await store.sessions.create(input);
        expect(created.deploymentMode).toBe('test');
        expect(await store.sessions.get(input.id)).toStrictEqual(created);
      });

      it('keeps absent optional fields absent (OCI session without cookie, contact or ship-to)', async () => {
        const input = ociSession();
        await store.sessions.create(input);
        const read = await store.sessions.get(input.id);
        expect(read).toStrictEqual({
          ...input,
          deploymentMode: 'production',
          state: 'open',
          version: 1,
          createdAt: T0,
          updatedAt: T0,
        });
        expect(Object.keys(read!)).not.toContain('buyerCookie');
        expect(Object.keys(read!)).not.toContain('pipoToken');
        expect(Object.keys(read!)).not.toContain('language');
      });

      it("keeps the session's language from create, or from the patch that decides it, and no patch undoes it", async () => {
        const told = await store.sessions.create(cxmlSession({ id: 'told', language: 'de' }));
        expect(told.language).toBe('de');
        expect(await store.sessions.get('told')).toStrictEqual(told);
        await store.sessions.create(ociSession({ id: 'later' }));
        expect(await store.sessions.patch('later', { language: 'fr' })).toBe(true);
        expect((await store.sessions.get('later'))?.language).toBe('fr');
        const closed = await store.sessions.update('later', { state: 'transferred' });
        expect(closed?.language).toBe('fr');
      });

      it('rejects a second session with the same id as duplicate', async () => {
        await store.sessions.create(cxmlSession());
        await expectStoreError(store.sessions.create(cxmlSession({ buyerId: 'other' })), 'duplicate');
        expect((await store.sessions.get('sess-cxml-1'))?.buyerId).toBe('acme');
      });

      it('hands out copies: mutating a returned session changes nothing stored', async () => {
        const created = await store.sessions.create(cxmlSession());
        created.state = 'cancelled';
        (created.extrinsics as Record<string, unknown>).CostCenter = 'changed';
        const read = await store.sessions.get(created.id);
        read!.expiresAt.setTime(0);
        const again = await store.sessions.get(created.id);
        expect(again?.state).toBe('open');
        expect(again?.extrinsics?.CostCenter).toBe('4711');
        expect(again?.expiresAt).toEqual(at(2 * HOUR));
      });

      it('answers undefined for an unknown id', async () => {
        expect(await store.sessions.get('nope')).toBeUndefined();
        expect(await store.sessions.update('nope', { state: 'cancelled' })).toBeUndefined();
        expect(await store.sessions.update('nope', { state: 'cancelled' }, { ifVersion: 1 })).toBeUndefined();
      });

      it('patches only the given fields, bumps the version and stamps updatedAt', async () => {
        const created = await store.sessions.create(cxmlSession());
        clock.advance(MINUTE);
        const token = { token: 'a'.repeat(64), obtainedAt: at(MINUTE) };
        const withToken = await store.sessions.update(created.id, { pipoToken: token });
        expect(withToken).toStrictEqual({ ...created, pipoToken: token, version: 2, updatedAt: at(MINUTE) });

        clock.advance(MINUTE);
        const transferred = await store.sessions.update(created.id, { state: 'transferred' });
        expect(transferred).toStrictEqual({
          ...created,
          pipoToken: token,
          state: 'transferred',
          version: 3,
          updatedAt: at(2 * MINUTE),
        });
        expect(await store.sessions.get(created.id)).toStrictEqual(transferred);
      });

      it('replaces the cached PIPO token and can extend the expiry', async () => {
        const created = await store.sessions.create(
          cxmlSession({ pipoToken: { token: 'old', obtainedAt: T0 } }),
        );
        clock.advance(30 * MINUTE);
        const updated = await store.sessions.update(created.id, {
          pipoToken: { token: 'new', obtainedAt: at(30 * MINUTE) },
          expiresAt: at(3 * HOUR),
          pipoUserRef: 'jane@converted',
        });
        expect(updated?.pipoToken).toStrictEqual({ token: 'new', obtainedAt: at(30 * MINUTE) });
        expect(updated?.expiresAt).toEqual(at(3 * HOUR));
        expect(updated?.pipoUserRef).toBe('jane@converted');
      });

      it('replaces the extrinsics object (an edit keeps its unknown lines there)', async () => {
        const created = await store.sessions.create(cxmlSession());
        const extrinsics = { CostCenter: '4711', kept: [{ supplierPartID: 'X-1', removed: true }] };
        const updated = await store.sessions.update(created.id, { extrinsics });
        expect(updated?.extrinsics).toStrictEqual(extrinsics);
        expect((await store.sessions.get(created.id))?.extrinsics).toStrictEqual(extrinsics);
        const untouched = await store.sessions.update(created.id, { state: 'transferred' });
        expect(untouched?.extrinsics).toStrictEqual(extrinsics);
      });

      it('applies an update with ifVersion only while the version matches', async () => {
        const created = await store.sessions.create(cxmlSession());
        const v2 = await store.sessions.update(created.id, { state: 'transferred' }, { ifVersion: 1 });
        expect(v2?.version).toBe(2);
        await expectStoreError(
          store.sessions.update(created.id, { state: 'cancelled' }, { ifVersion: 1 }),
          'conflict',
        );
        const read = await store.sessions.get(created.id);
        expect(read?.state).toBe('transferred');
        expect(read?.version).toBe(2);
      });

      it('patches as update does without reading the session back, ifVersion included', async () => {
        const created = await store.sessions.create(
          cxmlSession({ pipoToken: { token: 'old', obtainedAt: T0 } }),
        );
        clock.advance(MINUTE);
        const token = { token: 'new', obtainedAt: at(MINUTE) };
        expect(await store.sessions.patch(created.id, { pipoToken: token })).toBe(true);
        expect(await store.sessions.get(created.id)).toStrictEqual({
          ...created,
          pipoToken: token,
          version: 2,
          updatedAt: at(MINUTE),
        });
        const extrinsics = { CostCenter: '4711', kept: [{ supplierPartID: 'X-1', removed: true }] };
        expect(await store.sessions.patch(created.id, { extrinsics }, { ifVersion: 2 })).toBe(true);
        await expectStoreError(
          store.sessions.patch(created.id, { state: 'cancelled' }, { ifVersion: 2 }),
          'conflict',
        );
        expect(await store.sessions.patch(created.id, { state: 'transferred' })).toBe(true);
        const read = await store.sessions.get(created.id);
        expect(read).toMatchObject({ state: 'transferred', version: 4, extrinsics, pipoToken: token });

        expect(await store.sessions.patch('nope', { state: 'cancelled' })).toBe(false);
        expect(await store.sessions.patch('nope', { state: 'cancelled' }, { ifVersion: 1 })).toBe(false);
        clock.advance(2 * HOUR);
        expect(await store.sessions.patch(created.id, { state: 'cancelled' })).toBe(false);
        expect(await store.sessions.patch(created.id, { state: 'cancelled' }, { ifVersion: 4 })).toBe(false);
      });

      it('lets exactly one of several concurrent compare-and-set patches win', async () => {
        const created = await store.sessions.create(cxmlSession());
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            store.sessions.patch(created.id, { extrinsics: { writer: i } }, { ifVersion: 1 }),
          ),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === true)).toHaveLength(1);
        expect((await store.sessions.get(created.id))?.version).toBe(2);
      });

      it('answers a created session that does not share objects with its input', async () => {
        const input = cxmlSession({ pipoToken: { token: 't', obtainedAt: at(0) } });
        const created = await store.sessions.create(input);
        (input.extrinsics as Record<string, unknown>).CostCenter = 'changed';
        input.expiresAt.setTime(0);
        input.pipoToken!.obtainedAt.setTime(0);
        expect(created.extrinsics?.CostCenter).toBe('4711');
        expect(created.expiresAt).toEqual(at(2 * HOUR));
        expect(created.pipoToken?.obtainedAt).toEqual(T0);
        expect(await store.sessions.get(created.id)).toStrictEqual(created);
      });

      it('lets exactly one of several concurrent compare-and-set updates win', async () => {
        const created = await store.sessions.create(cxmlSession());
        const results = await Promise.allSettled(
          ['transferred', 'cancelled', 'transferred', 'cancelled', 'transferred'].map((state) =>
            store.sessions.update(
              created.id,
              { state: state as 'transferred' | 'cancelled' },
              { ifVersion: 1 },
            ),
          ),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(rejected).toHaveLength(4);
        for (const r of rejected) expect((r.reason as StoreError).code).toBe('conflict');
        expect((await store.sessions.get(created.id))?.version).toBe(2);
      });

      it('never lets one partial update undo another', async () => {
        const created = await store.sessions.create(cxmlSession());
        await Promise.all([
          store.sessions.update(created.id, { state: 'transferred' }),
          store.sessions.update(created.id, { pipoToken: { token: 't', obtainedAt: T0 } }),
          store.sessions.update(created.id, { pipoUserRef: 'other-user' }),
        ]);
        const read = await store.sessions.get(created.id);
        expect(read).toMatchObject({
          state: 'transferred',
          pipoToken: { token: 't', obtainedAt: T0 },
          pipoUserRef: 'other-user',
          version: 4,
        });
      });

      it('hides a session once the clock reaches expiresAt, and expire() deletes exactly the expired ones', async () => {
        await store.sessions.create(ociSession({ id: 'short', expiresAt: at(HOUR) }));
        await store.sessions.create(cxmlSession({ id: 'long', expiresAt: at(2 * HOUR) }));
        await store.cart.add(cartLine({ sessionId: 'short' }));

        clock.set(at(HOUR - 1));
        expect((await store.sessions.get('short'))?.id).toBe('short');
        clock.set(at(HOUR));
        expect(await store.sessions.get('short')).toBeUndefined();
        expect(await store.sessions.update('short', { state: 'cancelled' })).toBeUndefined();
        expect((await store.sessions.get('long'))?.id).toBe('long');

        expect(await store.sessions.expire(at(HOUR - 1))).toBe(0);
        expect(await store.sessions.expire(at(HOUR))).toBe(1);
        expect(await store.sessions.expire(at(HOUR))).toBe(0);
        // The id is free again, and the session's cart line outlives it.
        await store.sessions.create(ociSession({ id: 'short', expiresAt: at(3 * HOUR) }));
        expect((await store.cart.get('L-7K2M9Q'))?.sessionId).toBe('short');
        expect(await store.sessions.expire(at(2 * HOUR))).toBe(1);
        expect(await store.sessions.get('long')).toBeUndefined();
      });

      it("counts a buyer's sessions created since a time, expired ones until expire() deletes them", async () => {
        await store.sessions.create(cxmlSession({ id: 'a1', expiresAt: at(HOUR) }));
        clock.set(at(HOUR));
        await store.sessions.create(cxmlSession({ id: 'a2', expiresAt: at(3 * HOUR) }));
        await store.sessions.create(ociSession({ id: 'o1', expiresAt: at(3 * HOUR) }));
        clock.set(at(2 * HOUR));
        await store.sessions.create(cxmlSession({ id: 'a3', expiresAt: at(4 * HOUR) }));

        expect(await store.sessions.countByBuyerSince('acme', at(0))).toBe(3);
        expect(await store.sessions.countByBuyerSince('acme', at(HOUR))).toBe(2);
        expect(await store.sessions.countByBuyerSince('acme', at(HOUR + 1))).toBe(1);
        expect(await store.sessions.countByBuyerSince('acme', at(2 * HOUR + 1))).toBe(0);
        expect(await store.sessions.countByBuyerSince('sap1', at(0))).toBe(1);
        expect(await store.sessions.countByBuyerSince('nobody', at(0))).toBe(0);
        // 'a1' has expired and still counts until it is deleted.
        expect(await store.sessions.expire(at(2 * HOUR))).toBe(1);
        expect(await store.sessions.countByBuyerSince('acme', at(0))).toBe(2);
      });
    });

    describe('one-time tokens', () => {
      it('consumes a token id once', async () => {
        expect(await store.tokens.consumeOnce('jti-1', at(5 * MINUTE))).toBe(true);
        expect(await store.tokens.consumeOnce('jti-1', at(5 * MINUTE))).toBe(false);
        expect(await store.tokens.consumeOnce('jti-2', at(5 * MINUTE))).toBe(true);
        clock.advance(4 * MINUTE);
        expect(await store.tokens.consumeOnce('jti-1', at(5 * MINUTE))).toBe(false);
      });

      it('lets exactly one of 20 concurrent consumers win', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, () => store.tokens.consumeOnce('jti-race', at(MINUTE))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('refuses a token that has expired', async () => {
        expect(await store.tokens.consumeOnce('jti-now', T0)).toBe(false);
        expect(await store.tokens.consumeOnce('jti-past', at(-1))).toBe(false);
        expect(await store.tokens.consumeOnce('jti-soon', at(1))).toBe(true);
      });

      it('still refuses a used token after its record has been swept', async () => {
        expect(await store.tokens.consumeOnce('jti-old', at(MINUTE))).toBe(true);
        clock.set(at(2 * HOUR));
        expect(await store.tokens.consumeOnce('jti-new', at(2 * HOUR + MINUTE))).toBe(true);
        expect(await store.tokens.consumeOnce('jti-old', at(MINUTE))).toBe(false);
        expect(await store.tokens.consumeOnce('jti-new', at(2 * HOUR + MINUTE))).toBe(false);
      });
    });

    describe('users', () => {
      it('stores a mapping and reads it back', async () => {
        const input = user();
        const stored = await store.users.put(input);
        expect(stored).toStrictEqual({ ...input, createdAt: T0, updatedAt: T0 });
        expect(await store.users.get('acme', 'jane.doe@acme.example')).toStrictEqual(stored);
      });

      it('upserts: a second put replaces the fields and keeps createdAt', async () => {
        await store.users.put(user({ isTemp: true, username: 'tmp-123' }));
        clock.advance(HOUR);
        const replaced = await store.users.put(user({ passwordEnc: 'rotated', pipoUserId: 4343 }));
        expect(replaced).toStrictEqual({
          ...user({ passwordEnc: 'rotated', pipoUserId: 4343 }),
          createdAt: T0,
          updatedAt: at(HOUR),
        });
        expect(await store.users.get('acme', 'jane.doe@acme.example')).toStrictEqual(replaced);
      });

      it('keys by buyer and user key together', async () => {
        await store.users.put(user());
        await store.users.put(user({ buyerId: 'globex', pipoUserId: 7 }));
        expect((await store.users.get('acme', 'jane.doe@acme.example'))?.pipoUserId).toBe(4242);
        expect((await store.users.get('globex', 'jane.doe@acme.example'))?.pipoUserId).toBe(7);
        expect(await store.users.get('initech', 'jane.doe@acme.example')).toBeUndefined();
        expect(await store.users.get('acme', 'john@acme.example')).toBeUndefined();
      });
    });

    describe('cart lines', () => {
      const refs = (lines: { lineRef: string }[]) => lines.map((l) => l.lineRef);

      it('adds a line in state cart at the next position and reads it back', async () => {
        const input = cartLine();
        const added = await store.cart.add(input);
        expect(added).toStrictEqual({
          ...input,
          deploymentMode: 'production',
          position: 1,
          state: 'cart',
          createdAt: T0,
          updatedAt: T0,
        });
        expect(await store.cart.get(input.lineRef)).toStrictEqual(added);
      });

      it('keeps the mode of the punch-out that made a line', async () => {
        const added = await store.cart.add(cartLine({ lineRef: 'L-TEST01', deploymentMode: 'test' }));
        expect(added.deploymentMode).toBe('test');
        expect((await store.cart.getMany(['L-TEST01']))[0]?.deploymentMode).toBe('test');
      });

      it('keeps absent optional fields absent', async () => {
        const { unspsc: _u, leadTimeDays: _l, ...input } = cartLine({ lineRef: 'L-PLAIN1' });
        const added = await store.cart.add(input);
        expect(added).toStrictEqual({
          ...input,
          deploymentMode: 'production',
          position: 1,
          state: 'cart',
          createdAt: T0,
          updatedAt: T0,
        });
        expect(Object.keys(added)).not.toContain('unspsc');
        expect(Object.keys(added)).not.toContain('poId');
      });

      it('numbers positions per session and lists only cart lines, by position', async () => {
        await store.cart.add(cartLine({ lineRef: 'L-A' }));
        await store.cart.add(cartLine({ lineRef: 'L-B', quantity: 2.5 }));
        await store.cart.add(cartLine({ lineRef: 'L-X', sessionId: 'sess-2' }));
        const third = await store.cart.add(cartLine({ lineRef: 'L-C' }));
        expect(third.position).toBe(3);
        expect((await store.cart.get('L-X'))?.position).toBe(1);
        expect((await store.cart.get('L-B'))?.quantity).toBe(2.5);
        expect(refs(await store.cart.listBySession('sess-cxml-1'))).toEqual(['L-A', 'L-B', 'L-C']);
        expect(refs(await store.cart.listBySession('sess-2'))).toEqual(['L-X']);
        expect(await store.cart.listBySession('sess-none')).toEqual([]);

        await store.cart.update('L-C', { position: 0 });
        await store.cart.update('L-B', { state: 'removed' });
        expect(refs(await store.cart.listBySession('sess-cxml-1'))).toEqual(['L-C', 'L-A']);
        expect((await store.cart.get('L-B'))?.state).toBe('removed');
        // Removed lines still hold their position: a new line goes after them.
        expect((await store.cart.add(cartLine({ lineRef: 'L-D' }))).position).toBe(3);
        await store.cart.update('L-B', { state: 'cart' });
        expect(refs(await store.cart.listBySession('sess-cxml-1'))).toEqual(['L-C', 'L-A', 'L-B', 'L-D']);
      });

      it('counts the lines listBySession lists (cart and ordered), without reading them', async () => {
        expect(await store.cart.countBySession('sess-cxml-1')).toBe(0);
        for (const lineRef of ['L-A', 'L-B', 'L-C', 'L-D']) await store.cart.add(cartLine({ lineRef }));
        await store.cart.add(cartLine({ lineRef: 'L-X', sessionId: 'sess-2' }));
        await store.cart.update('L-B', { state: 'removed' });
        await store.cart.markOrdered(['L-C'], 'po-1');
        await store.cart.update('L-D', { sessionId: 'sess-2' });
        expect(await store.cart.countBySession('sess-cxml-1')).toBe(2);
        expect(await store.cart.countBySession('sess-cxml-1')).toBe(
          (await store.cart.listBySession('sess-cxml-1')).length,
        );
        expect(await store.cart.countBySession('sess-2')).toBe(2);
        expect(await store.cart.countBySession('sess-none')).toBe(0);
      });

      it('rejects a taken line reference as duplicate', async () => {
        await store.cart.add(cartLine());
        await expectStoreError(store.cart.add(cartLine({ sessionId: 'sess-2' })), 'duplicate');
        expect(refs(await store.cart.listBySession('sess-2'))).toEqual([]);
      });

      it('patches only the given fields and can move a line to another session', async () => {
        const added = await store.cart.add(cartLine());
        clock.advance(MINUTE);
        const patched = await store.cart.update(added.lineRef, {
          quantity: 250,
          unitPrice: '0.15',
          designId: 9002,
        });
        expect(patched).toStrictEqual({
          ...added,
          quantity: 250,
          unitPrice: '0.15',
          designId: 9002,
          updatedAt: at(MINUTE),
        });
        const moved = await store.cart.update(added.lineRef, {
          sessionId: 'sess-edit',
          name: 'Cards (edited)',
        });
        expect(moved?.sessionId).toBe('sess-edit');
        expect(moved?.name).toBe('Cards (edited)');
        expect(moved?.quantity).toBe(250);
        expect(refs(await store.cart.listBySession('sess-edit'))).toEqual([added.lineRef]);
        expect(await store.cart.listBySession('sess-cxml-1')).toEqual([]);
        expect(await store.cart.update('L-NONE', { quantity: 1 })).toBeUndefined();
      });

      it('marks lines ordered, whatever their state, and answers them in the order asked', async () => {
        await store.cart.add(cartLine({ lineRef: 'L-A' }));
        await store.cart.add(cartLine({ lineRef: 'L-B' }));
        await store.cart.add(cartLine({ lineRef: 'L-C' }));
        await store.cart.update('L-B', { state: 'removed' });
        clock.advance(HOUR);
        const marked = await store.cart.markOrdered(['L-C', 'L-UNKNOWN', 'L-B', 'L-C'], '17');
        expect(refs(marked)).toEqual(['L-C', 'L-B']);
        for (const line of marked) {
          expect(line).toMatchObject({ state: 'ordered', poId: '17', updatedAt: at(HOUR) });
        }
        // Ordered lines stay in their session's list: an edit punch-out shows them without changing their state.
        expect(refs(await store.cart.listBySession('sess-cxml-1'))).toEqual(['L-A', 'L-B', 'L-C']);
        expect(await store.cart.markOrdered([], '17')).toEqual([]);
        // A later PO for the same line takes it over.
        expect((await store.cart.markOrdered(['L-C'], '18'))[0]?.poId).toBe('18');
      });

      it('reads many lines at once: each once, in the order first asked, whatever their state', async () => {
        await store.cart.add(cartLine({ lineRef: 'L-A' }));
        await store.cart.add(cartLine({ lineRef: 'L-B' }));
        await store.cart.add(cartLine({ lineRef: 'L-C' }));
        await store.cart.update('L-B', { state: 'removed' });
        await store.cart.markOrdered(['L-C'], '5');
        const found = await store.cart.getMany(['L-C', 'L-UNKNOWN', 'L-A', 'L-C', 'L-B']);
        expect(found).toStrictEqual([
          await store.cart.get('L-C'),
          await store.cart.get('L-A'),
          await store.cart.get('L-B'),
        ]);
        expect(await store.cart.getMany([])).toEqual([]);
        expect(await store.cart.getMany(['L-UNKNOWN'])).toEqual([]);
      });

      it('reads more lines at once than D1 binds parameters to one statement (100)', async () => {
        const lineRefs = Array.from({ length: 150 }, (_, i) => `L-${String(i).padStart(6, '0')}`);
        for (const lineRef of lineRefs) await store.cart.add(cartLine({ lineRef }));
        expect(refs(await store.cart.getMany([...lineRefs].reverse()))).toEqual([...lineRefs].reverse());
      });

      it('purges lines never ordered and untouched since the cut-off', async () => {
        await store.cart.add(cartLine({ lineRef: 'L-OLD' }));
        await store.cart.add(cartLine({ lineRef: 'L-ORDERED' }));
        await store.cart.markOrdered(['L-ORDERED'], '3');
        clock.set(at(10 * HOUR));
        await store.cart.add(cartLine({ lineRef: 'L-NEW' }));
        expect(await store.cart.purgeStale(at(10 * HOUR))).toBe(1);
        expect(await store.cart.get('L-OLD')).toBeUndefined();
        expect((await store.cart.get('L-ORDERED'))?.state).toBe('ordered');
        expect((await store.cart.get('L-NEW'))?.state).toBe('cart');
      });
    });

    describe('purchase orders', () => {
      it('accepts a new order in state received with the answer given', async () => {
        const input = purchaseOrder();
        const { created, order } = await store.orders.accept(input);
        expect(created).toBe(true);
        expect(order.id).toMatch(/^[0-9]+$/);
        expect(order).toStrictEqual(receivedOrder(order.id, input, T0));
        expect(await store.orders.get(order.id)).toStrictEqual(order);
        expect(await store.orders.getByPayloadId('acme', input.payloadId)).toStrictEqual(order);
        expect(Object.keys(order)).not.toContain('storefrontId');
      });

      it("keeps a test order's mode and storefront", async () => {
        const input = purchaseOrder({ deploymentMode: 'test', storefrontId: 'demo-test' });
        const { order } = await store.orders.accept(input);
        expect(order).toStrictEqual(receivedOrder(order.id, input, T0));
        expect(await store.orders.get(order.id)).toMatchObject({
          deploymentMode: 'test',
          storefrontId: 'demo-test',
        });
      });

      it("keeps a PO document an older punchgate wrote, which reads as today's shape", async () => {
        const request = parseCxmlRequest(fixtureBytes('valid', 'order-request.new-several-lines.xml'));
        if (request.kind !== 'OrderRequest') throw new Error(`parsed as ${request.kind}`);
        const today: PoDocument = { request: requestForStorage(request), lines: [], mismatches: [] };
        const { order } = await store.orders.accept(purchaseOrder({ document: legacyPoDocument(today) }));
        const read = await store.orders.get(order.id);
        expect(read && poDocument(read)).toStrictEqual(today);
      });

      it('takes the initial state and flags when given', async () => {
        const { order } = await store.orders.accept(
          purchaseOrder({
            state: 'needs_operator',
            flags: ['unknown_line'],
            answer: { code: 200, text: 'OK' },
          }),
        );
        expect(order.state).toBe('needs_operator');
        expect(order.flags).toEqual(['unknown_line']);
      });

      it('creates exactly one order from 50 concurrent deliveries of the same document', async () => {
        const results = await Promise.all(
          Array.from({ length: 50 }, () => store.orders.accept(purchaseOrder())),
        );
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(new Set(results.map((r) => r.order.id)).size).toBe(1);
        const page = await store.orders.list();
        expect(page.items).toHaveLength(1);
      });

      it('answers the earlier order for the same payloadID, or the same (buyer, orderID, type)', async () => {
        const first = (await store.orders.accept(purchaseOrder())).order;
        clock.advance(MINUTE);
        const samePayload = await store.orders.accept(purchaseOrder({ orderId: 'PO-OTHER', raw: 'changed' }));
        expect(samePayload).toStrictEqual({ created: false, order: first });
        const sameOrder = await store.orders.accept(
          purchaseOrder({ payloadId: 'retry-with-new-payload@buyer' }),
        );
        expect(sameOrder).toStrictEqual({ created: false, order: first });
        expect((await store.orders.list()).items).toHaveLength(1);
      });

      it('treats a change order, and the same payloadID from another buyer, as new orders', async () => {
        const first = (await store.orders.accept(purchaseOrder())).order;
        const change = await store.orders.accept(
          purchaseOrder({ payloadId: 'change-1@buyer', type: 'update' }),
        );
        expect(change.created).toBe(true);
        expect(change.order.id).not.toBe(first.id);
        const otherBuyer = await store.orders.accept(purchaseOrder({ buyerId: 'globex' }));
        expect(otherBuyer.created).toBe(true);
        expect(await store.orders.getByPayloadId('globex', first.payloadId)).toStrictEqual(otherBuyer.order);
        expect(await store.orders.getByPayloadId('acme', first.payloadId)).toStrictEqual(first);
        expect(await store.orders.getByPayloadId('initech', first.payloadId)).toBeUndefined();
      });

      it('records each orderVersion of a change as a change of its own', async () => {
        const original = (await store.orders.accept(purchaseOrder())).order;
        const update = (payloadId: string, orderVersion?: string) =>
          store.orders.accept(
            purchaseOrder({ payloadId, type: 'update', ...(orderVersion !== undefined && { orderVersion }) }),
          );
        const v2 = await update('change-v2@buyer', '2');
        clock.advance(MINUTE);
        const v3 = await update('change-v3@buyer', '3');
        expect(v2.created).toBe(true);
        expect(v3.created).toBe(true);
        expect(v3.order.id).not.toBe(v2.order.id);
        expect(v2.order.orderVersion).toBe('2');
        expect(await store.orders.get(v3.order.id)).toStrictEqual(v3.order);
        expect(v3.order).toMatchObject({ type: 'update', orderVersion: '3', payloadId: 'change-v3@buyer' });

        expect(await update('change-v3@buyer', '3')).toStrictEqual({ created: false, order: v3.order });
        expect(await update('change-v3-resent@buyer', '3')).toStrictEqual({
          created: false,
          order: v3.order,
        });
        expect(await update('change-v2@buyer', '4')).toStrictEqual({ created: false, order: v2.order });
        expect((await store.orders.list()).items.map((o) => o.id)).toEqual([
          v3.order.id,
          v2.order.id,
          original.id,
        ]);
      });

      it('lists the ids of orders in a state, newest first, as many as asked (listIds)', async () => {
        const ids: string[] = [];
        for (let n = 1; n <= 5; n++) {
          ids.push(
            (await store.orders.accept(purchaseOrder({ payloadId: `p-${n}`, orderId: `PO-${n}` }))).order.id,
          );
        }
        await store.orders.patch(ids[1]!, { state: 'processing' });
        const received = [ids[4], ids[3], ids[2], ids[0]];
        expect(await store.orders.listIds('received')).toEqual(received);
        expect(await store.orders.listIds('received', 2)).toEqual(received.slice(0, 2));
        expect(await store.orders.listIds('processing')).toEqual([ids[1]]);
        expect(await store.orders.listIds('ordered')).toEqual([]);
        // The same ids, in the same order, as the whole records listed.
        expect(await store.orders.listIds('received')).toEqual(
          (await store.orders.list({ state: 'received' })).items.map((o) => o.id),
        );
      });

      describe('intake in one step (acceptWithLines)', () => {
        const JOB = { kind: 'process_order', keyPrefix: 'po:', runAt: T0, maxAttempts: 5 };
        const intake = (lineRefs: string[], overrides: Partial<NewPurchaseOrder> = {}) => ({
          order: purchaseOrder(overrides),
          lineRefs,
          job: JOB,
        });
        const createdId = (result: Awaited<ReturnType<Store['orders']['acceptWithLines']>>) => {
          if (!result.created) throw new Error('expected a created order');
          return result.id;
        };
        const addLines = async (...lineRefs: string[]) => {
          for (const lineRef of lineRefs) await store.cart.add(cartLine({ lineRef }));
        };

        it('stores the order as accept does, marks its lines ordered by it and queues its job', async () => {
          await addLines('L-A', 'L-B', 'L-C');
          clock.advance(MINUTE);
          const result = await store.orders.acceptWithLines(intake(['L-B', 'L-UNKNOWN', 'L-A']));
          const id = createdId(result);
          expect(result).toStrictEqual({ created: true, id });
          expect(id).toMatch(/^[0-9]+$/);
          const input = purchaseOrder();
          const order = await store.orders.get(id);
          expect(order).toStrictEqual(receivedOrder(id, input, at(MINUTE)));
          // What accept would answer for a copy: the same record.
          expect(await store.orders.accept(input)).toStrictEqual({ created: false, order });

          const [a, b, c] = await store.cart.getMany(['L-A', 'L-B', 'L-C']);
          expect(a).toMatchObject({ state: 'ordered', poId: id, updatedAt: at(MINUTE) });
          expect(b).toMatchObject({ state: 'ordered', poId: id, updatedAt: at(MINUTE) });
          expect(c).toMatchObject({ state: 'cart', updatedAt: T0 });
          expect(c).not.toHaveProperty('poId');

          const { items: jobs } = await store.jobs.list();
          expect(jobs).toStrictEqual([
            {
              id: jobs[0]?.id,
              kind: 'process_order',
              key: `po:${id}`,
              payload: { poId: id },
              runAt: T0,
              attempts: 0,
              maxAttempts: 5,
              state: 'pending',
              createdAt: at(MINUTE),
              updatedAt: at(MINUTE),
            },
          ]);
          // The very job jobs.enqueue keys by the order: a second enqueue finds it.
          const again = { kind: 'process_order', key: `po:${id}`, payload: { poId: id }, runAt: T0 };
          expect(await store.jobs.enqueue(again)).toStrictEqual({ created: false, job: jobs[0] });
        });

        it('queues the default attempts when none are given, and marks no line for none given', async () => {
          await addLines('L-A');
          const { maxAttempts: _m, ...job } = JOB;
          const id = createdId(
            await store.orders.acceptWithLines({
              order: purchaseOrder({ type: 'update', payloadId: 'change@buyer' }),
              lineRefs: [],
              job,
            }),
          );
          expect((await store.jobs.list()).items).toMatchObject([{ key: `po:${id}`, maxAttempts: 10 }]);
          expect(await store.cart.get('L-A')).toMatchObject({ state: 'cart' });
        });

        it('changes nothing for a copy and answers the stored order, even once its job was purged', async () => {
          await addLines('L-A', 'L-B');
          const id = createdId(await store.orders.acceptWithLines(intake(['L-A', 'L-B'])));
          const stored = await store.orders.get(id);
          const job = await store.jobs.claim(T0, MINUTE);
          await store.jobs.complete(job!);
          clock.advance(HOUR);
          expect(await store.jobs.purgeFinished(at(HOUR))).toBe(1);
          await store.cart.markOrdered(['L-B'], '999');
          const lines = await store.cart.getMany(['L-A', 'L-B']);
          clock.advance(HOUR);

          expect(await store.orders.acceptWithLines(intake(['L-A', 'L-B']))).toStrictEqual({
            created: false,
            order: stored,
          });
          // Same buyer, orderID and type under another payloadID: the same order.
          expect(
            await store.orders.acceptWithLines(intake(['L-A', 'L-B'], { payloadId: 'resent@buyer' })),
          ).toStrictEqual({ created: false, order: stored });
          expect((await store.orders.list()).items).toStrictEqual([stored]);
          expect((await store.jobs.list()).items).toEqual([]);
          expect(await store.cart.getMany(['L-A', 'L-B'])).toStrictEqual(lines);
        });

        it('creates one order, one job and its lines ordered by it from 50 concurrent copies', async () => {
          await addLines('L-A', 'L-B');
          const results = await Promise.all(
            Array.from({ length: 50 }, () => store.orders.acceptWithLines(intake(['L-A', 'L-B']))),
          );
          const created = results.filter((r) => r.created);
          expect(created).toHaveLength(1);
          const id = createdId(created[0]!);
          const stored = await store.orders.get(id);
          for (const result of results) if (!result.created) expect(result.order).toStrictEqual(stored);
          expect((await store.orders.list()).items).toHaveLength(1);
          expect((await store.jobs.list()).items).toMatchObject([{ key: `po:${id}` }]);
          for (const line of await store.cart.getMany(['L-A', 'L-B'])) expect(line.poId).toBe(id);
        });

        it('accepts 40 concurrent orders naming the same lines in any order, each once', async () => {
          await addLines('L-A', 'L-B', 'L-C', 'L-D');
          const orders = Array.from({ length: 40 }, (_, i) => ({
            payloadId: `same-lines-${i}@buyer`,
            orderId: `PO-SAME-${i}`,
            // The lines named in other orders, so that no two transactions lock them alike by chance.
            lineRefs: i % 2 === 0 ? ['L-A', 'L-B', 'L-C', 'L-D'] : ['L-D', 'L-B', 'L-C', 'L-A'],
          }));
          const results = await Promise.all(
            orders.map(({ payloadId, orderId, lineRefs }) =>
              store.orders.acceptWithLines(intake(lineRefs, { payloadId, orderId })),
            ),
          );
          const ids = results.map(createdId);
          expect(new Set(ids).size).toBe(40);
          const { items: stored } = await store.orders.list({ limit: 100 });
          expect(stored.map((o) => o.orderId).sort()).toStrictEqual(orders.map((o) => o.orderId).sort());
          const { items: jobs } = await store.jobs.list({ limit: 100 });
          expect(jobs.map((j) => j.key).sort()).toStrictEqual(ids.map((id) => `po:${id}`).sort());
          // Each line is ordered by one of them (the last to commit), all four by the same one.
          const lines = await store.cart.getMany(['L-A', 'L-B', 'L-C', 'L-D']);
          expect(lines.map((line) => line.state)).toStrictEqual(['ordered', 'ordered', 'ordered', 'ordered']);
          expect(ids).toContain(lines[0]!.poId);
          expect(new Set(lines.map((line) => line.poId)).size).toBe(1);
        });

        it('stores nothing when a write fails halfway (after the order and job, at the cart lines)', async () => {
          await addLines('L-A', 'L-B');
          const lines = await store.cart.getMany(['L-A', 'L-B']);
          const undo = await faults.failCartLineUpdates();
          try {
            await expect(store.orders.acceptWithLines(intake(['L-A', 'L-B']))).rejects.toThrow();
          } finally {
            await undo();
          }
          expect((await store.orders.list()).items).toEqual([]);
          expect((await store.jobs.list()).items).toEqual([]);
          expect(await store.cart.getMany(['L-A', 'L-B'])).toStrictEqual(lines);
          // Nothing half-written stands in the way of the buyer's next copy.
          const id = createdId(await store.orders.acceptWithLines(intake(['L-A', 'L-B'])));
          expect((await store.jobs.list()).items).toMatchObject([{ key: `po:${id}` }]);
        });
      });

      describe('attachments stored with the intake', () => {
        const JOB = { kind: 'process_order', keyPrefix: 'po:', runAt: T0 };
        /** Bytes no text encoding survives, `size` long, different for each `seed`. */
        const bytes = (size: number, seed: number) =>
          Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed * 7 + (i >> 8)) % 256);
        // Past one stored part (1,000,000 base64 characters): 2.5 MB is four parts.
        const artwork = {
          position: 2,
          contentId: 'artwork@buyer.example',
          filename: 'Visitenkarte Müller.pdf',
          contentType: 'application/pdf',
          content: bytes(2_500_000, 1),
        };
        const unnamed = { position: 3, contentType: 'text/html', content: bytes(10, 2) };
        const intake = (overrides: Partial<NewPurchaseOrder> = {}) => ({
          order: purchaseOrder(overrides),
          lineRefs: [],
          job: JOB,
          attachments: [artwork, unnamed],
        });

        it('keeps every attachment with its order, listed without bytes and read back byte for byte', async () => {
          const result = await store.orders.acceptWithLines(intake());
          if (!result.created) throw new Error('expected a created order');
          const { content: _a, ...artworkInfo } = artwork;
          const { content: _u, ...unnamedInfo } = unnamed;
          expect(await store.attachments.list(result.id)).toStrictEqual([
            { poId: result.id, ...artworkInfo, size: 2_500_000 },
            { poId: result.id, ...unnamedInfo, size: 10 },
          ]);
          expect(await store.attachments.get(result.id, 2)).toStrictEqual({
            poId: result.id,
            ...artworkInfo,
            size: 2_500_000,
            content: artwork.content,
          });
          expect((await store.attachments.get(result.id, 3))?.content).toStrictEqual(unnamed.content);
          expect(await store.attachments.get(result.id, 1)).toBeUndefined();
          expect(await store.attachments.list('999999')).toStrictEqual([]);
        });

        it('adds none for a copy of a stored order, under its payloadID or another', async () => {
          const result = await store.orders.acceptWithLines(intake());
          if (!result.created) throw new Error('expected a created order');
          const listed = await store.attachments.list(result.id);
          expect((await store.orders.acceptWithLines(intake())).created).toBe(false);
          const resent = await store.orders.acceptWithLines(intake({ payloadId: 'resent@buyer' }));
          expect(resent.created).toBe(false);
          expect(await store.attachments.list(result.id)).toStrictEqual(listed);
          expect((await store.orders.list()).items).toHaveLength(1);
        });

        it('stores neither the order nor any attachment when writing one fails', async () => {
          const undo = await faults.failAttachmentWrites();
          try {
            await expect(store.orders.acceptWithLines(intake())).rejects.toThrow();
          } finally {
            await undo();
          }
          expect((await store.orders.list()).items).toEqual([]);
          expect((await store.jobs.list()).items).toEqual([]);
          // The buyer's next copy is stored whole.
          const result = await store.orders.acceptWithLines(intake());
          if (!result.created) throw new Error('expected a created order');
          expect((await store.attachments.list(result.id)).map((a) => a.position)).toEqual([2, 3]);
        });
      });

      it('dedupes a change without orderVersion on its payloadID alone', async () => {
        const first = await store.orders.accept(
          purchaseOrder({ payloadId: 'change-a@buyer', type: 'update' }),
        );
        const second = await store.orders.accept(
          purchaseOrder({ payloadId: 'change-b@buyer', type: 'update' }),
        );
        expect(second.created).toBe(true);
        expect(second.order.id).not.toBe(first.order.id);
        expect(second.order.orderVersion).toBeUndefined();
        expect(
          await store.orders.accept(purchaseOrder({ payloadId: 'change-a@buyer', type: 'update' })),
        ).toStrictEqual({ created: false, order: first.order });
        expect((await store.orders.list()).items).toHaveLength(2);
      });

      it('keeps one new order and one cancellation per orderID, whatever their orderVersion', async () => {
        const first = await store.orders.accept(purchaseOrder({ orderVersion: '1' }));
        const resent = await store.orders.accept(
          purchaseOrder({ payloadId: 'resent@buyer', orderVersion: '2' }),
        );
        expect(resent).toStrictEqual({ created: false, order: first.order });
        const cancel = await store.orders.accept(
          purchaseOrder({ payloadId: 'cancel-1@buyer', type: 'delete' }),
        );
        expect(cancel.created).toBe(true);
        const again = await store.orders.accept(
          purchaseOrder({ payloadId: 'cancel-2@buyer', type: 'delete', orderVersion: '3' }),
        );
        expect(again).toStrictEqual({ created: false, order: cancel.order });
        expect((await store.orders.list()).items).toHaveLength(2);
      });

      it('creates exactly one order per orderVersion from concurrent deliveries of two changes', async () => {
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            store.orders.accept(
              purchaseOrder({
                payloadId: `change-${i}@buyer`,
                type: 'update',
                orderVersion: i % 2 === 0 ? '2' : '3',
              }),
            ),
          ),
        );
        expect(results.filter((r) => r.created)).toHaveLength(2);
        expect(new Set(results.map((r) => `${r.order.orderVersion}:${r.order.id}`)).size).toBe(2);
        expect((await store.orders.list()).items).toHaveLength(2);
      });

      it('prefers the payloadID match when the two keys point at different orders', async () => {
        const x = (await store.orders.accept(purchaseOrder({ payloadId: 'px', orderId: 'PO-X' }))).order;
        const y = (await store.orders.accept(purchaseOrder({ payloadId: 'py', orderId: 'PO-Y' }))).order;
        expect(
          (await store.orders.accept(purchaseOrder({ payloadId: 'px', orderId: 'PO-Y' }))).order.id,
        ).toBe(x.id);
        expect(
          (await store.orders.accept(purchaseOrder({ payloadId: 'py', orderId: 'PO-X' }))).order.id,
        ).toBe(y.id);
      });

      it("finds a buyer's new order by its orderID, never a change, a cancellation or another buyer's", async () => {
        const before = await store.orders.accept(
          purchaseOrder({ payloadId: 'before@buyer', orderId: 'PO-0' }),
        );
        const change = purchaseOrder({ payloadId: 'change@buyer', type: 'update', orderVersion: '2' });
        await store.orders.accept(change);
        await store.orders.accept(purchaseOrder({ payloadId: 'cancel@buyer', type: 'delete' }));
        await store.orders.accept(
          purchaseOrder({ payloadId: 'other@buyer', buyerId: 'globex', orderId: 'PO-G' }),
        );
        expect(await store.orders.getByOrderId('acme', 'PO-1001')).toBeUndefined();
        const { order } = await store.orders.accept(purchaseOrder());
        await store.orders.accept(purchaseOrder({ payloadId: 'after@buyer', orderId: 'PO-2' }));
        expect(await store.orders.getByOrderId('acme', 'PO-1001')).toStrictEqual(order);
        expect(await store.orders.getByOrderId('acme', 'PO-0')).toStrictEqual(before.order);
        expect(await store.orders.getByOrderId('globex', 'PO-1001')).toBeUndefined();
        expect(await store.orders.getByOrderId('acme', 'PO-G')).toBeUndefined();
        expect(await store.orders.getByOrderId('acme', 'po-1001')).toBeUndefined();
        // In one read: the order of a payloadID, and the new order of an orderID, each found apart.
        expect(await store.orders.findEarlier('acme', 'change@buyer', 'PO-1001')).toStrictEqual({
          byPayloadId: await store.orders.getByPayloadId('acme', 'change@buyer'),
          newOfOrderId: order,
        });
        expect(await store.orders.findEarlier('acme', order.payloadId, 'PO-1001')).toStrictEqual({
          byPayloadId: order,
          newOfOrderId: order,
        });
        expect(await store.orders.findEarlier('acme', 'unknown@buyer', 'PO-G')).toStrictEqual({});
      });

      it('answers undefined for unknown ids', async () => {
        expect(await store.orders.get('987654')).toBeUndefined();
        expect(await store.orders.update('987654', { state: 'failed' })).toBeUndefined();
        expect(
          await store.orders.update('987654', { state: 'failed' }, { ifState: ['received'] }),
        ).toBeUndefined();
      });

      it('patches state, print orders, flags and the last error', async () => {
        const { order } = await store.orders.accept(purchaseOrder());
        clock.advance(MINUTE);
        const processing = await store.orders.update(order.id, { state: 'processing' });
        expect(processing).toStrictEqual({ ...order, state: 'processing', updatedAt: at(MINUTE) });
        const failed = await store.orders.update(order.id, { lastError: 'upstream_unavailable: 503' });
        expect(failed).toStrictEqual({ ...processing, lastError: 'upstream_unavailable: 503' });
        const done = await store.orders.update(order.id, {
          state: 'ordered',
          printOrderIds: [5001, 5002],
          flags: ['price_mismatch'],
        });
        expect(done).toStrictEqual({
          ...failed,
          state: 'ordered',
          printOrderIds: [5001, 5002],
          flags: ['price_mismatch'],
        });
        expect(await store.orders.get(order.id)).toStrictEqual(done);
      });

      it('applies an update with ifState only while the order is in one of those states', async () => {
        const { order } = await store.orders.accept(purchaseOrder());
        const claimed = await store.orders.update(
          order.id,
          { state: 'processing' },
          { ifState: ['received', 'failed'] },
        );
        expect(claimed?.state).toBe('processing');
        await expectStoreError(
          store.orders.update(order.id, { state: 'cancelled' }, { ifState: ['received', 'failed'] }),
          'conflict',
        );
        expect((await store.orders.get(order.id))?.state).toBe('processing');
        await expectStoreError(
          store.orders.update(order.id, { state: 'cancelled' }, { ifState: [] }),
          'conflict',
        );
      });

      it('patches as update does without reading the order back, ifState included', async () => {
        const { order } = await store.orders.accept(purchaseOrder());
        clock.advance(MINUTE);
        expect(await store.orders.patch(order.id, { state: 'processing', flags: ['creating:0'] })).toBe(true);
        expect(
          await store.orders.patch(order.id, { printOrderIds: [5001] }, { ifState: ['processing'] }),
        ).toBe(true);
        expect(await store.orders.get(order.id)).toStrictEqual({
          ...order,
          state: 'processing',
          flags: ['creating:0'],
          printOrderIds: [5001],
          updatedAt: at(MINUTE),
        });
        await expectStoreError(
          store.orders.patch(order.id, { state: 'cancelled' }, { ifState: ['received'] }),
          'conflict',
        );
        expect((await store.orders.get(order.id))?.state).toBe('processing');
        expect(await store.orders.patch('987654', { state: 'failed' })).toBe(false);
        expect(await store.orders.patch('987654', { state: 'failed' }, { ifState: ['received'] })).toBe(
          false,
        );
      });

      it('lists newest first, filtered, one page at a time', async () => {
        const ids: string[] = [];
        const specs = [
          { buyerId: 'acme', state: 'received' },
          { buyerId: 'globex', state: 'failed' },
          { buyerId: 'acme', state: 'failed' },
          { buyerId: 'acme', state: 'received' },
          { buyerId: 'globex', state: 'received' },
        ] as const;
        for (const [i, spec] of specs.entries()) {
          const { order } = await store.orders.accept(
            purchaseOrder({ ...spec, payloadId: `p${i}`, orderId: `PO-${i}` }),
          );
          ids.push(order.id);
        }
        const first = await store.orders.list({ limit: 2 });
        expect(first.items.map((o) => o.id)).toEqual([ids[4], ids[3]]);
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await store.orders.list({ limit: 2, cursor: first.nextCursor! });
        expect(second.items.map((o) => o.id)).toEqual([ids[2], ids[1]]);
        const third = await store.orders.list({ limit: 2, cursor: second.nextCursor! });
        expect(third).toStrictEqual({ items: [expect.objectContaining({ id: ids[0] })] });

        expect((await store.orders.list({ state: 'failed' })).items.map((o) => o.id)).toEqual([
          ids[2],
          ids[1],
        ]);
        expect((await store.orders.list({ buyerId: 'acme' })).items.map((o) => o.id)).toEqual([
          ids[3],
          ids[2],
          ids[0],
        ]);
        expect(
          (await store.orders.list({ buyerId: 'acme', state: 'received' })).items.map((o) => o.id),
        ).toEqual([ids[3], ids[0]]);
        expect(await store.orders.list({ buyerId: 'nobody' })).toStrictEqual({ items: [] });
      });

      it('refuses a cursor it did not hand out', async () => {
        await expectStoreError(store.orders.list({ cursor: 'abc' }), 'invalid');
        await expectStoreError(store.jobs.list({ cursor: '-1' }), 'invalid');
        await expectStoreError(store.outbox.list({ cursor: '' }), 'invalid');
      });
    });

    describe('jobs', () => {
      const lease = 30 * SECOND;

      it('enqueues a pending job and reads it back', async () => {
        const { created, job } = await store.jobs.enqueue({
          kind: 'process_order',
          key: 'po:1',
          payload: { poId: '1', lines: [1, 2], note: null },
          runAt: T0,
        });
        expect(created).toBe(true);
        expect(job).toStrictEqual({
          id: job.id,
          kind: 'process_order',
          key: 'po:1',
          payload: { poId: '1', lines: [1, 2], note: null },
          runAt: T0,
          attempts: 0,
          maxAttempts: 10,
          state: 'pending',
          createdAt: T0,
          updatedAt: T0,
        });
        expect(await store.jobs.get(job.id)).toStrictEqual(job);
        expect(await store.jobs.get('424242')).toBeUndefined();
      });

      it('is idempotent on the key until the job is done', async () => {
        const first = await store.jobs.enqueue({ kind: 'process_order', key: 'po:1', payload: 1, runAt: T0 });
        const again = await store.jobs.enqueue({
          kind: 'process_order',
          key: 'po:1',
          payload: 2,
          runAt: at(HOUR),
        });
        expect(again).toStrictEqual({ created: false, job: first.job });
        const claimed = await store.jobs.claim(T0, lease);
        expect(
          (await store.jobs.enqueue({ kind: 'process_order', key: 'po:1', payload: 3, runAt: T0 })).created,
        ).toBe(false);
        await store.jobs.complete(claimed!);
        const fresh = await store.jobs.enqueue({ kind: 'process_order', key: 'po:1', payload: 4, runAt: T0 });
        expect(fresh.created).toBe(true);
        expect(fresh.job.id).not.toBe(first.job.id);
        expect(fresh.job.payload).toBe(4);
      });

      it('claims a due job under a lease, exclusively', async () => {
        const { job } = await store.jobs.enqueue({ kind: 'k', key: 'a', payload: {}, runAt: at(MINUTE) });
        expect(await store.jobs.claim(at(MINUTE - 1), lease)).toBeUndefined();
        clock.set(at(MINUTE));
        const claimed = await store.jobs.claim(at(MINUTE), lease);
        expect(claimed).toStrictEqual({
          ...job,
          state: 'running',
          attempts: 1,
          leaseUntil: at(MINUTE + lease),
          updatedAt: at(MINUTE),
        });
        expect(await store.jobs.claim(at(MINUTE), lease)).toBeUndefined();
        expect(await store.jobs.claim(at(MINUTE + lease - 1), lease)).toBeUndefined();
      });

      it('hands a job whose lease ran out to the next claimer, and fences the first one off', async () => {
        await store.jobs.enqueue({ kind: 'k', key: 'a', payload: {}, runAt: T0 });
        const first = await store.jobs.claim(T0, lease);
        const second = await store.jobs.claim(at(lease), lease);
        expect(second?.id).toBe(first?.id);
        expect(second?.attempts).toBe(2);
        expect(second?.leaseUntil).toEqual(at(2 * lease));
        expect(await store.jobs.complete(first!)).toBeUndefined();
        expect(await store.jobs.retry(first!, 'late', at(HOUR))).toBeUndefined();
        expect(await store.jobs.kill(first!, 'late')).toBeUndefined();
        expect((await store.jobs.get(first!.id))?.state).toBe('running');
        clock.advance(SECOND);
        const { leaseUntil: _lease, ...unleased } = second!;
        expect(await store.jobs.complete(second!)).toStrictEqual({
          ...unleased,
          state: 'done',
          updatedAt: at(SECOND),
        });
        expect(await store.jobs.complete(second!)).toBeUndefined();
      });

      it('takes the most overdue job first, then the oldest', async () => {
        const a = (await store.jobs.enqueue({ kind: 'k', key: 'a', payload: {}, runAt: at(2) })).job;
        const b = (await store.jobs.enqueue({ kind: 'k', key: 'b', payload: {}, runAt: at(1) })).job;
        const c = (await store.jobs.enqueue({ kind: 'k', key: 'c', payload: {}, runAt: at(1) })).job;
        const order = [];
        for (let i = 0; i < 4; i++) order.push((await store.jobs.claim(at(10), lease))?.id);
        expect(order).toEqual([b.id, c.id, a.id, undefined]);
      });

      it('claims only the kinds asked for', async () => {
        await store.jobs.enqueue({ kind: 'process_order', key: 'po:1', payload: {}, runAt: T0 });
        const reconcile = (
          await store.jobs.enqueue({ kind: 'reconcile', key: 'r:1', payload: {}, runAt: at(1) })
        ).job;
        expect((await store.jobs.claim(at(5), lease, ['reconcile', 'other']))?.id).toBe(reconcile.id);
        expect(await store.jobs.claim(at(5), lease, ['reconcile'])).toBeUndefined();
        expect(await store.jobs.claim(at(5), lease, [])).toBeUndefined();
        expect((await store.jobs.claim(at(5), lease))?.kind).toBe('process_order');
      });

      it('retries later with the error, then dead-letters once attempts run out', async () => {
        await store.jobs.enqueue({ kind: 'k', key: 'a', payload: {}, runAt: T0, maxAttempts: 2 });
        const first = await store.jobs.claim(T0, lease);
        clock.advance(SECOND);
        const retried = await store.jobs.retry(first!, 'upstream 503', at(5 * MINUTE));
        expect(retried).toStrictEqual({
          id: first!.id,
          kind: 'k',
          key: 'a',
          payload: {},
          runAt: at(5 * MINUTE),
          attempts: 1,
          maxAttempts: 2,
          state: 'pending',
          lastError: 'upstream 503',
          createdAt: T0,
          updatedAt: at(SECOND),
        });
        expect(await store.jobs.claim(at(5 * MINUTE - 1), lease)).toBeUndefined();
        const second = await store.jobs.claim(at(5 * MINUTE), lease);
        expect(second?.attempts).toBe(2);
        const dead = await store.jobs.retry(second!, 'upstream 503 again', at(10 * MINUTE));
        expect(dead?.state).toBe('dead');
        expect(dead?.lastError).toBe('upstream 503 again');
        expect(await store.jobs.claim(at(HOUR), lease)).toBeUndefined();
      });

      it('dead-letters on kill, keeps the key taken, and resurrects to a fresh pending job', async () => {
        await store.jobs.enqueue({ kind: 'k', key: 'a', payload: { n: 1 }, runAt: T0 });
        const claimed = await store.jobs.claim(T0, lease);
        const killed = await store.jobs.kill(claimed!, 'PO references unknown line');
        expect(killed).toMatchObject({ state: 'dead', attempts: 1, lastError: 'PO references unknown line' });
        expect(Object.keys(killed!)).not.toContain('leaseUntil');
        expect(await store.jobs.claim(at(HOUR), lease)).toBeUndefined();
        expect((await store.jobs.enqueue({ kind: 'k', key: 'a', payload: {}, runAt: T0 })).job).toStrictEqual(
          killed,
        );

        expect(await store.jobs.resurrect('424242')).toBeUndefined();
        clock.set(at(HOUR));
        const back = await store.jobs.resurrect(claimed!.id);
        expect(back).toMatchObject({ state: 'pending', attempts: 0, runAt: at(HOUR), updatedAt: at(HOUR) });
        expect(await store.jobs.resurrect(claimed!.id)).toBeUndefined();
        const again = await store.jobs.claim(at(HOUR), lease);
        expect(again).toMatchObject({ id: claimed!.id, attempts: 1, payload: { n: 1 } });
      });

      it('dead-letters a job whose lease ran out on its last attempt instead of running it again', async () => {
        await store.jobs.enqueue({ kind: 'k', key: 'poison', payload: {}, runAt: T0, maxAttempts: 1 });
        const claimed = await store.jobs.claim(T0, lease);
        expect(await store.jobs.claim(at(lease), lease)).toBeUndefined();
        const dead = await store.jobs.get(claimed!.id);
        expect(dead).toMatchObject({ state: 'dead', attempts: 1, lastError: 'lease expired on attempt 1' });
        expect(Object.keys(dead!)).not.toContain('leaseUntil');
        expect(await store.jobs.complete(claimed!)).toBeUndefined();
      });

      it('never hands one job to two of many concurrent claimers', async () => {
        for (let i = 0; i < 10; i++)
          await store.jobs.enqueue({ kind: 'k', key: `j${i}`, payload: i, runAt: T0 });
        const claims = await Promise.all(Array.from({ length: 25 }, () => store.jobs.claim(T0, lease)));
        const ids = claims.flatMap((j) => (j ? [j.id] : []));
        expect(ids).toHaveLength(10);
        expect(new Set(ids).size).toBe(10);
      });

      it('lists newest first by state and kind, one page at a time', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          const kind = i % 2 === 0 ? 'process_order' : 'process_event';
          ids.push((await store.jobs.enqueue({ kind, key: `k${i}`, payload: i, runAt: at(i) })).job.id);
        }
        await store.jobs.claim(at(0), lease);
        const first = await store.jobs.list({ limit: 3 });
        expect(first.items.map((j) => j.id)).toEqual([ids[4], ids[3], ids[2]]);
        const rest = await store.jobs.list({ limit: 3, cursor: first.nextCursor! });
        expect(rest).toStrictEqual({
          items: [expect.objectContaining({ id: ids[1] }), expect.objectContaining({ id: ids[0] })],
        });
        expect((await store.jobs.list({ state: 'running' })).items.map((j) => j.id)).toEqual([ids[0]]);
        expect((await store.jobs.list({ kind: 'process_event' })).items.map((j) => j.id)).toEqual([
          ids[3],
          ids[1],
        ]);
        expect(
          (await store.jobs.list({ kind: 'process_order', state: 'pending' })).items.map((j) => j.id),
        ).toEqual([ids[4], ids[2]]);
      });

      it('renews the lease of the current claim only, so a heartbeating worker keeps its job', async () => {
        const { job } = await store.jobs.enqueue({ kind: 'k', key: 'a', payload: {}, runAt: T0 });
        expect(await store.jobs.renewLease({ id: job.id, attempts: 0 }, at(HOUR))).toBeUndefined();
        const first = await store.jobs.claim(T0, lease);
        clock.set(at(20 * SECOND));
        const renewed = await store.jobs.renewLease(first!, at(80 * SECOND));
        expect(renewed).toStrictEqual({ ...first, leaseUntil: at(80 * SECOND), updatedAt: at(20 * SECOND) });
        expect(await store.jobs.get(job.id)).toStrictEqual(renewed);
        // The first lease's end no longer frees the job; the renewed lease's end does.
        expect(await store.jobs.claim(at(lease), lease)).toBeUndefined();
        const second = await store.jobs.claim(at(80 * SECOND), lease);
        expect(second).toMatchObject({ id: job.id, attempts: 2, leaseUntil: at(80 * SECOND + lease) });
        expect(await store.jobs.renewLease(first!, at(HOUR))).toBeUndefined();
        expect((await store.jobs.get(job.id))?.leaseUntil).toEqual(at(80 * SECOND + lease));
        await store.jobs.complete(second!);
        expect(await store.jobs.renewLease(second!, at(HOUR))).toBeUndefined();
        expect((await store.jobs.get(job.id))?.state).toBe('done');
        expect(await store.jobs.renewLease({ id: '424242', attempts: 1 }, at(HOUR))).toBeUndefined();
      });

      it('lets a claim whose lease ran out renew while nobody has taken its job over', async () => {
        await store.jobs.enqueue({ kind: 'k', key: 'a', payload: {}, runAt: T0 });
        const claimed = await store.jobs.claim(T0, lease);
        clock.set(at(2 * lease));
        expect(await store.jobs.renewLease(claimed!, at(3 * lease))).toStrictEqual({
          ...claimed,
          leaseUntil: at(3 * lease),
          updatedAt: at(2 * lease),
        });
        expect(await store.jobs.claim(at(2 * lease), lease)).toBeUndefined();
        expect(await store.jobs.complete(claimed!)).toMatchObject({ state: 'done', attempts: 1 });
      });

      it('purges done jobs finished before the cut-off, never pending, running or dead ones', async () => {
        const make = async (key: string, kind = 'k') =>
          (await store.jobs.enqueue({ kind, key, payload: {}, runAt: T0 })).job;
        const doneOld = await make('done-old');
        const deadOld = await make('dead-old');
        const running = await make('running');
        const claims = [];
        for (let i = 0; i < 3; i++) claims.push(await store.jobs.claim(T0, HOUR, ['k']));
        await store.jobs.complete(claims[0]!);
        await store.jobs.kill(claims[1]!, 'PO references unknown line');
        const pending = await make('pending');
        clock.set(at(HOUR));
        const doneRecent = await make('done-recent', 'other');
        await store.jobs.complete((await store.jobs.claim(at(HOUR), lease, ['other']))!);

        expect(await store.jobs.purgeFinished(at(HOUR))).toBe(1);
        expect(await store.jobs.get(doneOld.id)).toBeUndefined();
        expect(await store.jobs.get(doneRecent.id)).toMatchObject({ state: 'done' });
        expect(await store.jobs.get(deadOld.id)).toMatchObject({ state: 'dead' });
        expect(await store.jobs.get(running.id)).toMatchObject({ state: 'running' });
        expect(await store.jobs.get(pending.id)).toMatchObject({ state: 'pending' });
        expect(await store.jobs.purgeFinished(at(HOUR))).toBe(0);
        expect(await store.jobs.purgeFinished(at(HOUR + 1))).toBe(1);
        expect(await store.jobs.get(doneRecent.id)).toBeUndefined();
        expect(await store.jobs.purgeFinished(at(100 * HOUR))).toBe(0);

        // A purged done job frees its key exactly as the done job did; a dead job's key stays taken.
        const dead = await store.jobs.enqueue({ kind: 'k', key: 'dead-old', payload: {}, runAt: T0 });
        expect(dead).toStrictEqual({ created: false, job: await store.jobs.get(deadOld.id) });
        const again = await store.jobs.enqueue({ kind: 'k', key: 'done-old', payload: {}, runAt: T0 });
        expect(again.created).toBe(true);
        expect(Number(again.job.id)).toBeGreaterThan(Number(doneRecent.id));
      });
    });

    describe('outbox', () => {
      const lease = MINUTE;

      it('queues a pending message, due now unless told otherwise', async () => {
        const input = outboxMessage();
        const { created, message } = await store.outbox.enqueue(input);
        expect(created).toBe(true);
        expect(message).toStrictEqual({
          id: message.id,
          ...input,
          attempts: 0,
          nextAttemptAt: T0,
          state: 'pending',
          createdAt: T0,
          updatedAt: T0,
        });
        expect(await store.outbox.get(message.id)).toStrictEqual(message);
        const later = await store.outbox.enqueue(outboxMessage({ dedupeKey: 'k2', nextAttemptAt: at(HOUR) }));
        expect(later.message.nextAttemptAt).toEqual(at(HOUR));
        expect(await store.outbox.get('424242')).toBeUndefined();
      });

      it('never queues the same notice twice, even after it was delivered', async () => {
        const first = await store.outbox.enqueue(
          outboxMessage({ kind: 'ship_notice', dedupeKey: 'ship:5001:0' }),
        );
        const again = await store.outbox.enqueue(
          outboxMessage({ kind: 'ship_notice', dedupeKey: 'ship:5001:0', body: '<changed/>' }),
        );
        expect(again).toStrictEqual({ created: false, message: first.message });
        const [claimed] = await store.outbox.claimDue(T0, lease);
        const delivered = await store.outbox.markDelivered(claimed!);
        const afterDelivery = await store.outbox.enqueue(
          outboxMessage({ kind: 'ship_notice', dedupeKey: 'ship:5001:0' }),
        );
        expect(afterDelivery).toStrictEqual({ created: false, message: delivered });
        const racing = await Promise.all(
          Array.from({ length: 10 }, () => store.outbox.enqueue(outboxMessage({ dedupeKey: 'ship:5002:0' }))),
        );
        expect(racing.filter((r) => r.created)).toHaveLength(1);
      });

      it('claims due messages oldest first, up to the limit, under a lease', async () => {
        const m1 = (await store.outbox.enqueue(outboxMessage({ poId: '1', dedupeKey: 'a' }))).message;
        const m2 = (await store.outbox.enqueue(outboxMessage({ poId: '2', dedupeKey: 'b' }))).message;
        const m3 = (await store.outbox.enqueue(outboxMessage({ poId: '3', dedupeKey: 'c' }))).message;
        await store.outbox.enqueue(outboxMessage({ poId: '4', dedupeKey: 'd', nextAttemptAt: at(HOUR) }));
        const batch = await store.outbox.claimDue(T0, lease, 2);
        expect(batch).toStrictEqual([
          { ...m1, state: 'sending', attempts: 1, leaseUntil: at(lease) },
          { ...m2, state: 'sending', attempts: 1, leaseUntil: at(lease) },
        ]);
        expect((await store.outbox.claimDue(T0, lease)).map((m) => m.id)).toEqual([m3.id]);
        expect(await store.outbox.claimDue(T0, lease, 10)).toEqual([]);
      });

      it('never hands one message to two of many concurrent claimers', async () => {
        for (let i = 0; i < 10; i++)
          await store.outbox.enqueue(outboxMessage({ poId: `${i}`, dedupeKey: `m${i}` }));
        const batches = await Promise.all(
          Array.from({ length: 6 }, () => store.outbox.claimDue(T0, lease, 3)),
        );
        const ids = batches.flat().map((m) => m.id);
        expect(ids).toHaveLength(10);
        expect(new Set(ids).size).toBe(10);
      });

      it("delivers one purchase order's messages in the order they were queued", async () => {
        const confirm = (await store.outbox.enqueue(outboxMessage({ poId: '7', dedupeKey: 'confirm:7' })))
          .message;
        const ship = (
          await store.outbox.enqueue(outboxMessage({ poId: '7', kind: 'ship_notice', dedupeKey: 'ship:7:0' }))
        ).message;
        const other = (await store.outbox.enqueue(outboxMessage({ poId: '8', dedupeKey: 'confirm:8' })))
          .message;

        const firstRound = await store.outbox.claimDue(T0, lease, 10);
        expect(firstRound.map((m) => m.id)).toEqual([confirm.id, other.id]);
        await store.outbox.markDelivered(firstRound[1]!);
        await store.outbox.markRetry(firstRound[0]!, 'HTTP 503', at(5 * MINUTE));
        // The ship notice waits behind its confirmation, even while the confirmation waits for its retry.
        expect(await store.outbox.claimDue(at(MINUTE), lease, 10)).toEqual([]);
        const retry = await store.outbox.claimDue(at(5 * MINUTE), lease, 10);
        expect(retry.map((m) => m.id)).toEqual([confirm.id]);
        expect(await store.outbox.claimDue(at(5 * MINUTE), lease, 10)).toEqual([]);
        await store.outbox.markDelivered(retry[0]!);
        expect((await store.outbox.claimDue(at(5 * MINUTE), lease, 10)).map((m) => m.id)).toEqual([ship.id]);
      });

      it('does not let a dead message hold up the rest of its purchase order', async () => {
        await store.outbox.enqueue(outboxMessage({ poId: '7', dedupeKey: 'confirm:7' }));
        const ship = (await store.outbox.enqueue(outboxMessage({ poId: '7', dedupeKey: 'ship:7:0' })))
          .message;
        const [confirm] = await store.outbox.claimDue(T0, lease, 10);
        await store.outbox.markDead(confirm!, 'HTTP 400: unknown order');
        expect((await store.outbox.claimDue(T0, lease, 10)).map((m) => m.id)).toEqual([ship.id]);
      });

      it('records delivery, retry and dead letter, each only for the current claim', async () => {
        const { message } = await store.outbox.enqueue(outboxMessage());
        const [first] = await store.outbox.claimDue(T0, lease);
        clock.set(at(lease));
        const [second] = await store.outbox.claimDue(at(lease), lease);
        expect(second).toMatchObject({ id: message.id, attempts: 2, leaseUntil: at(2 * lease) });
        expect(await store.outbox.markDelivered(first!)).toBeUndefined();
        expect(await store.outbox.markRetry(first!, 'x', at(HOUR))).toBeUndefined();
        expect(await store.outbox.markDead(first!, 'x')).toBeUndefined();

        const retried = await store.outbox.markRetry(second!, 'connect ECONNREFUSED', at(HOUR));
        expect(retried).toStrictEqual({
          ...message,
          attempts: 2,
          nextAttemptAt: at(HOUR),
          lastError: 'connect ECONNREFUSED',
          updatedAt: at(lease),
        });
        clock.set(at(HOUR));
        const [third] = await store.outbox.claimDue(at(HOUR), lease);
        const delivered = await store.outbox.markDelivered(third!);
        expect(delivered).toStrictEqual({
          ...message,
          attempts: 3,
          nextAttemptAt: at(HOUR),
          state: 'delivered',
          lastError: 'connect ECONNREFUSED',
          deliveredAt: at(HOUR),
          updatedAt: at(HOUR),
        });
        expect(await store.outbox.claimDue(at(2 * HOUR), lease)).toEqual([]);
      });

      it('dead-letters on request and resurrects to pending, due now, attempts reset', async () => {
        const { message } = await store.outbox.enqueue(outboxMessage());
        const [claimed] = await store.outbox.claimDue(T0, lease);
        const dead = await store.outbox.markDead(claimed!, 'HTTP 403 for 3 days');
        expect(dead).toMatchObject({ state: 'dead', attempts: 1, lastError: 'HTTP 403 for 3 days' });
        expect(await store.outbox.claimDue(at(HOUR), lease)).toEqual([]);
        expect(await store.outbox.resurrect('424242')).toBeUndefined();
        clock.set(at(2 * HOUR));
        const back = await store.outbox.resurrect(message.id);
        expect(back).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: at(2 * HOUR) });
        expect(await store.outbox.resurrect(message.id)).toBeUndefined();
        expect((await store.outbox.claimDue(at(2 * HOUR), lease)).map((m) => m.id)).toEqual([message.id]);
      });

      it('lists newest first by state, buyer and purchase order', async () => {
        const a = (await store.outbox.enqueue(outboxMessage({ poId: '1', dedupeKey: 'a' }))).message;
        const b = (
          await store.outbox.enqueue(outboxMessage({ poId: '2', dedupeKey: 'b', buyerId: 'globex' }))
        ).message;
        const c = (await store.outbox.enqueue(outboxMessage({ poId: '1', dedupeKey: 'c' }))).message;
        await store.outbox.claimDue(T0, lease, 1);
        expect((await store.outbox.list()).items.map((m) => m.id)).toEqual([c.id, b.id, a.id]);
        expect((await store.outbox.list({ poId: '1' })).items.map((m) => m.id)).toEqual([c.id, a.id]);
        expect((await store.outbox.list({ buyerId: 'globex' })).items.map((m) => m.id)).toEqual([b.id]);
        expect((await store.outbox.list({ state: 'sending' })).items.map((m) => m.id)).toEqual([a.id]);
        // Filters combine, each only when given, and the cursor within them.
        expect((await store.outbox.list({ state: 'pending' })).items.map((m) => m.id)).toEqual([c.id, b.id]);
        expect((await store.outbox.list({ state: 'pending', poId: '1' })).items.map((m) => m.id)).toEqual([
          c.id,
        ]);
        expect(
          (await store.outbox.list({ state: 'pending', buyerId: 'acme', poId: '2' })).items,
        ).toStrictEqual([]);
        const pending = await store.outbox.list({ state: 'pending', limit: 1 });
        expect(
          (await store.outbox.list({ state: 'pending', cursor: pending.nextCursor! })).items.map((m) => m.id),
        ).toEqual([b.id]);
        expect((await store.outbox.list({ state: 'delivered' })).items).toStrictEqual([]);
        expect((await store.outbox.list({ state: 'dead' })).items).toStrictEqual([]);
        const page = await store.outbox.list({ limit: 2 });
        expect(page.items.map((m) => m.id)).toEqual([c.id, b.id]);
        expect(
          (await store.outbox.list({ limit: 2, cursor: page.nextCursor! })).items.map((m) => m.id),
        ).toEqual([a.id]);
      });

      it('purges the queue rows of messages delivered before the cut-off; the documents stay with their PO', async () => {
        const confirm = (await store.outbox.enqueue(outboxMessage({ poId: '7', dedupeKey: 'confirm:7' })))
          .message;
        const ship = (
          await store.outbox.enqueue(
            outboxMessage({ poId: '7', kind: 'ship_notice', dedupeKey: 'ship:7:0', body: '<ship/>' }),
          )
        ).message;
        const dead = (await store.outbox.enqueue(outboxMessage({ poId: '8', dedupeKey: 'confirm:8' })))
          .message;
        const later = (
          await store.outbox.enqueue(
            outboxMessage({ poId: '9', dedupeKey: 'confirm:9', nextAttemptAt: at(HOUR) }),
          )
        ).message;
        const firstRound = await store.outbox.claimDue(T0, lease, 10);
        expect(firstRound.map((m) => m.id)).toEqual([confirm.id, dead.id]);
        clock.set(at(MINUTE));
        const confirmFailure = await store.outbox.markRetry(firstRound[0]!, 'HTTP 503', at(MINUTE));
        expect(confirmFailure?.state).toBe('pending');
        await store.outbox.markDead(firstRound[1]!, 'HTTP 400: unknown order');
        const [confirmAgain] = await store.outbox.claimDue(at(MINUTE), lease, 10);
        const deliveredConfirm = await store.outbox.markDelivered(confirmAgain!);
        expect(deliveredConfirm).toMatchObject({
          attempts: 2,
          lastError: 'HTTP 503',
          deliveredAt: at(MINUTE),
        });
        clock.set(at(HOUR));
        const secondRound = await store.outbox.claimDue(at(HOUR), lease, 10);
        expect(secondRound.map((m) => m.id)).toEqual([ship.id, later.id]);
        const deliveredShip = await store.outbox.markDelivered(secondRound[0]!);
        const listed = await store.outbox.list({ poId: '7' });
        expect(listed.items).toStrictEqual([deliveredShip, deliveredConfirm]);

        expect(await store.outbox.purgeDelivered(at(MINUTE))).toBe(0);
        expect(await store.outbox.purgeDelivered(at(HOUR))).toBe(1);
        expect(await store.outbox.purgeDelivered(at(HOUR))).toBe(0);
        expect(await store.outbox.get(confirm.id)).toStrictEqual(deliveredConfirm);
        expect(await store.outbox.list({ poId: '7' })).toStrictEqual(listed);
        expect(await store.outbox.purgeDelivered(at(HOUR + 1))).toBe(1);
        expect(await store.outbox.get(ship.id)).toStrictEqual(deliveredShip);
        expect(await store.outbox.list({ poId: '7' })).toStrictEqual(listed);
        expect((await store.outbox.list({ state: 'delivered' })).items).toStrictEqual(listed.items);
        expect((await store.outbox.list({ buyerId: 'acme' })).items.map((m) => m.id)).toEqual([
          later.id,
          dead.id,
          ship.id,
          confirm.id,
        ]);
        expect((await store.outbox.list({ limit: 3, cursor: dead.id })).items).toStrictEqual(listed.items);

        // Dead and undelivered messages keep their queue rows, and their state.
        expect(await store.outbox.purgeDelivered(at(100 * HOUR))).toBe(0);
        expect(await store.outbox.get(dead.id)).toMatchObject({
          state: 'dead',
          lastError: 'HTTP 400: unknown order',
        });
        expect(await store.outbox.get(later.id)).toMatchObject({ state: 'sending', attempts: 1 });
        // A purged message's claim has nothing left to finish.
        expect(await store.outbox.markDelivered(secondRound[0]!)).toBeUndefined();
        expect(await store.outbox.markDead(secondRound[0]!, 'late')).toBeUndefined();
        expect(await store.outbox.resurrect(ship.id)).toBeUndefined();
        expect(await store.outbox.get(ship.id)).toStrictEqual(deliveredShip);
      });

      it('keeps deduplicating a delivered message after its queue row is purged', async () => {
        const { message } = await store.outbox.enqueue(
          outboxMessage({ poId: '7', kind: 'ship_notice', dedupeKey: 'ship:5001:0' }),
        );
        const [claimed] = await store.outbox.claimDue(T0, lease);
        const delivered = await store.outbox.markDelivered(claimed!);
        expect(await store.outbox.purgeDelivered(at(1))).toBe(1);

        const again = await store.outbox.enqueue(
          outboxMessage({ poId: '7', kind: 'ship_notice', dedupeKey: 'ship:5001:0', body: '<changed/>' }),
        );
        expect(again).toStrictEqual({ created: false, message: delivered });
        const racing = await Promise.all(
          Array.from({ length: 10 }, () =>
            store.outbox.enqueue(outboxMessage({ poId: '7', kind: 'ship_notice', dedupeKey: 'ship:5001:0' })),
          ),
        );
        expect(racing.filter((r) => r.created)).toHaveLength(0);
        expect(await store.outbox.claimDue(at(HOUR), lease, 10)).toEqual([]);
        expect(await store.outbox.purgeDelivered(at(HOUR))).toBe(0);
        expect((await store.outbox.list({ poId: '7' })).items).toStrictEqual([delivered]);

        // The purchase order's next document is queued and claimed as usual.
        const next = await store.outbox.enqueue(
          outboxMessage({ poId: '7', kind: 'ship_notice', dedupeKey: 'ship:5001:1' }),
        );
        expect(next.created).toBe(true);
        expect(Number(next.message.id)).toBeGreaterThan(Number(message.id));
        expect((await store.outbox.claimDue(at(HOUR), lease, 10)).map((m) => m.id)).toEqual([
          next.message.id,
        ]);
      });
    });

    describe('print orders', () => {
      it('starts tracking once and answers the tracked record after', async () => {
        const { created, printOrder } = await store.printOrders.add({
          storefrontId: 'demo',
          printOrderId: 5001,
          poId: '1',
        });
        expect(created).toBe(true);
        expect(printOrder).toStrictEqual({
          storefrontId: 'demo',
          printOrderId: 5001,
          poId: '1',
          state: 'open',
          shipmentsNotified: [],
          confirmed: false,
          createdAt: T0,
          updatedAt: T0,
        });
        const again = await store.printOrders.add({ storefrontId: 'demo', printOrderId: 5001, poId: '2' });
        expect(again).toStrictEqual({ created: false, printOrder });
        expect(await store.printOrders.get('demo', 5001)).toStrictEqual(printOrder);
        expect(await store.printOrders.get('other', 5001)).toBeUndefined();
        expect(
          (await store.printOrders.add({ storefrontId: 'other', printOrderId: 5001, poId: '3' })).created,
        ).toBe(true);
      });

      it('patches status, notified shipments, confirmation and check time', async () => {
        const { printOrder } = await store.printOrders.add({
          storefrontId: 'demo',
          printOrderId: 5001,
          poId: '1',
        });
        clock.advance(HOUR);
        const confirmed = await store.printOrders.update('demo', 5001, {
          confirmed: true,
          lastStatus: 'In Production',
        });
        expect(confirmed).toStrictEqual({
          ...printOrder,
          confirmed: true,
          lastStatus: 'In Production',
          updatedAt: at(HOUR),
        });
        const shipped = await store.printOrders.update('demo', 5001, {
          shipmentsNotified: [0, 1],
          lastCheckedAt: at(HOUR),
          state: 'closed',
        });
        expect(shipped).toStrictEqual({
          ...confirmed,
          shipmentsNotified: [0, 1],
          lastCheckedAt: at(HOUR),
          state: 'closed',
        });
        expect(await store.printOrders.get('demo', 5001)).toStrictEqual(shipped);
        expect(await store.printOrders.update('demo', 9999, { confirmed: true })).toBeUndefined();
      });

      it("lists a purchase order's print orders", async () => {
        await store.printOrders.add({ storefrontId: 'demo', printOrderId: 5002, poId: '1' });
        await store.printOrders.add({ storefrontId: 'demo', printOrderId: 5001, poId: '1' });
        await store.printOrders.add({ storefrontId: 'demo', printOrderId: 5003, poId: '2' });
        expect((await store.printOrders.listByPo('1')).map((p) => p.printOrderId)).toEqual([5001, 5002]);
        expect(await store.printOrders.listByPo('3')).toEqual([]);
      });

      it('lists open print orders, never-checked first, then least recently checked', async () => {
        for (const id of [1, 2, 3, 4])
          await store.printOrders.add({ storefrontId: 'demo', printOrderId: id, poId: '1' });
        await store.printOrders.update('demo', 1, { lastCheckedAt: at(2 * HOUR) });
        await store.printOrders.update('demo', 3, { lastCheckedAt: at(HOUR) });
        await store.printOrders.update('demo', 4, { state: 'closed' });
        expect((await store.printOrders.listOpen()).map((p) => p.printOrderId)).toEqual([2, 3, 1]);
        expect((await store.printOrders.listOpen({ limit: 2 })).map((p) => p.printOrderId)).toEqual([2, 3]);
      });

      it('answers the highest print order id tracked per storefront, open or closed', async () => {
        expect(await store.printOrders.highestId('demo')).toBeUndefined();
        await store.printOrders.add({ storefrontId: 'demo', printOrderId: 5003, poId: '1' });
        await store.printOrders.add({ storefrontId: 'demo', printOrderId: 5001, poId: '2' });
        // Beyond 32 bits, as a print service's ids may grow (PostgreSQL hands BIGINT back as text).
        await store.printOrders.add({ storefrontId: 'other', printOrderId: 3_000_000_001, poId: '3' });
        await store.printOrders.update('demo', 5003, { state: 'closed' });
        expect(await store.printOrders.highestId('demo')).toBe(5003);
        expect(await store.printOrders.highestId('other')).toBe(3_000_000_001);
        expect(await store.printOrders.highestId('nowhere')).toBeUndefined();
      });
    });

    describeInvoices(() => ({ store, clock }));
    describeNotesAndExports(() => ({ store, clock }));
    describeOrderCommit(() => ({ store, clock }));
    describeStatusUpdates(() => ({ store, clock }));
    describeNotificationLog(() => ({ store, clock }));
    describeReorders(() => ({ store, clock }));

    describe('refusals log', () => {
      const refusal = (overrides: Partial<NewRefusal> = {}): NewRefusal => ({
        buyerId: 'acme',
        channel: 'cxml',
        documentType: 'PunchOutSetupRequest',
        payloadId: 'p-1@buyer',
        clientAddress: '203.0.113.7',
        status: 401,
        answer: 'Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
        document: '<cXML><SharedSecret>[redacted]</SharedSecret></cXML>',
        documentBytes: 4711,
        ...overrides,
      });
      const roomy = { perAddress: 100, total: 1000 };

      it('keeps each refusal with its time; lists newest first, by buyer and time, in pages', async () => {
        const first = await store.refusals.add(refusal(), roomy);
        expect(first).toStrictEqual({ id: first.id, ...refusal(), createdAt: T0 });
        clock.advance(MINUTE);
        // An unclaimed one (no buyer), without a payloadID: both stay absent, not empty.
        const { buyerId: _, payloadId: __, ...bare } = refusal({ channel: 'oci', documentType: 'punch-in' });
        const unknown = await store.refusals.add(bare, roomy);
        expect(unknown).toStrictEqual({ id: unknown.id, ...bare, createdAt: at(MINUTE) });
        clock.advance(MINUTE);
        const second = await store.refusals.add(refusal({ payloadId: 'p-2@buyer' }), roomy);

        expect((await store.refusals.list()).items.map((r) => r.id)).toEqual([
          second.id,
          unknown.id,
          first.id,
        ]);
        const page = await store.refusals.list({ buyerId: 'acme', limit: 1 });
        expect(page.items).toStrictEqual([second]);
        expect(
          await store.refusals.list({ buyerId: 'acme', limit: 1, cursor: page.nextCursor! }),
        ).toStrictEqual({
          items: [first],
        });
        // `from` is inclusive, `to` exclusive.
        expect(await store.refusals.list({ from: at(MINUTE), to: at(2 * MINUTE) })).toStrictEqual({
          items: [unknown],
        });
        expect((await store.refusals.list({ buyerId: 'coupa' })).items).toEqual([]);
        expect(await store.refusals.countByBuyerSince('acme', T0)).toBe(2);
        expect(await store.refusals.countByBuyerSince('acme', at(1))).toBe(1);
        expect(await store.refusals.countByBuyerSince('coupa', T0)).toBe(0);
      });

      it('keeps the newest entries of each client address and the newest in all', async () => {
        const caps = { perAddress: 3, total: 5 };
        for (let i = 0; i < 6; i++) await store.refusals.add(refusal({ payloadId: `a-${i}` }), caps);
        expect((await store.refusals.list()).items.map((r) => r.payloadId)).toEqual(['a-5', 'a-4', 'a-3']);
        for (let i = 0; i < 4; i++) {
          await store.refusals.add(refusal({ payloadId: `b-${i}`, clientAddress: '198.51.100.1' }), caps);
        }
        expect((await store.refusals.list()).items.map((r) => r.payloadId)).toEqual([
          'b-3',
          'b-2',
          'b-1',
          'a-5',
          'a-4',
        ]);
        await expectStoreError(store.refusals.add(refusal(), { perAddress: 0, total: 5 }), 'invalid');
      });

      it('purges entries recorded before the cut-off, within the bound', async () => {
        await store.refusals.add(refusal({ payloadId: 'old-1' }), roomy);
        await store.refusals.add(refusal({ payloadId: 'old-2' }), roomy);
        clock.advance(HOUR);
        await store.refusals.add(refusal({ payloadId: 'new' }), roomy);
        expect(await store.refusals.purgeBefore(at(HOUR), { limit: 1 })).toBe(1);
        expect(await store.refusals.purgeBefore(at(HOUR))).toBe(1);
        expect((await store.refusals.list()).items.map((r) => r.payloadId)).toEqual(['new']);
      });
    });

    describe('heartbeats', () => {
      it('answers the latest beat by name; an earlier one never moves it back', async () => {
        expect(await store.heartbeat.last('background-round')).toBeUndefined();
        // The given time counts, not the store's clock (still at T0).
        await store.heartbeat.beat('background-round', at(HOUR));
        expect(await store.heartbeat.last('background-round')).toStrictEqual(at(HOUR));
        await store.heartbeat.beat('background-round', at(MINUTE));
        await store.heartbeat.beat('background-round', at(HOUR));
        expect(await store.heartbeat.last('background-round')).toStrictEqual(at(HOUR));
        await store.heartbeat.beat('background-round', at(HOUR + SECOND));
        expect(await store.heartbeat.last('background-round')).toStrictEqual(at(HOUR + SECOND));
        expect(await store.heartbeat.last('other')).toBeUndefined();
        await store.heartbeat.beat('other', at(MINUTE));
        expect(await store.heartbeat.last('other')).toStrictEqual(at(MINUTE));
        expect(await store.heartbeat.last('background-round')).toStrictEqual(at(HOUR + SECOND));
      });

      it('keeps the latest of beats that arrive at once, in any order', async () => {
        await Promise.all([3, 5, 1, 4, 2].map((n) => store.heartbeat.beat('round', at(n * MINUTE))));
        expect(await store.heartbeat.last('round')).toStrictEqual(at(5 * MINUTE));
      });
    });

    describe('guess counters', () => {
      const limit = { maxFailures: 3, windowMs: MINUTE, maxLockMs: 4 * MINUTE };

      it('counts failures in a window, locks at the limit, and doubles a lock that follows soon after', async () => {
        expect(await store.guessCounters.get('k')).toBeUndefined();
        expect(await store.guessCounters.fail('k', 2, T0, limit)).toEqual({
          failures: 2,
          windowStart: T0.getTime(),
          lockedUntil: 0,
          lockMs: 0,
        });
        const locked = await store.guessCounters.fail('k', 1, at(SECOND), limit);
        expect(locked).toEqual({
          failures: 0,
          windowStart: at(SECOND).getTime(),
          lockedUntil: at(SECOND + MINUTE).getTime(),
          lockMs: MINUTE,
        });
        // While locked, nothing counts.
        expect(await store.guessCounters.fail('k', 5, at(30 * SECOND), limit)).toEqual(locked);
        // Right after the lock: a new lock twice as long, then capped at the longest.
        const again = await store.guessCounters.fail('k', 3, at(SECOND + MINUTE), limit);
        expect(again).toMatchObject({ lockMs: 2 * MINUTE, lockedUntil: at(SECOND + 3 * MINUTE).getTime() });
        const capped = await store.guessCounters.fail('k', 3, at(SECOND + 3 * MINUTE), limit);
        expect(capped).toMatchObject({ lockMs: 4 * MINUTE });
        await store.guessCounters.fail('k', 3, at(SECOND + 7 * MINUTE), limit);
        expect((await store.guessCounters.get('k'))?.lockMs).toBe(4 * MINUTE);
        // A window that ran out starts afresh.
        expect(await store.guessCounters.fail('other', 2, T0, limit)).toMatchObject({ failures: 2 });
        expect(await store.guessCounters.fail('other', 1, at(MINUTE), limit)).toMatchObject({
          failures: 1,
          windowStart: at(MINUTE).getTime(),
          lockedUntil: 0,
        });
      });

      it('loses no failure when instances count at once, and forgets a key', async () => {
        const wide = { ...limit, maxFailures: 100 };
        await Promise.all(Array.from({ length: 20 }, () => store.guessCounters.fail('busy', 1, T0, wide)));
        expect((await store.guessCounters.get('busy'))?.failures).toBe(20);
        await store.guessCounters.forget('busy');
        expect(await store.guessCounters.get('busy')).toBeUndefined();
      });

      it('purges counters idle since the cut-off, a bounded number at a time', async () => {
        for (const key of ['a', 'b', 'c']) await store.guessCounters.fail(key, 1, T0, limit);
        await store.guessCounters.fail('late', 1, at(HOUR), limit);
        expect(await store.guessCounters.purgeIdle(at(MINUTE), { limit: 2 })).toBe(2);
        expect(await store.guessCounters.purgeIdle(at(MINUTE))).toBe(1);
        expect(await store.guessCounters.get('late')).toMatchObject({ failures: 1 });
      });
    });

    describe('events inbox', () => {
      it('records deliveries and hands out the unprocessed ones oldest first', async () => {
        const body = [{ id: 5001, status: 'Shipped', tracking: ['1Z999'] }];
        const first = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body });
        expect(first).toStrictEqual({
          id: first.id,
          storefrontId: 'demo',
          event: 'order_updated',
          body,
          receivedAt: T0,
          processed: false,
        });
        clock.advance(MINUTE);
        const second = await store.events.add({
          storefrontId: 'demo',
          event: 'customer_created',
          body: [{ id: 1 }],
        });
        const third = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
        expect(await store.events.get(first.id)).toStrictEqual(first);
        expect(await store.events.get('424242')).toBeUndefined();
        expect((await store.events.listUnprocessed()).map((e) => e.id)).toEqual([
          first.id,
          second.id,
          third.id,
        ]);
        expect((await store.events.listUnprocessed({ limit: 1 })).map((e) => e.id)).toEqual([first.id]);

        expect(await store.events.markProcessed(first.id)).toBe(true);
        expect(await store.events.markProcessed('424242')).toBe(false);
        expect((await store.events.get(first.id))?.processed).toBe(true);
        expect((await store.events.listUnprocessed()).map((e) => e.id)).toEqual([second.id, third.id]);
      });

      it('purges processed deliveries received before the cut-off', async () => {
        const old = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
        const oldPending = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
        clock.set(at(HOUR));
        const recent = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
        await store.events.markProcessed(old.id);
        await store.events.markProcessed(recent.id);
        expect(await store.events.purgeProcessed(at(HOUR))).toBe(1);
        expect(await store.events.get(old.id)).toBeUndefined();
        expect(await store.events.get(oldPending.id)).toBeDefined();
        expect(await store.events.get(recent.id)).toBeDefined();
      });
    });

    describe('stats', () => {
      it('counts every state, 0 when empty, with no oldest instants', async () => {
        expect(await store.stats(T0)).toStrictEqual({
          ordersByState: {
            received: 0,
            processing: 0,
            ordered: 0,
            failed: 0,
            cancelled: 0,
            needs_operator: 0,
          },
          jobsByState: { pending: 0, running: 0, done: 0, dead: 0 },
          outbox: { pending: 0, sending: 0, dead: 0 },
          invoicesHeld: 0,
        });
      });

      it('counts orders, jobs and undelivered messages by state, with the oldest still waiting', async () => {
        const order = (n: number, state: OrderState) =>
          store.orders.accept(purchaseOrder({ payloadId: `p-${n}`, orderId: `PO-${n}`, state }));
        await order(1, 'ordered');
        const first = (await store.outbox.enqueue(outboxMessage({ poId: '1', dedupeKey: 'a' }))).message;
        const dead = (await store.outbox.enqueue(outboxMessage({ poId: '4', dedupeKey: 'd' }))).message;
        const [claimedFirst, claimedDead] = await store.outbox.claimDue(T0, MINUTE, 10);
        expect([claimedFirst?.id, claimedDead?.id]).toEqual([first.id, dead.id]);
        await store.outbox.markDelivered(claimedFirst!);
        await store.outbox.markDead(claimedDead!, 'HTTP 400');
        for (const key of ['j-done', 'j-dead', 'j-running']) {
          await store.jobs.enqueue({ kind: 'k', key, payload: {}, runAt: T0 });
        }
        await store.jobs.complete((await store.jobs.claim(T0, MINUTE))!);
        await store.jobs.kill((await store.jobs.claim(T0, MINUTE))!, 'bad');
        await store.jobs.claim(T0, MINUTE);

        clock.set(at(MINUTE));
        await order(2, 'received');
        await store.jobs.enqueue({ kind: 'k', key: 'j-pending-1', payload: {}, runAt: at(HOUR) });
        await store.jobs.enqueue({ kind: 'k', key: 'j-pending-2', payload: {}, runAt: at(HOUR) });
        clock.set(at(2 * MINUTE));
        await order(3, 'processing');
        await order(4, 'failed');
        await order(5, 'failed');
        await order(6, 'needs_operator');
        await store.outbox.enqueue(outboxMessage({ poId: '2', dedupeKey: 'b' }));
        expect(await store.outbox.claimDue(at(2 * MINUTE), MINUTE, 10)).toHaveLength(1);
        clock.set(at(3 * MINUTE));
        await store.outbox.enqueue(outboxMessage({ poId: '3', dedupeKey: 'c', nextAttemptAt: at(HOUR) }));

        const expected = {
          ordersByState: {
            received: 1,
            processing: 1,
            ordered: 1,
            failed: 2,
            cancelled: 0,
            needs_operator: 1,
          },
          oldestUnorderedAt: at(MINUTE),
          jobsByState: { pending: 2, running: 1, done: 1, dead: 1 },
          outbox: { pending: 1, sending: 1, dead: 1, oldestPendingAt: at(2 * MINUTE) },
          invoicesHeld: 0,
        };
        expect(await store.stats(at(3 * MINUTE))).toStrictEqual(expected);
        expect(await store.outbox.purgeDelivered(at(HOUR))).toBe(1);
        expect(await store.jobs.purgeFinished(at(HOUR))).toBe(1);
        expect(await store.stats(at(3 * MINUTE))).toStrictEqual({
          ...expected,
          jobsByState: { ...expected.jobsByState, done: 0 },
        });
      });
    });

    describe('housekeeping', () => {
      const DAY = 24 * HOUR;

      /** One record of every purgeable kind, each made (and finished) at the clock's current instant. */
      async function oneOfEach(tag: string, sessionExpiresAt: Date): Promise<void> {
        await store.sessions.create(cxmlSession({ id: `sess-${tag}`, expiresAt: sessionExpiresAt }));
        await store.cart.add(cartLine({ lineRef: `L-${tag}`, sessionId: `sess-${tag}` }));
        await store.cart.add(cartLine({ lineRef: `L-${tag}-ordered`, sessionId: `sess-${tag}` }));
        await store.cart.markOrdered([`L-${tag}-ordered`], '1');
        const now = clock.now();
        await store.jobs.enqueue({ kind: tag, key: `job-${tag}`, payload: {}, runAt: now });
        await store.jobs.complete((await store.jobs.claim(now, MINUTE, [tag]))!);
        await store.outbox.enqueue(outboxMessage({ poId: `po-${tag}`, dedupeKey: `msg-${tag}` }));
        const [message] = await store.outbox.claimDue(now, MINUTE, 1);
        await store.outbox.markDelivered(message!);
        const event = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
        await store.events.markProcessed(event.id);
        await store.refusals.add(
          {
            channel: 'oci',
            documentType: 'punch-in',
            clientAddress: '203.0.113.7',
            status: 401,
            answer: 'The catalog login was refused',
            document: `refusal-${tag}`,
            documentBytes: 9,
          },
          { perAddress: 100, total: 100 },
        );
      }

      it('purges each kind after its retention and keeps everything younger, ordered lines and documents', async () => {
        await oneOfEach('old', at(HOUR));
        clock.set(at(10 * DAY));
        await oneOfEach('mid', at(10 * DAY + HOUR));
        clock.set(at(40 * DAY));

        expect(await purgeExpired(store, at(40 * DAY), TEST_RETENTION)).toStrictEqual({
          expiredSessions: 2,
          staleCartLines: 1,
          finishedJobs: 2,
          deliveredMessages: 1,
          processedEvents: 2,
          idleGuessCounters: 0,
          refusals: 1,
          moreDue: false,
        });
        expect((await store.refusals.list()).items.map((r) => r.document)).toEqual(['refusal-mid']);
        expect(await store.cart.get('L-old')).toBeUndefined();
        expect(await store.cart.get('L-mid')).toBeDefined();
        expect(await store.cart.get('L-old-ordered')).toMatchObject({ state: 'ordered', poId: '1' });
        expect((await store.outbox.list({ poId: 'po-old' })).items).toEqual([
          expect.objectContaining({ dedupeKey: 'msg-old', state: 'delivered', deliveredAt: T0 }),
        ]);
        expect(await purgeExpired(store, at(40 * DAY), TEST_RETENTION)).toStrictEqual({
          expiredSessions: 0,
          staleCartLines: 0,
          finishedJobs: 0,
          deliveredMessages: 0,
          processedEvents: 0,
          idleGuessCounters: 0,
          refusals: 0,
          moreDue: false,
        });
        // A session is kept for its grace after expiry, and goes once the grace is over.
        await store.sessions.create(cxmlSession({ id: 'sess-new', expiresAt: at(40 * DAY) }));
        const inGrace = await purgeExpired(store, at(40 * DAY + 23 * HOUR), TEST_RETENTION);
        expect(inGrace.expiredSessions).toBe(0);
        const afterGrace = await purgeExpired(store, at(41 * DAY), TEST_RETENTION);
        expect(afterGrace.expiredSessions).toBe(1);
      });

      it('deletes at most the bound per kind and call, and says when more is due', async () => {
        for (const tag of ['a', 'b', 'c']) await oneOfEach(tag, at(HOUR));
        const now = at(100 * DAY);
        const options = { maxRowsPerKind: 2 };
        expect(await purgeExpired(store, now, TEST_RETENTION, options)).toStrictEqual({
          expiredSessions: 2,
          staleCartLines: 2,
          finishedJobs: 2,
          deliveredMessages: 2,
          processedEvents: 2,
          idleGuessCounters: 0,
          refusals: 2,
          moreDue: true,
        });
        expect(await purgeExpired(store, now, TEST_RETENTION, options)).toStrictEqual({
          expiredSessions: 1,
          staleCartLines: 1,
          finishedJobs: 1,
          deliveredMessages: 1,
          processedEvents: 1,
          idleGuessCounters: 0,
          refusals: 1,
          moreDue: false,
        });
        expect((await store.outbox.list()).items.map((m) => m.state)).toEqual([
          'delivered',
          'delivered',
          'delivered',
        ]);
      });

      it('bounds each purge by its limit, and refuses a limit that is not a number', async () => {
        let lastEventId = 0;
        for (let i = 0; i < 3; i++) {
          const event = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
          await store.events.markProcessed(event.id);
          lastEventId = Number(event.id);
          await store.sessions.create(cxmlSession({ id: `s-${i}`, expiresAt: at(MINUTE) }));
        }
        expect(await store.events.purgeProcessed(at(HOUR), { limit: 2 })).toBe(2);
        expect(await store.events.purgeProcessed(at(HOUR), { limit: 2 })).toBe(1);
        // A purged id is never handed out again (an event's id is its sync job's key).
        const next = await store.events.add({ storefrontId: 'demo', event: 'order_updated', body: [] });
        expect(Number(next.id)).toBeGreaterThan(lastEventId);
        expect(await store.sessions.expire(at(HOUR), { limit: 0 })).toBe(1);
        expect(await store.sessions.expire(at(HOUR))).toBe(2);
        await expectStoreError(store.jobs.purgeFinished(at(HOUR), { limit: Number.NaN }), 'invalid');
        await expectStoreError(
          store.outbox.purgeDelivered(at(HOUR), { limit: Number.POSITIVE_INFINITY }),
          'invalid',
        );
      });
    });
  });
}
