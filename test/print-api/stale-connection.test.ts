/**
 * "Without any connection going stale" (issue 18, deliverable 4): a big PO's intake blocks the event loop
 * (about half a second for 5,000 lines, docs/performance.md), and the print-order create that follows must
 * not go out on a pooled keep-alive connection the print service closed meanwhile — the create is not
 * idempotent, so it is never retried blindly (a cut-off create is settled by the search in
 * src/gateway/orders/find-print-order.ts). Shown against a server in a process of its own, so its idle
 * timer runs while ours is blocked: one that closes idle connections after 1 s without saying so (as a
 * proxy may), and Node's own server, which announces `Keep-Alive: timeout=5`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../src/print-api/node-fetch.ts';

/**
 * Answers `<method> <how many requests of that method so far> on <client port>`, so a test sees which
 * connection a request used and that it arrived once.
 */
const SILENT_IDLE_CLOSE = `
import { createServer } from 'node:net';
const seen = {};
const server = createServer((socket) => {
  let buffer = '';
  let idle;
  const arm = () => { clearTimeout(idle); idle = setTimeout(() => socket.end(), 1000); };
  arm();
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1');
    const end = buffer.indexOf('\\r\\n\\r\\n');
    if (end === -1) return;
    const length = Number(/content-length: *(\\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0);
    if (buffer.length < end + 4 + length) return;
    const method = buffer.slice(0, buffer.indexOf(' '));
    buffer = buffer.slice(end + 4 + length);
    seen[method] = (seen[method] ?? 0) + 1;
    const body = method + ' ' + seen[method] + ' on ' + socket.remotePort;
    socket.write('HTTP/1.1 200 OK\\r\\nContent-Length: ' + body.length + '\\r\\n\\r\\n' + body);
    arm();
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const NODE_DEFAULT = `
import { createServer } from 'node:http';
const seen = {};
const server = createServer((req, res) => {
  req.resume();
  seen[req.method] = (seen[req.method] ?? 0) + 1;
  req.on('end', () => res.end(req.method + ' ' + seen[req.method] + ' on ' + req.socket.remotePort));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

async function startServer(code: string): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const port = await new Promise<string>((resolve) =>
    child.stdout?.once('data', (data) => resolve(String(data).trim())),
  );
  return `http://127.0.0.1:${port}/order`;
}

/** A POST sent right after the event loop was blocked for `blockMs`, in the same task (no I/O between). */
function postAfterBlock(
  fetch: ReturnType<typeof createNodeFetch>,
  url: string,
  blockMs: number,
): Promise<string> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      const until = Date.now() + blockMs;
      while (Date.now() < until) {
        // The intake of a big PO, parsing on the event loop.
      }
      fetch(url, { method: 'POST', body: '{"order":1}' })
        .then((answer) => answer.text())
        .then(resolve, reject);
    }),
  );
}

describe('a create after the event loop was blocked across the server closing the pooled connection', () => {
  it('goes out on a new connection when the server closed it silently after 1 s', async () => {
    const url = await startServer(SILENT_IDLE_CLOSE);
    const fetch = createNodeFetch();
    try {
      const first = await (await fetch(url, { method: 'GET' })).text();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const created = await postAfterBlock(fetch, url, 1_500);
      expect(created).toMatch(/^POST 1 on \d+$/);
      expect(created.slice('POST 1 on '.length)).not.toBe(first.slice('GET 1 on '.length));
    } finally {
      await fetch.close();
    }
  });

  it("goes out on a new connection past Node's announced 5 s keep-alive", { timeout: 20_000 }, async () => {
    const url = await startServer(NODE_DEFAULT);
    const fetch = createNodeFetch();
    try {
      const first = await (await fetch(url, { method: 'GET' })).text();
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const created = await postAfterBlock(fetch, url, 4_500);
      expect(created).toMatch(/^POST 1 on \d+$/);
      expect(created.slice('POST 1 on '.length)).not.toBe(first.slice('GET 1 on '.length));
    } finally {
      await fetch.close();
    }
  });
});
