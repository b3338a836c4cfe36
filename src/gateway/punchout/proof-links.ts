/**
 * Proof links the buyer may keep: `{publicUrl}/proof/<token>`. The procurement system stores every URL of a
 * PunchOutOrderMessage in the requisition, where anyone who reads it (approvers, auditors, months later)
 * can follow it, so a proof link must carry no print-service credential and must outlive the PIPO session
 * by far. Its token is the gateway's own (purpose `proof`, which no other route accepts), binding the
 * buyer, the storefront, the design and the design's owner, for `sessions.proofLinkTtlDays`; opening it
 * logs the owner in anew (proof-route.ts).
 */
import type { CartLine } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { proofTargetRef } from './link-targets.ts';

const SECONDS_PER_DAY = 86_400;

/** The path a proof link is served under, mounted by `createGateway`. */
export const PROOF_PATH = '/proof';

/**
 * Signs one proof link per line (a design of the line's owner, in the line's storefront) and hands back
 * the lookup the synchronous document and page builders use.
 */
export async function proofLinksFor(
  ctx: GatewayContext,
  lines: readonly CartLine[],
): Promise<(line: CartLine) => string> {
  const now = ctx.clock.now();
  const ttlSeconds = ctx.config.sessions.proofLinkTtlDays * SECONDS_PER_DAY;
  const links = new Map<string, string>();
  for (const line of lines) {
    const ref = proofTargetRef({
      storefrontId: line.storefrontId,
      designId: line.designId,
      userRef: line.userRef,
    });
    const token = await ctx.tokens.sign({ sid: line.buyerId, pur: 'proof', ref }, ttlSeconds, now);
    links.set(line.lineRef, `${ctx.publicUrl}${PROOF_PATH}/${token}`);
  }
  return (line) => {
    const link = links.get(line.lineRef);
    if (link === undefined) throw new TypeError(`no proof link was signed for line ${line.lineRef}`);
    return link;
  };
}
