/**
 * The query of `{editor_url}/productthumb.ashx`, read into typed options.
 *
 * Reading rules (the interface gives types and defaults, these are the sandbox's choices):
 * - names are case-insensitive (an ASP.NET handler's are);
 * - an optional parameter given empty (`w=`) counts as absent and takes its default;
 * - booleans are `true`/`false`/`1`/`0` in any case;
 * - `p` is a positive 32-bit integer; `w`, `h` are integers 1..4000; `bw` is an integer 0..100;
 * - `bc` is exactly six hex digits without `#`; `bm` is 0 or 1; `fm` is 0, 1 or 2.
 */

import { type MediaParseResult, parsed, refused } from './media-input-error.ts';
import { MAX_ID, normalizeQuery, type QueryInput, readDigits } from './query-params.ts';

/** The largest thumbnail side in pixels; bigger answers would only burn memory. */
export const MAX_THUMBNAIL_SIDE = 4000;
const MAX_BORDER_WIDTH = 100;
/** The long side of a thumbnail when neither `w` nor `h` is given. */
export const DEFAULT_THUMBNAIL_LONG_SIDE = 200;

/** How the thumbnail is drawn; `renderThumbnailPng` takes any subset and defaults the rest. */
export interface ThumbnailOptions {
  /** `w`: box width in pixels; derived from `h` and the product's proportions when absent. */
  readonly width?: number;
  /** `h`: box height in pixels; derived from `w` and the product's proportions when absent. */
  readonly height?: number;
  /** `b`: draw a border. */
  readonly border: boolean;
  /** `bw`: border thickness in pixels (0 draws none). */
  readonly borderWidth: number;
  /** `bc`: border colour as six upper-case hex digits, without `#`. */
  readonly borderColor: string;
  /** `bm`: 0 → `product` (the frame sits on the product's edge), 1 → `thumbnail` (on the image's edge). */
  readonly borderAround: 'product' | 'thumbnail';
  /** `fm`: 0 → `fit` (whole product, letterboxed), 1 → `mask` (fills the box, cropped), 2 → `stretch`. */
  readonly fit: 'fit' | 'mask' | 'stretch';
  /** `fwnb`: the image takes the product's proportions within the box; the border does not add to its size. */
  readonly proportional: boolean;
}

export interface ThumbnailParams extends ThumbnailOptions {
  /** `p`: the product (template) or user project id. */
  readonly productId: number;
}

export const DEFAULT_THUMBNAIL_OPTIONS: ThumbnailOptions = {
  border: true,
  borderWidth: 1,
  borderColor: '777777',
  borderAround: 'product',
  fit: 'fit',
  proportional: true,
};

/**
 * Reads a productthumb.ashx query. The first bad parameter, in the order p, w, h, b, bw, bc, bm, fm, fwnb,
 * is the one reported.
 *
 * @example
 * const result = parseThumbnailParams({ p: '101', w: '300', bc: 'ff0000' });
 * if (!result.ok) return c.json({ Message: result.error.message }, 400);
 * const png = renderThumbnailPng(design, result.value);
 */
export function parseThumbnailParams(query: QueryInput): MediaParseResult<ThumbnailParams> {
  const params = normalizeQuery(query);
  const given = (name: string): string | undefined => {
    const value = params.get(name);
    return value === '' ? undefined : value;
  };

  const p = given('p');
  if (p === undefined) return refused('missing_parameter', 'p', 'p is required: the product id');
  const productId = readDigits(p);
  if (productId === undefined) return refused('invalid_integer', 'p', 'p must be a positive integer');
  if (productId < 1 || productId > MAX_ID)
    return refused('out_of_range', 'p', `p must be between 1 and ${MAX_ID}`);

  const sides: { width?: number; height?: number } = {};
  for (const [name, key] of [
    ['w', 'width'],
    ['h', 'height'],
  ] as const) {
    const text = given(name);
    if (text === undefined) continue;
    const value = readDigits(text);
    if (value === undefined) {
      return refused('invalid_integer', name, `${name} must be a positive integer ≤ ${MAX_THUMBNAIL_SIDE}`);
    }
    if (value < 1 || value > MAX_THUMBNAIL_SIDE) {
      return refused('out_of_range', name, `${name} must be a positive integer ≤ ${MAX_THUMBNAIL_SIDE}`);
    }
    sides[key] = value;
  }

  const border = readBoolean(given('b'), 'b', DEFAULT_THUMBNAIL_OPTIONS.border);
  if (!border.ok) return border;

  let borderWidth = DEFAULT_THUMBNAIL_OPTIONS.borderWidth;
  const bw = given('bw');
  if (bw !== undefined) {
    const value = readDigits(bw);
    if (value === undefined) {
      return refused('invalid_integer', 'bw', `bw must be an integer from 0 to ${MAX_BORDER_WIDTH}`);
    }
    if (value > MAX_BORDER_WIDTH) {
      return refused('out_of_range', 'bw', `bw must be an integer from 0 to ${MAX_BORDER_WIDTH}`);
    }
    borderWidth = value;
  }

  let borderColor = DEFAULT_THUMBNAIL_OPTIONS.borderColor;
  const bc = given('bc');
  if (bc !== undefined) {
    if (!/^[0-9a-fA-F]{6}$/.test(bc)) {
      return refused('invalid_color', 'bc', 'bc must be 6 hex digits without # (for example 777777)');
    }
    borderColor = bc.toUpperCase();
  }

  const bm = given('bm');
  if (bm !== undefined && bm !== '0' && bm !== '1')
    return refused('invalid_choice', 'bm', 'bm must be 0 or 1');
  const fm = given('fm');
  if (fm !== undefined && fm !== '0' && fm !== '1' && fm !== '2') {
    return refused('invalid_choice', 'fm', 'fm must be 0, 1 or 2');
  }

  const proportional = readBoolean(given('fwnb'), 'fwnb', DEFAULT_THUMBNAIL_OPTIONS.proportional);
  if (!proportional.ok) return proportional;

  return parsed({
    productId,
    ...sides,
    border: border.value,
    borderWidth,
    borderColor,
    borderAround: bm === '1' ? 'thumbnail' : 'product',
    fit: fm === '1' ? 'mask' : fm === '2' ? 'stretch' : 'fit',
    proportional: proportional.value,
  });
}

function readBoolean(text: string | undefined, name: string, fallback: boolean): MediaParseResult<boolean> {
  if (text === undefined) return parsed(fallback);
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === '1') return parsed(true);
  if (lower === 'false' || lower === '0') return parsed(false);
  return refused('invalid_boolean', name, `${name} must be true or false`);
}
