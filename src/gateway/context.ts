/**
 * What every gateway route shares: the resolved config with lookups, the store, the clock, the token
 * service and the print-service accounts. Only the shape: every feature is written against it, so it is
 * built above them all, once, in `app/gateway-context.ts`.
 */

import type { Context, Hono } from 'hono';
import type { ConfigProblem } from '../../schemas/config.ts';
import type { HmacSha256 } from '../kernel/signed-claims.ts';
import type { EditorUrls, PrintApi } from '../print-api/index.ts';
import type { Clock, Store } from '../store/port.ts';
import type { CartLine, PunchoutSession } from '../store/types.ts';
import type {
  BuyerProtocol,
  GatewayDeps,
  Logger,
  ResolvedBuyer,
  ResolvedConfig,
  ResolvedStorefront,
} from './deps.ts';
import type { BodySurface } from './http/body-limits.ts';
import type { SafeHtml } from './http/html.ts';
import type { Metrics } from './http/metrics.ts';
import type { Locale } from './i18n/locale.ts';
import type { BuyerDirectory } from './punchout/buyers.ts';
import type { CartCharges } from './punchout/cart-charges.ts';
import type { CatalogCard, ReturnForm } from './punchout/pages.ts';
import type { PipoAccounts } from './punchout/pipo-accounts.ts';
import type { SecretThrottle } from './punchout/throttle.ts';
import type { TokenService } from './punchout/tokens.ts';

export interface GatewayContext {
  config: ResolvedConfig;
  store: Store;
  clock: Clock;
  logger: Logger;
  tokens: TokenService;
  /** The runtime's HMAC-SHA-256 (`GatewayDeps.hmacSha256`), for keys of signed values outside `tokens`. */
  hmacSha256: HmacSha256;
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
  catalogCards(storefront: ResolvedStorefront, locale: Locale): ReadonlyMap<string, CatalogCard>;
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
  /** The session's buyer and storefront, which must still be configured, and the language it speaks. */
  sessionParties(session: PunchoutSession): {
    buyer: ResolvedBuyer;
    storefront: ResolvedStorefront;
    locale: Locale;
  };
}

// ---------------------------------------------------------------------------------------------------------
// What a procurement protocol brings to a punch-out, in one shape for cXML and OCI: where its requests arrive
// (the punch-in, and for cXML the other documents a buyer posts), the form that hands the cart back, the form
// that cancels, the page that posts either to the buyer's system, and how the console describes its buyers.
// Everything between punch-in and hand-back (sessions, catalog, editor, cart) is protocol-neutral and lives
// in `punchout/`. The shape lives here, with the context, because every feature reaches a buyer's protocol
// through the context (`protocolOf`) and every protocol is handed the context: one module, no import cycle.
// To add a protocol, see `README.md` beside this file.

/** A session with the buyer and storefront it belongs to. */
export interface SessionParties {
  session: PunchoutSession;
  buyer: ResolvedBuyer;
  storefront: ResolvedStorefront;
  /** The session's language: its pages and the cart texts it sends back. */
  locale: Locale;
}

export interface PunchoutProtocol {
  /** The protocol's name as operators read it (the console's Buyers page). */
  label: string;
  /**
   * The path its requests arrive under (`/cxml`): their answers, redirects and errors included, may carry
   * a session or start token, so no browser or proxy may keep them.
   */
  path: `/${string}`;
  /** Mounts the routes where this protocol's requests arrive, under `path`. */
  mount(app: Hono, ctx: GatewayContext): void;
  /**
   * The form that hands `lines` back as the session's cart with its quoted `charges` (a promise where it
   * signs links, as cXML's proofs).
   */
  cartForm(
    ctx: GatewayContext,
    parties: SessionParties,
    lines: readonly CartLine[],
    charges: CartCharges,
  ): ReturnForm | Promise<ReturnForm>;
  /** The form that returns the user to the buyer's system without changing the requisition. */
  cancelForm(ctx: GatewayContext, parties: SessionParties): ReturnForm;
  /** Sends the self-submitting page that posts `form`, saying `message` while it does. */
  sendReturnPage(c: Context, parties: SessionParties, form: ReturnForm, message: string): Promise<Response>;
  /** The console's facts about a buyer's protocol settings (`<dt>`/`<dd>` pairs), never a secret. */
  consoleFacts(buyer: ResolvedBuyer): SafeHtml;
  /**
   * What to give the buyer's procurement team to connect (the console's onboarding text, plain text): the
   * URLs, the credentials or fields expected, never a secret.
   */
  onboarding(ctx: GatewayContext, buyer: ResolvedBuyer): string;
  /** What the console's test punch-out sends as, after "Punches out as". */
  testPunchoutAs: string;
  /** Buyer settings the schema lets through but the protocol cannot use, refused when the config loads. */
  configProblems?(config: ResolvedConfig): ConfigProblem[];
  /**
   * The bodies its requests post (a punch-in, a document), each with the paths that send it, its limit and
   * how it refuses a body past that, in its buyers' terms. Held before any route reads them, so its routes
   * may trust a body is within its limit. Absent, or for a path none claims, its bodies are held to the
   * pages' limit (its session pages are pages).
   */
  requestBodies?(ctx: GatewayContext): readonly BodySurface[];
}

export type PunchoutProtocols = Readonly<Record<BuyerProtocol, PunchoutProtocol>>;
