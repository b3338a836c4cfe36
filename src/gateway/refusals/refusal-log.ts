/**
 * The refusals log's writer: every refused cXML document and OCI punch-in, as the routes answered it, goes
 * to the store's log with its secrets blanked and cut to a bound, within the log's caps. Writing it never
 * fails an answer: a store that refuses the entry costs a log line, and the buyer hears what it would have.
 */
import type { NewRefusal, RefusalCaps, RefusalChannel } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import { type Blanking, blankSecrets, configBlanking } from './blank-secrets.ts';

/**
 * What the log keeps at most. A refused document is read to see why it was refused, which its head and
 * first lines say (a setup is 1–6 KB); 16 K characters of each, 100 of one client address (a procurement
 * network sends many buyers' documents from one address, so a cap per address still leaves a busy one its
 * recent past), 2,000 in all: some 32 MB at the very most however many addresses a flood comes from.
 */
export const REFUSAL_DOCUMENT_CHARS = 16 * 1024;
export const REFUSAL_CAPS: RefusalCaps = { perAddress: 100, total: 2000 };

/** Bytes read into a stored document before it is blanked and cut: a secret past them is never shown. */
const READ_BYTES = 4 * REFUSAL_DOCUMENT_CHARS;

/** What a route knows of a request it refused. */
export interface RefusedRequest {
  channel: RefusalChannel;
  /** The configured buyer it claimed to come from, if any. */
  buyerId: string | undefined;
  documentType: string;
  payloadId?: string | undefined;
  clientAddress: string;
  status: number;
  answer: string;
  /** The request as received, as far as it was read (a document refused by its size arrives unread). */
  received: Uint8Array | string;
  /** How many bytes it had, where more arrived (or were announced) than `received` holds. */
  size?: number | undefined;
}

export interface RefusalLog {
  /** Records the refusal; never throws, a failure to record is logged. */
  record(refused: RefusedRequest): Promise<void>;
}

/** The stored form of a received document: decoded, secrets blanked, cut with a marker past the bound. */
export function storedDocument(received: Uint8Array | string, blanking: Blanking): string {
  const text =
    typeof received === 'string'
      ? received.slice(0, READ_BYTES)
      : new TextDecoder('utf-8', { fatal: false }).decode(received.subarray(0, READ_BYTES));
  const blanked = blankSecrets(text, blanking);
  if (blanked.length <= REFUSAL_DOCUMENT_CHARS) return blanked;
  return `${blanked.slice(0, REFUSAL_DOCUMENT_CHARS)}\n[… cut here: the log keeps the first ${REFUSAL_DOCUMENT_CHARS} characters]`;
}

/**
 * @example
 * const refusals = createRefusalLog(ctx);
 * await refusals.record({ channel: 'oci', buyerId: 'acme', documentType: 'punch-in', ... });
 */
export function createRefusalLog(ctx: GatewayContext): RefusalLog {
  const blanking = configBlanking(ctx.config);
  return {
    async record(refused) {
      try {
        const byteLength =
          typeof refused.received === 'string'
            ? new TextEncoder().encode(refused.received).byteLength
            : refused.received.byteLength;
        const entry: NewRefusal = {
          ...(refused.buyerId !== undefined && { buyerId: refused.buyerId }),
          channel: refused.channel,
          documentType: refused.documentType,
          ...(refused.payloadId !== undefined && { payloadId: refused.payloadId }),
          clientAddress: refused.clientAddress,
          status: refused.status,
          answer: refused.answer,
          document: storedDocument(refused.received, blanking),
          documentBytes: Math.max(byteLength, refused.size ?? 0),
        };
        await ctx.store.refusals.add(entry, REFUSAL_CAPS);
      } catch (error) {
        ctx.logger.error('refusal not recorded', {
          channel: refused.channel,
          buyer: refused.buyerId ?? 'unknown',
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };
}
