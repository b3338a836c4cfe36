import { describe, expect, it } from 'vitest';
import {
  createFailureCounter,
  createSecretThrottle,
  SECRET_FAILURE_LIMIT,
} from '../../src/gateway/punchout/throttle.ts';
import { nodeClientAddress, serveNode } from '../../src/runtime/node.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { ADMIN_TOKEN, adminRequest } from '../support/order-flow.ts';
import { statusOf } from '../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, START, testConfig } from '../support/stack.ts';

function manualClock() {
  let now = START;
  return {
    now: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

const BUYER_LOCKED = /^Too many failed authentication attempts for this buyer; try again in (\d+) seconds\.$/;
const PAIR_LOCKED =
  /^Too many failed authentication attempts for this buyer from this address; try again in (\d+) seconds\.$/;

/** The same setup request with these SharedSecrets, one Sender credential each (as Ariba sends two). */
function withSenderSecrets(document: string, secrets: readonly string[]): string {
  const credentials = secrets
    .map(
      (secret) =>
        `<Credential domain="NetworkID"><Identity>AN01000000001</Identity><SharedSecret>${secret}</SharedSecret></Credential>`,
    )
    .join('');
  return document.replace(/<Sender>[\s\S]*?<UserAgent>/, `<Sender>${credentials}<UserAgent>`);
}

describe('failure counter', () => {
  const limit = { maxFailures: 3, windowSeconds: 60, maxLockSeconds: 300 };

  it('locks a key at maxFailures inside the window, for the window', () => {
    const clock = manualClock();
    const counter = createFailureCounter({ clock, limit });
    counter.fail('k');
    clock.advance(30);
    counter.fail('k');
    expect(counter.lockedFor('k')).toBe(0);
    clock.advance(31);
    // The first failure left the window: two inside it, no lock.
    counter.fail('k');
    expect(counter.lockedFor('k')).toBe(0);
    counter.fail('k');
    expect(counter.lockedFor('k')).toBe(60);
    clock.advance(59);
    expect(counter.lockedFor('k')).toBe(1);
    clock.advance(1);
    expect(counter.lockedFor('k')).toBe(0);
    expect(counter.lockedFor('other')).toBe(0);
  });

  it('counts several failures at once', () => {
    const clock = manualClock();
    const counter = createFailureCounter({ clock, limit });
    counter.fail('k', 2);
    expect(counter.lockedFor('k')).toBe(0);
    counter.fail('k', 0);
    expect(counter.lockedFor('k')).toBe(0);
    counter.fail('k', 4);
    expect(counter.lockedFor('k')).toBe(60);
  });

  it('doubles each lock that follows soon after the last, up to the cap, and starts over after a quiet spell', () => {
    const clock = manualClock();
    const counter = createFailureCounter({ clock, limit });
    const locks: number[] = [];
    for (let round = 0; round < 5; round++) {
      counter.fail('k', 3);
      locks.push(counter.lockedFor('k'));
      clock.advance(counter.lockedFor('k'));
    }
    expect(locks).toEqual([60, 120, 240, 300, 300]);
    clock.advance(300);
    counter.fail('k', 3);
    expect(counter.lockedFor('k')).toBe(60);
  });

  it('forget clears failures and lock history', () => {
    const clock = manualClock();
    const counter = createFailureCounter({ clock, limit });
    counter.fail('k', 3);
    counter.forget('k');
    expect(counter.lockedFor('k')).toBe(0);
    counter.fail('k', 2);
    expect(counter.lockedFor('k')).toBe(0);
  });

  it('refuses nonsense limits at construction', () => {
    const clock = manualClock();
    const bad = (l: Partial<typeof limit>) => () =>
      createFailureCounter({ clock, limit: { ...limit, ...l } });
    expect(bad({ maxFailures: 0 })).toThrow(TypeError);
    expect(bad({ windowSeconds: 0 })).toThrow(TypeError);
    expect(bad({ maxLockSeconds: 30 })).toThrow(TypeError);
  });
});

describe('secret throttle', () => {
  const allowed = new Set(['10.9.9.9']);
  const make = (clock = manualClock()) => ({
    clock,
    throttle: createSecretThrottle({
      clock,
      isAllowed: (buyer, address) => buyer === 'acme' && allowed.has(address),
    }),
  });

  it('is 5 failures per 15 minutes, then locks of 15 minutes doubling up to 4 hours', () => {
    expect(SECRET_FAILURE_LIMIT).toEqual({ maxFailures: 5, windowSeconds: 900, maxLockSeconds: 14_400 });
  });

  it('locks the buyer for every address after 5 failures from 5 addresses, except its allowed address', () => {
    const { clock, throttle } = make();
    for (let i = 1; i <= 5; i++) {
      throttle.check('acme', `198.51.100.${i}`);
      throttle.fail('acme', `198.51.100.${i}`);
      clock.advance(1);
    }
    for (const address of ['198.51.100.1', '203.0.113.50']) {
      expect(() => throttle.check('acme', address)).toThrow(BUYER_LOCKED);
    }
    expect(() => throttle.check('acme', '203.0.113.50')).toThrow('try again in 899 seconds.');
    expect(() => throttle.check('acme', '10.9.9.9')).not.toThrow();
    expect(() => throttle.check('coupa', '198.51.100.1')).not.toThrow();
    clock.advance(899);
    expect(() => throttle.check('acme', '203.0.113.50')).not.toThrow();
  });

  it('the error carries the wait as retryAfterSeconds', () => {
    const { throttle } = make();
    throttle.fail('acme', 'a', 5);
    try {
      throttle.check('acme', 'b');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'throttled', retryAfterSeconds: 900 });
    }
  });

  it("an allowed address's failures lock its own pair only, never the buyer", () => {
    const { throttle } = make();
    throttle.fail('acme', '10.9.9.9', 5);
    expect(() => throttle.check('acme', '10.9.9.9')).toThrow(PAIR_LOCKED);
    expect(() => throttle.check('acme', '198.51.100.1')).not.toThrow();
  });

  it("a success clears its pair's count but not the buyer's", () => {
    const { throttle } = make();
    throttle.fail('acme', '10.9.9.9', 4);
    throttle.fail('acme', '198.51.100.1', 4);
    throttle.succeed('acme', '10.9.9.9');
    throttle.succeed('acme', '198.51.100.1');
    throttle.fail('acme', '10.9.9.9', 4);
    expect(() => throttle.check('acme', '10.9.9.9')).not.toThrow();
    throttle.fail('acme', '198.51.100.2');
    expect(() => throttle.check('acme', '198.51.100.1')).toThrow(BUYER_LOCKED);
  });

  it('guard counts what the error says it compared', async () => {
    const { throttle } = make();
    const refuse = (compared: number) =>
      throttle.guard(
        'acme',
        'x',
        () => {
          throw new Error('wrong');
        },
        () => compared,
      );
    await expect(refuse(3)).rejects.toThrow('wrong');
    await expect(refuse(0)).rejects.toThrow('wrong');
    await expect(refuse(1)).rejects.toThrow('wrong');
    expect(() => throttle.check('acme', 'y')).not.toThrow();
    await expect(refuse(1)).rejects.toThrow('wrong');
    expect(() => throttle.check('acme', 'y')).toThrow(BUYER_LOCKED);
  });

  it('keeps at most maxEntries pairs, so made-up addresses cannot grow memory', () => {
    const clock = manualClock();
    const throttle = createSecretThrottle({
      clock,
      isAllowed: () => true,
      limit: { maxFailures: 1, windowSeconds: 60, maxLockSeconds: 60 },
      maxEntries: 100,
    });
    throttle.fail('acme', 'first');
    for (let i = 0; i < 1000; i++) throttle.fail('acme', `address-${i}`);
    // The oldest pair was evicted: bounded memory wins over remembering every guesser.
    expect(() => throttle.check('acme', 'first')).not.toThrow();
    expect(() => throttle.check('acme', 'address-999')).toThrow(PAIR_LOCKED);
  });
});

/** A stack behind a trusted proxy, so each request names its client in X-Forwarded-For. */
async function stackBehindProxy(allowedForAcme: string[] = []) {
  const config = testConfig({ trustedProxies: ['10.0.0.2'] });
  config.buyers = config.buyers.map((b) =>
    b.id === 'acme' ? { ...b, authAllowedAddresses: allowedForAcme } : b,
  );
  const stack = await createStack(config, { gatewayDeps: { clientAddress: () => '10.0.0.2' } });
  const post = async (body: string, from: string) => {
    const res = await stack.gateway.app.fetch(
      new Request(`${GATEWAY_ORIGIN}/cxml`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'text/xml', 'X-Forwarded-For': from },
      }),
    );
    expect(res.status).toBe(200);
    return statusOf(await res.text());
  };
  return { stack, post };
}

describe('POST /cxml: guessing is bounded per buyer, not per request or address', () => {
  it('a document with 1,000 Sender credentials is refused before any comparison and counts no failure', async () => {
    const { stack, post } = await stackBehindProxy();
    const guesses = Array.from({ length: 1000 }, (_, i) => `guess-${i}`);
    const flood = withSenderSecrets(setupRequest(), [...guesses.slice(0, 999), 'acme-secret']);
    for (let i = 0; i < 10; i++) {
      expect(await post(flood, '198.51.100.7')).toEqual({
        code: 400,
        text: 'Bad Request',
        detail: 'The Sender carries 1000 credentials; at most 4 are accepted.',
      });
    }
    // Four wrong secrets still leave the buyer open: the ten refused documents counted nothing.
    for (let i = 0; i < 4; i++) {
      expect(await post(setupRequest({ secret: `wrong-${i}` }), '198.51.100.7')).toMatchObject({ code: 401 });
    }
    expect(await post(setupRequest(), '198.51.100.7')).toMatchObject({ code: 200 });
    expect(stack.upstreamCalls.length).toBeGreaterThan(0);
  });

  it('four Sender credentials are accepted, and one right one among wrong ones counts nothing', async () => {
    const { post } = await stackBehindProxy();
    const ariba = withSenderSecrets(setupRequest(), ['wrong-1', 'wrong-2', 'wrong-3', 'acme-secret']);
    for (let i = 0; i < 6; i++) expect(await post(ariba, '198.51.100.7')).toMatchObject({ code: 200 });
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 200 });
  });

  it('a document with 3 wrong SharedSecrets counts 3 failures', async () => {
    const { post } = await stackBehindProxy();
    const three = withSenderSecrets(setupRequest(), ['wrong-1', 'wrong-2', 'wrong-3']);
    expect(await post(three, '198.51.100.7')).toMatchObject({ code: 401 });
    expect(await post(setupRequest({ secret: 'wrong-4' }), '198.51.100.8')).toMatchObject({ code: 401 });
    // Four counted: not locked yet.
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 200 });
    expect(await post(setupRequest({ secret: 'wrong-5' }), '198.51.100.9')).toMatchObject({ code: 401 });
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 403 });
  });

  it('two instances on one store count against one limit, and a lock outlives a restart', async () => {
    const { stack, post } = await stackBehindProxy();
    for (let i = 1; i <= 3; i++) {
      expect(await post(setupRequest({ secret: `wrong-${i}` }), `198.51.100.${i}`)).toMatchObject({
        code: 401,
      });
    }
    // Another instance on the same store: nothing of the three in its memory, all of them in the store.
    await stack.restartGateway(stack.store);
    for (let i = 4; i <= 5; i++) {
      expect(await post(setupRequest({ secret: `wrong-${i}` }), `198.51.100.${i}`)).toMatchObject({
        code: 401,
      });
    }
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 403 });
    // A restart keeps the lock: the new instance learns of it at the first failure it counts, so a guesser
    // gains one comparison per instance, not a fresh budget.
    await stack.restartGateway(stack.store);
    expect(await post(setupRequest({ secret: 'wrong-6' }), '198.51.100.6')).toMatchObject({ code: 401 });
    expect(await post(setupRequest({ secret: 'wrong-7' }), '198.51.100.7')).toMatchObject({ code: 403 });
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 403 });
    stack.clock.advance(900);
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 200 });
  });

  it('five wrong secrets from five addresses lock the buyer for everyone except its allowed address', async () => {
    const { stack, post } = await stackBehindProxy(['192.0.2.0/28']);
    for (let i = 1; i <= 5; i++) {
      expect(await post(setupRequest({ secret: `guess-${i}` }), `198.51.100.${i}`)).toMatchObject({
        code: 401,
      });
    }
    const locked = {
      code: 403,
      text: 'Forbidden',
      detail: 'Too many failed authentication attempts for this buyer; try again in 900 seconds.',
    };
    // The right secret from a sixth address, and from the guessers' addresses, is refused.
    expect(await post(setupRequest(), '203.0.113.1')).toEqual(locked);
    expect(await post(setupRequest(), '198.51.100.1')).toEqual(locked);
    // The buyer's own system, from its published range, still gets in; other buyers carry on.
    expect(await post(setupRequest(), '192.0.2.5')).toMatchObject({ code: 200 });
    expect(
      await post(setupRequest({ identity: 'TEMP-1', secret: 'temp-secret' }), '198.51.100.1'),
    ).toMatchObject({ code: 200 });
    // Its success did not lift the lock elsewhere.
    stack.clock.advance(899);
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 403 });
    stack.clock.advance(1);
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 200 });
  });

  it('guessing on after a lock doubles the next one', async () => {
    const { stack, post } = await stackBehindProxy();
    for (const wait of [900, 1800, 3600]) {
      for (let i = 0; i < 5; i++) await post(setupRequest({ secret: `guess-${i}` }), `198.51.100.${i}`);
      expect((await post(setupRequest(), '203.0.113.1')).detail).toBe(
        `Too many failed authentication attempts for this buyer; try again in ${wait} seconds.`,
      );
      stack.clock.advance(wait);
    }
  });

  it('an allowed address that guesses is throttled at that address only', async () => {
    const { post } = await stackBehindProxy(['192.0.2.5']);
    for (let i = 0; i < 5; i++) await post(setupRequest({ secret: `guess-${i}` }), '192.0.2.5');
    expect(await post(setupRequest(), '192.0.2.5')).toEqual({
      code: 403,
      text: 'Forbidden',
      detail:
        'Too many failed authentication attempts for this buyer from this address; try again in 900 seconds.',
    });
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 200 });
  });

  it('a throttled attempt costs no upstream call', async () => {
    const { stack, post } = await stackBehindProxy();
    for (let i = 0; i < 5; i++) await post(setupRequest({ secret: 'wrong' }), `192.0.2.${i}`);
    await post(setupRequest(), '192.0.2.9');
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('without an address the runtime can tell, the buyer is still locked after five', async () => {
    const stack = await createStack();
    for (let i = 0; i < 5; i++) statusOf(await stack.postCxml(setupRequest({ secret: 'wrong' })));
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(403);
  });

  it('over a real port: the lock holds across X-Forwarded-For addresses, the allowed one gets in', async () => {
    const config = testConfig({ trustedProxies: ['127.0.0.1'] });
    config.buyers = config.buyers.map((b) =>
      b.id === 'acme' ? { ...b, authAllowedAddresses: ['2001:db8:a11::/48'] } : b,
    );
    const stack = await createStack(config, { gatewayDeps: { clientAddress: nodeClientAddress } });
    const server = await serveNode(stack.gateway.app, { port: 0 });
    try {
      const post = async (body: string, from: string) => {
        const res = await fetch(`${server.url}/cxml`, {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'text/xml', 'X-Forwarded-For': from },
        });
        expect(res.status).toBe(200);
        return statusOf(await res.text());
      };
      for (let i = 1; i <= 5; i++) {
        expect((await post(setupRequest({ secret: `guess-${i}` }), `198.51.100.${i}`)).code).toBe(401);
      }
      expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 403 });
      expect(await post(setupRequest(), '2001:db8:a11::7')).toMatchObject({ code: 200 });
    } finally {
      await server.close();
    }
  });
});

describe('the admin API throttles wrong tokens per address', () => {
  it('from the 31st wrong token within 15 minutes: 429 with Retry-After, the right token too; others carry on', async () => {
    let address = '198.51.100.7';
    const stack = await createStack(testConfig(), { gatewayDeps: { clientAddress: () => address } });
    for (let i = 0; i < 30; i++) {
      expect((await adminRequest(stack, '/admin/orders', {}, `wrong-token-${i}`)).status).toBe(401);
      stack.clock.advance(10);
    }
    for (const token of ['wrong-token-31', ADMIN_TOKEN]) {
      const res = await adminRequest(stack, '/admin/orders', {}, token);
      expect(res.status).toBe(429);
      expect(res.headers.get('Retry-After')).toBe('890');
      expect(await res.json()).toEqual({
        error: {
          code: 'throttled',
          message: 'Too many wrong admin tokens from this address; try again in 890 seconds.',
        },
      });
    }
    address = '203.0.113.1';
    expect((await adminRequest(stack, '/admin/orders')).status).toBe(200);
    stack.clock.advance(890);
    address = '198.51.100.7';
    expect((await adminRequest(stack, '/admin/orders')).status).toBe(200);
  });

  it('thirty wrong tokens spread over more than 15 minutes are never throttled', async () => {
    const stack = await createStack(testConfig(), { gatewayDeps: { clientAddress: () => '198.51.100.7' } });
    for (let i = 0; i < 60; i++) {
      expect((await adminRequest(stack, '/admin/orders', {}, 'wrong-token')).status).toBe(401);
      stack.clock.advance(32);
    }
    expect((await adminRequest(stack, '/admin/orders')).status).toBe(200);
  });
});
