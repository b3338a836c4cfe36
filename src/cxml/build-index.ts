/**
 * A cXML catalog `Index` of PunchOut items, the file a buyer's procurement system (Ariba, Coupa, …) loads so
 * that its users find the supplier's products in their own search and punch out straight onto one (a
 * Level-2 punch-out: the setup request's SelectedItem names the item's SupplierPartID).
 *
 * Decisions:
 * - `Index` is the document's root, as cXML defines catalog files (no `cXML` envelope, no Header): the
 *   buyer's system loads the file, nobody posts it. `loadmode="Full"` by default, since the file is the
 *   whole catalog: an item left out of it is gone from the buyer's search.
 * - Every item is an `IndexItemPunchout` whose `PunchoutDetail` says `punchoutLevel="product"` and whose
 *   URL is the supplier's punch-out URL: the buyer's system opens a punch-out there and names the item.
 * - One `Description` per language, in the order given; the first is the item's default language.
 * - A thumbnail goes as `Extrinsic name="Thumbnail"`, the name buyers' catalogs show pictures from.
 */
import { type MoneyInput, moneyElement, priceBasisElement } from './build-common-elements.ts';
import { DEFAULT_CXML_VERSION, requireText } from './envelope.ts';
import type { Classification } from './request-types.ts';
import { el, serializeXml, type XmlElementSpec } from './xml-writer.ts';

export interface IndexPunchoutItem {
  readonly supplierPartID: string;
  /** Description per language tag (`en`, `de-DE`, …); at least one. */
  readonly descriptions: Readonly<Record<string, string>>;
  /** At least one; UNSPSC is what buyers' searches group by. */
  readonly classifications: readonly Classification[];
  readonly unitOfMeasure: string;
  /** The list price; absent when only the punch-out can price the item. */
  readonly unitPrice?: MoneyInput;
  /** How many units `unitPrice` is for, when more than one. */
  readonly priceBasisQuantity?: number;
  readonly leadTimeDays?: number;
  readonly thumbnailUrl?: string;
}

export interface CatalogIndexInput {
  /** The supplier's identities (the From credentials of the documents it sends); at least one. */
  readonly supplierIds: readonly { readonly domain: string; readonly identity: string }[];
  /** Where the buyer's system sends the PunchOutSetupRequest of an item. */
  readonly punchoutUrl: string;
  readonly items: readonly IndexPunchoutItem[];
  readonly loadMode?: 'Full' | 'Incremental';
  readonly dtdVersion?: string;
}

const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

function punchoutItem(item: IndexPunchoutItem, punchoutUrl: string, index: number): XmlElementSpec {
  const field = `items[${index}]`;
  const descriptions = Object.entries(item.descriptions);
  if (descriptions.length === 0) throw new TypeError(`${field} needs at least one description`);
  if (item.classifications.length === 0) throw new TypeError(`${field} needs at least one classification`);
  if (
    item.leadTimeDays !== undefined &&
    (!Number.isSafeInteger(item.leadTimeDays) || item.leadTimeDays < 0)
  ) {
    throw new TypeError(`${field}.leadTimeDays must be a whole number of days, got ${item.leadTimeDays}`);
  }
  const [defaultLang] = descriptions[0] as [string, string];
  return el(
    'IndexItemPunchout',
    {},
    el('ItemID', {}, el('SupplierPartID', {}, requireText(item.supplierPartID, `${field}.supplierPartID`))),
    el(
      'PunchoutDetail',
      { punchoutLevel: 'product' },
      descriptions.map(([lang, text]) => {
        if (!LANG.test(lang))
          throw new TypeError(`${field} description language "${lang}" is not a language tag`);
        return el('Description', { 'xml:lang': lang }, requireText(text, `${field}.descriptions.${lang}`));
      }),
      el('URL', {}, punchoutUrl),
      item.classifications.map((classification) =>
        el(
          'Classification',
          { domain: requireText(classification.domain, `${field} classification domain`) },
          requireText(classification.code, `${field} classification code`),
        ),
      ),
      item.unitPrice !== undefined && el('UnitPrice', {}, moneyElement(item.unitPrice, `${field}.unitPrice`)),
      el('UnitOfMeasure', {}, requireText(item.unitOfMeasure, `${field}.unitOfMeasure`)),
      item.unitPrice !== undefined &&
        item.priceBasisQuantity !== undefined &&
        item.priceBasisQuantity !== 1 &&
        priceBasisElement(
          { quantity: item.priceBasisQuantity, conversionFactor: 1, unitOfMeasure: item.unitOfMeasure },
          `${field}.priceBasisQuantity`,
          defaultLang,
        ),
      item.leadTimeDays !== undefined && el('LeadTime', {}, String(item.leadTimeDays)),
      item.thumbnailUrl !== undefined && el('Extrinsic', { name: 'Thumbnail' }, item.thumbnailUrl),
    ),
  );
}

/**
 * The catalog as a cXML Index document (UTF-8, DOCTYPE of cXML.dtd).
 *
 * @example
 * buildCatalogIndex({
 *   supplierIds: [{ domain: 'DUNS', identity: '123456789' }],
 *   punchoutUrl: 'https://gw.example.com/cxml',
 *   items: [{ supplierPartID: 'BC-STD', descriptions: { en: 'Business cards', de: 'Visitenkarten' },
 *     classifications: [{ domain: 'UNSPSC', code: '82121512' }], unitOfMeasure: 'EA',
 *     unitPrice: { value: '0.12', currency: 'EUR' }, leadTimeDays: 5 }],
 * });
 */
export function buildCatalogIndex(input: CatalogIndexInput): string {
  if (input.supplierIds.length === 0) throw new TypeError('supplierIds needs at least one identity');
  if (input.items.length === 0) throw new TypeError('an Index needs at least one item');
  const punchoutUrl = requireText(input.punchoutUrl, 'punchoutUrl');
  const index = el(
    'Index',
    { loadmode: input.loadMode ?? 'Full' },
    input.supplierIds.map((id) =>
      el(
        'SupplierID',
        { domain: requireText(id.domain, 'supplierIds domain') },
        requireText(id.identity, 'supplierIds identity'),
      ),
    ),
    el(
      'IndexItem',
      {},
      input.items.map((item, i) => punchoutItem(item, punchoutUrl, i)),
    ),
  );
  const version = input.dtdVersion ?? DEFAULT_CXML_VERSION;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<!DOCTYPE Index SYSTEM "http://xml.cxml.org/schemas/cXML/${version}/cXML.dtd">\n` +
    `${serializeXml(index)}\n`
  );
}
