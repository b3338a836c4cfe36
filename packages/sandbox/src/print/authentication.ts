/**
 * Authentication of /api calls, in the interface's order (A04), each failure its own 401:
 * credentials present (X01) and well formed (X02); key the correct derivation of the token (X02); token
 * known, active and not deleted (X02); HTTPS (X03); license tier (X04, skipped for automation-platform
 * User-Agents, A05). PIPO calls then need a valid session token in X-PN-TOKEN (403 without a body, A06).
 *
 * This is every request's hot path: keys are precomputed, lookups are maps, nothing is schema-parsed.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { constantTimeEqual } from 'punchgate/kernel';
import type { EndpointTier, LicenseTier } from 'punchgate/schemas/print-api';
import { SandboxError } from './sandbox-error.ts';
import type { SandboxService } from './service.ts';
import type { ApiKeyRecord, CustomerRecord, LicenseRecord, SessionRecord } from './state.ts';

interface ApiCaller {
  readonly key: ApiKeyRecord;
  readonly license: LicenseRecord;
}

export interface PipoCaller {
  readonly session: SessionRecord;
  readonly user: CustomerRecord;
}

export type SandboxEnv = {
  Variables: { caller: ApiCaller; pipo: PipoCaller };
};

const TIER_RANK: Record<LicenseTier, number> = { Enterprise: 3, BusinessPlus: 2, Business: 1, Standard: 0 };

const HEX = /^[0-9a-fA-F]+$/;

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1' || address === '0:0:0:0:0:0:0:1';
}

function usesHttps(c: Context, peer: string | undefined): boolean {
  if (c.req.url.startsWith('https:')) return true;
  const forwarded = c.req.header('X-Forwarded-Proto');
  if (forwarded !== undefined && forwarded.split(',')[0]!.trim().toLowerCase() === 'https') return true;
  // Plain HTTP passes only from loopback peers; an in-process request has no peer and counts as local.
  return peer === undefined || isLoopback(peer);
}

/** token and key from `Authorization: Basic base64(token:key)`. */
function readCredentials(header: string | undefined): { token: string; key: string } {
  if (header === undefined || header.trim() === '') throw SandboxError.of('credentialsMissing');
  const match = /^Basic(?:\s+(.*))?$/i.exec(header.trim());
  if (match === null) throw SandboxError.of('invalidKeyOrToken');
  const encoded = match[1]?.trim() ?? '';
  if (encoded === '') throw SandboxError.of('credentialsMissing');
  let decoded: string;
  try {
    decoded = atob(encoded);
  } catch {
    throw SandboxError.of('invalidKeyOrToken');
  }
  if (decoded === '') throw SandboxError.of('credentialsMissing');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) throw SandboxError.of('invalidKeyOrToken');
  const token = decoded.slice(0, colon);
  if (!HEX.test(token)) throw SandboxError.of('invalidKeyOrToken');
  return { token: token.toLowerCase(), key: decoded.slice(colon + 1) };
}

/** Runs the A04 checks and returns the caller; throws the first failing check's error. */
async function authenticateApiCall(
  service: SandboxService,
  c: Context,
  minimum: EndpointTier,
): Promise<ApiCaller> {
  const { token, key } = readCredentials(c.req.header('Authorization'));
  // Unknown tokens fail the derivation check and the existence check alike: both are X02.
  const expected = await service.keyOf(token);
  if (expected === undefined || !constantTimeEqual(key.toLowerCase(), expected)) {
    throw SandboxError.of('invalidKeyOrToken');
  }
  const record = service.state.apiKeys.get(token);
  if (record === undefined || !record.active || record.deleted) throw SandboxError.of('invalidKeyOrToken');
  if (!usesHttps(c, service.peerAddress(c))) throw SandboxError.of('httpsRequired');
  const license = service.state.licenses.get(record.licenseId)!;
  if (
    TIER_RANK[license.tier] < TIER_RANK[minimum] &&
    !service.isAutomationAgent(c.req.header('User-Agent'))
  ) {
    throw SandboxError.of('licenseTooLow');
  }
  return { key: record, license };
}

export function requireApiKey(service: SandboxService, minimum: EndpointTier): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    c.set('caller', await authenticateApiCall(service, c, minimum));
    await next();
  };
}

/**
 * The live session of a PIPO token, its expiry refreshed (T11); undefined when the token is unknown,
 * logged out, expired (T12) or of another license. Shared by the API and the editor host (A07).
 */
export function resumeSession(
  service: SandboxService,
  token: string | undefined,
  licenseId: number | undefined,
): PipoCaller | undefined {
  if (token === undefined || token === '') return undefined;
  const { sessions, customers } = service.state;
  const session = sessions.get(token);
  if (session === undefined) return undefined;
  const now = service.now();
  if (session.expiresAt <= now) {
    sessions.delete(token);
    return undefined;
  }
  if (licenseId !== undefined && session.licenseId !== licenseId) return undefined;
  const user = customers.get(session.userId);
  if (user === undefined || user.deleted) return undefined;
  session.expiresAt = now + service.sessionIdleMs;
  return { session, user };
}

/**
 * Basic + Token: a valid X-PN-TOKEN of the caller's license, else 403 with an empty body (X06) — or the
 * transfer endpoint's own text (X07).
 */
export function requireSession(
  service: SandboxService,
  invalid: 'pipoTokenInvalid' | 'transferTokenInvalid' = 'pipoTokenInvalid',
): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const pipo = resumeSession(service, c.req.header('X-PN-TOKEN'), c.get('caller').license.id);
    if (pipo === undefined) throw SandboxError.of(invalid);
    c.set('pipo', pipo);
    await next();
  };
}
