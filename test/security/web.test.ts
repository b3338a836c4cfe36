import { createHash } from 'node:crypto';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { createTokenService } from '../../src/gateway/punchout/tokens.ts';
import { acceptOciPunchIn, OciError, renderOciTransferForm } from '../../src/oci/index.ts';
import { expectEscapedFormPage } from '../support/answer-checks.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { findLinks } from '../support/html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  saveInEditor,
  startUrlOf,
  statusOf,
} from '../support/punchout-flow.ts';
import {
  type BrowserResponse,
  createStack,
  GATEWAY_ORIGIN,
  SANDBOX_ORIGIN,
  type Stack,
  testConfig,
} from '../support/stack.ts';

/** Breaks out of text, double- and single-quoted attributes and template literals alike. */
const XSS = `"'><script>alert(1)</script><img src=x onerror=alert(2)>\`\${alert(3)}`;

/** The payload must never appear raw; only its escaped form may. */
function expectNoRawPayload(page: string): void {
  expect(page).not.toContain('<script>alert(1)');
  expect(page).not.toContain('<img src=x');
  // No element has an event handler attribute (escaped text of one inside a value is fine).
  const tags = page.matchAll(/<[a-z][a-z0-9]*((?:\s+[^\s=>]+(?:="[^"]*"|='[^']*'|=[^\s>]*)?)*)\s*\/?>/gi);
  for (const tag of tags) {
    const names = [...(tag[1] ?? '').matchAll(/\s([^\s=>]+)(?:="[^"]*"|='[^']*'|=[^\s>]*)?/g)].map(
      (m) => m[1],
    );
    expect(
      names.filter((n) => /^on/i.test(n ?? '')),
      tag[0],
    ).toEqual([]);
  }
  expect(page.match(/<script\b/g)?.length ?? 0).toBeLessThanOrEqual(1);
}

/** Every page: the CSP allows no inline script but the hashed one, frames per buyer, and no referrer. */
function expectPageHeaders(page: BrowserResponse, frameAncestors: string): void {
  const csp = page.headers.get('Content-Security-Policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain(`frame-ancestors ${frameAncestors}`);
  expect(csp).toContain("base-uri 'none'");
  const scripts = [...page.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  const allowed = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
  for (const script of scripts) {
    expect(allowed).toContain(createHash('sha256').update(script).digest('base64'));
  }
  expect(page.headers.get('X-Content-Type-Options')).toBe('nosniff');
  expect(page.headers.get('Referrer-Policy')).toBe('no-referrer');
  expect(page.text).toContain('<meta name="referrer" content="no-referrer">');
}

/** A print service whose saved designs all carry the payload as their name. */
function hostileDesignNames(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const res = await fetch(request);
    if (request.method !== 'GET' || !/\/pipo\/project\/\d+$/.test(new URL(request.url).pathname)) return res;
    const project = (await res.json()) as Record<string, unknown>;
    return Response.json({ ...project, name: XSS }, { status: res.status });
  };
}

function hostileConfig(cartEncoding: 'base64' | 'urlencoded') {
  const config = testConfig();
  config.storefronts = config.storefronts.map((s) => ({
    ...s,
    name: `Shop ${XSS}`,
    products: s.products.map((p) =>
      p.sku === 'BC-STD' ? { ...p, name: `Business cards ${XSS}`, description: `Matt ${XSS}` } : p,
    ),
  }));
  config.buyers = config.buyers.map((b) =>
    b.id === 'acme' ? { ...b, name: `ACME ${XSS}`, cartEncoding } : b,
  );
  return config;
}

function hostileSetup(): string {
  return setupRequest({ buyerCookie: XSS, uniqueName: XSS, userEmail: 'jane.roe@acme.example' })
    .replace(
      '<BrowserFormPost>',
      `<Extrinsic name="CostCenter">${escapeXml(XSS)}</Extrinsic><Extrinsic name="returnFrame">${escapeXml(XSS)}</Extrinsic><Contact role="endUser"><Name xml:lang="en">${escapeXml(XSS)}</Name><Email>jane.roe@acme.example</Email></Contact><BrowserFormPost>`,
    )
    .replace(
      '</PunchOutSetupRequest>',
      `<ShipTo><Address addressID="${escapeXml(XSS)}"><Name xml:lang="en">${escapeXml(XSS)}</Name><PostalAddress><Street>${escapeXml(XSS)}</Street><City>X</City><Country isoCountryCode="US">US</Country></PostalAddress></Address></ShipTo></PunchOutSetupRequest>`,
    );
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function hostileRoundTrip(stack: Stack) {
  const answer = await stack.postCxml(hostileSetup());
  expect(statusOf(answer).code).toBe(200);
  const catalog = await stack.browse(startUrlOf(answer));
  expect(catalog.status).toBe(200);
  const link = findLinks(catalog.text).find((l) => l.text.startsWith('Design Business cards'));
  const editor = await stack.browse(link?.href ?? '');
  const cart = await saveInEditor(stack, editor);
  const transfer = await clickButton(stack, cart, 'Transfer cart to procurement system');
  return { catalog, cart, transfer };
}

describe('XSS payloads in every value that reaches a page or form come out escaped', () => {
  it.each(['base64', 'urlencoded'] as const)(
    'buyer, storefront, product and design names, extrinsics, ShipTo, contact, BuyerCookie (cxml-%s)',
    async (encoding) => {
      const stack = await createStack(hostileConfig(encoding), { wrapPrintFetch: hostileDesignNames });
      const { catalog, cart, transfer } = await hostileRoundTrip(stack);
      for (const page of [catalog, cart, transfer]) {
        expect(page.status).toBe(200);
        expectNoRawPayload(page.text);
        expectPageHeaders(page, "'self' s1-eu.ariba.example buyer.example");
      }
      // The payload is shown as text where it belongs: the buyer's and the product's names, the design.
      expect(catalog.text).toContain('ACME &quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(cart.text).toContain('&lt;img src=x onerror=alert(2)&gt;&#96;\u0024{alert(3)}');
      expectEscapedFormPage(transfer.text);
      const form = returnFormOf(transfer);
      expect(form.action).toBe('https://buyer.example/punchout/return?req=1');
      const poom = cxmlFromForm(form);
      expect(XMLValidator.validate(poom)).toBe(true);
      expect(poom).toContain(`<BuyerCookie>"'&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img`);
      if (encoding === 'urlencoded') {
        // The XML sits in a value="…" attribute: its quotes and brackets must be entities there.
        expect(transfer.text).toMatch(/name="cxml-urlencoded" value="&lt;\?xml /);
      }
    },
  );

  it('a notice in the cart URL is shown as text', async () => {
    const stack = await createStack();
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    const cartUrl = findLinks(catalog.text).find((l) => l.text.startsWith('Cart'))?.href ?? '';
    const page = await stack.browse(`${cartUrl}?notice=${encodeURIComponent(XSS)}`);
    expect(page.status).toBe(200);
    expectNoRawPayload(page.text);
  });

  it('error pages and the not-found page carry the headers and escape what they quote', async () => {
    const stack = await createStack();
    for (const url of [
      `${GATEWAY_ORIGIN}/punchout/s/${encodeURIComponent(XSS)}/catalog`,
      `${GATEWAY_ORIGIN}/${encodeURIComponent(XSS)}`,
      `${GATEWAY_ORIGIN}/punchout/start/${encodeURIComponent(XSS)}`,
    ]) {
      const page = await stack.browse(url);
      expect(page.status).toBeGreaterThanOrEqual(400);
      expectNoRawPayload(page.text);
      expectPageHeaders(page, "'self'");
    }
  });

  it('OCI: NEW_ITEM fields, echoed ~ fields, the form target and HOOK_URL are escaped in the auto-post form', () => {
    const page = renderOciTransferForm({
      hookUrl: `https://srm.example.com/hook?a=1&b="><script>alert(1)</script>`,
      fields: [
        ['NEW_ITEM-DESCRIPTION[1]', XSS],
        ['NEW_ITEM-LONGTEXT_1:132[]', XSS],
      ],
      target: XSS,
      echoFields: [
        ['~OkCode', XSS],
        [XSS, 'x'],
      ],
      charset: 'utf-8',
      autoSubmit: true,
    });
    expectNoRawPayload(page);
    expectEscapedFormPage(page);
  });
});

describe('headers: frame-ancestors follow the buyer', () => {
  it('each buyer may frame only its own pages', async () => {
    const stack = await createStack();
    const acme = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    const coupa = await stack.browse(
      startUrlOf(
        await stack.postCxml(
          setupRequest({
            domain: 'DUNS',
            identity: 'COUPA-ACME',
            secret: 'coupa-secret',
            browserFormPost: 'https://acme.coupahost.example/punchout/return',
          }),
        ),
      ),
    );
    expectPageHeaders(acme, "'self' s1-eu.ariba.example buyer.example;");
    expectPageHeaders(coupa, "'self' acme.coupahost.example;");
  });
});

describe('no open redirect', () => {
  it.each([
    'https://evil.example/return',
    'https://buyer.example.evil.example/return',
    'https://evil.example\\@buyer.example/',
    'https://buyer.example@evil.example/',
    'https://user:pass@buyer.example/',
    'https://evil.example/https://buyer.example/',
    'javascript:alert(1)//https://buyer.example/',
    'data:text/html,<script>alert(1)</script>',
    '//buyer.example/return',
  ])('BrowserFormPost %s is refused at punch-in, before any session', async (url) => {
    const stack = await createStack();
    const status = statusOf(await stack.postCxml(setupRequest({ browserFormPost: url })));
    expect(status.code).toBe(400);
    expect(stack.upstreamCalls).toEqual([]);
  });

  it.each([
    'https://evil.example/hook',
    'https://srm.example.com.evil.example/hook',
    'https://srm.example.com@evil.example/hook',
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'https://srm.example.com\\@evil.example/',
    '//evil.example/hook',
    'data:text/html,x',
  ])('HOOK_URL %s is refused by the OCI punch-in', (hook) => {
    const query = `USERNAME=sap1&PASSWORD=sap1-secret&HOOK_URL=${encodeURIComponent(hook)}`;
    const accept = () =>
      acceptOciPunchIn(
        { method: 'GET', query },
        { username: 'sap1', password: 'sap1-secret', hookUrlHosts: ['srm.example.com'] },
      );
    expect(accept).toThrow(OciError);
    try {
      accept();
    } catch (error) {
      expect((error as OciError).code).toMatch(/^hook_url_(malformed|scheme|not_allowed)$/);
    }
  });

  it('the editor return only ever redirects to our own cart, whatever the query says', async () => {
    const stack = await createStack();
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    const link = findLinks(catalog.text).find((l) => l.text === 'Design Business cards');
    const toEditor = await stack.request(link?.href ?? '');
    const editorUrl = new URL(toEditor.headers.get('Location') ?? '');
    expect(editorUrl.origin).toBe(SANDBOX_ORIGIN);
    const cru = editorUrl.searchParams.get('cru') ?? '';
    expect(cru.startsWith(`${GATEWAY_ORIGIN}/punchout/return/`)).toBe(true);
    const cart = await designProduct(stack, catalog, 'Business cards');
    const token = /\/punchout\/s\/([^/]+)\/cart$/.exec(cart.url)?.[1] ?? '';
    const { sid } = await stack.gateway.context.tokens.verify(token, 'session', stack.clock.now());
    const designId = (await stack.store.cart.listBySession(sid))[0]?.designId;
    for (const extra of [
      'cru=https://evil.example/',
      'returnUrl=https://evil.example/',
      'next=//evil.example',
    ]) {
      const res = await stack.request(`${cru}?productid=${designId}&${extra}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('Location')).toMatch(new RegExp(`^${GATEWAY_ORIGIN}/punchout/s/[^/]+/cart$`));
    }
  });

  it('the transfer form posts to the BrowserFormPost stored at punch-in, not one sent later', async () => {
    const stack = await createStack();
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    const cartUrl = findLinks(catalog.text).find((l) => l.text.startsWith('Cart'))?.href ?? '';
    const page = await stack.browse(cartUrl.replace(/cart$/, 'transfer?returnUrl=https://evil.example/'), {
      method: 'POST',
      body: 'returnUrl=https%3A%2F%2Fevil.example%2F&BrowserFormPost=https%3A%2F%2Fevil.example%2F',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(returnFormOf(page).action).toBe('https://buyer.example/punchout/return?req=1');
  });
});

describe('tokens are single-use where they start, expire, and are bound to their session and purpose', () => {
  async function twoSessions(stack: Stack) {
    const open = async (cookie: string) => {
      const start = startUrlOf(await stack.postCxml(setupRequest({ buyerCookie: cookie })));
      const catalog = await stack.browse(start);
      const cart = await designProduct(stack, catalog, 'Business cards');
      const token = /\/punchout\/s\/([^/]+)\/cart$/.exec(cart.url)?.[1] ?? '';
      const lineRef = /\/cart\/([^/]+)\/quantity/.exec(cart.text)?.[1] ?? '';
      const sid = (await stack.gateway.context.tokens.verify(token, 'session', stack.clock.now())).sid;
      return { start, token, lineRef, sid };
    };
    return { a: await open('cookie-a'), b: await open('cookie-b') };
  }

  it('no answer that carries or leads to a token may be stored: start redirect, used link, setup answer', async () => {
    const stack = await createStack();
    const setup = await stack.request(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml' },
      body: setupRequest(),
    });
    expect(setup.headers.get('cache-control')).toBe('no-store');
    const start = startUrlOf(await setup.text());
    const redirect = await stack.request(start);
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    const used = await stack.request(start);
    expect([used.status, used.headers.get('cache-control')]).toEqual([410, 'no-store']);
    const unknown = await stack.request(`${GATEWAY_ORIGIN}/punchout/s/not-a-token/cart`);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
  });

  it('the StartPage URL opens once', async () => {
    const stack = await createStack();
    const start = startUrlOf(await stack.postCxml(setupRequest()));
    expect((await stack.browse(start)).status).toBe(200);
    const again = await stack.browse(start);
    expect(again.status).toBe(410);
    expect(again.text).toContain('This punch-out link was already used.');
  });

  it("session A's token shows A's cart only, and cannot touch B's lines", async () => {
    const stack = await createStack();
    const { a, b } = await twoSessions(stack);
    const cartA = await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${a.token}/cart`);
    expect(cartA.text).toContain(a.lineRef);
    expect(cartA.text).not.toContain(b.lineRef);
    for (const action of ['quantity', 'remove']) {
      const res = await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${a.token}/cart/${b.lineRef}/${action}`, {
        method: 'POST',
        body: 'quantity=500',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(404);
      expect(res.text).toContain('That line is not in this cart.');
    }
    const edit = await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${a.token}/cart/${b.lineRef}/edit`);
    expect(edit.status).toBe(404);
    const cartB = await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${b.token}/cart`);
    expect(cartB.text).toContain(b.lineRef);
  });

  it('a token of one purpose opens no other page', async () => {
    const stack = await createStack();
    const { a } = await twoSessions(stack);
    const tokens = stack.gateway.context.tokens;
    const now = stack.clock.now();
    const returnToken = await tokens.sign({ sid: a.sid, pur: 'return', ref: 'sku:BC-STD' }, 600, now);
    const startToken = await tokens.sign({ sid: a.sid, pur: 'start', jti: 'j1', ref: 'catalog' }, 300, now);
    const eventsToken = await tokens.sign({ sid: a.sid, pur: 'events' }, 300, now);
    const wrong = [
      `/punchout/s/${returnToken}/cart`,
      `/punchout/s/${startToken}/catalog`,
      `/punchout/s/${eventsToken}/cart`,
      `/punchout/return/${a.token}?productid=1`,
      `/punchout/return/${startToken}?productid=1`,
      `/punchout/start/${a.token}`,
      `/punchout/start/${returnToken}`,
    ];
    for (const path of wrong) {
      const page = await stack.browse(`${GATEWAY_ORIGIN}${path}`);
      expect(page.status, path).toBe(403);
      expect(page.text, path).toContain('This link is not valid for this page.');
    }
  });

  it('session and return tokens expire with the session; a foreign key signs nothing', async () => {
    const stack = await createStack();
    const { a } = await twoSessions(stack);
    const returnToken = await stack.gateway.context.tokens.sign(
      { sid: a.sid, pur: 'return', ref: 'sku:BC-STD' },
      600,
      stack.clock.now(),
    );
    const foreign = await (await createTokenService('another-signing-key-0123456789')).sign(
      { sid: a.sid, pur: 'session' },
      600,
      stack.clock.now(),
    );
    expect((await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${foreign}/cart`)).status).toBe(403);
    stack.clock.advance(601);
    expect((await stack.browse(`${GATEWAY_ORIGIN}/punchout/return/${returnToken}?productid=1`)).status).toBe(
      410,
    );
    stack.clock.advance(4 * 3600);
    const expired = await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${a.token}/cart`);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('Your punch-out session has expired');
  });

  it('a return with productid 0 is a bad request, not an outage', async () => {
    const stack = await createStack();
    const { a } = await twoSessions(stack);
    const returnToken = await stack.gateway.context.tokens.sign(
      { sid: a.sid, pur: 'return', ref: 'sku:BC-STD' },
      600,
      stack.clock.now(),
    );
    const page = await stack.browse(`${GATEWAY_ORIGIN}/punchout/return/${returnToken}?productid=0`);
    expect(page.status).toBe(400);
    expect(page.text).toContain(
      'The editor returned no saved design (productid is missing or not a number).',
    );
  });
});
