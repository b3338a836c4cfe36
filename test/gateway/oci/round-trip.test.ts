import { describe, expect, it } from 'vitest';
import { findLinks } from '../../support/html-forms.ts';
import { designProduct } from '../../support/punchout-flow.ts';
import { GATEWAY_ORIGIN, type Stack, testConfig } from '../../support/stack.ts';
import {
  createOciStack,
  cspOf,
  loadPunchIn,
  ociFormOf,
  pressButton,
  readRawPage,
  sendPunchIn,
} from './oci-http.ts';

const LINE_REF = expect.stringMatching(/^L-[0-9A-HJKMNP-TV-Z]{8}$/);
/** A designed line's DESCRIPTION: the configured product name and the design's label. */
const designOf = (productName: string) =>
  expect.stringMatching(new RegExp(`^${productName.replace(/[.()]/g, '\\$&')} \\(design \\d+\\)$`));

interface Style {
  name: string;
  buyer: string;
  fixture: string;
  /** Products designed, in order, by their catalog names. */
  products: string[];
  charset: 'UTF-8' | 'ISO-8859-1';
  hookUrl: string;
  target: string;
  echo: [string, string][];
  frameAncestors: string;
  /** The key the buyer's user gets (which print account the designs land in). */
  userKey: string;
  items: Record<string, string>[];
}

const businessCards = {
  DESCRIPTION: designOf('Business cards'),
  QUANTITY: '100',
  PRICE: '0.12',
  PRICEUNIT: '1',
  CURRENCY: 'USD',
  LEADTIME: '5',
  VENDORMAT: 'BC-STD',
  EXT_PRODUCT_ID: LINE_REF,
  EXT_SCHEMA_TYPE: 'UNSPSC',
  EXT_CATEGORY_ID: '82121512',
};

const STYLES: Style[] = [
  {
    name: 'SAP SRM 7 (urlencoded POST, returntarget=_parent, ~OkCode=ADDI)',
    buyer: 'sap1',
    fixture: 'srm7-post.json',
    products: ['Business cards', 'A5 flyer'],
    charset: 'UTF-8',
    hookUrl: 'https://srm.acme.example/sap/bc/gui/sap/its/bbpsc02/?sap-client=100&~OkCode=ADDI',
    target: '_parent',
    echo: [
      ['returntarget', '_parent'],
      ['~OkCode', 'ADDI'],
      ['~TARGET', '_top'],
      ['~CALLER', 'CTLG'],
    ],
    frameAncestors: "'self' srm.acme.example portal.acme.example",
    userKey: 'jdoe',
    items: [
      {
        ...businessCards,
        UNIT: 'ST',
        VENDOR: '0000100234',
        MANUFACTCODE: 'M-4711',
        CUST_FIELD1: 'KST-4711',
        CUST_FIELD3: 'PRINT',
      },
      {
        DESCRIPTION: designOf('A5 flyer'),
        QUANTITY: '1',
        UNIT: 'ST',
        PRICE: '0.35',
        PRICEUNIT: '1',
        CURRENCY: 'USD',
        LEADTIME: '3',
        VENDOR: '0000100234',
        VENDORMAT: 'FLY-A5',
        MANUFACTCODE: 'M-4711',
        EXT_PRODUCT_ID: LINE_REF,
        EXT_SCHEMA_TYPE: 'UNSPSC',
        EXT_CATEGORY_ID: '82121503',
        CUST_FIELD1: 'KST-4711',
        CUST_FIELD3: 'PRINT',
      },
    ],
  },
  {
    name: 'S/4HANA (GET, lower-case names, OCI 5.0, hook host with a port)',
    buyer: 's4',
    fixture: 's4hana-get.json',
    products: ['Business cards'],
    charset: 'UTF-8',
    hookUrl: 'https://s4.acme.example:44300/sap/bc/webdynpro/sap/mmpur_oci_return?sap-client=200',
    target: '_top',
    echo: [
      ['~okcode', 'ADDI'],
      ['~target', '_top'],
      ['~caller', 'CTLG'],
    ],
    frameAncestors: "'self' s4.acme.example:44300",
    userKey: 'mmuster',
    items: [{ ...businessCards, UNIT: 'EA' }],
  },
  {
    name: 'Odoo (multipart POST, no ~TARGET)',
    buyer: 'odoo',
    fixture: 'odoo-multipart.json',
    products: ['Business cards'],
    charset: 'UTF-8',
    hookUrl: 'https://odoo.example/edi_punchout/oci/return/7?token=4f9a2c',
    target: '_top',
    echo: [
      ['~OkCode', 'ADDI'],
      ['~CALLER', 'CTLG'],
    ],
    frameAncestors: "'self' odoo.example",
    userKey: 'buyer@odoo.example',
    items: [{ ...businessCards, UNIT: 'PCE' }],
  },
  {
    name: 'SAP ECC in ISO-8859-1 (Latin-1 escapes, ~Target spelling, HOOK_URL ending in ?~)',
    buyer: 'latin',
    fixture: 'latin1-post.json',
    products: ['Visitenkarten für Mitarbeiter'],
    charset: 'ISO-8859-1',
    hookUrl: 'https://sap.mueller.example/sap/bc/gui/sap/its/bbpsc02/?sap-client=300&~',
    target: '_top',
    echo: [
      ['~OkCode', 'ADDI'],
      ['~Target', '_top'],
      ['~Caller', 'CTLG'],
      ['~ForceTarget', 'Yes'],
    ],
    frameAncestors: "'self' sap.mueller.example",
    userKey: 'jmueller',
    items: [
      {
        // The storefront's product name and the design label pass SAP's 40 characters: the name is shortened,
        // never the label, and the whole name leads the long text.
        DESCRIPTION: expect.stringMatching(/^Visitenkarten für Mit[a-z]*\.\.\. \(design \d+\)$/),
        MATGROUP: 'DRUCK-01',
        QUANTITY: '250',
        UNIT: 'ST',
        PRICE: '0.11',
        PRICEUNIT: '1',
        CURRENCY: 'EUR',
        LEADTIME: '4',
        LONGTEXT:
          'Visitenkarten für Mitarbeiter\n85 × 55 mm, 350 g/m² matt, beidseitig bedruckt - Größe nach DIN, ab 0,08 EUR je Karte',
        VENDORMAT: 'VK-MATT',
        MANUFACTMAT: 'DD-VK-350',
        EXT_PRODUCT_ID: LINE_REF,
        EXT_SCHEMA_TYPE: 'UNSPSC',
        EXT_CATEGORY_ID: '82121512',
        CUST_FIELD5: 'Budget 500 EUR - Müller & Söhne',
      },
    ],
  },
];

/** Punches in with the style's fixture and lands on the catalog. */
async function punchInToCatalog(stack: Stack, style: Style) {
  const answer = await sendPunchIn(stack, style.buyer, loadPunchIn(style.fixture));
  expect(answer.status, await answer.clone().text()).toBe(303);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  const location = answer.headers.get('location') ?? '';
  expect(location.startsWith(`${GATEWAY_ORIGIN}/punchout/start/`)).toBe(true);
  const catalog = await stack.browse(location);
  expect(catalog.status).toBe(200);
  expect(catalog.text).toContain('Choose a product to design');
  expect(cspOf(catalog.headers)['frame-ancestors']).toBe(style.frameAncestors);
  return catalog;
}

describe('OCI punch-in → catalog → sandbox editor → cart → NEW_ITEM-* transfer', () => {
  it.each(STYLES)('$name', async (style) => {
    const stack = await createOciStack();
    let page = await punchInToCatalog(stack, style);
    for (const [i, product] of style.products.entries()) {
      if (i > 0) {
        const more = findLinks(page.text).find((link) => link.text === 'Add another product');
        page = await stack.browse(more?.href ?? '');
      }
      page = await designProduct(stack, page, product, { Name: 'Jürgen Müller' });
      expect(page.url).toMatch(/\/punchout\/s\/[^/]+\/cart$/);
    }

    const transfer = await pressButton(stack, page, 'Transfer cart to procurement system');
    expect(transfer.status).toBe(200);
    expect(transfer.headers.get('content-type')).toBe(`text/html; charset=${style.charset}`);
    expect(transfer.headers.get('cache-control')).toBe('no-store');
    const csp = cspOf(transfer.headers);
    expect(csp['frame-ancestors']).toBe(style.frameAncestors);
    expect(csp['form-action']).toBeUndefined();
    expect(csp['script-src']).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
    expect(transfer.text).toContain(`<meta charset="${style.charset}">`);

    const form = ociFormOf(transfer);
    expect(form.attributes).toMatchObject({
      method: 'post',
      action: style.hookUrl,
      target: style.target,
      'accept-charset': style.charset,
    });
    expect(Object.keys(form.items).map(Number)).toEqual(style.items.map((_, i) => i + 1));
    style.items.forEach((item, i) => {
      expect(form.items[i + 1], `item ${i + 1}`).toEqual(item);
    });
    // The `~` fields come back as received, after the items.
    expect(form.echo).toEqual(style.echo);
    expect(form.inputs.slice(-style.echo.length)).toEqual(style.echo);

    // Each EXT_PRODUCT_ID is a stored line of this buyer, in the print account of the punch-in's user.
    for (const item of Object.values(form.items)) {
      const line = await stack.store.cart.get(item.EXT_PRODUCT_ID ?? '');
      expect(line).toMatchObject({ buyerId: style.buyer, userRef: style.userKey, state: 'cart' });
    }
    expect(await stack.store.users.get(style.buyer, style.userKey)).toBeDefined();

    // The cart was handed over: its page now says so.
    const again = await stack.browse(page.url);
    expect(again.status).toBe(409);
  });

  it('the ISO-8859-1 transfer is Latin-1 bytes: ü is one byte 0xFC, € was written as EUR, nothing is UTF-8', async () => {
    const style = STYLES[3]!;
    const stack = await createOciStack();
    const catalog = await punchInToCatalog(stack, style);
    const cart = await designProduct(stack, catalog, 'Visitenkarten für Mitarbeiter');
    const transfer = await pressButton(stack, cart, 'Transfer cart to procurement system');

    const bytes = transfer.bytes;
    const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    const indexOfBytes = (needle: Uint8Array) =>
      bytes.findIndex((_, i) => needle.every((byte, j) => bytes[i + j] === byte));
    expect(indexOfBytes(latin1('Visitenkarten f\u00fcr Mitarbeiter'))).toBeGreaterThan(0);
    expect(indexOfBytes(latin1('Gr\u00f6\u00dfe'))).toBeGreaterThan(0);
    expect(indexOfBytes(latin1('M\u00fcller &amp; S\u00f6hne'))).toBeGreaterThan(0);
    expect(indexOfBytes(new TextEncoder().encode('ü'))).toBe(-1);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    expect(bytes.every((byte) => byte < 0x80 || byte >= 0xa0)).toBe(true);
    expect(transfer.text).not.toContain('€');
  });

  it('posts to the HOOK_URL stored at punch-in, whatever the transfer request carries', async () => {
    const style = STYLES[0]!;
    const stack = await createOciStack();
    const cart = await designProduct(stack, await punchInToCatalog(stack, style), 'Business cards');
    const action = /<form[^>]*action="([^"]*\/transfer)"/.exec(cart.text)?.[1] ?? '';
    const response = await stack.request(action, {
      method: 'POST',
      body: 'HOOK_URL=https%3A%2F%2Fevil.example%2F&returntarget=_blank&~TARGET=_blank',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const form = ociFormOf(await readRawPage(response));
    expect(form.attributes.action).toBe(style.hookUrl);
    expect(form.attributes.target).toBe('_parent');
    expect(form.echo).toEqual(style.echo);
  });
});

describe('a product priced per thousand', () => {
  it('is handed to SAP as PRICE per 1,000 with NEW_ITEM-PRICEUNIT 1000, never divided down', async () => {
    const base = testConfig();
    const config = {
      ...base,
      storefronts: base.storefronts.map((s) => ({
        ...s,
        products: s.products.map((p) =>
          p.sku === 'BC-STD' ? { ...p, priceUnit: 1000, prices: [{ minQuantity: 1, unitPrice: 123.45 }] } : p,
        ),
      })),
    };
    const stack = await createOciStack(config);
    const cart = await designProduct(stack, await punchInToCatalog(stack, STYLES[0]!), 'Business cards');
    // 100 × 123.45 ÷ 1,000 = 12.345 → 12.35, rounded once.
    expect(cart.text).toContain('123.45 USD / 1,000 EA');
    expect(cart.text).toContain('12.35');
    const form = ociFormOf(await pressButton(stack, cart, 'Transfer cart to procurement system'));
    expect(form.items[1]).toMatchObject({
      QUANTITY: '100',
      PRICE: '123.45',
      PRICEUNIT: '1000',
      CURRENCY: 'USD',
    });
  });
});
