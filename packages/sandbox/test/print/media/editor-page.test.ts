import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cspSourceHash,
  designFromProduct,
  EDITOR_PAGE_SCRIPT,
  EDITOR_PAGE_STYLE,
  type EditorPageInput,
  parseEditorSaveForm,
  renderEditorPage,
  renderEditorRedirect,
  renderEditorSavedPage,
} from '../../../src/print/media/index.ts';
import { banner, businessCard } from './sample-products.ts';

const hostile = '<script>alert(1)</script>';
const cardInput: EditorPageInput = {
  product: businessCard,
  design: designFromProduct(businessCard),
  token: 'a1b2c3',
  cru: 'https://gw.example/punchout/return?t=1&u=2',
  tags: { logo: 'false' },
  saveAction: '/editor/online-editor/save?s=abc',
  hiddenState: { session: 'sess-1' },
};

const decodeEntities = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]!) : undefined;
};

/** What a browser posts for the page's form: inputs in document order, ticked boxes, selected options. */
function submittedFields(html: string): URLSearchParams {
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
  const fields = new URLSearchParams();
  for (const match of form.matchAll(/<input\b[^>]*>|<select\b[^>]*>[\s\S]*?<\/select>/g)) {
    const tag = match[0];
    const name = attribute(tag, 'name');
    if (name === undefined) continue;
    if (tag.startsWith('<select')) {
      const selected = /<option value="([^"]*)"[^>]*\sselected/.exec(tag);
      fields.append(name, decodeEntities(selected![1]!));
    } else if (attribute(tag, 'type') !== 'checkbox' || /\schecked/.test(tag)) {
      fields.append(name, attribute(tag, 'value') ?? '');
    }
  }
  return fields;
}

describe('renderEditorPage', () => {
  it('escapes every value it writes', () => {
    const product = { ...businessCard, name: hostile, palette: { [hostile]: '#000000' } };
    const html = renderEditorPage({
      ...cardInput,
      product,
      design: {
        ...designFromProduct(product),
        textFields: [{ name: hostile, value: '"><img src=x onerror=alert(1)>' }],
      },
      token: 'to"ken',
      saveAction: '/save?a="b"',
      hiddenState: { state: '</form><script>x</script>' },
      errorMessage: hostile,
    });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>x');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('<title>Design &lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
    expect(html).toContain('name="token" value="to&quot;ken"');
    expect(html).toContain('action="/save?a=&quot;b&quot;"');
    expect(html).toContain('<p class="error" role="alert">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('carries the only script and style, with the nonce when given', () => {
    const html = renderEditorPage({ ...cardInput, cspNonce: 'n0nce' });
    expect(html).toContain(`<script nonce="n0nce">${EDITOR_PAGE_SCRIPT}</script>`);
    expect(html).toContain(`<style nonce="n0nce">${EDITOR_PAGE_STYLE}</style>`);
    expect(renderEditorPage(cardInput)).toContain(`<script>${EDITOR_PAGE_SCRIPT}</script>`);
    expect(() => new Function(EDITOR_PAGE_SCRIPT)).not.toThrow();
    expect(html).not.toMatch(/\sstyle="/);
    expect(html).not.toMatch(/\s(src|href)="/);
  });

  it('posts to saveAction with token, cru, the empty cartReturnUrl, monitored tags and the route state', () => {
    const html = renderEditorPage(cardInput);
    expect(html).toContain('<form id="design-form" method="post" action="/editor/online-editor/save?s=abc">');
    const fields = submittedFields(html);
    expect(fields.get('token')).toBe('a1b2c3');
    expect(fields.get('cru')).toBe('https://gw.example/punchout/return?t=1&u=2');
    expect(fields.get('cartReturnUrl')).toBe('');
    expect(fields.getAll('monitoredTag')).toEqual(['logo']);
    expect(fields.get('session')).toBe('sess-1');
    expect(html).toContain('<button type="submit">Save design</button>');
  });

  it('labels a text input per text field and a control per image item tag', () => {
    const html = renderEditorPage(cardInput);
    expect(html).toContain(
      '<label for="field-text-0">Name<input type="text" id="field-text-0" name="text.Name" value="Ada Lovelace"',
    );
    expect(html).toContain(
      '<label for="field-text-1">Title<input type="text" id="field-text-1" name="text.Title"',
    );
    // The query's logo=false overrides the template's true.
    expect(html).toMatch(
      /<input type="checkbox" id="field-tag-0" name="tag.logo" value="true" data-preview="preview-image-0">/,
    );
    expect(html).toContain(
      '<label for="field-tag-1">Image for photo<select id="field-tag-1" name="tag.photo"',
    );
    expect([...html.matchAll(/<option value="(\d+)"/g)].map((match) => match[1])).toEqual(['12', '13', '14']);
    expect(html).toMatch(/<option value="12" data-color="#[0-9A-F]{6}" selected>Image 12<\/option>/);
    expect(html).toContain('name="tag.scheme" value="Ink,Ink" aria-describedby="field-tag-2-help"');
    expect(html).toContain('Palette: Paper, Ink, Accent, Brand Gold.');
  });

  it('offers size inputs only for a custom-size product, starting from s', () => {
    expect(renderEditorPage(cardInput)).not.toContain('size.width');
    const html = renderEditorPage({
      ...cardInput,
      product: banner,
      design: designFromProduct(banner),
      size: { widthIn: 8.5, heightIn: 11 },
      tags: {},
    });
    expect(html).toContain('name="size.width" value="8.50"');
    expect(html).toContain('name="size.height" value="11.00"');
    expect(html).toContain('viewBox="0 0 612.00 792.00"');
  });

  it('draws the preview as inline SVG the script can update', () => {
    const html = renderEditorPage(cardInput);
    expect(html).toContain('<text id="preview-text-0"');
    expect(html).toContain('>Ada Lovelace</text>');
    expect(html).toMatch(/<rect id="preview-image-0" [^>]*visibility="hidden"\/>/);
    expect(html).toMatch(/<rect id="preview-image-1" [^>]*visibility="visible"\/>/);
  });

  it('refuses route state whose names collide with the form', () => {
    for (const name of [
      'token',
      'cru',
      'cartReturnUrl',
      'monitoredTag',
      'text.Name',
      'tag.logo',
      'size.width',
    ]) {
      expect(() => renderEditorPage({ ...cardInput, hiddenState: { [name]: 'x' } })).toThrow(TypeError);
    }
  });
});

describe('parseEditorSaveForm', () => {
  const design = designFromProduct(businessCard);

  it('reads back exactly what the page posts', () => {
    const fields = submittedFields(renderEditorPage(cardInput));
    expect(parseEditorSaveForm(fields, businessCard, design)).toEqual({
      ok: true,
      value: {
        token: 'a1b2c3',
        returnUrl: 'https://gw.example/punchout/return?t=1&u=2',
        design: { ...design, tags: { logo: 'false', photo: '12', scheme: 'Ink,Ink' } },
        returnTags: { logo: 'false' },
      },
    });
  });

  it('takes edits: text, ticked box, swapped image, colour map, custom size', () => {
    const fields = submittedFields(
      renderEditorPage({ ...cardInput, product: banner, design: designFromProduct(banner), tags: {} }),
    );
    fields.set('text.Headline', 'Now open');
    fields.set('size.width', '8.5');
    fields.set('size.height', '11');
    const result = parseEditorSaveForm(fields, banner, designFromProduct(banner));
    expect(result.ok && result.value.design).toMatchObject({
      widthIn: 8.5,
      heightIn: 11,
      textFields: [{ name: 'Headline', value: 'Now open' }],
    });

    const card = submittedFields(renderEditorPage(cardInput));
    card.append('tag.logo', 'true'); // the ticked checkbox follows its hidden false
    card.set('tag.photo', '14');
    card.set('tag.scheme', 'Paper,#000000');
    const saved = parseEditorSaveForm(card, businessCard, design);
    expect(saved.ok && saved.value.design.tags).toEqual({
      logo: 'true',
      photo: '14',
      scheme: 'Paper,#000000',
    });
    expect(saved.ok && saved.value.returnTags).toEqual({ logo: 'true' });
  });

  it('prefers the cartReturnUrl the page script copied from window.cartReturnUrl over cru', () => {
    const fields = submittedFields(renderEditorPage(cardInput));
    fields.set('cartReturnUrl', 'https://buyer.example/cart');
    const result = parseEditorSaveForm(fields, businessCard, design);
    expect(result.ok && result.value.returnUrl).toBe('https://buyer.example/cart');
    const { cru: _cru, ...withoutCru } = cardInput;
    const withoutAny = submittedFields(renderEditorPage(withoutCru));
    const none = parseEditorSaveForm(withoutAny, businessCard, design);
    expect(none.ok && 'returnUrl' in none.value).toBe(false);
  });

  it.each([
    [(f: URLSearchParams) => f.delete('token'), 'missing_parameter', 'token', 'token is required'],
    [
      (f: URLSearchParams) => f.set('cartReturnUrl', 'javascript:alert(1)'),
      'invalid_url',
      'cartReturnUrl',
      'cartReturnUrl must be an absolute http or https URL',
    ],
    [
      (f: URLSearchParams) => f.set('cru', 'data:text/html,x'),
      'invalid_url',
      'cru',
      'cru must be an absolute http or https URL',
    ],
    [
      (f: URLSearchParams) => f.delete('text.Title'),
      'missing_parameter',
      'text.Title',
      'Title is missing from the form',
    ],
    [
      (f: URLSearchParams) => f.set('text.Name', 'x'.repeat(501)),
      'invalid_text',
      'text.Name',
      'Name must be at most 500 characters',
    ],
    [
      (f: URLSearchParams) => f.delete('tag.photo'),
      'missing_parameter',
      'tag.photo',
      'photo is missing from the form',
    ],
    [
      (f: URLSearchParams) => f.set('tag.logo', 'maybe'),
      'invalid_boolean',
      'tag.logo',
      'tag.logo must be true or false',
    ],
    [
      (f: URLSearchParams) => f.set('tag.photo', '1.5'),
      'invalid_integer',
      'tag.photo',
      'tag.photo must be a positive integer image id',
    ],
    [
      (f: URLSearchParams) => f.set('tag.scheme', 'Ink,Chartreuse'),
      'invalid_color',
      'tag.scheme',
      'tag.scheme: "Chartreuse" is neither a 6-digit RGB hex code nor a palette colour',
    ],
    [
      (f: URLSearchParams) => f.append('monitoredTag', 'ghost'),
      'invalid_choice',
      'monitoredTag',
      'ghost is not an image item tag of the product',
    ],
  ])('refuses a form changed by %s with %s on %s', (change, code, parameter, message) => {
    const fields = submittedFields(renderEditorPage(cardInput));
    change(fields);
    const result = parseEditorSaveForm(fields, businessCard, design);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.toJSON()).toEqual({ code, parameter, message });
  });

  it.each([
    ['size.width', '0', 'Width'],
    ['size.width', '8.505', 'Width'],
    ['size.height', '', 'Height'],
    ['size.height', '1000', 'Height'],
  ])('refuses %s=%j on a custom-size product', (name, value, side) => {
    const fields = submittedFields(
      renderEditorPage({ ...cardInput, product: banner, design: designFromProduct(banner), tags: {} }),
    );
    fields.set(name, value);
    const result = parseEditorSaveForm(fields, banner, designFromProduct(banner));
    expect(!result.ok && result.error.toJSON()).toEqual({
      code: 'invalid_size',
      parameter: name,
      message: `${side} must be a number of inches from 0.01 to 999.99 with at most two decimals`,
    });
  });
});

describe('the other editor pages', () => {
  it('redirects to the cart return URL with a meta refresh and a link, escaped', () => {
    const html = renderEditorRedirect("https://gw.example/r?a=1&b=it's&productid=9");
    expect(html).toContain(
      `<meta http-equiv="refresh" content="0; url='https://gw.example/r?a=1&amp;b=it%27s&amp;productid=9'">`,
    );
    expect(html).toContain(
      '<a href="https://gw.example/r?a=1&amp;b=it%27s&amp;productid=9">Return to your cart</a>',
    );
    expect(html).not.toContain('<script');
  });

  it('refuses to redirect anywhere but http(s)', () => {
    expect(() => renderEditorRedirect('javascript:alert(1)')).toThrow(TypeError);
  });

  it('confirms a save without a return URL, escaped', () => {
    const html = renderEditorSavedPage({ productName: hostile, projectId: 9001 });
    expect(html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt; is saved as project 9001.</p>');
  });

  it('gives CSP hashes of the inline script and style', async () => {
    const expected = `'sha256-${createHash('sha256').update(EDITOR_PAGE_SCRIPT).digest('base64')}'`;
    expect(await cspSourceHash(EDITOR_PAGE_SCRIPT)).toBe(expected);
    expect(await cspSourceHash(EDITOR_PAGE_STYLE)).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
  });
});
