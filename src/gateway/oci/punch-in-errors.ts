/**
 * The one place that turns a failed OCI punch-in into its HTML error page: an HTTP status and a heading per
 * OciError code, the codec's message (which names the parameter at fault but never a login value), and for
 * anything else what the gateway's funnel (`toGatewayError`, ERROR_ANSWERS) makes of it. Nothing unexpected
 * reaches the page: no stack, no request values beyond what the message names.
 */
import type { Context } from 'hono';
import { OciError, type OciErrorCode } from '../../oci/index.ts';
import type { GatewayContext } from '../context.ts';
import { ERROR_ANSWERS, logFailure, toGatewayError } from '../http/errors.ts';
import { type PageStatus, sendPage } from '../http/send-page.ts';
import { type Locale, localeOf, type MessageKey } from '../i18n/locale.ts';
import { requestLocale } from '../i18n/page-locale.ts';
import { FALLBACK_LANGUAGE } from '../i18n/session-language.ts';
import { pageErrorMessage } from '../punchout/error-page.ts';
import { renderMessagePage } from '../punchout/pages.ts';
import type { OciRefusals } from './refused-punch-ins.ts';

const LOGIN = 'oci.loginRefused';
const HOOK = 'oci.hookRefused';
const REQUEST = 'oci.unreadable';
const SETUP = 'oci.setup';
const OPEN = 'oci.notOpened';

const OCI_ERROR_ANSWERS: Record<OciErrorCode, { status: number; heading: MessageKey }> = {
  bad_method: { status: 405, heading: REQUEST },
  unsupported_content_type: { status: 415, heading: REQUEST },
  malformed_body: { status: 400, heading: REQUEST },
  body_too_large: { status: 413, heading: REQUEST },
  too_many_params: { status: 400, heading: REQUEST },
  param_too_large: { status: 400, heading: REQUEST },
  bad_login_fields: { status: 500, heading: SETUP },
  missing_login: { status: 401, heading: LOGIN },
  bad_login: { status: 401, heading: LOGIN },
  missing_hook_url: { status: 400, heading: HOOK },
  hook_url_malformed: { status: 400, heading: HOOK },
  hook_url_scheme: { status: 400, heading: HOOK },
  hook_url_not_allowed: { status: 400, heading: HOOK },
  bad_function: { status: 400, heading: REQUEST },
  missing_product_id: { status: 400, heading: REQUEST },
  missing_search_string: { status: 400, heading: REQUEST },
  bad_quantity: { status: 400, heading: REQUEST },
  // The rest come from building NEW_ITEM-* fields from our catalog and the buyer's configuration.
  bad_price: { status: 500, heading: SETUP },
  bad_price_unit: { status: 500, heading: SETUP },
  bad_lead_time: { status: 500, heading: SETUP },
  bad_line: { status: 500, heading: SETUP },
  field_too_long: { status: 500, heading: SETUP },
  too_many_items: { status: 500, heading: SETUP },
};

interface PunchInFailure {
  status: number;
  heading: MessageKey;
  message: string;
  /** OciError or GatewayError code, for the log; `internal` for a bug. */
  code: string;
  param?: string | undefined;
}

/**
 * What the page says about an error thrown while handling a punch-in. The codec's message stays as it is
 * in every language: it names the parameter at fault for whoever sets up the buyer's system.
 */
function describePunchInError(error: unknown, locale: Locale): PunchInFailure {
  if (error instanceof OciError) {
    return { ...OCI_ERROR_ANSWERS[error.code], message: error.message, code: error.code, param: error.param };
  }
  const known = toGatewayError(error);
  return {
    status: ERROR_ANSWERS[known.code].http,
    heading: OPEN,
    message: pageErrorMessage(known, locale, undefined),
    code: known.code,
  };
}

/**
 * The error page of a punch-in, framable by the buyer's hosts so that it shows inside the procurement
 * system's catalog frame, recorded in the refusals log as sent (`bodyRead` false: the body was refused
 * unread).
 *
 * @example
 * catch (error) { return punchInErrorPage(ctx, c, error, { buyer: buyer.id, frameAncestors, refusals }); }
 */
export async function punchInErrorPage(
  ctx: GatewayContext,
  c: Context,
  error: unknown,
  scope: { buyer: string; frameAncestors: readonly string[]; refusals: OciRefusals; bodyRead?: boolean },
): Promise<Response> {
  // The refusals log is the operator's, in English; the page speaks the browser's language (there is no
  // session yet, and the punch-in's own language field may be in what could not be read).
  const english = localeOf(FALLBACK_LANGUAGE);
  const logged = describePunchInError(error, english);
  await scope.refusals.record(
    c,
    scope.buyer,
    { ...logged, heading: english.t(logged.heading) },
    scope.bodyRead,
  );
  const locale = requestLocale(c.req.header('accept-language'), ctx.buyers.byId(scope.buyer));
  const failure = locale === english ? logged : describePunchInError(error, locale);
  const fields = { buyer: scope.buyer, param: failure.param };
  if (error instanceof OciError) {
    // A 500 here is our configuration of the buyer or the catalog at fault: the operator's to see.
    const level = failure.status >= 500 ? 'error' : 'info';
    ctx.logger[level]('oci punch-in refused', { ...fields, code: failure.code });
  } else logFailure(ctx.logger, 'oci punch-in failed', toGatewayError(error), fields);
  if (failure.status === 405) c.header('Allow', 'GET, POST');
  // A throttled login says when trying again can help; the page says it in words.
  const retryAfter = toGatewayError(error).retryAfterSeconds;
  if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter));
  const page = renderMessagePage({
    locale,
    title: locale.t('page.catalogTitle'),
    heading: locale.t(failure.heading),
    message: failure.message,
    kind: 'error',
  });
  return sendPage(c, page, { frameAncestors: scope.frameAncestors }, failure.status as PageStatus);
}
