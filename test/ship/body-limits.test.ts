/**
 * Bodies are bounded before they are read, on `punchgate serve` as a process over a real port: a chunked
 * 300 MB POST to the console's sign-in and a chunked 200 MB POST to a form of an open punch-out session
 * are each answered 413 once the form limit (64 KB) is passed, long before they are sent, and the server's
 * memory (VmRSS) stays within 50 MB of where it started. The sender stops as soon as the answer arrives,
 * so the test sends no more than it must. The figures are printed for the operator's note.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../support/cxml-documents.ts';
import { SHIP_TEST_TIMEOUT_MS } from './processes.ts';
import { useServeBesideSandbox } from './serve-beside-sandbox.ts';

const MiB = 1024 * 1024;
/** The bound on what either attack may add to the server's memory. */
const RSS_BOUND_BYTES = 50 * MiB;
/** The answer must come before this much was sent: the limit plus what socket buffers take in meanwhile. */
const ANSWERED_WITHIN_BYTES = 32 * MiB;
/** Each chunk of the chunked body. */
const CHUNK = 64 * 1024;
/** How long one attack may take before the test gives up on it. */
const ATTACK_TIMEOUT_MS = 60_000;

function rssBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

interface AttackOutcome {
  /** The status line and headers of the answer, and what of its body came. */
  answer: string;
  /** Bytes of body written when the answer's first bytes arrived. */
  sentWhenAnswered: number;
  /** The server's largest VmRSS seen while sending, and after. */
  peakRss: number;
}

/**
 * POSTs up to `total` bytes of chunked body to `path`, sampling the server's RSS as it goes, and stops
 * writing once the answer arrives (or the server closes the connection).
 */
async function chunkedFlood(port: number, pid: number, path: string, total: number): Promise<AttackOutcome> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {
    // The server closes a refused upload's connection while we may still write: expected.
  });
  socket.setEncoding('latin1');
  let answer = '';
  let sent = 0;
  let sentWhenAnswered = -1;
  let peakRss = rssBytes(pid);
  let finished = false;
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (text: string) => {
      if (sentWhenAnswered < 0) sentWhenAnswered = sent;
      answer += text;
      resolve();
    });
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(() => {
    finished = true;
  });
  void answered.then(() => {
    finished = true;
  });
  const deadline = Date.now() + ATTACK_TIMEOUT_MS;
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const frame = Buffer.concat([
    Buffer.from(`${CHUNK.toString(16)}\r\n`),
    Buffer.alloc(CHUNK, 'a'),
    Buffer.from('\r\n'),
  ]);
  while (!finished && sent < total && Date.now() < deadline) {
    const flowing = socket.write(frame);
    sent += CHUNK;
    if (sent % (4 * MiB) === 0) peakRss = Math.max(peakRss, rssBytes(pid));
    if (!flowing) {
      await Promise.race([
        new Promise((resolve) => socket.once('drain', resolve)),
        answered,
        closed,
        new Promise((resolve) => setTimeout(resolve, 1_000)),
      ]);
    }
  }
  if (!finished && sent >= total) socket.write('0\r\n\r\n');
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  socket.destroy();
  peakRss = Math.max(peakRss, rssBytes(pid));
  return { answer, sentWhenAnswered, peakRss };
}

/** The status line of a raw answer, and its body. */
function parsed(answer: string): { statusLine: string; headers: string; body: string } {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  return { statusLine: head.split('\r\n')[0] ?? '', headers: head, body: rest.join('\r\n\r\n') };
}

describe('bodies bounded before they are read, on punchgate serve over a real port', {
  timeout: SHIP_TEST_TIMEOUT_MS,
}, () => {
  const stack = useServeBesideSandbox({ serveEnv: { LOG_LEVEL: 'warn' } });

  /** A punch-out session of the buyer's, opened as its procurement system does: its session page path. */
  async function openSession(): Promise<string> {
    const setup = await fetch(`${stack.serve.url}/cxml`, {
      method: 'POST',
      body: setupRequest({ browserFormPost: stack.buyer.returnUrl }),
      headers: { 'Content-Type': 'text/xml' },
    });
    const startUrl = /<StartPage>\s*<URL>([^<]+)<\/URL>/.exec(await setup.text())?.[1] ?? '';
    expect(startUrl).toMatch(/\/punchout\/start\//);
    const start = await fetch(startUrl.replaceAll('&amp;', '&'), { redirect: 'manual' });
    const catalog = start.headers.get('Location') ?? '';
    expect(catalog).toMatch(/\/punchout\/s\/[^/]+\/catalog$/);
    return new URL(catalog, stack.serve.url).pathname.replace(/\/catalog$/, '');
  }

  it('a chunked 300 MB sign-in and a chunked 200 MB session form: 413 early, memory within 50 MB', async () => {
    const { serve, port } = stack;
    const pid = serve.process.pid ?? 0;
    const session = await openSession();
    // The baseline is a gateway that has served these routes, a refusal of each included.
    for (const path of ['/admin/ui/sign-in', `${session}/transfer`]) {
      const warm = await chunkedFlood(port, pid, path, 256 * 1024);
      expect(parsed(warm.answer).statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    }
    expect((await fetch(`${serve.url}${session}/cart`)).status).toBe(200);
    const before = rssBytes(pid);

    const signIn = await chunkedFlood(port, pid, '/admin/ui/sign-in', 300 * MiB);
    const form = await chunkedFlood(port, pid, `${session}/transfer`, 200 * MiB);
    const after = rssBytes(pid);
    console.log(
      `chunked floods: RSS ${Math.round(before / MiB)} MB before; sign-in 300 MB: answered after ` +
        `${(signIn.sentWhenAnswered / MiB).toFixed(1)} MB sent, peak ${Math.round(signIn.peakRss / MiB)} MB; ` +
        `session form 200 MB: answered after ${(form.sentWhenAnswered / MiB).toFixed(1)} MB sent, peak ` +
        `${Math.round(form.peakRss / MiB)} MB; after ${Math.round(after / MiB)} MB`,
    );

    const signInAnswer = parsed(signIn.answer);
    expect(signInAnswer.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(signInAnswer.headers).toMatch(/^connection: close$/im);
    expect(signInAnswer.body).toContain(
      '<h1>Too large</h1>\n<p class="error" role="alert">The request body is larger than 64 KB; nothing was done with it.</p>',
    );
    const formAnswer = parsed(form.answer);
    expect(formAnswer.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(formAnswer.body).toContain(
      '<h1>This page cannot be shown</h1>\n<p class="error" role="alert">The request body is larger than 64 KB; nothing was done with it.</p>',
    );
    for (const attack of [signIn, form]) {
      expect(attack.sentWhenAnswered).toBeGreaterThan(0);
      expect(attack.sentWhenAnswered).toBeLessThan(ANSWERED_WITHIN_BYTES);
      expect(attack.peakRss - before).toBeLessThan(RSS_BOUND_BYTES);
    }
    // The session is as it was: the refused transfer did nothing.
    expect((await fetch(`${serve.url}${session}/cart`)).status).toBe(200);
    expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
    expect(serve.process.exit()).toBeUndefined();
  });
});
