/**
 * The cXML route's refusals, into the refusals log: a document answered with a Status of 400 or more, with
 * the buyer its From credentials claim (read again from the bytes, since a refusal may come before or
 * instead of any parse) and its payloadID where its head says one.
 */
import type { Context } from 'hono';
import { HEADER_SCAN_CHARS, peekCxmlHeader, wholeTags } from '../../cxml/index.ts';
import type { GatewayContext } from '../context.ts';
import { createRefusalLog } from '../refusals/refusal-log.ts';
import type { CxmlSenders } from './authenticate.ts';

/** The root's payloadID, looked for in the document's first characters only. */
const PAYLOAD_ID = /<cxml\b[^>]{0,2000}?\bpayloadID\s*=\s*["']([^"'<>]{1,250})["']/i;
const PAYLOAD_ID_CHARS = 4096;

/** What the route answered: the Status code, and its text and detail as sent. */
export interface CxmlAnswer {
  kind: string;
  code: number;
  text: string;
}

export interface CxmlRefusals {
  /**
   * Records `answer` when it refuses the document (code 400 or more); `received` is as much of it as was
   * read (its size is the larger of that and its Content-Length).
   */
  recordIfRefused(c: Context, answer: CxmlAnswer, received: Uint8Array): Promise<void>;
}

export function createCxmlRefusals(
  ctx: GatewayContext,
  senders: Pick<CxmlSenders, 'claimedBy'>,
): CxmlRefusals {
  const log = createRefusalLog(ctx, 'cxml');

  /** The configured buyer the From credentials name, if the head can be read at all. */
  function claimedBuyer(received: Uint8Array): string | undefined {
    try {
      const head =
        received.byteLength > HEADER_SCAN_CHARS
          ? wholeTags(received.subarray(0, HEADER_SCAN_CHARS))
          : received;
      return senders.claimedBy(peekCxmlHeader(head).header.from)?.id;
    } catch {
      return undefined;
    }
  }

  return {
    async recordIfRefused(c, answer, received) {
      if (answer.code < 400) return;
      await log.record(ctx.clientAddress(c), () => {
        const declared = Number(c.req.header('content-length') ?? Number.NaN);
        const start = new TextDecoder().decode(received.subarray(0, PAYLOAD_ID_CHARS));
        return {
          buyerId: claimedBuyer(received),
          documentType: answer.kind,
          payloadId: PAYLOAD_ID.exec(start)?.[1],
          status: answer.code,
          answer: answer.text,
          received,
          size: Number.isFinite(declared) ? declared : undefined,
        };
      });
    },
  };
}
