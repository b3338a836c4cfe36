/**
 * How the machine-facing routes of the order flow (`/events`, `/admin`) answer a failure: JSON
 * `{ "error": { "code", "message" } }` with the HTTP status the one code table (`ERROR_ANSWERS`) gives,
 * never an HTML page or a stack trace.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { StoreError } from '../../store/store-error.ts';
import type { GatewayContext } from '../context.ts';
import { ERROR_ANSWERS, GatewayError } from '../errors.ts';

export function jsonError(ctx: GatewayContext, c: Context, error: unknown): Response {
  let known: GatewayError;
  if (error instanceof GatewayError) known = error;
  else if (error instanceof StoreError && error.code === 'conflict') {
    known = new GatewayError('conflict', 'The record changed meanwhile; read it again and retry.');
  } else if (error instanceof StoreError && error.code === 'invalid') {
    known = new GatewayError('bad_request', error.message);
  } else {
    ctx.logger.error('request failed', {
      // The route pattern, not the path: event URLs carry their token.
      path: c.req.routePath,
      error: error instanceof Error ? error.name : 'unknown',
    });
    known = new GatewayError(
      'upstream_unavailable',
      'Something went wrong on our side; try again in a moment.',
    );
  }
  const status = ERROR_ANSWERS[known.code].http as ContentfulStatusCode;
  if (known.code === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="punchgate admin"');
  return c.json({ error: { code: known.code, message: known.message } }, status);
}
