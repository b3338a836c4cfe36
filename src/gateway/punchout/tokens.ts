/**
 * Signed, expiring URL tokens and encryption at rest, both keyed from the configured signing key.
 *
 * Procurement systems embed the catalog in iframes where cookies are unreliable, so every gateway URL a
 * browser follows carries a token naming the session (`sid`) and what the URL is for (`pur`): compact
 * signed claims (`<claims>.<mac>`, an HMAC-SHA-256, src/kernel/signed-claims.ts) under a key derived for URL
 * tokens alone. A token for one purpose never opens another, and one session's token never opens another
 * session. Credentials the gateway must keep (PIPO passwords, for logging in again when a PO arrives
 * weeks later) are encrypted with AES-256-GCM (a random 96-bit IV per value) under a key derived
 * separately from the same secret.
 *
 * Keys rotate without downtime: tokens are signed and values sealed with the current key only, and
 * verified or unsealed with the current key, then each previous one (`previousSigningKeys`), so links and
 * stored values from before a rotation keep working for as long as the operator keeps the old key.
 *
 * What earlier versions wrote stays readable without a JOSE library: session, return and proof links were
 * HS256 JWTs (proof links live for months in requisitions), and sealed values compact JWEs (`dir`,
 * `A256GCM`: base64url parts around one AES-GCM ciphertext, its header the additional data).
 */
import { base64urlToBytes, bytesToBase64url } from '../../kernel/base64.ts';
import {
  type ClaimKeys,
  checkSignedClaims,
  type HmacSha256,
  type MacOf,
  signClaims,
  webCryptoHmacSha256,
} from '../../kernel/signed-claims.ts';
import { GatewayError } from '../http/errors.ts';

type TokenPurpose = 'start' | 'session' | 'return' | 'events' | 'proof';

interface TokenClaims {
  /** Session id (for `events`: the storefront id; for `proof`: the buyer id, as it outlives its session). */
  sid: string;
  pur: TokenPurpose;
  /** Unique id, for single-use tokens. */
  jti?: string;
  /** What the URL acts on, signed with it (e.g. the SKU or line a `return` URL adds or replaces). */
  ref?: string;
  exp: number;
}

type TokenRequest = { sid: string; pur: TokenPurpose; jti?: string; ref?: string };

export interface TokenService {
  sign(claims: TokenRequest, ttlSeconds: number, now: Date): Promise<string>;
  verify(token: string, purpose: TokenPurpose, now: Date): Promise<TokenClaims>;
  /**
   * The claims of a genuine token for one of `purposes` whose only fault is its age, so an expired page
   * can still name the session it belonged to and offer the way back to the procurement system.
   */
  verifyExpired(token: string, purposes: readonly TokenPurpose[]): Promise<TokenClaims | undefined>;
  encrypt(plaintext: string): Promise<string>;
  decrypt(ciphertext: string): Promise<string>;
  /** `decrypt`, telling whether a previous key sealed the value (the caller may seal it again with `encrypt`). */
  unseal(ciphertext: string): Promise<{ plaintext: string; underPreviousKey: boolean }>;
}

function deriveKeyBytes(secret: string, label: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', new TextEncoder().encode(`punchgate:${label}:${secret}`));
}

/**
 * The HMAC keys derived under `label` from each signing key, the current one first (it opens everything
 * issued since the rotation, so the others are rarely tried). URL tokens and the console's cookie have
 * labels of their own, so neither passes for the other even where their claims would; among URL tokens
 * the signed `pur` keeps the purposes apart.
 */
export function derivedMacKeys(
  secrets: readonly string[],
  label: string,
  hmac: HmacSha256 = webCryptoHmacSha256,
): Promise<MacOf[]> {
  return Promise.all(
    secrets.map(async (secret) => hmac(new Uint8Array(await deriveKeyBytes(secret, label)))),
  );
}

async function encryptionKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', await deriveKeyBytes(secret, 'enc'), { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/** The header every sealed value of earlier versions carries: `{"alg":"dir","enc":"A256GCM"}`. */
const JWE_DIR_A256GCM = 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0';
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

/**
 * The AES-GCM inputs of a sealed value: `<iv>.<ciphertext and tag>`, or an earlier version's compact JWE
 * (`<header>..<iv>.<ciphertext>.<tag>`, whose header is the additional data); undefined for anything else.
 */
function sealedParts(
  sealed: string,
):
  | { iv: Uint8Array<ArrayBuffer>; data: Uint8Array<ArrayBuffer>; additionalData?: Uint8Array<ArrayBuffer> }
  | undefined {
  const parts = sealed.split('.');
  if (parts.length === 2) {
    const iv = base64urlToBytes(parts[0] ?? '');
    const data = base64urlToBytes(parts[1] ?? '');
    if (iv?.length !== GCM_IV_BYTES || data === undefined || data.length < GCM_TAG_BYTES) return undefined;
    return { iv, data };
  }
  if (parts.length !== 5 || parts[0] !== JWE_DIR_A256GCM || parts[1] !== '') return undefined;
  const iv = base64urlToBytes(parts[2] ?? '');
  const ciphertext = base64urlToBytes(parts[3] ?? '');
  const tag = base64urlToBytes(parts[4] ?? '');
  if (iv?.length !== GCM_IV_BYTES || ciphertext === undefined || tag?.length !== GCM_TAG_BYTES)
    return undefined;
  const data = new Uint8Array(ciphertext.length + GCM_TAG_BYTES);
  data.set(ciphertext);
  data.set(tag, ciphertext.length);
  return { iv, data, additionalData: new TextEncoder().encode(JWE_DIR_A256GCM) };
}

/** The claims of a genuine token as the purpose asked for reads them; undefined when it is for another. */
function claimsFor(
  claims: Readonly<Record<string, unknown>>,
  purpose: TokenPurpose,
  exp: number,
): TokenClaims | undefined {
  if (claims.pur !== purpose || typeof claims.sid !== 'string') return undefined;
  const read: TokenClaims = { sid: claims.sid, pur: purpose, exp };
  if (typeof claims.jti === 'string') read.jti = claims.jti;
  if (typeof claims.ref === 'string') read.ref = claims.ref;
  return read;
}

/**
 * @example
 * const tokens = await createTokenService(config.signingKey);
 * const t = await tokens.sign({ sid, pur: 'session' }, 3600, clock.now());
 */
export async function createTokenService(
  signingKey: string,
  previousKeys: readonly string[] = [],
  hmac: HmacSha256 = webCryptoHmacSha256,
): Promise<TokenService> {
  const secrets = [signingKey, ...previousKeys];
  if (secrets.some((key) => key.length < 16)) {
    throw new TypeError('signingKey and previousSigningKeys must be at least 16 characters');
  }
  // Set up once: a key import costs as much as the MAC it is for, and a punch-in signs several tokens.
  // The label `url-mac` is the one start and webhook URLs were signed under before every purpose was;
  // `mac` the one the JWTs were.
  const [macs, jwtMacs, encKeys] = await Promise.all([
    derivedMacKeys(secrets, 'url-mac', hmac),
    derivedMacKeys(secrets, 'mac', hmac),
    Promise.all(secrets.map(encryptionKey)),
  ]);
  const keys: ClaimKeys = { macs, jwtMacs };
  const [signingMac] = macs as [MacOf];
  const [encKey] = encKeys as [CryptoKey];
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();

  const service: TokenService = {
    sign(claims, ttlSeconds, now) {
      return signClaims(signingMac, {
        sid: claims.sid,
        pur: claims.pur,
        exp: Math.floor(now.getTime() / 1000) + ttlSeconds,
        ...(claims.jti !== undefined && { jti: claims.jti }),
        ...(claims.ref !== undefined && { ref: claims.ref }),
      });
    },

    async verify(token, purpose, now) {
      const check = await checkSignedClaims(token, keys, now);
      if (check.kind === 'invalid') throw new GatewayError('token_invalid', 'This link is not valid.');
      // Expiry before purpose: a genuine link past its time is told so, whatever page it was for.
      if (check.expired) throw new GatewayError('token_expired', 'This punch-out link has expired.');
      const claims = claimsFor(check.claims, purpose, check.exp);
      if (claims === undefined)
        throw new GatewayError('token_invalid', 'This link is not valid for this page.');
      return claims;
    },

    async verifyExpired(token, purposes) {
      const check = await checkSignedClaims(token, keys, new Date(0));
      if (check.kind === 'invalid') return undefined;
      const purpose = purposes.find((p) => p === check.claims.pur);
      return purpose === undefined ? undefined : claimsFor(check.claims, purpose, check.exp);
    },

    async encrypt(plaintext) {
      const iv = crypto.getRandomValues(new Uint8Array(GCM_IV_BYTES));
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, encKey, encoder.encode(plaintext));
      return `${bytesToBase64url(iv)}.${bytesToBase64url(new Uint8Array(sealed))}`;
    },

    async decrypt(ciphertext) {
      return (await service.unseal(ciphertext)).plaintext;
    },

    async unseal(ciphertext) {
      const parts = sealedParts(ciphertext);
      if (parts !== undefined) {
        const algorithm = {
          name: 'AES-GCM',
          iv: parts.iv,
          ...(parts.additionalData && { additionalData: parts.additionalData }),
        };
        for (const [index, key] of encKeys.entries()) {
          try {
            const plaintext = await crypto.subtle.decrypt(algorithm, key, parts.data);
            return { plaintext: decoder.decode(plaintext), underPreviousKey: index > 0 };
          } catch {
            // Sealed under another key (or changed): the next key, if any.
          }
        }
      }
      throw new Error('The sealed value opens under none of the signing keys.');
    },
  };
  return service;
}
