/**
 * Every request gets an id: the caller's `X-Request-Id` when it is a short safe token (a load balancer's
 * or a buyer's trace id), otherwise a fresh random one. It is echoed in the `X-Request-Id` header of every
 * answer, errors and 404s included, carried as `requestId` in the log lines of that request, and closes
 * with one access line per request, so a buyer's "it failed at 09:14" meets its log lines. What the request
 * did (the session it opened, the PO it took in) rides on that line (`addAccessFields`) instead of a line
 * of its own: one line per request is what an operator searches, and each line costs the busy server a
 * serialization and a write.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { GatewayContext } from '../context.ts';
import { cryptoRandomId, type LogFields } from '../deps.ts';

declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
    accessFields: LogFields;
  }
}

const REQUEST_ID_HEADER = 'X-Request-Id';

/** Long enough for UUIDs and trace ids, short and plain enough to be harmless in logs and headers. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Polled by load balancers and scrapers every few seconds: their access lines are debug, not info. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The id of the request `c` is handling (set by `requestLogging`; `-` outside it). */
export function requestIdOf(c: Context): string {
  return c.get('requestId') ?? '-';
}

/**
 * Facts of what the request did — `event` saying what happened (`punch-out session opened`, `purchase order
 * accepted`) and the ids an operator looks for — for its access line. Later facts win over earlier ones;
 * the access line's own fields (requestId, method, route, status, ms) are never replaced.
 */
export function addAccessFields(c: Context, fields: LogFields): void {
  const earlier = c.get('accessFields');
  c.set('accessFields', earlier === undefined ? fields : { ...earlier, ...fields });
}

/** The access line: its own fields first, then the request's facts (those with a value) under names it does not use. */
function accessLine(own: LogFields, facts: LogFields | undefined): LogFields {
  if (facts === undefined) return own;
  const line: LogFields = { ...own };
  for (const key in facts) {
    const value = facts[key];
    if (value !== undefined && !(key in own)) line[key] = value;
  }
  return line;
}

function acceptedRequestId(sent: string | undefined): string {
  return sent !== undefined && SAFE_REQUEST_ID.test(sent) ? sent : cryptoRandomId(12);
}

/**
 * The outermost gateway middleware: assigns the id, runs the request inside the logger's field scope,
 * then sets the header and writes the access line. The line names the route pattern, never the path:
 * punch-out and webhook URLs carry tokens.
 */
export function requestLogging(ctx: GatewayContext): MiddlewareHandler {
  const { logger } = ctx;
  return async (c, next) => {
    const requestId = acceptedRequestId(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', requestId);
    const started = Date.now();
    const handle = async () => {
      try {
        await next();
      } finally {
        // On the answer's own headers, as the header middleware does: `c.header` on a finished answer makes
        // a new Response around the old one's body stream, which @hono/node-server then has to pipe
        // instead of writing the body it already has (a third of a catalog page's serving time).
        c.res.headers.set(REQUEST_ID_HEADER, requestId);
        const fields = accessLine(
          {
            requestId,
            method: c.req.method,
            route: c.res.status === 404 && c.req.routePath.endsWith('*') ? '(none)' : c.req.routePath,
            status: c.res.status,
            ms: Date.now() - started,
          },
          c.get('accessFields'),
        );
        if (PROBE_PATHS.has(c.req.path)) logger.debug?.('request', fields);
        else logger.info('request', fields);
      }
    };
    await (logger.withFields === undefined ? handle() : logger.withFields({ requestId }, handle));
  };
}
