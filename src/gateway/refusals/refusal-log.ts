/**
 * The refusals log's writer: every refused cXML document and OCI punch-in, as the routes answered it, goes
 * to the store's log with its secrets blanked and cut to a bound, within the log's caps. Writing it never
 * fails an answer: a store that refuses the entry costs a log line, and the buyer hears what it would have.
 */
import { BoundedCache } from '../../kernel/bounded-cache.ts';
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

/**
 * Entries one client address may add a minute; its further refusals that minute are counted
 * (`punchgate_refusals_unrecorded_total`, and one warn line a minute with the count) but not stored. Storing
 * one costs about a millisecond and a half of CPU (decoding, blanking its secrets, a write), so a flood of
 * strangers' documents would otherwise buy seconds of the event loop that health probes wait behind; 10 a
 * minute still fills an address's 100 entries within ten minutes, and a buyer's own refusals reach any
 * notification threshold up to 600 an hour.
 */
export const REFUSALS_RECORDED_PER_ADDRESS_MINUTE = 10;

/** Bytes read into a stored document before it is blanked and cut: a secret past them is never shown. */
const READ_BYTES = 4 * REFUSAL_DOCUMENT_CHARS;

/** What a route knows of a request it refused. */
export interface RefusedRequest {
  /** The configured buyer it claimed to come from, if any. */
  buyerId: string | undefined;
  documentType: string;
  payloadId?: string | undefined;
  status: number;
  answer: string;
  /** The request as received, as far as it was read (a document refused by its size arrives unread). */
  received: Uint8Array | string;
  /** How many bytes it had, where more arrived (or were announced) than `received` holds. */
  size?: number | undefined;
}

export interface RefusalLog {
  /**
   * Records the refusal `describe` gives, unless `clientAddress` has used up its entries of the minute
   * (REFUSALS_RECORDED_PER_ADDRESS_MINUTE): then it is only counted, and `describe` (which may read the
   * request) never runs. Never throws; a failure to record is logged.
   */
  record(clientAddress: string, describe: () => RefusedRequest | Promise<RefusedRequest>): Promise<void>;
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
 * Whether `clientAddress` may add an entry now: true for its first REFUSALS_RECORDED_PER_ADDRESS_MINUTE of a
 * minute. The rest are counted in a metric and in one warn line per address a minute (with the count since
 * the last), so a flood becomes neither a flood of writes nor of log lines.
 */
function perAddressAllowance(
  ctx: GatewayContext,
  channel: RefusalChannel,
): (clientAddress: string) => boolean {
  const minutes = new BoundedCache<string, { since: number; recorded: number; unrecorded: number }>({
    max: 10_000,
  });
  return (clientAddress) => {
    const now = ctx.clock.now().getTime();
    const minute = minutes.get(clientAddress);
    if (minute === undefined || now - minute.since >= 60_000) {
      if (minute !== undefined && minute.unrecorded > 0) {
        ctx.logger.warn('refusals not recorded: too many from one address', {
          channel,
          address: clientAddress,
          unrecorded: minute.unrecorded,
        });
      }
      minutes.set(clientAddress, { since: now, recorded: 1, unrecorded: 0 });
      return true;
    }
    if (minute.recorded < REFUSALS_RECORDED_PER_ADDRESS_MINUTE) {
      minute.recorded++;
      return true;
    }
    ctx.metrics.count('punchgate_refusals_unrecorded_total', { channel });
    if (minute.unrecorded === 0) {
      ctx.logger.warn('refusals not recorded: too many from one address', {
        channel,
        address: clientAddress,
        recordedThisMinute: minute.recorded,
      });
    }
    minute.unrecorded++;
    return false;
  };
}

/**
 * @example
 * const refusals = createRefusalLog(ctx, 'oci');
 * await refusals.record(address, () => ({ buyerId: 'acme', documentType: 'punch-in', ... }));
 */
export function createRefusalLog(ctx: GatewayContext, channel: RefusalChannel): RefusalLog {
  const blanking = configBlanking(ctx.config);
  const allowed = perAddressAllowance(ctx, channel);
  return {
    async record(clientAddress, describe) {
      if (!allowed(clientAddress)) return;
      let refused: RefusedRequest | undefined;
      try {
        refused = await describe();
        const byteLength =
          typeof refused.received === 'string'
            ? new TextEncoder().encode(refused.received).byteLength
            : refused.received.byteLength;
        const entry: NewRefusal = {
          ...(refused.buyerId !== undefined && { buyerId: refused.buyerId }),
          channel,
          documentType: refused.documentType,
          ...(refused.payloadId !== undefined && { payloadId: refused.payloadId }),
          clientAddress,
          status: refused.status,
          answer: refused.answer,
          document: storedDocument(refused.received, blanking),
          documentBytes: Math.max(byteLength, refused.size ?? 0),
        };
        await ctx.store.refusals.add(entry, REFUSAL_CAPS);
      } catch (error) {
        ctx.logger.error('refusal not recorded', {
          channel,
          buyer: refused?.buyerId ?? 'unknown',
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };
}
