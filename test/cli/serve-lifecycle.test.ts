/**
 * `punchgate serve` as a process from its first line to its exit: with LOG_FORMAT=json every line it writes
 * is one JSON object (the banner a record naming the console), and SIGTERM drains: a request still arriving
 * when the signal comes is answered, the drain and the stop are logged, and the exit code is 0.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileRequest } from '../support/cxml-documents.ts';
import { childEnv, SHIP_TEST_TIMEOUT_MS, startPunchgate, stopAllCommands } from '../ship/processes.ts';

const CONFIG = new URL('../../fixtures/demo.config.json', import.meta.url).pathname;

afterAll(stopAllCommands);

describe('punchgate serve from start to SIGTERM', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
  it('JSON lines throughout; a request in flight at SIGTERM is answered; logged; exit 0', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'punchgate-lifecycle-'));
    const serve = startPunchgate(
      'serve',
      ['serve', '--config', CONFIG, '--port', '0'],
      childEnv({ LOG_FORMAT: 'json' }),
      cwd,
    );
    const [, port] = await serve.waitForStderr(
      /"url":"http:\/\/127\.0\.0\.1:(\d+)"[^\n]*"msg":"punchgate gateway on /,
    );

    // A POST whose body is half sent: in progress when the signal comes.
    const body = Buffer.from(profileRequest());
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /cxml HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/xml\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    socket.write(body.subarray(0, 100));
    // Ordering, not timing: give the gateway a moment to read the header before it is told to stop.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    process.kill(serve.pid ?? 0, 'SIGTERM');
    await serve.waitForStderr(
      /"msg":"shutting down: draining requests in progress and the background round"/,
    );
    socket.end(body.subarray(100));
    await closed;
    const exit = await serve.exited;

    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer).toContain('<Status code="');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(serve.stdout()).toBe('');
    const records = serve
      .stderr()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const banner = records.find((r) => String(r.msg).startsWith('punchgate gateway on '));
    expect(banner).toMatchObject({
      level: 'info',
      url: `http://127.0.0.1:${port}`,
      publicUrl: 'http://127.0.0.1:8080',
      cxmlEndpoint: 'http://127.0.0.1:8080/cxml',
      operatorConsole: 'http://127.0.0.1:8080/admin/',
    });
    // After the drain began: the access line of the request it let finish, then the stop.
    const draining = records.findIndex(
      (r) => r.msg === 'shutting down: draining requests in progress and the background round',
    );
    expect(records[draining]).toMatchObject({ level: 'info', signal: 'SIGTERM', graceSeconds: 10 });
    // The demo's storefronts have no print service here, so their webhook registrations (started with the
    // gateway, one storefront after the other, each retried) may still be failing while it drains.
    const afterDrain = records.slice(draining + 1).filter((r) => r.msg !== 'webhook registration failed');
    expect(afterDrain.map((r) => [r.msg, r.route ?? r.signal, r.status])).toEqual([
      ['request', '/cxml', 200],
      ['stopped', 'SIGTERM', undefined],
    ]);
  });

  it('text logs: the banner on stdout names the cXML endpoint and the console; the stop is logged at LOG_LEVEL=warn too', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'punchgate-lifecycle-'));
    const serve = startPunchgate(
      'serve',
      ['serve', '--config', CONFIG, '--port', '0'],
      childEnv({ LOG_FORMAT: 'text', LOG_LEVEL: 'warn' }),
      cwd,
    );
    const [banner] = await serve.waitForStdout(/^punchgate gateway on .*\n.*\n.*\n/);
    expect(banner.replace(/127\.0\.0\.1:\d+ \(/, '127.0.0.1:PORT (')).toBe(
      [
        'punchgate gateway on http://127.0.0.1:PORT (public URL http://127.0.0.1:8080)',
        '  cXML endpoint:    http://127.0.0.1:8080/cxml',
        '  Operator console: http://127.0.0.1:8080/admin/',
        '',
      ].join('\n'),
    );
    process.kill(serve.pid ?? 0, 'SIGINT');
    expect(await serve.exited, serve.tail()).toEqual({ code: 0, signal: null });
    expect(serve.stderr()).toMatch(/INFO {2}gateway stopped \{"signal":"SIGINT"\}\n$/);
  });
});
