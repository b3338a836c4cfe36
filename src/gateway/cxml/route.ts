/**
 * `POST /cxml`: every cXML request a buyer sends. The answer is always HTTP 200 with a cXML Response
 * whose Status says what happened, because buyers' systems treat anything else as a transport failure
 * and retry it for hours.
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  buildProfileResponse,
  buildStatusResponse,
  CxmlError,
  type CxmlRequest,
  cxmlStatusFor,
  newPayloadId,
  parseCxmlRequest,
} from '../../cxml/index.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedCxmlBuyer } from '../deps.ts';
import { CXML_STATUS_TEXT, cxmlStatusOf, GatewayError, logFailure, toGatewayError } from '../http/errors.ts';
import { sharedSecretsSent } from '../punchout/buyers.ts';
import { punchOutSetup } from './setup.ts';

export const MAX_CXML_BYTES = 1024 * 1024;

/** Handles an OrderRequest; provided by the order intake so this route only dispatches. */
export type OrderRequestHandler = (
  request: Extract<CxmlRequest, { kind: 'OrderRequest' }>,
  buyer: ReturnType<GatewayContext['buyers']['authenticate']>,
) => Promise<{ code: number; text: string; detail?: string }>;

export function createCxmlRoute(ctx: GatewayContext, onOrder: OrderRequestHandler): Hono {
  const app = new Hono();

  const answer = (xml: string) =>
    new Response(xml, { status: 200, headers: { 'Content-Type': 'text/xml; charset=UTF-8' } });

  /** What a request came to: its kind (or why it could not be read), the Status code and the document. */
  interface Outcome {
    kind: string;
    code: number;
    xml: string;
  }

  const status = (kind: string, code: number, detail?: string, inReplyTo?: string): Outcome => {
    const now = ctx.clock.now();
    ctx.logger.info('cxml answer', { kind, code, inReplyTo });
    const xml = buildStatusResponse({
      payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
      timestamp: now,
      code,
      text: CXML_STATUS_TEXT[code] ?? (code < 300 ? 'OK' : 'Error'),
      ...(detail !== undefined && { detail }),
    });
    return { kind, code, xml };
  };

  const send = (outcome: Outcome): Response => {
    ctx.metrics.count('punchgate_cxml_requests_total', { kind: outcome.kind, status: String(outcome.code) });
    return answer(outcome.xml);
  };

  app.post(
    '/',
    bodyLimit({
      maxSize: MAX_CXML_BYTES,
      onError: () =>
        send(status('too_large', 406, `The document is larger than ${MAX_CXML_BYTES / 1024 / 1024} MB.`)),
    }),
    async (c) => send(await handle(c)),
  );

  async function handle(c: Context): Promise<Outcome> {
    let request: CxmlRequest;
    try {
      request = parseCxmlRequest(new Uint8Array(await c.req.arrayBuffer()), { maxBytes: MAX_CXML_BYTES });
    } catch (error) {
      if (error instanceof CxmlError) return status(error.code, cxmlStatusFor(error).code, error.message);
      throw error;
    }
    const { kind, payloadID } = request;
    try {
      const buyer = authenticate(request.header, ctx.clientAddress(c));
      if (buyer.protocol !== 'cxml' && request.kind === 'PunchOutSetupRequest') {
        throw new GatewayError('bad_request', `Buyer ${buyer.id} punches out with OCI, not cXML.`);
      }
      switch (request.kind) {
        case 'PunchOutSetupRequest':
          return { kind, code: 200, xml: await punchOutSetup(ctx, request, buyer as ResolvedCxmlBuyer) };
        case 'ProfileRequest':
          return { kind, code: 200, xml: profile() };
        case 'OrderRequest': {
          const result = await onOrder(request, buyer);
          return status(kind, result.code, result.detail, payloadID);
        }
      }
    } catch (error) {
      // The cXML surface's funnel: the Status the code table gives, a bug's cause only in the log.
      const known = toGatewayError(error);
      logFailure(ctx.logger, 'cxml request failed', known, { kind, payloadID });
      const answer = cxmlStatusOf(known);
      return status(kind, answer.code, answer.detail, payloadID);
    }
  }

  /**
   * The buyer proven by the header, unless the buyer (or it from this address) is throttled for failed
   * secrets; a refused document counts one failure per SharedSecret it made us compare.
   */
  function authenticate(header: CxmlRequest['header'], address: string) {
    const claimed = ctx.buyers.byFrom(header.from);
    if (claimed === undefined) return ctx.buyers.authenticate(header);
    const wrongSecrets = (error: unknown) => {
      if (!(error instanceof GatewayError && error.code === 'bad_secret')) return 0;
      const compared = sharedSecretsSent(header);
      ctx.logger.warn('cxml secret refused', { buyer: claimed.id, address, compared });
      return compared;
    };
    return ctx.secretThrottle.guard(claimed.id, address, () => ctx.buyers.authenticate(header), wrongSecrets);
  }

  function profile(): string {
    const now = ctx.clock.now();
    const url = `${ctx.publicUrl}/cxml`;
    return buildProfileResponse({
      payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
      timestamp: now,
      transactions: [
        {
          requestName: 'PunchOutSetupRequest',
          url,
          options: [{ name: 'operationAllowed', value: 'create edit inspect' }],
        },
        { requestName: 'OrderRequest', url },
        { requestName: 'ProfileRequest', url },
      ],
    });
  }

  return app;
}
