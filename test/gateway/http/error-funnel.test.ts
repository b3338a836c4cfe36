/**
 * The one error funnel (issue 14): a bug is `internal` on every surface (HTML page 500, cXML Status 500,
 * JSON 500) with a generic text and one error line carrying its cause; a store outage stays the retryable
 * 503 / cXML 500; refusals (4xx) are never logged at error level.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  GatewayError,
  logFailure,
  publicMessage,
  toGatewayError,
  upstreamError,
} from '../../../src/gateway/http/errors.ts';
import { jsonError } from '../../../src/gateway/http/json-answers.ts';
import { PrintApiError } from '../../../src/print-api/index.ts';
import { createTestStore } from '../../support/test-store.ts';
import { StoreError } from '../../../src/store/store-error.ts';
import { capturingLogger } from '../../support/capturing-logger.ts';
import { profileRequest, setupRequest } from '../../support/cxml-documents.ts';
import { statusOf } from '../../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, START } from '../../support/stack.ts';

const OCI_PUNCH_IN =
  '/oci/s4?username=s4&password=s4-secret&hook_url=https%3A%2F%2Fs4.acme.example%3A44300%2Freturn&oci_version=5.0';
const BUG_PAGE_TEXT = 'Something went wrong on our side; the error has been logged for the operators.';
const STACK_TRACE = /\bat \S+ \(|\.ts:\d+|node:internal|RangeError|TypeError/;

/** A stack with a capturing logger and test routes that fail the way a bug and a store outage do. */
async function failingStack() {
  const logger = capturingLogger();
  const json = new Hono();
  json.onError((error, c) => jsonError(stack.gateway.context, c, error));
  json.get('/bug', () => {
    throw new TypeError('Cannot read properties of undefined (reading "lines")');
  });
  const stack = await createStack(undefined, {
    routes: (app: Hono) => {
      app.get('/bug', () => {
        throw new RangeError('Invalid time value');
      });
      app.get('/store-away', () => {
        throw new StoreError('unavailable', 'The database is not answering.');
      });
      app.route('/json', json);
    },
    gatewayDeps: { logger },
  });
  return { stack, logger, errors: () => logger.lines.filter((l) => l.level === 'error') };
}

describe('a bug on each surface', () => {
  it('an HTML route: a 500 page with the generic text, the cause and stack only in one error line', async () => {
    const { stack, errors } = await failingStack();
    const page = await stack.request(`${GATEWAY_ORIGIN}/bug`, { headers: { 'X-Request-Id': 'req-bug' } });
    const body = await page.text();
    expect(page.status).toBe(500);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(page.headers.get('Retry-After')).toBeNull();
    expect(body).toContain(BUG_PAGE_TEXT);
    expect(body).not.toContain('Invalid time value');
    expect(body).not.toContain('print service');
    expect(body).not.toMatch(STACK_TRACE);
    expect(errors()).toEqual([
      {
        level: 'error',
        message: 'request failed',
        fields: {
          requestId: 'req-bug',
          path: '/bug',
          code: 'internal',
          error: 'RangeError',
          message: 'Invalid time value',
          stack: expect.stringMatching(/^RangeError: Invalid time value\n\s+at /),
        },
      },
    ]);
  });

  it('a cXML request: Status 500 Internal Server Error with the generic text, the cause in the log', async () => {
    const logger = capturingLogger();
    const store = createTestStore({ clock: { now: () => new Date(START) } });
    store.sessions.create = () => {
      throw new TypeError('session.lines is not iterable');
    };
    const stack = await createStack(undefined, { gatewayDeps: { logger }, store });
    const answer = await stack.postCxml(setupRequest());
    expect(statusOf(answer)).toEqual({
      code: 500,
      text: 'Internal Server Error',
      detail: 'Something went wrong on our side; the error has been logged for the operators.',
    });
    expect(answer).not.toContain('not iterable');
    expect(answer).not.toMatch(STACK_TRACE);
    const errors = logger.lines.filter((l) => l.level === 'error');
    expect(errors).toEqual([
      {
        level: 'error',
        message: 'cxml request failed',
        fields: {
          kind: 'PunchOutSetupRequest',
          payloadID: expect.any(String),
          code: 'internal',
          error: 'TypeError',
          message: 'session.lines is not iterable',
          stack: expect.stringContaining('TypeError: session.lines is not iterable'),
        },
      },
    ]);
  });

  it('an OCI punch-in: a 500 page with the generic text, the cause in one error line', async () => {
    const logger = capturingLogger();
    const store = createTestStore({ clock: { now: () => new Date(START) } });
    store.sessions.create = () => {
      throw new TypeError('session.lines is not iterable');
    };
    const stack = await createStack(undefined, { gatewayDeps: { logger }, store });
    const page = await stack.request(`${GATEWAY_ORIGIN}${OCI_PUNCH_IN}`);
    const body = await page.text();
    expect(page.status).toBe(500);
    expect(body).toContain(BUG_PAGE_TEXT);
    expect(body).not.toContain('not iterable');
    expect(body).not.toMatch(STACK_TRACE);
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([
      {
        level: 'error',
        message: 'oci punch-in failed',
        fields: {
          buyer: 's4',
          param: undefined,
          code: 'internal',
          error: 'TypeError',
          message: 'session.lines is not iterable',
          stack: expect.stringContaining('TypeError: session.lines is not iterable'),
        },
      },
    ]);
  });

  it('a JSON route: 500 with code internal and the generic text, the cause in the log', async () => {
    const { stack, errors } = await failingStack();
    const res = await stack.request(`${GATEWAY_ORIGIN}/json/bug`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: { code: 'internal', message: BUG_PAGE_TEXT } });
    expect(errors()).toEqual([
      {
        level: 'error',
        message: 'request failed',
        fields: expect.objectContaining({
          path: '/json/bug',
          code: 'internal',
          error: 'TypeError',
          message: 'Cannot read properties of undefined (reading "lines")',
        }),
      },
    ]);
  });
});

describe('a store outage stays the retryable answer', () => {
  it('an HTML route: 503 with Retry-After and the try-again text, logged at error level', async () => {
    const { stack, errors } = await failingStack();
    const page = await stack.request(`${GATEWAY_ORIGIN}/store-away`);
    expect(page.status).toBe(503);
    expect(page.headers.get('Retry-After')).toBe('30');
    const body = await page.text();
    expect(body).toContain('Something went wrong on our side. Please try again in a moment.');
    expect(body).not.toContain('The database is not answering.');
    expect(errors()).toEqual([
      {
        level: 'error',
        message: 'request failed',
        fields: expect.objectContaining({ code: 'store_unavailable', error: 'StoreError' }),
      },
    ]);
  });

  it('cXML: Status 500 that tells the buyer to send the document again', () => {
    const known = toGatewayError(new StoreError('unavailable', 'The database is not answering.'));
    expect(known.code).toBe('store_unavailable');
    expect(publicMessage(known, 'cxml')).toBe(
      'The gateway could not handle this request now; it is safe to send it again.',
    );
  });
});

describe('refusals (4xx) are not logged at error level', () => {
  it('an invalid punch-out token: 403 page, an info line with its code', async () => {
    const { stack, logger } = await failingStack();
    const page = await stack.request(`${GATEWAY_ORIGIN}/punchout/s/not-a-token/catalog`);
    expect(page.status).toBe(403);
    expect(logger.lines.filter((l) => l.level !== 'info')).toEqual([]);
    expect(logger.lines).toContainEqual({
      level: 'info',
      message: 'request failed',
      fields: { requestId: expect.any(String), path: '/punchout/s/:token/catalog', code: 'token_invalid' },
    });
  });

  it('a cXML request with a wrong secret: Status 401, nothing at error level', async () => {
    const { stack, errors } = await failingStack();
    expect(statusOf(await stack.postCxml(profileRequest('AN01000000001', 'wrong'))).code).toBe(401);
    expect(errors()).toEqual([]);
  });

  it('not_found through the JSON funnel: 404, nothing at error level', () => {
    const logger = capturingLogger();
    logFailure(logger, 'request failed', new GatewayError('not_found', 'No such admin endpoint.'), {});
    expect(logger.lines).toEqual([
      { level: 'info', message: 'request failed', fields: { code: 'not_found' } },
    ]);
  });
});

describe('upstreamError: the print service failing, and only that', () => {
  it('a timeout is upstream_unavailable, a refusal upstream_rejected, with what failed', () => {
    const timeout = new PrintApiError('timeout', 'GET /api/v2/x: timed out');
    expect(upstreamError(timeout, 'read the design')).toMatchObject({
      code: 'upstream_unavailable',
      message: 'The print service could not read the design (timeout).',
    });
    expect(upstreamError(timeout, 'read the design', 'Not answering.')).toMatchObject({
      code: 'upstream_unavailable',
      message: 'Not answering.',
    });
    const refused = new PrintApiError('bad_request', 'POST /api/v2/x: 400', { status: 400 });
    expect(upstreamError(refused, 'create the print order')).toMatchObject({
      code: 'upstream_rejected',
      message: 'The print service could not create the print order (bad_request 400).',
    });
  });

  it('a bug or a store outage goes on as it is, for the funnel (internal) and the worker (store away)', () => {
    const bug = new TypeError('x is undefined');
    expect(upstreamError(bug, 'read the design')).toBe(bug);
    expect(toGatewayError(bug)).toMatchObject({ code: 'internal', cause: bug });
    const away = new StoreError('unavailable', 'gone');
    expect(upstreamError(away, 'read the design')).toBe(away);
  });
});
