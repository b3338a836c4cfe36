/**
 * The sandbox print service: a faithful emulation of the print ordering service interface v2
 * (`print-api-v2.md`) as one Hono app built from a seed — every /api/v2 endpoint (and /api/v1 as the
 * versioning section says), the editor host under /editor, and the /_sandbox control API.
 *
 * Runtime-agnostic (Web APIs only): `punchgate sandbox` serves it on Node, and the demo mounts it under
 * /sandbox. Routes are relative to the app's root, and the pages use relative links, so it works mounted.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { parseSandboxSeed, type SandboxSeedInput } from '../sandbox-seed.ts';
import { createControl, type SandboxControl } from './control.ts';
import { apiRoutes } from './routes/api-routes.ts';
import { controlRoutes } from './routes/control-routes.ts';
import { editorRoutes } from './routes/editor-routes.ts';
import { errorResponse, SandboxError } from './sandbox-error.ts';
import { type SandboxDeps, SandboxService } from './service.ts';

export type { SandboxControl } from './control.ts';
export { deriveSandboxKey } from './key-derivation.ts';
export type { SandboxLogger } from './logger.ts';
export type { SandboxDeps } from './service.ts';

/** The largest request body the sandbox reads; larger ones get 413 and change nothing. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface Sandbox {
  readonly app: Hono;
  readonly control: SandboxControl;
}

/**
 * Builds the sandbox from a seed (validated here; an invalid seed throws a TypeError listing every problem
 * by path).
 *
 * @example
 * const seed = JSON.parse(await readFile('fixtures/sandbox-seed.json', 'utf8'));
 * const { app, control } = createSandbox(seed, { clock: () => Date.parse('2025-03-01T09:00:00Z') });
 * const res = await app.request('/api/v2/ping', { headers: { Authorization: `Basic ${btoa(`${token}:${key}`)}` } });
 * // res.status === 204
 * control.advanceClock(3600);
 */
export function createSandbox(seed: SandboxSeedInput, deps: SandboxDeps = {}): Sandbox {
  const parsed = parseSandboxSeed(seed);
  if (!parsed.ok) {
    throw new TypeError(
      `invalid sandbox seed:\n${parsed.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
    );
  }
  const service = new SandboxService(parsed.seed, deps);
  const control = createControl(service);
  // Not strict: `/_sandbox/` and `/_sandbox` are one route, as curl users expect.
  const app = new Hono({ strict: false });

  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () =>
        errorResponse(SandboxError.own('payloadTooLarge', 'The request body is larger than 1 MB.')),
    }),
  );

  app.onError((error, c) => {
    if (error instanceof SandboxError) return errorResponse(error);
    if (error instanceof HTTPException) {
      return errorResponse(SandboxError.invalid(error.message || 'The request could not be read.'));
    }
    // Never a stack trace to the client: the detail goes to the log only.
    service.logger.error('sandbox request failed', {
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return errorResponse(SandboxError.own('internal', 'The sandbox failed to answer this request.'));
  });

  app.notFound((c) =>
    errorResponse(
      SandboxError.own('notFound', `No such endpoint: ${c.req.method} ${new URL(c.req.url).pathname}`),
    ),
  );

  app.get('/', (c) =>
    c.json({
      service: 'punchgate sandbox print service',
      api: 'api/v2',
      editor: 'editor',
      control: '_sandbox',
    }),
  );
  app.route('/api/v2', apiRoutes(service, 2));
  app.route('/api/v1', apiRoutes(service, 1));
  app.route('/editor', editorRoutes(service));
  app.route('/_sandbox', controlRoutes(service, control));
  return { app, control };
}
