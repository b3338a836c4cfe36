/**
 * After `npm start`, the console answers at the address the demo prints, and the demo's admin token
 * (fixtures/demo.config.json) signs in to it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startDemo } from '../../../../src/runtime/demo.ts';

it('the demo: /admin/ shows the sign-in form and the demo token signs in to the overview', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'punchgate-console-'));
  const demo = await startDemo({ port: 0, quiet: true, storePath: join(folder, 'demo.db') });
  try {
    const form = await fetch(`${demo.urls.admin}/`);
    expect(await form.text()).toContain('<h1>Sign in</h1>');
    const signedIn = await fetch(`${demo.urls.admin}/ui/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'demo-admin-token-for-local-use-only' }).toString(),
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get('Set-Cookie') ?? '').split(';')[0] ?? '';
    const overview = await fetch(`${demo.urls.admin}/`, { headers: { Cookie: cookie } });
    expect(await overview.text()).toContain('<h1>Overview</h1>');
  } finally {
    await demo.close();
    await rm(folder, { recursive: true, force: true });
  }
});
