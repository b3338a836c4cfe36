/**
 * The floors of HTTP operations (see harness/floor.ts) as a server in a child process of its own, in one
 * of two flavours (`BENCH_SERVER_OPTIONS` `{"flavour":"design"|"physical"}`):
 * - design: a Hono route per operation on @hono/node-server's `serve` (hono and nothing else);
 * - physical: a raw `node:http` handler that reads the body's chunks, runs the parts and ends the answer
 *   with one buffer.
 * Each route reads the request's body, runs the operation's floor parts back to back and answers as many
 * bytes as the gateway does. The parent configures it once (`POST /__floor/configure`: the sandbox, the
 * gateway user's PIPO token and designs, and each operation's spec), then measures `/floor/<operation>`
 * side by side with the gateway.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { childServerOptions } from '../harness/child-server.ts';
import {
  createFloorParts,
  type FloorFlavour,
  type FloorParts,
  type FloorSandbox,
  type FloorSpec,
  filler,
} from '../harness/floor.ts';

export interface FloorServerReady {
  readonly url: string;
}

export interface FloorServerOptions {
  readonly flavour: FloorFlavour;
}

export interface FloorConfiguration {
  readonly sandbox: FloorSandbox;
  readonly operations: Readonly<Record<string, FloorSpec>>;
}

const flavour = childServerOptions<FloorServerOptions>().flavour ?? 'design';
let parts: FloorParts | undefined;
let operations: Readonly<Record<string, FloorSpec>> = {};

async function configure(configuration: FloorConfiguration): Promise<void> {
  await parts?.close();
  parts = await createFloorParts(configuration.sandbox, flavour);
  operations = configuration.operations;
}

function designServer(): Promise<Server> {
  const app = new Hono();
  app.post('/__floor/configure', async (c) => {
    await configure((await c.req.json()) as FloorConfiguration);
    return c.text('configured');
  });
  app.all('/floor/:operation', async (c) => {
    const spec = operations[c.req.param('operation')];
    if (spec === undefined || parts === undefined) return c.text('unknown floor', 404);
    const body = c.req.method === 'GET' ? '' : await c.req.text();
    await parts.run(spec, body);
    return c.html(filler(spec.answerBytes ?? 0));
  });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(server as Server),
    );
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString()),
    );
    req.on('error', reject);
  });
}

const answers = new Map<number, Buffer>();
function answerOf(bytes: number): Buffer {
  let answer = answers.get(bytes);
  if (answer === undefined) {
    answer = Buffer.from(filler(bytes));
    answers.set(bytes, answer);
  }
  return answer;
}

function physicalServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    void readBody(req)
      .then(async (body) => {
        if (url === '/__floor/configure') {
          await configure(JSON.parse(body) as FloorConfiguration);
          res.end('configured');
          return;
        }
        const spec = operations[decodeURIComponent(url.slice('/floor/'.length))];
        if (!url.startsWith('/floor/') || spec === undefined || parts === undefined) {
          res.writeHead(404).end('unknown floor');
          return;
        }
        await parts.run(spec, body);
        const answer = answerOf(spec.answerBytes ?? 0);
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8', 'content-length': answer.length });
        res.end(answer);
      })
      .catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const server = flavour === 'design' ? await designServer() : await physicalServer();
const ready: FloorServerReady = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
process.send?.(ready);
process.once('disconnect', () => {
  server.closeAllConnections();
  server.close(() => {
    void (parts?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  });
});
