/**
 * Proof links (issue 17, deliverable 2): the cart page and the PunchOutOrderMessage link a line's proof
 * through the gateway (`/proof/<token>`), never the editor host with the session's PIPO token; the link
 * works long after the PIPO session has expired, from the gateway's memory on the second open, and refuses
 * a changed, foreign or expired token with a page that says which.
 */
import { readFileSync } from 'node:fs';
import { tokenClaims } from '../../support/token-claims.ts';
import { describe, expect, it } from 'vitest';
import { capturingLogger } from '../../support/capturing-logger.ts';
import { decodeEntities, findLinks } from '../../support/html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
} from '../../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, SANDBOX_ORIGIN, type Stack, testConfig } from '../../support/stack.ts';

const SETUP = new Uint8Array(
  readFileSync(
    new URL('../../../fixtures/cxml/valid/setup-request.ariba-multi-credential.xml', import.meta.url),
  ),
);

/** Longer than the sandbox's 30-minute PIPO idle expiry and the gateway's 600 s token reuse. */
const PAST_PIPO_EXPIRY_SECONDS = 31 * 60 + 600;
const DAY = 86_400;

/** A punch-out with one designed line, transferred: the cart page, the document and what the session held. */
async function transferredCart(stack: Stack) {
  const catalog = await stack.browse(startUrlOf(await stack.postCxml(SETUP)));
  const cart = await designProduct(stack, catalog, 'Business cards', { Name: 'Jane Roe' });
  expect(cart.status).toBe(200);
  const sessionToken = /\/punchout\/s\/([^/]+)\/cart$/.exec(cart.url)?.[1] ?? '';
  const session = await stack.store.sessions.get(String(tokenClaims(sessionToken).sid));
  // The session keeps its PIPO token sealed; the gateway's own key opens it.
  const pipoToken = await stack.gateway.context.tokens.decrypt(session?.pipoToken?.token ?? '');
  expect(pipoToken).not.toBe('');
  const poom = cxmlFromForm(
    returnFormOf(await clickButton(stack, cart, 'Transfer cart to procurement system')),
  );
  const extrinsic = /<Extrinsic name="proofUrl">([^<]+)<\/Extrinsic>/.exec(poom)?.[1];
  const designId = Number(/<Extrinsic name="designId">(\d+)<\/Extrinsic>/.exec(poom)?.[1]);
  return { cart, sessionToken, pipoToken, poom, proofUrl: decodeEntities(extrinsic ?? ''), designId };
}

const logins = (stack: Stack) =>
  stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/user/login').length;
const proofDownloads = (stack: Stack) =>
  stack.upstreamCalls.filter((call) => call === 'GET /editor/download.ashx').length;

async function open(stack: Stack, url: string) {
  const res = await stack.request(url);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('proof links carry no print-service credential', () => {
  it('the PunchOutOrderMessage and the cart page link proofs through the gateway, with no PIPO token anywhere', async () => {
    const stack = await createStack();
    const { cart, pipoToken, poom, proofUrl, designId } = await transferredCart(stack);

    expect(proofUrl).toMatch(new RegExp(`^${GATEWAY_ORIGIN}/proof/[\\w-]+\\.[\\w-]+$`));
    expect(poom).toContain(`<URL>${proofUrl}</URL>`);
    expect(poom.includes(pipoToken), 'the PIPO token in the PunchOutOrderMessage').toBe(false);
    expect(poom).not.toContain('download.ashx');

    // The token the session holds is the live one the editor host takes (so its absence above means something).
    const live = await stack.request(
      `${SANDBOX_ORIGIN}/editor/download.ashx?token=${pipoToken}&pid=${designId}`,
    );
    expect(live.status).toBe(200);

    const proofLink = findLinks(cart.text).find((l) => l.text === 'Proof (PDF)');
    expect(proofLink?.href).toMatch(new RegExp(`^${GATEWAY_ORIGIN}/proof/`));
    expect(cart.text.includes(pipoToken), 'the PIPO token in the cart page').toBe(false);
    expect(cart.text).not.toContain('download.ashx');

    // The token names what it opens, signed: the buyer, and the design with its storefront and owner.
    const claims = tokenClaims(proofUrl.slice(proofUrl.lastIndexOf('/') + 1));
    expect(claims).toMatchObject({
      sid: 'acme',
      pur: 'proof',
      ref: expect.stringMatching(`^${designId}:demo:`),
    });
    expect(claims.exp).toBe(Math.floor(stack.clock.now().getTime() / 1000) + 180 * DAY);
  });

  it('opens the proof PDF after the PIPO session expired, and a second time from memory without logging in', async () => {
    const stack = await createStack();
    const { pipoToken, proofUrl, designId } = await transferredCart(stack);

    stack.clock.advance(PAST_PIPO_EXPIRY_SECONDS);
    // The old-style link is dead by now: the editor host refuses the session's token.
    const old = await stack.request(
      `${SANDBOX_ORIGIN}/editor/download.ashx?token=${pipoToken}&pid=${designId}`,
    );
    expect(old.status).toBe(403);

    const [loginsBefore, downloadsBefore] = [logins(stack), proofDownloads(stack)];
    const first = await open(stack, proofUrl);
    expect(first.res.status).toBe(200);
    expect(first.res.headers.get('Content-Type')).toBe('application/pdf');
    expect(first.res.headers.get('Content-Disposition')).toBe(`inline; filename="proof-${designId}.pdf"`);
    expect(first.res.headers.get('Cache-Control')).toBe('private, max-age=600');
    expect(first.res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(text(first.bytes.subarray(0, 5))).toBe('%PDF-');
    expect([logins(stack) - loginsBefore, proofDownloads(stack) - downloadsBefore]).toEqual([1, 1]);

    stack.clock.advance(60);
    const second = await open(stack, proofUrl);
    expect(second.res.status).toBe(200);
    expect(second.bytes).toEqual(first.bytes);
    expect([logins(stack) - loginsBefore, proofDownloads(stack) - downloadsBefore]).toEqual([1, 1]);
  });

  it('refuses a tampered token and a token of another purpose with 403, and a proof token on a punch-out page', async () => {
    const stack = await createStack();
    const { proofUrl, sessionToken } = await transferredCart(stack);
    const calls = stack.upstreamCalls.length;

    const token = proofUrl.slice(proofUrl.lastIndexOf('/') + 1);
    const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.slice(-1);
    for (const url of [`${GATEWAY_ORIGIN}/proof/${flipped}`, `${GATEWAY_ORIGIN}/proof/${sessionToken}`]) {
      const res = await stack.request(url);
      expect(res.status, url).toBe(403);
      expect(res.headers.get('Content-Type')).toContain('text/html');
      const page = await res.text();
      expect(page).toContain('This proof link is not valid');
      expect(page).toContain(
        'The link is incomplete or was changed. Open the proof from the requisition again.',
      );
      expect(page).not.toMatch(/\bat .+:\d+:\d+/);
    }
    const onCart = await stack.request(`${GATEWAY_ORIGIN}/punchout/s/${token}/cart`);
    expect(onCart.status).toBe(403);
    expect(stack.upstreamCalls.length).toBe(calls);
  });

  it('refuses an expired proof link with 410 and its own text; the lifetime is sessions.proofLinkTtlDays', async () => {
    const stack = await createStack(testConfig({ sessions: { proofLinkTtlDays: 7 } }));
    const { proofUrl } = await transferredCart(stack);

    stack.clock.advance(6 * DAY);
    expect((await stack.request(proofUrl)).status).toBe(200);
    stack.clock.advance(DAY + 1);
    const res = await stack.request(proofUrl);
    expect(res.status).toBe(410);
    const page = await res.text();
    expect(page).toContain('This proof link has expired');
    expect(page).toContain('Proof links work for 7 days after the cart was sent.');
    expect(page).not.toContain('punch out again');
  });

  it('says so when the design is gone (404) and when the print service is away (503, Retry-After)', async () => {
    const stack = await createStack();
    const { proofUrl, designId } = await transferredCart(stack);
    const claims = tokenClaims(proofUrl.slice(proofUrl.lastIndexOf('/') + 1));
    const gone = await stack.gateway.context.tokens.sign(
      { sid: 'acme', pur: 'proof', ref: String(claims.ref).replace(`${designId}:`, '999999:') },
      DAY,
      stack.clock.now(),
    );
    const missing = await stack.request(`${GATEWAY_ORIGIN}/proof/${gone}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Design 999999 is no longer available from the print service');

    stack.printServiceDown = true;
    const away = await stack.request(proofUrl);
    expect(away.status).toBe(503);
    expect(away.headers.get('Retry-After')).toBe('30');
    expect(await away.text()).toContain('The print service is not reachable at the moment');
  });

  it('no PIPO token, of the editor hand-off or of a proof login, is in a log line or a stored record', async () => {
    const logger = capturingLogger();
    const issued: string[] = [];
    // Every PIPO token the print service hands the gateway: the answers of its logins.
    const recordLogins =
      (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
      async (input, init) => {
        const res = await fetch(input, init);
        if (new Request(input, init).url.endsWith('/pipo/user/login') && res.ok) {
          issued.push(String(await res.clone().json()));
        }
        return res;
      };
    const stack = await createStack(testConfig(), { gatewayDeps: { logger }, wrapPrintFetch: recordLogins });
    const { sessionToken, proofUrl } = await transferredCart(stack);
    stack.clock.advance(PAST_PIPO_EXPIRY_SECONDS);
    expect((await stack.request(proofUrl)).status).toBe(200);
    expect(issued.length).toBeGreaterThanOrEqual(2);

    const sessionId = String(tokenClaims(sessionToken).sid);
    const session = await stack.store.sessions.get(sessionId);
    const stored = JSON.stringify([
      session,
      await stack.store.cart.listBySession(sessionId),
      await stack.store.users.get('acme', session?.pipoUserRef ?? ''),
    ]);
    const log = logger.text();
    expect(logger.lines.length).toBeGreaterThan(5);
    for (const token of issued) {
      expect(log.includes(token), 'a PIPO token in the log').toBe(false);
      expect(stored.includes(token), 'a PIPO token in a stored record').toBe(false);
    }
  });
});
