/**
 * The console test kit: a signed-in operator over plain HTTP against an in-process gateway, with the
 * session cookie and the CSRF token read from the pages as a browser would.
 */
import { expect } from 'vitest';
import { type Fault, faultInjector } from '../../../support/fault-injector.ts';
import {
  ADMIN_TOKEN,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../../support/order-flow.ts';
import { GATEWAY_ORIGIN, type Stack } from '../../../support/stack.ts';

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

/** The print service's create call, whose answer a fault can lose. */
export const CREATE_PATH = /^POST \/api\/v2\/pipo\/order\/create$/;
const LOST: Fault = { kind: 'lost-answer' };
const OUTAGE: Fault = { kind: 'status', status: 503 };

/** How many print orders the gateway asked the print service to create. */
export const creates = (stack: OrderStack) =>
  stack.upstreamCalls.filter((call) => call === 'POST /api/v2/pipo/order/create').length;

/** Drains the worker, then lets the retry delays run out a few times, until the PO has settled. */
export async function settle(stack: OrderStack): Promise<void> {
  await drain(stack);
  for (let round = 0, wait = 30; round < 6; round++, wait *= 2) {
    stack.clock.advance(wait);
    await drain(stack);
  }
}

/** PO-CUT, whose create answer was lost while the search could not read: waiting for an operator. */
export async function parkedPo() {
  const faults = faultInjector();
  const stack = await createOrderStack(orderConfig(), { wrapPrintFetch: faults.wrap, printTimeoutMs: 200 });
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards']);
  faults.inject({ match: CREATE_PATH, fault: LOST, times: 1 });
  faults.inject({ match: /^GET \/api\/v2\/report\/order_details$/, fault: OUTAGE });
  faults.inject({ match: /^GET \/api\/v2\/order\/\d+$/, fault: OUTAGE });
  expect(await sendOrder(stack, { orderID: 'PO-CUT', lines: linesOf(cart) })).toMatchObject({ code: 200 });
  await settle(stack);
  faults.clear();
  const po = (await stack.store.orders.list()).items.find((o) => o.orderId === 'PO-CUT');
  expect(po?.state).toBe('needs_operator');
  const [made] = await printOrdersFor(stack, 'PO-CUT');
  return { stack, id: po?.id ?? '', made: made ?? 0 };
}
