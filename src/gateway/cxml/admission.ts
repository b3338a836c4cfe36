/**
 * Admission before authentication. A `/cxml` document is up to 1 MB and nobody is known until it has been
 * read, so a stranger who opens many uploads and stalls them one byte short would make the gateway hold a
 * megabyte per connection until the request timeout. The gate admits a bounded number of documents at once
 * — per client address, and in all — and answers the rest at once, before a byte of their body is read;
 * the runtime then closes their connections. Memory for unauthenticated bodies is thus bounded by
 * `total × (128 KB + one chunk)` whatever the number of connections or addresses: the route reads only a
 * document's head before its sender is proven (route.ts), and the slot is held while the rest is read, so
 * a proven buyer's document up to 1 MB, or one large OrderRequest at a time (LARGE_DOCUMENTS_AT_ONCE),
 * counts here as one document, never as unauthenticated memory.
 *
 * Decisions:
 * - Refused documents get a cXML Status 500 "…safe to send it again" (buyers' systems retry those) rather
 *   than an HTTP error their systems would report as a transport failure.
 * - 8 per address leaves room for a procurement network's bursts from its few egress addresses; 16 in all
 *   bounds the bodies held to 16 MB (a document of 1 MB takes milliseconds to read from an honest sender).
 *   Requests whose address the runtime cannot tell came through no socket (in process) and are not gated.
 */

import type { MiddlewareHandler } from 'hono';
import { BoundedCache } from '../../kernel/bounded-cache.ts';
import { buildStatusResponse, newPayloadId } from '../../cxml/index.ts';
import type { GatewayContext } from '../context.ts';
import { createAdmissionGate } from '../http/admission.ts';
import { UNKNOWN_ADDRESS } from '../punchout/throttle.ts';

export const CXML_ADMISSION = {
  /** Documents read at once from one client address. */
  perAddress: 8,
  /** Documents read at once in all. */
  total: 16,
} as const;

/** Seconds a refused sender is asked to wait: about one document's time. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The `POST /cxml` gate: admitted documents go on to the route, the rest get a retryable cXML Status at
 * once. A refusal is logged at warn with the address, since it means a burst or someone stalling uploads.
 */
export function cxmlAdmission(ctx: GatewayContext): MiddlewareHandler {
  const gate = createAdmissionGate(CXML_ADMISSION);
  // One warn line per address a minute, with the count since the last: a flood of refusals must not
  // become a flood of log lines (which would block the event loop on a slow log pipe).
  const quiet = new BoundedCache<string, { since: number; refused: number }>({ max: 10_000 });
  const logRefusal = (address: string) => {
    const now = ctx.clock.now().getTime();
    const entry = quiet.get(address);
    if (entry !== undefined && now - entry.since < 60_000) {
      entry.refused++;
      return;
    }
    ctx.logger.warn('cxml documents refused: too many at once', {
      address,
      refusedSinceLastLine: (entry?.refused ?? 0) + 1,
    });
    quiet.set(address, { since: now, refused: 0 });
  };
  return async (c, next) => {
    const address = ctx.clientAddress(c);
    // A request that came through no socket (in process) holds no connection: nothing to bound.
    if (c.req.method !== 'POST' || address === UNKNOWN_ADDRESS) return next();
    const release = gate.enter(address);
    if (release !== undefined) {
      try {
        return await next();
      } finally {
        release();
      }
    }
    logRefusal(address);
    ctx.metrics.count('punchgate_cxml_requests_total', { kind: 'refused_busy', status: '500' });
    const now = ctx.clock.now();
    const xml = buildStatusResponse({
      payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
      timestamp: now,
      code: 500,
      text: 'Internal Server Error',
      detail: 'Too many documents are being received at once; it is safe to send this one again.',
    });
    return c.body(xml, 200, {
      'Content-Type': 'text/xml; charset=UTF-8',
      'Retry-After': String(RETRY_AFTER_SECONDS),
      // Its body was never read: the connection cannot carry another request, and under load the runtime
      // closes it at once rather than lingering for the answer to arrive (the sender retries anyway).
      Connection: 'close',
    });
  };
}
