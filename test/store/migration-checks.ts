/**
 * What an upgrade from an older schema must keep, shared by the SQLite, D1 and PostgreSQL migration tests:
 * the rows an old schema held and the checks the migrated store must pass. Each adapter's test writes the
 * rows with its own driver and its own ids, so only the data and the checks live here.
 */
import { expect } from 'vitest';
import { redactSharedSecrets } from '../../src/cxml/index.ts';
import type { Store } from '../../src/store/port.ts';
import type { NewOutboxMessage, OrderType, OutboxMessage } from '../../src/store/types.ts';
import { T0 } from './store-suite.ts';

/** A version 1 order document: the parsed request, where migration 2 finds the order's version. */
const version1Document = (orderVersion?: string) => JSON.stringify({ request: { orderVersion }, lines: [] });

/**
 * Orders as version 1 wrote them, before dedupe keys: `[id, payloadId, orderId, type, document]`. The last
 * one's document holds no request; what that text is depends on what the adapter's column accepts
 * (PostgreSQL's migration reads it as JSON, SQLite's takes any text).
 */
export function version1Orders(documentWithoutRequest: string) {
  return [
    [7, 'p-new', 'PO-1', 'new', version1Document('1')],
    [8, 'p-change', 'PO-1', 'update', version1Document('2')],
    [9, 'p-cancel', 'PO-1', 'delete', version1Document()],
    [10, 'p-change-unversioned', 'PO-2', 'update', version1Document()],
    [11, 'p-odd', 'PO-3', 'new', documentWithoutRequest],
  ] as const;
}

/** The version 1 orders once migrated: only a versioned or unversioned change gets a revision key. */
export const version1OrdersMigrated = [
  { id: 7, order_version: '1', revision_key: '' },
  { id: 8, order_version: '2', revision_key: 'version:2' },
  { id: 9, order_version: null, revision_key: '' },
  { id: 10, order_version: null, revision_key: 'payload:p-change-unversioned' },
  { id: 11, order_version: null, revision_key: '' },
];

/** Accepts an order into `store` the way a buyer sends one after the upgrade. */
export function acceptOrderIn(store: Store) {
  return (payloadId: string, type: OrderType, orderId: string, orderVersion?: string) =>
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
}

/** The accept for PO 7 as enqueued: the old outboxes hold it, delivered. */
export const po7Confirmation: NewOutboxMessage = {
  buyerId: 'acme',
  poId: '7',
  kind: 'confirmation',
  dedupeKey: 'confirm:7',
  url: 'https://buyer.example.com/cxml',
  body: '<accept/>',
};

/**
 * Outbox messages as version 2 wrote them, oldest first: `[role, poId, dedupeKey, body, attempts,
 * nextAttemptAt, state, leaseUntil, lastError, deliveredAt, createdAt, updatedAt]`, each a confirmation for
 * buyer `acme` to https://buyer.example.com/cxml. The role names the message in `Version2Ids`.
 */
export const version2Messages = [
  ['delivered', '7', 'confirm:7', '<accept/>', 2, 1000, 'delivered', null, 'HTTP 503', 5000, 0, 5000],
  ['pending', '7', 'ship:7:0', '<ship/>', 0, 6000, 'pending', null, null, null, 6000, 6000],
  ['sending', '8', 'confirm:8', '<accept/>', 1, 0, 'sending', 9000, null, null, 0, 0],
  ['dead', '9', 'confirm:9', '<accept/>', 3, 0, 'dead', null, 'HTTP 400', null, 0, 7000],
] as const;

/** The id each version 2 message got in the test's database. */
export type Version2Ids = Record<(typeof version2Messages)[number][0], string>;

/**
 * The version 2 messages, migrated: each reads as before under the id the test gave it, a purged delivered
 * one still answers its dedupe key, and the pending and sending ones are still due. Answers what enqueuing
 * a new message said, whose id each adapter checks its own way.
 */
export async function expectVersion2MessagesMigrated(
  store: Store,
  ids: Version2Ids,
): Promise<{ created: boolean; message: OutboxMessage }> {
  const delivered = {
    id: ids.delivered,
    ...po7Confirmation,
    attempts: 2,
    nextAttemptAt: new Date(1000),
    state: 'delivered',
    lastError: 'HTTP 503',
    deliveredAt: new Date(5000),
    createdAt: new Date(0),
    updatedAt: new Date(5000),
  };
  expect(await store.outbox.get(ids.delivered)).toStrictEqual(delivered);
  expect(await store.outbox.get(ids.sending)).toMatchObject({
    state: 'sending',
    attempts: 1,
    leaseUntil: new Date(9000),
  });
  expect(await store.outbox.get(ids.dead)).toMatchObject({
    state: 'dead',
    attempts: 3,
    lastError: 'HTTP 400',
  });
  const listed = await store.outbox.list({ poId: '7' });
  expect(listed.items.map((m) => [m.id, m.state])).toEqual([
    [ids.pending, 'pending'],
    [ids.delivered, 'delivered'],
  ]);

  expect(await store.outbox.purgeDelivered(T0)).toBe(1);
  expect(await store.outbox.get(ids.delivered)).toStrictEqual(delivered);
  expect(await store.outbox.list({ poId: '7' })).toStrictEqual(listed);
  const again = await store.outbox.enqueue(po7Confirmation);
  expect(again).toStrictEqual({ created: false, message: delivered });
  expect((await store.outbox.claimDue(T0, 60_000, 10)).map((m) => m.id)).toEqual([ids.sending, ids.pending]);
  return await store.outbox.enqueue({ ...again.message, dedupeKey: 'ship:7:1' });
}

/** Print orders version 3 tracked for storefront `demo`, all of PO 7: `[printOrderId, state]`. */
export const version3PrintOrders = [
  [5007, 'closed'],
  [5001, 'closed'],
  [5004, 'open'],
] as const;

/** The version 3 print orders, migrated: the highest id comes from them, and heartbeats start empty. */
export async function expectVersion3Migrated(store: Store): Promise<void> {
  expect(await store.printOrders.highestId('demo')).toBe(5007);
  expect(await store.printOrders.get('demo', 5004)).toMatchObject({ state: 'open', confirmed: true });
  expect(await store.heartbeat.last('background-round')).toBeUndefined();
  await store.heartbeat.beat('background-round', T0);
  expect(await store.heartbeat.last('background-round')).toStrictEqual(T0);
}

/**
 * Orders as version 7 kept them, the create attempts of their print orders among their flags:
 * `[id, orderId, flags]`, each a `new` PO of buyer `acme` in processing.
 */
export const version7Orders = [
  [21, 'PO-21', JSON.stringify(['quantity_mismatch', 'creating:0:after=1041:searches=2', 'creating:1'])],
  [22, 'PO-22', JSON.stringify(['creating:0:searches=1', 'uncertain_print_order'])],
  [23, 'PO-23', JSON.stringify(['price_mismatch'])],
] as const;

/**
 * The version 7 orders, migrated: each `creating:` flag is a create attempt (no `after` where the flag had
 * none), the other flags stay in their order, and the attempts can be rewritten like any field.
 */
export async function expectVersion7Migrated(store: Store): Promise<void> {
  const [first, second, third] = await Promise.all(['21', '22', '23'].map((id) => store.orders.get(id)));
  expect(first?.flags).toStrictEqual(['quantity_mismatch']);
  expect(first?.createAttempts).toStrictEqual([
    { index: 0, after: 1041, searches: 2 },
    { index: 1, searches: 0 },
  ]);
  expect(second?.flags).toStrictEqual(['uncertain_print_order']);
  expect(second?.createAttempts).toStrictEqual([{ index: 0, searches: 1 }]);
  expect(third?.flags).toStrictEqual(['price_mismatch']);
  expect(third?.createAttempts).toStrictEqual([]);
  await store.orders.patch('23', { createAttempts: [{ index: 0, after: 7, searches: 0 }] });
  expect((await store.orders.get('23'))?.createAttempts).toStrictEqual([{ index: 0, after: 7, searches: 0 }]);
  expect((await store.orders.get('23'))?.flags).toStrictEqual(['price_mismatch']);
}

/** The Sender of a document we built, with our secret in each of its two credentials as the builder writes it. */
const senderWith = (secret: string) =>
  `<Sender><Credential domain="NetworkID"><Identity>punchgate</Identity><SharedSecret>${secret}</SharedSecret></Credential><Credential domain="DUNS"><Identity>123456789</Identity><SharedSecret>${secret}</SharedSecret></Credential><UserAgent>punchgate</UserAgent></Sender>`;

/**
 * Documents sent to buyers as version 7 kept them, all delivered: `[id, dedupeKey, body]`, each a
 * confirmation of PO 7 for buyer `acme` to https://buyer.example.com/cxml.
 */
export const version7Documents = [
  [1, 'confirm:7', `<cXML><Header>${senderWith('our-s3cret')}</Header></cXML>`],
  [2, 'ship:7:0', `<cXML><Header>${senderWith('a&amp;b&lt;c d')}</Header></cXML>`],
  [
    3,
    'ship:7:1',
    '<cXML><Header><Sender><Credential domain="NetworkID"><Identity>punchgate</Identity></Credential><UserAgent>punchgate</UserAgent></Sender></Header></cXML>',
  ],
  [4, 'ship:7:2', `<cXML><Header>${senderWith('[redacted]')}</Header></cXML>`],
] as const;

/** The version 7 documents, migrated: no secret left, every SharedSecret `[redacted]`, nothing else changed. */
export async function expectVersion7DocumentsRedacted(store: Store): Promise<void> {
  const bodies = await Promise.all(
    version7Documents.map(async ([id]) => (await store.outbox.get(`${id}`))?.body),
  );
  const redacted = `<cXML><Header>${senderWith('[redacted]')}</Header></cXML>`;
  expect(bodies).toEqual([redacted, redacted, version7Documents[2][2], redacted]);
  expect(bodies).toEqual(version7Documents.map(([, , body]) => redactSharedSecrets(body)));
}
