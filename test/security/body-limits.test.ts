/**
 * Every body is bounded before it is read: each route of the app that takes a body, enumerated from the
 * app's own route list (so a route added later is sent the same), is sent a chunked body with no
 * Content-Length that would run to 64 MB, and is refused in its surface's words once the surface's limit is
 * passed, the body pulled no further than the limit plus one chunk. A declared Content-Length past the
 * limit is refused without a byte read. The figures are the limits of http/body-limits.ts and of each
 * protocol's `requestBodies`, written out here as docs/security.md states them.
 */
import { describe, expect, it } from 'vitest';
import { createOrderStack, type OrderStack, orderConfig, orderRequest } from '../support/order-flow.ts';
import { statusOf } from '../support/punchout-flow.ts';
import { GATEWAY_ORIGIN } from '../support/stack.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
/** What the test's stream hands over per pull: a runtime's chunk on a real socket is this size or less. */
const CHUNK = 64 * KiB;
/** How much the stream would send at most, were it read on: far past every limit. */
const ENDLESS = 64 * MiB;

/** A body stream of `head` and then filler, counting what was pulled from it. */
function countedBody(head: Uint8Array): { stream: ReadableStream<Uint8Array>; pulled(): number } {
  let pulled = 0;
  const filler = new Uint8Array(CHUNK).fill(0x61);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = pulled === 0 && head.byteLength > 0 ? head : filler;
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
        if (pulled >= ENDLESS) controller.close();
      },
    },
    // Nothing read ahead: what was pulled is what the gateway asked for.
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

/** Path parameters as a real request carries them; a wildcard stands for any path below it. */
const PARAMS: Record<string, string> = {
  token: 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl',
  buyer: 'sap1',
  id: 'po-1',
  lineRef: 'L-1',
  index: '0',
  doc: 'msg-1',
  action: 'retry',
};

function filledPath(pattern: string): string {
  return pattern
    .replace(/:(\w+)(\{[^}]*\})?\??/g, (_, name: string) => PARAMS[name] ?? 'x')
    .replace(/\*/g, 'x');
}

/** Methods that carry a body; `ALL` routes (and middleware) answer them too. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'ALL']);

/** Every path the app declares a body-bearing method on (or all methods), once per method. */
function bodyRoutes(stack: OrderStack): { method: string; path: string }[] {
  const seen = new Map<string, { method: string; path: string }>();
  for (const route of stack.gateway.app.routes) {
    if (!BODY_METHODS.has(route.method)) continue;
    const path = filledPath(route.path);
    const method = route.method === 'ALL' ? 'POST' : route.method;
    seen.set(`${method} ${path}`, { method, path });
  }
  return [...seen.values()];
}

/** What a refusal says, as a page (its `<main>`), a JSON body or a cXML Status. */
type Said = { page: string } | { json: unknown } | { status: { code: number; text: string; detail: string } };

interface Refusal {
  limit: number;
  status: number;
  contentType: string;
  said: Said;
}

const tooLargeText = (kb: number) => `The request body is larger than ${kb} KB; nothing was done with it.`;
const pageMain = (heading: string, text: string, after = '') =>
  `\n<h1>${heading}</h1>\n<p class="error" role="alert">${text}</p>\n${after}`;
const CLOSE_WINDOW =
  '<p class="muted">Close this window and start the punch-out again from your procurement system.</p>\n';
const HTML = 'text/html; charset=UTF-8';

/** The refusal each surface documents (docs/security.md), by the path's surface. */
function refusalFor(path: string): Refusal {
  if (path === '/cxml') {
    return {
      limit: 16 * MiB,
      status: 200,
      contentType: 'text/xml; charset=UTF-8',
      said: { status: { code: 406, text: 'Not Acceptable', detail: 'The document is larger than 16 MB.' } },
    };
  }
  if (/^\/oci\/[^/]+$/.test(path)) {
    return {
      limit: 256 * KiB,
      status: 413,
      contentType: HTML,
      said: {
        page: pageMain(
          'The punch-in request could not be read',
          'The request body is larger than 262144 bytes.',
          CLOSE_WINDOW,
        ),
      },
    };
  }
  if (path.startsWith('/events/')) {
    return {
      limit: 256 * KiB,
      status: 413,
      contentType: 'application/json',
      said: { json: { error: { code: 'payload_too_large', message: tooLargeText(256) } } },
    };
  }
  if (path.startsWith('/admin/ui/')) {
    return {
      limit: 64 * KiB,
      status: 413,
      contentType: HTML,
      said: { page: pageMain('Too large', tooLargeText(64)) },
    };
  }
  if (path === '/admin' || path.startsWith('/admin/')) {
    return {
      limit: 64 * KiB,
      status: 413,
      contentType: 'application/json',
      said: { json: { error: { code: 'payload_too_large', message: tooLargeText(64) } } },
    };
  }
  return {
    limit: 64 * KiB,
    status: 413,
    contentType: HTML,
    said: { page: pageMain('This page cannot be shown', tooLargeText(64), CLOSE_WINDOW) },
  };
}

/**
 * The start of what a route is sent: for /cxml a proven buyer's OrderRequest up to its request, so the
 * route reads on to the largest limit it has (the rest is a comment that never ends); for any other
 * route nothing, only filler.
 */
function headFor(path: string): Uint8Array {
  if (path !== '/cxml') return new Uint8Array(0);
  const document = orderRequest({ lines: [{ sku: 'BC-STD', quantity: '100', unitPrice: '0.12' }] });
  const opened = document.indexOf('<OrderRequestHeader');
  return new TextEncoder().encode(`${document.slice(0, opened)}<!-- `);
}

async function saidBy(res: Response, said: Said): Promise<Said> {
  const text = await res.text();
  if ('page' in said) return { page: /<main[^>]*>([\s\S]*)<\/main>/.exec(text)?.[1] ?? text };
  if ('json' in said) return { json: JSON.parse(text) };
  return { status: statusOf(text) };
}

function send(stack: OrderStack, method: string, path: string, init: RequestInit): Promise<Response> {
  return Promise.resolve(
    stack.gateway.app.request(`${GATEWAY_ORIGIN}${path}`, { method, duplex: 'half', ...init } as RequestInit),
  );
}

describe('every body bounded before it is read', () => {
  it("the route list holds every body-taking route the gateway has today (so the list is the app's own)", async () => {
    const stack = await createOrderStack(orderConfig());
    const listed = bodyRoutes(stack).map(({ method, path }) => `${method} ${path}`);
    const token = PARAMS.token;
    expect(listed).toEqual(
      expect.arrayContaining([
        'POST /cxml',
        'POST /oci/sap1',
        `POST /events/${token}`,
        'POST /admin/ui/sign-in',
        'POST /admin/ui/sign-out',
        'POST /admin/ui/orders/po-1/actions/retry',
        'POST /admin/ui/orders/po-1/documents/msg-1/retry',
        `POST /punchout/s/${token}/cart/L-1/quantity`,
        `POST /punchout/s/${token}/transfer`,
        `POST /punchout/s/${token}/cancel`,
        'POST /admin/orders/po-1/attach',
        'POST /admin/orders/po-1/handled',
        'POST /admin/outbox/po-1/resend',
      ]),
    );
  });

  it('a chunked body that never ends: each route refuses it in its own words, read no further than its limit and a chunk', async () => {
    const stack = await createOrderStack(orderConfig());
    const routes = bodyRoutes(stack);
    expect(routes.length).toBeGreaterThan(20);
    for (const { method, path } of routes) {
      const expected = refusalFor(path);
      const body = countedBody(headFor(path));
      const res = await send(stack, method, path, {
        body: body.stream,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
      });
      const answer = {
        route: `${method} ${path}`,
        status: res.status,
        contentType: res.headers.get('Content-Type'),
        said: await saidBy(res, expected.said),
      };
      expect(answer).toEqual({
        route: `${method} ${path}`,
        status: expected.status,
        contentType: expected.contentType,
        said: expected.said,
      });
      // Past the limit, not far past it: the body was counted as it came and reading stopped there.
      expect(body.pulled(), `${method} ${path}`).toBeGreaterThan(expected.limit);
      expect(body.pulled(), `${method} ${path}`).toBeLessThanOrEqual(expected.limit + CHUNK);
    }
  });

  it('a declared Content-Length past the limit: refused before a byte of the body is read', async () => {
    const stack = await createOrderStack(orderConfig());
    for (const { method, path } of bodyRoutes(stack)) {
      const expected = refusalFor(path);
      const body = countedBody(new Uint8Array(0));
      const res = await send(stack, method, path, {
        body: body.stream,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': String(expected.limit + 1),
        },
      });
      expect([`${method} ${path}`, res.status, await saidBy(res, expected.said)]).toEqual([
        `${method} ${path}`,
        expected.status,
        expected.said,
      ]);
      expect(body.pulled(), `${method} ${path}`).toBe(0);
    }
  });

  it('a chunked body within the limit still reaches its route whole (the console sign-in)', async () => {
    const stack = await createOrderStack(orderConfig());
    const form = new TextEncoder().encode('token=test-admin-token-0123456789abcdef');
    const res = await send(stack, 'POST', '/admin/ui/sign-in', {
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(form.subarray(0, 10));
          controller.enqueue(form.subarray(10));
          controller.close();
        },
      }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
    });
    expect([res.status, res.headers.get('Location')]).toEqual([303, '/admin/']);
  });
});
