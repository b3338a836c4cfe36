import { describe, expect, it } from 'vitest';
import { clientAddressBehindProxies } from '../../../src/gateway/http/client-address.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { statusOf } from '../../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, testConfig } from '../../support/stack.ts';

const proxies = new Set(['10.0.0.2', '10.0.0.3']);

describe('the client address behind reverse proxies', () => {
  it.each([
    ['a direct client', '203.0.113.7', '198.51.100.1', '203.0.113.7'],
    ['a client through one proxy', '10.0.0.2', '203.0.113.7', '203.0.113.7'],
    ['a client through two proxies', '::ffff:10.0.0.2', '203.0.113.7, 10.0.0.3', '203.0.113.7'],
    ['a client that forged a hop', '10.0.0.2', '1.2.3.4, 203.0.113.7', '203.0.113.7'],
    ['a proxy that sent no header', '10.0.0.2', undefined, '10.0.0.2'],
  ])('%s', (_case, peer, forwarded, client) => {
    expect(clientAddressBehindProxies(peer, forwarded, proxies)).toBe(client);
  });

  it("the throttle's allow-list sees the client behind a trusted proxy, not the proxy", async () => {
    const config = testConfig({ trustedProxies: ['10.0.0.2'] });
    config.buyers = config.buyers.map((b) =>
      b.id === 'acme' ? { ...b, authAllowedAddresses: ['198.51.100.9'] } : b,
    );
    const stack = await createStack(config, { gatewayDeps: { clientAddress: () => '10.0.0.2' } });
    const post = async (from: string, secret: string) => {
      const res = await stack.gateway.app.fetch(
        new Request(`${GATEWAY_ORIGIN}/cxml`, {
          method: 'POST',
          body: setupRequest({ secret }),
          headers: { 'X-Forwarded-For': from },
        }),
      );
      return res.text();
    };
    for (let i = 0; i < 5; i++) await post('203.0.113.7', 'wrong');
    // The buyer is locked for every address but its allowed one, which is named only by the header.
    expect(statusOf(await post('203.0.113.7', 'acme-secret')).code).toBe(403);
    expect(statusOf(await post('10.0.0.2', 'acme-secret')).code).toBe(403);
    expect(statusOf(await post('198.51.100.9', 'acme-secret')).code).toBe(200);
  });
});
