/**
 * The page for a failed punch-out request. An expired link still names its session (its signature is
 * checked), so the page can offer the way back: the protocol's cancel form to the stored return URL.
 */
import type { Context } from 'hono';
import type { GatewayContext } from '../context.ts';
import { ERROR_ANSWERS, type GatewayError, publicMessage } from '../http/errors.ts';
import type { PageSecurity } from '../http/layout.ts';
import { type PageStatus, sendPage } from '../http/send-page.ts';
import { type ReturnForm, renderMessagePage } from './pages.ts';
import { frameAncestorsFor } from './sessions.ts';

export async function punchoutErrorPage(
  ctx: GatewayContext,
  c: Context,
  error: GatewayError,
): Promise<Response> {
  let back: ReturnForm | undefined;
  let security: PageSecurity = { frameAncestors: [] };
  const token = c.req.param('token');
  if (token !== undefined && (error.code === 'token_expired' || error.code === 'session_closed')) {
    const claims = await ctx.tokens.verifyExpired(token, ['start', 'session', 'return']);
    const session = claims && (await ctx.store.sessions.get(claims.sid));
    if (session) {
      const parties = { session, ...ctx.sessionParties(session) };
      security = { frameAncestors: frameAncestorsFor(parties.buyer), formActions: 'any' };
      if (error.code === 'token_expired' && session.state === 'open') {
        back = ctx.protocolOf(parties.buyer).cancelForm(ctx, parties);
      }
    }
  }
  const expired = error.code === 'token_expired';
  const page = renderMessagePage({
    title: 'Print catalog',
    heading: expired ? 'Your punch-out session has expired' : 'This page cannot be shown',
    message: expired
      ? 'For your security, catalog sessions end after a while. Return to your procurement system and punch out again; nothing in your requisition has changed.'
      : publicMessage(error, 'page'),
    kind: 'error',
    back,
  });
  return sendPage(c, page, security, ERROR_ANSWERS[error.code].http as PageStatus);
}
