/**
 * The floors of HTTP operations (see harness/floor.ts) as a server in a child process of its own, served
 * like the gateway (@hono/node-server through serveNode): a bare Hono route per operation that reads the
 * request's body, runs the operation's floor parts back to back and answers as many bytes as the gateway
 * does. The parent configures it once (`POST /__floor/configure`: the sandbox, the gateway user's PIPO
 * token and designs, and each operation's spec), then measures `/floor/<operation>` side by side with the
 * gateway.
 */
import { Hono } from 'hono';
import { serveNode } from '../../src/runtime/node.ts';
import {
  createFloorParts,
  type FloorParts,
  filler,
  type FloorSandbox,
  type FloorSpec,
} from '../harness/floor.ts';

export interface FloorServerReady {
  readonly url: string;
}

export interface FloorConfiguration {
  readonly sandbox: FloorSandbox;
  readonly operations: Readonly<Record<string, FloorSpec>>;
}

let parts: FloorParts | undefined;
let operations: Readonly<Record<string, FloorSpec>> = {};

const app = new Hono();
app.post('/__floor/configure', async (c) => {
  const configuration = (await c.req.json()) as FloorConfiguration;
  await parts?.close();
  parts = await createFloorParts(configuration.sandbox);
  operations = configuration.operations;
  return c.text('configured');
});
app.all('/floor/:operation', async (c) => {
  const spec = operations[c.req.param('operation')];
  if (spec === undefined || parts === undefined) return c.text('unknown floor', 404);
  const body = c.req.method === 'GET' ? '' : await c.req.text();
  await parts.run(spec, body);
  return c.html(filler(spec.answerBytes ?? 0));
});

const server = await serveNode(app, { port: 0 });
const ready: FloorServerReady = { url: server.url };
process.send?.(ready);
process.once('disconnect', () => {
  void server
    .close()
    .then(() => parts?.close())
    .finally(() => process.exit(0));
});
