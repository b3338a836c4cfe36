/**
 * The refusals log in what ships: `punchgate serve` with a config written from the docs, a buyer whose
 * setup carries a wrong SharedSecret, and the operator who signs in to the console and finds it on the
 * refusals page with its reason, the secret the buyer sent blanked.
 */
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../support/cxml-documents.ts';
import { SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { serveBrowser, useServeBesideSandbox } from './serve-beside-sandbox.ts';
import { ADMIN_TOKEN, BUYER_IDENTITY } from './user-config.ts';

describe('punchgate serve: a refused setup on the console’s refusals page', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  const stack = useServeBesideSandbox();
  const browser = serveBrowser(() => stack.serve);

  it('a setup with a wrong SharedSecret shows with its reason', async () => {
    const payloadID = `wrong-secret-${Date.now()}@acme.example`;
    const answer = await browser.postCxml(
      setupRequest({
        identity: BUYER_IDENTITY,
        secret: 'last-years-secret',
        payloadID,
        browserFormPost: stack.buyer.returnUrl,
      }),
    );
    expect(answer).toMatch(
      /<Status code="401" text="Unauthorized" xml:lang="en-US">Authentication failed: the Sender SharedSecret is not valid.<\/Status>/,
    );

    const signIn = await fetch(`${stack.serve.url}/admin/ui/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ token: ADMIN_TOKEN }),
      redirect: 'manual',
    });
    expect(signIn.status).toBe(303);
    const cookie = (signIn.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';
    const res = await fetch(`${stack.serve.url}/admin/ui/refusals?buyer=acme`, {
      headers: { Cookie: cookie },
    });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(payloadID);
    expect(page).toContain(
      '<strong>401</strong> Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
    );
    expect(page).toContain('&lt;SharedSecret&gt;[redacted]&lt;/SharedSecret&gt;');
    expect(page).not.toContain('last-years-secret');
  });
});
