/**
 * The kernel holds 4,096 connections (or net.core.somaxconn, if lower) for the gateway until its event loop
 * accepts them, not Node's 511: past the backlog the kernel drops a new connection's SYN, and a monitor's
 * probe that arrives behind a flood is then retried by its client only after 1, 3, 7, 15 s. `ss` shows a
 * listening socket's backlog as its Send-Q.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { NODE_SERVER_LIMITS, serveNode } from '../../src/runtime/node.ts';

describe('the listen backlog of a served app', () => {
  it('is 4,096 connections, capped only by the kernel', async () => {
    const server = await serveNode(new Hono(), { port: 0 });
    try {
      const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
      const listening = execFileSync('ss', ['-Hltn', `sport = :${server.port}`], { encoding: 'utf8' });
      // State, Recv-Q (connections waiting now), Send-Q (the backlog), local and peer addresses.
      const [state, , backlog, local] = listening.trim().split(/\s+/);
      expect({ state, local, backlog: Number(backlog) }).toEqual({
        state: 'LISTEN',
        local: `127.0.0.1:${server.port}`,
        backlog: Math.min(NODE_SERVER_LIMITS.listenBacklog, somaxconn),
      });
      expect(NODE_SERVER_LIMITS.listenBacklog).toBe(4_096);
    } finally {
      await server.close();
    }
  });
});
