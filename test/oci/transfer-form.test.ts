import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildOciItems,
  encodeHtml,
  OCI_AUTO_SUBMIT_SCRIPT,
  OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE,
  type OciCartLine,
  type OciFormField,
  renderOciSearchResults,
  renderOciTransferForm,
} from '../../src/oci/index.ts';
import { decodeHtmlReferences, readForm, readOciItems } from '../support/html-form-reader.ts';

const HOOK = 'https://srm.example.com/sap/bc/gui/sap/its/bbpsc02/?sap-client=100&~OkCode=ADDI';
const line: OciCartLine = {
  lineRef: 'PG-7K2M9Q',
  sku: 'BC-85x55',
  description: 'Visitenkarten Müller & Söhne',
  quantity: 250,
  unitPrice: '0.12',
  currency: 'EUR',
  uom: 'PCE',
};
const ECHO: OciFormField[] = [
  ['~OkCode', 'ADDI'],
  ['~TARGET', '_top'],
  ['~CALLER', 'CTLG'],
  ['returntarget', '_parent'],
];

describe('renderOciTransferForm', () => {
  it('renders the whole page', () => {
    const page = renderOciTransferForm({
      hookUrl: HOOK,
      fields: [['NEW_ITEM-DESCRIPTION[1]', 'Flyer']],
      echoFields: [['~OkCode', 'ADDI']],
      charset: 'utf-8',
      target: '_parent',
      autoSubmit: true,
    });
    expect(page).toBe(
      [
        '<!DOCTYPE html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="UTF-8">',
        '<meta name="referrer" content="origin">',
        '<meta name="robots" content="noindex">',
        '<title>Returning your cart</title>',
        '</head>',
        '<body>',
        '<p>Your cart is being returned to your procurement system. If nothing happens, press the button.</p>',
        '<form id="oci-transfer" method="post" action="https://srm.example.com/sap/bc/gui/sap/its/bbpsc02/?sap-client=100&amp;~OkCode=ADDI" accept-charset="UTF-8" target="_parent">',
        '<input type="hidden" name="NEW_ITEM-DESCRIPTION[1]" value="Flyer">',
        '<input type="hidden" name="~OkCode" value="ADDI">',
        '<button type="submit">Return cart</button>',
        '</form>',
        `<script>${OCI_AUTO_SUBMIT_SCRIPT}</script>`,
        '</body>',
        '</html>',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['utf-8', 'UTF-8'],
    ['iso-8859-1', 'ISO-8859-1'],
    ['windows-1252', 'windows-1252'],
  ] as const)('declares %s in <meta charset> and accept-charset', (charset, label) => {
    const page = renderOciTransferForm({ hookUrl: HOOK, fields: [], charset, autoSubmit: false });
    expect(page).toContain(`<meta charset="${label}">`);
    expect(readForm(page).attributes['accept-charset']).toBe(label);
    expect(page.indexOf('<meta charset')).toBeLessThan(1024);
  });

  it('posts to HOOK_URL exactly, in the _top frame unless told otherwise', () => {
    const hookUrl = 'https://srm.example.com/its/?~state=a%2Fb&x="y"&z=<1>';
    const { attributes } = readForm(
      renderOciTransferForm({ hookUrl, fields: [], charset: 'utf-8', autoSubmit: false }),
    );
    expect(attributes).toEqual({
      id: 'oci-transfer',
      method: 'post',
      action: hookUrl,
      'accept-charset': 'UTF-8',
      target: '_top',
    });
    const blank = renderOciTransferForm({
      hookUrl,
      fields: [],
      charset: 'utf-8',
      autoSubmit: false,
      target: '  ',
    });
    expect(readForm(blank).attributes.target).toBe('_top');
  });

  it('escapes every name, value and attribute', () => {
    const nasty = `"><script>alert('x')</script>&amp;`;
    const page = renderOciTransferForm({
      hookUrl: `https://srm.example.com/?a="b"&c='d'<e>`,
      fields: [[`NEW_ITEM-${nasty}[1]`, nasty]],
      echoFields: [['~TARGET', nasty]],
      charset: 'utf-8',
      target: nasty,
      autoSubmit: true,
      scriptNonce: nasty,
      labels: { title: nasty, notice: nasty, submit: nasty },
      lang: nasty,
    });
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain(`'x'`);
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;"');
    expect(page).toContain('action="https://srm.example.com/?a=&quot;b&quot;&amp;c=&#39;d&#39;&lt;e&gt;"');
    const form = readForm(page);
    expect(form.inputs).toEqual([
      [`NEW_ITEM-${nasty}[1]`, nasty],
      ['~TARGET', nasty],
    ]);
    expect(form.attributes.target).toBe(nasty);
  });

  it('keeps line breaks of values as character references', () => {
    const page = renderOciTransferForm({
      hookUrl: HOOK,
      fields: [['NEW_ITEM-LONGTEXT_1:132[]', 'a\r\nb\nc']],
      charset: 'utf-8',
      autoSubmit: false,
    });
    expect(page).toContain('value="a&#13;&#10;b&#10;c"');
  });

  it('parses back to the fields and echo fields it was given, in order', () => {
    const fields = buildOciItems(
      [
        { ...line, longText: 'Papier: 350 g/m² „matt“\nDruck: 4/4 <CMYK> & Lack' },
        { ...line, lineRef: 'L2', description: 'Roll-up "Messe" 85 x 200 cm – mit Tasche', quantity: 1.5 },
      ],
      { charset: 'utf-8' },
    );
    const form = readForm(
      renderOciTransferForm({ hookUrl: HOOK, fields, echoFields: ECHO, charset: 'utf-8', autoSubmit: true }),
    );
    expect(form.inputs).toEqual([...fields, ...ECHO]);
    const items = readOciItems(form.inputs);
    expect([...items.keys()]).toEqual([1, 2]);
    expect(items.get(1)?.get('LONGTEXT')).toBe('Papier: 350 g/m² „matt“\nDruck: 4/4 <CMYK> & Lack');
    expect(items.get(2)?.get('DESCRIPTION')).toBe('Roll-up "Messe" 85 x 200 cm – mit Tasche');
    expect(items.get(2)?.get('QUANTITY')).toBe('1.5');
  });

  it('parses back any values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' })), {
          maxLength: 8,
        }),
        fc.string({ unit: 'grapheme' }),
        (fields, hookUrl) => {
          const form = readForm(
            renderOciTransferForm({ hookUrl, fields, charset: 'utf-8', autoSubmit: false }),
          );
          expect(form.inputs).toEqual(fields);
          expect(form.attributes.action).toBe(hookUrl);
        },
      ),
    );
  });

  it('has no inline event handlers or styles, so a hash-only CSP suffices', () => {
    const page = renderOciTransferForm({
      hookUrl: HOOK,
      fields: [['a', 'b']],
      charset: 'utf-8',
      autoSubmit: true,
    });
    expect(page).not.toMatch(/\son[a-z]+=/i);
    expect(page).not.toMatch(/\sstyle=|<style/i);
    expect(page.match(/<script[^>]*>([\s\S]*?)<\/script>/g)).toEqual([
      `<script>${OCI_AUTO_SUBMIT_SCRIPT}</script>`,
    ]);
  });

  it('exports the CSP hash of the auto-submit script', async () => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(OCI_AUTO_SUBMIT_SCRIPT));
    const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
    expect(OCI_AUTO_SUBMIT_SCRIPT_CSP_SOURCE).toBe(`'sha256-${base64}'`);
  });

  it('omits the script without auto-submit and adds a nonce when given one', () => {
    const base = { hookUrl: HOOK, fields: [], charset: 'utf-8' } as const;
    expect(renderOciTransferForm({ ...base, autoSubmit: false })).not.toContain('<script');
    expect(renderOciTransferForm({ ...base, autoSubmit: true, scriptNonce: 'n0nce' })).toContain(
      `<script nonce="n0nce">${OCI_AUTO_SUBMIT_SCRIPT}</script>`,
    );
  });

  it('keeps the submit button inside the form for browsers without scripts', () => {
    const page = renderOciTransferForm({ hookUrl: HOOK, fields: [], charset: 'utf-8', autoSubmit: true });
    expect(/<form[^>]*>[\s\S]*<button type="submit">Return cart<\/button>\n<\/form>/.test(page)).toBe(true);
  });

  it('takes other labels and language', () => {
    const page = renderOciTransferForm({
      hookUrl: HOOK,
      fields: [],
      charset: 'utf-8',
      autoSubmit: false,
      lang: 'de',
      labels: { submit: 'Warenkorb übernehmen' },
    });
    expect(page).toContain('<html lang="de">');
    expect(page).toContain('<button type="submit">Warenkorb übernehmen</button>');
    expect(page).toContain('<title>Returning your cart</title>');
  });
});

describe('a Latin-1 transfer end to end', () => {
  it('encodes the page in ISO-8859-1 with transliterated values that a Latin-1 parser reads back', () => {
    const fields = buildOciItems([{ ...line, description: 'Grüße für 5 € – „Premium“' }], {
      charset: 'iso-8859-1',
    });
    const page = renderOciTransferForm({ hookUrl: HOOK, fields, charset: 'iso-8859-1', autoSubmit: true });
    const bytes = encodeHtml(page, 'iso-8859-1');
    expect(bytes.every((b) => b < 0x80 || b >= 0xa0)).toBe(true);
    const decoded = new TextDecoder('iso-8859-1').decode(bytes);
    expect(decoded).toBe(page);
    expect(readOciItems(readForm(decoded).inputs).get(1)?.get('DESCRIPTION')).toBe(
      'Grüße für 5 EUR - "Premium"',
    );
    // ü travels as the single Latin-1 byte, never as UTF-8's C3 BC.
    expect(bytes.includes(0xfc) && !bytes.includes(0xc3)).toBe(true);
  });
});

describe('encodeHtml', () => {
  it('encodes UTF-8 with TextEncoder', () => {
    expect([...encodeHtml('ü€', 'utf-8')]).toEqual([0xc3, 0xbc, 0xe2, 0x82, 0xac]);
  });

  it('writes Latin-1 bytes and references for what ISO-8859-1 lacks', () => {
    expect(new TextDecoder('ascii').decode(encodeHtml('a€😀\u0085', 'iso-8859-1'))).toBe(
      'a&#8364;&#128512;&#133;',
    );
    expect([...encodeHtml('üß\u00a0ÿ', 'iso-8859-1')]).toEqual([0xfc, 0xdf, 0xa0, 0xff]);
  });

  it('writes windows-1252 bytes for its punctuation', () => {
    expect([...encodeHtml('€„“–™Ÿ', 'windows-1252')]).toEqual([0x80, 0x84, 0x93, 0x96, 0x99, 0x9f]);
    expect(new TextDecoder('ascii').decode(encodeHtml('Ω', 'windows-1252'))).toBe('&#937;');
  });

  it('round-trips any text through the windows-1252 decoder and an HTML parser', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        for (const charset of ['iso-8859-1', 'windows-1252'] as const) {
          const html = text.replace(/&/g, '&amp;');
          const decoded = decodeHtmlReferences(
            new TextDecoder('windows-1252').decode(encodeHtml(html, charset)),
          );
          expect(decoded).toBe(text);
        }
      }),
    );
  });
});

describe('renderOciSearchResults', () => {
  const hits: OciCartLine[] = [
    { ...line, lineRef: 'S1', description: 'Flyer A5 <matt> & "glänzend"' },
    { ...line, lineRef: 'S2', sku: 'FL-A6', description: 'Flyer A6', unitPrice: '0.05' },
  ];

  it('renders every hit as NEW_ITEM inputs of a form that is never submitted by itself', () => {
    const fields = buildOciItems(hits, { charset: 'utf-8' });
    const page = renderOciSearchResults({
      hookUrl: HOOK,
      fields,
      charset: 'utf-8',
      searchString: 'flyer <a5>',
      echoFields: ECHO,
    });
    expect(page).not.toContain('<script');
    const form = readForm(page);
    expect(form.inputs).toEqual([...fields, ...ECHO]);
    expect(form.attributes).toMatchObject({
      method: 'post',
      action: HOOK,
      target: '_top',
      'accept-charset': 'UTF-8',
    });
    expect(page).toContain('<caption>flyer &lt;a5&gt; (2)</caption>');
    expect(page).toContain(
      '<tr><td>Flyer A5 &lt;matt&gt; &amp; &quot;glänzend&quot;</td><td>BC-85x55</td><td>250</td><td>PCE</td><td>0.12</td><td>EUR</td></tr>',
    );
    expect(page).toContain('<button type="submit">Transfer these items</button>');
  });

  it('renders an empty result as an empty form', () => {
    const page = renderOciSearchResults({
      hookUrl: HOOK,
      fields: [],
      charset: 'iso-8859-1',
      searchString: 'nichts',
    });
    expect(readForm(page).inputs).toEqual([]);
    expect(page).toContain('<caption>nichts (0)</caption>');
    expect(page).toContain('<meta charset="ISO-8859-1">');
  });
});
