/**
 * What a procurement protocol brings to a punch-out, in one shape for cXML and OCI: where its requests
 * arrive (the punch-in, and for cXML the other documents a buyer posts), the form that hands the cart
 * back, the form that cancels, and the page that posts either to the buyer's system. Everything between
 * punch-in and hand-back (sessions, catalog, editor, cart) is protocol-neutral and lives beside this file.
 *
 * To add a protocol: a folder next to `cxml/` and `oci/` exporting a `PunchoutProtocol`, and one entry in
 * `PUNCHOUT_PROTOCOLS` (app/gateway.ts).
 */
import type { Context, Hono } from 'hono';
import type { CartLine, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import type { ReturnForm } from './pages.ts';

/** A session with the buyer and storefront it belongs to. */
export interface SessionParties {
  session: PunchoutSession;
  buyer: ResolvedBuyer;
  storefront: ResolvedStorefront;
}

export interface PunchoutProtocol {
  /** Mounts the routes where this protocol's requests arrive. */
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
}

export type Protocol = ResolvedBuyer['protocol'];
export type PunchoutProtocols = Readonly<Record<Protocol, PunchoutProtocol>>;

/** The one place a buyer's protocol picks the code that speaks it. */
export function protocolOf(protocols: PunchoutProtocols, buyer: ResolvedBuyer): PunchoutProtocol {
  return protocols[buyer.protocol];
}
