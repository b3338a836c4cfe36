import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LogSettingsError, readLogSettings } from '../../src/runtime/log-settings.ts';
import { batchedLogDestination, createNodeLogger } from '../../src/runtime/logging.ts';
import { createWorkerLogger } from '../../src/runtime/worker-logging.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { createStack, GATEWAY_ORIGIN, START } from '../support/stack.ts';

const AT = new Date(START);

function nodeLogger(env: Record<string, string>, isTTY = false) {
  const lines: string[] = [];
  const logger = createNodeLogger('punchgate', env, {
    destination: { write: (line: string) => lines.push(line) },
    isTTY,
    now: () => AT,
  });
  return { logger, lines, json: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('LOG_LEVEL and LOG_FORMAT', () => {
  it('default to info and the runtime’s choice of format; case and spaces do not matter', () => {
    expect(readLogSettings({})).toEqual({ level: 'info', format: undefined });
    expect(readLogSettings({ LOG_LEVEL: ' DEBUG ', LOG_FORMAT: 'Text' })).toEqual({
      level: 'debug',
      format: 'text',
    });
  });

  it('refuse anything else, naming the variable and what it takes, both at once', () => {
    expect(() => readLogSettings({ LOG_LEVEL: 'verbose', LOG_FORMAT: 'xml' })).toThrow(
      new LogSettingsError([
        'LOG_LEVEL must be one of debug, info, warn, error (it is "verbose")',
        'LOG_FORMAT must be one of json, text (it is "xml")',
      ]),
    );
    expect(() => createNodeLogger('punchgate', { LOG_LEVEL: 'trace' })).toThrow(
      'LOG_LEVEL must be one of debug, info, warn, error (it is "trace")',
    );
    expect(() => createWorkerLogger('punchgate', { LOG_LEVEL: 'loud' })).toThrow(LogSettingsError);
  });
});

describe('the Node logger (pino)', () => {
  it('writes JSON lines with time, level, name, message and fields, from LOG_LEVEL up', () => {
    const { logger, json } = nodeLogger({ LOG_LEVEL: 'warn', LOG_FORMAT: 'json' });
    logger.debug?.('hidden');
    logger.info('hidden too');
    logger.warn('document delivery failed; will retry', { buyer: 'acme', attempts: 2 });
    logger.error('job gave up', { job: 'j1' });
    expect(json()).toEqual([
      expect.objectContaining({
        level: 'warn',
        time: '2026-11-22T09:00:00.000Z',
        name: 'punchgate',
        msg: 'document delivery failed; will retry',
        buyer: 'acme',
        attempts: 2,
      }),
      expect.objectContaining({ level: 'error', msg: 'job gave up', job: 'j1' }),
    ]);
  });

  it('writes one readable line per message in text mode: time LEVEL name message {fields}', () => {
    const { logger, lines } = nodeLogger({ LOG_LEVEL: 'debug', LOG_FORMAT: 'text' });
    logger.debug?.('request', { route: '/healthz', status: 200 });
    logger.error('request failed');
    expect(lines).toEqual([
      '2026-11-22T09:00:00.000Z DEBUG punchgate request {"route":"/healthz","status":200}\n',
      '2026-11-22T09:00:00.000Z ERROR punchgate request failed\n',
    ]);
  });

  it('picks text on a terminal and JSON lines elsewhere when LOG_FORMAT is unset', () => {
    const tty = nodeLogger({}, true);
    tty.logger.info('hello');
    expect(tty.lines).toEqual(['2026-11-22T09:00:00.000Z INFO  punchgate hello\n']);
    const pipe = nodeLogger({}, false);
    pipe.logger.info('hello');
    expect(pipe.json()).toEqual([expect.objectContaining({ level: 'info', msg: 'hello' })]);
  });

  it('masks a field named like a secret, should a caller ever pass one', () => {
    const { logger, json } = nodeLogger({ LOG_FORMAT: 'json' });
    logger.info('oops', { token: 'pipo-token-123456', password: 'hunter22', buyer: 'acme' });
    expect(json()[0]).toMatchObject({ token: '[redacted]', password: '[redacted]', buyer: 'acme' });
    expect(JSON.stringify(json())).not.toContain('hunter22');
  });

  it('adds the request id to every line written while the gateway handles that request', async () => {
    const { logger, json } = nodeLogger({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' });
    const stack = await createStack(undefined, { gatewayDeps: { logger } });
    const res = await stack.request(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body: setupRequest(),
      headers: { 'Content-Type': 'text/xml', 'X-Request-Id': 'trace-4711' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Request-Id')).toBe('trace-4711');
    const lines = json();
    // One line for the request: what the route did deep inside, after awaits on the store, rides on it.
    expect(lines).toEqual([
      {
        level: 'info',
        time: '2026-11-22T09:00:00.000Z',
        pid: process.pid,
        hostname: expect.any(String),
        name: 'punchgate',
        msg: 'request',
        requestId: 'trace-4711',
        method: 'POST',
        route: '/cxml',
        status: 200,
        ms: expect.any(Number),
        kind: 'PunchOutSetupRequest',
        code: 200,
        event: 'punch-out session opened',
        buyer: 'acme',
        language: 'en',
        protocol: 'cxml',
        operation: 'create',
        mode: 'production',
        storefront: 'demo',
        session: expect.any(String),
        reopenedLines: 0,
        keptLines: 0,
        upstreamCalls: 3,
      },
    ]);
    logger.info('after the request');
    expect(json().at(-1)).not.toHaveProperty('requestId');
  });
});

describe('the Node logger on stderr (batched)', () => {
  const logging = resolve(import.meta.dirname, '../../src/runtime/logging.ts');

  it('hands the lines of one moment over together, within LOG_BATCH_MS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-log-'));
    const file = join(dir, 'gateway.log');
    const destination = batchedLogDestination({ dest: file });
    const logger = createNodeLogger('gateway', { LOG_FORMAT: 'json' }, { destination });
    logger.info('one');
    logger.info('two');
    logger.info('three');
    const read = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    // Nothing yet: the lines wait for the batch's timer, not one write each.
    expect(read()).toBe('');
    await vi.waitFor(() => expect(read().split('\n').filter(Boolean)).toHaveLength(3), { timeout: 5000 });
    expect(
      read()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).msg),
    ).toEqual(['one', 'two', 'three']);
    await destination.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes what waits when the process exits, after process.exit and after a crash', () => {
    for (const [ending, status] of [
      ['process.exit(3);', 3],
      ["throw new Error('the process crashed');", 1],
    ] as const) {
      const script = `import { createNodeLogger } from ${JSON.stringify(logging)};
        const logger = createNodeLogger('gateway', { LOG_FORMAT: 'json' });
        logger.info('first');
        logger.error('last words before the end', { step: 'exit' });
        ${ending}`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(child.status).toBe(status);
      const lines = child.stderr.split('\n').filter((line) => line.startsWith('{'));
      expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['first', 'last words before the end']);
    }
  });
});

describe('the Workers logger (JSON lines through console)', () => {
  it('writes one JSON object per line at its console level, from LOG_LEVEL up', () => {
    const calls: [string, string][] = [];
    const fake = Object.fromEntries(
      (['debug', 'info', 'warn', 'error'] as const).map((level) => [
        level,
        (line: string) => calls.push([level, line]),
      ]),
    ) as unknown as Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;
    const logger = createWorkerLogger('punchgate', { LOG_LEVEL: 'info' }, { console: fake, now: () => AT });
    logger.debug?.('hidden');
    logger.info('request', { requestId: 'abc', status: 200 });
    logger.error('request failed', { level: 'debug', msg: 'forged' });
    expect(calls).toEqual([
      [
        'info',
        '{"level":"info","time":"2026-11-22T09:00:00.000Z","name":"punchgate","msg":"request","requestId":"abc","status":200}',
      ],
      [
        'error',
        '{"level":"error","time":"2026-11-22T09:00:00.000Z","name":"punchgate","msg":"request failed"}',
      ],
    ]);
  });

  it('masks secret-named fields as the Node logger does', () => {
    const lines: string[] = [];
    const push = (line: string) => lines.push(line);
    const fake = { debug: push, info: push, warn: push, error: push };
    const logger = createWorkerLogger('punchgate', {}, { console: fake, now: () => AT });
    logger.warn('refused', { password: 'p', sharedSecret: 's', previousAdminTokens: 't', buyer: 'acme' });
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      password: '[redacted]',
      sharedSecret: '[redacted]',
      previousAdminTokens: '[redacted]',
      buyer: 'acme',
    });
  });
});
