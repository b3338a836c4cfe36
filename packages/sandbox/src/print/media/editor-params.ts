/**
 * The query of `{editor_url}/online-editor`, validated against the product it names, and the cart return
 * URL the editor sends the shopper back to.
 *
 * Reading rules (the sandbox's choices where the interface is silent):
 * - parameter names are case-insensitive; a product tag named like a reserved parameter (`productid`, `epi`,
 *   `tpsc`, `token`, `cru`, `s`) cannot be set from the query;
 * - `productid` wins over `epi` when both are given; an empty `productid`, `epi`, `cru` or `s` counts as absent;
 * - `tpsc` must be present with a non-empty value ("needs a value"); the value itself is ignored;
 * - `cru` must be an absolute `http:` or `https:` URL (anything else could run script on return);
 * - `s` is `w.ww,h.hh`: 1–3 integer digits and exactly two decimals each, both above zero (`8.50,11.00`);
 * - a visibility tag takes `true`/`false` (any case), an image tag a positive integer id, a colour tag a
 *   colour map whose colours are six hex digits (`#` optional) or names of the product's palette.
 */

import { type ColorPair, parseColorMap } from './colors.ts';
import type { MediaImageTag, MediaProduct } from './design.ts';
import { type MediaParseResult, parsed, refused } from './media-input-error.ts';
import { MAX_ID, normalizeQuery, type QueryInput, readDigits } from './query-params.ts';

export type EditorProductRef =
  | { readonly by: 'productid'; readonly productId: number }
  | { readonly by: 'epi'; readonly integrationId: string };

/** One image item tag value, typed by the tag's kind; `value` is its canonical query spelling. */
export type EditorTagSetting =
  | { readonly name: string; readonly kind: 'visibility'; readonly value: string; readonly visible: boolean }
  | { readonly name: string; readonly kind: 'image'; readonly value: string; readonly imageId: number }
  | {
      readonly name: string;
      readonly kind: 'colors';
      readonly value: string;
      readonly pairs: readonly ColorPair[];
    };

export interface EditorSize {
  readonly widthIn: number;
  readonly heightIn: number;
}

export interface EditorQuery {
  readonly productRef: EditorProductRef;
  readonly product: MediaProduct;
  readonly token: string;
  readonly cru?: string;
  readonly size?: EditorSize;
  /** Tag values given in the query, keyed by the product's spelling of the tag name, in product order. */
  readonly tags: Readonly<Record<string, string>>;
  readonly tagSettings: readonly EditorTagSetting[];
}

const RESERVED_PARAMETERS = new Set(['productid', 'epi', 'tpsc', 'token', 'cru', 's']);

/**
 * Validates an online-editor query. `findProduct` resolves the product reference (the route knows the
 * seed); an unknown product is refused with `unknown_product`. Checks run in the order productid/epi, tpsc,
 * token, cru, product lookup, s, tags, and the first failure is returned.
 *
 * @example
 * const result = parseEditorQuery(c.req.query(), (ref) =>
 *   ref.by === 'productid' ? products.get(ref.productId) : products.byIntegrationId(ref.integrationId));
 * if (!result.ok) return c.html(errorPage(result.error.message), result.error.code === 'unknown_product' ? 404 : 400);
 */
export function parseEditorQuery(
  query: QueryInput,
  findProduct: (ref: EditorProductRef) => MediaProduct | undefined,
): MediaParseResult<EditorQuery> {
  const params = normalizeQuery(query);
  const nonEmpty = (name: string) => {
    const value = params.get(name);
    return value === '' ? undefined : value;
  };

  let productRef: EditorProductRef;
  const productIdText = nonEmpty('productid');
  const epi = nonEmpty('epi');
  if (productIdText !== undefined) {
    const productId = readDigits(productIdText);
    if (productId === undefined)
      return refused('invalid_integer', 'productid', 'productid must be a positive integer');
    if (productId < 1 || productId > MAX_ID) {
      return refused('out_of_range', 'productid', `productid must be between 1 and ${MAX_ID}`);
    }
    productRef = { by: 'productid', productId };
  } else if (epi !== undefined) {
    productRef = { by: 'epi', integrationId: epi };
  } else {
    return refused('missing_parameter', 'productid', 'productid or epi is required');
  }

  const tpsc = params.get('tpsc');
  if (tpsc === undefined) return refused('missing_parameter', 'tpsc', 'tpsc is required');
  if (tpsc === '') return refused('missing_parameter', 'tpsc', 'tpsc needs a value');

  const token = params.get('token');
  if (token === undefined || token === '') return refused('missing_parameter', 'token', 'token is required');

  const cru = nonEmpty('cru');
  if (cru !== undefined && !isWebUrl(cru)) {
    return refused('invalid_url', 'cru', 'cru must be an absolute http or https URL');
  }

  const product = findProduct(productRef);
  if (product === undefined) {
    return productRef.by === 'productid'
      ? refused('unknown_product', 'productid', `product ${productRef.productId} does not exist`)
      : refused('unknown_product', 'epi', `no product has the integration id ${productRef.integrationId}`);
  }

  let size: EditorSize | undefined;
  const sizeText = nonEmpty('s');
  if (sizeText !== undefined) {
    if (!product.customSize)
      return refused('size_not_allowed', 's', `s is allowed only for products with custom sizing`);
    const match = /^([0-9]{1,3}\.[0-9]{2}),([0-9]{1,3}\.[0-9]{2})$/.exec(sizeText);
    const widthIn = Number(match?.[1]);
    const heightIn = Number(match?.[2]);
    if (match === null || widthIn <= 0 || heightIn <= 0) {
      return refused(
        'invalid_size',
        's',
        's must be w.ww,h.hh with both sides above zero (for example 8.50,11.00)',
      );
    }
    size = { widthIn, heightIn };
  }

  const tags: Record<string, string> = {};
  const tagSettings: EditorTagSetting[] = [];
  for (const tag of product.imageTags) {
    const key = tag.name.toLowerCase();
    if (RESERVED_PARAMETERS.has(key)) continue;
    const value = params.get(key);
    if (value === undefined) continue;
    const setting = readEditorTagValue(tag, value, tag.name, product.palette);
    if (!setting.ok) return setting;
    tags[tag.name] = setting.value.value;
    tagSettings.push(setting.value);
  }

  return parsed({
    productRef,
    product,
    token,
    ...(cru === undefined ? {} : { cru }),
    ...(size === undefined ? {} : { size }),
    tags,
    tagSettings,
  });
}

/**
 * Reads one image item tag value by the tag's kind. `parameter` names the query parameter or form field in
 * the error. Also used for the editor page's form, so both paths accept exactly the same values.
 */
export function readEditorTagValue(
  tag: MediaImageTag,
  value: string,
  parameter: string,
  palette: Readonly<Record<string, string>>,
): MediaParseResult<EditorTagSetting> {
  switch (tag.kind) {
    case 'visibility': {
      const lower = value.toLowerCase();
      if (lower !== 'true' && lower !== 'false') {
        return refused('invalid_boolean', parameter, `${parameter} must be true or false`);
      }
      return parsed({ name: tag.name, kind: 'visibility', value: lower, visible: lower === 'true' });
    }
    case 'image': {
      const imageId = readDigits(value);
      if (imageId === undefined || imageId < 1 || imageId > MAX_ID) {
        return refused('invalid_integer', parameter, `${parameter} must be a positive integer image id`);
      }
      return parsed({ name: tag.name, kind: 'image', value: String(imageId), imageId });
    }
    case 'colors': {
      const pairs = parseColorMap(value, parameter, palette);
      if (!pairs.ok) return pairs;
      return parsed({ name: tag.name, kind: 'colors', value, pairs: pairs.value });
    }
  }
}

/** True for an absolute `http:` or `https:` URL. */
export function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The URL the editor sends the shopper to after saving: `cru` with `productid=<new id>` and each monitored
 * tag with its updated value appended. The existing query of `cru` is kept byte for byte (a gateway may have
 * signed it), except parameters of the same names (case-insensitive), which the new values replace; the
 * fragment stays last. Throws TypeError when `cru` is not an absolute http(s) URL.
 *
 * @example
 * buildReturnUrl('https://gw.example/punchout/return?t=abc', 9001, { logo: 'false' });
 * // → 'https://gw.example/punchout/return?t=abc&productid=9001&logo=false'
 */
export function buildReturnUrl(
  cru: string,
  newProductId: number,
  tags: Readonly<Record<string, string>>,
): string {
  if (!isWebUrl(cru)) throw new TypeError(`cart return URL must be an absolute http(s) URL: ${cru}`);
  const hashAt = cru.indexOf('#');
  const beforeHash = hashAt === -1 ? cru : cru.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : cru.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const existing = queryAt === -1 ? '' : beforeHash.slice(queryAt + 1);

  const added: [string, string][] = [['productid', String(newProductId)], ...Object.entries(tags)];
  const replaced = new Set(added.map(([name]) => name.toLowerCase()));
  const kept = existing
    .split('&')
    .filter((part) => part !== '' && !replaced.has(decodeQueryName(part).toLowerCase()));
  const appended = added.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return `${path}?${[...kept, ...appended].join('&')}${fragment}`;
}

function decodeQueryName(part: string): string {
  const raw = part.split('=', 1)[0]!;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
