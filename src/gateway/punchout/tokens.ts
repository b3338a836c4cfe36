/**
 * Signed, expiring URL tokens and encryption at rest, both keyed from the configured signing key.
 *
 * Procurement systems embed the catalog in iframes where cookies are unreliable, so every gateway URL a
 * browser follows carries a token naming the session (`sid`) and what the URL is for (`pur`): an HS256 JWT,
 * or for the start and webhook URLs a bare HMAC of the claims (see HMAC_PURPOSES). A token for one purpose never opens another, and one session's token never opens another
 * session. Credentials the gateway must keep (PIPO passwords, for logging in again when a PO arrives
 * weeks later) are encrypted with A256GCM under a key derived separately from the same secret.
 *
 * Keys rotate without downtime: tokens are signed and values sealed with the current key only, and
 * verified or unsealed with the current key, then each previous one (`previousSigningKeys`), so links and
 * stored values from before a rotation keep working for as long as the operator keeps the old key.
 */
import { CompactEncrypt, compactDecrypt, decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { base64ToBytes, bytesToBase64 } from '../../kernel/base64.ts';
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

// Imported once: jose would otherwise import raw key bytes again on every sign and verify, which is a
// measurable part of a punch-in.
async function importKeys(secret: string): Promise<{ mac: CryptoKey; url: CryptoKey; enc: CryptoKey }> {
  const [macBytes, urlBytes, encBytes] = await Promise.all([
    deriveKeyBytes(secret, 'mac'),
    deriveKeyBytes(secret, 'url-mac'),
    deriveKeyBytes(secret, 'enc'),
  ]);
  const hmac = (bytes: ArrayBuffer) =>
    crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const [mac, url, enc] = await Promise.all([
    hmac(macBytes),
    hmac(urlBytes),
    crypto.subtle.importKey('raw', encBytes, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']),
  ]);
  return { mac, url, enc };
}

/**
 * The purposes whose tokens are a bare HMAC (`<payload>.<mac>`, both base64url) instead of a JWT: the
 * punch-in's start URL and the print service's webhook URL, made or checked on every punch-in and every
 * event, where a JWT's header and its parse buy nothing (the gateway is the only one to read them).
 * Their key is derived apart from the JWTs' (`url-mac`), so neither kind can pass for the other.
 */
const HMAC_PURPOSES: ReadonlySet<TokenPurpose> = new Set(['start', 'events']);

function base64url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/');
  return base64ToBytes(padded + '='.repeat((4 - (padded.length % 4)) % 4));
}

/** An HMAC token's claims as written, or undefined when it is not one (a JWT has three parts). */
function hmacTokenParts(
  token: string,
): { payload: string; mac: Uint8Array<ArrayBuffer>; claims: Record<string, unknown> } | undefined {
  const parts = token.split('.');
  if (parts.length !== 2) return undefined;
  const [payload = '', macText = ''] = parts;
  const mac = fromBase64url(macText);
  const json = fromBase64url(payload);
  if (mac === undefined || json === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(json));
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return undefined;
    return { payload, mac, claims: { ...claims } };
  } catch {
    return undefined;
  }
}

/**
 * @example
 * const tokens = await createTokenService(config.signingKey);
 * const t = await tokens.sign({ sid, pur: 'session' }, 3600, clock.now());
 */
export async function createTokenService(
  signingKey: string,
  previousKeys: readonly string[] = [],
): Promise<TokenService> {
  if ([signingKey, ...previousKeys].some((key) => key.length < 16)) {
    throw new TypeError('signingKey and previousSigningKeys must be at least 16 characters');
  }
  // The current key first: it opens everything issued since the rotation, so the others are rarely tried.
  const keys = await Promise.all([signingKey, ...previousKeys].map(importKeys));
  const {
    mac: macKey,
    url: urlKey,
    enc: encKey,
  } = keys[0] as { mac: CryptoKey; url: CryptoKey; enc: CryptoKey };
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();

  /** The claims of an HMAC token under the first key whose MAC matches; a GatewayError when none does or it has expired. */
  async function verifiedHmacClaims(token: string, now: Date): Promise<Record<string, unknown>> {
    const parts = hmacTokenParts(token);
    if (parts === undefined) throw new GatewayError('token_invalid', 'This link is not valid.');
    const signed = encoder.encode(parts.payload);
    let genuine = false;
    for (const { url } of keys) {
      if (await crypto.subtle.verify('HMAC', url, parts.mac, signed)) {
        genuine = true;
        break;
      }
    }
    if (!genuine) throw new GatewayError('token_invalid', 'This link is not valid.');
    const { exp } = parts.claims;
    if (typeof exp !== 'number') throw new GatewayError('token_invalid', 'This link is not valid.');
    // As a JWT's `exp`: expired from that second on.
    if (exp <= Math.floor(now.getTime() / 1000)) {
      throw new GatewayError('token_expired', 'This punch-out link has expired.');
    }
    return parts.claims;
  }

  /** The payload under the first key whose signature matches; jose's own error when none does. */
  async function verifiedPayload(token: string, now: Date) {
    for (const [index, { mac }] of keys.entries()) {
      try {
        return (await jwtVerify(token, mac, { algorithms: ['HS256'], currentDate: now })).payload;
      } catch (error) {
        // Only a wrong signature is worth the next key; a malformed or expired token is so under every key.
        const last = index === keys.length - 1;
        if (last || !(error instanceof joseErrors.JWSSignatureVerificationFailed)) throw error;
      }
    }
    throw new TypeError('no signing key'); // unreachable: keys holds at least the current one
  }

  const service: TokenService = {
    async sign(claims, ttlSeconds, now) {
      const iat = Math.floor(now.getTime() / 1000);
      if (HMAC_PURPOSES.has(claims.pur)) {
        const payload = base64url(
          encoder.encode(
            JSON.stringify({
              sid: claims.sid,
              pur: claims.pur,
              exp: iat + ttlSeconds,
              ...(claims.jti !== undefined && { jti: claims.jti }),
              ...(claims.ref !== undefined && { ref: claims.ref }),
            }),
          ),
        );
        const mac = await crypto.subtle.sign('HMAC', urlKey, encoder.encode(payload));
        return `${payload}.${base64url(new Uint8Array(mac))}`;
      }
      const payload: Record<string, string> = { sid: claims.sid, pur: claims.pur };
      if (claims.ref !== undefined) payload.ref = claims.ref;
      const jwt = new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds);
      if (claims.jti !== undefined) jwt.setJti(claims.jti);
      return jwt.sign(macKey);
    },

    async verify(token, purpose, now) {
      try {
        // By the token's form, not the purpose asked: a genuine token of another purpose is told apart
        // from a forged one either way.
        const payload =
          hmacTokenParts(token) !== undefined
            ? await verifiedHmacClaims(token, now)
            : await verifiedPayload(token, now);
        if (payload.pur !== purpose || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') {
          throw new GatewayError('token_invalid', 'This link is not valid for this page.');
        }
        const claims: TokenClaims = { sid: payload.sid, pur: purpose, exp: payload.exp };
        if (typeof payload.jti === 'string') claims.jti = payload.jti;
        if (typeof payload.ref === 'string') claims.ref = payload.ref;
        return claims;
      } catch (error) {
        if (error instanceof GatewayError) throw error;
        if (error instanceof joseErrors.JWTExpired) {
          throw new GatewayError('token_expired', 'This punch-out link has expired.');
        }
        throw new GatewayError('token_invalid', 'This link is not valid.');
      }
    },

    async verifyExpired(token, purposes) {
      let claimed: { exp?: unknown; pur?: unknown };
      try {
        claimed = hmacTokenParts(token)?.claims ?? decodeJwt(token);
      } catch {
        return undefined;
      }
      const purpose = purposes.find((p) => p === claimed.pur);
      if (typeof claimed.exp !== 'number' || purpose === undefined) return undefined;
      try {
        return await service.verify(token, purpose, new Date((claimed.exp - 1) * 1000));
      } catch {
        return undefined;
      }
    },

    async encrypt(plaintext) {
      return new CompactEncrypt(new TextEncoder().encode(plaintext))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .encrypt(encKey);
    },

    async decrypt(ciphertext) {
      return (await service.unseal(ciphertext)).plaintext;
    },

    async unseal(ciphertext) {
      for (const [index, { enc }] of keys.entries()) {
        try {
          const { plaintext } = await compactDecrypt(ciphertext, enc);
          return { plaintext: decoder.decode(plaintext), underPreviousKey: index > 0 };
        } catch (error) {
          if (index === keys.length - 1) throw error;
        }
      }
      throw new TypeError('no signing key'); // unreachable, as above
    },
  };
  return service;
}
