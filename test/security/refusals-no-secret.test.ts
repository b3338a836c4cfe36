/**
 * The refusals log keeps refused documents as they came, and a refused document is one nobody vouched for:
 * its secrets may sit anywhere. After refused requests carrying every kind of secret — a buyer's real
 * SharedSecret under an unknown From, the same secret in an Extrinsic, a CredentialMac, an OCI password in
 * the query and in a multipart body (under the buyer's own password field name), a PIPO token in a URL, the
 * admin token as a bearer header's text and bare — no configured secret and none of the sent ones is in any
 * value of any table of the SQLite file, while the rest of each document is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { createStack, GATEWAY_ORIGIN, START, testConfig } from '../support/stack.ts';

const dir = mkdtempSync(join(tmpdir(), 'punchgate-refusals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every text value of every table of the SQLite file. */
function everyStoredText(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all()
      .map(String);
    expect(tables).toContain('refusals');
    return tables
      .flatMap((table) =>
        db
          .prepare(`SELECT * FROM "${table}"`)
          .all()
          .flatMap((row) => Object.values(row as Record<string, unknown>).map(String)),
      )
      .join('\n');
  } finally {
    db.close();
  }
}

const PIPO_TOKEN = 'pipo-9b1c77d0e4a2f3';
const SENT_PASSWORD = 'what-a-buyer-typed-7';

describe('no secret in the refusals log', () => {
  it('refused documents carrying secrets everywhere leave none in any table', async () => {
    const path = join(dir, 'gateway.db');
    const store = createSqliteStore({ path, clock: { now: () => new Date(START) } });
    const config = testConfig();
    const stack = await createStack(
      {
        ...config,
        // An OCI buyer whose password field is no word that says "password".
        buyers: config.buyers.map((b) =>
          b.id === 'odoo' ? { ...b, loginFields: { username: 'LOGIN', password: 'KENNWORT' } } : b,
        ),
      },
      { store },
    );
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      stack.request(`${GATEWAY_ORIGIN}/cxml`, { method: 'POST', body, headers });

    // acme's real secret under a From nobody has, and again in an Extrinsic; a CredentialMac.
    const stranger = setupRequest({ identity: 'AN-STRANGER', secret: 'acme-secret' }).replace(
      '<Extrinsic name="UniqueName">',
      `<Extrinsic name="Note">acme-secret</Extrinsic><Extrinsic name="Return">https://editor.example/online-editor?productid=1&amp;token=${PIPO_TOKEN}</Extrinsic><Extrinsic name="UniqueName">`,
    );
    await post(stranger, { 'Content-Type': 'text/xml' });
    const mac = setupRequest({ secret: 'x' }).replace(
      '<SharedSecret>x</SharedSecret>',
      '<CredentialMac type="FromSenderCredentials" algorithm="HMAC-SHA1-96">bWFjLXNlY3JldA==</CredentialMac>',
    );
    await post(mac, { 'Content-Type': 'text/xml' });
    // The admin token pasted into a document: in an Authorization-like line and bare.
    await post(`Authorization: Bearer ${config.adminToken}\n${config.adminToken}`, {
      'Content-Type': 'text/xml',
    });

    // OCI: a wrong password in the query; the right one with a HOOK_URL off the list; a multipart body.
    await stack.request(
      `${GATEWAY_ORIGIN}/oci/sap1?${new URLSearchParams({ USERNAME: 'sap1', PASSWORD: SENT_PASSWORD, HOOK_URL: 'https://srm.acme.example/r' })}`,
    );
    await stack.request(`${GATEWAY_ORIGIN}/oci/sap1`, {
      method: 'POST',
      body: new URLSearchParams({
        USERNAME: 'sap1',
        PASSWORD: 'sap1-secret',
        HOOK_URL: 'https://evil.example/r',
      }),
    });
    const form = new FormData();
    form.set('LOGIN', 'odoo');
    form.set('KENNWORT', SENT_PASSWORD);
    form.set('HOOK_URL', 'https://odoo.example/r');
    await stack.request(`${GATEWAY_ORIGIN}/oci/odoo`, { method: 'POST', body: form });
    await stack.request(`${GATEWAY_ORIGIN}/oci/odoo?LOGIN=odoo&KENNWORT=${SENT_PASSWORD}&HOOK_URL=x`);

    const refusals = (await store.refusals.list()).items;
    expect(refusals).toHaveLength(7);
    const stored = everyStoredText(path);
    for (const secret of [
      'acme-secret',
      'sap1-secret',
      'odoo-secret',
      SENT_PASSWORD,
      PIPO_TOKEN,
      'bWFjLXNlY3JldA==',
      config.adminToken as string,
      config.signingKey as string,
    ]) {
      expect(stored, secret).not.toContain(secret);
    }
    // What is no secret stays, so the operator can read why it was refused.
    expect(stored).toContain('AN-STRANGER');
    expect(stored).toContain('HOOK_URL=https%3A%2F%2Fevil.example%2Fr');
    expect(stored).toContain('name="LOGIN"');
    expect(stored).toContain('token=[redacted]');
    expect(stored).toContain(
      '<CredentialMac type="FromSenderCredentials" algorithm="HMAC-SHA1-96">[redacted]</CredentialMac>',
    );
    await store.close();
  });
});
