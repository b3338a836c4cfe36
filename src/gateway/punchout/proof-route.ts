/**
 * `GET /proof/<token>`: the proof PDF of a cart line's design, for whoever holds a proof link (proof-links.ts).
 * The gateway logs the design's owner in (ctx.accounts, as for a purchase order), fetches the proof from
 * the editor host in that session and serves the bytes itself, so no PIPO token ever reaches the browser.
 *
 * Proofs are kept in memory for a few minutes, bounded by their total size, so an approver opening a
 * link twice, or several approvers of one requisition, cost one login and one download. The same design
 * asked for while its download is under way waits for that download instead of starting another.
 */
import { Hono } from 'hono';
import { BoundedCache } from '../../kernel/bounded-cache.ts';
import { isPrintApiError } from '../../print-api/index.ts';
import type { GatewayContext } from '../context.ts';
import { ERROR_ANSWERS, GatewayError, logFailure, toGatewayError, upstreamError } from '../http/errors.ts';
import { readWithin } from '../http/read-body.ts';
import { requestIdOf } from '../http/request-id.ts';
import { type PageStatus, sendPage } from '../http/send-page.ts';
import type { Locale } from '../i18n/locale.ts';
import { requestLocale } from '../i18n/page-locale.ts';
import { pageErrorMessage } from './error-page.ts';
import { type ProofTarget, parseProofTargetRef } from './link-targets.ts';
import { renderMessagePage } from './pages.ts';
import { sharedDownloads } from './shared-download.ts';

/** Total bytes of proofs held in memory: low-resolution proofs are tens to hundreds of KB each. */
const PROOF_CACHE_BYTES = 32 * 1024 * 1024;
/** A larger answer is not a low-resolution proof: refused rather than held in memory. */
const PROOF_MAX_BYTES = 16 * 1024 * 1024;
/** How long a fetched proof is served from memory; a design id's proof does not change once saved. */
const PROOF_CACHE_SECONDS = 10 * 60;

const PROOF_AWAY_TEXT =
  'The print service is not reachable at the moment, so the proof cannot be shown. Please try again in a few minutes.';

interface ProofRequest extends ProofTarget {
  buyerId: string;
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** The proof from the editor host, in a PIPO session of the design's owner (logged in again if stale). */
async function downloadProof(ctx: GatewayContext, proof: ProofRequest): Promise<Uint8Array> {
  const buyer = ctx.buyer(proof.buyerId);
  const storefront = ctx.storefront(proof.storefrontId);
  let bytes: Uint8Array;
  try {
    const file = await ctx.accounts.withToken(buyer, storefront, proof.userRef, (token) =>
      ctx.printApiFor(storefront).pipo.downloadProof(token, storefront.editorUrl, proof.designId),
    );
    const read = await readWithin(file.body, PROOF_MAX_BYTES);
    // A larger answer is not a low-resolution proof: refused rather than held in memory.
    if (read === undefined) {
      throw new GatewayError(
        'upstream_rejected',
        'The print service sent a proof larger than the gateway serves.',
      );
    }
    bytes = read;
  } catch (error) {
    if (isPrintApiError(error) && error.code === 'not_found') {
      throw new GatewayError(
        'not_found',
        `Design ${proof.designId} is no longer available from the print service, so its proof cannot be shown.`,
        { cause: error },
      );
    }
    throw upstreamError(error, 'send this proof', PROOF_AWAY_TEXT);
  }
  // Served as application/pdf with nosniff: whatever else the host answered is not passed on as a proof.
  if (!PDF_MAGIC.every((byte, i) => bytes[i] === byte)) {
    throw new GatewayError('upstream_rejected', 'The print service did not answer with a PDF proof.');
  }
  return bytes;
}

/**
 * What the page of a refused proof link says: the link's own words, not a punch-out session's, in the
 * language of the approver's browser (a proof link outlives its session and is opened by others).
 */
function proofErrorPage(
  ctx: GatewayContext,
  error: GatewayError,
  locale: Locale,
): { heading: string; message: string } {
  switch (error.code) {
    case 'token_expired':
      return {
        heading: locale.t('proof.expiredHeading'),
        message: locale.t('proof.expired', { days: ctx.config.sessions.proofLinkTtlDays }),
      };
    case 'token_invalid':
      return { heading: locale.t('proof.invalidHeading'), message: locale.t('proof.invalid') };
    default:
      return {
        heading: locale.t('proof.failedHeading'),
        message: pageErrorMessage(error, locale, undefined),
      };
  }
}

export function createProofRoutes(ctx: GatewayContext): Hono {
  const cache = new BoundedCache<string, Uint8Array>({
    maxSize: PROOF_CACHE_BYTES,
    sizeOf: (bytes) => bytes.byteLength,
    ttlMs: PROOF_CACHE_SECONDS * 1000,
    // The gateway's clock, so a proof's time in memory is measured as every other age in the gateway.
    now: () => ctx.clock.now().getTime(),
  });
  const downloads = sharedDownloads(cache);

  function proofBytes(proof: ProofRequest): Promise<Uint8Array> {
    return downloads([proof.buyerId, proof.storefrontId, proof.userRef, proof.designId].join('\u0000'), () =>
      downloadProof(ctx, proof),
    );
  }

  const app = new Hono();

  app.get('/:token', async (c) => {
    const claims = await ctx.tokens.verify(c.req.param('token'), 'proof', ctx.clock.now());
    const target = parseProofTargetRef(claims.ref);
    if (target === undefined) throw new GatewayError('token_invalid', 'This proof link is not valid.');
    const bytes = await proofBytes({ ...target, buyerId: claims.sid });
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="proof-${target.designId}.pdf"`,
      // The browser may keep it as long as we do; `private`, since the link is the only key to it.
      'Cache-Control': `private, max-age=${PROOF_CACHE_SECONDS}`,
      'X-Content-Type-Options': 'nosniff',
    });
  });

  // The gateway's funnel (toGatewayError, logFailure, ERROR_ANSWERS), with a page that speaks of proof
  // links: the punch-out error page would tell an approver to punch out again.
  app.onError(async (error, c) => {
    const known = toGatewayError(error);
    logFailure(ctx.logger, 'request failed', known, { requestId: requestIdOf(c), path: c.req.routePath });
    const locale = requestLocale(c.req.header('accept-language'));
    const page = renderMessagePage({
      locale,
      title: locale.t('proof.title'),
      ...proofErrorPage(ctx, known, locale),
      kind: 'error',
    });
    return sendPage(c, page, { frameAncestors: [] }, ERROR_ANSWERS[known.code].http as PageStatus);
  });

  return app;
}
