/**
 * Who sent a cXML document: a buyer is found by any of its From credentials (domains compared without
 * case, as real buyers write NetworkID, NetworkId and networkid) and proven by a Sender SharedSecret; a
 * buyer's failed secrets count towards the throttle every protocol's authentication shares. A buyer's test
 * credentials (`test.credentials`, `test.sharedSecret`) prove the same buyer, for test documents only.
 */
import type { Credential, CxmlHeader, DeploymentMode } from '../../cxml/index.ts';
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

/** A proven sender: the buyer, and whether its production or its test credentials proved it. */
export interface ProvenSender {
  buyer: ResolvedBuyer;
  /** `test`: a test From credential or the test SharedSecret, which only ever open test mode. */
  credentials: DeploymentMode;
}

export interface CxmlSenders {
  /** The buyer the From credentials claim to be, before any secret is checked (for throttling). */
  claimedBy(from: readonly Credential[]): ResolvedBuyer | undefined;
  /** The buyer named by the header's From credentials, proven by its Sender SharedSecret. */
  authenticate(header: CxmlHeader): ProvenSender;
}

/** Whether any Sender SharedSecret is any of `secrets`: every pair compared, so timing tells nothing. */
function anyMatches(header: CxmlHeader, secrets: readonly string[]): boolean {
  let matched = false;
  for (const credential of header.sender.credentials) {
    const sent = credential.sharedSecret ?? '';
    for (const secret of secrets) {
      const equal = constantTimeEqual(sent, secret);
      matched = matched || equal;
    }
  }
  return matched;
}

/**
 * Every buyer's From credentials, production and test (OCI buyers' too: they send their OrderRequests as
 * cXML), indexed once.
 */
export function createCxmlSenders(config: ResolvedConfig): CxmlSenders {
  const byCredential = new Map<string, { buyer: ResolvedBuyer; mode: DeploymentMode }>();
  for (const buyer of config.buyers) {
    for (const c of buyer.from)
      byCredential.set(credentialKey(c.domain, c.identity), { buyer, mode: 'production' });
    for (const c of buyer.test.credentials) {
      byCredential.set(credentialKey(c.domain, c.identity), { buyer, mode: 'test' });
    }
  }

  function claimed(from: readonly Credential[]) {
    for (const c of from) {
      const found = byCredential.get(credentialKey(c.domain, c.identity));
      if (found !== undefined) return found;
    }
    return undefined;
  }

  return {
    claimedBy: (from) => claimed(from)?.buyer,
    authenticate(header) {
      const found = claimed(header.from);
      if (found === undefined) {
        const sent = header.from.map((c) => `${c.domain}/${c.identity}`).join(', ') || 'none';
        throw new GatewayError('unknown_buyer', `Unknown buyer: no account for From credential ${sent}.`);
      }
      const { buyer } = found;
      const sent = header.sender.credentials.length;
      if (sent > MAX_SENDER_CREDENTIALS) {
        // Refused before any comparison, so it tests no secret and counts no failure.
        throw new GatewayError(
          'bad_request',
          `The Sender carries ${sent} credentials; at most ${MAX_SENDER_CREDENTIALS} are accepted.`,
        );
      }
      // The current secret and those being retired (rotation): a document matching any one authenticates.
      const production =
        buyer.sharedSecret === undefined ? [] : [buyer.sharedSecret, ...buyer.previousSharedSecrets];
      const test = buyer.test.sharedSecret === undefined ? [] : [buyer.test.sharedSecret];
      // A test From credential is proven by the test secret where there is one, else by the production one;
      // either way it only opens test mode. A production From with the test secret is a test sender too.
      const credentials: DeploymentMode | undefined =
        found.mode === 'test'
          ? anyMatches(header, test.length > 0 ? test : production)
            ? 'test'
            : undefined
          : anyMatches(header, production)
            ? 'production'
            : anyMatches(header, test)
              ? 'test'
              : undefined;
      if (credentials === undefined) {
        throw new GatewayError('bad_secret', 'Authentication failed: the Sender SharedSecret is not valid.');
      }
      return { buyer, credentials };
    },
  };
}

/**
 * The mode a proven document is handled in: its own `deploymentMode`, if its credentials may open it. Test
 * credentials only ever open test mode; production credentials sending a test document are taken as test
 * or refused, as the buyer's `test.fromProductionCredentials` says.
 */
export function deploymentModeOf(sender: ProvenSender, requested: DeploymentMode): DeploymentMode {
  if (sender.credentials === 'test' && requested === 'production') {
    throw new GatewayError(
      'deployment_mode_refused',
      'This document carries deploymentMode "production" but was sent with the test credentials, which only ' +
        'open test mode: send it with deploymentMode="test", or with the production credentials.',
    );
  }
  if (
    sender.credentials === 'production' &&
    requested === 'test' &&
    sender.buyer.test.fromProductionCredentials === 'refuse'
  ) {
    throw new GatewayError(
      'deployment_mode_refused',
      'This document carries deploymentMode "test" but was sent with the production credentials, which this ' +
        'supplier does not accept for test documents: send it with the test credentials.',
    );
  }
  return requested;
}

/**
 * The buyer proven by the header, unless the buyer (or it from this address) is throttled for failed
 * secrets; a refused document counts one failure per SharedSecret it made us compare.
 */
export async function authenticateHeader(
  ctx: GatewayContext,
  senders: CxmlSenders,
  header: CxmlHeader,
  address: string,
): Promise<ProvenSender> {
  const claimed = senders.claimedBy(header.from);
  if (claimed === undefined) return senders.authenticate(header);
  const wrongSecrets = (error: unknown) => {
    if (!(error instanceof GatewayError && error.code === 'bad_secret')) return 0;
    const compared = sharedSecretsSent(header);
    ctx.logger.warn('cxml secret refused', { buyer: claimed.id, address, compared });
    return compared;
  };
  return await ctx.secretThrottle.guard(
    claimed.id,
    address,
    () => senders.authenticate(header),
    wrongSecrets,
  );
}
