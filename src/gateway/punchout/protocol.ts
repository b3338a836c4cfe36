/**
 * What a procurement protocol brings to a punch-out, in one shape for cXML and OCI: where its requests
 * arrive (the punch-in, and for cXML the other documents a buyer posts), the form that hands the cart
 * back, the form that cancels, the page that posts either to the buyer's system, and how the console
 * describes its buyers. Everything between punch-in and hand-back (sessions, catalog, editor, cart) is
 * protocol-neutral and lives beside this file.
 *
 * To add a protocol: a folder next to `cxml/` and `oci/` exporting a `PunchoutProtocol`, one entry in
 * `PUNCHOUT_PROTOCOLS` (`../app/protocols.ts`), and its buyer settings in the config schema.
 */
import type { Context, Hono } from 'hono';
import type { ConfigProblem } from '../../../schemas/config.ts';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { BuyerProtocol, ResolvedBuyer, ResolvedConfig, ResolvedStorefront } from '../deps.ts';
import type { SafeHtml } from '../http/html.ts';
import type { ReturnForm } from './pages.ts';

/** A session with the buyer and storefront it belongs to. */
export interface SessionParties {
  session: PunchoutSession;
  buyer: ResolvedBuyer;
  storefront: ResolvedStorefront;
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
  /** The form that hands `lines` back as the session's cart (a promise where it signs links, as cXML's proofs). */
  cartForm(
    ctx: GatewayContext,
    parties: SessionParties,
    lines: readonly CartLine[],
  ): ReturnForm | Promise<ReturnForm>;
  /** The form that returns the user to the buyer's system without changing the requisition. */
  cancelForm(ctx: GatewayContext, parties: SessionParties): ReturnForm;
  /** Sends the self-submitting page that posts `form`, saying `message` while it does. */
  sendReturnPage(c: Context, parties: SessionParties, form: ReturnForm, message: string): Promise<Response>;
  /** The console's facts about a buyer's protocol settings (`<dt>`/`<dd>` pairs), never a secret. */
  consoleFacts(buyer: ResolvedBuyer): SafeHtml;
  /** What the console's test punch-out sends as, after "Punches out as". */
  testPunchoutAs: string;
  /** Buyer settings the schema lets through but the protocol cannot use, refused when the config loads. */
  configProblems?(config: ResolvedConfig): ConfigProblem[];
}

export type PunchoutProtocols = Readonly<Record<BuyerProtocol, PunchoutProtocol>>;
