/**
 * `GET /thumbnail/<storefront>/<design id>/<mac>.png`: the picture of a design for whoever holds its link
 * (thumbnail-links.ts), with no session and no credential. The gateway fetches it from the editor host's
 * `productthumb.ashx` and serves the bytes itself, so the link names neither the editor host nor a design
 * id anyone could count on from. A link whose key does not match, of a storefront not configured, or of a
 * design the print service no longer has is answered alike: 404, saying nothing of which.
 *
 * Thumbnails are kept in memory for an hour, bounded by their total size, and browsers and proxies may keep
 * them a day: a saved design's picture does not change, and an approver's list shows the same ones often.
 */
import { Hono } from 'hono';
import { BoundedCache } from '../../kernel/bounded-cache.ts';
import { isPrintApiError } from '../../print-api/index.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedStorefront } from '../deps.ts';
import {
  ERROR_ANSWERS,
  GatewayError,
  logFailure,
  publicMessage,
  toGatewayError,
  upstreamError,
} from '../http/errors.ts';
import { readWithin } from '../http/read-body.ts';
import { requestIdOf } from '../http/request-id.ts';
import { isThumbnailMac } from './thumbnail-links.ts';
import { sharedDownloads } from './shared-download.ts';

/** Width in pixels asked of the editor host: a requisition's or a catalog's picture, not a proof. */
export const THUMBNAIL_WIDTH = 300;
/** Total bytes of thumbnails held in memory (a 300-pixel PNG is a few KB to some tens of KB). */
const THUMBNAIL_CACHE_BYTES = 16 * 1024 * 1024;
/** A larger answer is not a thumbnail: refused rather than held in memory. */
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
const THUMBNAIL_CACHE_SECONDS = 60 * 60;
/** How long browsers and shared caches may keep one. */
const THUMBNAIL_BROWSER_SECONDS = 24 * 60 * 60;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DESIGN_ID = /^[1-9][0-9]{0,14}$/;
const FILE_NAME = /^([A-Za-z0-9_-]{22})\.png$/;

const NOT_FOUND = 'No such thumbnail.';

async function downloadThumbnail(
  ctx: GatewayContext,
  storefront: ResolvedStorefront,
  designId: number,
): Promise<Uint8Array> {
  let bytes: Uint8Array | undefined;
  try {
    const file = await ctx
      .printApiFor(storefront)
      .downloadThumbnail(storefront.editorUrl, { productId: designId, width: THUMBNAIL_WIDTH });
    bytes = await readWithin(file.body, THUMBNAIL_MAX_BYTES);
  } catch (error) {
    if (isPrintApiError(error) && error.code === 'not_found') {
      throw new GatewayError('not_found', NOT_FOUND, { cause: error });
    }
    throw upstreamError(error, 'send this thumbnail');
  }
  // Served as image/png with nosniff: whatever else the host answered is not passed on as a picture.
  if (bytes === undefined || !PNG_MAGIC.every((byte, i) => bytes[i] === byte)) {
    throw new GatewayError('upstream_rejected', 'The print service did not answer with a PNG thumbnail.');
  }
  return bytes;
}

export function createThumbnailRoutes(ctx: GatewayContext): Hono {
  const cache = new BoundedCache<string, Uint8Array>({
    maxSize: THUMBNAIL_CACHE_BYTES,
    sizeOf: (bytes) => bytes.byteLength,
    ttlMs: THUMBNAIL_CACHE_SECONDS * 1000,
    now: () => ctx.clock.now().getTime(),
  });
  const downloads = sharedDownloads(cache);

  function thumbnailBytes(storefront: ResolvedStorefront, designId: number): Promise<Uint8Array> {
    return downloads(`${storefront.id}\u0000${designId}`, () => downloadThumbnail(ctx, storefront, designId));
  }

  const app = new Hono();

  app.get('/:storefront/:design/:file', async (c) => {
    const { storefront: storefrontId, design, file } = c.req.param();
    const mac = FILE_NAME.exec(file)?.[1];
    const storefront = ctx.config.storefronts.find((s) => s.id === storefrontId);
    if (
      mac === undefined ||
      storefront === undefined ||
      !DESIGN_ID.test(design) ||
      !(await isThumbnailMac(ctx.config, storefront.id, Number(design), mac, ctx.hmacSha256))
    ) {
      throw new GatewayError('not_found', NOT_FOUND);
    }
    const bytes = await thumbnailBytes(storefront, Number(design));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'image/png',
      // `public`: the link is the only key to the picture and shows nothing else, so a proxy may share it.
      'Cache-Control': `public, max-age=${THUMBNAIL_BROWSER_SECONDS}, immutable`,
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
  });

  // The gateway's funnel, answered in plain text: whoever asks is an <img>, which shows no page.
  app.onError((error, c) => {
    const known = toGatewayError(error);
    logFailure(ctx.logger, 'request failed', known, { requestId: requestIdOf(c), path: c.req.routePath });
    return c.text(publicMessage(known, 'page'), ERROR_ANSWERS[known.code].http as 404, {
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return app;
}
