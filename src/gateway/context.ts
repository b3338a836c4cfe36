/**
 * What every gateway route shares: the resolved config with lookups, the store, the clock, the token
 * service and the print-service accounts. Built once in `createGateway`.
 */

import type { Context } from 'hono';
import { inAddressRanges, parseAddressRange } from '../kernel/address-ranges.ts';
import { createEditorUrls, type EditorUrls, type PrintApi } from '../print-api/index.ts';
import type { Clock, Store } from '../store/port.ts';
import type { PunchoutSession } from '../store/types.ts';
import {
  cryptoRandomId,
  type GatewayDeps,
  type Logger,
  type ResolvedBuyer,
  type ResolvedConfig,
  type ResolvedStorefront,
  silentLogger,
} from './deps.ts';
import { clientAddressBehindProxies } from './http/client-address.ts';
import { GatewayError } from './http/errors.ts';
import { createMetrics, type Metrics } from './http/metrics.ts';
import { type BuyerDirectory, createBuyerDirectory } from './punchout/buyers.ts';
import { prepareCatalogCards } from './punchout/catalog-page.ts';
import type { CatalogCard } from './punchout/pages.ts';
import { createPipoAccounts, type PipoAccounts } from './punchout/pipo-accounts.ts';
import { createSecretThrottle, type SecretThrottle, UNKNOWN_ADDRESS } from './punchout/throttle.ts';
import { createTokenService, type TokenService } from './punchout/tokens.ts';

export interface GatewayContext {
  config: ResolvedConfig;
  store: Store;
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  buyers: BuyerDirectory;
  accounts: PipoAccounts;
  randomId: (bytes?: number) => string;
  fetch: typeof fetch;
  /** The public base URL without a trailing slash. */
  publicUrl: string;
  /** Host name used in payloadIDs. */
  payloadHost: string;
  printApiFor(storefront: ResolvedStorefront): PrintApi;
  editorUrlsFor(storefront: ResolvedStorefront): EditorUrls;
  storefront(id: string): ResolvedStorefront;
  /** The storefront's product cards by SKU, rendered at config load for the catalog page. */
  catalogCards(storefront: ResolvedStorefront): ReadonlyMap<string, CatalogCard>;
  buyer(id: string): ResolvedBuyer;
  /** Failed-secret throttling per buyer and per client address, shared by every protocol's authentication. */
  secretThrottle: SecretThrottle;
  metrics: Metrics;
  /**
   * Where the host keeps when the last background round completed (`GatewayDeps.lastBackgroundRoundAt`:
   * the store's heartbeat on Workers); absent, this instance's metrics know.
   */
  lastBackgroundRoundAt?: () => Promise<Date | undefined>;
  /** The caller's address (`unknown` when the runtime cannot tell). */
  clientAddress(c: Context): string;
  /** `parseCxmlRequest` off the event loop, where the runtime has one (`GatewayDeps.parseLargeCxml`). */
  parseLargeCxml?: GatewayDeps['parseLargeCxml'];
  /** The console's test punch-out, where the runtime has one (`GatewayDeps.testPunchout`). */
  testPunchout?: GatewayDeps['testPunchout'];
  /** The session's buyer and storefront, which must still be configured. */
  sessionParties(session: PunchoutSession): { buyer: ResolvedBuyer; storefront: ResolvedStorefront };
}

export async function createGatewayContext(deps: GatewayDeps): Promise<GatewayContext> {
  const { config } = deps;
  const tokens = await createTokenService(config.signingKey, config.previousSigningKeys);
  const storefronts = new Map(config.storefronts.map((s) => [s.id, s]));
  const editorUrls = new Map(config.storefronts.map((s) => [s.id, createEditorUrls(s.editorUrl)]));
  // At config load, not per request: each storefront's SKU index and product cards (issue 18).
  const catalogCards = new Map(
    config.storefronts.map((s) => [s.id, prepareCatalogCards(s, createEditorUrls(s.editorUrl))]),
  );
  const buyers = createBuyerDirectory(config);
  const publicUrl = config.publicUrl.replace(/\/+$/, '');
  const trustedProxies = new Set(config.trustedProxies.map((a) => a.toLowerCase()));
  // Read once here: the config check has already refused any entry that does not parse.
  const allowLists = new Map(
    config.buyers.map((b) => [
      b.id,
      b.authAllowedAddresses.flatMap((entry) => parseAddressRange(entry) ?? []),
    ]),
  );

  const storefront = (id: string): ResolvedStorefront => {
    const found = storefronts.get(id);
    if (found === undefined) throw new GatewayError('not_found', `No storefront "${id}" is configured.`);
    return found;
  };
  const buyer = (id: string): ResolvedBuyer => {
    const found = buyers.byId(id);
    if (found === undefined) throw new GatewayError('unknown_buyer', `No buyer "${id}" is configured.`);
    return found;
  };

  return {
    config,
    store: deps.store,
    clock: deps.clock,
    logger: deps.logger ?? silentLogger,
    tokens,
    buyers,
    accounts: createPipoAccounts({
      store: deps.store,
      clock: deps.clock,
      tokens,
      signingKey: config.signingKey,
      printApiFor: deps.printApiFor,
      reuseSeconds: config.sessions.pipoTokenReuseSeconds,
    }),
    randomId: deps.randomId ?? cryptoRandomId,
    ...(deps.lastBackgroundRoundAt !== undefined && { lastBackgroundRoundAt: deps.lastBackgroundRoundAt }),
    fetch: deps.fetch ?? ((input, init) => fetch(input, init)),
    publicUrl,
    payloadHost: new URL(publicUrl).hostname,
    printApiFor: deps.printApiFor,
    editorUrlsFor: (s) => editorUrls.get(s.id) ?? createEditorUrls(s.editorUrl),
    storefront,
    catalogCards: (s) => catalogCards.get(s.id) ?? prepareCatalogCards(s, createEditorUrls(s.editorUrl)),
    buyer,
    secretThrottle: createSecretThrottle({
      clock: deps.clock,
      isAllowed: (buyerId, address) => inAddressRanges(address, allowLists.get(buyerId) ?? []),
    }),
    metrics: deps.metrics ?? createMetrics(),
    clientAddress: (c) =>
      clientAddressBehindProxies(deps.clientAddress?.(c), c.req.header('X-Forwarded-For'), trustedProxies) ??
      UNKNOWN_ADDRESS,
    ...(deps.parseLargeCxml !== undefined && { parseLargeCxml: deps.parseLargeCxml }),
    ...(deps.testPunchout !== undefined && { testPunchout: deps.testPunchout }),
    sessionParties: (session) => ({
      buyer: buyer(session.buyerId),
      storefront: storefront(session.storefrontId),
    }),
  };
}
