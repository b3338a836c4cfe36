import { describe, expect, it } from 'vitest';
import { extrinsicValue, type PunchOutSetupRequest } from '../../src/cxml/index.ts';
import {
  base64,
  CARD_LINE,
  createTestSimulator,
  FLYER_LINE,
  form,
  GATEWAY,
  noChangeMessage,
  orderMessage,
  PUBLIC,
} from './fake-gateway.ts';

type Simulator = ReturnType<typeof createTestSimulator>;

/** Starts a requisition and returns its id, the setup request the gateway saw, and the landing page URL. */
async function punchOut(sim: Simulator, profile: string, user = 'jroe') {
  const res = await sim.request(
    '/requisitions',
    form([
      ['profile', profile],
      ['user', user],
    ]),
  );
  expect(res.status).toBe(303);
  const location = res.headers.get('Location') ?? '';
  const match = /\/requisitions\/(REQ-[A-Z0-9]+)(\?catalog=(\d+))?$/.exec(location);
  if (match === null) throw new Error(`unexpected redirect ${location}`);
  const setup = sim.gateway.requests.at(-1) as PunchOutSetupRequest;
  return { id: match[1] ?? '', location, setup };
}

async function page(sim: Simulator, url: string): Promise<string> {
  const res = await sim.request(url);
  expect(res.status).toBe(200);
  return res.text();
}

async function postCart(sim: Simulator, id: string, fields: [string, string][]): Promise<Response> {
  return sim.request(`/requisitions/${id}/cart`, form(fields));
}

describe('cXML punch-out', () => {
  it('sends the setup request server-side and opens the StartPage in the catalog frame', async () => {
    const sim = createTestSimulator();
    const { id, location, setup } = await punchOut(sim, 'ariba');
    expect(location).toBe(`${PUBLIC}/requisitions/${id}?catalog=1`);
    expect(setup.kind).toBe('PunchOutSetupRequest');
    expect(setup.operation).toBe('create');
    expect(setup.browserFormPost).toBe(`${PUBLIC}/requisitions/${id}/cart`);
    expect(extrinsicValue(setup.extrinsics, 'UserEmail')).toBe('jane.roe@acme.example');

    const html = await page(sim, location);
    expect(html).toContain(
      `<iframe name="catalog-1" title="Supplier catalog (punch-out 1)" src="${GATEWAY}/punchout/start/one-time-1"></iframe>`,
    );
    expect(html).toContain('PunchOutSetupRequest (create)');
    expect(html).toContain('PunchOutSetupResponse');
    // The raw documents are shown escaped, not interpreted.
    expect(html).toContain('&lt;PunchOutSetupRequest operation=&quot;create&quot;&gt;');
    expect(html).toContain(`&lt;BuyerCookie&gt;${setup.buyerCookie}&lt;/BuyerCookie&gt;`);
  });

  it('shows the one-time StartPage only on the page the punch-out redirected to', async () => {
    const sim = createTestSimulator();
    const { id } = await punchOut(sim, 'ariba');
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).not.toContain('<iframe');
    expect(html).toContain('Catalog session 1 is open');
    expect(html).toContain('Punch out again');
  });

  it('shows why a punch-out failed when the gateway refuses it', async () => {
    const sim = createTestSimulator();
    sim.gateway.answers.push({
      code: 401,
      text: 'Unauthorized',
      detail: 'Authentication failed: the Sender SharedSecret is not valid.',
    });
    const { id, location } = await punchOut(sim, 'coupa');
    expect(location).toBe(`${PUBLIC}/requisitions/${id}`);
    const html = await page(sim, location);
    expect(html).toContain(
      'The punch-out (create) failed. The gateway answered 401 Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
    );
    expect(html).not.toContain('<iframe');
  });

  it('shows an unreachable gateway as such', async () => {
    const sim = createTestSimulator({
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    const { id, location } = await punchOut(sim, 'ariba');
    expect(location).toBe(`${PUBLIC}/requisitions/${id}`);
    const html = await page(sim, location);
    expect(html).toContain('The punch-out (create) failed. The gateway could not be reached: fetch failed');
  });

  it('refuses an unknown profile or user', async () => {
    const sim = createTestSimulator();
    const res = await sim.request(
      '/requisitions',
      form([
        ['profile', 'nobody'],
        ['user', 'jroe'],
      ]),
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('The form named an unknown profile or user.');
  });

  it('receives a cxml-base64 cart and lists the lines as a requisition does', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'ariba');
    const res = await postCart(sim, id, [
      ['cXML-Base64', base64(orderMessage(setup.buyerCookie, [CARD_LINE, FLYER_LINE]))],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`${PUBLIC}/requisitions/${id}`);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('2 lines added from the catalog.');
    expect(html).toContain(
      '<tr><td class="num">1</td><td class="mono">BC-STD</td><td>Business cards, 85 × 55 mm<div><a href="http://sandbox.test/editor/proof/9" target="_blank" rel="noopener noreferrer">View item page</a></div></td><td class="num">500</td><td class="num">0.09 USD</td><td>EA</td><td class="num">45.00 USD</td><td class="mono">L7K2QX</td><td class="mono">82121512</td>',
    );
    expect(html).toContain('<td class="mono">M3P9ZA</td><td class="mono">82121503</td>');
    expect(html).toContain('<td colspan="6">Total</td><td class="num">132.50 USD</td>');
    expect(html).toContain('form field cxml-base64, decoded as UTF-8');
    expect(html).not.toContain('<iframe');
  });

  it('receives a cxml-urlencoded cart (Coupa) with non-ASCII written as character references', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'coupa', 'mmueller');
    const xml = orderMessage(
      setup.buyerCookie,
      [{ ...CARD_LINE, description: 'Visitenkarten Müller' }],
      true,
    );
    expect(xml).toContain('M&#xFC;ller');
    await postCart(sim, id, [['cxml-urlencoded', xml]]);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('1 line added from the catalog.');
    expect(html).toContain('<td>Visitenkarten Müller<div>');
    expect(html).not.toContain('This profile is set up to read');
  });

  it('warns when the cart comes in an encoding the profile is not set up for', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'ariba');
    await postCart(sim, id, [['cxml-urlencoded', orderMessage(setup.buyerCookie, [CARD_LINE], true)]]);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain(
      'This profile is set up to read cxml-base64, but the cart came as cxml-urlencoded; check the buyer&#39;s cartEncoding in the gateway config.',
    );
    expect(html).toContain('1 line added from the catalog.');
  });

  it('adds nothing for an empty cart on create (the user cancelled)', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'ariba');
    await postCart(sim, id, [['cxml-base64', base64(orderMessage(setup.buyerCookie, []))]]);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('The catalog returned an empty cart: nothing was added (the user cancelled).');
    expect(html).toContain('No lines yet.');
  });

  it('refuses a cart whose BuyerCookie matches no punch-out', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'ariba');
    await postCart(sim, id, [['cxml-base64', base64(orderMessage('someone-else', [CARD_LINE]))]]);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain(
      `The cart&#39;s BuyerCookie &quot;someone-else&quot; matches no punch-out of this requisition (sent: &quot;${setup.buyerCookie}&quot;); a procurement system cannot place it.`,
    );
    expect(html).toContain('No lines yet.');
  });

  it('refuses a post without a cXML field, and an unreadable document, saying why', async () => {
    const sim = createTestSimulator();
    const { id } = await punchOut(sim, 'ariba');
    await postCart(sim, id, [['xml', '<cXML/>']]);
    let html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain(
      'The cart post has no cxml-base64 or cxml-urlencoded field (fields received: xml).',
    );
    await postCart(sim, id, [['cxml-base64', base64('<cXML><Message>')]]);
    html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('The cart could not be read: The document is not well-formed XML');
    await postCart(sim, id, [['cxml-base64', '%%%']]);
    html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('The cxml-base64 field is not valid base64.');
  });

  it('escapes what the catalog sends: a description with a script stays text', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'ariba');
    const evil = { ...CARD_LINE, description: '<script>alert("pwned")</script>', url: 'javascript:alert(1)' };
    await postCart(sim, id, [['cxml-base64', base64(orderMessage(setup.buyerCookie, [evil]))]]);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('<td>&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;</td>');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('href="javascript:');
    expect(html.match(/<script>/g)?.length).toBe(1);
  });

  it('reopens the cart for edit with the lines as ItemOut and replaces the lines with the new cart', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'ariba');
    await postCart(sim, id, [
      ['cxml-base64', base64(orderMessage(setup.buyerCookie, [CARD_LINE, FLYER_LINE]))],
    ]);
    const res = await sim.request(`/requisitions/${id}/punchout`, form([['operation', 'edit']]));
    expect(res.headers.get('Location')).toBe(`${PUBLIC}/requisitions/${id}?catalog=2`);
    const edit = sim.gateway.requests.at(-1) as PunchOutSetupRequest;
    expect(edit.operation).toBe('edit');
    expect(edit.itemOut.map((i) => [i.supplierPartID, i.supplierPartAuxiliaryID, i.quantity])).toEqual([
      ['BC-STD', 'L7K2QX', '500'],
      ['FLY-A5', 'M3P9ZA', '250'],
    ]);
    expect(edit.buyerCookie).not.toBe(setup.buyerCookie);

    await postCart(sim, id, [
      ['cxml-base64', base64(orderMessage(edit.buyerCookie, [{ ...CARD_LINE, quantity: 1000 }]))],
    ]);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('The catalog replaced the cart: 1 line.');
    expect(html).toContain('<td class="num">1000</td>');
    expect(html).not.toContain('FLY-A5</td>');
  });

  it('keeps the lines when an edit ends with Status 204, and removes them for an empty edit cart', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'coupa');
    await postCart(sim, id, [['cxml-base64', base64(orderMessage(setup.buyerCookie, [CARD_LINE]))]]);
    await sim.request(`/requisitions/${id}/punchout`, form([['operation', 'edit']]));
    const edit = sim.gateway.requests.at(-1) as PunchOutSetupRequest;
    await postCart(sim, id, [['cxml-base64', base64(noChangeMessage(edit.buyerCookie))]]);
    let html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('The catalog session ended without changes (Message Status 204 No Content).');
    expect(html).toContain('<td class="mono">BC-STD</td>');

    await sim.request(`/requisitions/${id}/punchout`, form([['operation', 'edit']]));
    const second = sim.gateway.requests.at(-1) as PunchOutSetupRequest;
    await postCart(sim, id, [['cxml-base64', base64(orderMessage(second.buyerCookie, []))]]);
    html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain(
      'The edit session returned an empty cart, so the requisition&#39;s lines were removed',
    );
    expect(html).toContain('No lines yet.');
  });

  it('ignores the cart of an inspect session', async () => {
    const sim = createTestSimulator();
    const { id, setup } = await punchOut(sim, 'ariba');
    await postCart(sim, id, [['cxml-base64', base64(orderMessage(setup.buyerCookie, [CARD_LINE]))]]);
    await sim.request(`/requisitions/${id}/punchout`, form([['operation', 'inspect']]));
    const inspect = sim.gateway.requests.at(-1) as PunchOutSetupRequest;
    expect(inspect.operation).toBe('inspect');
    await postCart(sim, id, [['cxml-base64', base64(orderMessage(inspect.buyerCookie, [FLYER_LINE]))]]);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('Inspect session: the returned cart (1 line) is ignored, as cXML prescribes.');
    expect(html).not.toContain('FLY-A5</td>');
  });

  it('lifts a page that lands in the catalog frame out to the whole window', async () => {
    const sim = createTestSimulator();
    const { id } = await punchOut(sim, 'ariba');
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('<body data-breakout>');
    expect(html).toContain(
      `<a href="${PUBLIC}/requisitions/${id}" target="_top">open the requisition in the whole window</a>`,
    );
    const res = await sim.request(`/requisitions/${id}`);
    expect(res.headers.get('Content-Security-Policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; script-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'self' data:; connect-src 'self'; frame-src http: https:; frame-ancestors 'self'; base-uri 'none'$/,
    );
  });

  it('answers 404 with a page for an unknown requisition', async () => {
    const sim = createTestSimulator();
    const res = await postCart(sim, 'REQ-NOPE', [['cxml-base64', 'x']]);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('There is no requisition REQ-NOPE in this simulator');
  });
});
