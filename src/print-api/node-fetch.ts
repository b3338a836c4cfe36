/**
 * The client's transport on Node: a fetch-shaped function over a pooled undici `Agent` with keep-alive and
 * connect, headers and body timeouts. Node-only (imports undici); the client core never imports it, so the
 * core stays Workers-safe. `src/runtime/node.ts` and the CLI hand it to `createPrintApi({ fetch })`.
 *
 * It calls `dispatcher.request()` directly instead of undici's WHATWG `fetch`, whose spec machinery costs
 * about half the throughput on small answers (see `npm run bench`); the result is still a standard
 * `Response`, and failures are thrown the way fetch throws them (TypeError with the cause, the signal's
 * reason on abort).
 */
import { Agent, type Dispatcher } from 'undici';
import type { FetchLike } from './transport.ts';

/**
 * undici's body, a Node stream, as the web stream a Response takes: read on demand (`pull`), so the body
 * still flows only as fast as its reader takes it, and cancelling the stream destroys the Node one.
 */
function webStreamOf(body: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel(reason) {
      await chunks.return?.(reason);
    },
  });
}

export interface NodeFetchOptions {
  /** Sockets per origin. Default 32. */
  readonly connections?: number;
  /** How long an idle socket is kept. Default 30 000 ms (undici lowers it to the server's keep-alive hint). */
  readonly keepAliveTimeout?: number;
  /** Default 5 000 ms. */
  readonly connectTimeout?: number;
  /** Until the response headers arrive. Default 30 000 ms. */
  readonly headersTimeout?: number;
  /** Between two chunks of a response body (a stalled download). Default 30 000 ms. */
  readonly bodyTimeout?: number;
  /** Use this dispatcher instead of a new Agent (the options above are then ignored), e.g. a MockAgent. */
  readonly dispatcher?: Dispatcher;
}

export interface NodeFetch extends FetchLike {
  (input: string, init: RequestInit): Promise<Response>;
  readonly dispatcher: Dispatcher;
  /** Closes the pool's sockets once pending requests finish. */
  close(): Promise<void>;
}

// Statuses whose responses have no body (Fetch standard "null body status").
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * @example
 * const fetch = createNodeFetch({ connections: 16 });
 * const api = createPrintApi({ baseUrl, token, key, fetch });
 * // on shutdown
 * await fetch.close();
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const dispatcher =
    options.dispatcher ??
    new Agent({
      connections: options.connections ?? 32,
      keepAliveTimeout: options.keepAliveTimeout ?? 30_000,
      connect: { timeout: options.connectTimeout ?? 5_000 },
      headersTimeout: options.headersTimeout ?? 30_000,
      bodyTimeout: options.bodyTimeout ?? 30_000,
    });

  // Parsing a URL costs more than the rest of the request's bookkeeping; a client talks to one origin, so
  // the last origin is remembered and a URL under it is split without parsing.
  let lastOrigin = '';

  function target(input: string): { origin: string; path: string } {
    if (lastOrigin !== '' && input.startsWith(lastOrigin) && input.charCodeAt(lastOrigin.length) === 47) {
      return { origin: lastOrigin, path: input.slice(lastOrigin.length) };
    }
    const url = new URL(input);
    if (url.username !== '' || url.password !== '') {
      throw new TypeError('createNodeFetch: URLs with credentials are not supported');
    }
    lastOrigin = url.origin;
    return { origin: url.origin, path: url.pathname + url.search };
  }

  async function nodeFetch(input: string, init: RequestInit): Promise<Response> {
    const { origin, path } = target(input);
    const method = init.method ?? 'GET';
    const signal = init.signal ?? undefined;
    const request: Dispatcher.RequestOptions = {
      origin,
      path,
      method: method as Dispatcher.HttpMethod,
      body: bodyOf(init.body),
    };
    if (init.headers !== undefined) request.headers = headersOf(init.headers);
    if (signal !== undefined) request.signal = signal;
    let answer: Dispatcher.ResponseData;
    try {
      answer = await dispatcher.request(request);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new TypeError('fetch failed', { cause: error });
    }
    const { statusCode, headers, body } = answer;
    // statusText stays empty, as over HTTP/2: validating the reason phrase costs more than it is worth.
    const responseHeaders = new Headers();
    for (const name in headers) {
      const value = headers[name];
      if (typeof value === 'string') responseHeaders.append(name, value);
      else if (value !== undefined) for (const one of value) responseHeaders.append(name, one);
    }
    if (NULL_BODY_STATUS.has(statusCode) || method === 'HEAD') {
      await body.dump();
      return new Response(null, { status: statusCode, headers: responseHeaders });
    }
    // The headers go in the init: @hono/node-server's Response, which stands in for the global one on Node,
    // otherwise takes a stream body for text and answers a text/plain content type of its own.
    return new Response(webStreamOf(body), { status: statusCode, headers: responseHeaders });
  }

  return Object.assign(nodeFetch, {
    dispatcher,
    close: () => dispatcher.close(),
  });
}

function headersOf(headers: HeadersInit): Record<string, string> {
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers);
  return headers as Record<string, string>;
}

function bodyOf(body: BodyInit | null | undefined): string | Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('createNodeFetch: only string, Uint8Array and ArrayBuffer bodies are supported');
}
