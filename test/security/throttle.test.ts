import { describe, expect, it } from 'vitest';
import { createSecretThrottle } from '../../src/gateway/punchout/throttle.ts';
import { setupRequest } from '../support/cxml-documents.ts';
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

const THROTTLED =
  /^Too many failed authentication attempts for this buyer from this address; try again in (\d+) seconds\.$/;

describe('secret throttle', () => {
  it('refuses a pair after maxFailures inside the window, until the oldest failure leaves it', () => {
    const clock = manualClock();
    const throttle = createSecretThrottle({ clock, maxFailures: 3, windowSeconds: 60 });
    for (let i = 0; i < 3; i++) {
      throttle.check('acme', '10.0.0.1');
      throttle.fail('acme', '10.0.0.1');
      clock.advance(10);
    }
    expect(() => throttle.check('acme', '10.0.0.1')).toThrow(
      'Too many failed authentication attempts for this buyer from this address; try again in 30 seconds.',
    );
    // Other pairs are untouched: the same buyer elsewhere, another buyer here.
    expect(() => throttle.check('acme', '10.0.0.2')).not.toThrow();
    expect(() => throttle.check('coupa', '10.0.0.1')).not.toThrow();
    clock.advance(30);
    expect(() => throttle.check('acme', '10.0.0.1')).not.toThrow();
  });

  it('a success clears only its own pair', () => {
    const clock = manualClock();
    const throttle = createSecretThrottle({ clock, maxFailures: 2, windowSeconds: 60 });
    for (const address of ['a', 'b']) {
      throttle.fail('acme', address);
      throttle.fail('acme', address);
    }
    throttle.succeed('acme', 'b');
    expect(() => throttle.check('acme', 'a')).toThrow(THROTTLED);
    expect(() => throttle.check('acme', 'b')).not.toThrow();
  });

  it('keeps at most maxEntries pairs, so made-up buyers cannot grow memory', () => {
    const clock = manualClock();
    const throttle = createSecretThrottle({ clock, maxFailures: 1, windowSeconds: 60, maxEntries: 100 });
    throttle.fail('acme', 'first');
    for (let i = 0; i < 1000; i++) throttle.fail(`buyer-${i}`, 'x');
    // The oldest pair was evicted: bounded memory wins over remembering every guesser.
    expect(() => throttle.check('acme', 'first')).not.toThrow();
    expect(() => throttle.check('buyer-999', 'x')).toThrow(THROTTLED);
  });

  it('refuses nonsense limits at construction', () => {
    const clock = manualClock();
    expect(() => createSecretThrottle({ clock, maxFailures: 0 })).toThrow(TypeError);
    expect(() => createSecretThrottle({ clock, windowSeconds: 0 })).toThrow(TypeError);
  });
});

describe('POST /cxml throttles failed SharedSecrets per buyer and client address', () => {
  async function stackWithAddresses() {
    const stack = await createStack(testConfig(), {
      gatewayDeps: { clientAddress: (c) => c.req.header('X-Test-Client') },
    });
    const post = async (body: string, address: string) => {
      const res = await stack.gateway.app.fetch(
        new Request(`${GATEWAY_ORIGIN}/cxml`, {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'text/xml', 'X-Test-Client': address },
        }),
      );
      expect(res.status).toBe(200);
      return statusOf(await res.text());
    };
    return { stack, post };
  }

  it('five wrong secrets lock the pair out for 15 minutes, even with the right secret', async () => {
    const { stack, post } = await stackWithAddresses();
    for (let i = 0; i < 5; i++) {
      expect(await post(setupRequest({ secret: `guess-${i}` }), '198.51.100.7')).toMatchObject({ code: 401 });
      stack.clock.advance(1);
    }
    expect(await post(setupRequest(), '198.51.100.7')).toEqual({
      code: 403,
      text: 'Forbidden',
      detail:
        'Too many failed authentication attempts for this buyer from this address; try again in 895 seconds.',
    });
    // The buyer's own system at another address, and another buyer at the attacker's address, still work.
    expect(await post(setupRequest(), '203.0.113.1')).toMatchObject({ code: 200 });
    expect(
      await post(setupRequest({ identity: 'TEMP-1', secret: 'temp-secret' }), '198.51.100.7'),
    ).toMatchObject({ code: 200 });
    // The success from elsewhere did not lift the lock.
    expect(await post(setupRequest(), '198.51.100.7')).toMatchObject({ code: 403 });
    stack.clock.advance(895);
    expect(await post(setupRequest(), '198.51.100.7')).toMatchObject({ code: 200 });
  });

  it('a throttled attempt costs no upstream call', async () => {
    const { stack, post } = await stackWithAddresses();
    for (let i = 0; i < 5; i++) await post(setupRequest({ secret: 'wrong' }), '192.0.2.9');
    await post(setupRequest(), '192.0.2.9');
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('without an address the runtime can tell, callers share one pair per buyer', async () => {
    const stack = await createStack();
    for (let i = 0; i < 5; i++) statusOf(await stack.postCxml(setupRequest({ secret: 'wrong' })));
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(403);
  });
});
