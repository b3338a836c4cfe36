/**
 * URLs of the editor host ({editor_url}, not the API's base URL): the online editor a buyer is sent to,
 * product thumbnails and the low-resolution PDF proof.
 *
 * Inputs are checked when a URL is built: two product ids, a non-integer id, a colour that is neither a
 * hex code nor a palette name, or a tag that would shadow a fixed parameter are programming errors and
 * throw TypeError. Every name and value is percent-encoded with encodeURIComponent, so the colour map's
 * `,` and `;` and a hex colour's `#` arrive intact after the host decodes the query.
 */
import { checkPositiveInteger, parseHttpUrl, urlPrefix } from './call-arguments.ts';

/** A colour: RGB hex code (`ff0000`, `#ff0000`, `f00`) or a colour's name in the product's palette. */
export type EditorColour = string;

/** An image item tag's value: hide/show, swap to an image id, or recolour with [from, to] pairs. */
export type EditorTagValue = boolean | number | readonly (readonly [EditorColour, EditorColour])[];

interface OnlineEditorCommon {
  /** The PIPO session token. */
  readonly token: string;
  /** Where the editor sends the buyer after saving, with `productid=<saved design id>` added. */
  readonly cartReturnUrl?: string;
  /** Custom size in inches, for products with custom sizing; written as `s=w.ww,h.hh`. */
  readonly size?: { readonly widthIn: number; readonly heightIn: number };
  /** Image item tags by name. */
  readonly tags?: Readonly<Record<string, EditorTagValue>>;
}

export type OnlineEditorUrlOptions =
  | (OnlineEditorCommon & { readonly productId: number; readonly epi?: never })
  | (OnlineEditorCommon & { readonly epi: string; readonly productId?: never });

export interface ThumbnailUrlOptions {
  readonly productId: number;
  readonly width?: number;
  readonly height?: number;
  /** Show a border (service default true). */
  readonly border?: boolean;
  /** Service default 1. */
  readonly borderWidth?: number;
  /** Hex without `#` (service default 777777). */
  readonly borderColor?: string;
  /** 0 borders the product, 1 the whole thumbnail. */
  readonly borderMode?: 0 | 1;
  /** 0 fit product to box, 1 mask product to box, 2 stretch to fit. */
  readonly fitMode?: 0 | 1 | 2;
  /** Proportional to the product, fitting within width and ignoring the border (service default true). */
  readonly proportional?: boolean;
}

export interface ProofUrlOptions {
  /** The PIPO session token. */
  readonly token: string;
  /** A product id or a user project id. */
  readonly productId: number;
}

export interface EditorUrls {
  /** `{editor_url}/online-editor?productid|epi=…&tpsc=1&token=…[&cru=…][&s=…][&<tag>=…]` */
  onlineEditorUrl(options: OnlineEditorUrlOptions): string;
  /** `{editor_url}/productthumb.ashx?p=…[&w&h&b&bw&bc&bm&fm&fwnb]` */
  thumbnailUrl(options: ThumbnailUrlOptions): string;
  /** `{editor_url}/download.ashx?token=…&pid=…` */
  proofUrl(options: ProofUrlOptions): string;
}

// Parameters the online editor reserves; a tag of the same name would be ambiguous.
const RESERVED_EDITOR_PARAMETERS = new Set(['productid', 'epi', 'tpsc', 'token', 'cru', 's']);
const HEX_COLOUR = /^#?(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const PALETTE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} _.-]*$/u;
const BORDER_COLOUR = /^(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * @example
 * const urls = createEditorUrls('https://print.example.com/editor');
 * urls.onlineEditorUrl({
 *   productId: 101,
 *   token: sessionToken,
 *   cartReturnUrl: 'https://gateway.example.com/punchout/return?s=abc',
 *   tags: { logo: true, background: [['ffffff', 'Navy']] },
 * });
 * // https://print.example.com/editor/online-editor?productid=101&tpsc=1&token=…&cru=https%3A%2F%2F…&logo=true&background=ffffff%2CNavy
 */
export function createEditorUrls(editorUrl: string): EditorUrls {
  const base = checkEditorUrl(editorUrl);

  return {
    onlineEditorUrl(options) {
      const { productId, epi, token, cartReturnUrl, size, tags } = options as OnlineEditorCommon & {
        productId?: unknown;
        epi?: unknown;
      };
      const query: [string, string][] = [];
      if (productId !== undefined && epi !== undefined) {
        throw new TypeError('onlineEditorUrl: give productId or epi, not both');
      }
      if (productId !== undefined)
        query.push(['productid', String(checkPositiveInteger('productId', productId))]);
      else if (typeof epi === 'string' && epi !== '') query.push(['epi', epi]);
      else throw new TypeError('onlineEditorUrl: productId (integer) or epi (non-empty string) is required');
      query.push(['tpsc', '1'], ['token', sessionToken('onlineEditorUrl', token)]);
      if (cartReturnUrl !== undefined)
        query.push(['cru', httpUrl('onlineEditorUrl: cartReturnUrl', cartReturnUrl)]);
      if (size !== undefined) query.push(['s', customSize(size)]);
      if (tags !== undefined) {
        for (const [name, value] of Object.entries(tags)) query.push([tagName(name), tagValue(name, value)]);
      }
      return `${base}/online-editor?${encodeQuery(query)}`;
    },

    thumbnailUrl(options) {
      const query: [string, string][] = [['p', String(checkPositiveInteger('productId', options.productId))]];
      if (options.width !== undefined)
        query.push(['w', String(checkPositiveInteger('width', options.width))]);
      if (options.height !== undefined)
        query.push(['h', String(checkPositiveInteger('height', options.height))]);
      if (options.border !== undefined) query.push(['b', flag('border', options.border)]);
      if (options.borderWidth !== undefined) {
        query.push(['bw', String(nonNegativeInteger('borderWidth', options.borderWidth))]);
      }
      if (options.borderColor !== undefined) {
        if (typeof options.borderColor !== 'string' || !BORDER_COLOUR.test(options.borderColor)) {
          throw new TypeError('thumbnailUrl: borderColor must be a hex colour without "#", e.g. 777777');
        }
        query.push(['bc', options.borderColor]);
      }
      if (options.borderMode !== undefined)
        query.push(['bm', String(oneOf('borderMode', options.borderMode, 1))]);
      if (options.fitMode !== undefined) query.push(['fm', String(oneOf('fitMode', options.fitMode, 2))]);
      if (options.proportional !== undefined)
        query.push(['fwnb', flag('proportional', options.proportional)]);
      return `${base}/productthumb.ashx?${encodeQuery(query)}`;
    },

    proofUrl(options) {
      const query: [string, string][] = [
        ['token', sessionToken('proofUrl', options.token)],
        ['pid', String(checkPositiveInteger('productId', options.productId))],
      ];
      return `${base}/download.ashx?${encodeQuery(query)}`;
    },
  };
}

function encodeQuery(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

function checkEditorUrl(editorUrl: string): string {
  const url = parseHttpUrl(editorUrl);
  if (url === undefined || url.search !== '' || url.hash !== '') {
    throw new TypeError(
      'createEditorUrls: editorUrl must be an absolute http(s) URL without query or fragment',
    );
  }
  return urlPrefix(url);
}

function nonNegativeInteger(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`${what} must be a non-negative integer`);
  }
  return value;
}

function oneOf(what: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new TypeError(`${what} must be an integer from 0 to ${max}`);
  }
  return value;
}

function flag(what: string, value: unknown): string {
  if (typeof value !== 'boolean') throw new TypeError(`${what} must be a boolean`);
  return value ? 'true' : 'false';
}

function sessionToken(where: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TypeError(`${where}: token (the PIPO session token) must be a non-empty string`);
  }
  return value;
}

function httpUrl(what: string, value: unknown): string {
  if (parseHttpUrl(value) === undefined) throw new TypeError(`${what} must be an absolute http(s) URL`);
  return value as string;
}

/** `w.ww,h.hh` in inches. */
function customSize(size: unknown): string {
  const { widthIn, heightIn } = (size ?? {}) as { widthIn?: unknown; heightIn?: unknown };
  for (const [what, value] of [
    ['widthIn', widthIn],
    ['heightIn', heightIn],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`onlineEditorUrl: size.${what} must be a positive number of inches`);
    }
  }
  const width = (widthIn as number).toFixed(2);
  const height = (heightIn as number).toFixed(2);
  if (width === '0.00' || height === '0.00') {
    throw new TypeError('onlineEditorUrl: size must be at least 0.01 in on each side');
  }
  return `${width},${height}`;
}

function tagName(name: string): string {
  if (name === '' || RESERVED_EDITOR_PARAMETERS.has(name.toLowerCase())) {
    throw new TypeError(`onlineEditorUrl: "${name}" cannot be an image item tag name`);
  }
  return name;
}

function tagValue(name: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`onlineEditorUrl: tag "${name}" image id must be a positive integer`);
    }
    return String(value);
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError(
      `onlineEditorUrl: tag "${name}" must be a boolean, an image id or a non-empty colour map`,
    );
  }
  return value
    .map((pair: unknown) => {
      if (!Array.isArray(pair) || pair.length !== 2) {
        throw new TypeError(`onlineEditorUrl: tag "${name}" colour map entries must be [from, to] pairs`);
      }
      return `${colour(name, pair[0])},${colour(name, pair[1])}`;
    })
    .join(';');
}

function colour(tag: string, value: unknown): string {
  if (typeof value !== 'string' || !(HEX_COLOUR.test(value) || PALETTE_NAME.test(value))) {
    throw new TypeError(`onlineEditorUrl: tag "${tag}" colour must be a hex code or a palette colour name`);
  }
  return value;
}
