/**
 * How large a request body may be, per surface, and the one middleware that holds every body to it before
 * any route reads it. A Content-Length past the limit is refused at once; a body without one (chunked) is
 * counted while it streams in and reading stops at the limit, so no request costs more than its surface's
 * limit plus one chunk of the runtime's, however much it sends or however long it takes.
 *
 * The middleware sits once in the app, in front of every route, and classifies by path: a route added later
 * falls under its path's surface (or, outside every known one, under the smallest limit, forms'), so no
 * route can be forgotten. Each surface refuses in its own words: a protocol its own way (cXML a Status
 * document), pages an HTML 413, the JSON surfaces their JSON error body.
 *
 * Only the protocol-neutral surfaces are known here. Each buyer protocol brings its own
 * (`PunchoutProtocol.requestBodies`), so a new protocol's limit is written in its own folder and nothing
 * here names a protocol's path.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { GatewayError } from './errors.ts';

export interface BodyLimit {
  readonly maxBytes: number;
  /**
   * `buffered`: the body is read here, up to the limit, before the route runs (every surface whose limit is
   * small enough to hold for a stranger). `streamed`: the route reads it itself in steps (cXML reads a
   * document's head and proves its sender before reading on, within a smaller limit for strangers); here
   * the stream is only counted and cut at the limit.
   */
  readonly reading: 'buffered' | 'streamed';
}

/** How a surface answers a body past its limit. */
export type BodyRefusal = (c: Context, maxBytes: number) => Response | Promise<Response>;

/** A kind of request body the gateway takes: the paths that send it, its limit and its way of refusing. */
export interface BodySurface {
  /** What logs and tests call it (`cxml`, `pages`). */
  readonly name: string;
  /** The request paths (as the app mounts its routes) that send this kind of body. */
  readonly paths: RegExp | ((path: string) => boolean);
  readonly limit: BodyLimit;
  readonly refuse: BodyRefusal;
}

/** The surfaces every gateway has, whatever protocols its buyers speak. */
export type FixedBodySurface = 'events' | 'adminApi' | 'console' | 'pages';

/** How each fixed surface answers a body past its limit (protocols bring their own). */
export type BodyRefusals = Record<FixedBodySurface, BodyRefusal>;

/**
 * The largest form any page of ours sends: a console note of 2,000 characters (up to 24 KB once encoded)
 * with its other fields, a cart quantity, a confirmation tick. Small, because a stranger can make the
 * gateway hold this much per connection until the request timeout.
 */
const FORM_BODY_BYTES = 64 * 1024;

/** The admin API's JSON bodies: a print order id, a note of 2,000 characters, a stale-record guard. */
export const ADMIN_JSON_BODY_BYTES = 64 * 1024;

/** A webhook delivery is one order as the print service's GET answers it; a large order stays well under. */
const EVENT_BODY_BYTES = 256 * 1024;

/** The fixed surfaces' limits. */
export const FIXED_BODY_LIMITS: Readonly<Record<FixedBodySurface, BodyLimit>> = {
  events: { maxBytes: EVENT_BODY_BYTES, reading: 'buffered' },
  adminApi: { maxBytes: ADMIN_JSON_BODY_BYTES, reading: 'buffered' },
  console: { maxBytes: FORM_BODY_BYTES, reading: 'buffered' },
  pages: { maxBytes: FORM_BODY_BYTES, reading: 'buffered' },
};

/** Every surface of an app, in the order a path is matched against them, and what takes the rest. */
export interface BodySurfaces {
  /** The first that claims a path is its surface. */
  readonly claimed: readonly BodySurface[];
  /** Every path none claims: a page, under the smallest limit. */
  readonly otherwise: BodySurface;
}

/**
 * The app's surfaces: each protocol's first (the documents its punch-in and other requests post), then the
 * webhooks `/events/…`, the console `/admin/ui/…`, the rest of `/admin` the JSON API; anything else a page
 * (punch-out forms, proof links, and every protocol's session pages, as OCI's under `/oci/s/…`).
 *
 * @example
 * bodySurfaces(Object.values(ctx.protocols).flatMap((p) => p.requestBodies?.(ctx) ?? []), refusals)
 */
export function bodySurfaces(
  protocols: readonly BodySurface[],
  refusals: BodyRefusals,
  limits: Readonly<Record<FixedBodySurface, BodyLimit>> = FIXED_BODY_LIMITS,
): BodySurfaces {
  const fixed = (name: FixedBodySurface, paths: BodySurface['paths']): BodySurface => ({
    name,
    paths,
    limit: limits[name],
    refuse: refusals[name],
  });
  return {
    claimed: [
      ...protocols,
      fixed('events', (path) => path.startsWith('/events/')),
      fixed('console', (path) => path.startsWith('/admin/ui/')),
      fixed('adminApi', (path) => path === '/admin' || path.startsWith('/admin/')),
    ],
    otherwise: fixed('pages', () => true),
  };
}

/** The surface `path` belongs to: the first that claims it, else pages'. */
export function bodySurfaceOf(surfaces: BodySurfaces, path: string): BodySurface {
  const claims = ({ paths }: BodySurface) => (paths instanceof RegExp ? paths.test(path) : paths(path));
  return surfaces.claimed.find(claims) ?? surfaces.otherwise;
}

/** What a page or JSON answer says of a body past its limit (a protocol may say it its own way). */
export function bodyTooLarge(maxBytes: number): GatewayError {
  return new GatewayError(
    'payload_too_large',
    `The request body is larger than ${Math.round(maxBytes / 1024)} KB; nothing was done with it.`,
  );
}

/** Thrown into a streamed body's reader when it reads on past the limit. */
class BodyOverLimit extends Error {
  constructor() {
    super('The request body is larger than its limit.');
    this.name = 'BodyOverLimit';
  }
}

/**
 * `source` passed on chunk by chunk as it is asked for. The chunk that passes `maxBytes` still goes
 * through, so a route that counts for itself (cXML, within a limit of its own) sees it and answers in its
 * own words; asked for more after that, the source is cancelled (nothing more is read from the
 * connection), `cut` is called and the reader gets an error.
 */
function cappedStream(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
  cut: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (total > maxBytes) {
          cut();
          await reader.cancel().catch(() => undefined);
          controller.error(new BodyOverLimit());
          return;
        }
        const read = await reader.read();
        if (read.done) {
          controller.close();
          return;
        }
        total += read.value.byteLength;
        controller.enqueue(read.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * The body read whole while it stays within `maxBytes`; undefined as soon as it passes them (reading
 * stops and the stream is cancelled there). A client that goes away mid-body is a 400 nobody reads.
 */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      total += read.value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(read.value);
    }
  } catch (error) {
    throw new GatewayError('bad_request', 'The request body did not arrive whole.', { cause: error });
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Holds every request body to its surface's limit before a route sees it. A declared Content-Length is
 * trusted to bound the body (Node's parser and Workers deliver no more than it says); without one the body
 * is counted: a `buffered` surface's read here and handed on as bytes, a `streamed` one's cut where it
 * passes the limit, its answer then replaced by the surface's refusal.
 *
 * @example
 * app.use(boundBodies(bodySurfaces(protocolSurfaces, refusals)));
 */
export function boundBodies(surfaces: BodySurfaces): MiddlewareHandler {
  return async (c, next) => {
    // The headers decide first and the body is touched only when they cannot: asking a Node request for its
    // body builds a web stream that starts reading the socket at once, and a refusal (the admission gate's,
    // at most a few milliseconds later) or a probe must not pay for reading a body nobody wants. A GET or
    // HEAD has none in the Fetch API.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const surface = bodySurfaceOf(surfaces, c.req.path);
    const { maxBytes, reading } = surface.limit;
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      return /^\d{1,15}$/.test(declared) && Number(declared) <= maxBytes
        ? next()
        : surface.refuse(c, maxBytes);
    }
    const body = c.req.raw.body;
    if (body === null) return next();
    if (reading === 'buffered') {
      const bytes = await readCapped(body, maxBytes);
      if (bytes === undefined) return surface.refuse(c, maxBytes);
      c.req.raw = new Request(c.req.raw, { body: bytes });
      return next();
    }
    let cut = false;
    const capped = cappedStream(body, maxBytes, () => {
      cut = true;
    });
    c.req.raw = new Request(c.req.raw, { body: capped, duplex: 'half' } as RequestInit);
    await next();
    if (cut) {
      // The route read on past the limit and met a failed read; what it answered does not say why.
      c.res = undefined;
      c.res = await surface.refuse(c, maxBytes);
    }
  };
}
