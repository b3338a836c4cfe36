/**
 * The operators' one audit trail: the JSON admin API and the console both log through it, each with its
 * own options, so what a line carries and what it never carries is decided in one place.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import type { GatewayContext } from '../context.ts';
import { requestIdOf } from '../http/request-id.ts';

/** What an audit trail line says besides the call: whose session made it, where applicable. */
export interface AuditTrailOptions {
  /** Log only these methods (the console logs its POSTs; the API every call). */
  readonly methods?: readonly string[];
  /** Whether the answer counts as a refusal (logged as a warning). */
  readonly refused: (status: number) => boolean;
  readonly message: string;
  readonly refusedMessage: string;
  /** Extra fields read after the handler ran, e.g. the console session's id. */
  readonly fields?: (c: Context) => Record<string, unknown>;
}

/**
 * The audit trail of the admin API and the console: each call with how it ended, refused ones included.
 * Never the token or a form field; the path names records, not secrets, and is cut short since a refused
 * caller chooses it.
 */
export function auditTrail<E extends Env>(
  ctx: GatewayContext,
  options: AuditTrailOptions,
): MiddlewareHandler<E> {
  return async (c, next) => {
    await next();
    if (options.methods !== undefined && !options.methods.includes(c.req.method)) return;
    const fields = {
      requestId: requestIdOf(c),
      method: c.req.method,
      path: c.req.path.slice(0, 200),
      status: c.res.status,
      address: ctx.clientAddress(c),
      ...options.fields?.(c),
    };
    if (options.refused(c.res.status)) ctx.logger.warn(options.refusedMessage, fields);
    else ctx.logger.info(options.message, fields);
  };
}
