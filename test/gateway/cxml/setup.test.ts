import { readdirSync, readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileRequest, setupRequest } from '../../support/cxml-documents.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import { findForms, findLinks } from '../../support/html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  saveInEditor,
  startUrlOf,
  statusOf,
  submit,
} from '../../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, type Stack, testConfig } from '../../support/stack.ts';

const reader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => ['ItemIn', 'Extrinsic'].includes(name),
});

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const INVALID = new URL('../../../fixtures/cxml/invalid/', import.meta.url);
const expected: Record<string, { status: number; text: string; message: string }> = JSON.parse(
  readFileSync(new URL('expected.json', INVALID), 'utf8'),
);

async function punchOut(stack: Stack, options: Parameters<typeof setupRequest>[0] = {}) {
  const answer = await stack.postCxml(setupRequest(options));
  expect(statusOf(answer)).toMatchObject({ code: 200 });
  return stack.browse(startUrlOf(answer));
}

/** Punches out, designs business cards and transfers; answers the POOM and the cart line reference. */
async function orderedCart(stack: Stack, options: Parameters<typeof setupRequest>[0] = {}) {
  const catalog = await punchOut(stack, options);
  const cart = await designProduct(stack, catalog, 'Business cards');
  const poom = cxmlFromForm(
    returnFormOf(await clickButton(stack, cart, 'Transfer cart to procurement system')),
  );
  const item = reader.parse(poom).cXML.Message.PunchOutOrderMessage.ItemIn[0];
  return { poom, lineRef: item.ItemID.SupplierPartAuxiliaryID as string };
}

describe('POST /cxml refuses what it cannot accept, with a specific Status and no session', () => {
  const files = readdirSync(INVALID).filter((f) => f.endsWith('.xml'));

  it.each(files)('%s', async (file) => {
    const stack = await createStack();
    const want = expected[file];
    expect(want, `expected.json has ${file}`).toBeDefined();
    const answer = await stack.postCxml(new Uint8Array(readFileSync(new URL(file, INVALID))));
    expect(statusOf(answer)).toEqual({ code: want?.status, text: want?.text, detail: want?.message });
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('an unknown buyer gets 401 naming the From credential it sent', async () => {
    const stack = await createStack();
    const answer = await stack.postCxml(setupRequest({ identity: 'AN09999999999' }));
    expect(statusOf(answer)).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'Unknown buyer: no account for From credential NetworkID/AN09999999999.',
    });
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('a wrong SharedSecret gets 401 without saying what the secret is', async () => {
    const stack = await createStack();
    const answer = await stack.postCxml(setupRequest({ secret: 'guess' }));
    expect(statusOf(answer)).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'Authentication failed: the Sender SharedSecret is not valid.',
    });
    expect(answer).not.toContain('acme-secret');
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('credential domains match in any case', async () => {
    const stack = await createStack();
    const answer = await stack.postCxml(setupRequest({ domain: 'networkid' }));
    expect(statusOf(answer).code).toBe(200);
  });

  it.each([
    ['https://evil.example/steal', 'evil.example'],
    ['https://buyer.example.evil.example/x', 'buyer.example.evil.example'],
    ['https://user@evil.example/x', 'evil.example'],
  ])('a BrowserFormPost on a host not allowed (%s) gets 400 naming the host', async (url, host) => {
    const stack = await createStack();
    const answer = await stack.postCxml(setupRequest({ browserFormPost: url }));
    expect(statusOf(answer)).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: `BrowserFormPost host ${host} is not an allowed return host for this buyer.`,
    });
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('a body over 1 MB gets 406 without being parsed', async () => {
    const stack = await createStack();
    const big = setupRequest().replace('<BuyerCookie>', `<!-- ${'x'.repeat(1024 * 1024)} --><BuyerCookie>`);
    const answer = await stack.postCxml(big);
    expect(statusOf(answer)).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is larger than 1 MB.',
    });
  });

  it('answers every refusal with HTTP 200 and text/xml, as buyers require', async () => {
    const stack = await createStack();
    const res = await stack.request(`${GATEWAY_ORIGIN}/cxml`, { method: 'POST', body: 'not xml at all' });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/xml; charset=UTF-8');
    expect(statusOf(await res.text()).code).toBe(406);
  });
});

describe('ProfileRequest', () => {
  it('lists the transactions the gateway supports, DTD-valid', async () => {
    const stack = await createStack();
    const answer = await stack.postCxml(profileRequest());
    expect(statusOf(answer).code).toBe(200);
    expect(answer).toContain('<Transaction requestName="PunchOutSetupRequest">');
    expect(answer).toContain('<URL>http://gateway.test/cxml</URL>');
    expect(validateAgainstDtd(answer, 'cXML')).toEqual({ ok: true, messages: '' });
  });
});

describe('start page, session links and pages', () => {
  it('the StartPage URL works once; a second use explains itself', async () => {
    const stack = await createStack();
    const start = startUrlOf(await stack.postCxml(setupRequest()));
    expect((await stack.browse(start)).status).toBe(200);
    const again = await stack.browse(start);
    expect(again.status).toBe(410);
    expect(again.text).toContain('This punch-out link was already used.');
  });

  it('the StartPage URL expires after 5 minutes', async () => {
    const stack = await createStack();
    const start = startUrlOf(await stack.postCxml(setupRequest()));
    stack.clock.advance(301);
    const page = await stack.browse(start);
    expect(page.status).toBe(410);
    expect(page.text).toContain('Your punch-out session has expired');
  });

  it('an expired session shows the way back: a cancel form to the stored BrowserFormPost', async () => {
    const stack = await createStack();
    const catalog = await punchOut(stack);
    stack.clock.advance(4 * 3600 + 1);
    const page = await stack.browse(catalog.url);
    expect(page.status).toBe(410);
    expect(page.text).toContain('Your punch-out session has expired');
    const back = findForms(page.text)[0];
    expect(back?.action).toBe('https://buyer.example/punchout/return?req=1');
    const poom = cxmlFromForm(back ?? { action: '', method: '', fields: [] });
    expect(poom).toContain('<BuyerCookie>cookie-1</BuyerCookie>');
    expect(poom).not.toContain('<ItemIn');
  });

  it('a tampered session link is refused', async () => {
    const stack = await createStack();
    const catalog = await punchOut(stack);
    const tampered = catalog.url.replace(
      /\.([^./]+)\/catalog$/,
      (_m, sig: string) => `.${sig.slice(0, -2)}xx/catalog`,
    );
    const page = await stack.browse(tampered);
    expect(page.status).toBe(403);
    expect(page.text).toContain('This link is not valid.');
  });

  it('pages carry the security headers and frame-ancestors of the buyer', async () => {
    const stack = await createStack();
    const catalog = await punchOut(stack);
    const csp = catalog.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self' s1-eu.ariba.example buyer.example");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(catalog.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(catalog.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(catalog.headers.get('Cache-Control')).toBe('no-store');
    expect(catalog.headers.get('Set-Cookie')).toBeNull();
  });

  it('level 2: a SelectedItem opens that product in the editor directly', async () => {
    const stack = await createStack();
    const start = startUrlOf(await stack.postCxml(setupRequest({ selectedSku: 'FLY-A5' })));
    const page = await stack.browse(start);
    expect(page.url).toContain('/editor/online-editor?productid=102&');
    const cart = await saveInEditor(stack, page, {});
    expect(cart.text).toContain('A5 flyer');
  });
});

describe('the cart', () => {
  it('prices by quantity tier and refuses a quantity out of range', async () => {
    const stack = await createStack();
    const cart = await designProduct(stack, await punchOut(stack), 'Business cards');
    const form = findForms(cart.text).find((f) => f.action.endsWith('/quantity'));
    const repriced = await submit(stack, cart, form ?? { action: '', method: '', fields: [] }, {
      quantity: '500',
    });
    expect(repriced.text).toContain('0.09 USD / EA');
    expect(repriced.text).toContain('45.00 USD');
    const refused = await submit(stack, cart, form ?? { action: '', method: '', fields: [] }, {
      quantity: 'many',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      'The quantity for Business cards must be a whole number from 100 to 100000.',
    );
  });

  it('removes a line, and cancel on create sends an empty cart', async () => {
    const stack = await createStack();
    const cart = await designProduct(stack, await punchOut(stack), 'Business cards');
    const emptied = await clickButton(stack, cart, 'Remove');
    expect(emptied.text).toContain('Your cart is empty.');
    const cancel = returnFormOf(await clickButton(stack, emptied, 'Cancel and return'));
    const poom = cxmlFromForm(cancel);
    expect(poom).not.toContain('<ItemIn');
    expect(poom).toContain('<Money currency="USD">0.00</Money>');
    expect(validateAgainstDtd(poom, 'cXML')).toEqual({ ok: true, messages: '' });
  });

  it('a design that is not the session user’s own cannot be added', async () => {
    const stack = await createStack();
    const catalog = await punchOut(stack);
    const other = await punchOut(stack, { uniqueName: 'someone-else', userEmail: 'other@acme.example' });
    const cart = await designProduct(stack, other, 'Business cards');
    const designId = /design (\d+)/.exec(cart.text)?.[1];
    const editor = await stack.browse(
      findLinks(catalog.text).find((l) => l.text === 'Design A5 flyer')?.href ?? '',
    );
    const cru = new URL(editor.url).searchParams.get('cru') ?? '';
    const page = await stack.browse(`${cru}?productid=${designId}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain(`Design ${designId} does not belong to this punch-out user.`);
  });

  it('a transferred session cannot be changed any more', async () => {
    const stack = await createStack();
    const cart = await designProduct(stack, await punchOut(stack), 'Business cards');
    await clickButton(stack, cart, 'Transfer cart to procurement system');
    const again = await stack.browse(cart.url);
    expect(again.status).toBe(409);
    expect(again.text).toContain('This cart was already sent to your procurement system.');
  });

  it('cxml-urlencoded buyers get the XML in a cxml-urlencoded field', async () => {
    const config = testConfig();
    config.buyers = config.buyers.map((b) =>
      b.id === 'acme' ? { ...b, cartEncoding: 'urlencoded' as const } : b,
    );
    const stack = await createStack(config);
    const cart = await designProduct(stack, await punchOut(stack), 'Business cards');
    const form = returnFormOf(await clickButton(stack, cart, 'Transfer cart to procurement system'));
    expect(form.fields.map(([n]) => n)).toEqual(['cxml-urlencoded']);
    expect(form.fields[0]?.[1]).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
  });
});

describe('edit and inspect', () => {
  it('edit rebuilds the cart from the stored lines; the line reference survives; cancel sends Status 204', async () => {
    const stack = await createStack();
    const { lineRef } = await orderedCart(stack);
    const cart = await punchOut(stack, {
      operation: 'edit',
      buyerCookie: 'cookie-2',
      items: [{ sku: 'BC-STD', lineRef, quantity: 250 }],
    });
    expect(cart.url).toMatch(/\/cart$/);
    expect(cart.text).toContain(lineRef);
    expect(cart.text).toContain('30.00 USD');

    const poom = cxmlFromForm(
      returnFormOf(await clickButton(stack, cart, 'Transfer cart to procurement system')),
    );
    const message = reader.parse(poom).cXML.Message.PunchOutOrderMessage;
    expect(message.BuyerCookie).toBe('cookie-2');
    expect(message.ItemIn[0].ItemID.SupplierPartAuxiliaryID).toBe(lineRef);
    expect(message.ItemIn[0]['@quantity']).toBe('250');

    const again = await punchOut(stack, {
      operation: 'edit',
      buyerCookie: 'cookie-3',
      items: [{ sku: 'BC-STD', lineRef, quantity: 250 }],
    });
    const cancel = cxmlFromForm(returnFormOf(await clickButton(stack, again, 'Cancel and return')));
    expect(cancel).toContain('<Status code="204" text="No Content"/>');
    expect(validateAgainstDtd(cancel, 'cXML')).toEqual({ ok: true, messages: '' });
  });

  it('edit ignores line references of another buyer', async () => {
    const stack = await createStack();
    const { lineRef } = await orderedCart(stack);
    const before = await stack.store.cart.get(lineRef);
    const answer = await stack.postCxml(
      setupRequest({
        operation: 'edit',
        domain: 'DUNS',
        identity: 'COUPA-ACME',
        secret: 'coupa-secret',
        browserFormPost: 'https://acme.coupahost.example/punchout/checkout/1',
        items: [{ sku: 'BC-STD', lineRef, quantity: 100 }],
      }),
    );
    const page = await stack.browse(startUrlOf(answer));
    // Not opened as a line of ours: only kept as the buyer sent it, so nothing tells it exists elsewhere.
    expect(findForms(page.text).some((f) => f.action.includes(`/cart/${lineRef}/`))).toBe(false);
    expect(page.text).toContain('kept as sent');
    expect(await stack.store.cart.get(lineRef)).toEqual(before);
  });

  it('inspect shows the cart read-only and refuses changes', async () => {
    const stack = await createStack();
    const { lineRef } = await orderedCart(stack);
    const cart = await punchOut(stack, {
      operation: 'inspect',
      items: [{ sku: 'BC-STD', lineRef, quantity: 100 }],
    });
    expect(cart.text).toContain('Your cart (read only)');
    expect(cart.text).not.toContain('Edit design');
    expect(findForms(cart.text).some((f) => f.action.endsWith('/quantity'))).toBe(false);
    const tryChange = await stack.browse(cart.url.replace(/\/cart$/, `/cart/${lineRef}/remove`), {
      method: 'POST',
    });
    expect(tryChange.status).toBe(403);
    const poom = cxmlFromForm(returnFormOf(await clickButton(stack, cart, 'Return to procurement system')));
    expect(poom).toContain('operationAllowed="inspect"');
  });
});

describe('print-service accounts', () => {
  it('a returning mapped user costs no upstream call within the reuse window, one login after it', async () => {
    const stack = await createStack();
    await stack.postCxml(setupRequest());
    const logins = () => stack.upstreamCalls.filter((c) => c === 'POST /api/v2/pipo/user/login').length;
    const created = stack.upstreamCalls.filter((c) => c === 'POST /api/v2/pipo/user/create').length;
    expect(created).toBe(1);

    const before = stack.upstreamCalls.length;
    await stack.postCxml(setupRequest());
    expect(stack.upstreamCalls.length - before).toBe(0);

    stack.clock.advance(601);
    const loginsBefore = logins();
    const callsBefore = stack.upstreamCalls.length;
    await stack.postCxml(setupRequest());
    expect(logins() - loginsBefore).toBe(1);
    expect(stack.upstreamCalls.length - callsBefore).toBe(1);
  });

  it('an account the print service lost is created again with the same credentials', async () => {
    const stack = await createStack();
    await punchOut(stack);
    stack.sandbox.control.reset();
    stack.clock.advance(601);
    const catalog = await punchOut(stack);
    const cart = await designProduct(stack, catalog, 'Business cards');
    expect(cart.text).toContain('Business cards');
    expect(stack.upstreamCalls.filter((c) => c === 'POST /api/v2/pipo/user/create')).toHaveLength(2);
  });

  it('temporary mode creates a temp user per punch-out and logs it in', async () => {
    const stack = await createStack();
    const catalog = await punchOut(stack, { identity: 'TEMP-1', secret: 'temp-secret' });
    expect(stack.upstreamCalls).toEqual([
      'POST /api/v2/pipo/user/createtemp',
      'POST /api/v2/pipo/user/login',
    ]);
    const cart = await designProduct(stack, catalog, 'Business cards');
    expect(cart.text).toContain('Business cards');
  });

  it('a PIPO token that expired mid-session is replaced transparently', async () => {
    const stack = await createStack();
    const catalog = await punchOut(stack);
    stack.clock.advance(31 * 60);
    const cart = await designProduct(stack, catalog, 'Business cards');
    expect(cart.status).toBe(200);
    expect(cart.text).toContain('Business cards');
  });
});

describe('when the print service fails', () => {
  it.each([
    ['is unreachable', () => Promise.reject(new TypeError('fetch failed'))],
    ['answers 503', () => Promise.resolve(new Response('busy', { status: 503 }))],
    ['answers malformed JSON', () => Promise.resolve(new Response('{"id": ', { status: 200 }))],
  ])('a setup while it %s gets Status 500 saying it is temporary', async (_case, fault) => {
    const stack = await createStack(testConfig(), { wrapPrintFetch: () => fault as typeof fetch });
    const answer = await stack.postCxml(setupRequest());
    const status = statusOf(answer);
    expect(status.code).toBe(500);
    expect(status.text).toBe('Internal Server Error');
    expect(status.detail).toMatch(
      /^The print service could not (create the punch-out user|log the punch-out user in) \((unavailable|invalid_response)( 503)?\)\.$/,
    );
    expect(answer).not.toMatch(/at .*\.ts:\d+/);
  });
});
