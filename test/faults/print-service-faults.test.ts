import { afterAll, describe, expect, it } from 'vitest';
import { setupRequest } from '../support/cxml-documents.ts';
import { type Fault, faultInjector } from '../support/fault-injector.ts';
import { findForms, findLinks, formBody } from '../support/html-forms.ts';
import { designProduct, startUrlOf, statusOf } from '../support/punchout-flow.ts';
import { type BrowserResponse, createStack, type Stack, testConfig } from '../support/stack.ts';

/** What each fault produced, printed at the end for the reliability table (docs/reliability.md). */
const outcomes: string[] = [];
afterAll(() => console.log(`[faults]\n${outcomes.join('\n')}`));

const API = /^[A-Z]+ \/api\/v2\//;
const STACK_TRACE = /\bat \S+ \(|\.ts:\d+|node:internal|TypeError|DOMException|ECONNRESET/;

const FAULTS: [string, Fault][] = [
  ['times out', { kind: 'timeout' }],
  ['hangs until the client gives up', { kind: 'hang' }],
  ['resets the connection', { kind: 'reset' }],
  ['answers 500', { kind: 'status', status: 500 }],
  ['answers 502', { kind: 'status', status: 502 }],
  ['answers 503 with Retry-After', { kind: 'status', status: 503, headers: { 'Retry-After': '120' } }],
  ['answers 504', { kind: 'status', status: 504 }],
  ['returns malformed JSON', { kind: 'malformed-json' }],
  ['returns an HTML page with 200', { kind: 'status', status: 200, body: '<html>maintenance</html>' }],
];

async function faultyStack() {
  const faults = faultInjector();
  const stack = await createStack(testConfig(), { wrapPrintFetch: faults.wrap, printTimeoutMs: 200 });
  return { stack, faults };
}

/** A clear error page: HTML, the given status, the message, no trace of the failure's internals. */
function expectClearPage(page: BrowserResponse, status: number, message: string): void {
  expect(page.status).toBe(status);
  expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
  expect(page.text).toContain(message);
  expect(page.text).not.toMatch(STACK_TRACE);
}

describe('punch-in while the print service misbehaves: cXML Status 500 (temporary), never a trace', () => {
  it.each(FAULTS)('the service %s', async (label, fault) => {
    const { stack, faults } = await faultyStack();
    faults.inject({ match: API, fault });
    const started = performance.now();
    const answer = await stack.postCxml(setupRequest());
    const ms = performance.now() - started;
    const status = statusOf(answer);
    outcomes.push(`setup, service ${label}: Status ${status.code} "${status.detail}" in ${ms.toFixed(0)} ms`);
    expect(status.code).toBe(500);
    expect(status.text).toBe('Internal Server Error');
    expect(status.detail).toMatch(
      /^The print service could not [a-z -]+ \((timeout|unavailable|invalid_response)( \d{3})?\)\.$/,
    );
    expect(answer).not.toMatch(STACK_TRACE);
    expect(faults.applied.length).toBeGreaterThan(0);
    // The same buyer gets through as soon as the service is back.
    faults.clear();
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(200);
  });

  it('a slow service is waited for', async () => {
    const { stack, faults } = await faultyStack();
    faults.inject({ match: API, fault: { kind: 'slow', ms: 50 } });
    const status = statusOf(await stack.postCxml(setupRequest()));
    outcomes.push(`setup, service slow (50 ms a call): Status ${status.code}`);
    expect(status.code).toBe(200);
  });
});

describe('pages while the print service misbehaves: a clear page, and the session carries on after', () => {
  async function openCatalog(stack: Stack) {
    return stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
  }

  it.each(FAULTS)('opening the editor when the service %s', async (label, fault) => {
    const { stack, faults } = await faultyStack();
    const catalog = await openCatalog(stack);
    // Past the reuse window the gateway asks the service whether the PIPO token still lives.
    stack.clock.advance(11 * 60);
    faults.inject({ match: API, fault });
    const link = findLinks(catalog.text).find((l) => l.text === 'Design Business cards')?.href ?? '';
    const page = await stack.browse(link);
    outcomes.push(`editor hand-off, service ${label}: HTTP ${page.status}`);
    expectClearPage(page, 503, 'The print service is not answering; please try again.');
    faults.clear();
    const cart = await designProduct(stack, catalog, 'Business cards');
    expect(cart.status).toBe(200);
    expect(cart.text).toContain('Business cards');
  });

  it.each(FAULTS)('returning from the editor when the service %s', async (label, fault) => {
    const { stack, faults } = await faultyStack();
    const catalog = await openCatalog(stack);
    const link = findLinks(catalog.text).find((l) => l.text === 'Design Business cards')?.href ?? '';
    const editor = await stack.browse(link);
    const save = findForms(editor.text).find((f) => f.action.includes('save'));
    const saved = await stack.request(new URL(save?.action ?? '', editor.url).toString(), {
      method: 'POST',
      body: formBody(save?.fields ?? []),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const returnUrl = saved.headers.get('Location') ?? '';
    expect(returnUrl).toContain('/punchout/return/');
    faults.inject({ match: /^GET \/api\/v2\/pipo\/project\/\d+$/, fault });
    const page = await stack.browse(returnUrl);
    outcomes.push(`editor return, service ${label}: HTTP ${page.status}`);
    expectClearPage(page, 503, 'The print service is not answering; please try again.');
    // The return link still works once the service is back: the design is not lost.
    faults.clear();
    const cart = await stack.browse(returnUrl);
    expect(cart.status).toBe(200);
    expect(cart.url).toMatch(/\/cart$/);
    expect(cart.text).toContain('Business cards');
  });
});

describe('a PIPO token that expires mid-session', () => {
  it('between the editor and the return: the gateway logs in again and adds the design', async () => {
    const { stack } = await faultyStack();
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
    const link = findLinks(catalog.text).find((l) => l.text === 'Design Business cards')?.href ?? '';
    const editor = await stack.browse(link);
    const save = findForms(editor.text).find((f) => f.action.includes('save'));
    const saved = await stack.request(new URL(save?.action ?? '', editor.url).toString(), {
      method: 'POST',
      body: formBody(save?.fields ?? []),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // The service drops idle sessions; the user took a long coffee break before the redirect landed.
    stack.clock.advance(2 * 3600);
    const logins = stack.upstreamCalls.length;
    const cart = await stack.browse(saved.headers.get('Location') ?? '');
    expect(cart.status).toBe(200);
    expect(cart.text).toContain('Business cards');
    expect(stack.upstreamCalls.slice(logins)).toContain('POST /api/v2/pipo/user/login');
  });
});
