/**
 * Signing in to the operator console with the admin token, and the rules every console request passes:
 * a session cookie (session.ts) for every page but the sign-in form, and the session's CSRF token in every
 * state-changing form.
 *
 * The token is compared as the JSON API compares its bearer token (constant time, with the current token
 * and each one being retired, no early exit), and wrong tokens count against the caller's address on the
 * API's own counter (adminTokenFailures): form and API share one limit, so a guesser gains nothing by
 * trying both.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { constantTimeEqual } from '../../../kernel/constant-time.ts';
import type { GatewayContext } from '../../context.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { adminTokenFailures } from '../admin-token-failures.ts';
import { message, sendConsolePage } from './layout.ts';
import {
  type ConsoleSession,
  checkSession,
  csrfMatches,
  endSession,
  issueSession,
  SESSION_COOKIE,
  sessionCookie,
} from './session.ts';

/**
 * The accepted admin token `sent` is, if any (the session records which, so removing it from the config
 * ends the sessions it opened); every one is compared, whatever matched first.
 */
function matchingAdminToken(ctx: GatewayContext, sent: string): string | undefined {
  let matched: string | undefined;
  for (const token of [ctx.config.adminToken, ...ctx.config.previousAdminTokens]) {
    const equal = constantTimeEqual(sent, token);
    if (equal && matched === undefined) matched = token;
  }
  return sent === '' ? undefined : matched;
}

function signInForm(notice?: SafeHtml): SafeHtml {
  return html`${notice ?? ''}
<form method="post" action="/admin/ui/sign-in">
<div class="field"><label for="token">Admin token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required size="40" autofocus></div>
<p class="muted">The gateway's <code>adminToken</code> (or one of <code>previousAdminTokens</code>), as for the JSON admin API.</p>
<p><button class="primary" type="submit">Sign in</button></p>
</form>`;
}

/** The sign-in page, with what went wrong when something did. */
export function sendSignIn(
  c: Context,
  status: 200 | 401 | 429 = 200,
  notice?: SafeHtml,
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  return sendConsolePage(c, { title: 'Sign in', body: signInForm(notice) }, status, headers);
}

/**
 * A form's fields; undefined for a body that is not a form. Its size was bounded before any console route
 * ran (the gateway's body limit for forms, http/body-limits.ts).
 */
async function formOf(c: Context): Promise<Record<string, string> | undefined> {
  const type = c.req.header('Content-Type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  return Object.fromEntries(new URLSearchParams(await c.req.text()));
}

/** `POST /admin/ui/sign-in`: the admin token from the form; a session cookie when it is right. */
export async function signIn(ctx: GatewayContext, c: Context): Promise<Response> {
  const address = ctx.clientAddress(c);
  const failures = adminTokenFailures(ctx);
  const wait = failures.lockedFor(address);
  if (wait > 0) {
    ctx.logger.warn('admin console sign-in refused: throttled', { address });
    return sendSignIn(
      c,
      429,
      message('error', `Too many wrong admin tokens from this address; try again in ${wait} seconds.`),
      { 'Retry-After': String(wait) },
    );
  }
  const sent = (await formOf(c))?.token ?? '';
  const adminToken = matchingAdminToken(ctx, sent);
  if (adminToken === undefined) {
    await failures.fail(address);
    ctx.logger.warn('admin console sign-in refused: wrong token', { address });
    return sendSignIn(c, 401, message('error', 'That is not the admin token. Check it and try again.'));
  }
  const { token, session } = await issueSession(ctx, adminToken);
  ctx.logger.info('admin console sign-in', { address, session: session.sid });
  c.header('Set-Cookie', sessionCookie(ctx, token));
  c.header('Cache-Control', 'no-store');
  return c.redirect('/admin/', 303);
}

// Requests whose cookie named a session ended with "Sign out", for the page that says so: sessionOf finds
// it out, sendSignedOut (called with what sessionOf answered) tells the operator.
const signedOutRequests = new WeakSet<Request>();

/**
 * The request's valid session, or why there is none: `expired` when the cookie held a genuine session that
 * no longer holds, because it ran out or because it was signed out.
 */
export async function sessionOf(
  ctx: GatewayContext,
  c: Context,
): Promise<{ session?: ConsoleSession; expired: boolean }> {
  const check = await checkSession(ctx, getCookie(c, SESSION_COOKIE));
  if (check.kind === 'valid') return { session: check.session, expired: false };
  if (check.kind === 'signed-out') signedOutRequests.add(c.req.raw);
  return { expired: check.kind === 'expired' || check.kind === 'signed-out' };
}

/** The page an unsigned request gets: the sign-in form, saying so when the session ran out or was ended. */
export function sendSignedOut(c: Context, expired: boolean): Promise<Response> {
  const notice = signedOutRequests.has(c.req.raw)
    ? message('notice', 'This session was signed out. Sign in again.')
    : expired
      ? message('notice', 'Your session has expired. Sign in again.')
      : message('notice', 'Sign in to use the operator console.');
  return sendSignIn(c, 401, notice);
}

/** A state-changing form's fields when its CSRF token is the session's; undefined otherwise. */
export async function checkedForm(
  c: Context,
  session: ConsoleSession,
): Promise<Record<string, string> | undefined> {
  const form = await formOf(c);
  return form !== undefined && csrfMatches(session, form.csrf) ? form : undefined;
}

/**
 * `POST /admin/ui/sign-out`: the session ended on the server (recorded in the store, so a copy of the
 * cookie is refused too, by every instance and after a restart) and the cookie cleared.
 */
export async function signOut(ctx: GatewayContext, c: Context): Promise<Response> {
  const { session } = await sessionOf(ctx, c);
  if (session !== undefined) {
    await endSession(ctx, session);
    ctx.logger.info('admin console sign-out', { address: ctx.clientAddress(c), session: session.sid });
  }
  c.header('Set-Cookie', sessionCookie(ctx, undefined));
  return sendSignIn(c, 200, message('ok', 'You are signed out.'));
}
