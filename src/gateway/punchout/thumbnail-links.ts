/**
 * Thumbnail links a buyer may keep: `{publicUrl}/thumbnail/<storefront>/<design id>/<mac>.png`. Requisition
 * lines and catalog items carry them, and whoever reads those (approvers, a catalog's search page, months
 * later) opens them without any credential. The editor host's own thumbnail URL needs none either, but it
 * names the design by its id alone, and ids are counted up: changing the number would show other
 * customers' designs. The gateway's link is keyed by an HMAC of the storefront and the design id, so it
 * opens that one picture and nothing else, and never expires (a design's picture does not change once
 * saved). The key is derived from the signing key under a label of its own, and links made under a
 * previous signing key keep working while the operator keeps that key.
 *
 * Plain functions of the config, not of a running gateway: `punchgate catalog` writes the same links. A
 * running gateway passes its runtime's HMAC (`GatewayContext.hmacSha256`); without one, Web Crypto's.
 */
import { bytesToBase64url } from '../../kernel/base64.ts';
import { constantTimeEqual } from '../../kernel/constant-time.ts';
import { type HmacSha256, type MacOf, webCryptoHmacSha256 } from '../../kernel/signed-claims.ts';
import { derivedMacKeys } from './tokens.ts';

/** The path thumbnail links are served under, mounted by `createGateway`. */
export const THUMBNAIL_PATH = '/thumbnail';

/** 128 bits of the HMAC: beyond guessing, and a link short enough for OCI's 255-character ATTACHMENT. */
const MAC_BYTES = 16;

/** What a link is made from and checked against: the config's keys and public URL. */
export interface ThumbnailKeys {
  readonly publicUrl: string;
  readonly signingKey: string;
  readonly previousSigningKeys?: readonly string[];
}

/**
 * The link's key under one signing key, set up once per HMAC (the runtime's: `node:crypto` on Node, Web
 * Crypto elsewhere) and key: a cart of many lines signs one link per line. It is derived as the tokens'
 * keys are, under a label of its own, whichever HMAC then uses it, so links kept in requisitions stay valid.
 */
const macKeys = new WeakMap<HmacSha256, Map<string, Promise<MacOf>>>();

function macKey(secret: string, hmac: HmacSha256): Promise<MacOf> {
  let keys = macKeys.get(hmac);
  if (keys === undefined) {
    keys = new Map();
    macKeys.set(hmac, keys);
  }
  let key = keys.get(secret);
  if (key === undefined) {
    key = derivedMacKeys([secret], 'thumbnail', hmac).then(([mac]) => mac as MacOf);
    keys.set(secret, key);
  }
  return key;
}

async function macOf(
  secret: string,
  storefrontId: string,
  designId: number,
  hmac: HmacSha256,
): Promise<string> {
  const mac = await (await macKey(secret, hmac))(new TextEncoder().encode(`${storefrontId}\n${designId}`));
  return bytesToBase64url(mac.subarray(0, MAC_BYTES));
}

/**
 * The thumbnail link of a design (or a product's template) of a storefront.
 *
 * @example
 * await thumbnailUrl(config, 'demo', 5012); // 'https://gw.example.com/thumbnail/demo/5012/q3Xf…Q.png'
 */
export async function thumbnailUrl(
  keys: ThumbnailKeys,
  storefrontId: string,
  designId: number,
  hmac: HmacSha256 = webCryptoHmacSha256,
): Promise<string> {
  if (!Number.isSafeInteger(designId) || designId < 1) {
    throw new TypeError(`thumbnailUrl: designId must be a positive integer, got ${designId}`);
  }
  const base = keys.publicUrl.replace(/\/+$/, '');
  const mac = await macOf(keys.signingKey, storefrontId, designId, hmac);
  return `${base}${THUMBNAIL_PATH}/${encodeURIComponent(storefrontId)}/${designId}/${mac}.png`;
}

/** Whether `mac` is the link's key under the current or a previous signing key. */
export async function isThumbnailMac(
  keys: ThumbnailKeys,
  storefrontId: string,
  designId: number,
  mac: string,
  hmac: HmacSha256 = webCryptoHmacSha256,
): Promise<boolean> {
  let matches = false;
  // Every key is tried, so the time taken does not tell which one matched.
  for (const secret of [keys.signingKey, ...(keys.previousSigningKeys ?? [])]) {
    if (constantTimeEqual(await macOf(secret, storefrontId, designId, hmac), mac)) matches = true;
  }
  return matches;
}

/**
 * Signs one thumbnail link per line (its design, in its storefront) and hands back the lookup the
 * synchronous document builders use.
 */
export async function thumbnailLinksFor(
  keys: ThumbnailKeys,
  lines: readonly { readonly lineRef: string; readonly storefrontId: string; readonly designId: number }[],
  hmac: HmacSha256 = webCryptoHmacSha256,
): Promise<(line: { readonly lineRef: string }) => string> {
  const links = new Map<string, string>();
  for (const line of lines)
    links.set(line.lineRef, await thumbnailUrl(keys, line.storefrontId, line.designId, hmac));
  return (line) => {
    const link = links.get(line.lineRef);
    if (link === undefined) throw new TypeError(`no thumbnail link was signed for line ${line.lineRef}`);
    return link;
  };
}
