/**
 * Parsing of an OCI punch-in (SAP's "outbound section"): the request a buyer's SAP SRM, S/4HANA, Odoo or
 * other procurement system sends to open the catalog, by GET, urlencoded POST or multipart POST.
 *
 * Values are decoded from the raw bytes, never through URLSearchParams or Request.formData(), which decode
 * every `%XX` as UTF-8 and turn a Latin-1 `%FC` (ü) into U+FFFD. The charset comes from, in this order:
 * the request's own `http_content_charset` (or HTML's `_charset_`) parameter, the body's Content-Type
 * charset, the buyer's configured charset; without any, strict UTF-8 is tried. Whenever UTF-8 was chosen
 * but some bytes are not valid UTF-8, the whole request is decoded as windows-1252 instead (Latin-1 SAP
 * systems sometimes claim UTF-8), and `charsetSource` says `detected`.
 *
 * The route layer passes the raw query string and body bytes; the result is what it needs to authenticate
 * the buyer (`verifyOciLogin`), check HOOK_URL (`checkHookUrl`) and dispatch on FUNCTION.
 */

import {
  decodeLatin1Bytes,
  decodeUtf8Strict,
  decodeWindows1252,
  type OciCharset,
  parseCharsetLabel,
} from './charset.ts';
import { constantTimeEqual } from '../kernel/constant-time.ts';
import { parseContentType } from './content-type.ts';
import { OciError } from './error.ts';
import { parseUrlencodedBytes } from './form-urlencoded.ts';
import { checkHookUrl, type HookUrlPolicy } from './hook-url.ts';
import { parseMultipartFormData } from './multipart.ts';
import { foldAscii, type OciParam, ociParamValue } from './params.ts';
import { DEFAULT_OCI_PARSE_LIMITS, type OciParseLimits } from './parse-limits.ts';
import type { RawParam } from './raw-param.ts';

/**
 * FUNCTION values. DETAILADD (a product page from which the user may also transfer) is tolerated because
 * SAP SRM test tools send it; callers can treat it as DETAIL plus normal shopping.
 */
type OciFunction = 'DETAIL' | 'DETAILADD' | 'VALIDATE' | 'BACKGROUND_SEARCH' | 'SOURCING';

const FUNCTIONS: ReadonlySet<string> = new Set<OciFunction>([
  'DETAIL',
  'DETAILADD',
  'VALIDATE',
  'BACKGROUND_SEARCH',
  'SOURCING',
]);

export interface OciPunchInRequest {
  /** HTTP method; GET and POST are accepted (any case). */
  readonly method: string;
  /** The raw query string, with or without its leading `?`, percent-escapes untouched. */
  readonly query: string;
  readonly contentType?: string;
  /** The raw body bytes; ignored for GET. */
  readonly body?: Uint8Array;
}

interface OciLoginFields {
  readonly username: string;
  readonly password: string;
}

export interface OciParseOptions {
  /** The buyer's charset, used when the request does not name one. */
  readonly charset?: OciCharset;
  /** The buyer's names for the login parameters; default USERNAME / PASSWORD (matched case-insensitively). */
  readonly loginFields?: OciLoginFields;
  /** The buyer's name for the return URL parameter; default HOOK_URL (SAP's product catalog uses MM_HOOK_URL). */
  readonly hookUrlField?: string;
  readonly limits?: Partial<OciParseLimits>;
}

type OciCharsetSource = 'request' | 'content-type' | 'config' | 'detected';

export interface OciPunchIn {
  /** Every parameter of query and body (query first), decoded; look them up with `ociParamValue`. */
  readonly params: readonly OciParam[];
  readonly username: string;
  readonly password: string;
  /** HOOK_URL exactly as decoded from the request: not trimmed, normalised or decoded a second time. */
  readonly hookUrl: string;
  readonly function?: OciFunction;
  /** PRODUCTID (the EXT_PRODUCT_ID the catalog returned earlier) for DETAIL, DETAILADD and VALIDATE. */
  readonly productId?: string;
  /** VALIDATE's QUANTITY as an exact decimal (`1.5`; a comma read as the point), `1` when the buyer sent none. */
  readonly quantity?: string;
  /** SEARCHSTRING for BACKGROUND_SEARCH and SOURCING. */
  readonly searchString?: string;
  /** `~OkCode` (SAP: ADDI). */
  readonly okCode?: string;
  /** `~TARGET`. */
  readonly target?: string;
  /** `~CALLER` (SAP: CTLG). */
  readonly caller?: string;
  /** `returntarget` (SRM 5/7 Web Dynpro, typically _parent). */
  readonly returnTarget?: string;
  /**
   * The frame the cart form must post into: `returntarget` when present (SRM's Web Dynpro UI sends it next
   * to a legacy `~TARGET=_top` and means it), else `~TARGET`, else `_top` as SAP prescribes.
   */
  readonly formTarget: string;
  /** The `~` fields and `returntarget` to send back with the cart, with the names and values as received. */
  readonly echoFields: readonly OciParam[];
  /** The charset the request was decoded with; render the cart in it too. */
  readonly charset: OciCharset;
  readonly charsetSource: OciCharsetSource;
  /** OCI_VERSION as sent (SAP: 4.0 or 5.0; Odoo also sends 3.0). */
  readonly ociVersion?: string;
  /** The OCI major version when OCI_VERSION says 4 or 5. */
  readonly versionHint?: 4 | 5;
}

/**
 * Reads a punch-in request into a typed OciPunchIn, or throws OciError.
 *
 * @example
 * const url = new URL(request.url);
 * const punchIn = parsePunchInRequest(
 *   {
 *     method: request.method,
 *     query: url.search,
 *     contentType: request.headers.get('content-type') ?? undefined,
 *     body: new Uint8Array(await request.arrayBuffer()),
 *   },
 *   { charset: buyer.charset, loginFields: buyer.loginFields },
 * );
 * punchIn.function; // 'VALIDATE' | … | undefined for normal shopping
 */
export function parsePunchInRequest(request: OciPunchInRequest, options: OciParseOptions = {}): OciPunchIn {
  const limits: OciParseLimits = { ...DEFAULT_OCI_PARSE_LIMITS, ...options.limits };
  const loginFields = checkLoginFields(options.loginFields ?? { username: 'USERNAME', password: 'PASSWORD' });
  const hookUrlField = options.hookUrlField ?? 'HOOK_URL';

  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'POST') {
    throw new OciError('bad_method', `An OCI punch-in must use GET or POST, not ${method}.`);
  }
  const contentType = parseContentType(request.contentType ?? '');
  const raw = readRawParams(
    method,
    request,
    contentType.mediaType,
    contentType.params.get('boundary'),
    limits,
  );
  const decoded = decodeParams(raw, contentType.params.get('charset'), options.charset);
  const params = decoded.params;
  const param = (name: string) => ociParamValue(params, name);

  const username = param(loginFields.username) ?? '';
  const password = param(loginFields.password) ?? '';
  if (username === '' || password === '') {
    const name = username === '' ? loginFields.username : loginFields.password;
    throw new OciError('missing_login', `The login parameter ${name} is missing or empty.`, name);
  }
  const hookUrl = param(hookUrlField) ?? '';
  if (hookUrl === '') {
    throw new OciError(
      'missing_hook_url',
      `The parameter ${hookUrlField} is missing or empty; without it the cart cannot be returned.`,
      hookUrlField,
    );
  }

  const ociFunction = readFunction(params);
  const productId = nonEmpty(param('PRODUCTID'));
  const searchString = nonEmpty(param('SEARCHSTRING'));
  if (
    (ociFunction === 'DETAIL' || ociFunction === 'DETAILADD' || ociFunction === 'VALIDATE') &&
    productId === undefined
  ) {
    throw new OciError(
      'missing_product_id',
      `FUNCTION=${ociFunction} needs the parameter PRODUCTID.`,
      'PRODUCTID',
    );
  }
  if (ociFunction === 'BACKGROUND_SEARCH' && searchString === undefined) {
    throw new OciError(
      'missing_search_string',
      'FUNCTION=BACKGROUND_SEARCH needs the parameter SEARCHSTRING.',
      'SEARCHSTRING',
    );
  }
  const quantity = ociFunction === 'VALIDATE' ? readQuantity(param('QUANTITY')) : undefined;

  const okCode = param('~OkCode');
  const target = param('~TARGET');
  const caller = param('~CALLER');
  const returnTarget = param('returntarget');
  const ociVersion = param('OCI_VERSION');
  const versionHint = readVersionHint(ociVersion);

  return {
    params,
    username,
    password,
    hookUrl,
    ...(ociFunction !== undefined && { function: ociFunction }),
    ...(productId !== undefined && { productId }),
    ...(quantity !== undefined && { quantity }),
    ...(searchString !== undefined && { searchString }),
    ...(okCode !== undefined && { okCode }),
    ...(target !== undefined && { target }),
    ...(caller !== undefined && { caller }),
    ...(returnTarget !== undefined && { returnTarget }),
    formTarget: nonEmpty(returnTarget?.trim()) ?? nonEmpty(target?.trim()) ?? '_top',
    echoFields: readEchoFields(params),
    charset: decoded.charset,
    charsetSource: decoded.source,
    ...(ociVersion !== undefined && { ociVersion }),
    ...(versionHint !== undefined && { versionHint }),
  };
}

/**
 * Checks the punch-in's credentials against the buyer's, comparing both in constant time; the password
 * may also be one of `previousPasswords` (a rotation the buyer's system has not followed yet), every one
 * compared without early exit. Throws OciError `bad_login` without saying which of the two was wrong.
 *
 * @example
 * verifyOciLogin(punchIn, { username: buyer.ociUsername, password: buyer.ociPassword });
 */
export function verifyOciLogin(
  punchIn: OciPunchIn,
  expected: { username: string; password: string; previousPasswords?: readonly string[] },
): void {
  const usernameMatches = constantTimeEqual(punchIn.username, expected.username);
  let passwordMatches = false;
  for (const accepted of [expected.password, ...(expected.previousPasswords ?? [])]) {
    const equal = constantTimeEqual(punchIn.password, accepted);
    passwordMatches = passwordMatches || equal;
  }
  if (!(usernameMatches && passwordMatches)) {
    throw new OciError('bad_login', 'The OCI user name or password is not correct.');
  }
}

export interface OciBuyerSettings extends HookUrlPolicy {
  readonly username: string;
  readonly password: string;
  /** Passwords accepted besides `password` while the buyer's system switches over. */
  readonly previousPasswords?: readonly string[];
  readonly charset?: OciCharset;
  readonly loginFields?: OciLoginFields;
  readonly hookUrlField?: string;
  readonly limits?: Partial<OciParseLimits>;
}

/**
 * The whole punch-in check for one buyer: parse, verify the login, then check HOOK_URL against the buyer's
 * policy (after the login, so strangers learn nothing about the allow-list). Throws OciError.
 *
 * @example
 * const punchIn = acceptOciPunchIn(request, {
 *   username: 'sap1',
 *   password: 'sap1-secret',
 *   hookUrlHosts: ['srm.example.com'],
 * });
 */
export function acceptOciPunchIn(request: OciPunchInRequest, buyer: OciBuyerSettings): OciPunchIn {
  const punchIn = parsePunchInRequest(request, {
    ...(buyer.charset !== undefined && { charset: buyer.charset }),
    ...(buyer.loginFields !== undefined && { loginFields: buyer.loginFields }),
    ...(buyer.hookUrlField !== undefined && { hookUrlField: buyer.hookUrlField }),
    ...(buyer.limits !== undefined && { limits: buyer.limits }),
  });
  verifyOciLogin(punchIn, buyer);
  const check = checkHookUrl(punchIn.hookUrl, buyer);
  if (!check.ok) throw check.error;
  return punchIn;
}

function checkLoginFields(fields: OciLoginFields): OciLoginFields {
  const username = fields.username.trim();
  const password = fields.password.trim();
  if (username === '' || password === '' || username.toLowerCase() === password.toLowerCase()) {
    throw new OciError(
      'bad_login_fields',
      "The buyer's login field names must be two different, non-empty parameter names (default USERNAME and PASSWORD).",
    );
  }
  return { username, password };
}

function readRawParams(
  method: string,
  request: OciPunchInRequest,
  mediaType: string,
  boundary: string | undefined,
  limits: OciParseLimits,
): RawParam[] {
  const query = request.query.startsWith('?') ? request.query.slice(1) : request.query;
  // A query string is ASCII once a URL parser has seen it; anything else is taken as UTF-8, as URL would.
  const queryBytes = new TextEncoder().encode(query);
  if (queryBytes.length > limits.maxQueryBytes) {
    throw new OciError('body_too_large', `The query string is longer than ${limits.maxQueryBytes} bytes.`);
  }
  const params = parseUrlencodedBytes(queryBytes, limits);
  const body = request.body;
  if (method !== 'POST' || body === undefined || body.length === 0) return params;
  if (body.length > limits.maxBodyBytes) {
    throw new OciError('body_too_large', `The request body is larger than ${limits.maxBodyBytes} bytes.`);
  }
  if (mediaType === 'multipart/form-data') {
    return params.concat(parseMultipartFormData(body, boundary ?? '', limits, params.length));
  }
  if (mediaType === 'application/x-www-form-urlencoded' || mediaType === '') {
    return params.concat(parseUrlencodedBytes(body, limits, params.length));
  }
  throw new OciError(
    'unsupported_content_type',
    `A punch-in body must be application/x-www-form-urlencoded or multipart/form-data, not ${mediaType}.`,
  );
}

const CHARSET_PARAMS = new Set(['http_content_charset', '_charset_']);

function decodeParams(
  raw: readonly RawParam[],
  contentTypeCharset: string | undefined,
  configured: OciCharset | undefined,
): { params: OciParam[]; charset: OciCharset; source: OciCharsetSource } {
  const announced = raw.find((param) => CHARSET_PARAMS.has(foldAscii(decodeLatin1Bytes(param.name))));
  const fromRequest = announced && parseCharsetLabel(decodeLatin1Bytes(announced.value));
  const fromContentType =
    contentTypeCharset === undefined ? undefined : parseCharsetLabel(contentTypeCharset);
  const [charset, source]: [OciCharset, OciCharsetSource] =
    fromRequest !== undefined
      ? [fromRequest, 'request']
      : fromContentType !== undefined
        ? [fromContentType, 'content-type']
        : configured !== undefined
          ? [configured, 'config']
          : ['utf-8', 'detected'];

  if (charset === 'utf-8') {
    const params: OciParam[] = [];
    for (const param of raw) {
      const name = decodeUtf8Strict(param.name);
      const value = decodeUtf8Strict(param.value);
      if (name === undefined || value === undefined) {
        return { params: decodeAll(raw, decodeWindows1252), charset: 'windows-1252', source: 'detected' };
      }
      params.push([name, value]);
    }
    return { params, charset, source };
  }
  return { params: decodeAll(raw, decodeWindows1252), charset, source };
}

function decodeAll(raw: readonly RawParam[], decode: (bytes: Uint8Array) => string): OciParam[] {
  return raw.map((param) => [decode(param.name), decode(param.value)] as const);
}

function readFunction(params: readonly OciParam[]): OciFunction | undefined {
  const value = ociParamValue(params, 'FUNCTION')?.trim().toUpperCase() ?? '';
  if (value === '') return undefined;
  if (!FUNCTIONS.has(value)) {
    throw new OciError(
      'bad_function',
      `FUNCTION=${value.slice(0, 40)} is not supported; use DETAIL, DETAILADD, VALIDATE, SOURCING, BACKGROUND_SEARCH or none.`,
      'FUNCTION',
    );
  }
  return value as OciFunction;
}

/** SAP sends quantities like `1`, `1.000` or space-padded; a comma is tolerated as the decimal separator. */
function readQuantity(value: string | undefined): string {
  const text = value?.trim().replace(',', '.') ?? '';
  if (text === '') return '1';
  const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
  const integerDigits = match?.[1]?.replace(/^0+/, '') ?? '';
  const fractionDigits = match?.[2]?.replace(/0+$/, '') ?? '';
  const quantity = Number(text);
  if (
    !match ||
    (match[1] === '' && (match[2] ?? '') === '') ||
    integerDigits.length > 11 ||
    fractionDigits.length > 3 ||
    !(quantity > 0)
  ) {
    throw new OciError(
      'bad_quantity',
      `QUANTITY=${text.slice(0, 20)} is not a positive number with at most 11 digits before and 3 after the decimal point.`,
      'QUANTITY',
    );
  }
  return text;
}

function readVersionHint(ociVersion: string | undefined): 4 | 5 | undefined {
  const major = /^\s*([45])(?:\.\d+)?\s*$/.exec(ociVersion ?? '')?.[1];
  return major === '4' ? 4 : major === '5' ? 5 : undefined;
}

function readEchoFields(params: readonly OciParam[]): OciParam[] {
  const seen = new Set<string>();
  const echo: OciParam[] = [];
  for (const [name, value] of params) {
    const key = foldAscii(name);
    if ((name.startsWith('~') || key === 'returntarget') && !seen.has(key)) {
      seen.add(key);
      echo.push([name, value]);
    }
  }
  return echo;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
