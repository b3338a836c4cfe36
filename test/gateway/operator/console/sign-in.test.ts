/**
 * Signing in to the operator console (issue 20): the admin token in a form, a session cookie with exactly
 * the attributes the issue names, a clear message for a wrong or expired sign-in, the API's throttle, and
 * the CSRF token every state-changing form must carry.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createOrderStack, orderConfig } from '../../../support/order-flow.ts';
import { consoleRequest, formPost, signIn } from './console-support.ts';

const stackWith = (publicUrl?: string) =>
  createOrderStack(orderConfig(publicUrl === undefined ? {} : { publicUrl }));

describe('console sign-in', () => {
  it('/admin/ shows the sign-in form when not signed in', async () => {
    const stack = await stackWith();
    const res = await consoleRequest(stack, '/admin/');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<h1>Sign in</h1>');
    expect(page).toMatch(/<label for="token">Admin token<\/label>/);
    expect(page).toContain('action="/admin/ui/sign-in"');
  });

  it('the right token sets an HttpOnly, SameSite=Strict, /admin, 8-hour cookie that is not the token', async () => {
    const stack = await stackWith();
    const res = await formPost(stack, '/admin/ui/sign-in', { token: ADMIN_TOKEN });
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/admin/');
    const cookie = res.headers.get('Set-Cookie') ?? '';
    expect(cookie).toMatch(
      /^punchgate_console=[\w-]+\.[\w-]+; Max-Age=28800; Path=\/admin; HttpOnly; SameSite=Strict$/,
    );
    expect(cookie).not.toContain(ADMIN_TOKEN);
  });

  it('the cookie is Secure when the public URL is https', async () => {
    const stack = await stackWith('https://gateway.example');
    const res = await formPost(stack, '/admin/ui/sign-in', { token: ADMIN_TOKEN });
    expect(res.headers.get('Set-Cookie')).toMatch(
      /; Max-Age=28800; Path=\/admin; HttpOnly; SameSite=Strict; Secure$/,
    );
  });

  it('a wrong token gets a clear message and no cookie', async () => {
    const stack = await stackWith();
    const res = await formPost(stack, '/admin/ui/sign-in', { token: 'not-the-token' });
    expect(res.status).toBe(401);
    expect(res.headers.get('Set-Cookie')).toBeNull();
    expect(await res.text()).toContain('That is not the admin token. Check it and try again.');
  });

  it('the 31st wrong token within 15 minutes locks the address: 429 with Retry-After, the right token too', async () => {
    const stack = await stackWith();
    for (let i = 0; i < 30; i++) {
      expect((await formPost(stack, '/admin/ui/sign-in', { token: `wrong-${i}` })).status).toBe(401);
    }
    const locked = await formPost(stack, '/admin/ui/sign-in', { token: ADMIN_TOKEN });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('Retry-After')).toBe('900');
    expect(locked.headers.get('Set-Cookie')).toBeNull();
    expect(await locked.text()).toContain(
      'Too many wrong admin tokens from this address; try again in 900 seconds.',
    );
    stack.clock.advance(901);
    expect((await formPost(stack, '/admin/ui/sign-in', { token: ADMIN_TOKEN })).status).toBe(303);
  });

  it('console and API share one counter: 20 wrong on the API and 11 on the form lock the address on both', async () => {
    const stack = await createOrderStack(orderConfig(), {
      gatewayDeps: { clientAddress: (c) => c.req.header('X-Test-Address') ?? '192.0.2.10' },
    });
    const api = (token: string, address = '192.0.2.10') =>
      consoleRequest(stack, '/admin/overview', {
        headers: { Authorization: `Bearer ${token}`, 'X-Test-Address': address },
      });
    for (let i = 0; i < 20; i++) expect((await api(`wrong-${i}`)).status).toBe(401);
    for (let i = 0; i < 10; i++) {
      expect((await formPost(stack, '/admin/ui/sign-in', { token: `wrong-form-${i}` })).status).toBe(401);
    }
    // The 31st try, the form's 11th: refused as throttled, and so is the right token, on either side.
    const eleventh = await formPost(stack, '/admin/ui/sign-in', { token: 'wrong-form-10' });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('Retry-After')).toBe('900');
    const form = await formPost(stack, '/admin/ui/sign-in', { token: ADMIN_TOKEN });
    expect(form.status).toBe(429);
    expect(form.headers.get('Retry-After')).toBe('900');
    expect(form.headers.get('Set-Cookie')).toBeNull();
    const bearer = await api(ADMIN_TOKEN);
    expect(bearer.status).toBe(429);
    expect(bearer.headers.get('Retry-After')).toBe('900');
    // Another address is not affected, on either side.
    expect((await api(ADMIN_TOKEN, '192.0.2.11')).status).toBe(200);
    const elsewhere = await consoleRequest(stack, '/admin/ui/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Test-Address': '192.0.2.11' },
      body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
    });
    expect(elsewhere.status).toBe(303);
  });

  it('a session expires after 8 hours: the page says so and asks to sign in again', async () => {
    const stack = await stackWith();
    const operator = await signIn(stack);
    stack.clock.advance(8 * 3600 - 1);
    expect((await operator.get('/admin/')).status).toBe(200);
    stack.clock.advance(2);
    const expired = await operator.get('/admin/');
    expect(expired.status).toBe(401);
    const page = await expired.text();
    expect(page).toContain('Your session has expired. Sign in again.');
    expect(page).toContain('<h1>Sign in</h1>');
  });

  it('a forged cookie is no session', async () => {
    const stack = await stackWith();
    const operator = await signIn(stack);
    const [claims] = operator.cookie.split('=')[1]?.split('.') ?? [];
    const forged = `punchgate_console=${claims}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    const res = await consoleRequest(stack, '/admin/', { headers: { Cookie: forged } });
    expect(await res.text()).toContain('<h1>Sign in</h1>');
  });

  it('a cookie of an earlier version (an HS256 JWT under the same key) stays signed in until it expires', async () => {
    const stack = await stackWith();
    const derive = (label: string, secret: string) =>
      createHash('sha256').update(`punchgate:${label}:${secret}`).digest();
    const nowSeconds = Math.floor(stack.clock.now().getTime() / 1000);
    const claims = {
      sid: 'session-of-before',
      csrf: 'csrf-of-before-0123456789',
      adm: derive('admin-console-token', ADMIN_TOKEN).subarray(0, 16).toString('base64url'),
      pur: 'admin-console',
      iat: nowSeconds,
      exp: nowSeconds + 60,
    };
    const signed = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const key = derive('admin-console', stack.gateway.context.config.signingKey);
    const jwt = `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
    const cookie = `punchgate_console=${jwt}`;
    const page = await consoleRequest(stack, '/admin/', { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="csrf-of-before-0123456789"');
    stack.clock.advance(60);
    const expired = await consoleRequest(stack, '/admin/', { headers: { Cookie: cookie } });
    expect(expired.status).toBe(401);
    expect(await expired.text()).toContain('Your session has expired. Sign in again.');
  });

  it('the admin token is no session cookie, and the JSON API still wants its bearer token', async () => {
    const stack = await stackWith();
    const res = await consoleRequest(stack, '/admin/', {
      headers: { Cookie: `punchgate_console=${ADMIN_TOKEN}` },
    });
    expect(await res.text()).toContain('<h1>Sign in</h1>');
    const operator = await signIn(stack);
    const api = await consoleRequest(stack, '/admin/orders', { headers: { Cookie: operator.cookie } });
    expect(api.status).toBe(401);
  });

  it('signs out: the cookie is cleared, with the CSRF token only', async () => {
    const stack = await stackWith();
    const operator = await signIn(stack);
    const refused = await operator.post('/admin/ui/sign-out', {});
    expect(refused.status).toBe(403);
    expect(refused.headers.get('Set-Cookie')).toBeNull();
    const out = await operator.post('/admin/ui/sign-out', { csrf: operator.csrf });
    expect(out.status).toBe(200);
    expect(out.headers.get('Set-Cookie')).toBe(
      'punchgate_console=; Max-Age=0; Path=/admin; HttpOnly; SameSite=Strict',
    );
    expect(await out.text()).toContain('You are signed out.');
  });

  it('sign-out ends the session on the server: a copy of the cookie is refused, after a restart too', async () => {
    const stack = await stackWith();
    const operator = await signIn(stack);
    const other = await signIn(stack);
    expect((await operator.post('/admin/ui/sign-out', { csrf: operator.csrf })).status).toBe(200);
    for (const path of ['/admin/', '/admin/ui/orders']) {
      const page = await operator.get(path);
      expect(page.status).toBe(401);
      const text = await page.text();
      expect(text).toContain('This session was signed out. Sign in again.');
      expect(text).toContain('<h1>Sign in</h1>');
    }
    // A form of the old session changes nothing.
    const form = await operator.post('/admin/ui/sign-out', { csrf: operator.csrf });
    expect(form.status).toBe(403);
    expect(await form.text()).toContain('Nothing was changed.');
    // Another session is not affected; a restarted gateway on the same store still refuses the old one.
    expect((await other.get('/admin/')).status).toBe(200);
    await stack.restartGateway(stack.store);
    expect((await operator.get('/admin/')).status).toBe(401);
    expect((await other.get('/admin/')).status).toBe(200);
    // Once it would have expired anyway, it says so as for any other session.
    stack.clock.advance(8 * 3600 + 1);
    expect(await (await operator.get('/admin/')).text()).toContain(
      'Your session has expired. Sign in again.',
    );
  });
});

describe('console sessions and admin token rotation', () => {
  const NEW_TOKEN = 'rotated-admin-token-0123456789abcdef';

  it('a session signed in with a token removed from the config is refused at once; the others stay', async () => {
    const stack = await createOrderStack(orderConfig({ previousAdminTokens: [NEW_TOKEN] }));
    const withOld = await signIn(stack, ADMIN_TOKEN);
    const withNew = await signIn(stack, NEW_TOKEN);
    expect(withOld.cookie).not.toContain(ADMIN_TOKEN);

    // Rotated: the new token is current, the old one still accepted as previous. Both sessions stay.
    await stack.restartGateway(
      stack.store,
      orderConfig({ adminToken: NEW_TOKEN, previousAdminTokens: [ADMIN_TOKEN] }),
    );
    expect((await withOld.get('/admin/')).status).toBe(200);
    expect((await withNew.get('/admin/')).status).toBe(200);

    // The old token removed: its session gets the sign-in page and its forms change nothing.
    await stack.restartGateway(stack.store, orderConfig({ adminToken: NEW_TOKEN }));
    const page = await withOld.get('/admin/');
    expect(page.status).toBe(401);
    const text = await page.text();
    expect(text).toContain('Your session has expired. Sign in again.');
    expect(text).toContain('<h1>Sign in</h1>');
    expect((await withOld.post('/admin/ui/sign-out', { csrf: withOld.csrf })).status).toBe(403);
    expect((await withNew.get('/admin/')).status).toBe(200);
  });
});

describe('console CSRF', () => {
  it("a missing, forged or other session's CSRF token is a 403 page", async () => {
    const stack = await stackWith();
    const operator = await signIn(stack);
    const other = await signIn(stack);
    expect(other.csrf).not.toBe(operator.csrf);
    for (const fields of [{}, { csrf: 'forged' }, { csrf: other.csrf }]) {
      const res = await operator.post('/admin/ui/sign-out', fields);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('Nothing was changed.');
    }
    // Without a session at all, the same.
    expect((await formPost(stack, '/admin/ui/sign-out', { csrf: operator.csrf })).status).toBe(403);
  });
});
