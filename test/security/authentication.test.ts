import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { constantTimeEqual } from '../../src/kernel/constant-time.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { ADMIN_TOKEN, adminRequest } from '../support/order-flow.ts';
import { statusOf } from '../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, testConfig } from '../support/stack.ts';

// Every secret check goes through the one constant-time comparison; the spy records what it compared.
vi.mock('../../src/kernel/constant-time.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/kernel/constant-time.ts')>();
  return { constantTimeEqual: vi.fn(original.constantTimeEqual) };
});
const compared = vi.mocked(constantTimeEqual);
beforeEach(() => compared.mockClear());

describe('secrets are compared in constant time', () => {
  it('the cXML SharedSecret, right or wrong', async () => {
    const stack = await createStack(testConfig());
    expect(statusOf(await stack.postCxml(setupRequest({ secret: 'guess' }))).code).toBe(401);
    expect(compared).toHaveBeenCalledWith('guess', 'acme-secret');
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(200);
    expect(compared).toHaveBeenCalledWith('acme-secret', 'acme-secret');
  });

  it('the OCI password', async () => {
    const stack = await createStack(testConfig());
    const query = new URLSearchParams({
      USERNAME: 'sap1',
      PASSWORD: 'wrong-password',
      HOOK_URL: 'https://srm.acme.example/hook',
    });
    const res = await stack.request(`${GATEWAY_ORIGIN}/oci/sap1?${query}`);
    expect(res.status).toBe(401);
    expect(compared).toHaveBeenCalledWith('wrong-password', 'sap1-secret');
  });

  it('the admin token', async () => {
    const stack = await createStack(testConfig());
    expect((await adminRequest(stack, '/admin/orders', {}, 'not-the-token')).status).toBe(401);
    expect(compared).toHaveBeenCalledWith('not-the-token', ADMIN_TOKEN);
  });

  it('no source file compares a secret with === or !==', () => {
    const SECRET = /(secret|password|adminToken|apiKey|apiToken)/i;
    const COMPARISON = /([\w.?[\]'"]+)\s*(===|!==)\s*([\w.?[\]'"]+)/g;
    // Against a literal (an error code, an empty string) nothing secret is compared.
    const harmless = (operand: string) => /^(undefined|null|\d+|'[^']*'|"[^"]*")$/.test(operand);
    const offenders: string[] = [];
    const root = join(import.meta.dirname, '../../src');
    const walk = (folder: string): string[] =>
      readdirSync(folder).flatMap((name) => {
        const path = join(folder, name);
        return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
      });
    // The gateway's sources only: the sandbox package emulates the print service with secrets of its own.
    for (const file of walk(root)) {
      for (const [index, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        for (const m of line.matchAll(COMPARISON)) {
          const [, left = '', , right = ''] = m;
          if ((SECRET.test(left) || SECRET.test(right)) && !harmless(left) && !harmless(right)) {
            offenders.push(`${file.slice(root.length)}:${index + 1}: ${line.trim()}`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('the admin API wants its bearer token', () => {
  it.each([
    ['no Authorization header', ''],
    ['a wrong token', 'wrong'],
    ['the token with a suffix', `${ADMIN_TOKEN}x`],
    ['a prefix of the token', ADMIN_TOKEN.slice(0, -1)],
    ['the token in another case', ADMIN_TOKEN.toUpperCase()],
  ])('refuses %s with 401', async (_case, token) => {
    const stack = await createStack(testConfig());
    const res = await adminRequest(stack, '/admin/orders', {}, token);
    expect(res.status).toBe(401);
    const body = await res.text();
    expect(body).toContain('A valid admin bearer token is required.');
    expect(body).not.toContain(ADMIN_TOKEN);
  });

  it('refuses another scheme carrying the right token', async () => {
    const stack = await createStack(testConfig());
    for (const header of [`Basic ${btoa(`admin:${ADMIN_TOKEN}`)}`, ADMIN_TOKEN, `Token ${ADMIN_TOKEN}`]) {
      const res = await stack.gateway.app.fetch(
        new Request(`${GATEWAY_ORIGIN}/admin/orders`, { headers: { Authorization: header } }),
      );
      expect(res.status, header).toBe(401);
    }
  });

  it('answers the right token', async () => {
    const stack = await createStack(testConfig());
    expect((await adminRequest(stack, '/admin/orders')).status).toBe(200);
  });
});
