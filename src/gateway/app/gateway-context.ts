/**
 * Builds the `GatewayContext` every route shares from what the host hands in: above the features, since
 * it assembles pieces of several of them (the buyer directory, catalog cards, PIPO accounts, throttles).
 */
import { inAddressRanges, parseAddressRange } from '../../kernel/address-ranges.ts';
import { webCryptoHmacSha256 } from '../../kernel/signed-claims.ts';
import { createEditorUrls } from '../../print-api/index.ts';
import type { GatewayContext } from '../context.ts';
import {
  cryptoRandomId,
  type GatewayDeps,
  type ResolvedBuyer,
  type ResolvedStorefront,
  silentLogger,
} from '../deps.ts';
import { clientAddressBehindProxies } from '../http/client-address.ts';
import { GatewayError } from '../http/errors.ts';
import { createMetrics } from '../http/metrics.ts';
import { type Locale, localeOf } from '../i18n/locale.ts';
import { sessionLocale } from '../i18n/page-locale.ts';
import { FALLBACK_LANGUAGE, languageOfTag } from '../i18n/session-language.ts';
import { createBuyerDirectory } from '../punchout/buyers.ts';
import { prepareCatalogCards } from '../punchout/catalog-page.ts';
import type { CatalogCard } from '../punchout/pages.ts';
import { createPipoAccounts } from '../punchout/pipo-accounts.ts';
import { createSecretThrottle, UNKNOWN_ADDRESS } from '../punchout/throttle.ts';
import { createTokenService } from '../punchout/tokens.ts';
import { PUNCHOUT_PROTOCOLS } from './protocols.ts';

export async function createGatewayContext(deps: GatewayDeps): Promise<GatewayContext> {
  const { config } = deps;
  const hmacSha256 = deps.hmacSha256 ?? webCryptoHmacSha256;
  const tokens = await createTokenService(config.signingKey, config.previousSigningKeys, hmacSha256);
  const storefronts = new Map(config.storefronts.map((s) => [s.id, s]));
  const editorUrls = new Map(config.storefronts.map((s) => [s.id, createEditorUrls(s.editorUrl)]));
  // At config load, not per request: each storefront's SKU index and product cards in its own language;
  // the cards of another language at the first session that speaks it, kept from then on.
  const catalogCards = new Map<string, ReadonlyMap<string, CatalogCard>>();
  const cardsOf = (s: ResolvedStorefront, locale: Locale) => {
    const key = `${s.id}\u0000${locale.language}`;
    let cards = catalogCards.get(key);
    if (cards === undefined) {
      cards = prepareCatalogCards(s, editorUrls.get(s.id) ?? createEditorUrls(s.editorUrl), locale);
      // Only configured storefronts are kept: a storefront object from elsewhere (tests) is rendered each time.
      if (storefronts.get(s.id) === s) catalogCards.set(key, cards);
    }
    return cards;
  };
  for (const s of config.storefronts) cardsOf(s, localeOf(languageOfTag(s.language) ?? FALLBACK_LANGUAGE));
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
    hmacSha256,
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
    catalogCards: cardsOf,
    buyer,
    protocols: PUNCHOUT_PROTOCOLS,
    protocolOf: (b) => PUNCHOUT_PROTOCOLS[b.protocol],
    secretThrottle: createSecretThrottle({
      clock: deps.clock,
      shared: deps.store.guessCounters,
      isAllowed: (buyerId, address) => inAddressRanges(address, allowLists.get(buyerId) ?? []),
    }),
    metrics: deps.metrics ?? createMetrics(),
    clientAddress: (c) =>
      clientAddressBehindProxies(deps.clientAddress?.(c), c.req.header('X-Forwarded-For'), trustedProxies) ??
      UNKNOWN_ADDRESS,
    ...(deps.parseLargeCxml !== undefined && { parseLargeCxml: deps.parseLargeCxml }),
    ...(deps.testPunchout !== undefined && { testPunchout: deps.testPunchout }),
    sessionParties: (session) => {
      const sessionBuyer = buyer(session.buyerId);
      return {
        buyer: sessionBuyer,
        storefront: storefront(session.storefrontId),
        locale: sessionLocale(session, sessionBuyer),
      };
    },
  };
}
