/**
 * How the machine-facing routes of the order flow (`/events`, `/admin`) answer a failure: JSON
 * `{ "error": { "code", "message" } }` with the HTTP status the one code table (`ERROR_ANSWERS`) gives,
 * never an HTML page or a stack trace. A refused stale action adds `current`: the PO as it is now.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { GatewayContext } from '../context.ts';
import { ERROR_ANSWERS, logFailure, publicMessage, StaleRecordError, toGatewayError } from './errors.ts';
import { requestIdOf } from './request-id.ts';

export function jsonError(ctx: GatewayContext, c: Context, error: unknown): Response {
  const known = toGatewayError(error);
  // The route pattern, not the path: event URLs carry their token.
  logFailure(ctx.logger, 'request failed', known, { requestId: requestIdOf(c), path: c.req.routePath });
  const status = ERROR_ANSWERS[known.code].http as ContentfulStatusCode;
  if (known.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="punchgate admin"');
  if (known.retryAfterSeconds !== undefined) c.header('Retry-After', String(known.retryAfterSeconds));
  const current = known instanceof StaleRecordError ? { current: known.current } : {};
  return c.json({ error: { code: known.code, message: publicMessage(known, 'json'), ...current } }, status);
}
