/**
 * A buyer's catalog as a CIF 3.0 file (Ariba's Catalog Interchange Format): a header of `NAME: value`
 * lines, `DATA`, one comma-separated item per line in the order FIELDNAMES gives, and `ENDOFDATA`.
 *
 * Decisions:
 * - UTF-8, declared in `CHARSET`; lines end in CRLF, as CSV (RFC 4180) and the spreadsheets suppliers edit
 *   CIF files in write them.
 * - `LOADMODE: F` (full): the file is the whole catalog. `UNUOM: TRUE`: units are UN/CEFACT codes.
 * - Every item is a punch-out item (`PunchOut Enabled` TRUE, `Supplier URL` the punch-out URL), so the
 *   buyer's search finds it and the punch-out opens on it (Level 2).
 * - A value is quoted when it holds a comma, a double quote or leading or trailing blanks, double quotes
 *   doubled; line breaks become spaces, since an item is one line.
 * - CIF has one description per item: the item's default language (the first), named in `Language`. The
 *   cXML Index carries every language.
 * - The price-basis columns are written only when an item is priced per more than one unit.
 * - A field CIF requires that an item lacks (its UNSPSC code, a price) is a CatalogExportError naming the
 *   item and the field: a file the buyer's system refuses, or loads without the item, helps no one.
 */
import type { CatalogExportItem } from './catalog-item.ts';
import { CatalogExportError } from './export-error.ts';

export interface CifCatalogInput {
  /** The supplier as the buyer's system knows it: `SUPPLIERID_DOMAIN` (e.g. DUNS, NetworkID) and the id. */
  readonly supplierId: { readonly domain: string; readonly identity: string };
  /** The catalog's currency (`CURRENCY`); each item's price names its own as well. */
  readonly currency: string;
  /** Where the buyer's system punches out (`Supplier URL` of every item). */
  readonly punchoutUrl: string;
  readonly timestamp: Date;
  readonly items: readonly CatalogExportItem[];
}

const BASE_FIELDS = [
  'Supplier ID',
  'Supplier Part ID',
  'Item Description',
  'SPSC Code',
  'Unit Price',
  'Unit of Measure',
  'Lead Time',
  'Supplier URL',
  'Language',
  'Currency',
  'Thumbnail',
  'PunchOut Enabled',
] as const;

const BASIS_FIELDS = ['Price Basis Quantity', 'Price Basis Quantity UOM'] as const;

const CRLF = '\r\n';

/** One CSV value: line breaks flattened, quoted when it must be. */
export function cifValue(value: string): string {
  const flat = value.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
  return /[",]|^\s|\s$/.test(flat) ? `"${flat.replace(/"/g, '""')}"` : flat;
}

/** `2026-11-28 17:05:09`: CIF's TIMESTAMP, in UTC. */
function cifTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function requiredText(
  item: CatalogExportItem,
  value: string | undefined,
  what: string,
  field: string,
): string {
  if (value === undefined || value.trim() === '') {
    throw new CatalogExportError(
      'missing_field',
      `product ${item.supplierPartId} has no ${what}, which CIF requires (field "${field}")`,
    );
  }
  return value;
}

function itemLine(input: CifCatalogInput, item: CatalogExportItem, withBasis: boolean): string {
  const [language, description] = Object.entries(item.descriptions)[0] ?? [];
  const price = item.price;
  const values: string[] = [
    input.supplierId.identity,
    requiredText(item, item.supplierPartId, 'part number', 'Supplier Part ID'),
    requiredText(item, description, 'description', 'Item Description'),
    requiredText(item, item.unspsc, 'UNSPSC code', 'SPSC Code'),
    requiredText(item, price?.amount, 'price', 'Unit Price'),
    requiredText(item, item.unitOfMeasure, 'unit of measure', 'Unit of Measure'),
    item.leadTimeDays === undefined ? '' : String(item.leadTimeDays),
    input.punchoutUrl,
    language?.replace(/-/g, '_') ?? '',
    price?.currency ?? input.currency,
    item.thumbnailUrl ?? '',
    'TRUE',
  ];
  if (withBasis) {
    const basis = price?.basisQuantity;
    values.push(
      basis === undefined || basis === 1 ? '' : String(basis),
      basis === undefined || basis === 1 ? '' : item.unitOfMeasure,
    );
  }
  return values.map(cifValue).join(',');
}

/**
 * The CIF 3.0 text of a catalog.
 *
 * @example
 * buildCifCatalog({ supplierId: { domain: 'DUNS', identity: '123456789' }, currency: 'USD',
 *   punchoutUrl: 'https://gw.example.com/cxml', timestamp: new Date(), items });
 * // CIF_I_V3.0\r\nCHARSET: UTF-8\r\n … DATA\r\n123456789,BC-STD,Business cards,82121512,0.12,EA,5,… ENDOFDATA\r\n
 */
export function buildCifCatalog(input: CifCatalogInput): string {
  const withBasis = input.items.some((item) => (item.price?.basisQuantity ?? 1) !== 1);
  const fields = withBasis ? [...BASE_FIELDS, ...BASIS_FIELDS] : [...BASE_FIELDS];
  const lines = [
    'CIF_I_V3.0',
    'CHARSET: UTF-8',
    'LOADMODE: F',
    'CODEFORMAT: UNSPSC',
    `CURRENCY: ${input.currency}`,
    `SUPPLIERID_DOMAIN: ${input.supplierId.domain}`,
    `ITEMCOUNT: ${input.items.length}`,
    `TIMESTAMP: ${cifTimestamp(input.timestamp)}`,
    'UNUOM: TRUE',
    `FIELDNAMES: ${fields.join(',')}`,
    'DATA',
    ...input.items.map((item) => itemLine(input, item, withBasis)),
    'ENDOFDATA',
  ];
  return lines.join(CRLF) + CRLF;
}
