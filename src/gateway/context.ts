/**
 * What every gateway route shares: the resolved config with lookups, the store, the clock, the token
 * service and the print-service accounts. Only the shape: every feature is written against it, so it is
 * built above them all, once, in `app/gateway-context.ts`.
 */

import type { Context } from 'hono';
import type { EditorUrls, PrintApi } from '../print-api/index.ts';
import type { Clock, Store } from '../store/port.ts';
import type { PunchoutSession } from '../store/types.ts';
import type { GatewayDeps, Logger, ResolvedBuyer, ResolvedConfig, ResolvedStorefront } from './deps.ts';
import type { Metrics } from './http/metrics.ts';
import type { BuyerDirectory } from './punchout/buyers.ts';
import type { CatalogCard } from './punchout/pages.ts';
import type { PipoAccounts } from './punchout/pipo-accounts.ts';
import type { PunchoutProtocol, PunchoutProtocols } from './punchout/protocol.ts';
import type { SecretThrottle } from './punchout/throttle.ts';
import type { TokenService } from './punchout/tokens.ts';

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
  /** Every protocol a buyer can punch out with (`PUNCHOUT_PROTOCOLS`). */
  protocols: PunchoutProtocols;
  /** The code that speaks the buyer's protocol: the one place a buyer's protocol picks it. */
  protocolOf(buyer: ResolvedBuyer): PunchoutProtocol;
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
