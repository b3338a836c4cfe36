/**
 * The OCI routes' refusals, into the refusals log: a punch-in answered with an error page, the page's
 * status, heading and message as sent, and the request as it arrived (method, path and query, then the
 * body the route read).
 */
import type { Context } from 'hono';
import type { GatewayContext } from '../context.ts';
import { createRefusalLog } from '../refusals/refusal-log.ts';

/** What an error page said: its HTTP status, heading and message. */
export interface OciAnswer {
  status: number;
  heading: string;
  message: string;
}

export interface OciRefusals {
  /** Records the refused punch-in; `bodyRead` false when the body was refused unread (too large). */
  record(c: Context, buyerId: string | undefined, answer: OciAnswer, bodyRead?: boolean): Promise<void>;
}

export function createOciRefusals(ctx: GatewayContext): OciRefusals {
  const log = createRefusalLog(ctx, 'oci');
  return {
    async record(c, buyerId, answer, bodyRead = true) {
      await log.record(ctx.clientAddress(c), async () => {
        const url = new URL(c.req.url);
        const declared = Number(c.req.header('content-length') ?? Number.NaN);
        const line = `${c.req.method} ${url.pathname}${url.search}\n`;
        // The route has read the body already (Hono keeps it), or reads it now, within the body limit.
        const body = bodyRead ? await c.req.text().catch(() => '') : '';
        return {
          buyerId,
          documentType: 'punch-in',
          status: answer.status,
          answer: `${answer.status} ${answer.heading}: ${answer.message}`,
          received: body === '' ? line : `${line}\n${body}`,
          size: Number.isFinite(declared) ? declared : undefined,
        };
      });
    },
  };
}
