import { describe, expect, it } from 'vitest';
import { parseThumbnailParams } from '../../../src/print/media/index.ts';

describe('parseThumbnailParams', () => {
  it('takes the interface defaults when only p is given', () => {
    expect(parseThumbnailParams({ p: '101' })).toEqual({
      ok: true,
      value: {
        productId: 101,
        border: true,
        borderWidth: 1,
        borderColor: '777777',
        borderAround: 'product',
        fit: 'fit',
        proportional: true,
      },
    });
  });

  it('reads every parameter', () => {
    const query = {
      p: '7',
      w: '300',
      h: '150',
      b: 'false',
      bw: '3',
      bc: 'ff00aa',
      bm: '1',
      fm: '2',
      fwnb: '0',
    };
    expect(parseThumbnailParams(query)).toEqual({
      ok: true,
      value: {
        productId: 7,
        width: 300,
        height: 150,
        border: false,
        borderWidth: 3,
        borderColor: 'FF00AA',
        borderAround: 'thumbnail',
        fit: 'stretch',
        proportional: false,
      },
    });
  });

  it.each([
    [{ fm: '0' }, { fit: 'fit' }],
    [{ fm: '1' }, { fit: 'mask' }],
    [{ bm: '0' }, { borderAround: 'product' }],
    [
      { b: 'TRUE', fwnb: 'False' },
      { border: true, proportional: false },
    ],
    [
      { b: '0', fwnb: '1' },
      { border: false, proportional: true },
    ],
    [
      { w: '', bw: '', bc: '' },
      { borderWidth: 1, borderColor: '777777' },
    ],
    [
      { bw: '0', w: '4000', h: '1' },
      { borderWidth: 0, width: 4000, height: 1 },
    ],
  ])('reads %j as %j', (extra, expected) => {
    const result = parseThumbnailParams({ p: '1', ...extra });
    expect(result.ok && result.value).toMatchObject(expected);
  });

  it('reads parameter names in any case', () => {
    const result = parseThumbnailParams({ P: '5', W: '10', FWNB: 'false' });
    expect(result.ok && result.value).toMatchObject({ productId: 5, width: 10, proportional: false });
  });

  it.each([
    [{}, 'missing_parameter', 'p', 'p is required: the product id'],
    [{ p: '' }, 'missing_parameter', 'p', 'p is required: the product id'],
    [{ p: 'abc' }, 'invalid_integer', 'p', 'p must be a positive integer'],
    [{ p: '-1' }, 'invalid_integer', 'p', 'p must be a positive integer'],
    [{ p: '0' }, 'out_of_range', 'p', 'p must be between 1 and 2147483647'],
    [{ p: '2147483648' }, 'out_of_range', 'p', 'p must be between 1 and 2147483647'],
    [{ p: '1', w: '0' }, 'out_of_range', 'w', 'w must be a positive integer ≤ 4000'],
    [{ p: '1', w: '4001' }, 'out_of_range', 'w', 'w must be a positive integer ≤ 4000'],
    [{ p: '1', w: '1.5' }, 'invalid_integer', 'w', 'w must be a positive integer ≤ 4000'],
    [{ p: '1', w: ' 10' }, 'invalid_integer', 'w', 'w must be a positive integer ≤ 4000'],
    [{ p: '1', h: 'tall' }, 'invalid_integer', 'h', 'h must be a positive integer ≤ 4000'],
    [{ p: '1', b: 'yes' }, 'invalid_boolean', 'b', 'b must be true or false'],
    [{ p: '1', bw: 'x' }, 'invalid_integer', 'bw', 'bw must be an integer from 0 to 100'],
    [{ p: '1', bw: '101' }, 'out_of_range', 'bw', 'bw must be an integer from 0 to 100'],
    [
      { p: '1', bc: '#777777' },
      'invalid_color',
      'bc',
      'bc must be 6 hex digits without # (for example 777777)',
    ],
    [
      { p: '1', bc: '77777' },
      'invalid_color',
      'bc',
      'bc must be 6 hex digits without # (for example 777777)',
    ],
    [
      { p: '1', bc: 'gggggg' },
      'invalid_color',
      'bc',
      'bc must be 6 hex digits without # (for example 777777)',
    ],
    [{ p: '1', bm: '2' }, 'invalid_choice', 'bm', 'bm must be 0 or 1'],
    [{ p: '1', fm: '3' }, 'invalid_choice', 'fm', 'fm must be 0, 1 or 2'],
    [{ p: '1', fm: 'fit' }, 'invalid_choice', 'fm', 'fm must be 0, 1 or 2'],
    [{ p: '1', fwnb: 'maybe' }, 'invalid_boolean', 'fwnb', 'fwnb must be true or false'],
    [{ p: 'x', w: 'y', fm: '9' }, 'invalid_integer', 'p', 'p must be a positive integer'],
  ])('refuses %j with %s on %s', (query, code, parameter, message) => {
    const result = parseThumbnailParams(query);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.toJSON()).toEqual({ code, parameter, message });
  });
});
