/**
 * A session's language end to end, in process: the pages a German or French punch-out shows, and the cart
 * it hands back — cXML Descriptions in the language actually sent and labelled so (a product without a
 * translation goes out in the storefront's English, labelled as such), OCI NEW_ITEM-DESCRIPTION and long
 * text in the session's language — while every machine-read value keeps the wire format.
 */
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import { findLinks } from '../../support/html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
} from '../../support/punchout-flow.ts';
import { type BrowserResponse, createStack, type Stack, testConfig } from '../../support/stack.ts';
import { getPunchIn, ociFormOf, pressButton } from '../oci/oci-http.ts';

const NBSP = '\u00a0';

/** The test config with German and French texts for the business cards only. */
function configWithTranslations(): GatewayConfigInput {
  const base = testConfig();
  return {
    ...base,
    storefronts: base.storefronts.map((storefront) =>
      storefront.id !== 'demo'
        ? storefront
        : {
            ...storefront,
            products: storefront.products.map((product) =>
              product.sku !== 'BC-STD'
                ? product
                : {
                    ...product,
                    description: '85 × 55 mm, printed both sides',
                    translations: {
                      de: { name: 'Visitenkarten', description: '85 × 55 mm, beidseitig bedruckt' },
                      fr: { name: 'Cartes de visite' },
                    },
                  },
            ),
          },
    ),
  };
}

const ARIBA_SETUP = readFileSync(
  new URL('../../../fixtures/cxml/valid/setup-request.ariba-multi-credential.xml', import.meta.url),
  'utf8',
);
/** The Ariba-style setup with its root `xml:lang` (the first in the document) set to `lang`, or removed. */
const setupIn = (lang: string | undefined) =>
  ARIBA_SETUP.replace(' xml:lang="en"', lang === undefined ? '' : ` xml:lang="${lang}"`);

const reader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => ['ItemIn', 'Extrinsic'].includes(name),
});

function designIdOf(item: { ItemDetail: { Extrinsic: { '@name': string; '#text': string }[] } }): string {
  return item.ItemDetail.Extrinsic.find((e) => e['@name'] === 'designId')?.['#text'] ?? '';
}

async function addAnother(stack: Stack, cart: BrowserResponse, label: string): Promise<BrowserResponse> {
  const link = findLinks(cart.text).find((l) => l.text === label);
  expect(link, `an "${label}" link`).toBeDefined();
  return stack.browse(link?.href ?? '');
}

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

describe('a cXML punch-out whose setup says xml:lang="de-DE"', () => {
  it('shows German pages with German numbers and sends German descriptions labelled de, the rest as English', async () => {
    const stack = await createStack(configWithTranslations());
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupIn('de-DE'))));
    expect(catalog.status).toBe(200);
    expect(catalog.text).toContain('<html lang="de">');
    expect(catalog.text).toContain('<h1>Wählen Sie ein Produkt zum Gestalten</h1>');
    expect(catalog.text).toContain('<h2>Visitenkarten</h2>');
    expect(catalog.text).toContain('<p class="muted">85 × 55 mm, beidseitig bedruckt</p>');
    expect(catalog.text).toContain(`<p class="price">100+ 0,12${NBSP}$, 500+ 0,09${NBSP}$ / EA</p>`);
    // A product without a translation keeps its own name among the German words.
    expect(catalog.text).toContain('>A5 flyer gestalten</a>');
    // The German name finds the product.
    const search = await stack.browse(catalog.url.replace(/catalog$/, 'catalog?q=visitenkarten'));
    expect(search.text).toContain('<p class="notice" role="status">1 Produkt passt zu „visitenkarten“.</p>');
    expect(search.text).toContain('<h2>Visitenkarten</h2>');

    let cart = await designProduct(stack, catalog, 'Visitenkarten', {}, 'Visitenkarten gestalten');
    cart = await designProduct(
      stack,
      await addAnother(stack, cart, 'Weiteres Produkt hinzufügen'),
      'A5 flyer',
      {},
      'A5 flyer gestalten',
    );
    expect(cart.text).toContain('<h1>Ihr Warenkorb</h1>');
    expect(cart.text).toContain(
      `Mengen 100 bis 100.000 EA · Staffelpreise 100+ 0,12${NBSP}$, 500+ 0,09${NBSP}$`,
    );
    expect(cart.text).toContain(
      `<th colspan="4" class="num">Warenkorb gesamt</th><th class="num">12,35${NBSP}$</th>`,
    );
    // The quantity inputs keep the wire format: a browser reads "100", never "100" grouped.
    expect(cart.text).toMatch(/name="quantity" min="100" max="100000" step="1" value="100"/);

    const transfer = await clickButton(stack, cart, 'Warenkorb an das Beschaffungssystem übertragen');
    expect(transfer.text).toContain('<h1>Ihr Warenkorb wird an Ihr Beschaffungssystem gesendet …</h1>');
    const poom = cxmlFromForm(returnFormOf(transfer));
    expect(validateAgainstDtd(poom, 'cXML')).toEqual({ ok: true, messages: '' });
    const doc = reader.parse(poom).cXML;
    // The document's own language is the storefront's; only the translated line says otherwise.
    expect(doc['@xml:lang']).toBe('en-US');
    const [cards, flyer] = doc.Message.PunchOutOrderMessage.ItemIn;
    expect(cards.ItemDetail.Description).toEqual({
      '#text': `Visitenkarten (Entwurf ${designIdOf(cards)})`,
      '@xml:lang': 'de',
    });
    expect(flyer.ItemDetail.Description).toEqual({
      '#text': `A5 flyer (design ${designIdOf(flyer)})`,
      '@xml:lang': 'en-US',
    });
    expect(cards.ItemDetail.UnitPrice.Money).toEqual({ '#text': '0.12', '@currency': 'USD' });
    expect(doc.Message.PunchOutOrderMessage.PunchOutOrderMessageHeader.Total.Money['#text']).toBe('12.35');
  });
});

describe('a cXML setup that names no language', () => {
  it("takes the browser's Accept-Language at the start page and keeps it for the session's later pages", async () => {
    const stack = await createStack(configWithTranslations());
    const start = startUrlOf(await stack.postCxml(setupIn(undefined)));
    const catalog = await stack.browse(start, {
      headers: { 'Accept-Language': 'fr-CH, fr;q=0.9, en;q=0.5' },
    });
    expect(catalog.text).toContain('<html lang="fr">');
    expect(catalog.text).toContain('<h2>Cartes de visite</h2>');
    // The next page is asked for without the header (a procurement frame may not send it): still French.
    const cart = await stack.browse(catalog.text.match(/href="([^"]+\/cart)"/)?.[1] ?? '');
    expect(cart.text).toContain('<html lang="fr">');
    expect(cart.text).toContain('<p class="notice">Votre panier est vide.</p>');
  });

  it("falls back to the buyer's configured language when the browser names none it has, malformed or not", async () => {
    const base = configWithTranslations();
    const config = {
      ...base,
      buyers: base.buyers.map((b) => (b.id === 'acme' ? { ...b, language: 'de' } : b)),
    };
    const stack = await createStack(config);
    const start = startUrlOf(await stack.postCxml(setupIn('ja-JP')));
    const catalog = await stack.browse(start, { headers: { 'Accept-Language': 'zh;q=abc,,;;' } });
    expect(catalog.status).toBe(200);
    expect(catalog.text).toContain('<html lang="de">');
  });
});

describe('an OCI punch-in with a language field', () => {
  const punchIn = (stack: Stack, language: Record<string, string>) =>
    getPunchIn(stack, 'sap1', {
      USERNAME: 'sap1',
      PASSWORD: 'sap1-secret',
      HOOK_URL: 'https://srm.acme.example/sap/bc/hook',
      '~OkCode': 'ADDI',
      ...language,
    });

  it("sap-language=D: German pages, and the cart's NEW_ITEM-DESCRIPTION and long text in German", async () => {
    const stack = await createStack(configWithTranslations());
    const answer = await punchIn(stack, { 'sap-language': 'D' });
    expect(answer.status).toBe(303);
    const catalog = await stack.browse(answer.headers.get('location') ?? '', {
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(catalog.text).toContain('<html lang="de">');
    expect(catalog.text).toContain('<h2>Visitenkarten</h2>');
    const cart = await designProduct(stack, catalog, 'Visitenkarten', {}, 'Visitenkarten gestalten');
    const transfer = await pressButton(stack, cart, 'Warenkorb an das Beschaffungssystem übertragen');
    expect(transfer.text).toContain('<html lang="de">');
    expect(transfer.text).toContain('Ihr Warenkorb wird übertragen');
    const { items } = ociFormOf(transfer);
    const line = await stack.store.cart.get(items[1]?.EXT_PRODUCT_ID ?? '');
    expect(items[1]).toMatchObject({
      DESCRIPTION: `Visitenkarten (Entwurf ${line?.designId})`,
      LONGTEXT: '85 × 55 mm, beidseitig bedruckt',
      PRICE: '0.12',
      QUANTITY: '100',
    });
  });

  it.each([
    [{ LANGU: 'F' }, 'fr', '<h2>Cartes de visite</h2>'],
    [{ language: 'nl-NL' }, 'nl', '<h1>Kies een product om te ontwerpen</h1>'],
    [{ 'SAP-LANGUAGE': 'x' }, 'en', '<h1>Choose a product to design</h1>'],
  ])('%j opens a catalog in %s', async (field, language, text) => {
    const stack = await createStack(configWithTranslations());
    const answer = await punchIn(stack, field);
    const catalog = await stack.browse(answer.headers.get('location') ?? '');
    expect(catalog.text).toContain(`<html lang="${language}">`);
    expect(catalog.text).toContain(text);
  });
});
