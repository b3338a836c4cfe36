/**
 * The console's refusals page and the Buyers page's onboarding: a refused setup shows with its answer and
 * its document escaped, searchable by buyer and time; each buyer shows what to give its procurement team,
 * with a copy button whose script is the only one the CSP allows, and its latest refusals.
 */
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../../../support/cxml-documents.ts';
import { decodeEntities } from '../../../support/html-forms.ts';
import { createOrderStack, orderConfig } from '../../../support/order-flow.ts';
import { GATEWAY_ORIGIN } from '../../../support/stack.ts';
import { signIn } from './console-support.ts';

async function refusedSetup() {
  const stack = await createOrderStack(orderConfig());
  const document = setupRequest({ secret: 'guess-<b>', payloadID: 'refused-1@ariba.example' });
  await stack.request(`${GATEWAY_ORIGIN}/cxml`, { method: 'POST', body: document });
  const operator = await signIn(stack);
  return { stack, operator };
}

describe('the refusals page', () => {
  it('shows a refused setup with its answer and its document escaped, secrets blanked', async () => {
    const { operator } = await refusedSetup();
    const res = await operator.get('/admin/ui/refusals');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toContain("script-src 'none'");
    const page = await res.text();
    expect(page).toContain('<h1>Refusals</h1>');
    expect(page).toContain('<a href="/admin/ui/refusals" aria-current="page">Refusals</a>');
    expect(page).toContain(
      '<td>acme</td><td>cXML PunchOutSetupRequest<br><span class="muted">refused-1@ariba.example</span></td>',
    );
    expect(page).toContain(
      '<strong>401</strong> Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
    );
    expect(page).toContain('&lt;SharedSecret&gt;[redacted]&lt;/SharedSecret&gt;');
    expect(page).not.toContain('guess-');
    expect(page).not.toContain('<cXML');
  });

  it('searches by buyer and time; a bad date says which field', async () => {
    const { operator } = await refusedSetup();
    const other = await (await operator.get('/admin/ui/refusals?buyer=coupa')).text();
    expect(other).toContain('No refusal matches.');
    expect(other).toContain('<option value="coupa" selected>');
    const day = await (
      await operator.get('/admin/ui/refusals?buyer=acme&from=2026-11-22&to=2026-11-22')
    ).text();
    expect(day).toContain('refused-1@ariba.example');
    const later = await (await operator.get('/admin/ui/refusals?from=2026-11-23')).text();
    expect(later).toContain('No refusal matches.');
    const bad = await (await operator.get('/admin/ui/refusals?from=soon')).text();
    expect(bad).toContain(
      '<p class="error" role="alert">from must be a date (YYYY-MM-DD) or an ISO 8601 date-time.</p>',
    );
  });

  it('is linked from the overview', async () => {
    const { operator } = await refusedSetup();
    expect(await (await operator.get('/admin/')).text()).toContain(
      '<a href="/admin/ui/refusals">Refusals log</a>',
    );
  });
});

describe('onboarding on the Buyers page', () => {
  it('gives each buyer the text for its procurement team with a copy button, and its latest refusals', async () => {
    const { operator } = await refusedSetup();
    const res = await operator.get('/admin/ui/buyers');
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    // The copy buttons' script is allowed by its hash, and nothing else is.
    expect(csp).toMatch(/script-src 'sha256-[\w+/=]+'; /);
    expect(csp).not.toContain('unsafe-inline');
    const page = await res.text();
    expect(page.match(/<script>/g)).toHaveLength(1);
    const onboarding = (id: string) =>
      decodeEntities(
        new RegExp(
          `<textarea id="onboarding-${id}" readonly rows="\\d+" spellcheck="false">([^<]*)</textarea>`,
        ).exec(page)?.[1] ?? '',
      );
    expect(onboarding('acme')).toBe(`cXML punch-out for ACME (Ariba)
URL of punch-out and purchase orders (PunchOutSetupRequest, OrderRequest; HTTP POST): http://gateway.test/cxml
From credential (your identity; any one of):
  domain="NetworkID" identity="AN01000000001"
To credential (us):
  domain="DUNS" identity="PRINTCO"
Sender credential: your own or your network’s, with the SharedSecret agreed with us (sent to you separately; never written here).
BrowserFormPost URL: on one of these hosts: s1-eu.ariba.example, buyer.example
Cart returned as: cXML PunchOutOrderMessage, cxml-base64
Test documents (deploymentMode="test"): sent with the production credentials.
Order confirmations and ship notices are posted to: https://s1-eu.ariba.example/cxml/order-status`);
    expect(page).toContain('<button type="button" data-copy="onboarding-acme">Copy</button>');
    expect(onboarding('sap1')).toBe(`SAP OCI 4.0 catalog for ACME (SAP SRM 7, OCI)
Punch-in URL (HTTP POST, or GET): http://gateway.test/oci/sap1
Fields:
  USERNAME=sap1
  PASSWORD=the password agreed with us (sent to you separately; never written here)
  HOOK_URL=your return URL, on one of these hosts: srm.acme.example
  optional: FUNCTION=DETAIL|DETAILADD|SOURCING|VALIDATE|BACKGROUND_SEARCH with PRODUCTID, SEARCHSTRING, QUANTITY
Charset: utf-8

Purchase orders (cXML OrderRequest, HTTP POST): http://gateway.test/cxml
From credential (your identity; any one of):
  domain="NetworkID" identity="SAP1-ORDERS"
To credential (us):
  domain="DUNS" identity="PRINTCO"
Sender credential: your own or your network’s, with the SharedSecret agreed with us (sent to you separately; never written here).
Order confirmations and ship notices: not sent (no order-status URL configured).`);
    // No secret of any buyer is on the page.
    expect(page).not.toMatch(/acme-secret|sap1-secret|sap1-order-secret/);
    expect(page).toContain('<caption>Latest refusals of ACME (Ariba)</caption>');
    expect(page).toContain('<a href="/admin/ui/refusals?buyer=acme">All refusals of ACME (Ariba)</a>');
    expect(page).toContain('Nothing of ACME (Coupa) refused lately.');
  });
});
