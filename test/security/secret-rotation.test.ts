/**
 * Rotating secrets without downtime (issue 17, deliverable 8): a signing key moved to
 * `previousSigningKeys` still opens the links and the sealed values made under it while new ones are made
 * with the new key; previous admin tokens, SharedSecrets and OCI passwords are accepted besides the
 * current ones; the config check refuses weak or misplaced previous values; no previous secret is logged.
 */
import { tokenClaims } from '../support/token-claims.ts';
import { describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../schemas/config.ts';
import { createCxmlSenders } from '../../src/gateway/cxml/authenticate.ts';
import { GatewayError } from '../../src/gateway/http/errors.ts';
import { eventUrl } from '../../src/gateway/orders/events.ts';
import { createTokenService } from '../../src/gateway/punchout/tokens.ts';
import { createPrintApi } from '../../src/print-api/index.ts';
import { loadConfig } from '../../src/runtime/host.ts';
import { capturingLogger } from '../support/capturing-logger.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { adminRequest, createOrderStack, orderConfig, restartWorker } from '../support/order-flow.ts';
import { designProduct, startUrlOf, statusOf } from '../support/punchout-flow.ts';
import {
  createStack,
  GATEWAY_KEY,
  GATEWAY_ORIGIN,
  GATEWAY_TOKEN,
  SANDBOX_ORIGIN,
  type Stack,
  testConfig,
} from '../support/stack.ts';

const OLD_KEY = 'old-signing-key-0123456789abcdef-before';
const NEW_KEY = 'new-signing-key-0123456789abcdef-after!';
const STRANGER_KEY = 'a-key-in-neither-list-0123456789abcdef';

const beforeRotation = (overrides: Partial<GatewayConfigInput> = {}) =>
  testConfig({ signingKey: OLD_KEY, ...overrides });
const afterRotation = (overrides: Partial<GatewayConfigInput> = {}) =>
  testConfig({ signingKey: NEW_KEY, previousSigningKeys: [OLD_KEY], ...overrides });

/** The session token of a gateway page URL (`/punchout/s/<token>/…`). */
const sessionTokenOf = (url: string) => /\/punchout\/s\/([^/?]+)/.exec(url)?.[1] ?? '';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof GatewayError ? error.code : 'other';
  }
}

/** A punch-out as jroe with one design saved; the catalog URL, the cart URL and the design's id. */
async function punchOutWithDesign(stack: Stack) {
  const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
  expect(catalog.status).toBe(200);
  const cart = await designProduct(stack, catalog, 'Business cards', { Name: 'Jane Roe' });
  expect(cart.status).toBe(200);
  const sid = String(tokenClaims(sessionTokenOf(cart.url)).sid);
  const session = await stack.store.sessions.get(sid);
  const line = (await stack.store.cart.listBySession(sid))[0];
  return { catalog, cart, session, designId: line?.designId };
}

const calls = (stack: Stack, call: string) => stack.upstreamCalls.filter((c) => c === call).length;

describe('rotating the signing key', () => {
  it('session links signed and PIPO tokens sealed under the old key still work; new links use the new key', async () => {
    const stack = await createStack(beforeRotation());
    const before = await punchOutWithDesign(stack);

    await stack.restartGateway(stack.store, afterRotation());
    // The open session's pages, through a link signed with the old key, and its editor (the session's
    // PIPO token was sealed with the old key).
    const cart = await stack.browse(before.cart.url);
    expect(cart.status, cart.text.slice(0, 300)).toBe(200);
    expect(cart.text).toContain('Business cards');
    const again = await designProduct(stack, await stack.browse(before.catalog.url), 'A5 flyer');
    expect(again.status).toBe(200);

    // A new punch-out is signed with the new key only.
    const fresh = await stack.browse(startUrlOf(await stack.postCxml(setupRequest({ buyerCookie: 'c-2' }))));
    expect(fresh.status).toBe(200);
    const token = sessionTokenOf(fresh.url);
    const now = stack.clock.now();
    expect(await codeOf((await createTokenService(OLD_KEY)).verify(token, 'session', now))).toBe(
      'token_invalid',
    );
    expect(await codeOf((await createTokenService(NEW_KEY)).verify(token, 'session', now))).toBeUndefined();

    // A key in neither list signs nothing.
    const sid = String(tokenClaims(token).sid);
    const foreign = await (await createTokenService(STRANGER_KEY)).sign({ sid, pur: 'session' }, 600, now);
    expect((await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${foreign}/cart`)).status).toBe(403);

    // Removing the old key is what ends the links made under it.
    await stack.restartGateway(stack.store, testConfig({ signingKey: NEW_KEY }));
    expect((await stack.browse(before.cart.url)).status).toBe(403);
    expect((await stack.browse(`${GATEWAY_ORIGIN}/punchout/s/${token}/cart`)).status).toBe(200);
  });

  it("a mapped user's stored print-service password sealed under the old key still logs in, and is sealed again with the new one", async () => {
    const stack = await createStack(beforeRotation());
    const before = await punchOutWithDesign(stack);
    const userRef = before.session?.pipoUserRef ?? '';
    const mapping = await stack.store.users.get('acme', userRef);
    expect(mapping).toBeDefined();
    const created = calls(stack, 'POST /api/v2/pipo/user/create');
    expect(created).toBe(1);

    // Past the PIPO token reuse, so the gateway must log in with the stored password.
    stack.clock.advance(3600);
    await stack.restartGateway(stack.store, afterRotation());
    const logins = calls(stack, 'POST /api/v2/pipo/user/login');
    const after = await punchOutWithDesign(stack);
    expect(calls(stack, 'POST /api/v2/pipo/user/login')).toBe(logins + 1);
    expect(calls(stack, 'POST /api/v2/pipo/user/create'), 'no new account').toBe(created);
    expect(after.session?.pipoUserRef).toBe(userRef);
    const remapped = await stack.store.users.get('acme', userRef);
    expect(remapped).toMatchObject({ username: mapping?.username, pipoUserId: mapping?.pipoUserId });

    // Sealed again with the new key at that login: the old key is no longer needed for this user.
    expect(remapped?.passwordEnc).not.toBe(mapping?.passwordEnc);
    const newOnly = await createTokenService(NEW_KEY);
    const password = await newOnly.decrypt(remapped?.passwordEnc ?? '');
    expect(await (await createTokenService(OLD_KEY)).decrypt(mapping?.passwordEnc ?? '')).toBe(password);

    // The same print-service user: the design of the first punch-out is still theirs.
    const pipoToken = await newOnly.decrypt(after.session?.pipoToken?.token ?? '');
    const api = createPrintApi({
      baseUrl: SANDBOX_ORIGIN,
      token: GATEWAY_TOKEN,
      key: GATEWAY_KEY,
      fetch: (input, init) => Promise.resolve(stack.sandbox.app.fetch(new Request(input, init))),
      retries: 0,
    });
    const projects = await api.pipo.listProjects(pipoToken);
    expect(projects.map((p) => p.id)).toEqual(expect.arrayContaining([before.designId, after.designId]));
  });

  it('event URLs signed with the old key are accepted until the new hooks replace them', async () => {
    const stack = await createOrderStack(orderConfig({ signingKey: OLD_KEY }));
    expect((await stack.worker.startup()).map((r) => r.outcome)).toEqual(['created', 'created']);
    const oldUrl = await eventUrl(stack.gateway.context, 'demo', 'order_updated');
    expect((await stack.api.listHooks()).map((h) => h.target_url)).toContain(oldUrl);
    const deliver = (url: string) =>
      stack.gateway.app.fetch(
        new Request(url, {
          method: 'POST',
          body: '[{"id":1}]',
          headers: { 'Content-Type': 'application/json' },
        }),
      );

    await stack.restartGateway(
      stack.store,
      orderConfig({ signingKey: NEW_KEY, previousSigningKeys: [OLD_KEY] }),
    );
    // Before the new gateway has registered its hooks, a delivery to the old URL verifies.
    expect((await deliver(oldUrl)).status).toBe(202);
    const newUrl = await eventUrl(stack.gateway.context, 'demo', 'order_updated');
    expect(newUrl).not.toBe(oldUrl);

    expect((await restartWorker(stack).startup()).map((r) => r.outcome)).toEqual(['created', 'created']);
    const hooks = (await stack.api.listHooks()).map((h) => h.target_url);
    expect(hooks).toHaveLength(2);
    expect(hooks).toContain(newUrl);
    expect(hooks).not.toContain(oldUrl);
    expect((await deliver(newUrl)).status).toBe(202);
    // A delivery still in flight to the old URL is accepted while the old key is kept.
    expect((await deliver(oldUrl)).status).toBe(202);
  });
});

describe('previous admin tokens, SharedSecrets and OCI passwords', () => {
  const OLD_ADMIN = 'old-admin-token-0123456789abcdef-before';
  const REMOVED_ADMIN = 'removed-admin-token-0123456789abcdef';

  it('the admin API accepts the previous token and refuses a removed one', async () => {
    const stack = await createStack(testConfig({ previousAdminTokens: [OLD_ADMIN] }));
    expect((await adminRequest(stack, '/admin/orders')).status).toBe(200);
    expect((await adminRequest(stack, '/admin/orders', {}, OLD_ADMIN)).status).toBe(200);
    expect((await adminRequest(stack, '/admin/orders', {}, REMOVED_ADMIN)).status).toBe(401);
    await stack.restartGateway(stack.store, testConfig());
    expect((await adminRequest(stack, '/admin/orders', {}, OLD_ADMIN)).status).toBe(401);
  });

  it('a cXML buyer authenticates with its previous SharedSecret and its current one', async () => {
    const base = testConfig();
    const config = testConfig({
      buyers: base.buyers.map((b) =>
        b.id === 'acme'
          ? { ...b, sharedSecret: 'acme-secret-2027', previousSharedSecrets: ['acme-secret'] }
          : b,
      ),
    });
    const stack = await createStack(config);
    expect(statusOf(await stack.postCxml(setupRequest({ secret: 'acme-secret' }))).code).toBe(200);
    expect(statusOf(await stack.postCxml(setupRequest({ secret: 'acme-secret-2027' }))).code).toBe(200);
    expect(statusOf(await stack.postCxml(setupRequest({ secret: 'acme-secret-2026' }))).code).toBe(401);
  });

  it('an OCI buyer logs in with its previous password and its current one; later OrderRequests with the previous SharedSecret', async () => {
    const base = testConfig();
    const config = testConfig({
      buyers: base.buyers.map((b) =>
        b.id === 'sap1'
          ? {
              ...b,
              password: 'sap1-secret-2027',
              previousPasswords: ['sap1-secret'],
              sharedSecret: 'sap1-order-secret-2027',
              previousSharedSecrets: ['sap1-order-secret'],
            }
          : b,
      ),
    });
    const stack = await createStack(config);
    const punchIn = (password: string) =>
      stack.request(
        `${GATEWAY_ORIGIN}/oci/sap1?${new URLSearchParams({
          USERNAME: 'sap1',
          PASSWORD: password,
          HOOK_URL: 'https://srm.acme.example/hook',
        })}`,
      );
    expect((await punchIn('sap1-secret')).status).toBe(303);
    expect((await punchIn('sap1-secret-2027')).status).toBe(303);
    expect((await punchIn('sap1-secret-2026')).status).toBe(401);
    // cXML authentication proves OrderRequests: the previous SharedSecret passes, a wrong one does not.
    const header = (secret: string) => ({
      from: [{ domain: 'NetworkID', identity: 'SAP1-ORDERS' }],
      to: [],
      sender: { credentials: [{ domain: 'NetworkID', identity: 'SAP1-ORDERS', sharedSecret: secret }] },
    });
    const buyers = createCxmlSenders(stack.gateway.context.config);
    // biome-ignore lint/suspicious/noExplicitAny: only the parts of a header authenticate() reads
    expect(buyers.authenticate(header('sap1-order-secret') as any).buyer.id).toBe('sap1');
    // biome-ignore lint/suspicious/noExplicitAny: as above
    expect(() => buyers.authenticate(header('sap1-order-guess') as any)).toThrow(GatewayError);
  });
});

describe('the config check', () => {
  const problemsOf = (config: GatewayConfigInput, env: Record<string, string> = {}) => {
    const loaded = loadConfig(config, env);
    return loaded.ok ? [] : loaded.problems;
  };

  it('refuses a short previous key or token, and previous values equal to the current ones, by path', () => {
    const base = testConfig();
    const problems = problemsOf(
      testConfig({
        previousSigningKeys: ['too-short', { env: 'OLD_KEY' }],
        previousAdminTokens: [base.adminToken as string],
        buyers: base.buyers.map((b) =>
          b.id === 'acme'
            ? { ...b, previousSharedSecrets: ['acme-secret'] }
            : b.id === 's4'
              ? { ...b, previousPasswords: ['old-s4', 's4-secret'] }
              : b,
        ),
      }),
      { OLD_KEY: base.signingKey as string },
    );
    expect(problems).toEqual([
      {
        path: 'previousSigningKeys[0]',
        message:
          'must be at least 32 characters (it signs the links buyers follow and encrypts the stored print-service passwords, so a short key can be guessed offline); this one has 9',
      },
      {
        path: 'previousSigningKeys[1]',
        message:
          'is the same as signingKey: list here only values being retired, and the new one as signingKey',
      },
      {
        path: 'previousAdminTokens[0]',
        message:
          'is the same as adminToken: list here only values being retired, and the new one as adminToken',
      },
      {
        path: 'buyers[0].previousSharedSecrets[0]',
        message:
          'is the same as sharedSecret: list here only values being retired, and the new one as sharedSecret',
      },
      {
        path: 'buyers[9].previousPasswords[1]',
        message: 'is the same as password: list here only values being retired, and the new one as password',
      },
    ]);
  });

  it('accepts a rotation written the right way round', () => {
    expect(problemsOf(afterRotation({ previousAdminTokens: [OLD_KEY] }))).toEqual([]);
  });
});

describe('no previous secret reaches a log line', () => {
  it('a rotation with previous values in use, refused attempts and the admin API', async () => {
    const logger = capturingLogger();
    const base = testConfig();
    const previous = {
      key: OLD_KEY,
      admin: 'old-admin-token-0123456789abcdef-before',
      secret: 'acme-secret-before',
      password: 'sap1-secret-before',
    };
    const stack = await createStack(beforeRotation(), { gatewayDeps: { logger } });
    const before = await punchOutWithDesign(stack);
    stack.clock.advance(3600);
    await stack.restartGateway(
      stack.store,
      afterRotation({
        previousAdminTokens: [previous.admin],
        buyers: base.buyers.map((b) =>
          b.id === 'acme'
            ? { ...b, previousSharedSecrets: [previous.secret] }
            : b.id === 'sap1'
              ? { ...b, previousPasswords: [previous.password] }
              : b,
        ),
      }),
    );
    expect((await stack.browse(before.cart.url)).status).toBe(200);
    await punchOutWithDesign(stack);
    expect(statusOf(await stack.postCxml(setupRequest({ secret: previous.secret }))).code).toBe(200);
    expect(statusOf(await stack.postCxml(setupRequest({ secret: 'not-any-secret' }))).code).toBe(401);
    const oci = new URLSearchParams({
      USERNAME: 'sap1',
      PASSWORD: previous.password,
      HOOK_URL: 'https://srm.acme.example/hook',
    });
    expect((await stack.request(`${GATEWAY_ORIGIN}/oci/sap1?${oci}`)).status).toBe(303);
    expect((await adminRequest(stack, '/admin/orders', {}, previous.admin)).status).toBe(200);
    expect((await adminRequest(stack, '/admin/orders', {}, 'a-wrong-admin-token')).status).toBe(401);

    const log = logger.text();
    expect(logger.lines.length).toBeGreaterThan(5);
    const leaked = Object.values(previous).filter((secret) => log.includes(secret));
    expect(leaked).toEqual([]);
    expect(log.includes(NEW_KEY)).toBe(false);
  });
});
