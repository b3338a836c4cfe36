import type { Order, PipoProject } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';
import { type Harness, makeHarness } from './sandbox-harness.ts';

const decodeEntities = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}(?:="([^"]*)")?[\\s>]`).exec(tag);
  return match === null ? undefined : decodeEntities(match[1] ?? '');
}

/** The fields a browser would submit for the page's form, as it stands. */
function formFields(html: string): URLSearchParams {
  const fields = new URLSearchParams();
  for (const [tag] of html.matchAll(/<input\b[^>]*>/g)) {
    const type = attribute(tag, 'type');
    const name = attribute(tag, 'name');
    if (name === undefined) continue;
    if (type === 'checkbox' && attribute(tag, 'checked') === undefined) continue;
    fields.append(name, attribute(tag, 'value') ?? '');
  }
  for (const [, open, body] of html.matchAll(/(<select\b[^>]*>)([\s\S]*?)<\/select>/g)) {
    const selected = /<option\b[^>]*\bselected\b[^>]*>/.exec(body!)?.[0] ?? /<option\b[^>]*>/.exec(body!)![0];
    fields.append(attribute(open!, 'name')!, attribute(selected, 'value')!);
  }
  return fields;
}

async function openEditor(h: Harness, query: string): Promise<{ res: Response; html: string }> {
  const res = await h.app.request(`/editor/online-editor?${query}`);
  return { res, html: await res.text() };
}

async function save(h: Harness, fields: URLSearchParams): Promise<Response> {
  return await h.app.request('/editor/online-editor/save', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
}

const jane = (h: Harness) => h.login('jane.buyer', 'demo-pass-1');

describe('sandbox editor host: online editor', () => {
  it('R14 the design page opens for productid or epi inside a frame: HTML, no cookies, CSP without frame limits', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const { res, html } = await openEditor(h, `productid=101&tpsc=1&token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('Set-Cookie')).toBeNull();
    expect(res.headers.get('X-Frame-Options')).toBeNull();
    expect(res.headers.get('Content-Security-Policy')).not.toContain('frame-ancestors');
    expect(html).toContain('<h1>Business cards</h1>');
    expect(html).toContain('action="online-editor/save"');
    const byEpi = await openEditor(h, `epi=FLY-A5&tpsc=yes&token=${token}`);
    expect(byEpi.res.status).toBe(200);
    expect(byEpi.html).toContain('<h1>A5 flyer</h1>');
  });

  it('R14 bad parameters get a 400 page that says what is wrong', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const cases: [string, string][] = [
      [`productid=101&token=${token}`, 'tpsc is required'],
      [`productid=101&tpsc=&token=${token}`, 'tpsc needs a value'],
      ['productid=101&tpsc=1', 'token is required'],
      [`tpsc=1&token=${token}`, 'productid or epi is required'],
      [`productid=abc&tpsc=1&token=${token}`, 'productid must be a positive integer'],
      [
        `productid=101&tpsc=1&token=${token}&cru=javascript:alert(1)`,
        'cru must be an absolute http or https URL',
      ],
      [
        `productid=101&tpsc=1&token=${token}&s=3.50,2.00`,
        's is allowed only for products with custom sizing',
      ],
      [`productid=103&tpsc=1&token=${token}&s=24,36`, 's must be w.ww,h.hh'],
      [`productid=101&tpsc=1&token=${token}&logo=maybe`, 'logo must be true or false'],
      [`productid=101&tpsc=1&token=${token}&photo=abc`, 'photo must be a positive integer image id'],
      [`productid=101&tpsc=1&token=${token}&brand=Ink,Nope`, 'brand: &quot;Nope&quot; is neither'],
    ];
    for (const [query, text] of cases) {
      const { res, html } = await openEditor(h, query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
      expect(html, query).toContain(text);
    }
  });

  it('R14 valid size, image item tags and colour maps are accepted and shown', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const poster = await openEditor(h, `productid=103&tpsc=1&token=${token}&s=24.00,36.50`);
    expect(poster.res.status).toBe(200);
    expect(poster.html).toContain('value="36.50"');
    const cards = await openEditor(
      h,
      `productid=101&tpsc=1&token=${token}&logo=FALSE&photo=14&brand=${encodeURIComponent('Ink,#ff0000;Paper,Red')}`,
    );
    expect(cards.res.status).toBe(200);
    expect(cards.html).toContain('<option value="14" data-color="#39C645" selected>');
    expect(cards.html).toContain('value="Ink,#ff0000;Paper,Red"');
  });

  it('R14 A07 an invalid or expired token gets a 403 page; a product out of reach gets a 404 page', async () => {
    const h = makeHarness();
    expect((await openEditor(h, `productid=101&tpsc=1&token=${'0'.repeat(64)}`)).res.status).toBe(403);
    const token = await jane(h);
    h.control.advanceClock(1801);
    expect((await openEditor(h, `productid=101&tpsc=1&token=${token}`)).res.status).toBe(403);
    const fresh = await jane(h);
    for (const query of ['productid=111', 'productid=3002', 'productid=424242', 'epi=NOPE']) {
      const { res, html } = await openEditor(h, `${query}&tpsc=1&token=${fresh}`);
      expect(res.status, query).toBe(404);
      expect(html).toContain('Not found');
    }
  });

  it('R14 R04 saving creates the user project and redirects to cru with productid and the monitored tags', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const cru = 'https://gateway.example/punchout/return?t=abc#cart';
    const { html } = await openEditor(
      h,
      `productid=101&tpsc=1&token=${token}&logo=false&cru=${encodeURIComponent(cru)}`,
    );
    const fields = formFields(html);
    fields.set('text.Name', 'Jane Buyer');
    fields.append('tag.logo', 'true');
    const res = await save(h, fields);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('Location')!);
    const productId = Number(location.searchParams.get('productid'));
    expect(location.origin + location.pathname).toBe('https://gateway.example/punchout/return');
    expect(location.searchParams.get('t')).toBe('abc');
    expect(location.searchParams.get('logo')).toBe('true');
    expect(location.hash).toBe('#cart');
    const project = (await (
      await h.call('GET', `/api/v2/pipo/project/${productId}`, { pipo: token })
    ).json()) as PipoProject;
    expect(project).toEqual({ id: productId, name: 'Business cards', external_id: 'BC-STD' });
    expect(h.control.projects(201).find((p) => p.id === productId)!.design.textFields[0]).toEqual({
      name: 'Name',
      value: 'Jane Buyer',
    });
    const orderId = (await (
      await h.call('POST', '/api/v2/pipo/order/create', { pipo: token, body: { product_id: [productId] } })
    ).json()) as number;
    const order = (await (await h.call('GET', `/api/v2/order/${orderId}`)).json()) as Order;
    expect(order.items[0]).toMatchObject({
      product_id: productId,
      item_number: 'BC-STD',
      integration_id: 'BC-STD',
    });
  });

  it('R14 without cru the page honours window.cartReturnUrl; with neither it shows the saved project', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const { html } = await openEditor(h, `productid=102&tpsc=1&token=${token}`);
    expect(html).toContain('window.cartReturnUrl');
    const viaScript = formFields(html);
    viaScript.set('cartReturnUrl', 'https://cart.example/back');
    const redirected = await save(h, viaScript);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('Location')).toMatch(/^https:\/\/cart\.example\/back\?productid=\d+$/);
    const plain = await save(h, formFields(html));
    expect(plain.status).toBe(200);
    expect(await plain.text()).toMatch(/A5 flyer is saved as project \d+\./);
  });

  it('R14 editing a saved project saves a new version under a new product id', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const { res, html } = await openEditor(h, `productid=3001&tpsc=1&token=${token}`);
    expect(res.status).toBe(200);
    expect(html).toContain('value="Head of Procurement"');
    const fields = formFields(html);
    fields.set('cru', 'https://gateway.example/r');
    const saved = await save(h, fields);
    const newId = Number(new URL(saved.headers.get('Location')!).searchParams.get('productid'));
    expect(newId).not.toBe(3001);
    expect(h.control.projects(201).map((p) => [p.id, p.name])).toEqual([
      [3001, 'Business cards - Jane Buyer'],
      [newId, 'Business cards - Jane Buyer'],
    ]);
  });

  it('R14 a save with a bad token is 403; a bad value comes back as the page with the error, saving nothing', async () => {
    const h = makeHarness();
    const token = await jane(h);
    const { html } = await openEditor(h, `productid=103&tpsc=1&token=${token}`);
    const fields = formFields(html);
    fields.set('token', '1'.repeat(64));
    expect((await save(h, fields)).status).toBe(403);
    const badSize = formFields(html);
    badSize.set('size.width', 'wide');
    const res = await save(h, badSize);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Width must be a number of inches');
    const notAForm = await h.app.request('/editor/online-editor/save', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(notAForm.status).toBe(400);
    expect(h.control.projects(201).map((p) => p.id)).toEqual([3001]);
  });
});

describe('sandbox editor host: thumbnails and proofs', () => {
  const thumb = async (h: Harness, query: string) => {
    const res = await h.app.request(`/editor/productthumb.ashx?${query}`);
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  const size = (png: Uint8Array) => {
    const view = new DataView(png.buffer, png.byteOffset);
    return [view.getUint32(16), view.getUint32(20)];
  };

  it('R15 productthumb.ashx returns a PNG that honours every parameter', async () => {
    const h = makeHarness();
    const base = await thumb(h, 'p=101&w=300&h=300');
    expect(base.res.status).toBe(200);
    expect(base.res.headers.get('Content-Type')).toBe('image/png');
    expect(size(base.bytes)).toEqual([300, 171]);
    expect(size((await thumb(h, 'p=101&w=300&h=300&fwnb=false')).bytes)).toEqual([300, 300]);
    expect(size((await thumb(h, 'p=101&h=100')).bytes)).toEqual([175, 100]);
    const variants = ['b=false', 'bw=6', 'bc=ff0000', 'fwnb=0&bm=1&bw=4', 'fwnb=0&fm=1', 'fwnb=0&fm=2'];
    const seen = new Set([Buffer.from(base.bytes).toString('base64')]);
    const fwnbOff = Buffer.from((await thumb(h, 'p=101&w=300&h=300&fwnb=0')).bytes).toString('base64');
    seen.add(fwnbOff);
    for (const variant of variants) {
      const { res, bytes } = await thumb(h, `p=101&w=300&h=300&${variant}`);
      expect(res.status, variant).toBe(200);
      const key = Buffer.from(bytes).toString('base64');
      expect(seen.has(key), variant).toBe(false);
      seen.add(key);
    }
    expect((await thumb(h, 'p=3001&w=120')).res.status).toBe(200);
  });

  it('R15 bad thumbnail parameters are 400 with a message; an unknown product is 404', async () => {
    const h = makeHarness();
    const cases: [string, string][] = [
      ['w=100', 'p is required: the product id'],
      ['p=abc', 'p must be a positive integer'],
      ['p=101&w=0', 'w must be a positive integer ≤ 4000'],
      ['p=101&bc=red', 'bc'],
      ['p=101&fm=3', 'fm'],
      ['p=101&b=maybe', 'b'],
    ];
    for (const [query, text] of cases) {
      const res = await h.app.request(`/editor/productthumb.ashx?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { Message: string };
      expect(body.Message, query).toContain(text);
    }
    const missing = await h.app.request('/editor/productthumb.ashx?p=424242');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ Message: 'Product 424242 not found.' });
  });

  it('R16 A07 download.ashx gives a PDF proof of a product or of a project the token user owns', async () => {
    const h = makeHarness();
    const token = await jane(h);
    for (const pid of ['101', '3001']) {
      const res = await h.app.request(`/editor/download.ashx?token=${token}&pid=${pid}`);
      expect(res.status, pid).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('application/pdf');
      expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename=proof-${pid}.pdf`);
      expect(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).subarray(0, 5))).toBe('%PDF-');
    }
    expect((await h.app.request(`/editor/download.ashx?token=${token}&pid=3002`)).status).toBe(404);
    expect((await h.app.request(`/editor/download.ashx?token=${'2'.repeat(64)}&pid=101`)).status).toBe(403);
    expect((await h.app.request(`/editor/download.ashx?token=${token}`)).status).toBe(400);
    expect((await h.app.request(`/editor/download.ashx?token=${token}&pid=x1`)).status).toBe(400);
    expect((await h.app.request('/editor/download.ashx?pid=101')).status).toBe(400);
  });

  it('A07 R19 the proof download refreshes the PIPO session like any call carrying the token', async () => {
    const h = makeHarness();
    const token = await jane(h);
    h.control.advanceClock(1700);
    expect((await h.app.request(`/editor/download.ashx?TOKEN=${token}&PID=101`)).status).toBe(200);
    h.control.advanceClock(1700);
    expect((await h.call('GET', '/api/v2/pipo/user/loggedin', { pipo: token })).status).toBe(200);
  });
});
