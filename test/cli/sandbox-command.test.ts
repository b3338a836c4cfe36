import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type SandboxSeedInput } from '@punchgate/sandbox';
import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serveNode } from '../../src/runtime/node.ts';
import { GATEWAY_KEY, GATEWAY_TOKEN } from '../support/stack.ts';

const FIXTURE_SEED: SandboxSeedInput = JSON.parse(
  readFileSync(new URL('../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
);

const CLI = new URL('../../src/cli.ts', import.meta.url).pathname;
const BIN = new URL('../../bin/punchgate.js', import.meta.url).pathname;
const auth = { Authorization: `Basic ${btoa(`${GATEWAY_TOKEN}:${GATEWAY_KEY}`)}` };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], entry = CLI): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('sandbox over a real port', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serveNode(createSandbox(FIXTURE_SEED).app, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('E01 E02 E03 answers ping, an order and its ZIP over HTTP from loopback', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ping = await fetch(`${server.url}/api/v2/ping`, { headers: auth });
    expect(ping.status).toBe(204);
    const order = await fetch(`${server.url}/api/v2/order/1001`, { headers: auth });
    expect(order.status).toBe(200);
    expect(((await order.json()) as { id: number }).id).toBe(1001);
    const zip = await fetch(`${server.url}/api/v2/order/1001/download`, { headers: auth });
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename=order-1001.zip');
    expect(new Uint8Array(await zip.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
  });

  it('E13 E16 a PIPO session over HTTP, then the editor page for it', async () => {
    const login = await fetch(`${server.url}/api/v2/pipo/user/login`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'jane.buyer', password: 'demo-pass-1', storefront_id: 1 }),
    });
    const token = (await login.json()) as string;
    const info = await fetch(`${server.url}/api/v2/pipo/user/info`, {
      headers: { ...auth, 'X-PN-TOKEN': token },
    });
    expect(((await info.json()) as { username: string }).username).toBe('jane.buyer');
    const page = await fetch(`${server.url}/editor/online-editor?productid=101&tpsc=1&token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<form id="design-form"');
    const control = await fetch(`${server.url}/_sandbox/`);
    expect(((await control.json()) as { apiUrl: string }).apiUrl).toBe(`${server.url}/api/v2`);
  });
});

// Each test starts the CLI (Node loading the TypeScript sources): a time bound that holds under load.
describe('punchgate CLI', { timeout: 90_000 }, () => {
  it('--help lists only the implemented commands', async () => {
    const [run, none, unknown] = await Promise.all([runCli(['--help']), runCli([]), runCli(['frobnicate'])]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: punchgate <command>');
    const commands = [...run.stdout.matchAll(/^ {2}(\S+) {2,}/gm)].map((m) => m[1]);
    expect(commands).toEqual(['demo', 'serve', 'check-config', 'catalog', 'send', 'sandbox', 'keygen']);
    expect(none.code).toBe(2);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([
      2,
      'punchgate: unknown command "frobnicate"',
    ]);
  });

  it('A02 keygen prints the key of a token; bad input is a usage error naming it (exit 2)', async () => {
    const [run, oneRound, notHex, badRounds, help] = await Promise.all([
      runCli(['keygen', GATEWAY_TOKEN], BIN),
      runCli(['keygen', 'ab', '--rounds', '1']),
      runCli(['keygen', 'xyz']),
      runCli(['keygen', 'ab', '--rounds', '0']),
      runCli(['keygen', '--help']),
    ]);
    expect([run.code, run.stdout]).toEqual([0, `${GATEWAY_KEY}\n`]);
    expect(oneRound.stdout.trim()).toBe('fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603');
    expect([notHex.code, notHex.stderr.split('\n')[0]]).toEqual([
      2,
      'punchgate keygen: TOKEN must be a hex string (got "xyz")',
    ]);
    expect(badRounds.code).toBe(2);
    expect(badRounds.stderr).toContain('--rounds must be an integer from 1 to 100000');
    expect(help.stdout).toContain('Usage: punchgate keygen TOKEN [--rounds N]');
  });

  it('sandbox usage errors name the flag or file; an invalid seed lists every problem by path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-seed-'));
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ keyRounds: 0, licenses: [{ id: 1, name: '', tier: 'Gold' }] }));
    const [badPort, unknownFlag, missing, run, help] = await Promise.all([
      runCli(['sandbox', '--port', '99999']),
      runCli(['sandbox', '--colour']),
      runCli(['sandbox', '--seed', join(dir, 'nope.json')]),
      runCli(['sandbox', '--seed', invalid]),
      runCli(['sandbox', '--help']),
    ]);
    expect([badPort.code, badPort.stderr.split('\n')[0]]).toEqual([
      2,
      'punchgate sandbox: --port must be an integer from 0 to 65535 (got "99999")',
    ]);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("Unknown option '--colour'");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `the seed ${join(dir, 'nope.json')} has problems:\n  (file): cannot be read (ENOENT)`,
    );
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').slice(1, 4)).toEqual([
      '  keyRounds: Too small: expected number to be >=1',
      '  licenses[0].name: Too small: expected string to have >=1 characters',
      expect.stringMatching(/^ {2}licenses\[0\]\.tier: Invalid option/),
    ]);
    expect(help.stdout).toContain('--merge-delay-ms N');
  });

  it('sandbox serves on the port it prints until it is stopped', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      [CLI, 'sandbox', '--port', '0', '--merge-delay-ms', '10'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const banner = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk) => {
          out += chunk;
          if (out.includes('API keys')) resolve(out);
        });
        child.once('exit', (code) => reject(new Error(`sandbox exited early with ${code}`)));
      });
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      expect(banner).toContain(`Editor URL:   ${url}/editor`);
      expect(banner).toContain(`${GATEWAY_TOKEN}:${GATEWAY_KEY}`);
      expect((await fetch(`${url}/api/v2/ping`, { headers: auth })).status).toBe(204);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
