/**
 * How one call of the client reaches the print service: URL and headers, the call's deadline, retries of
 * safe calls, and turning every failure into a PrintApiError.
 *
 * Runtime-agnostic: only `fetch`, `AbortController`, `setTimeout`, `TextEncoder` and `btoa`. The fetch is
 * injected (an undici pool on Node, see `node-fetch.ts`; global fetch on Workers; an app's own `request` in
 * tests). The request path is kept lean because the gateway calls it for every punch-in: headers are
 * computed once per client and a call allocates little beyond its AbortController.
 */
import { parseHttpUrl, urlPrefix } from './call-arguments.ts';
import { codeForStatus, isPrintApiError, isRetryablePrintApiError, PrintApiError } from './error.ts';
import { PUNCHGATE_VERSION } from './version.ts';
import { parseRetryAfter } from './retry-after.ts';

/** The part of `fetch` the client uses. Hono's `app.request` fits once wrapped in an arrow. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response> | Response;

export interface PrintApiOptions {
  /** The service's base address; paths `/api/v2/...` are appended to it. */
  readonly baseUrl: string;
  /** API token (the Basic user id). */
  readonly token: string;
  /** API key (the Basic password), opaque to the client. */
  readonly key: string;
  /** Defaults to the global fetch. On Node pass `createNodeFetch()` for a tuned undici pool. */
  readonly fetch?: FetchLike;
  /** Deadline of one call, retries and their waits included. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /** How many times a safe call is tried again after a network error, 5xx or 429. Default 2. */
  readonly retries?: number;
  /** Default `punchgate/<version>`. */
  readonly userAgent?: string;
  /** Waits between attempts; tests pass one that resolves at once or advances a fake clock. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch; used for deadlines, Retry-After dates and waitForFiles. */
  readonly now?: () => number;
  /** A number in [0, 1) for backoff jitter. */
  readonly random?: () => number;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One call as the client methods describe it to the transport. */
export interface CallSpec {
  readonly method: HttpMethod;
  /** Path including the `/api/v2` prefix, ids already checked and inserted. */
  readonly path: string;
  /** `?a=b` or absent. */
  readonly query?: string;
  /** PIPO session token, sent as X-PN-TOKEN (on an `editorUrl` call only kept out of error texts). */
  readonly sessionToken?: string;
  /**
   * An editor-host URL ({editor_url}/…) to call instead of `path` under the base URL. It goes without the
   * API credentials, which are the API host's alone; the PIPO token travels in its query, so `path` (no
   * query) names the call in errors and `sessionToken` is redacted from what the host answers.
   */
  readonly editorUrl?: string;
  /** A JSON text. */
  readonly body?: string;
  /** Safe to send again after a failure whose outcome is unknown. */
  readonly retry: boolean;
  /** The answer is a file, not JSON (sets Accept). */
  readonly file?: boolean;
  /** A download endpoint whose 409 means "merge not finished" (files_not_ready). */
  readonly mergeGated?: boolean;
}

/** Reads a 2xx answer; runs inside the call's deadline. Throws PrintApiError for an answer it refuses. */
export type ReadAnswer<T> = (response: Response, spec: CallSpec) => Promise<T> | T;

export interface Transport {
  call<T>(spec: CallSpec, read: ReadAnswer<T>): Promise<T>;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_USER_AGENT = `punchgate/${PUNCHGATE_VERSION}`;

const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 5_000;
const SERVICE_MESSAGE_MAX = 300;
// Header values: visible ASCII and spaces only, so nothing can split a header.
const HEADER_SAFE = /^[\x21-\x7e]+(?: +[\x21-\x7e]+)*$/;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so a retry never fires
 * immediately and a crowd of clients spreads out.
 */
function backoffDelayMs(attempt: number, random: () => number): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

export function createTransport(options: PrintApiOptions): Transport {
  const prefix = checkBaseUrl(options.baseUrl);
  checkCredential('token', options.token);
  checkCredential('key', options.key);
  if (options.token.includes(':')) throw new TypeError('createPrintApi: token must not contain ":"');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError('createPrintApi: timeoutMs must be a positive number of milliseconds');
  }
  const retries = options.retries ?? DEFAULT_RETRIES;
  if (!(Number.isSafeInteger(retries) && retries >= 0)) {
    throw new TypeError('createPrintApi: retries must be a non-negative integer');
  }
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  if (!HEADER_SAFE.test(userAgent)) throw new TypeError('createPrintApi: userAgent must be printable ASCII');
  const send: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;

  const authorization = basicAuthorization(options.token, options.key);
  // Precomputed header sets; only PIPO calls build their own (they add the session token).
  const jsonHeaders = { authorization, 'user-agent': userAgent, accept: 'application/json' };
  const fileHeaders = { authorization, 'user-agent': userAgent, accept: '*/*' };
  const bodyHeaders = { ...jsonHeaders, 'content-type': 'application/json' };
  const editorHeaders = { 'user-agent': userAgent, accept: '*/*' };
  const secrets = [options.token, options.key, authorization.slice('Basic '.length)];

  function headersFor(spec: CallSpec): Record<string, string> {
    if (spec.editorUrl !== undefined) return editorHeaders;
    const base = spec.body !== undefined ? bodyHeaders : spec.file ? fileHeaders : jsonHeaders;
    return spec.sessionToken === undefined ? base : { ...base, 'x-pn-token': spec.sessionToken };
  }

  // Whatever the service echoes back must not carry our secrets into logs.
  function redact(text: string, spec: CallSpec): string {
    let out = text;
    for (const secret of spec.sessionToken === undefined ? secrets : [...secrets, spec.sessionToken]) {
      if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    }
    return out;
  }

  async function failureFromResponse(response: Response, spec: CallSpec): Promise<PrintApiError> {
    const text = response.body === null ? '' : await response.text();
    const found = serviceMessageOf(text);
    const serviceMessage = found === undefined ? undefined : redact(found, spec);
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'), now());
    const code = codeForStatus(response.status, spec.mergeGated === true);
    let message = `${spec.method} ${spec.path}: ${response.status}`;
    if (serviceMessage !== undefined) message += ` ${serviceMessage}`;
    if (retryAfterSeconds !== undefined) message += ` (retry after ${retryAfterSeconds} s)`;
    return new PrintApiError(code, message, {
      status: response.status,
      serviceMessage,
      retryAfterSeconds,
      method: spec.method,
      path: spec.path,
    });
  }

  function failureFromThrown(error: unknown, spec: CallSpec): PrintApiError {
    const timedOut = isTransportTimeout(error);
    const reason = redact(describeThrown(error), spec);
    return new PrintApiError(
      timedOut ? 'timeout' : 'unavailable',
      `${spec.method} ${spec.path}: ${timedOut ? 'timed out' : 'no answer'} (${reason})`,
      { method: spec.method, path: spec.path, cause: error },
    );
  }

  async function call<T>(spec: CallSpec, read: ReadAnswer<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const deadline = now() + timeoutMs;
    const init: RequestInit = {
      method: spec.method,
      headers: headersFor(spec),
      body: spec.body ?? null,
      signal: controller.signal,
    };
    const url =
      spec.editorUrl ?? (spec.query === undefined ? prefix + spec.path : prefix + spec.path + spec.query);
    try {
      for (let attempt = 0; ; attempt++) {
        let failure: PrintApiError;
        try {
          const response = await send(url, init);
          if (response.ok) return await read(response, spec);
          failure = await failureFromResponse(response, spec);
        } catch (error) {
          if (isPrintApiError(error)) throw error;
          failure = failureFromThrown(error, spec);
        }
        if (controller.signal.aborted) {
          throw new PrintApiError(
            'timeout',
            `${spec.method} ${spec.path}: no answer within ${timeoutMs} ms`,
            {
              method: spec.method,
              path: spec.path,
              cause: failure,
            },
          );
        }
        if (!spec.retry || attempt >= retries || !isRetryablePrintApiError(failure)) throw failure;
        const delay =
          failure.retryAfterSeconds !== undefined
            ? failure.retryAfterSeconds * 1000
            : backoffDelayMs(attempt, random);
        // A wait that outlasts the deadline would only end in a timeout: report the real failure now.
        if (now() + delay >= deadline) throw failure;
        await sleep(delay);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  return { call, now, sleep };
}

/** A timeout reported by the transport itself (undici connect/headers/body timeouts, ETIMEDOUT). */
function isTransportTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Object && depth < 4; depth++) {
    const { name, code } = e as { name?: unknown; code?: unknown };
    if (name === 'TimeoutError') return true;
    if (typeof code === 'string' && /TIMEOUT|TIMEDOUT/.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The innermost useful description of a thrown network error: `fetch failed` alone says nothing. */
function describeThrown(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Object && depth < 4; depth++) {
    const { message, code } = e as { message?: unknown; code?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string') parts.push(text === '' || text === code ? code : `${code}: ${text}`);
    else if (text !== '') parts.push(text);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.length === 0 ? String(error) : parts.join('; ');
}

/** The service's text from an error body: `{"Message": …}` (ASP.NET style), a JSON string, or plain text. */
function serviceMessageOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'string') return parsed === '' ? undefined : parsed;
      if (parsed !== null && typeof parsed === 'object') {
        const { Message, message } = parsed as { Message?: unknown; message?: unknown };
        if (typeof Message === 'string') return Message;
        if (typeof message === 'string') return message;
      }
    } catch {
      // Not JSON after all: treat as text.
    }
  }
  const collapsed = trimmed.replace(/\s+/g, ' ');
  return collapsed.length > SERVICE_MESSAGE_MAX ? `${collapsed.slice(0, SERVICE_MESSAGE_MAX)}…` : collapsed;
}

function checkBaseUrl(baseUrl: string): string {
  const url = parseHttpUrl(baseUrl);
  if (url === undefined) throw new TypeError('createPrintApi: baseUrl must be an absolute http(s) URL');
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('createPrintApi: baseUrl must not hold credentials; pass token and key');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError('createPrintApi: baseUrl must not have a query or fragment');
  }
  return urlPrefix(url);
}

function checkCredential(name: string, value: unknown): void {
  if (typeof value !== 'string' || value === '' || /[\x00-\x1f\x7f]/.test(value)) {
    throw new TypeError(`createPrintApi: ${name} must be a non-empty string without control characters`);
  }
}

/** `Basic base64(token:key)` over the UTF-8 bytes, since btoa alone takes only Latin-1. */
function basicAuthorization(token: string, key: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${token}:${key}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
