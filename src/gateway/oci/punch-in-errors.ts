/**
 * The one place that turns a failed OCI punch-in into its HTML error page: an HTTP status and a heading per
 * OciError code, the codec's message (which names the parameter at fault but never a login value), and for
 * GatewayErrors the status of ERROR_ANSWERS. Nothing unexpected reaches the page: no stack, no request
 * values beyond what the message names.
 */
import type { Context } from 'hono';
import { OciError, type OciErrorCode } from '../../oci/index.ts';
import type { GatewayContext } from '../context.ts';
import { ERROR_ANSWERS, GatewayError } from '../errors.ts';
import { renderMessagePage } from '../pages/punchout-pages.ts';
import { sendPage } from '../punchout-routes.ts';

const LOGIN = 'The catalog login was refused';
const HOOK = 'The return address was refused';
const REQUEST = 'The punch-in request could not be read';
const SETUP = 'This catalog connection is not set up correctly';
const OPEN = 'The catalog could not be opened';

export const OCI_ERROR_ANSWERS: Record<OciErrorCode, { status: number; heading: string }> = {
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

export interface PunchInFailure {
  status: number;
  heading: string;
  message: string;
  /** OciError or GatewayError code, for the log; `internal` for anything else. */
  code: string;
  param?: string | undefined;
}

/** What the page says about an error thrown while handling a punch-in. */
export function describePunchInError(error: unknown): PunchInFailure {
  if (error instanceof OciError) {
    return { ...OCI_ERROR_ANSWERS[error.code], message: error.message, code: error.code, param: error.param };
  }
  if (error instanceof GatewayError) {
    return {
      status: ERROR_ANSWERS[error.code].http,
      heading: OPEN,
      message: error.message,
      code: error.code,
    };
  }
  return {
    status: 503,
    heading: OPEN,
    message: 'Something went wrong on our side. Please try again in a moment.',
    code: 'internal',
  };
}

/**
 * The error page of a punch-in, framable by the buyer's hosts so that it shows inside the procurement
 * system's catalog frame.
 *
 * @example
 * catch (error) { return punchInErrorPage(ctx, c, error, { buyer: buyer.id, frameAncestors }); }
 */
export async function punchInErrorPage(
  ctx: GatewayContext,
  c: Context,
  error: unknown,
  scope: { buyer: string; frameAncestors: readonly string[] },
): Promise<Response> {
  const failure = describePunchInError(error);
  const fields = { buyer: scope.buyer, code: failure.code, param: failure.param };
  if (failure.code === 'internal') {
    ctx.logger.error('oci punch-in failed', {
      ...fields,
      error: error instanceof Error ? error.name : 'unknown',
    });
  } else {
    ctx.logger.warn('oci punch-in refused', fields);
  }
  if (failure.status === 405) c.header('Allow', 'GET, POST');
  const page = renderMessagePage({
    title: 'Print catalog',
    heading: failure.heading,
    message: failure.message,
    kind: 'error',
  });
  return sendPage(
    c,
    page,
    { frameAncestors: scope.frameAncestors },
    failure.status as Parameters<typeof sendPage>[3],
  );
}
