/**
 * The operator console's sign-in session: a cookie holding signed claims (`<claims>.<mac>`, an
 * HMAC-SHA-256, src/kernel/signed-claims.ts) under a key derived from the gateway's signing key, never the
 * admin token itself, so a stolen cookie expires and a leaked log
 * line cannot replay the token against the JSON API. The key has its own derivation label, so no
 * punch-out URL token can pass for a console session or the other way round. Every state-changing form
 * carries the session's CSRF token (one of the claims, random per sign-in), compared in constant time.
 * Cookies from before sessions took this form (HS256 JWTs under the same key) are read until they expire.
 *
 * Keys rotate as the punch-out tokens do: signed with the current key, verified with it and then each of
 * `previousSigningKeys`, so operators stay signed in across a rotation until their session expires.
 *
 * A session names the admin token it was signed in with by a fingerprint (a hash under its own label,
 * never the token), and is refused once that token is no longer `adminToken` or one of
 * `previousAdminTokens`: removing a leaked token from the config ends its sessions at the next start,
 * not 8 hours later.
 */
import { bytesToBase64url } from '../../../kernel/base64.ts';
import { constantTimeEqual } from '../../../kernel/constant-time.ts';
import { checkSignedClaims, type MacOf, signClaims } from '../../../kernel/signed-claims.ts';
import { derivedMacKeys } from '../../punchout/tokens.ts';
import type { GatewayContext } from '../../context.ts';

/** Cookie name; not `__Host-` prefixed, which would require Path=/ where the console wants Path=/admin. */
export const SESSION_COOKIE = 'punchgate_console';
/** A working day: an operator signs in once a shift, and a forgotten laptop is signed out by the evening. */
const SESSION_SECONDS = 8 * 3600;
/** The only path the cookie is sent to: the console's own. */
const COOKIE_PATH = '/admin';

export interface ConsoleSession {
  /** Random per sign-in; names the session in the audit log. */
  sid: string;
  /** The token every state-changing form of this session must carry. */
  csrf: string;
  exp: number;
}

/** What the console's middlewares hand its handlers: the checked session and, on a POST, its form. */
export type ConsoleEnv = { Variables: { session: ConsoleSession; form: Record<string, string> } };

export type SessionCheck =
  | { kind: 'valid'; session: ConsoleSession }
  | { kind: 'expired' }
  | { kind: 'signed-out' }
  | { kind: 'none' };

/**
 * Where a signed-out session is recorded: the store's heartbeats (a name and a time, readable from every
 * instance and kept across restarts, as on Workers a later request may reach another isolate), the time
 * being the sign-out's. No other store record fits without a schema change: the one-time tokens answer
 * only by consuming, so they cannot be asked whether a session was signed out. Heartbeats are never
 * swept, so each sign-out leaves one small row behind (a few a day).
 */
function signedOutName(sid: string): string {
  return `admin-console-signed-out:${sid}`;
}

/** The admin token a session was signed in with, as the session names it: not reversible to the token. */
async function adminTokenFingerprint(adminToken: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`punchgate:admin-console-token:${adminToken}`),
  );
  return bytesToBase64url(new Uint8Array(digest).subarray(0, 16));
}

const fingerprintsByContext = new WeakMap<GatewayContext, Promise<Set<string>>>();

/** The fingerprints of the admin tokens the config accepts now. */
function acceptedFingerprints(ctx: GatewayContext): Promise<Set<string>> {
  let fingerprints = fingerprintsByContext.get(ctx);
  if (fingerprints === undefined) {
    fingerprints = Promise.all(
      [ctx.config.adminToken, ...ctx.config.previousAdminTokens].map(adminTokenFingerprint),
    ).then((all) => new Set(all));
    fingerprintsByContext.set(ctx, fingerprints);
  }
  return fingerprints;
}

// Imported once per context (per config): a console page is not a hot path, but nothing gains from
// importing the key at every request.
const keysByContext = new WeakMap<GatewayContext, Promise<MacOf[]>>();

function keysOf(ctx: GatewayContext): Promise<MacOf[]> {
  let keys = keysByContext.get(ctx);
  if (keys === undefined) {
    const secrets = [ctx.config.signingKey, ...ctx.config.previousSigningKeys];
    keys = derivedMacKeys(secrets, 'admin-console', ctx.hmacSha256);
    keysByContext.set(ctx, keys);
  }
  return keys;
}

/**
 * A new session's cookie value and claims, valid `SESSION_SECONDS` from now, for an operator who signed in
 * with `adminToken`.
 */
export async function issueSession(
  ctx: GatewayContext,
  adminToken: string,
): Promise<{ token: string; session: ConsoleSession }> {
  const [key] = await keysOf(ctx);
  const iat = Math.floor(ctx.clock.now().getTime() / 1000);
  const session: ConsoleSession = {
    sid: ctx.randomId(16),
    csrf: ctx.randomId(24),
    exp: iat + SESSION_SECONDS,
  };
  const adm = await adminTokenFingerprint(adminToken);
  const claims = { sid: session.sid, csrf: session.csrf, adm, pur: 'admin-console', exp: session.exp };
  const token = await signClaims(key as MacOf, claims);
  return { token, session };
}

/**
 * The session a cookie value names: valid, expired (a genuine token past its time, or signed in with an
 * admin token the config no longer accepts), signed out (a genuine token whose session was ended with
 * "Sign out", refused until it would have expired), or none at all.
 */
export async function checkSession(ctx: GatewayContext, token: string | undefined): Promise<SessionCheck> {
  if (token === undefined || token === '') return { kind: 'none' };
  const macs = await keysOf(ctx);
  // The JWTs of earlier versions were signed under the same key: their MAC covers a header and a dot, so
  // neither form passes for the other.
  const check = await checkSignedClaims(token, { macs, jwtMacs: macs }, ctx.clock.now());
  if (check.kind === 'invalid') return { kind: 'none' };
  if (check.expired) return { kind: 'expired' };
  const { sid, csrf, adm, pur } = check.claims;
  if (typeof sid !== 'string' || typeof csrf !== 'string' || pur !== 'admin-console') return { kind: 'none' };
  // Signed in with a token that is no longer accepted: ended as if it ran out, so the operator is told
  // to sign in again. A session from before sessions named their token ends the same way.
  if (typeof adm !== 'string' || !(await acceptedFingerprints(ctx)).has(adm)) return { kind: 'expired' };
  if ((await ctx.store.heartbeat.last(signedOutName(sid))) !== undefined) return { kind: 'signed-out' };
  return { kind: 'valid', session: { sid, csrf, exp: check.exp } };
}

/** Ends a session on the server: its cookie, wherever it was copied to, is refused from now on. */
export async function endSession(ctx: GatewayContext, session: ConsoleSession): Promise<void> {
  await ctx.store.heartbeat.beat(signedOutName(session.sid), ctx.clock.now());
}

/** Whether a form's CSRF field is the session's own. */
export function csrfMatches(session: ConsoleSession, sent: unknown): boolean {
  return typeof sent === 'string' && sent !== '' && constantTimeEqual(sent, session.csrf);
}

/** The Set-Cookie value for a session cookie, or (`token` undefined) for one that clears it. */
export function sessionCookie(ctx: GatewayContext, token: string | undefined): string {
  const secure = ctx.publicUrl.startsWith('https:') ? '; Secure' : '';
  const life = token === undefined ? 'Max-Age=0' : `Max-Age=${SESSION_SECONDS}`;
  return `${SESSION_COOKIE}=${token ?? ''}; ${life}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Strict${secure}`;
}
