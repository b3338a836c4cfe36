import { describe, expect, it } from 'vitest';
import {
  buildReturnUrl,
  type EditorProductRef,
  type MediaInputErrorCode,
  type MediaProduct,
  parseEditorQuery,
} from '../../../src/print/media/index.ts';
import { banner, businessCard } from './sample-products.ts';

const products: readonly MediaProduct[] = [businessCard, banner];
const findProduct = (ref: EditorProductRef) =>
  products.find((product) =>
    ref.by === 'productid' ? product.id === ref.productId : product.integrationId === ref.integrationId,
  );
const base = { productid: '101', tpsc: '1', token: 'a1b2c3' };

describe('parseEditorQuery: accepted queries', () => {
  it('reads the minimal query', () => {
    expect(parseEditorQuery(base, findProduct)).toEqual({
      ok: true,
      value: {
        productRef: { by: 'productid', productId: 101 },
        product: businessCard,
        token: 'a1b2c3',
        tags: {},
        tagSettings: [],
      },
    });
  });

  it('finds the product by epi, and prefers productid when both are given', () => {
    const byEpi = parseEditorQuery({ epi: 'BANNER-42', tpsc: 'true', token: 't' }, findProduct);
    expect(byEpi.ok && [byEpi.value.productRef, byEpi.value.product.id]).toEqual([
      { by: 'epi', integrationId: 'BANNER-42' },
      202,
    ]);
    const both = parseEditorQuery({ ...base, epi: 'BANNER-42' }, findProduct);
    expect(both.ok && both.value.product.id).toBe(101);
    const emptyId = parseEditorQuery({ ...base, productid: '', epi: 'BANNER-42' }, findProduct);
    expect(emptyId.ok && emptyId.value.product.id).toBe(202);
  });

  it('keeps cru and reads s for a custom-size product', () => {
    const result = parseEditorQuery(
      {
        productid: '202',
        tpsc: '1',
        token: 't',
        cru: 'https://gw.example/return?t=1&x=%2F',
        s: '8.50,11.00',
      },
      findProduct,
    );
    expect(result.ok && [result.value.cru, result.value.size]).toEqual([
      'https://gw.example/return?t=1&x=%2F',
      { widthIn: 8.5, heightIn: 11 },
    ]);
  });

  it('reads each image item tag by its kind, in product order, and canonicalises the value', () => {
    const result = parseEditorQuery(
      { ...base, scheme: 'Ink,#ff0000;paper,Brand Gold;', PHOTO: '0042', logo: 'FALSE', unrelated: 'x' },
      findProduct,
    );
    expect(result.ok && result.value.tags).toEqual({
      logo: 'false',
      photo: '42',
      scheme: 'Ink,#ff0000;paper,Brand Gold;',
    });
    expect(result.ok && result.value.tagSettings).toEqual([
      { name: 'logo', kind: 'visibility', value: 'false', visible: false },
      { name: 'photo', kind: 'image', value: '42', imageId: 42 },
      {
        name: 'scheme',
        kind: 'colors',
        value: 'Ink,#ff0000;paper,Brand Gold;',
        pairs: [
          { from: '#112233', to: '#FF0000' },
          { from: '#FFFBE6', to: '#D4AF37' },
        ],
      },
    ]);
  });

  it('reads parameter names in any case', () => {
    const result = parseEditorQuery({ ProductId: '101', TPSC: '1', Token: 't', Logo: 'true' }, findProduct);
    expect(result.ok && result.value.tags).toEqual({ logo: 'true' });
  });
});

type Refusal = [query: Record<string, string>, code: MediaInputErrorCode, parameter: string, message: string];

describe('parseEditorQuery: refused queries', () => {
  it.each<Refusal>([
    [{ tpsc: '1', token: 't' }, 'missing_parameter', 'productid', 'productid or epi is required'],
    [{ ...base, productid: '' }, 'missing_parameter', 'productid', 'productid or epi is required'],
    [{ ...base, productid: 'abc' }, 'invalid_integer', 'productid', 'productid must be a positive integer'],
    [{ ...base, productid: '0' }, 'out_of_range', 'productid', 'productid must be between 1 and 2147483647'],
    [{ productid: '101', token: 't' }, 'missing_parameter', 'tpsc', 'tpsc is required'],
    [{ ...base, tpsc: '' }, 'missing_parameter', 'tpsc', 'tpsc needs a value'],
    [{ productid: '101', tpsc: '1' }, 'missing_parameter', 'token', 'token is required'],
    [{ ...base, token: '' }, 'missing_parameter', 'token', 'token is required'],
    [
      { ...base, cru: 'javascript:alert(1)' },
      'invalid_url',
      'cru',
      'cru must be an absolute http or https URL',
    ],
    [{ ...base, cru: '/punchout/return' }, 'invalid_url', 'cru', 'cru must be an absolute http or https URL'],
    [
      { ...base, cru: 'ftp://gw.example/' },
      'invalid_url',
      'cru',
      'cru must be an absolute http or https URL',
    ],
    [{ ...base, productid: '999' }, 'unknown_product', 'productid', 'product 999 does not exist'],
    [
      { epi: 'NOPE', tpsc: '1', token: 't' },
      'unknown_product',
      'epi',
      'no product has the integration id NOPE',
    ],
    [
      { ...base, s: '8.50,11.00' },
      'size_not_allowed',
      's',
      's is allowed only for products with custom sizing',
    ],
    ...['8.5,11', '8.50x11.00', '0.00,1.00', '1000.00,1.00', '8.500,11.00', '-8.50,11.00'].map(
      (s) =>
        [
          { ...base, productid: '202', s },
          'invalid_size',
          's',
          's must be w.ww,h.hh with both sides above zero (for example 8.50,11.00)',
        ] satisfies Refusal,
    ),
    [{ ...base, logo: 'yes' }, 'invalid_boolean', 'logo', 'logo must be true or false'],
    [{ ...base, logo: '' }, 'invalid_boolean', 'logo', 'logo must be true or false'],
    [{ ...base, photo: 'abc' }, 'invalid_integer', 'photo', 'photo must be a positive integer image id'],
    [{ ...base, photo: '0' }, 'invalid_integer', 'photo', 'photo must be a positive integer image id'],
    [{ ...base, scheme: '' }, 'invalid_color_map', 'scheme', 'scheme must be a colour map from,to;from,to'],
    [{ ...base, scheme: ';' }, 'invalid_color_map', 'scheme', 'scheme must be a colour map from,to;from,to'],
    [
      { ...base, scheme: 'Ink' },
      'invalid_color_map',
      'scheme',
      'scheme must be a colour map from,to;from,to (pair "Ink" is not two colours)',
    ],
    [
      { ...base, scheme: 'Ink,Paper;;Ink,Paper' },
      'invalid_color_map',
      'scheme',
      'scheme must be a colour map from,to;from,to (pair "" is not two colours)',
    ],
    [
      { ...base, scheme: 'Ink,Nope' },
      'invalid_color',
      'scheme',
      'scheme: "Nope" is neither a 6-digit RGB hex code nor a palette colour',
    ],
    [
      { ...base, scheme: '#12345,Ink' },
      'invalid_color',
      'scheme',
      'scheme: "#12345" is neither a 6-digit RGB hex code nor a palette colour',
    ],
  ])('refuses %j with %s on %s', (query, code, parameter, message) => {
    const result = parseEditorQuery(query, findProduct);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.toJSON()).toEqual({ code, parameter, message });
  });
});

describe('buildReturnUrl', () => {
  it.each([
    [
      'https://gw.example/punchout/return?t=abc',
      { logo: 'false' },
      'https://gw.example/punchout/return?t=abc&productid=9001&logo=false',
    ],
    ['https://gw.example/r', {}, 'https://gw.example/r?productid=9001'],
    ['https://gw.example/r?', {}, 'https://gw.example/r?productid=9001'],
    ['https://gw.example/r?a=1#top', {}, 'https://gw.example/r?a=1&productid=9001#top'],
    [
      'http://127.0.0.1:8080/r?sig=a%2Fb+c&x=%20&flag',
      {},
      'http://127.0.0.1:8080/r?sig=a%2Fb+c&x=%20&flag&productid=9001',
    ],
    [
      'https://gw.example/r?ProductId=1&t=2&LOGO=true',
      { logo: 'false' },
      'https://gw.example/r?t=2&productid=9001&logo=false',
    ],
    [
      'https://gw.example/r',
      { photo: '42', scheme: 'Ink,#FF0000;Paper,Brand Gold' },
      'https://gw.example/r?productid=9001&photo=42&scheme=Ink%2C%23FF0000%3BPaper%2CBrand%20Gold',
    ],
  ])('%s with %j → %s', (cru, tags, expected) => {
    expect(buildReturnUrl(cru, 9001, tags)).toBe(expected);
    expect(new URL(expected).searchParams.get('productid')).toBe('9001');
  });

  it('refuses a return URL that is not absolute http(s)', () => {
    expect(() => buildReturnUrl('javascript:alert(1)', 1, {})).toThrow(TypeError);
  });
});
