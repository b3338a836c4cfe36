/**
 * The page for a failed punch-out request. An expired link still names its session (its signature is
 * checked), so the page can offer the way back: the protocol's cancel form to the stored return URL.
 *
 * The page speaks the session's language when its link names one, else the browser's. In English it says
 * the error's own message, which names what went wrong; in another language a sentence per kind of error,
 * since those messages are written where the error is found, in English.
 */
import type { Context } from 'hono';
import type { PunchoutSession } from '../../store/types.ts';
import type { GatewayContext, SessionParties } from '../context.ts';
import { ERROR_ANSWERS, type GatewayError, publicMessage } from '../http/errors.ts';
import type { PageSecurity } from '../http/layout.ts';
import { type PageStatus, sendPage } from '../http/send-page.ts';
import type { Locale, MessageKey } from '../i18n/locale.ts';
import { requestLocale } from '../i18n/page-locale.ts';
import { type ReturnForm, renderMessagePage } from './pages.ts';
import { frameAncestorsFor } from './sessions.ts';

/** What an error says in a language other than English: one sentence per kind of error. */
function translatedMessageKey(error: GatewayError, session: PunchoutSession | undefined): MessageKey {
  switch (error.code) {
    case 'token_used':
      return 'error.linkUsed';
    case 'token_invalid':
      return 'error.linkInvalid';
    case 'session_closed':
      return session?.state === 'transferred' ? 'error.transferred' : 'error.cancelled';
    case 'inspect_read_only':
      return 'error.readOnly';
    case 'unknown_product':
    case 'unknown_line':
    case 'not_found':
      return 'error.notFound';
    case 'throttled':
    case 'upstream_unavailable':
    case 'store_unavailable':
    case 'internal':
      return 'error.tryLater';
    default:
      return 'error.generic';
  }
}

/** What a page says of `error`: its own words in English; a quantity refusal is already in the session's. */
export function pageErrorMessage(
  error: GatewayError,
  locale: Locale,
  session: PunchoutSession | undefined,
): string {
  if (error.code === 'token_expired') return locale.t('error.expired');
  if (locale.language === 'en' || error.code === 'invalid_quantity') return publicMessage(error, 'page');
  return locale.t(translatedMessageKey(error, session));
}

/**
 * The session a failed page's link names, expired or not; undefined for a link that names none, and when
 * the store cannot say (the error may be the store's own): the page is shown all the same.
 */
async function sessionOfLink(ctx: GatewayContext, c: Context): Promise<SessionParties | undefined> {
  const token = c.req.param('token');
  if (token === undefined) return undefined;
  const claims = await ctx.tokens.verifyExpired(token, ['start', 'session', 'return']);
  try {
    const session = claims && (await ctx.store.sessions.get(claims.sid));
    return session && { session, ...ctx.sessionParties(session) };
  } catch {
    return undefined;
  }
}

export async function punchoutErrorPage(
  ctx: GatewayContext,
  c: Context,
  error: GatewayError,
): Promise<Response> {
  let back: ReturnForm | undefined;
  let security: PageSecurity = { frameAncestors: [] };
  const parties = await sessionOfLink(ctx, c);
  const locale = parties?.locale ?? requestLocale(c.req.header('accept-language'));
  if (parties !== undefined && (error.code === 'token_expired' || error.code === 'session_closed')) {
    security = { frameAncestors: frameAncestorsFor(parties.buyer), formActions: 'any' };
    if (error.code === 'token_expired' && parties.session.state === 'open') {
      back = ctx.protocolOf(parties.buyer).cancelForm(ctx, parties);
    }
  }
  const expired = error.code === 'token_expired';
  const page = renderMessagePage({
    locale,
    title: locale.t('page.catalogTitle'),
    heading: locale.t(expired ? 'error.expiredHeading' : 'error.heading'),
    message: pageErrorMessage(error, locale, parties?.session),
    kind: 'error',
    back,
  });
  return sendPage(c, page, security, ERROR_ANSWERS[error.code].http as PageStatus);
}
