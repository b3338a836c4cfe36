/**
 * The body-limit middleware on its own: which surface a path is, and the two ways it holds a chunked body.
 * A `buffered` surface's body is read here and handed on whole; a `streamed` one's is passed through as the
 * route reads it, the chunk that crosses the limit included (so a route counting for itself answers in its
 * own words), and a route that reads on past it gets a failed read and the surface's refusal instead of
 * its own answer.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { PUNCHOUT_PROTOCOLS } from '../../../src/gateway/app/protocols.ts';
import type { GatewayContext } from '../../../src/gateway/context.ts';
import {
  type BodyLimit,
  type BodyRefusal,
  type BodyRefusals,
  type BodySurface,
  bodySurfaceOf,
  bodySurfaces,
  boundBodies,
  type FixedBodySurface,
} from '../../../src/gateway/http/body-limits.ts';
import { resolveTestConfig, testConfig } from '../../support/stack.ts';

const CHUNK = 1000;

function chunks(count: number): { stream: ReadableStream<Uint8Array>; pulled(): number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
        if (pulled >= count * CHUNK) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

const LIMITS: Record<FixedBodySurface, BodyLimit> = {
  events: { maxBytes: 2500, reading: 'buffered' },
  adminApi: { maxBytes: 2500, reading: 'buffered' },
  console: { maxBytes: 2500, reading: 'buffered' },
  pages: { maxBytes: 2500, reading: 'buffered' },
};

const refusal =
  (surface: string): BodyRefusal =>
  (c, limit) =>
    c.text(`${surface} over ${limit}`, 413);

const REFUSALS: BodyRefusals = {
  events: refusal('events'),
  adminApi: refusal('adminApi'),
  console: refusal('console'),
  pages: refusal('pages'),
};

/** A protocol's surface as a protocol declares one: a streamed document at /cxml. */
const STREAMED: BodySurface = {
  name: 'cxml',
  paths: /^\/cxml\/?$/,
  limit: { maxBytes: 2500, reading: 'streamed' },
  refuse: refusal('cxml'),
};

/**
 * An app whose /cxml reads the body to its end, or (asked with `X-Read: own`) stops reading past 2,500
 * bytes and answers in its own words, as the cXML route does.
 */
function app(): Hono {
  const app = new Hono();
  app.use(boundBodies(bodySurfaces([STREAMED], REFUSALS, LIMITS)));
  app.post('/cxml', async (c, next) => {
    if (c.req.header('X-Read') === 'own') return next();
    try {
      return c.text(`read ${(await c.req.arrayBuffer()).byteLength}`);
    } catch {
      return c.text('the read failed', 400);
    }
  });
  app.post('/cxml', async (c) => {
    const reader = (c.req.raw.body as ReadableStream<Uint8Array>).getReader();
    let size = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > 2500) {
        await reader.cancel();
        return c.text(`the route's own refusal at ${size}`, 200);
      }
    }
    return c.text(`read ${size}`);
  });
  app.post('/punchout/form', async (c) => c.text(`read ${(await c.req.text()).length}`));
  return app;
}

function post(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return app().request(path, { method: 'POST', body, duplex: 'half', headers } as RequestInit);
}

describe('body limits', () => {
  it("classifies paths as the app mounts them, each protocol's first", () => {
    // Only the config is read while the surfaces are built; the refusals close over the rest.
    const ctx = { config: resolveTestConfig(testConfig()) } as GatewayContext;
    const protocols = Object.values(PUNCHOUT_PROTOCOLS).flatMap((p) => p.requestBodies?.(ctx) ?? []);
    const surfaces = bodySurfaces(protocols, REFUSALS);
    expect(
      [
        '/cxml',
        '/cxml/',
        '/oci/sap1',
        '/oci/s/token/product/BC',
        '/events/token',
        '/admin/ui/sign-in',
        '/admin',
        '/admin/orders/po-1/retry',
        '/punchout/s/token/transfer',
        '/proof/token',
        '/anything',
      ].map((path) => [path, bodySurfaceOf(surfaces, path).name]),
    ).toEqual([
      ['/cxml', 'cxml'],
      ['/cxml/', 'cxml'],
      ['/oci/sap1', 'oci'],
      ['/oci/s/token/product/BC', 'pages'],
      ['/events/token', 'events'],
      ['/admin/ui/sign-in', 'console'],
      ['/admin', 'adminApi'],
      ['/admin/orders/po-1/retry', 'adminApi'],
      ['/punchout/s/token/transfer', 'pages'],
      ['/proof/token', 'pages'],
      ['/anything', 'pages'],
    ]);
  });

  it('buffered: a chunked body within the limit reaches the route whole; past it, the refusal', async () => {
    const within = chunks(2);
    const res = await post('/punchout/form', within.stream);
    expect([res.status, await res.text()]).toEqual([200, 'read 2000']);
    const over = chunks(1000);
    const refused = await post('/punchout/form', over.stream);
    expect([refused.status, await refused.text(), over.pulled()]).toEqual([413, 'pages over 2500', 3000]);
  });

  it('streamed: a route that stops at its own limit keeps its answer', async () => {
    const body = chunks(1000);
    const res = await post('/cxml', body.stream, { 'X-Read': 'own' });
    expect([res.status, await res.text(), body.pulled()]).toEqual([
      200,
      "the route's own refusal at 3000",
      3000,
    ]);
  });

  it('streamed: a route that reads on past the limit gets the refusal, the body read no further', async () => {
    const body = chunks(1000);
    const res = await post('/cxml', body.stream);
    expect([res.status, await res.text(), body.pulled()]).toEqual([413, 'cxml over 2500', 3000]);
    const within = chunks(2);
    const whole = await post('/cxml', within.stream);
    expect([whole.status, await whole.text()]).toEqual([200, 'read 2000']);
  });

  it('a declared length past the limit is refused unread; one within it is left to the runtime', async () => {
    const over = chunks(1000);
    const refused = await post('/punchout/form', over.stream, { 'Content-Length': '2501' });
    expect([refused.status, await refused.text(), over.pulled()]).toEqual([413, 'pages over 2500', 0]);
    const malformed = chunks(1000);
    const bad = await post('/punchout/form', malformed.stream, { 'Content-Length': '12abc' });
    expect([bad.status, await bad.text(), malformed.pulled()]).toEqual([413, 'pages over 2500', 0]);
    const within = chunks(2);
    const res = await post('/punchout/form', within.stream, { 'Content-Length': '2000' });
    expect([res.status, await res.text()]).toEqual([200, 'read 2000']);
  });

  it('a client that goes away mid-body: a 400, not a bug', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new Error('socket hang up'));
      },
    });
    const application = app();
    application.onError((error, c) => c.text(`${(error as { code?: string }).code}`, 400));
    const res = await application.request('/punchout/form', {
      method: 'POST',
      body: broken,
      duplex: 'half',
    } as RequestInit);
    expect([res.status, await res.text()]).toEqual([400, 'bad_request']);
  });
});
