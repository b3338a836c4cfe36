import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/punchgate.js', import.meta.url).pathname;
const run = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH } });

describe('punchgate check-config', () => {
  it('accepts the demo config', () => {
    const result = run('check-config', 'fixtures/demo.config.json');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      'fixtures/demo.config.json is valid: 1 storefront(s), 3 buyer(s): acme (cxml), coupa (cxml), sap1 (oci); store sqlite\n',
    );
  });

  it('lists every problem by path and exits 1, including unset environment variables', () => {
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-config-'));
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        publicUrl: 'gateway',
        signingKey: { env: 'PUNCHGATE_TEST_UNSET' },
        buyers: [{ id: 'x' }],
      }),
    );
    const result = run('check-config', file);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      [
        `punchgate check-config: ${file} has 5 problems:`,
        '  publicUrl: must be an absolute http(s) URL',
        '  adminToken: is required',
        '  storefronts: is required',
        "  buyers[0].protocol: Invalid discriminator value. Expected 'cxml' | 'oci'",
        '  signingKey: environment variable PUNCHGATE_TEST_UNSET is not set',
        '',
      ].join('\n'),
    );
  });

  it('names an unset environment variable by its config path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-config-'));
    const file = join(dir, 'env.json');
    const demo = JSON.parse(spawnSync('cat', ['fixtures/demo.config.json'], { encoding: 'utf8' }).stdout);
    demo.buyers[0].sharedSecret = { env: 'PUNCHGATE_TEST_ACME_SECRET' };
    writeFileSync(file, JSON.stringify(demo));
    const result = run('check-config', file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      '  buyers[0].sharedSecret: environment variable PUNCHGATE_TEST_ACME_SECRET is not set',
    );
  });

  it('check-config and serve refuse the retired memory store and say what to write instead', () => {
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-config-'));
    const file = join(dir, 'memory.json');
    const demo = JSON.parse(spawnSync('cat', ['fixtures/demo.config.json'], { encoding: 'utf8' }).stdout);
    writeFileSync(file, JSON.stringify({ ...demo, store: { kind: 'memory' } }));
    const problem =
      '  store.kind: "memory" is no longer supported: write { "kind": "sqlite", "path": ":memory:" } for a store that lives as long as the process\n';
    for (const [command, args] of [
      ['check-config', [file]],
      ['serve', ['--config', file, '--port', '0']],
    ] as const) {
      const result = run(command, ...args);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`punchgate ${command}: ${file} has 1 problem:\n${problem}`);
    }
  });

  it('a missing file and bad JSON are problems of the file', () => {
    expect(run('check-config', '/nonexistent/config.json').stderr).toContain(
      '(file): /nonexistent/config.json: file not found',
    );
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-config-'));
    writeFileSync(join(dir, 'x.json'), '{ nope');
    const result = run('check-config', join(dir, 'x.json'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is not valid JSON');
  });

  it('usage errors exit 2 and name the problem', () => {
    const result = run('check-config');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'punchgate check-config: check-config takes exactly one FILE\nRun punchgate check-config --help for usage.\n',
    );
    expect(run('serve').stderr).toContain('punchgate serve: --config FILE is required');
    expect(run('serve', '--config', 'x', '--port', 'eighty').stderr).toContain(
      '--port must be an integer from 0 to 65535 (got "eighty")',
    );
    expect(run('send', 'file.xml').stderr).toContain('--to URL is required');
  });

  it('every command has --help', () => {
    for (const command of ['serve', 'check-config', 'send', 'sandbox', 'keygen']) {
      const result = run(command, '--help');
      expect(result.status, command).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: punchgate ${command}`));
    }
  });
});
