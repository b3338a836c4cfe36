/**
 * A flood of connections from one address does not queue a newcomer from another address behind it. Node
 * accepts one connection per turn of its event loop; a served app reads a crowded address's connections a
 * few at a time, and mostly in turns when nothing else arrives, so turns that only accept are cheap and
 * the newcomer is reached early. Shown on a server in a child process whose event loop is held while 300
 * requests from one address and then one probe from another reach its kernel queue: once released, the
 * server answers the probe before most of the crowd, where it used to answer it last. Order is asserted,
 * not time, so a loaded machine changes nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_SERVER_LIMITS } from '../../src/runtime/node.ts';

const NODE_MODULE = join(import.meta.dirname, '../../src/runtime/node.ts');
const CROWD = 300;

/**
 * serveNode on a free port, each answer costing a millisecond of CPU, as a refusal does; /order lists the
 * paths answered so far. It prints the port, then holds its event loop until a line arrives on stdin.
 */
const HELD_SERVER = `
import { readSync } from 'node:fs';
import { serveNode } from ${JSON.stringify(NODE_MODULE)};
const answered = [];
const server = await serveNode({
  fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === '/order') return Response.json(answered);
    const until = performance.now() + 1;
    while (performance.now() < until);
    answered.push(path);
    return new Response('ok');
  },
}, { port: 0 });
console.log(server.port);
readSync(0, Buffer.alloc(1));
`;

const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const child of children.splice(0)) child.kill();
});

/**
 * Sends one GET from `localAddress` and resolves once the request is in the server's kernel buffers. The
 * crowd's connections stay open after their answer (keep-alive), as a flood's do: one closed as soon as it
 * is answered no longer counts for its address.
 */
function sendGet(port: number, path: string, localAddress: string, keepAlive: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    sockets.push(socket);
    socket.on('error', reject);
    socket.resume();
    const connection = keepAlive ? 'keep-alive' : 'close';
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: ${connection}\r\n\r\n`, () =>
      resolve(),
    );
  });
}

describe('connections from a crowded address', () => {
  it('are read a few at a time, so a probe from another address is answered before most of them', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', HELD_SERVER], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    const port = Number(
      await new Promise<string>((resolve) => child.stdout?.once('data', (data) => resolve(String(data)))),
    );
    const crowd: Promise<void>[] = [];
    for (let i = 0; i < CROWD; i++) crowd.push(sendGet(port, `/crowd/${i}`, '127.0.1.9', true));
    await Promise.all(crowd);
    await sendGet(port, '/probe', '127.0.0.1', false);
    child.stdin?.write('\n');

    let answered: string[] = [];
    while (answered.length < CROWD + 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answered = await (await fetch(`http://127.0.0.1:${port}/order`)).json();
    }
    // Before the probe is accepted (301 turns), the crowd's first few are read and then one every few turns.
    const beforeProbe =
      NODE_SERVER_LIMITS.crowdedAddressConnections + CROWD / NODE_SERVER_LIMITS.pacedWhileAcceptingEvery;
    expect(answered.indexOf('/probe')).toBeGreaterThan(0);
    expect(answered.indexOf('/probe')).toBeLessThanOrEqual(beforeProbe + NODE_SERVER_LIMITS.pacedPerTurn);
    expect(answered.filter((path) => path.startsWith('/crowd/')).sort()).toEqual(
      Array.from({ length: CROWD }, (_, i) => `/crowd/${i}`).sort(),
    );
  });
});
