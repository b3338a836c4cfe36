/**
 * Cart lines to OCI `NEW_ITEM-<FIELD>[n]` form fields (SAP's "inbound section"), n counting from 1 as SAP
 * requires, in the order the transfer form posts them.
 *
 * Decisions:
 * - Only non-empty fields are emitted (SAP treats a missing field as empty; PHP buyers run out of
 *   max_input_vars on big carts otherwise).
 * - Every text is first fitted to the buyer's charset (fit-to-charset.ts: transliteration, e.g. € → EUR for
 *   ISO-8859-1), then measured in characters against SAP's field length.
 * - DESCRIPTION longer than 40 characters is cut there, and the whole description goes into the long text
 *   `NEW_ITEM-LONGTEXT_<n>:132[]` (followed by the line's own long text, if any), so it reads as a whole in
 *   SAP. The long text is sent as one value: buyers such as Odoo keep only the first value of that array.
 * - Other fields never lose characters silently. Numbers and codes (QUANTITY, PRICE, PRICEUNIT, CURRENCY,
 *   UNIT, LEADTIME) that do not fit are always an error; identifiers and free fields follow `lengthPolicy`:
 *   `reject` (default, a cut part number names another product) or `truncate`.
 * - QUANTITY has a decimal point, at most 3 decimals (rounded half up) and no trailing zeros; PRICE is
 *   rounded half up to `priceDecimals.max` and padded to `priceDecimals.min` decimals (by default the
 *   currency's minor units, so a JPY price has none); neither ever uses an exponent or thousands separators.
 * - PRICE is the price of PRICEUNIT units (a product priced per thousand sends its price per 1,000 and
 *   PRICEUNIT 1000), never divided down to a per-piece price that SAP's four decimals would round.
 * - OCI 5.0 hierarchy: with `ociVersion: '5.0'`, a line with `parentLineRef` gets PARENT_ID = its parent's
 *   item number and ITEM_TYPE `O`, a parent gets ITEM_TYPE `R` (the codes Spryker's OCI catalog sends; a
 *   line's own `itemType` overrides them). OCI 4.0 (the default) sends the lines flat.
 */

import type { OciCharset } from './charset.ts';
import { decimalFromNumber, formatDecimal, readDecimal } from '../kernel/decimal.ts';
import { minorUnits, UNIT_PRICE_DECIMALS } from '../kernel/money.ts';
import { OciError, type OciErrorCode } from './error.ts';
import { fitToCharset } from './fit-to-charset.ts';

/** One form field: name and value, both plain text (escaping happens when the page is rendered). */
export type OciFormField = readonly [name: string, value: string];

/** A line of the punch-out cart as the gateway holds it. */
export interface OciCartLine {
  /** The gateway's stable line reference; sent as EXT_PRODUCT_ID and returned by SAP as PRODUCTID. */
  readonly lineRef: string;
  /** Our article number; sent as VENDORMAT. */
  readonly sku: string;
  readonly description: string;
  /** Further text for the long text, after the description. */
  readonly longText?: string;
  readonly quantity: number;
  /** Decimal string: the price of `priceUnit` units (OCI's PRICE/PRICEUNIT semantics). */
  readonly unitPrice: string;
  /** How many units `unitPrice` is for; default 1. */
  readonly priceUnit?: number;
  /** ISO 4217 code. */
  readonly currency: string;
  /** Our unit code (ISO / UN/ECE Rec. 20, e.g. PCE, C62), mapped through the buyer's unitMap. */
  readonly uom: string;
  readonly leadTimeDays?: number;
  /** The buyer's vendor number for us, when it differs per line from the buyer-wide one. */
  readonly vendor?: string;
  readonly manufacturerCode?: string;
  readonly manufacturerPartId?: string;
  readonly matGroup?: string;
  /** UNSPSC code; sent as EXT_CATEGORY_ID with EXT_SCHEMA_TYPE=UNSPSC. */
  readonly unspsc?: string;
  /** CUST_FIELD1–5 for this line; an empty entry falls back to the buyer-wide value. */
  readonly custFields?: readonly string[];
  /** OCI 5.0: the lineRef of the line this one belongs to. */
  readonly parentLineRef?: string;
  /** OCI 5.0: ITEM_TYPE to send instead of the derived R/O. */
  readonly itemType?: string;
  /** A file the buyer's system may fetch for the line (ATTACHMENT, a URL), with its ATTACHMENT_TITLE. */
  readonly attachment?: { readonly url: string; readonly title?: string };
}

export type OciLengthField =
  | 'DESCRIPTION'
  | 'MATGROUP'
  | 'QUANTITY'
  | 'UNIT'
  | 'PRICE'
  | 'PRICEUNIT'
  | 'CURRENCY'
  | 'LEADTIME'
  | 'VENDOR'
  | 'VENDORMAT'
  | 'MANUFACTCODE'
  | 'MANUFACTMAT'
  | 'EXT_PRODUCT_ID'
  | 'EXT_SCHEMA_TYPE'
  | 'EXT_CATEGORY_ID'
  | 'CUST_FIELD1'
  | 'CUST_FIELD2'
  | 'CUST_FIELD3'
  | 'CUST_FIELD4'
  | 'CUST_FIELD5'
  | 'ITEM_TYPE'
  | 'ATTACHMENT'
  | 'ATTACHMENT_TITLE';

/** SAP DDIC lengths (BBP_OCI_ITEM; pcon's excerpt of the OCI 5 specification), in characters. */
export const OCI_FIELD_LENGTHS: Readonly<Record<OciLengthField, number>> = {
  DESCRIPTION: 40,
  MATGROUP: 10,
  QUANTITY: 15,
  UNIT: 3,
  PRICE: 15,
  PRICEUNIT: 5,
  CURRENCY: 5,
  LEADTIME: 5,
  VENDOR: 10,
  VENDORMAT: 40,
  MANUFACTCODE: 10,
  MANUFACTMAT: 40,
  EXT_PRODUCT_ID: 40,
  EXT_SCHEMA_TYPE: 10,
  EXT_CATEGORY_ID: 60,
  CUST_FIELD1: 10,
  CUST_FIELD2: 10,
  CUST_FIELD3: 10,
  CUST_FIELD4: 20,
  CUST_FIELD5: 50,
  ITEM_TYPE: 1,
  ATTACHMENT: 255,
  ATTACHMENT_TITLE: 255,
};

export interface OciItemsOptions {
  /** The buyer's charset; texts are fitted to it. Default utf-8. */
  readonly charset?: OciCharset;
  /** Our unit → the buyer's unit code (e.g. PCE → ST for SAP-internal T006 codes). Keys match case-insensitively. */
  readonly unitMap?: Readonly<Record<string, string>>;
  /** The buyer's vendor number for us (VENDOR), unless a line brings its own. */
  readonly vendor?: string;
  /** Buyer-wide CUST_FIELD1–5 values. */
  readonly custFields?: readonly string[];
  /** '5.0' sends PARENT_ID / ITEM_TYPE for lines in a hierarchy. Default '4.0'. */
  readonly ociVersion?: '4.0' | '5.0';
  /**
   * Decimals of PRICE; default the line currency's ISO 4217 minor units up to 4 (SAP keeps 4): `0.50` EUR,
   * `1200` JPY, `1.250` BHD.
   */
  readonly priceDecimals?: { readonly min: number; readonly max: number };
  /** What to do with identifiers and free fields that exceed their SAP length; default reject. */
  readonly lengthPolicy?: 'reject' | 'truncate';
  /** Per-buyer length overrides, e.g. { CUST_FIELD5: 255 } where the buyer's SAP was extended. */
  readonly fieldLengths?: Partial<Record<OciLengthField, number>>;
}

/** SAP numbers items in a NUMC5 field. */
const MAX_ITEMS = 99_999;

/**
 * Builds the NEW_ITEM-* fields for a cart, or throws OciError naming the field and cart line.
 *
 * @example
 * buildOciItems(
 *   [{ lineRef: 'L1', sku: 'BC-85x55', description: 'Business cards', quantity: 500, unitPrice: '0.089',
 *      currency: 'EUR', uom: 'PCE' }],
 *   { charset: 'iso-8859-1', unitMap: { PCE: 'ST' } },
 * );
 * // [['NEW_ITEM-DESCRIPTION[1]', 'Business cards'], ['NEW_ITEM-QUANTITY[1]', '500'], ['NEW_ITEM-UNIT[1]', 'ST'],
 * //  ['NEW_ITEM-PRICE[1]', '0.089'], ['NEW_ITEM-PRICEUNIT[1]', '1'], ['NEW_ITEM-CURRENCY[1]', 'EUR'], …]
 */
export function buildOciItems(lines: readonly OciCartLine[], options: OciItemsOptions = {}): OciFormField[] {
  if (lines.length > MAX_ITEMS) {
    throw new OciError(
      'too_many_items',
      `An OCI cart holds at most ${MAX_ITEMS} items; this one has ${lines.length}.`,
    );
  }
  if ((options.custFields?.length ?? 0) > 5) {
    throw new TypeError('OCI has five customer fields (CUST_FIELD1–5); more were configured.');
  }
  const hierarchy = options.ociVersion === '5.0' ? resolveHierarchy(lines) : undefined;
  const fields: OciFormField[] = [];
  lines.forEach((line, index) => {
    const itemFields = new ItemFields(line, index + 1, options);
    itemFields.add(hierarchy?.parentIndex[index], hierarchy?.itemType[index]);
    fields.push(...itemFields.fields);
  });
  return fields;
}

/** Builds the fields of one item; a class only to share the line, its number and the options. */
class ItemFields {
  readonly fields: OciFormField[] = [];
  readonly #line: OciCartLine;
  readonly #n: number;
  readonly #charset: OciCharset;
  readonly #options: OciItemsOptions;
  readonly #lengths: Readonly<Record<OciLengthField, number>>;

  constructor(line: OciCartLine, n: number, options: OciItemsOptions) {
    this.#line = line;
    this.#n = n;
    this.#charset = options.charset ?? 'utf-8';
    this.#options = options;
    this.#lengths = { ...OCI_FIELD_LENGTHS, ...options.fieldLengths };
  }

  add(parentIndex: number | undefined, itemType: string | undefined): void {
    const line = this.#line;
    const description = this.#singleLine(line.description);
    if (description === '') this.#fail('bad_line', 'DESCRIPTION', 'has an empty description');
    const descriptionCharacters = Array.from(description);
    const descriptionCut = descriptionCharacters.length > this.#lengths.DESCRIPTION;
    this.#put(
      'DESCRIPTION',
      descriptionCut
        ? descriptionCharacters.slice(0, this.#lengths.DESCRIPTION).join('').trimEnd()
        : description,
    );
    this.#identifier('MATGROUP', line.matGroup);
    this.#exact('QUANTITY', this.#quantity());
    this.#exact('UNIT', this.#unit());
    this.#exact('PRICE', this.#price());
    this.#exact('PRICEUNIT', this.#priceUnit());
    const currency = this.#singleLine(line.currency).toUpperCase();
    if (currency === '') this.#fail('bad_line', 'CURRENCY', 'has no currency');
    this.#exact('CURRENCY', currency);
    this.#exact('LEADTIME', this.#leadTime());
    const longText = [descriptionCut ? line.description : '', line.longText ?? '']
      .map((text) => fitToCharset(text, this.#charset).trim())
      .filter((text) => text !== '')
      .join('\n');
    if (longText !== '') this.fields.push([`NEW_ITEM-LONGTEXT_${this.#n}:132[]`, longText]);
    this.#identifier('VENDOR', line.vendor ?? this.#options.vendor);
    this.#identifier('VENDORMAT', line.sku);
    this.#identifier('MANUFACTCODE', line.manufacturerCode);
    this.#identifier('MANUFACTMAT', line.manufacturerPartId);
    const lineRef = this.#singleLine(line.lineRef);
    if (lineRef === '') this.#fail('bad_line', 'EXT_PRODUCT_ID', 'has no line reference');
    this.#identifier('EXT_PRODUCT_ID', lineRef);
    const unspsc = this.#singleLine(line.unspsc ?? '');
    if (unspsc !== '') {
      this.#put('EXT_SCHEMA_TYPE', 'UNSPSC');
      this.#identifier('EXT_CATEGORY_ID', unspsc);
    }
    this.#custFields();
    if (line.attachment !== undefined) {
      // A URL cut short points nowhere: one too long is always an error, whatever the length policy.
      this.#exact('ATTACHMENT', this.#singleLine(line.attachment.url));
      this.#identifier('ATTACHMENT_TITLE', line.attachment.title);
    }
    if (parentIndex !== undefined) this.#put('PARENT_ID', String(parentIndex));
    this.#identifier('ITEM_TYPE', itemType);
  }

  #quantity(): string {
    const quantity = this.#line.quantity;
    const formatted =
      Number.isFinite(quantity) && quantity > 0
        ? formatDecimal(decimalFromNumber(quantity), { minDecimals: 0, maxDecimals: 3 })
        : undefined;
    if (formatted === undefined || formatted === '0' || formatted.split('.')[0]!.length > 11) {
      this.#fail(
        'bad_quantity',
        'QUANTITY',
        `has quantity ${String(quantity)}, but OCI needs a positive number below 10^11 that is not 0 at 3 decimals`,
      );
    }
    return formatted;
  }

  #unit(): string {
    const { uom } = this.#line;
    const map = this.#options.unitMap ?? {};
    const key = Object.hasOwn(map, uom)
      ? uom
      : Object.keys(map).find((candidate) => candidate.toUpperCase() === uom.toUpperCase());
    const unit = this.#singleLine(key === undefined ? uom : map[key]!);
    if (unit === '') this.#fail('bad_line', 'UNIT', 'has no unit of measure');
    return unit;
  }

  #price(): string {
    const currencyDecimals = minorUnits(this.#line.currency);
    const { min, max } = this.#options.priceDecimals ?? {
      min: currencyDecimals,
      max: Math.max(currencyDecimals, UNIT_PRICE_DECIMALS),
    };
    const parsed = readDecimal(this.#line.unitPrice.trim());
    const price =
      parsed === undefined
        ? undefined
        : formatDecimal(parsed, { minDecimals: min, maxDecimals: Math.max(min, max) });
    if (price === undefined) {
      this.#fail(
        'bad_price',
        'PRICE',
        `has price "${this.#line.unitPrice}", which is not a non-negative decimal`,
      );
    }
    return price;
  }

  #priceUnit(): string {
    const priceUnit = this.#line.priceUnit ?? 1;
    if (!Number.isInteger(priceUnit) || priceUnit < 1 || priceUnit > 99_999) {
      this.#fail(
        'bad_price_unit',
        'PRICEUNIT',
        `has price unit ${priceUnit}; it must be a whole number from 1 to 99999`,
      );
    }
    return String(priceUnit);
  }

  #leadTime(): string | undefined {
    const days = this.#line.leadTimeDays;
    if (days === undefined) return undefined;
    if (!Number.isFinite(days) || days < 0 || Math.ceil(days) > 99_999) {
      this.#fail('bad_lead_time', 'LEADTIME', `has lead time ${days}; it must be 0 to 99999 days`);
    }
    // Part of a day is still a day the buyer has to wait.
    return String(Math.ceil(days));
  }

  #custFields(): void {
    const own = this.#line.custFields ?? [];
    if (own.length > 5) this.#fail('bad_line', 'CUST_FIELD1', 'has more than five customer fields');
    const shared = this.#options.custFields ?? [];
    for (let k = 0; k < 5; k++) {
      const value = own[k] !== undefined && own[k] !== '' ? own[k] : shared[k];
      this.#identifier(`CUST_FIELD${k + 1}` as OciLengthField, value);
    }
  }

  #singleLine(text: string): string {
    return fitToCharset(text, this.#charset).replace(/\s+/g, ' ').trim();
  }

  /** A number or code: too long is always an error. */
  #exact(field: OciLengthField, value: string | undefined): void {
    if (value === undefined) return;
    if (Array.from(value).length > this.#lengths[field]) {
      const code: OciErrorCode =
        field === 'PRICE' ? 'bad_price' : field === 'QUANTITY' ? 'bad_quantity' : 'field_too_long';
      this.#fail(
        code,
        field,
        `has ${field} "${value}", longer than SAP's ${this.#lengths[field]} characters`,
      );
    }
    this.#put(field, value);
  }

  /** An identifier or free field: too long is an error or cut, as the buyer's lengthPolicy says. */
  #identifier(field: OciLengthField, raw: string | undefined): void {
    const value = this.#singleLine(raw ?? '');
    if (value === '') return;
    const characters = Array.from(value);
    const length = this.#lengths[field];
    if (characters.length <= length) {
      this.#put(field, value);
    } else if (this.#options.lengthPolicy === 'truncate') {
      this.#put(field, characters.slice(0, length).join('').trimEnd());
    } else {
      this.#fail('field_too_long', field, `has ${field} "${value}", longer than SAP's ${length} characters`);
    }
  }

  #put(field: string, value: string): void {
    this.fields.push([`NEW_ITEM-${field}[${this.#n}]`, value]);
  }

  #fail(code: OciErrorCode, field: string, problem: string): never {
    throw new OciError(
      code,
      `Cart line ${this.#n} (${this.#line.lineRef}) ${problem}.`,
      `NEW_ITEM-${field}[${this.#n}]`,
    );
  }
}

interface Hierarchy {
  readonly parentIndex: readonly (number | undefined)[];
  readonly itemType: readonly (string | undefined)[];
}

function resolveHierarchy(lines: readonly OciCartLine[]): Hierarchy {
  const indexesByRef = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const list = indexesByRef.get(line.lineRef);
    if (list) list.push(i);
    else indexesByRef.set(line.lineRef, [i]);
  });
  const parentOf = lines.map((line, i): number | undefined => {
    if (line.parentLineRef === undefined || line.parentLineRef === '') return undefined;
    const candidates = indexesByRef.get(line.parentLineRef) ?? [];
    const fail = (problem: string): never => {
      throw new OciError(
        'bad_line',
        `Cart line ${i + 1} (${line.lineRef}) ${problem}.`,
        `NEW_ITEM-PARENT_ID[${i + 1}]`,
      );
    };
    if (candidates.length === 0)
      return fail(`names parent "${line.parentLineRef}", which is not in the cart`);
    if (candidates.length > 1) return fail(`names parent "${line.parentLineRef}", which several lines share`);
    if (candidates[0] === i) return fail('names itself as its parent');
    return candidates[0];
  });
  parentOf.forEach((_, i) => {
    let current = parentOf[i];
    for (let steps = 0; current !== undefined; steps++) {
      if (steps > lines.length) {
        throw new OciError(
          'bad_line',
          `Cart line ${i + 1} (${lines[i]!.lineRef}) is part of a parent cycle.`,
          `NEW_ITEM-PARENT_ID[${i + 1}]`,
        );
      }
      current = parentOf[current];
    }
  });
  const isParent = new Set(parentOf.filter((p) => p !== undefined));
  return {
    parentIndex: parentOf.map((p) => (p === undefined ? undefined : p + 1)),
    itemType: lines.map(
      (line, i) => line.itemType ?? (isParent.has(i) ? 'R' : parentOf[i] !== undefined ? 'O' : undefined),
    ),
  };
}
