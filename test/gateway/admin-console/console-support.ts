/**
 * The console test kit: a signed-in operator over plain HTTP against an in-process gateway, with the
 * session cookie and the CSRF token read from the pages as a browser would.
 */
import { expect } from 'vitest';
import { ADMIN_TOKEN } from '../../support/order-flow.ts';
import { GATEWAY_ORIGIN, type Stack } from '../../support/stack.ts';

export interface Operator {
  cookie: string;
  /** The CSRF token of the operator's session, as the pages' forms carry it. */
  csrf: string;
  get(path: string): Promise<Response>;
  post(path: string, fields: Record<string, string>): Promise<Response>;
}

export function consoleRequest(stack: Stack, path: string, init: RequestInit = {}): Promise<Response> {
  return Promise.resolve(stack.gateway.app.fetch(new Request(`${GATEWAY_ORIGIN}${path}`, init)));
}

export function formPost(
  stack: Stack,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
): Promise<Response> {
  return consoleRequest(stack, path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(cookie !== undefined && { Cookie: cookie }),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The value of the first hidden `csrf` field on a page. */
export function csrfOf(page: string): string {
  const found = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  expect(found).toBeDefined();
  return found ?? '';
}

export async function signIn(stack: Stack, token = ADMIN_TOKEN): Promise<Operator> {
  const res = await formPost(stack, '/admin/ui/sign-in', { token });
  expect(res.status).toBe(303);
  const cookie = (res.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';
  const get = (path: string) => consoleRequest(stack, path, { headers: { Cookie: cookie } });
  const csrf = csrfOf(await (await get('/admin/')).text());
  return {
    cookie,
    csrf,
    get,
    post: (path, fields) => formPost(stack, path, fields, cookie),
  };
}
