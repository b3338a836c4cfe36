/**
 * The Buyers page's test punch-out (issue 20): the buyer simulator run against a buyer's live settings,
 * in process against the gateway's own app. A cXML and an OCI buyer of the test config punch out, reach
 * the catalog and leave only a cancelled session; a buyer whose SharedSecret the simulator was handed wrong
 * (a config copy) shows the gateway's exact refusal; without the hook, or without the package, the page
 * names `@punchgate/sandbox`; a POST without the CSRF token is refused with 403 and runs nothing.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayDeps } from '../../../../src/gateway/deps.ts';
import { loadSandboxPackage } from '../../../../src/runtime/sandbox-package.ts';
import { createTestPunchout, type SimulatorKit } from '../../../../src/runtime/test-punchout.ts';
import { createStack, testConfig } from '../../../support/stack.ts';
import { signIn } from './console-support.ts';

const loadKit = () => loadSandboxPackage<SimulatorKit>(() => import('@punchgate/sandbox/buyer'));

async function consoleWith(testPunchout?: GatewayDeps['testPunchout']) {
  const stack = await createStack(
    testConfig(),
    testPunchout === undefined ? {} : { gatewayDeps: { testPunchout } },
  );
  return { stack, operator: await signIn(stack) };
}

/** The ids of the sessions the gateway opens from now on. */
function watchSessions(stack: Awaited<ReturnType<typeof createStack>>): string[] {
  const ids: string[] = [];
  const { sessions } = stack.store;
  const create = sessions.create.bind(sessions);
  sessions.create = async (input) => {
    const session = await create(input);
    ids.push(session.id);
    return session;
  };
  return ids;
}

describe('console test punch-out', () => {
  it('the Buyers page links each buyer to its test punch-out, which asks before it runs', async () => {
    const { operator } = await consoleWith(createTestPunchout(loadKit));
    const buyers = await (await operator.get('/admin/ui/buyers')).text();
    expect(buyers).toContain('href="/admin/ui/buyers/acme/test"');
    expect(buyers).toContain('href="/admin/ui/buyers/sap1/test"');
    const page = await (await operator.get('/admin/ui/buyers/acme/test')).text();
    expect(page).toContain('<form method="post" action="/admin/ui/buyers/acme/test">');
    expect(page).toContain(`name="csrf" value="${operator.csrf}"`);
    expect((await operator.get('/admin/ui/buyers/nobody/test')).status).toBe(404);
  });

  it.each(['acme', 'sap1', 'latin'])(
    '%s: setup, start page and catalog answer, the session is cancelled again',
    async (buyerId) => {
      const { stack, operator } = await consoleWith(createTestPunchout(loadKit));
      const opened = watchSessions(stack);
      const res = await operator.post(`/admin/ui/buyers/${buyerId}/test`, { csrf: operator.csrf });
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).toMatch(/The test punch-out succeeded in \d+ ms\./);
      expect(page).toContain(buyerId === 'acme' ? 'PunchOutSetupRequest' : 'OCI punch-in');
      expect(page).toContain(buyerId === 'acme' ? '200 OK' : 'redirected to the start page');
      expect(page).toContain('Start page');
      expect(page).toContain('Catalog page</th><td>ok</td><td>HTTP 200');
      expect(page).toContain('Session cancelled</th><td>ok');
      expect(opened).toHaveLength(1);
      const session = await stack.store.sessions.get(opened[0] ?? '');
      expect(session).toMatchObject({ buyerId, state: 'cancelled' });
    },
  );

  it("a SharedSecret that is not the gateway's: the gateway's exact refusal", async () => {
    const real = createTestPunchout(loadKit);
    const { operator } = await consoleWith((request) =>
      real({
        ...request,
        buyer:
          request.buyer.protocol === 'cxml'
            ? { ...request.buyer, sharedSecret: 'not-the-secret' }
            : request.buyer,
      }),
    );
    const page = await (await operator.post('/admin/ui/buyers/coupa/test', { csrf: operator.csrf })).text();
    expect(page).toMatch(/The test punch-out failed after \d+ ms\./);
    expect(page).toContain(
      'PunchOutSetupRequest</th><td>failed</td><td>401 Unauthorized: Authentication failed: the Sender SharedSecret is not valid.</td>',
    );
    expect(page).not.toContain('Catalog page');
  });

  it('without the hook (Workers) the page names the package to install', async () => {
    const { operator } = await consoleWith();
    const asked = await (await operator.get('/admin/ui/buyers/acme/test')).text();
    expect(asked).toContain('npm install @punchgate/sandbox');
    expect(asked).not.toContain('<form method="post" action="/admin/ui/buyers/acme/test">');
    const ran = await operator.post('/admin/ui/buyers/acme/test', { csrf: operator.csrf });
    expect(ran.status).toBe(200);
    expect(await ran.text()).toContain('npm install @punchgate/sandbox');
  });

  it('with the hook but without the package installed, the loader names it', async () => {
    const missing = Object.assign(
      new Error("Cannot find package '@punchgate/sandbox' imported from /srv/x.js"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    );
    const { operator } = await consoleWith(
      createTestPunchout(() => loadSandboxPackage<SimulatorKit>(() => Promise.reject(missing))),
    );
    const page = await (await operator.post('/admin/ui/buyers/acme/test', { csrf: operator.csrf })).text();
    expect(page).toContain('install it beside punchgate: npm install @punchgate/sandbox');
  });

  it('a missing or forged CSRF token: 403 and nothing runs', async () => {
    let runs = 0;
    const real = createTestPunchout(loadKit);
    const { operator } = await consoleWith((request) => {
      runs++;
      return real(request);
    });
    expect((await operator.post('/admin/ui/buyers/acme/test', {})).status).toBe(403);
    expect((await operator.post('/admin/ui/buyers/acme/test', { csrf: 'forged' })).status).toBe(403);
    expect(runs).toBe(0);
  });
});
