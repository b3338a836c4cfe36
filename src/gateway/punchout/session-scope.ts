/**
 * A punch-out page's request in scope: the URL token verified for its purpose, the open session it names,
 * and the buyer and storefront behind it; and the URLs and page security of that session. The cart pages
 * and OCI's product pages share these, so a session is scoped and its links built one way.
 */
import type { Protocol, PunchoutSession } from '../../store/types.ts';
import type { GatewayContext, SessionParties } from '../context.ts';
import type { PageSecurity } from '../http/layout.ts';
import { editorOrigin, frameAncestorsFor, loadOpenSession, sessionUrlTtl } from './sessions.ts';

export interface SessionScope extends SessionParties {
  /** The session token of this request's URL. */
  token: string;
}

/** Where a session page lives: the protocol-neutral pages, or a protocol's own (OCI's product and search pages). */
export type SessionArea = 'punchout' | Protocol;

/** The scope of a session-page URL; throws `token_*` or `session_closed` for links that no longer open. */
export async function sessionScope(ctx: GatewayContext, token: string): Promise<SessionScope> {
  const claims = await ctx.tokens.verify(token, 'session', ctx.clock.now());
  const session = await loadOpenSession(ctx, claims.sid);
  return { session, token, ...ctx.sessionParties(session) };
}

/** A fresh session token, valid as long as the session's pages may be used. */
export function signSessionToken(ctx: GatewayContext, session: PunchoutSession): Promise<string> {
  return ctx.tokens.sign({ sid: session.id, pur: 'session' }, sessionUrlTtl(ctx, session), ctx.clock.now());
}

export function sessionPageUrl(
  ctx: GatewayContext,
  token: string,
  rest: string,
  area: SessionArea = 'punchout',
): string {
  return `${ctx.publicUrl}/${area}/s/${token}/${rest}`;
}

/** A session page may be framed by the buyer's system and show thumbnails from the editor host. */
export function sessionPageSecurity(
  parties: Pick<SessionParties, 'buyer' | 'storefront'>,
  extra: Partial<PageSecurity> = {},
): PageSecurity {
  return {
    frameAncestors: frameAncestorsFor(parties.buyer),
    imageOrigins: [editorOrigin(parties.storefront)],
    ...extra,
  };
}
