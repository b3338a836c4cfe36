/**
 * Who is calling: a cXML buyer is found by any of its From credentials (domains compared without case,
 * as real buyers write NetworkID, NetworkId and networkid) and proven by a Sender SharedSecret.
 */
import type { Credential, CxmlHeader } from '../../cxml/index.ts';
import { constantTimeEqual } from '../../kernel/constant-time.ts';
import type { ResolvedBuyer, ResolvedConfig } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';

/**
 * Most Sender credentials a document may carry. Real buyers send one or two (SAP Ariba and Amazon Business
 * two); any one that matches authenticates, so without a cap one document could test thousands of guesses.
 */
export const MAX_SENDER_CREDENTIALS = 4;

/** How many secrets a refused document made the gateway compare: its SharedSecrets, and at least one. */
export function sharedSecretsSent(header: CxmlHeader): number {
  return Math.max(1, header.sender.credentials.filter((c) => (c.sharedSecret ?? '') !== '').length);
}

function credentialKey(domain: string, identity: string): string {
  return `${domain.trim().toLowerCase()}\u0000${identity.trim()}`;
}

export interface BuyerDirectory {
  byId(id: string): ResolvedBuyer | undefined;
  /** The buyer the From credentials claim to be, before any secret is checked (for throttling). */
  byFrom(from: readonly Credential[]): ResolvedBuyer | undefined;
  /** The buyer named by the header's From credentials, proven by its Sender SharedSecret. */
  authenticate(header: CxmlHeader): ResolvedBuyer;
}

export function createBuyerDirectory(config: ResolvedConfig): BuyerDirectory {
  const byCredential = new Map<string, ResolvedBuyer>();
  const byId = new Map<string, ResolvedBuyer>();
  for (const buyer of config.buyers) {
    byId.set(buyer.id, buyer);
    for (const c of buyer.from) byCredential.set(credentialKey(c.domain, c.identity), buyer);
  }

  return {
    byId: (id) => byId.get(id),
    byFrom: findByFrom,
    authenticate(header) {
      const buyer = findByFrom(header.from);
      if (buyer === undefined) {
        const sent = header.from.map((c) => `${c.domain}/${c.identity}`).join(', ') || 'none';
        throw new GatewayError('unknown_buyer', `Unknown buyer: no account for From credential ${sent}.`);
      }
      const sent = header.sender.credentials.length;
      if (sent > MAX_SENDER_CREDENTIALS) {
        // Refused before any comparison, so it tests no secret and counts no failure.
        throw new GatewayError(
          'bad_request',
          `The Sender carries ${sent} credentials; at most ${MAX_SENDER_CREDENTIALS} are accepted.`,
        );
      }
      // The current secret and those being retired (rotation): a document matching any one authenticates.
      const accepted =
        buyer.sharedSecret === undefined ? [] : [buyer.sharedSecret, ...buyer.previousSharedSecrets];
      // Every Sender credential is compared with every accepted secret (no early exit), so timing does not
      // tell which one matched.
      let matched = false;
      for (const credential of header.sender.credentials) {
        const sent = credential.sharedSecret ?? '';
        for (const secret of accepted) {
          const equal = constantTimeEqual(sent, secret);
          matched = matched || equal;
        }
      }
      if (!matched) {
        throw new GatewayError('bad_secret', 'Authentication failed: the Sender SharedSecret is not valid.');
      }
      return buyer;
    },
  };

  function findByFrom(from: readonly Credential[]): ResolvedBuyer | undefined {
    for (const c of from) {
      const buyer = byCredential.get(credentialKey(c.domain, c.identity));
      if (buyer !== undefined) return buyer;
    }
    return undefined;
  }
}

/** True when the URL's host (and port, if the entry names one) is on the allow-list; `*.` entries match subdomains. */
export function isHostAllowed(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  const host = parsed.hostname.toLowerCase();
  const hostWithPort = parsed.port === '' ? host : `${host}:${parsed.port}`;
  return allowedHosts.some((entry) => {
    const hasPort = /:\d+$/.test(entry);
    const candidate = hasPort ? hostWithPort : host;
    if (entry.startsWith('*.')) {
      const suffix = entry.slice(1);
      return candidate.endsWith(suffix) && candidate.length > suffix.length;
    }
    return candidate === entry;
  });
}
