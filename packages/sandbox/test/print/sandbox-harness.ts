/**
 * The harness of the sandbox tests: a sandbox built from fixtures/sandbox-seed.json on a frozen clock,
 * a request helper that signs with the seed's tokens, a PIPO login helper and a webhook recorder that
 * stands in for the network.
 */
import { readFileSync } from 'node:fs';
import { createSandbox, deriveSandboxKey, type SandboxDeps } from '../../src/print/index.ts';
import type { SandboxSeedInput } from '../../src/sandbox-seed.ts';

export const FIXTURE_SEED: SandboxSeedInput = JSON.parse(
  readFileSync(new URL('../../../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
);

/** The frozen base time of every test sandbox. */
export const NOW = Date.parse('2025-03-03T09:00:00Z');

export const TOKENS = {
  /** Enterprise, the gateway demo's key. */
  gateway: '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c',
  /** Enterprise, a second key of the same license. */
  reporting: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  inactive: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  deleted: 'deadbeefdeadbeefdeadbeefdeadbeef',
  /** BusinessPlus license "Corner Print". */
  businessPlus: '5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
} as const;

/** The gateway demo key, as docs/sandbox.md documents it. */
export const GATEWAY_KEY = 'd0dd65f22482c8d918bcdf98ebba0c4ebf6f97f285c21405379dca275e7ad1e8';

const keys = new Map<string, Promise<string>>();
export function keyOf(token: string): Promise<string> {
  let key = keys.get(token);
  if (key === undefined) {
    key = deriveSandboxKey(token, 1000);
    keys.set(token, key);
  }
  return key;
}

export const basic = (token: string, key: string) => `Basic ${btoa(`${token}:${key}`)}`;

export interface CallOptions {
  /** The API token to sign with (default the gateway's); null sends no Authorization header. */
  token?: string | null;
  /** A key other than the token's derived one. */
  key?: string;
  /** The X-PN-TOKEN header. */
  pipo?: string;
  /** A JSON value (serialized) or a raw string. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RecordedDelivery {
  url: string;
  method: string;
  contentType: string | null;
  /** Every request header, lower-case names. */
  headers: Record<string, string>;
  body: unknown;
}

export interface Harness {
  app: ReturnType<typeof createSandbox>['app'];
  control: ReturnType<typeof createSandbox>['control'];
  call(method: string, path: string, options?: CallOptions): Promise<Response>;
  /** Logs a PIPO user in through the API and answers the session token. */
  login(username: string, password: string, storefrontId?: number, token?: string): Promise<string>;
  /** Deliveries the injected fetch received. */
  deliveries: RecordedDelivery[];
  /** The status a webhook target answers (default 200); a thrown error stands for an unreachable host. */
  answerFor: (url: string) => number | Error;
}

export function makeHarness(deps: SandboxDeps = {}, seed: SandboxSeedInput = FIXTURE_SEED): Harness {
  const deliveries: RecordedDelivery[] = [];
  const harness: Partial<Harness> = { deliveries, answerFor: () => 200 };
  const recorder: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const text = typeof init?.body === 'string' ? init.body : '';
    deliveries.push({
      url: String(input),
      method: init?.method ?? 'GET',
      contentType: headers.get('Content-Type'),
      headers: Object.fromEntries(headers),
      body: JSON.parse(text),
    });
    const answer = harness.answerFor!(String(input));
    if (answer instanceof Error) throw answer;
    return new Response(null, { status: answer });
  };
  const { app, control } = createSandbox(seed, { clock: () => NOW, fetch: recorder, ...deps });
  harness.app = app;
  harness.control = control;
  harness.call = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? TOKENS.gateway : options.token;
    if (token !== null) headers.Authorization = basic(token, options.key ?? (await keyOf(token)));
    if (options.pipo !== undefined) headers['X-PN-TOKEN'] = options.pipo;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    return app.request(path, { method, headers, ...(body === undefined ? {} : { body }) });
  };
  harness.login = async (username, password, storefrontId = 1, token = TOKENS.gateway) => {
    const res = await harness.call!('POST', '/api/v2/pipo/user/login', {
      token,
      body: { username, password, storefront_id: storefrontId },
    });
    if (res.status !== 200) throw new Error(`login of ${username} answered ${res.status}`);
    return (await res.json()) as string;
  };
  return harness as Harness;
}

/** The JSON error body's Message. */
export async function messageOf(res: Response): Promise<string> {
  const body = (await res.json()) as { Message: string };
  return body.Message;
}

/** Asserts an error answer: status, exact body (`null` for an empty body). */
export async function errorOf(res: Response): Promise<{ status: number; message: string | null }> {
  const text = await res.text();
  return {
    status: res.status,
    message: text === '' ? null : (JSON.parse(text) as { Message: string }).Message,
  };
}
