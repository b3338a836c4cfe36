/**
 * The kernel holds up to 4,096 connections (or net.core.somaxconn, if lower) for a served app until its
 * event loop accepts them, not Node's 511: past the backlog the kernel drops a new connection's SYN, and a
 * monitor's probe that arrives behind a flood while the loop is busy is retried by its client only after
 * 1, 3, 7, 15 s. Shown on a server in a child process whose event loop is blocked: 600 connections complete
 * their handshake meanwhile, where Node's backlog lets 512 through and drops the rest.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const NODE_MODULE = join(import.meta.dirname, '../../src/runtime/node.ts');
const CONNECTIONS = 600;
/** How long the server's event loop stays blocked; the connections are counted well within it. */
const BLOCKED_MS = 8_000;

/** serveNode on a free port; prints the port, then blocks its event loop for BLOCKED_MS. */
const BLOCKED_SERVER = `
import { serveNode } from ${JSON.stringify(NODE_MODULE)};
const server = await serveNode({ fetch: () => new Response('ok') }, { port: 0 });
console.log(server.port);
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${BLOCKED_MS});
await server.close();
`;

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) child.kill();
});

describe('the listen backlog of a served app', () => {
  it('holds 600 connections while the event loop is blocked', async () => {
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    expect(somaxconn).toBeGreaterThanOrEqual(CONNECTIONS);
    const child = spawn(process.execPath, ['--input-type=module', '-e', BLOCKED_SERVER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const port = Number(
      await new Promise<string>((resolve) => child.stdout?.once('data', (data) => resolve(String(data)))),
    );
    let connected = 0;
    const allConnected = new Promise<void>((resolve) => {
      for (let i = 0; i < CONNECTIONS; i++) {
        const socket = connect({ host: '127.0.0.1', port });
        sockets.push(socket);
        socket.on('error', () => {});
        socket.once('connect', () => {
          if (++connected === CONNECTIONS) resolve();
        });
      }
    });
    // A dropped SYN is first retried after 1 s and dropped again while the loop is blocked, so waiting
    // half the block tells a full backlog from one that holds them all.
    await Promise.race([allConnected, new Promise((resolve) => setTimeout(resolve, BLOCKED_MS / 2))]);
    expect(connected).toBe(CONNECTIONS);
  });
});
