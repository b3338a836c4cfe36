import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { nodeClientAddress, serveNode } from '../../src/runtime/node.ts';

describe('the caller address on Node comes from the socket, through the runtime adapter', () => {
  const app = new Hono().get('/', (c) => c.text(nodeClientAddress(c) ?? 'unknown'));

  it('is the peer address over a port', async () => {
    const server = await serveNode(app, { port: 0 });
    try {
      expect(await (await fetch(`${server.url}/`)).text()).toBe('127.0.0.1');
    } finally {
      await server.close();
    }
  });

  it('is unknown for an in-process request', async () => {
    expect(await (await app.request('/')).text()).toBe('unknown');
  });
});
