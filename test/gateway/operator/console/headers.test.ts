/**
 * Every console page, whatever its status, carries the console's Content-Security-Policy (no script, no
 * framing at all) and `no-store`: the pages show buyers' orders and carry the session's CSRF token.
 */
import { describe, expect, it } from 'vitest';
import { createOrderStack, orderConfig } from '../../../support/order-flow.ts';
import type { Stack } from '../../../support/stack.ts';
import { consoleRequest, formPost, type Operator, signIn } from './console-support.ts';

/** Each console page an operator can reach, with how to reach it. */
const PAGES: ReadonlyArray<[string, (stack: Stack, operator: Operator) => Promise<Response>]> = [
  ['sign-in form', (stack) => consoleRequest(stack, '/admin/')],
  ['wrong token', (stack) => formPost(stack, '/admin/ui/sign-in', { token: 'wrong' })],
  ['overview', (_, operator) => operator.get('/admin/')],
  ['purchase orders', (_, operator) => operator.get('/admin/ui/orders')],
  ['buyers', (_, operator) => operator.get('/admin/ui/buyers')],
  ['refusals', (_, operator) => operator.get('/admin/ui/refusals')],
  ['purchase order not found', (_, operator) => operator.get('/admin/ui/orders/none')],
  ['console page not found', (_, operator) => operator.get('/admin/ui/nothing-here')],
  ['signed-out page', (stack) => consoleRequest(stack, '/admin/ui/orders')],
  ['CSRF refusal', (_, operator) => operator.post('/admin/ui/sign-out', {})],
  ['sign-out', (_, operator) => operator.post('/admin/ui/sign-out', { csrf: operator.csrf })],
];

describe('console page headers', () => {
  it.each(PAGES)('%s: CSP without script and with frame-ancestors none, no-store', async (name, open) => {
    const stack = await createOrderStack(orderConfig());
    const operator = await signIn(stack);
    const res = await open(stack, operator);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    // The Buyers page's copy buttons bring one script, allowed by its hash; every other page has none.
    const script = name === 'buyers' ? "'sha256-[\\w+/=]+'" : "'none'";
    expect(csp).toMatch(
      new RegExp(`^default-src 'none'; style-src 'sha256-[\\w+/=]+'; script-src ${script}; `),
    );
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('X-Frame-Options')).toBe('DENY');
    const page = await res.text();
    // No script (but the copy buttons' inline one) and nothing loaded or linked from another site (a buyer's
    // URL may be shown as text).
    expect(page.match(/<script/g) ?? []).toHaveLength(name === 'buyers' ? 1 : 0);
    expect(page).not.toMatch(/<script\s+src|(?:src|href|action)="(?:https?:)?\/\//);
    expect(page).toContain('<a class="skip" href="#main">Skip to content</a>');
  });
});
