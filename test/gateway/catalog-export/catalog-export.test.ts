/**
 * A buyer's catalog for Level-2 punch-out: the cXML Index (valid against the repository's cXML DTD, read
 * for meaning), the CIF 3.0 file (header, one item per line, quoting), the refusals that name the buyer or
 * the product and field, and a SelectedItem naming an exported part opening that product.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { buyerCatalogItems, exportBuyerCatalog } from '../../../src/gateway/catalog-export/buyer-catalog.ts';
import type { CatalogExportItem } from '../../../src/gateway/catalog-export/catalog-item.ts';
import { buildCifCatalog, cifValue } from '../../../src/gateway/catalog-export/cif.ts';
import { CatalogExportError } from '../../../src/gateway/catalog-export/export-error.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import { startUrlOf } from '../../support/punchout-flow.ts';
import { createStack, resolveTestConfig, testConfig } from '../../support/stack.ts';

const NOW = new Date('2026-11-22T09:30:05Z');
const THUMBNAIL = /^http:\/\/gateway\.test\/thumbnail\/demo\/\d+\/[A-Za-z0-9_-]{22}\.png$/;

/** The test config with every product carrying the fields CIF requires. */
function completeConfig(): GatewayConfigInput {
  const input = testConfig();
  const [demo, ...others] = input.storefronts;
  return {
    ...input,
    storefronts: [
      {
        ...demo!,
        products: demo!.products.map((p) =>
          p.sku === 'POS-CUSTOM'
            ? { ...p, name: 'Poster, "custom" size', unspsc: '82121505', priceUnit: 10 }
            : p,
        ),
      },
      ...others,
    ],
  };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['IndexItemPunchout', 'Description', 'SupplierID'].includes(name),
});

beforeAll(requireDtdValidator);
afterAll(disposeDtdValidators);

describe('the cXML Index', () => {
  it('lists every product of the buyer as a DTD-valid punch-out item with its price, unit and UNSPSC', async () => {
    const config = resolveTestConfig(testConfig());
    const file = await exportBuyerCatalog(config, 'acme', 'cxml', { now: NOW });
    expect(file.fileName).toBe('acme-catalog.xml');
    expect(file.contentType).toBe('application/xml; charset=utf-8');
    expect(validateAgainstDtd(file.text, 'cXML')).toEqual({ ok: true, messages: '' });
    expect(file.text).toContain(
      '<!DOCTYPE Index SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/cXML.dtd">',
    );

    const index = parser.parse(file.text).Index;
    expect(index['@loadmode']).toBe('Full');
    expect(index.SupplierID).toEqual([{ '#text': 'PRINTCO', '@domain': 'DUNS' }]);
    const items = index.IndexItem.IndexItemPunchout;
    expect(items.map((i: { ItemID: { SupplierPartID: string } }) => i.ItemID.SupplierPartID)).toEqual([
      'BC-STD',
      'FLY-A5',
      'POS-CUSTOM',
    ]);
    const cards = items[0].PunchoutDetail;
    expect(cards['@punchoutLevel']).toBe('product');
    expect(cards.Description).toEqual([{ '#text': 'Business cards', '@xml:lang': 'en' }]);
    expect(cards.URL).toBe('http://gateway.test/cxml');
    expect(cards.Classification).toEqual({ '#text': 82121512, '@domain': 'UNSPSC' });
    // The price at the product's minimum of 100, where the tier from 1 applies.
    expect(cards.UnitPrice.Money).toEqual({ '#text': 0.12, '@currency': 'USD' });
    expect(cards.UnitOfMeasure).toBe('EA');
    expect(cards.LeadTime).toBe(5);
    expect(cards.Extrinsic['@name']).toBe('Thumbnail');
    expect(cards.Extrinsic['#text']).toMatch(THUMBNAIL);
    expect(cards.Extrinsic['#text']).toContain('/thumbnail/demo/101/');
    // A product the config gives no UNSPSC is classified as printing, as carts do.
    expect(items[2].PunchoutDetail.Classification).toEqual({ '#text': 82121500, '@domain': 'UNSPSC' });
    expect(items[2].PunchoutDetail.LeadTime).toBeUndefined();
  });

  it('gives an OCI buyer its punch-in URL, and a price per 10 its PriceBasisQuantity', async () => {
    const config = resolveTestConfig(completeConfig());
    const file = await exportBuyerCatalog(config, 'sap1', 'cxml', { now: NOW });
    expect(validateAgainstDtd(file.text, 'cXML')).toEqual({ ok: true, messages: '' });
    const items = parser.parse(file.text).Index.IndexItem.IndexItemPunchout;
    expect(items[0].PunchoutDetail.URL).toBe('http://gateway.test/oci/sap1');
    expect(items[2].PunchoutDetail.PriceBasisQuantity).toEqual({
      '@quantity': '10',
      '@conversionFactor': '1',
      UnitOfMeasure: 'EA',
    });
  });

  it('writes every language of an item, the default first, and the items a caller adds after the products', async () => {
    const config = resolveTestConfig(testConfig());
    const reorder: CatalogExportItem = {
      supplierPartId: 'BC-STD-D5012',
      descriptions: { en: 'Business cards J. Doe', de: 'Visitenkarten J. Doe' },
      unitOfMeasure: 'EA',
    };
    const file = await exportBuyerCatalog(config, 'acme', 'cxml', { now: NOW, moreItems: [reorder] });
    expect(validateAgainstDtd(file.text, 'cXML')).toEqual({ ok: true, messages: '' });
    const items = parser.parse(file.text).Index.IndexItem.IndexItemPunchout;
    expect(items).toHaveLength(4);
    const added = items[3].PunchoutDetail;
    expect(items[3].ItemID.SupplierPartID).toBe('BC-STD-D5012');
    expect(added.Description).toEqual([
      { '#text': 'Business cards J. Doe', '@xml:lang': 'en' },
      { '#text': 'Visitenkarten J. Doe', '@xml:lang': 'de' },
    ]);
    // No price known outside the editor: the item has none rather than a made-up one.
    expect(added.UnitPrice).toBeUndefined();
  });

  it("describes each product in every language the config translates it to, the buyer's own first", async () => {
    const input = completeConfig();
    const [demo, ...others] = input.storefronts;
    const translated = {
      ...input,
      storefronts: [
        {
          ...demo!,
          products: demo!.products.map((p) =>
            p.sku === 'BC-STD'
              ? {
                  ...p,
                  translations: { de: { name: 'Visitenkarten' }, fr: { name: 'Cartes de visite' } },
                }
              : p,
          ),
        },
        ...others,
      ],
      buyers: input.buyers.map((b) => (b.id === 'acme' ? { ...b, language: 'de' } : b)),
    };
    const config = resolveTestConfig(translated);
    const cards = (await buyerCatalogItems(config, 'acme')).find((i) => i.supplierPartId === 'BC-STD');
    expect(Object.entries(cards?.descriptions ?? {})).toEqual([
      ['de', 'Visitenkarten'],
      ['en', 'Business cards'],
      ['fr', 'Cartes de visite'],
    ]);
    const file = await exportBuyerCatalog(config, 'acme', 'cxml', { now: NOW });
    expect(validateAgainstDtd(file.text, 'cXML')).toEqual({ ok: true, messages: '' });
    // CIF has room for one: the buyer's language.
    const cif = (await exportBuyerCatalog(config, 'acme', 'cif', { now: NOW })).text;
    const line = cif.split('\r\n').find((l) => l.includes('BC-STD,'));
    expect(line).toContain('Visitenkarten');
    expect(line).not.toContain('Business cards');
  });
});

describe('the CIF 3.0 file', () => {
  it('has the CIF 3.0 header, one item per CRLF line in FIELDNAMES order, quoted where CSV needs it', async () => {
    const config = resolveTestConfig(completeConfig());
    const file = await exportBuyerCatalog(config, 'acme', 'cif', { now: NOW });
    expect(file.fileName).toBe('acme-catalog.cif');
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    expect(file.text.endsWith('ENDOFDATA\r\n')).toBe(true);
    expect(file.text.replace(/\r\n/g, '')).not.toContain('\n');
    const lines = file.text.split('\r\n');
    expect(lines.slice(0, 11)).toEqual([
      'CIF_I_V3.0',
      'CHARSET: UTF-8',
      'LOADMODE: F',
      'CODEFORMAT: UNSPSC',
      'CURRENCY: USD',
      'SUPPLIERID_DOMAIN: DUNS',
      'ITEMCOUNT: 3',
      'TIMESTAMP: 2026-11-22 09:30:05',
      'UNUOM: TRUE',
      'FIELDNAMES: Supplier ID,Supplier Part ID,Item Description,SPSC Code,Unit Price,Unit of Measure,Lead Time,Supplier URL,Language,Currency,Thumbnail,PunchOut Enabled,Price Basis Quantity,Price Basis Quantity UOM',
      'DATA',
    ]);
    const thumb = (id: number) =>
      expect.stringMatching(new RegExp(`/thumbnail/demo/${id}/[A-Za-z0-9_-]{22}\\.png$`));
    const [first, second, third] = lines
      .slice(11, 14)
      .map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/));
    expect(first).toEqual([
      'PRINTCO',
      'BC-STD',
      'Business cards',
      '82121512',
      '0.12',
      'EA',
      '5',
      'http://gateway.test/cxml',
      'en',
      'USD',
      thumb(101),
      'TRUE',
      '',
      '',
    ]);
    expect(second?.slice(1, 7)).toEqual(['FLY-A5', 'A5 flyer', '82121503', '0.35', 'EA', '3']);
    // A comma and quotes in the name: quoted, quotes doubled; the price is for 10 units.
    expect(third?.slice(1, 7)).toEqual([
      'POS-CUSTOM',
      '"Poster, ""custom"" size"',
      '82121505',
      '18.50',
      'EA',
      '',
    ]);
    expect(third?.slice(12)).toEqual(['10', 'EA']);
    expect(lines.slice(14)).toEqual(['ENDOFDATA', '']);
  });

  it('writes values as CSV: quoted for commas, quotes and edge blanks; line breaks flattened', () => {
    expect(cifValue('plain text')).toBe('plain text');
    expect(cifValue('a,b')).toBe('"a,b"');
    expect(cifValue('say "hi"')).toBe('"say ""hi"""');
    expect(cifValue(' padded')).toBe('" padded"');
    expect(cifValue('two\r\nlines\nhere')).toBe('two lines here');
    expect(cifValue('Größe 85 × 55')).toBe('Größe 85 × 55');
  });

  it('leaves the price-basis columns out when every price is for one unit', () => {
    const text = buildCifCatalog({
      supplierId: { domain: 'NetworkID', identity: 'AN0100' },
      currency: 'EUR',
      punchoutUrl: 'https://gw.example/cxml',
      timestamp: NOW,
      items: [
        {
          supplierPartId: 'VK',
          descriptions: { 'de-DE': 'Visitenkarten' },
          unspsc: '82121512',
          unitOfMeasure: 'EA',
          price: { amount: '0.11', currency: 'EUR' },
        },
      ],
    });
    expect(text).toContain(
      'FIELDNAMES: Supplier ID,Supplier Part ID,Item Description,SPSC Code,Unit Price,Unit of Measure,Lead Time,Supplier URL,Language,Currency,Thumbnail,PunchOut Enabled\r\n',
    );
    expect(text).toContain(
      '\r\nAN0100,VK,Visitenkarten,82121512,0.11,EA,,https://gw.example/cxml,de_DE,EUR,,TRUE\r\n',
    );
  });
});

describe('what cannot be exported', () => {
  const config = resolveTestConfig(testConfig());

  async function refusal(run: () => Promise<unknown>): Promise<{ code: string; message: string }> {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CatalogExportError);
    const { code, message } = error as CatalogExportError;
    return { code, message };
  }

  it('a product without a field CIF requires: the buyer, the product and the field are named', async () => {
    expect(await refusal(() => exportBuyerCatalog(config, 'acme', 'cif', { now: NOW }))).toEqual({
      code: 'missing_field',
      message: 'buyer acme: product POS-CUSTOM has no UNSPSC code, which CIF requires (field "SPSC Code")',
    });
    // An added item without a price is refused by CIF the same way.
    const complete = resolveTestConfig(completeConfig());
    const unpriced = {
      supplierPartId: 'BC-STD-D7',
      descriptions: { en: 'x' },
      unspsc: '82121512',
      unitOfMeasure: 'EA',
    };
    expect(
      await refusal(() => exportBuyerCatalog(complete, 'acme', 'cif', { now: NOW, moreItems: [unpriced] })),
    ).toEqual({
      code: 'missing_field',
      message: 'buyer acme: product BC-STD-D7 has no price, which CIF requires (field "Unit Price")',
    });
  });

  it('an unknown buyer is named, with the buyers the config has', async () => {
    const { code, message } = await refusal(() => exportBuyerCatalog(config, 'nobody', 'cxml', { now: NOW }));
    expect(code).toBe('unknown_buyer');
    expect(message).toMatch(/^no buyer "nobody" is configured \(the config has acme, coupa, /);
  });

  it('a buyer whose storefront lists no product is named', async () => {
    const empty = { ...config, storefronts: config.storefronts.map((s) => ({ ...s, products: [] })) };
    expect(await refusal(() => exportBuyerCatalog(empty, 'coupa', 'cif', { now: NOW }))).toEqual({
      code: 'empty_catalog',
      message: 'buyer coupa has no products to export (storefront demo lists none)',
    });
  });

  it('two items of one part number are refused, naming it', async () => {
    const twin = { supplierPartId: 'FLY-A5', descriptions: { en: 'x' }, unitOfMeasure: 'EA' };
    expect(
      await refusal(() => exportBuyerCatalog(config, 'acme', 'cxml', { now: NOW, moreItems: [twin] })),
    ).toEqual({
      code: 'duplicate_part',
      message: 'two items of buyer acme have the part number FLY-A5; a catalog needs each once',
    });
  });
});

describe('Level 2: a SelectedItem naming an exported part', () => {
  it('opens that product in the editor', async () => {
    const config = testConfig();
    const items = await buyerCatalogItems(resolveTestConfig(config), 'acme');
    const flyer = items.find((item) => item.descriptions.en === 'A5 flyer');
    expect(flyer?.supplierPartId).toBe('FLY-A5');
    const stack = await createStack(config);
    const start = startUrlOf(await stack.postCxml(setupRequest({ selectedSku: flyer!.supplierPartId })));
    const page = await stack.browse(start);
    expect(page.status).toBe(200);
    expect(page.url).toContain('/editor/online-editor?productid=102&');
  });
});
