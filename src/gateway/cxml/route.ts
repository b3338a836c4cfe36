/**
 * `POST /cxml`: every cXML request a buyer sends. The answer is always HTTP 200 with a cXML Response
 * whose Status says what happened, because buyers' systems treat anything else as a transport failure
 * and retry it for hours.
 */
import { type Context, Hono } from 'hono';
import {
  buildProfileResponse,
  buildStatusResponse,
  CxmlError,
  type CxmlRequest,
  cxmlStatusFor,
  newPayloadId,
  HEADER_SCAN_CHARS,
  type PeekedDocument,
  parseCxmlRequest,
  peekCxmlHeader,
} from '../../cxml/index.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedCxmlBuyer } from '../deps.ts';
import { CXML_STATUS_TEXT, cxmlStatusOf, GatewayError, logFailure, toGatewayError } from '../http/errors.ts';
import { receiveBody } from '../http/read-body.ts';
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

  app.post('/', async (c) => send(await handle(c)));

  /** A document that could not be read: the Status its CxmlError names (a bug is rethrown to the funnel). */
  const unreadable = (error: unknown): Outcome => {
    if (error instanceof CxmlError) return status(error.code, cxmlStatusFor(error).code, error.message);
    throw error;
  };

  /**
   * Read, authenticate, then parse: the Header is read and its sender proven before the rest of the
   * document costs anything, so a stranger's worst-case document is refused after a few hundred bytes.
   */
  async function handle(c: Context): Promise<Outcome> {
    const body = await receiveBody(c.req.raw, MAX_CXML_BYTES);
    if (body.kind === 'too_large') {
      return status('too_large', 406, `The document is larger than ${MAX_CXML_BYTES / 1024 / 1024} MB.`);
    }
    // The client went away mid-upload; nobody reads this answer, and it is no failure of ours.
    if (body.kind === 'cut_off') return status('cut_off', 400, 'The document did not arrive whole.');
    let peeked: PeekedDocument;
    try {
      peeked = peekCxmlHeader(body.bytes, { maxBytes: MAX_CXML_BYTES });
    } catch (error) {
      // A small document is cheap to read whole, and says best what is wrong with it (not cXML, a
      // Response, a broken Header); a large one without a readable Header is refused as it is.
      if (body.bytes.byteLength > HEADER_SCAN_CHARS) return unreadable(error);
      return unreadable(readWhole(body.bytes) ?? error);
    }
    let buyer: ReturnType<typeof authenticate>;
    try {
      buyer = authenticate(peeked.header, ctx.clientAddress(c));
    } catch (error) {
      return refused(peeked.requestName ?? 'unknown', error);
    }
    let request: CxmlRequest;
    try {
      request = parseCxmlRequest(peeked.text, { maxBytes: MAX_CXML_BYTES });
    } catch (error) {
      return unreadable(error);
    }
    const { kind, payloadID } = request;
    try {
      // The whole document's Header must prove the same buyer the scan did (say, not one inside a comment).
      if (ctx.buyers.authenticate(request.header).id !== buyer.id) {
        throw new GatewayError('bad_secret', 'Authentication failed: the Sender SharedSecret is not valid.');
      }
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
      return refused(kind, error, payloadID);
    }
  }

  /** Why a whole document cannot be read, or undefined if it can (its Header then failed the scan alone). */
  function readWhole(bytes: Uint8Array): unknown {
    try {
      parseCxmlRequest(bytes, { maxBytes: MAX_CXML_BYTES });
      return undefined;
    } catch (error) {
      return error;
    }
  }

  /** The cXML surface's funnel: the Status the code table gives, a bug's cause only in the log. */
  function refused(kind: string, error: unknown, payloadID?: string): Outcome {
    const known = toGatewayError(error);
    logFailure(ctx.logger, 'cxml request failed', known, { kind, payloadID });
    const answer = cxmlStatusOf(known);
    return status(kind, answer.code, answer.detail, payloadID);
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
