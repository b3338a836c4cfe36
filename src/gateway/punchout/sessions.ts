/**
 * Opening a punch-out session, whatever the protocol: the PIPO account is logged in, the session is
 * stored with the buyer's return URL (checked at punch-in and never taken from a later request), lines
 * of an edit or inspect are moved into it, and a one-time start URL is signed.
 */
import { returnHostsOf } from '../../../schemas/config.ts';
import type {
  DeploymentMode,
  JsonObject,
  Protocol,
  PunchoutSession,
  SessionOperation,
} from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { LogFields, ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import type { Language } from '../i18n/catalogs.ts';
import { reorderStartTarget } from '../reorders/reorder-start.ts';
import type { BuyerUser } from './buyer-user.ts';
import { findProductBySku, priceText, quantityProblem } from './catalog.ts';
import { type KeptLine, withKeptLines } from './kept-lines.ts';
import { productOfPartId } from './line-identity.ts';
import { type StartTarget, startTargetRef } from './link-targets.ts';

/**
 * A line the buyer's system names in an edit or inspect punch-out: one of ours by its line reference, or,
 * when it has none or the gateway does not know it, carried through the session as sent.
 */
export interface ReopenedLine {
  lineRef?: string;
  quantity?: number;
  asSent: KeptLine;
}

export interface OpenSessionInput {
  buyer: ResolvedBuyer;
  protocol: Protocol;
  operation: SessionOperation;
  /** The setup request's mode (OCI punch-ins have none: production). Defaults to production. */
  deploymentMode?: DeploymentMode;
  user: BuyerUser;
  returnUrl: string;
  returnTarget?: string;
  buyerCookie?: string;
  ociEcho?: Record<string, string>;
  extrinsics?: JsonObject;
  contact?: JsonObject;
  shipTo?: JsonObject;
  /** The part of a level-2 punch-out (SelectedItem, or an ItemOut without our line reference). */
  selectedPartId?: string;
  /**
   * The session's language when the punch-in names a known one (cXML `xml:lang`; OCI's whole resolution,
   * its request being the browser's); otherwise the first page decides it from the browser's.
   */
  language?: Language;
  reopen?: readonly ReopenedLine[];
}

export interface OpenedSession {
  session: PunchoutSession;
  startUrl: string;
  upstreamCalls: number;
  /** What the request's access line says of the session (`addAccessFields`): who, where, how. */
  accessFields: LogFields;
}

/**
 * The storefront a punch-out of `mode` opens on: a test punch-out on the buyer's test storefront where it
 * has one. Without one it opens on the production storefront so the buyer can still try the punch-out; its
 * lines are test lines all the same, and a test PO of them never reaches a print service.
 */
export function punchoutStorefrontId(buyer: ResolvedBuyer, mode: DeploymentMode): string {
  return mode === 'test' ? (buyer.test.storefront ?? buyer.storefront) : buyer.storefront;
}

/**
 * The person as the storefront knows them: on a test storefront under a key of its own, since the user
 * mapping (buyer, user key) names one account on one storefront.
 */
function userOnStorefront(user: BuyerUser, buyer: ResolvedBuyer, storefrontId: string): BuyerUser {
  return storefrontId === buyer.storefront ? user : { ...user, key: `test:${user.key}` };
}

export async function openSession(ctx: GatewayContext, input: OpenSessionInput): Promise<OpenedSession> {
  const { buyer } = input;
  const deploymentMode = input.deploymentMode ?? 'production';
  const storefront = ctx.storefront(punchoutStorefrontId(buyer, deploymentMode));
  const now = ctx.clock.now();
  const sessionId = ctx.randomId(18);
  const user = userOnStorefront(input.user, buyer, storefront.id);
  const login = await ctx.accounts.open(buyer, storefront, user, sessionId);

  // The URL tokens expire with the session; the record outlives them by a day so that an expired page
  // can still offer the way back to the procurement system.
  const ttl = ctx.config.sessions.sessionTtlSeconds;
  const session = await ctx.store.sessions.create({
    id: sessionId,
    buyerId: buyer.id,
    storefrontId: storefront.id,
    protocol: input.protocol,
    operation: input.operation,
    deploymentMode,
    returnUrl: input.returnUrl,
    buyerUserKey: input.user.key,
    pipoUserRef: login.userRef,
    expiresAt: new Date(now.getTime() + (ttl + 86_400) * 1000),
    pipoToken: await ctx.accounts.sealed(login),
    ...(input.buyerCookie !== undefined && { buyerCookie: input.buyerCookie }),
    ...(input.returnTarget !== undefined && { returnTarget: input.returnTarget }),
    ...(input.ociEcho !== undefined && { ociEcho: input.ociEcho }),
    ...(input.extrinsics !== undefined && { extrinsics: input.extrinsics }),
    ...(input.contact !== undefined && { contact: input.contact }),
    ...(input.shipTo !== undefined && { shipTo: input.shipTo }),
    ...(input.language !== undefined && { language: input.language }),
  });

  const { reopened, kept } = await reopenLines(ctx, session, storefront, input.reopen ?? []);
  if (kept.length > 0) {
    await ctx.store.sessions.patch(session.id, { extrinsics: withKeptLines(session.extrinsics, kept) });
  }
  let target: StartTarget = { kind: 'catalog' };
  if (input.operation !== 'create' && reopened + kept.length > 0) target = { kind: 'cart' };
  else if (input.operation === 'inspect') target = { kind: 'cart' };
  else if (input.selectedPartId !== undefined) {
    // A level-2 punch-out names the part as the requisition has it: one of the buyer's reorder items, a
    // SKU, or a sku-design part number.
    const parts = { buyer, session, storefront };
    const reorder = await reorderStartTarget(ctx, parts, input.selectedPartId);
    const product = reorder === undefined ? productOfPartId(storefront, input.selectedPartId) : undefined;
    if (reorder !== undefined) target = reorder;
    else if (product !== undefined) target = { kind: 'design', sku: product.sku };
  }

  const startTtl = ctx.config.sessions.startPageTtlSeconds;
  const token = await ctx.tokens.sign(
    { sid: sessionId, pur: 'start', jti: ctx.randomId(12), ref: startTargetRef(target) },
    startTtl,
    now,
  );
  ctx.metrics.count('punchgate_sessions_opened_total', {
    protocol: input.protocol,
    operation: input.operation,
    mode: deploymentMode,
  });
  // No line of its own: the facts ride on the request's access line (the caller adds them).
  const accessFields = {
    event: 'punch-out session opened',
    buyer: buyer.id,
    language: input.language,
    protocol: input.protocol,
    operation: input.operation,
    mode: deploymentMode,
    storefront: storefront.id,
    session: sessionId,
    reopenedLines: reopened,
    keptLines: kept.length,
    upstreamCalls: login.upstreamCalls,
  };
  return {
    session,
    startUrl: `${ctx.publicUrl}/punchout/start/${token}`,
    upstreamCalls: login.upstreamCalls,
    accessFields,
  };
}

/**
 * Moves the buyer's earlier lines into the new session. Only lines of the same buyer are taken: a line
 * reference of another buyer is treated exactly like an unknown one, so nothing tells a caller it exists.
 * Every other line is kept as sent (on an edit or inspect; a create carries no cart to keep).
 */
async function reopenLines(
  ctx: GatewayContext,
  session: PunchoutSession,
  storefront: ResolvedStorefront,
  lines: readonly ReopenedLine[],
): Promise<{ reopened: number; kept: KeptLine[] }> {
  let count = 0;
  const kept: KeptLine[] = [];
  for (const wanted of lines) {
    const line = wanted.lineRef === undefined ? undefined : await ctx.store.cart.get(wanted.lineRef);
    // A line of the other mode is not this cart's to reopen: it stays with the requisition as sent.
    if (
      line === undefined ||
      line.buyerId !== session.buyerId ||
      line.storefrontId !== storefront.id ||
      line.deploymentMode !== session.deploymentMode
    ) {
      if (wanted.lineRef !== undefined) {
        ctx.logger.warn('edit names an unknown line', { buyer: session.buyerId, lineRef: wanted.lineRef });
      }
      if (session.operation !== 'create') kept.push(wanted.asSent);
      continue;
    }
    const product = findProductBySku(storefront, line.sku);
    // The requisition's quantity is taken as it is, even outside the product's bounds: the cart marks it
    // and holds the transfer back until the user changes it, rather than the gateway changing it unseen.
    const quantity =
      wanted.quantity !== undefined && Number.isSafeInteger(wanted.quantity) && wanted.quantity >= 1
        ? wanted.quantity
        : line.quantity;
    if (product !== undefined && quantityProblem(product, quantity) !== undefined) {
      ctx.logger.info('edit brings a quantity out of range', {
        buyer: session.buyerId,
        lineRef: line.lineRef,
        quantity,
      });
    }
    await ctx.store.cart.update(line.lineRef, {
      sessionId: session.id,
      // An ordered line stays ordered: its state is what flags a second new PO for it and keeps
      // housekeeping from deleting it. A line removed in an earlier session is back in the cart.
      ...(line.state === 'removed' && { state: 'cart' }),
      position: count + 1,
      quantity,
      ...(product !== undefined && {
        unitPrice: priceText(product, quantity, line.currency),
        priceUnit: product.priceUnit,
      }),
    });
    count++;
  }
  return { reopened: count, kept };
}

/**
 * The session an ordered line is moved to when the user removes it from an edit cart: out of that cart,
 * its state `ordered` kept (edit never changes it). No session has this id; a later edit that names the
 * line again moves it back into a cart.
 */
export function detachedSessionId(sessionId: string): string {
  return `${sessionId}#removed`;
}

/** The open session a session URL names; closed sessions explain themselves. */
export async function loadOpenSession(ctx: GatewayContext, sessionId: string): Promise<PunchoutSession> {
  const session = await ctx.store.sessions.get(sessionId);
  if (session === undefined) throw new GatewayError('token_expired', 'This punch-out session has expired.');
  if (session.state !== 'open') {
    throw new GatewayError(
      'session_closed',
      session.state === 'transferred'
        ? 'This cart was already sent to your procurement system. To change it, edit the requisition there.'
        : 'This punch-out session was cancelled.',
    );
  }
  return session;
}

/** Seconds until the session's URLs stop working. */
export function sessionUrlTtl(ctx: GatewayContext, session: PunchoutSession): number {
  const urlExpiry = session.expiresAt.getTime() - 86_400_000;
  return Math.max(1, Math.floor((urlExpiry - ctx.clock.now().getTime()) / 1000));
}

export function frameAncestorsFor(buyer: ResolvedBuyer): string[] {
  return [...new Set([...returnHostsOf(buyer), ...buyer.frameAncestors])];
}

export function editorOrigin(storefront: ResolvedStorefront): string {
  return new URL(storefront.editorUrl).origin;
}
