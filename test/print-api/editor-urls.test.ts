/**
 * Editor-host URLs (R14, R15, R16, A07): exact strings, and TypeError for every kind of misuse.
 */
import { describe, expect, it } from 'vitest';
import { createEditorUrls } from '../../src/index.ts';

const urls = createEditorUrls('https://print.example.com/editor/');
const token = 'a1b2c3';

describe('onlineEditorUrl', () => {
  it('R14 productid with tpsc=1 and token, in that order', () => {
    expect(urls.onlineEditorUrl({ productId: 101, token })).toBe(
      'https://print.example.com/editor/online-editor?productid=101&tpsc=1&token=a1b2c3',
    );
  });

  it('R14 epi instead of productid, percent-encoded', () => {
    expect(urls.onlineEditorUrl({ epi: 'BC STD/1&2', token })).toBe(
      'https://print.example.com/editor/online-editor?epi=BC%20STD%2F1%262&tpsc=1&token=a1b2c3',
    );
  });

  it('R14 cru is the URL-encoded cart return URL, so its own query survives', () => {
    const url = urls.onlineEditorUrl({
      productId: 101,
      token,
      cartReturnUrl: 'https://gw.example.com/punchout/return?t=x.y&line=2',
    });
    expect(url).toBe(
      'https://print.example.com/editor/online-editor?productid=101&tpsc=1&token=a1b2c3' +
        '&cru=https%3A%2F%2Fgw.example.com%2Fpunchout%2Freturn%3Ft%3Dx.y%26line%3D2',
    );
    expect(new URL(url).searchParams.get('cru')).toBe('https://gw.example.com/punchout/return?t=x.y&line=2');
  });

  it('R14 custom size as w.ww,h.hh', () => {
    const url = urls.onlineEditorUrl({ productId: 101, token, size: { widthIn: 3.5, heightIn: 2 } });
    expect(url.endsWith('&s=3.50%2C2.00')).toBe(true);
    expect(new URL(url).searchParams.get('s')).toBe('3.50,2.00');
  });

  it('R14 image item tags: show/hide, swap image id, colour map', () => {
    const url = urls.onlineEditorUrl({
      productId: 101,
      token,
      tags: {
        logo: false,
        photo: 4711,
        background: [
          ['#ffffff', 'Navy Blue'],
          ['000', 'ff0000'],
        ],
      },
    });
    expect(url).toBe(
      'https://print.example.com/editor/online-editor?productid=101&tpsc=1&token=a1b2c3' +
        '&logo=false&photo=4711&background=%23ffffff%2CNavy%20Blue%3B000%2Cff0000',
    );
    const params = new URL(url).searchParams;
    expect([params.get('logo'), params.get('photo'), params.get('background')]).toEqual([
      'false',
      '4711',
      '#ffffff,Navy Blue;000,ff0000',
    ]);
  });

  it.each([
    ['both productId and epi', { productId: 1, epi: 'x', token }],
    ['neither productId nor epi', { token }],
    ['a fractional productId', { productId: 1.5, token }],
    ['a string productId', { productId: '101', token }],
    ['an empty epi', { epi: '', token }],
    ['no token', { productId: 1 }],
    ['a blank token', { productId: 1, token: ' ' }],
    ['a relative cartReturnUrl', { productId: 1, token, cartReturnUrl: '/cart' }],
    ['a javascript: cartReturnUrl', { productId: 1, token, cartReturnUrl: 'javascript:alert(1)' }],
    ['a zero width', { productId: 1, token, size: { widthIn: 0, heightIn: 2 } }],
    ['a width that rounds to 0.00', { productId: 1, token, size: { widthIn: 0.001, heightIn: 2 } }],
    ['an infinite height', { productId: 1, token, size: { widthIn: 1, heightIn: Number.POSITIVE_INFINITY } }],
    ['a tag named like a fixed parameter', { productId: 1, token, tags: { Token: true } }],
    ['an empty tag name', { productId: 1, token, tags: { '': true } }],
    ['a fractional image id', { productId: 1, token, tags: { photo: 1.5 } }],
    ['an empty colour map', { productId: 1, token, tags: { bg: [] } }],
    ['a colour pair of three', { productId: 1, token, tags: { bg: [['fff', '000', '111']] } }],
    ['a colour with a separator', { productId: 1, token, tags: { bg: [['fff', 'red;blue']] } }],
    ['a colour with a comma', { productId: 1, token, tags: { bg: [['a,b', 'red']] } }],
    ['a string tag value', { productId: 1, token, tags: { bg: 'red' } }],
  ])('throws TypeError for %s', (_what, options) => {
    expect(() => urls.onlineEditorUrl(options as never)).toThrow(TypeError);
  });
});

describe('thumbnailUrl', () => {
  it('R15 only p when nothing else is given (the service applies its defaults)', () => {
    expect(urls.thumbnailUrl({ productId: 101 })).toBe(
      'https://print.example.com/editor/productthumb.ashx?p=101',
    );
  });

  it('R15 every parameter', () => {
    expect(
      urls.thumbnailUrl({
        productId: 101,
        width: 200,
        height: 120,
        border: false,
        borderWidth: 0,
        borderColor: 'A0B1C2',
        borderMode: 1,
        fitMode: 2,
        proportional: false,
      }),
    ).toBe(
      'https://print.example.com/editor/productthumb.ashx?p=101&w=200&h=120&b=false&bw=0&bc=A0B1C2&bm=1&fm=2&fwnb=false',
    );
  });

  it.each([
    ['no productId', {}],
    ['a zero width', { productId: 1, width: 0 }],
    ['a fractional height', { productId: 1, height: 10.5 }],
    ['a negative border width', { productId: 1, borderWidth: -1 }],
    ['a border colour with #', { productId: 1, borderColor: '#777777' }],
    ['a named border colour', { productId: 1, borderColor: 'grey' }],
    ['borderMode 2', { productId: 1, borderMode: 2 }],
    ['fitMode 3', { productId: 1, fitMode: 3 }],
    ['border "yes"', { productId: 1, border: 'yes' }],
  ])('throws TypeError for %s', (_what, options) => {
    expect(() => urls.thumbnailUrl(options as never)).toThrow(TypeError);
  });
});

describe('proofUrl', () => {
  it('R16 A07 download.ashx with the PIPO token and pid', () => {
    expect(urls.proofUrl({ token: 'ab+cd/ef=', productId: 555 })).toBe(
      'https://print.example.com/editor/download.ashx?token=ab%2Bcd%2Fef%3D&pid=555',
    );
  });

  it.each([
    ['no token', { productId: 1 }],
    ['a fractional productId', { token, productId: 2.5 }],
  ])('throws TypeError for %s', (_what, options) => {
    expect(() => urls.proofUrl(options as never)).toThrow(TypeError);
  });
});

describe('createEditorUrls', () => {
  it.each([['relative'], ['/editor'], ['ftp://print.example.com'], ['https://print.example.com/editor?x=1']])(
    'throws TypeError for %j',
    (editorUrl) => {
      expect(() => createEditorUrls(editorUrl)).toThrow(TypeError);
    },
  );
});
