import { describe, expect, it } from 'vitest';
import {
  buildOciItems,
  type OciCartLine,
  OciError,
  type OciFormField,
  type OciItemsOptions,
} from '../../src/oci/index.ts';

const line: OciCartLine = {
  lineRef: 'PG-7K2M9Q',
  sku: 'BC-85x55-350',
  description: 'Business cards 85 x 55 mm',
  quantity: 500,
  unitPrice: '0.089',
  currency: 'EUR',
  uom: 'PCE',
};

function ociError(run: () => unknown): OciError {
  try {
    run();
  } catch (error) {
    if (error instanceof OciError) return error;
    throw error;
  }
  throw new Error('expected an OciError');
}

const fieldValue = (fields: readonly OciFormField[], name: string): string | undefined =>
  fields.find(([n]) => n === name)?.[1];
const build = (overrides: Partial<OciCartLine>, options?: OciItemsOptions): OciFormField[] =>
  buildOciItems([{ ...line, ...overrides }], options);

describe('buildOciItems', () => {
  it('renders every configured field of a line in SAP order, numbered from 1', () => {
    const fields = buildOciItems(
      [
        {
          ...line,
          longText: 'Paper: 350 g/m² matt\nPrint: 4/4',
          priceUnit: 100,
          unitPrice: '8.90',
          leadTimeDays: 3,
          manufacturerCode: 'M-77',
          manufacturerPartId: 'BC85X55',
          matGroup: '44121600',
          unspsc: '82121512',
          custFields: ['CC-4711', '', 'X'],
        },
      ],
      { vendor: '100234', custFields: ['ignored', 'PROJ-1'], unitMap: { PCE: 'ST' } },
    );
    expect(fields).toEqual([
      ['NEW_ITEM-DESCRIPTION[1]', 'Business cards 85 x 55 mm'],
      ['NEW_ITEM-MATGROUP[1]', '44121600'],
      ['NEW_ITEM-QUANTITY[1]', '500'],
      ['NEW_ITEM-UNIT[1]', 'ST'],
      ['NEW_ITEM-PRICE[1]', '8.90'],
      ['NEW_ITEM-PRICEUNIT[1]', '100'],
      ['NEW_ITEM-CURRENCY[1]', 'EUR'],
      ['NEW_ITEM-LEADTIME[1]', '3'],
      ['NEW_ITEM-LONGTEXT_1:132[]', 'Paper: 350 g/m² matt\nPrint: 4/4'],
      ['NEW_ITEM-VENDOR[1]', '100234'],
      ['NEW_ITEM-VENDORMAT[1]', 'BC-85x55-350'],
      ['NEW_ITEM-MANUFACTCODE[1]', 'M-77'],
      ['NEW_ITEM-MANUFACTMAT[1]', 'BC85X55'],
      ['NEW_ITEM-EXT_PRODUCT_ID[1]', 'PG-7K2M9Q'],
      ['NEW_ITEM-EXT_SCHEMA_TYPE[1]', 'UNSPSC'],
      ['NEW_ITEM-EXT_CATEGORY_ID[1]', '82121512'],
      ['NEW_ITEM-CUST_FIELD1[1]', 'CC-4711'],
      ['NEW_ITEM-CUST_FIELD2[1]', 'PROJ-1'],
      ['NEW_ITEM-CUST_FIELD3[1]', 'X'],
    ]);
  });

  it('emits only non-empty fields and numbers items 1..n', () => {
    const fields = buildOciItems([line, { ...line, lineRef: 'L2', sku: '', description: 'Flyer A5' }]);
    expect(fields.map(([name]) => name)).toEqual([
      'NEW_ITEM-DESCRIPTION[1]',
      'NEW_ITEM-QUANTITY[1]',
      'NEW_ITEM-UNIT[1]',
      'NEW_ITEM-PRICE[1]',
      'NEW_ITEM-PRICEUNIT[1]',
      'NEW_ITEM-CURRENCY[1]',
      'NEW_ITEM-VENDORMAT[1]',
      'NEW_ITEM-EXT_PRODUCT_ID[1]',
      'NEW_ITEM-DESCRIPTION[2]',
      'NEW_ITEM-QUANTITY[2]',
      'NEW_ITEM-UNIT[2]',
      'NEW_ITEM-PRICE[2]',
      'NEW_ITEM-PRICEUNIT[2]',
      'NEW_ITEM-CURRENCY[2]',
      'NEW_ITEM-EXT_PRODUCT_ID[2]',
    ]);
    expect(buildOciItems([])).toEqual([]);
  });

  describe('DESCRIPTION and LONGTEXT', () => {
    it('keeps a description of exactly 40 characters whole, without long text', () => {
      const description = 'x'.repeat(40);
      const fields = build({ description });
      expect(fieldValue(fields, 'NEW_ITEM-DESCRIPTION[1]')).toBe(description);
      expect(fieldValue(fields, 'NEW_ITEM-LONGTEXT_1:132[]')).toBeUndefined();
    });

    it('cuts a longer description at 40 characters and puts the whole one into the long text', () => {
      const description =
        'Business cards, premium 400 g/m² board, soft-touch laminated both sides, 85 x 55 mm';
      const fields = build({ description, longText: 'Proof: PDF' });
      expect(fieldValue(fields, 'NEW_ITEM-DESCRIPTION[1]')).toBe('Business cards, premium 400 g/m² board,');
      expect(fieldValue(fields, 'NEW_ITEM-LONGTEXT_1:132[]')).toBe(`${description}\nProof: PDF`);
    });

    it('counts characters, not UTF-16 units, and never splits a surrogate pair', () => {
      const description = `${'a'.repeat(39)}😀${'b'.repeat(5)}`;
      expect(fieldValue(build({ description }), 'NEW_ITEM-DESCRIPTION[1]')).toBe(`${'a'.repeat(39)}😀`);
      expect(fieldValue(build({ description }, { charset: 'iso-8859-1' }), 'NEW_ITEM-DESCRIPTION[1]')).toBe(
        `${'a'.repeat(39)}?`,
      );
    });

    it('collapses line breaks and runs of whitespace in the description but keeps them in the long text', () => {
      const fields = build({ description: '  Flyer\r\nA5 \t 4/4  ', longText: 'Line 1\r\nLine 2\rLine 3' });
      expect(fieldValue(fields, 'NEW_ITEM-DESCRIPTION[1]')).toBe('Flyer A5 4/4');
      expect(fieldValue(fields, 'NEW_ITEM-LONGTEXT_1:132[]')).toBe('Line 1\nLine 2\nLine 3');
    });

    it('uses the item number in the long-text name', () => {
      const fields = buildOciItems([line, { ...line, lineRef: 'L2', longText: 'second' }]);
      expect(fields.filter(([name]) => name.startsWith('NEW_ITEM-LONGTEXT'))).toEqual([
        ['NEW_ITEM-LONGTEXT_2:132[]', 'second'],
      ]);
    });

    it('rejects an empty description', () => {
      expect(ociError(() => build({ description: ' \n ' }))).toMatchObject({
        code: 'bad_line',
        param: 'NEW_ITEM-DESCRIPTION[1]',
        message: 'Cart line 1 (PG-7K2M9Q) has an empty description.',
      });
    });
  });

  describe('charset', () => {
    const description = 'Karten „Premium“ – 5 € Rabatt, Œuvre, Łódź, Ελλάδα';

    it('keeps everything in UTF-8', () => {
      expect(fieldValue(build({ longText: description }), 'NEW_ITEM-LONGTEXT_1:132[]')).toBe(description);
    });

    it('transliterates what ISO-8859-1 lacks', () => {
      expect(
        fieldValue(build({ longText: description }, { charset: 'iso-8859-1' }), 'NEW_ITEM-LONGTEXT_1:132[]'),
      ).toBe('Karten "Premium" - 5 EUR Rabatt, OEuvre, Lódz, ??????');
    });

    it('keeps windows-1252 punctuation and the euro sign for windows-1252 buyers', () => {
      expect(
        fieldValue(
          build({ longText: description }, { charset: 'windows-1252' }),
          'NEW_ITEM-LONGTEXT_1:132[]',
        ),
      ).toBe('Karten „Premium“ – 5 € Rabatt, Œuvre, Lódz, ??????');
    });

    it('measures length after transliteration', () => {
      const fields = build({ description: `${'x'.repeat(37)}€€` }, { charset: 'iso-8859-1' });
      expect(fieldValue(fields, 'NEW_ITEM-DESCRIPTION[1]')).toBe(`${'x'.repeat(37)}EUR`);
      expect(fieldValue(fields, 'NEW_ITEM-LONGTEXT_1:132[]')).toBe(`${'x'.repeat(37)}EUREUR`);
    });

    it('composes decomposed umlauts before fitting and drops control characters', () => {
      const fields = build(
        { description: 'Gru\u0308n\u0007e Ta\u0308sche\u0085' },
        { charset: 'iso-8859-1' },
      );
      expect(fieldValue(fields, 'NEW_ITEM-DESCRIPTION[1]')).toBe('Grüne Täsche');
    });
  });

  describe('QUANTITY', () => {
    it.each([
      [1, '1'],
      [1.5, '1.5'],
      [1.2345, '1.235'],
      [1.0005, '1.001'],
      [2.675, '2.675'],
      [0.0005, '0.001'],
      [250, '250'],
      [1e-3, '0.001'],
      [99_999_999_999.999, '99999999999.999'],
      [1e10, '10000000000'],
    ])('%s → %s', (quantity, text) => {
      expect(fieldValue(build({ quantity }), 'NEW_ITEM-QUANTITY[1]')).toBe(text);
    });

    it.each([0, -1, 0.0004, 1e-7, 1e11, Number.NaN, Number.POSITIVE_INFINITY])('rejects %s', (quantity) => {
      expect(ociError(() => build({ quantity }))).toMatchObject({
        code: 'bad_quantity',
        param: 'NEW_ITEM-QUANTITY[1]',
      });
    });
  });

  describe('PRICE and PRICEUNIT', () => {
    it.each([
      ['12.5', '12.50'],
      ['12', '12.00'],
      ['0.0425', '0.0425'],
      ['0.04255', '0.0426'],
      ['0.04254', '0.0425'],
      ['1730.900', '1730.90'],
      ['007.10', '7.10'],
      ['0', '0.00'],
      ['9999999999.9999', '9999999999.9999'],
    ])('%s → %s', (unitPrice, text) => {
      expect(fieldValue(build({ unitPrice }), 'NEW_ITEM-PRICE[1]')).toBe(text);
    });

    it('follows the buyer decimals', () => {
      expect(
        fieldValue(
          build({ unitPrice: '1730.9' }, { priceDecimals: { min: 3, max: 3 } }),
          'NEW_ITEM-PRICE[1]',
        ),
      ).toBe('1730.900');
      expect(
        fieldValue(build({ unitPrice: '0.125' }, { priceDecimals: { min: 2, max: 2 } }), 'NEW_ITEM-PRICE[1]'),
      ).toBe('0.13');
    });

    it.each(['1,50', '-1', '1e3', '', ' ', '12.', '.5', '99999999999.9999'])(
      'rejects price %j',
      (unitPrice) => {
        expect(ociError(() => build({ unitPrice }))).toMatchObject({
          code: 'bad_price',
          param: 'NEW_ITEM-PRICE[1]',
        });
      },
    );

    it("writes PRICE in the currency's decimals by default: none for JPY, three for BHD", () => {
      expect(fieldValue(build({ unitPrice: '1200', currency: 'JPY' }), 'NEW_ITEM-PRICE[1]')).toBe('1200');
      expect(fieldValue(build({ unitPrice: '0.5', currency: 'JPY' }), 'NEW_ITEM-PRICE[1]')).toBe('0.5');
      expect(fieldValue(build({ unitPrice: '1.25', currency: 'BHD' }), 'NEW_ITEM-PRICE[1]')).toBe('1.250');
      expect(fieldValue(build({ unitPrice: '1.23456', currency: 'BHD' }), 'NEW_ITEM-PRICE[1]')).toBe(
        '1.2346',
      );
    });

    it('sends a price per thousand as it is, with PRICEUNIT 1000', () => {
      const fields = build({ unitPrice: '45.2', priceUnit: 1000 });
      expect(fieldValue(fields, 'NEW_ITEM-PRICE[1]')).toBe('45.20');
      expect(fieldValue(fields, 'NEW_ITEM-PRICEUNIT[1]')).toBe('1000');
    });

    it('sends the price unit, 1 by default', () => {
      expect(fieldValue(build({}), 'NEW_ITEM-PRICEUNIT[1]')).toBe('1');
      expect(fieldValue(build({ priceUnit: 1000, unitPrice: '171.5607' }), 'NEW_ITEM-PRICEUNIT[1]')).toBe(
        '1000',
      );
    });

    it.each([0, 1.5, 100_000, -1])('rejects price unit %s', (priceUnit) => {
      expect(ociError(() => build({ priceUnit }))).toMatchObject({
        code: 'bad_price_unit',
        param: 'NEW_ITEM-PRICEUNIT[1]',
      });
    });
  });

  describe('UNIT, CURRENCY, LEADTIME', () => {
    it('maps units through the buyer map, matching keys without regard to case', () => {
      expect(fieldValue(build({ uom: 'PCE' }, { unitMap: { PCE: 'ST' } }), 'NEW_ITEM-UNIT[1]')).toBe('ST');
      expect(fieldValue(build({ uom: 'pce' }, { unitMap: { PCE: 'ST' } }), 'NEW_ITEM-UNIT[1]')).toBe('ST');
      expect(fieldValue(build({ uom: 'KGM' }, { unitMap: { PCE: 'ST' } }), 'NEW_ITEM-UNIT[1]')).toBe('KGM');
    });

    it('rejects units that do not fit or are empty', () => {
      expect(ociError(() => build({ uom: 'PIECE' }))).toMatchObject({
        code: 'field_too_long',
        param: 'NEW_ITEM-UNIT[1]',
        message: 'Cart line 1 (PG-7K2M9Q) has UNIT "PIECE", longer than SAP\'s 3 characters.',
      });
      expect(ociError(() => build({ uom: 'PCE' }, { unitMap: { PCE: '' } }))).toMatchObject({
        code: 'bad_line',
      });
      expect(ociError(() => build({ uom: 'PIECE' }, { lengthPolicy: 'truncate' })).code).toBe(
        'field_too_long',
      );
    });

    it('upper-cases the currency and rejects an empty or overlong one', () => {
      expect(fieldValue(build({ currency: 'chf' }), 'NEW_ITEM-CURRENCY[1]')).toBe('CHF');
      expect(ociError(() => build({ currency: '' })).code).toBe('bad_line');
      expect(ociError(() => build({ currency: 'EURO12' })).code).toBe('field_too_long');
    });

    it('rounds part days of lead time up and rejects impossible ones', () => {
      expect(fieldValue(build({ leadTimeDays: 0 }), 'NEW_ITEM-LEADTIME[1]')).toBe('0');
      expect(fieldValue(build({ leadTimeDays: 2.2 }), 'NEW_ITEM-LEADTIME[1]')).toBe('3');
      for (const leadTimeDays of [-1, 100_000, Number.NaN]) {
        expect(ociError(() => build({ leadTimeDays }))).toMatchObject({
          code: 'bad_lead_time',
          param: 'NEW_ITEM-LEADTIME[1]',
        });
      }
    });
  });

  describe('SAP field lengths', () => {
    it.each([
      ['VENDORMAT', { sku: 'S'.repeat(41) }, 40],
      ['MANUFACTMAT', { manufacturerPartId: 'M'.repeat(41) }, 40],
      ['MANUFACTCODE', { manufacturerCode: 'C'.repeat(11) }, 10],
      ['MATGROUP', { matGroup: 'G'.repeat(11) }, 10],
      ['VENDOR', { vendor: 'V'.repeat(11) }, 10],
      ['EXT_PRODUCT_ID', { lineRef: 'R'.repeat(41) }, 40],
      ['EXT_CATEGORY_ID', { unspsc: '8'.repeat(61) }, 60],
      ['CUST_FIELD1', { custFields: ['1'.repeat(11)] }, 10],
      ['CUST_FIELD4', { custFields: ['', '', '', '4'.repeat(21)] }, 20],
      ['CUST_FIELD5', { custFields: ['', '', '', '', '5'.repeat(51)] }, 50],
    ] as const)('%s: rejects by default, cuts with lengthPolicy truncate', (field, overrides, length) => {
      const error = ociError(() => build(overrides));
      expect(error).toMatchObject({ code: 'field_too_long', param: `NEW_ITEM-${field}[1]` });
      const cut = fieldValue(build(overrides, { lengthPolicy: 'truncate' }), `NEW_ITEM-${field}[1]`);
      expect(cut).toHaveLength(length);
      const fitting = Object.fromEntries(
        Object.entries(overrides).map(([key, value]) => [
          key,
          Array.isArray(value)
            ? value.map((v: string) => v.slice(0, length))
            : (value as string).slice(0, length),
        ]),
      );
      expect(fieldValue(build(fitting), `NEW_ITEM-${field}[1]`)).toHaveLength(length);
    });

    it('takes per-buyer length overrides', () => {
      const custFields = ['', '', '', '', 'x'.repeat(255)];
      expect(
        fieldValue(build({ custFields }, { fieldLengths: { CUST_FIELD5: 255 } }), 'NEW_ITEM-CUST_FIELD5[1]'),
      ).toHaveLength(255);
      expect(ociError(() => build({ description: 'Flyer' }, { fieldLengths: { CURRENCY: 2 } })).code).toBe(
        'field_too_long',
      );
    });

    it('needs a line reference', () => {
      expect(ociError(() => build({ lineRef: '' }))).toMatchObject({
        code: 'bad_line',
        param: 'NEW_ITEM-EXT_PRODUCT_ID[1]',
      });
    });
  });

  describe('CUST_FIELD1–5', () => {
    it('take the line value, else the buyer-wide value', () => {
      const fields = build({ custFields: ['', 'line'] }, { custFields: ['buyer1', 'buyer2', 'buyer3'] });
      expect(fields.filter(([name]) => name.startsWith('NEW_ITEM-CUST_FIELD'))).toEqual([
        ['NEW_ITEM-CUST_FIELD1[1]', 'buyer1'],
        ['NEW_ITEM-CUST_FIELD2[1]', 'line'],
        ['NEW_ITEM-CUST_FIELD3[1]', 'buyer3'],
      ]);
    });

    it('are at most five', () => {
      expect(ociError(() => build({ custFields: ['1', '2', '3', '4', '5', '6'] })).code).toBe('bad_line');
      expect(() => build({}, { custFields: ['1', '2', '3', '4', '5', '6'] })).toThrow(TypeError);
    });
  });

  describe('OCI 5.0 hierarchy', () => {
    const bundle: OciCartLine[] = [
      { ...line, lineRef: 'KIT', description: 'Trade fair kit' },
      { ...line, lineRef: 'KIT-1', description: 'Roll-up banner', parentLineRef: 'KIT' },
      { ...line, lineRef: 'SOLO', description: 'Flyer' },
      { ...line, lineRef: 'KIT-2', description: 'Flyers', parentLineRef: 'KIT', itemType: 'X' },
    ];
    const hierarchyFields = (fields: readonly OciFormField[]) =>
      fields.filter(([name]) => /PARENT_ID|ITEM_TYPE/.test(name));

    it('sends PARENT_ID as the parent item number and ITEM_TYPE R/O, overridable per line', () => {
      expect(hierarchyFields(buildOciItems(bundle, { ociVersion: '5.0' }))).toEqual([
        ['NEW_ITEM-ITEM_TYPE[1]', 'R'],
        ['NEW_ITEM-PARENT_ID[2]', '1'],
        ['NEW_ITEM-ITEM_TYPE[2]', 'O'],
        ['NEW_ITEM-PARENT_ID[4]', '1'],
        ['NEW_ITEM-ITEM_TYPE[4]', 'X'],
      ]);
    });

    it('sends the lines flat for OCI 4.0', () => {
      expect(hierarchyFields(buildOciItems(bundle))).toEqual([]);
      expect(hierarchyFields(buildOciItems(bundle, { ociVersion: '4.0' }))).toEqual([]);
    });

    it.each([
      [[{ ...line, lineRef: 'A', parentLineRef: 'B' }], 'names parent "B", which is not in the cart'],
      [[{ ...line, lineRef: 'A', parentLineRef: 'A' }], 'names itself as its parent'],
      [
        [line, { ...line }, { ...line, lineRef: 'C', parentLineRef: line.lineRef }],
        'names parent "PG-7K2M9Q", which several lines share',
      ],
      [
        [
          { ...line, lineRef: 'A', parentLineRef: 'B' },
          { ...line, lineRef: 'B', parentLineRef: 'A' },
        ],
        'is part of a parent cycle',
      ],
    ])('rejects broken hierarchies (%#)', (lines, problem) => {
      const error = ociError(() => buildOciItems(lines, { ociVersion: '5.0' }));
      expect(error.code).toBe('bad_line');
      expect(error.message).toContain(problem);
      expect(error.param).toMatch(/^NEW_ITEM-PARENT_ID\[\d\]$/);
    });
  });

  it('refuses more items than SAP can number', () => {
    expect(ociError(() => buildOciItems(new Array<OciCartLine>(100_000).fill(line)))).toMatchObject({
      code: 'too_many_items',
      message: 'An OCI cart holds at most 99999 items; this one has 100000.',
    });
  });
});
