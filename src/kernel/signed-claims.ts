/**
 * Compact signed claims: `<claims>.<mac>`, both base64url, the MAC an HMAC-SHA-256 of the claims' base64url
 * text. Every token the gateway signs is read back only by the gateway, so a JWT's header, its algorithm
 * negotiation and a JOSE library buy nothing: the claims carry what the token is for (`pur`) and when it
 * ends (`exp`, in seconds), and the key is the caller's, derived under a label of its own.
 *
 * Keys rotate: a token is signed with the first key and checked against each in turn. HS256 JWTs signed
 * before tokens took this form (`<header>.<claims>.<mac>`, a header of `{"alg":"HS256"}` only) are still
 * read under the keys they were signed with (`ClaimKeys.jwtMacs`), so links buyers keep for months (proof
 * links) and sessions open during an upgrade keep working until they expire. A JWT's MAC covers a text
 * with a dot in it and this form's never does, so neither can pass for the other under one key.
 *
 * The HMAC itself is the runtime's (`HmacSha256`): Web Crypto on Workers, `node:crypto`'s synchronous HMAC
 * on Node, where a Web Crypto sign costs several times as much.
 */
import { bytesToBase64url, base64urlToBytes } from './base64.ts';
import { constantTimeBytesEqual } from './constant-time.ts';

/** One HMAC-SHA-256 key, set up once: the MAC of `data` under it. */
export type MacOf = (data: Uint8Array<ArrayBuffer>) => Uint8Array | Promise<Uint8Array>;

/** Sets up an HMAC-SHA-256 key from its raw bytes (a key import is the costly part; it is done once). */
export type HmacSha256 = (rawKey: Uint8Array<ArrayBuffer>) => Promise<MacOf>;

/** The HMAC of every runtime with Web Crypto (Workers; the default where the runtime hands in none). */
export const webCryptoHmacSha256: HmacSha256 = async (rawKey) => {
  const key = await crypto.subtle.importKey('raw', rawKey, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return async (data) => new Uint8Array(await crypto.subtle.sign('HMAC', key, data));
};

export interface ClaimKeys {
  /** Signs with the first; a token is genuine under any of them (the current key, then previous ones). */
  macs: readonly MacOf[];
  /** Where the HS256 JWTs from before this form were signed, if any are still honoured. */
  jwtMacs?: readonly MacOf[];
}

/** What a token's claims say, once its MAC is known to be ours. */
export type ClaimsCheck =
  | { kind: 'genuine'; claims: Readonly<Record<string, unknown>>; exp: number; expired: boolean }
  | { kind: 'invalid' };

const INVALID: ClaimsCheck = { kind: 'invalid' };
/** The only JWT header ever signed: `{"alg":"HS256"}`. */
const HS256_HEADER = 'eyJhbGciOiJIUzI1NiJ9';
const SHA256_BYTES = 32;
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * @example
 * const token = await signClaims(macs[0], { sid, pur: 'session', exp: nowSeconds + 3600 });
 */
export async function signClaims(
  mac: MacOf,
  claims: Readonly<Record<string, string | number>> & { exp: number },
): Promise<string> {
  const text = bytesToBase64url(utf8.encode(JSON.stringify(claims)));
  return `${text}.${bytesToBase64url(await mac(utf8.encode(text)))}`;
}

/**
 * The claims of a token whose MAC matches under one of `keys`, and whether they have expired (from the
 * second `exp` names on, as a JWT's); `invalid` for anything else — another key, a changed character, a
 * malformed token, no numeric `exp`. The claims are read only once the MAC matched.
 *
 * @example
 * const check = await checkSignedClaims(token, { macs }, clock.now());
 * if (check.kind === 'genuine' && !check.expired && check.claims.pur === 'session') …
 */
export async function checkSignedClaims(token: string, keys: ClaimKeys, now: Date): Promise<ClaimsCheck> {
  const parts = token.split('.');
  let signed: string;
  let claimsText: string;
  let macText: string;
  let macs: readonly MacOf[];
  if (parts.length === 2) {
    [claimsText = '', macText = ''] = parts;
    signed = claimsText;
    macs = keys.macs;
  } else if (parts.length === 3 && keys.jwtMacs !== undefined && parts[0] === HS256_HEADER) {
    [, claimsText = '', macText = ''] = parts;
    signed = `${HS256_HEADER}.${claimsText}`;
    macs = keys.jwtMacs;
  } else {
    return INVALID;
  }
  const sent = base64urlToBytes(macText);
  if (sent === undefined || sent.length !== SHA256_BYTES) return INVALID;
  const data = utf8.encode(signed);
  let genuine = false;
  for (const mac of macs) {
    if (constantTimeBytesEqual(await mac(data), sent)) {
      genuine = true;
      break;
    }
  }
  if (!genuine) return INVALID;
  const claims = claimsOf(claimsText);
  if (claims === undefined || typeof claims.exp !== 'number') return INVALID;
  return {
    kind: 'genuine',
    claims,
    exp: claims.exp,
    expired: claims.exp <= Math.floor(now.getTime() / 1000),
  };
}

function claimsOf(text: string): Record<string, unknown> | undefined {
  const bytes = base64urlToBytes(text);
  if (bytes === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(utf8Decoder.decode(bytes));
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return undefined;
    return { ...claims };
  } catch {
    return undefined;
  }
}
