/**
 * No credential is kept in clear. After a whole order loop with invoices on a SQLite store — a cXML
 * punch-out, the cart transferred, a PO (with the buyer's previous SharedSecret, mid-rotation), its
 * confirmation, ship notice and invoice, an OCI punch-in (with the previous password), our SharedSecret
 * rotated and the invoice resent — no configured secret, nor the password of a print-service account the
 * gateway made, is in any value of any table, nor in any log line.
 * The documents sent to the buyer carry our SharedSecret all the same: the one configured when posted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../schemas/config.ts';
import type { ResolvedConfig } from '../../src/gateway/deps.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { capturingLogger } from '../support/capturing-logger.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  printOrdersFor,
  punchOut,
  restartWorker,
  sendOrder,
} from '../support/order-flow.ts';
import { GATEWAY_ORIGIN, START } from '../support/stack.ts';

const dir = mkdtempSync(join(tmpdir(), 'punchgate-no-secret-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The order config mid-rotation everywhere a secret can rotate, acme invoiced on shipping. */
function rotatingConfig(supplierSecret: string): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    previousSigningKeys: ['old-signing-key-0123456789abcdef'],
    previousAdminTokens: ['old-admin-token-0123456789abcdef'],
    supplier: {
      credentials: [
        { domain: 'DUNS', identity: 'PRINTCO' },
        { domain: 'NetworkID', identity: 'AN-PRINTCO' },
      ],
      sharedSecret: supplierSecret,
      userAgent: 'punchgate test',
    },
    buyers: base.buyers.map((b) => {
      if (b.id === 'acme') {
        return { ...b, previousSharedSecrets: ['acme-old-secret'], invoices: { send: 'on-ship' as const } };
      }
      if (b.id === 'sap1') return { ...b, previousPasswords: ['sap1-old-password'] };
      return b;
    }),
  };
}

/** Every secret of a config: its keys and tokens, our SharedSecret, each storefront's and each buyer's. */
function secretsOf(config: ResolvedConfig): string[] {
  const buyerSecrets = config.buyers.flatMap((b) => [
    ...(b.sharedSecret === undefined ? [] : [b.sharedSecret]),
    ...b.previousSharedSecrets,
    ...(b.protocol === 'oci' ? [b.password, ...b.previousPasswords] : []),
  ]);
  return [
    config.signingKey,
    ...config.previousSigningKeys,
    config.adminToken,
    ...config.previousAdminTokens,
    ...(config.supplier.sharedSecret === undefined ? [] : [config.supplier.sharedSecret]),
    ...config.storefronts.flatMap((s) => [s.apiToken, s.apiKey]),
    ...buyerSecrets,
  ];
}

/** Every text value of every table of the SQLite file, as `table.column: value`. */
function everyStoredText(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all()
      .map(String);
    expect(tables).toEqual(
      expect.arrayContaining(['buyer_documents', 'purchase_orders', 'sessions', 'users']),
    );
    return tables.flatMap((table) =>
      db
        .prepare(`SELECT * FROM "${table}"`)
        .all()
        .flatMap((row) =>
          Object.entries(row as Record<string, unknown>).map(([column, value]) => {
            const text = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
            return `${table}.${column}: ${text}`;
          }),
        ),
    );
  } finally {
    db.close();
  }
}

const secretOf = (body: string) =>
  [...body.matchAll(/<SharedSecret>([^<]*)<\/SharedSecret>/g)].map((m) => m[1]);

describe('no configured secret is stored or logged', () => {
  it('a whole order loop with invoices, rotations and a resend leaves no secret in any table or log line', async () => {
    const path = join(dir, 'gateway.db');
    const logger = capturingLogger();
    let now = (): Date => new Date(START);
    const store = createSqliteStore({ path, clock: { now: () => now() } });
    const first = rotatingConfig('printco-secret');
    const stack = await createOrderStack(first, { store, gatewayDeps: { logger } });
    now = () => stack.clock.now();
    await stack.worker.startup();
    const seeded = new Set(stack.sandbox.control.users().map((user) => user.id));

    // The buyer's PO comes with its previous SharedSecret: accepted while it switches over.
    const cart = await punchOut(stack, ['Business cards']);
    expect(
      await sendOrder(stack, {
        payloadID: 'PO-CLEAR@ariba.example',
        orderID: 'PO-CLEAR',
        secret: 'acme-old-secret',
        lines: linesOf(cart),
      }),
    ).toMatchObject({ code: 200 });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, 'PO-CLEAR');
    await stack.api.markShipped(printOrderId ?? 0, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);

    // An OCI punch-in of sap1 with its previous password.
    const oci = await stack.browse(`${GATEWAY_ORIGIN}/oci/sap1`, {
      method: 'POST',
      body: new URLSearchParams({
        USERNAME: 'sap1',
        PASSWORD: 'sap1-old-password',
        HOOK_URL: 'https://srm.acme.example/sap/bc/gui/sap/its/bbpsc02/?sap-client=100',
        '~OkCode': 'ADDI',
      }),
    });
    expect(oci.status).toBe(200);

    const kinds = ['ConfirmationRequest', 'ShipNoticeRequest', 'InvoiceDetailRequest'];
    const sent = stack.orderStatusPosts.map((post) => post.body);
    expect(kinds.map((kind) => sent.filter((body) => body.includes(`<${kind}`)).length)).toEqual([1, 1, 1]);
    // Each document went out with our SharedSecret, in both Sender credentials.
    expect(sent.map(secretOf)).toEqual(sent.map(() => ['printco-secret', 'printco-secret']));

    // Our SharedSecret rotated: the resent invoice carries the new one, and is otherwise the same document.
    await stack.restartGateway(store, rotatingConfig('printco-rotated'));
    restartWorker(stack);
    const po = await store.orders.getByPayloadId('acme', 'PO-CLEAR@ariba.example');
    const invoices = await adminJson(stack, `/admin/orders/${po?.id}/invoices`);
    const resent = await adminJson(stack, `/admin/invoices/${invoices.body.items[0].id}/resend`, {
      method: 'POST',
    });
    expect(resent.status).toBe(202);
    await drain(stack);
    const firstInvoice = sent.find((body) => body.includes('<InvoiceDetailRequest'));
    const resentInvoice = stack.orderStatusPosts.at(-1)?.body;
    expect(resentInvoice).toBe(firstInvoice?.replaceAll('printco-secret', 'printco-rotated'));

    // The print-service accounts the gateway made for the acme and sap1 users, with passwords it chose.
    const accounts = stack.sandbox.control.users().filter((user) => !seeded.has(user.id));
    expect(accounts.map((user) => user.username)).toHaveLength(2);
    const secrets = [
      ...secretsOf(stack.gateway.context.config),
      'printco-secret', // our SharedSecret before the rotation
      ...accounts.map((user) => user.password),
    ];
    expect(secrets).toEqual(
      expect.arrayContaining([
        'test-signing-key-0123456789abcdef',
        'old-signing-key-0123456789abcdef',
        'test-admin-token-0123456789abcdef',
        'old-admin-token-0123456789abcdef',
        'printco-rotated',
        'printco-secret',
        '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c',
        'acme-secret',
        'acme-old-secret',
        'sap1-secret',
        'sap1-old-password',
        'sap1-order-secret',
      ]),
    );
    await store.close();

    const stored = everyStoredText(path);
    // What was checked: the documents sent, each kept with its SharedSecrets redacted, and the PO.
    const documents = stored.filter((text) => text.startsWith('buyer_documents.body: '));
    expect(documents).toHaveLength(4);
    for (const document of documents) {
      expect(secretOf(document)).toEqual(['[redacted]', '[redacted]']);
    }
    expect(stored.filter((text) => text.startsWith('purchase_orders.raw: '))).toEqual([
      expect.stringContaining('<SharedSecret>[redacted]</SharedSecret>'),
    ]);
    const logs = logger.text();
    expect(logs).toContain('document delivered to buyer');
    for (const secret of secrets) {
      expect(
        stored.filter((text) => text.includes(secret)),
        secret,
      ).toEqual([]);
      expect(logs.includes(secret), secret).toBe(false);
    }
  });
});
