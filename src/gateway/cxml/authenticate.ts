/**
 * Who sent a cXML document: a buyer is found by any of its From credentials (domains compared without
 * case, as real buyers write NetworkID, NetworkId and networkid) and proven by a Sender SharedSecret; a
 * buyer's failed secrets count towards the throttle every protocol's authentication shares.
 */
import type { Credential, CxmlHeader } from '../../cxml/index.ts';
import { constantTimeEqual } from '../../kernel/constant-time.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer, ResolvedConfig } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';

/**
 * Most Sender credentials a document may carry. Real buyers send one or two (SAP Ariba and Amazon Business
 * two); any one that matches authenticates, so without a cap one document could test thousands of guesses.
 */
const MAX_SENDER_CREDENTIALS = 4;

/** How many secrets a refused document made the gateway compare: its SharedSecrets, and at least one. */
function sharedSecretsSent(header: CxmlHeader): number {
  return Math.max(1, header.sender.credentials.filter((c) => (c.sharedSecret ?? '') !== '').length);
}

function credentialKey(domain: string, identity: string): string {
  return `${domain.trim().toLowerCase()}\u0000${identity.trim()}`;
}

export interface CxmlSenders {
  /** The buyer the From credentials claim to be, before any secret is checked (for throttling). */
  claimedBy(from: readonly Credential[]): ResolvedBuyer | undefined;
  /** The buyer named by the header's From credentials, proven by its Sender SharedSecret. */
  authenticate(header: CxmlHeader): ResolvedBuyer;
}

/** Every buyer's From credentials (OCI buyers' too: they send their OrderRequests as cXML), indexed once. */
export function createCxmlSenders(config: ResolvedConfig): CxmlSenders {
  const byCredential = new Map<string, ResolvedBuyer>();
  for (const buyer of config.buyers) {
    for (const c of buyer.from) byCredential.set(credentialKey(c.domain, c.identity), buyer);
  }

  function claimedBy(from: readonly Credential[]): ResolvedBuyer | undefined {
    for (const c of from) {
      const buyer = byCredential.get(credentialKey(c.domain, c.identity));
      if (buyer !== undefined) return buyer;
    }
    return undefined;
  }

  return {
    claimedBy,
    authenticate(header) {
      const buyer = claimedBy(header.from);
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
}

/**
 * The buyer proven by the header, unless the buyer (or it from this address) is throttled for failed
 * secrets; a refused document counts one failure per SharedSecret it made us compare.
 */
export function authenticateHeader(
  ctx: GatewayContext,
  senders: CxmlSenders,
  header: CxmlHeader,
  address: string,
): ResolvedBuyer {
  const claimed = senders.claimedBy(header.from);
  if (claimed === undefined) return senders.authenticate(header);
  const wrongSecrets = (error: unknown) => {
    if (!(error instanceof GatewayError && error.code === 'bad_secret')) return 0;
    const compared = sharedSecretsSent(header);
    ctx.logger.warn('cxml secret refused', { buyer: claimed.id, address, compared });
    return compared;
  };
  return ctx.secretThrottle.guard(claimed.id, address, () => senders.authenticate(header), wrongSecrets);
}
