/**
 * The floor of PO intake: a bare Hono route on @hono/node-server (the same serving path as the gateway)
 * that reads the whole posted body and answers 200, in a child process of its own. Whatever the gateway
 * takes beyond this is the cost of parsing, authenticating, persisting and answering in cXML.
 */
import { Hono } from 'hono';
import { serveNode } from '../../src/runtime/node.ts';

export interface BareBodyServerReady {
  readonly url: string;
}

const app = new Hono();
app.post('/cxml', async (c) => {
  const body = await c.req.arrayBuffer();
  return c.text(`read ${body.byteLength} bytes`);
});

const server = await serveNode(app, { port: 0 });
const ready: BareBodyServerReady = { url: server.url };
process.send?.(ready);
process.once('disconnect', () => {
  void server.close().finally(() => process.exit(0));
});
