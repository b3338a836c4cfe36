/**
 * `POST /cxml`: every cXML request a buyer sends. The answer is always HTTP 200 with a cXML Response
 * whose Status says what happened, because buyers' systems treat anything else as a transport failure
 * and retry it for hours.
 */
import { type Context, Hono } from 'hono';
import { ANONYMOUS_DOCUMENT_BYTES, orderDocumentLimit } from '../../../schemas/config.ts';
import {
  assertReferencedPartsPresent,
  buildProfileResponse,
  buildStatusResponse,
  CxmlError,
  type CxmlRequest,
  cxmlPartInHead,
  cxmlStatusFor,
  type DeploymentMode,
  HEADER_SCAN_CHARS,
  type MimeAttachment,
  type MultipartFraming,
  multipartFraming,
  newPayloadId,
  type PeekedDocument,
  parseCxmlRequest,
  peekCxmlHeader,
  readCxmlMessage,
  wholeTags,
} from '../../cxml/index.ts';
import type { GatewayContext } from '../context.ts';
import type { LogFields, ResolvedBuyer } from '../deps.ts';
import { receiveStatusUpdate } from '../documents/status-updates.ts';
import { CXML_STATUS_TEXT, cxmlStatusOf, GatewayError, logFailure, toGatewayError } from '../http/errors.ts';
import { type ReceivedHead, receiveHead } from '../http/read-body.ts';
import { addAccessFields } from '../http/request-id.ts';
import {
  authenticateHeader,
  createCxmlSenders,
  deploymentModeOf,
  type ProvenSender,
} from './authenticate.ts';
import { type CxmlAnswer, createCxmlRefusals } from './refused-documents.ts';
import { punchOutSetup } from './setup.ts';

/** Before the sender is proven, and for every document but an OrderRequest: 1 MiB. */
const MAX_CXML_BYTES = ANONYMOUS_DOCUMENT_BYTES;

/**
 * Documents over MAX_CXML_BYTES read and parsed at once. Each costs its bytes, its text, its parsed tree and
 * the records made of it: a 3.2 MB PO added some 90 MB of heap while it was taken in (bench/probes/
 * large-po-intake.ts), so a 16 MiB one about 450 MB. POs that large are rare and a buyer's system sends its
 * POs one after another; a second one meanwhile gets a retryable Status 500 rather than risk the memory.
 */
const LARGE_DOCUMENTS_AT_ONCE = 1;

/**
 * Documents up to this size are parsed before their sender is known (`handle`): real setups and small POs
 * are 1–6 KB (Ariba's setup 5.3 KB, a 5-line PO 4.2 KB), and a stranger's hostile 8 KB (800 Extrinsics)
 * costs about 1.5 ms to parse, where its Header alone costs 0.05 ms and 128 KB would cost 9 ms.
 */
export const PARSE_AT_ONCE_BYTES = 8 * 1024;

/**
 * Handles an OrderRequest in the mode its credentials allow (`deploymentModeOf`), with the other parts of its
 * `multipart/related` message (none for a plain document); provided by the order intake so this route only
 * dispatches.
 */
export type OrderRequestHandler = (
  request: Extract<CxmlRequest, { kind: 'OrderRequest' }>,
  buyer: ResolvedBuyer,
  deploymentMode: DeploymentMode,
  attachments: readonly MimeAttachment[],
) => Promise<{ code: number; text: string; detail?: string; accessFields?: LogFields }>;

const answer = (xml: string) =>
  new Response(xml, { status: 200, headers: { 'Content-Type': 'text/xml; charset=UTF-8' } });

/**
 * What a request came to: its kind (or why it could not be read), the Status code and its text and detail
 * as sent (for the refusals log), the document, and what the access line says of it.
 */
interface Outcome extends CxmlAnswer {
  xml: string;
  accessFields: LogFields;
}

/** The Status documents the route answers with, each logged. */
function createOutcomes(ctx: GatewayContext) {
  const status = (kind: string, code: number, detail?: string, inReplyTo?: string): Outcome => {
    const now = ctx.clock.now();
    const text = CXML_STATUS_TEXT[code] ?? (code < 300 ? 'OK' : 'Error');
    const xml = buildStatusResponse({
      payloadID: newPayloadId(() => ctx.randomId(12), ctx.payloadHost, now),
      timestamp: now,
      code,
      text,
      ...(detail !== undefined && { detail }),
    });
    const accessFields = { kind, code, inReplyTo };
    return { kind, code, text: detail === undefined ? text : `${text}: ${detail}`, xml, accessFields };
  };

  /** A document that could not be read: the Status its CxmlError names (a bug is rethrown to the funnel). */
  const unreadable = (error: unknown): Outcome => {
    if (error instanceof CxmlError) return status(error.code, cxmlStatusFor(error).code, error.message);
    throw error;
  };

  const tooLarge = (limit: number) =>
    status('too_large', 406, `The document is larger than ${Number((limit / 1024 / 1024).toFixed(2))} MB.`);

  const cutOff = () => status('cut_off', 400, 'The document did not arrive whole.');

  const busy = () =>
    status(
      'refused_busy',
      500,
      'Too many large documents are being received at once; it is safe to send this one again.',
    );

  /** The cXML surface's funnel: the Status the code table gives, a bug's cause only in the log. */
  function refused(kind: string, error: unknown, payloadID?: string): Outcome {
    const known = toGatewayError(error);
    logFailure(ctx.logger, 'cxml request failed', known, { kind, payloadID });
    const answer = cxmlStatusOf(known);
    return status(kind, answer.code, answer.detail, payloadID);
  }

  return { status, unreadable, tooLarge, cutOff, busy, refused };
}

/** The answer, its kind and Status code on the request's access line: the one line a cXML request writes. */
function sendOutcome(ctx: GatewayContext, c: Context, outcome: Outcome): Response {
  addAccessFields(c, outcome.accessFields);
  ctx.metrics.count('punchgate_cxml_requests_total', { kind: outcome.kind, status: String(outcome.code) });
  return answer(outcome.xml);
}

/**
 * The answer to a document past `limit` before the route reads it (the gateway's body limit): the Status
 * 406 the route itself answers a document too large with, recorded unread in the refusals log.
 */
export async function documentTooLarge(ctx: GatewayContext, c: Context, limit: number): Promise<Response> {
  const outcome = createOutcomes(ctx).tooLarge(limit);
  await createCxmlRefusals(ctx, { claimedBy: () => undefined }).recordIfRefused(c, outcome, new Uint8Array());
  return sendOutcome(ctx, c, outcome);
}

export function createCxmlRoute(ctx: GatewayContext, onOrder: OrderRequestHandler): Hono {
  const app = new Hono();
  const { status, unreadable, tooLarge, cutOff, busy, refused } = createOutcomes(ctx);
  const senders = createCxmlSenders(ctx.config);
  const refusals = createCxmlRefusals(ctx, senders);
  app.post('/', async (c) => {
    const received: Received = { bytes: new Uint8Array() };
    const outcome = await handle(c, received);
    await refusals.recordIfRefused(c, outcome, received.bytes);
    return sendOutcome(ctx, c, outcome);
  });

  // An OrderRequest from a proven buyer may be up to orderLimit (16 MiB by default, less with D1, whose rows
  // hold less); everything else, and everything before the Header has proven its sender, stays within
  // MAX_CXML_BYTES. `largest` is the most anyone may send.
  const orderLimit = orderDocumentLimit(ctx.config);
  const largest = Math.max(orderLimit, MAX_CXML_BYTES);
  let largeInFlight = 0;

  /**
   * Read the Header, authenticate, then read and parse the rest: the first HEADER_SCAN_CHARS bytes are read
   * and the sender proven before the rest of the document is read or costs anything, so a stranger's
   * document is refused after its head whatever its size, and only a proven buyer's OrderRequest may be
   * larger than MAX_CXML_BYTES.
   */
  async function handle(c: Context, received: Received): Promise<Outcome> {
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    if (declared > largest) return tooLarge(largest);
    // A multipart message goes the same way, its size counted whole, its cXML part's Header read first.
    let framing: MultipartFraming | undefined;
    try {
      framing = multipartFraming(c.req.header('content-type'));
    } catch (error) {
      return unreadable(error);
    }
    const head = await receiveHead(
      c.req.raw,
      HEADER_SCAN_CHARS,
      framing === undefined ? (chunks) => beginsOtherThanMarkup(chunks) : undefined,
    );
    // The client went away mid-upload; nobody reads this answer, and it is no failure of ours.
    if (head.kind === 'cut_off') return cutOff();
    received.bytes = head.bytes;
    // Not XML from its first bytes: refused as a larger document without a readable Header is, below.
    if (framing === undefined && head.kind === 'head' && beginsOtherThanMarkup([head.bytes])) {
      return declared > MAX_CXML_BYTES ? tooLarge(MAX_CXML_BYTES) : unreadable(NOT_XML);
    }
    const small = head.kind === 'whole' && head.bytes.byteLength <= HEADER_SCAN_CHARS;
    // A document of everyday size is parsed once, and its sender proven on the parsed Header: a header scan
    // and then a parse read it twice. One the codec refuses goes the header-first way below, so a stranger
    // still hears 401 about a document that is also broken; a larger one always does, so a stranger's
    // costs at most the scan of its head.
    if (
      framing === undefined &&
      head.kind === 'whole' &&
      head.bytes.byteLength <= PARSE_AT_ONCE_BYTES &&
      !(declared > MAX_CXML_BYTES)
    ) {
      const request = parsedOrUndefined(head.bytes);
      if (request !== undefined) return await answerParsed(request, c, head.bytes);
    }
    let peeked: PeekedDocument;
    try {
      peeked = peekHead(head, framing);
    } catch (error) {
      // A message whose framing or cXML part cannot be read says so, whoever sent it.
      if (framing !== undefined) return unreadable(error);
      // A small document is cheap to read whole, and says best what is wrong with it (not cXML, a
      // Response, a broken Header); a large one without a readable Header is refused as it is.
      if (small) return unreadable(readWhole(head.bytes) ?? error);
      if (declared > MAX_CXML_BYTES || head.bytes.byteLength > MAX_CXML_BYTES)
        return tooLarge(MAX_CXML_BYTES);
      return unreadable(error);
    }
    let buyer: ResolvedBuyer;
    try {
      buyer = (await authenticateHeader(ctx, senders, peeked.header, ctx.clientAddress(c))).buyer;
    } catch (error) {
      return refused(peeked.requestName ?? 'unknown', error);
    }
    const limit = peeked.requestName === 'OrderRequest' ? orderLimit : MAX_CXML_BYTES;
    if (declared > limit) return tooLarge(limit);
    // A document over the small cap holds megabytes while it is read and parsed: only a few at once.
    const large = head.kind === 'head' && limit > MAX_CXML_BYTES && !(declared <= MAX_CXML_BYTES);
    if (large && largeInFlight >= LARGE_DOCUMENTS_AT_ONCE) return busy();
    if (large) largeInFlight++;
    try {
      const body = head.kind === 'head' ? await head.rest(limit) : head;
      if (body.kind === 'cut_off') return cutOff();
      if (body.kind === 'too_large' || body.bytes.byteLength > limit) return tooLarge(limit);
      received.bytes = body.bytes;
      return await answerRequest(body.bytes, limit, buyer, framing);
    } finally {
      if (large) largeInFlight--;
    }
  }

  /** A document read whole and parsed at once: its sender proven on its Header, then its request answered. */
  async function answerParsed(request: CxmlRequest, c: Context, bytes: Uint8Array): Promise<Outcome> {
    let sender: ProvenSender;
    try {
      sender = await authenticateHeader(ctx, senders, request.header, ctx.clientAddress(c));
    } catch (error) {
      return refused(request.kind, error);
    }
    return await respond({ request, attachments: [] }, bytes, sender);
  }

  /** The whole message read and parsed, its Header proven to name the buyer the scan did, and answered. */
  async function answerRequest(
    bytes: Uint8Array,
    maxBytes: number,
    buyer: ResolvedBuyer,
    framing: MultipartFraming | undefined,
  ): Promise<Outcome> {
    const message = await readMessage(ctx, bytes, maxBytes, framing).catch(unreadable);
    if (!('request' in message)) return message;
    const { request } = message;
    // The whole document's Header must prove the same buyer the scan did (say, not one inside a comment).
    let sender: ProvenSender;
    try {
      sender = senders.authenticate(request.header);
      if (sender.buyer.id !== buyer.id) {
        throw new GatewayError('bad_secret', 'Authentication failed: the Sender SharedSecret is not valid.');
      }
    } catch (error) {
      return refused(request.kind, error, request.payloadID);
    }
    return await respond(message, bytes, sender);
  }

  /** A proven buyer's request answered; attachments go with an OrderRequest (a punch-in keeps none). */
  async function respond(message: ReadMessage, bytes: Uint8Array, sender: ProvenSender): Promise<Outcome> {
    const { request, attachments } = message;
    const { kind, payloadID } = request;
    const { buyer } = sender;
    try {
      const mode = deploymentModeOf(sender, request.deploymentMode);
      if (request.kind !== 'OrderRequest' && bytes.byteLength > MAX_CXML_BYTES) {
        return tooLarge(MAX_CXML_BYTES);
      }
      return await answerByKind(ctx, { onOrder, status }, { request, attachments }, buyer, mode);
    } catch (error) {
      return refused(kind, error, payloadID);
    }
  }

  return app;
}

/** A proven buyer's request answered by its kind, in the mode its credentials allow. */
async function answerByKind(
  ctx: GatewayContext,
  { onOrder, status }: { onOrder: OrderRequestHandler; status: ReturnType<typeof createOutcomes>['status'] },
  { request, attachments }: ReadMessage,
  buyer: ResolvedBuyer,
  mode: DeploymentMode,
): Promise<Outcome> {
  const { kind, payloadID } = request;
  switch (request.kind) {
    case 'PunchOutSetupRequest': {
      const { xml, accessFields } = await punchOutSetup(ctx, request, buyer, mode);
      return { kind, code: 200, text: 'OK', xml, accessFields: { kind, code: 200, ...accessFields } };
    }
    case 'ProfileRequest':
      return { kind, code: 200, text: 'OK', xml: profileDocument(ctx), accessFields: { kind, code: 200 } };
    case 'OrderRequest': {
      const result = await onOrder(request, buyer, mode, attachments);
      const answered = status(kind, result.code, result.detail, payloadID);
      return { ...answered, accessFields: { ...answered.accessFields, ...result.accessFields } };
    }
    case 'StatusUpdateRequest': {
      const result = await receiveStatusUpdate(ctx, request, buyer, mode);
      return status(kind, result.code, undefined, payloadID);
    }
  }
}

/** As much of a request as the route has read, for the refusals log. */
interface Received {
  bytes: Uint8Array;
}

/** A message read whole: its request, and the other parts of a multipart message. */
interface ReadMessage {
  request: CxmlRequest;
  attachments: readonly MimeAttachment[];
}

/**
 * The whole message read: a multipart message's parts decoded and every `cid:` its document names found
 * among them (only a multipart message can carry such parts; a plain document is read as ever), the
 * document parsed. A `CxmlError` says what is wrong.
 */
async function readMessage(
  ctx: GatewayContext,
  bytes: Uint8Array,
  maxBytes: number,
  framing: MultipartFraming | undefined,
): Promise<ReadMessage> {
  const message = framing === undefined ? { cxml: bytes, attachments: [] } : readCxmlMessage(bytes, framing);
  // A document larger than its head takes long to parse (≈ 80 ms a MB): off the event loop where the
  // runtime can (a worker thread on Node), so other requests are not held up meanwhile.
  const request =
    ctx.parseLargeCxml !== undefined && message.cxml.byteLength > HEADER_SCAN_CHARS
      ? await ctx.parseLargeCxml(message.cxml, { maxBytes })
      : parseCxmlRequest(message.cxml, { maxBytes });
  if (framing !== undefined) assertReferencedPartsPresent(request.attachments, message.attachments);
  return { request, attachments: message.attachments };
}

const NOT_XML = new CxmlError(
  'malformed',
  "The document is not XML: it must begin with '<' (after an optional byte order mark and white space)",
);

/**
 * Whether a body's first bytes already show it is no XML document: the first byte after a UTF-8 byte order
 * mark and white space is not `<` (one byte in every encoding punchgate reads). Such a body is refused on
 * its first chunk instead of after a whole head: a flood of junk uploads costs a chunk each.
 */
function beginsOtherThanMarkup(chunks: readonly Uint8Array[]): boolean {
  let offset = 0;
  for (const chunk of chunks) {
    for (const byte of chunk) {
      const bom = offset < 3 && byte === UTF8_BOM[offset];
      offset++;
      if (bom || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
      return byte !== 0x3c;
    }
  }
  return false;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The Header of the document a body's head holds (a multipart message's cXML part), as far as it goes. */
function peekHead(head: Exclude<ReceivedHead, { kind: 'cut_off' }>, framing: MultipartFraming | undefined) {
  const document = framing === undefined ? head.bytes : cxmlInHead(head, framing);
  const whole = head.kind === 'whole' && document.byteLength <= HEADER_SCAN_CHARS;
  return peekCxmlHeader(whole ? document : wholeTags(document.subarray(0, HEADER_SCAN_CHARS)));
}

/**
 * The cXML part of a multipart message as far as its head holds it: all of it when the message ended within
 * the head (read whole, so a broken message is refused for what is wrong with it), else its beginning.
 */
function cxmlInHead(head: Exclude<ReceivedHead, { kind: 'cut_off' }>, framing: MultipartFraming): Uint8Array {
  if (head.kind === 'whole') return readCxmlMessage(head.bytes, framing).cxml;
  const part = cxmlPartInHead(head.bytes, framing);
  if (part !== undefined) return part;
  throw new CxmlError(
    'bad_mime',
    `The cXML part${framing.start === undefined ? '' : ` <${framing.start}>`} does not begin within the first ` +
      `${HEADER_SCAN_CHARS / 1024} KB of the ${framing.mediaType} message; send it as the first part`,
  );
}

/** A small document parsed, or undefined when the codec refuses it (the header-first way then says why). */
function parsedOrUndefined(bytes: Uint8Array): CxmlRequest | undefined {
  try {
    return parseCxmlRequest(bytes, { maxBytes: MAX_CXML_BYTES });
  } catch (error) {
    if (error instanceof CxmlError) return undefined;
    throw error;
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

function profileDocument(ctx: GatewayContext): string {
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
      { requestName: 'StatusUpdateRequest', url },
    ],
  });
}
