import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite.ts';
import { disposeDtdValidators, validateAgainstDtd } from '../support/dtd-validation.ts';

// Each test starts the CLI (Node loading the TypeScript sources), often more than once: a second or two
// quiet, many times that on a loaded machine, which is no reason to fail.
const CLI_TEST_TIMEOUT_MS = 90_000;

afterAll(disposeDtdValidators);

const BIN = new URL('../../bin/punchgate.js', import.meta.url).pathname;
const run = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH } });

describe('punchgate check-config', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('accepts the demo config', () => {
    const result = run('check-config', 'fixtures/demo.config.json');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      'fixtures/demo.config.json is valid: 2 storefront(s), 3 buyer(s): acme (cxml), coupa (cxml), sap1 (oci); store sqlite\n',
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
    const demo = JSON.parse(readFileSync('fixtures/demo.config.json', 'utf8'));
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
    const demo = JSON.parse(readFileSync('fixtures/demo.config.json', 'utf8'));
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

  it('a config file that cannot be read is a usage error (exit 2) naming the file; bad JSON is a problem of the file', () => {
    const missing = run('check-config', '/nonexistent/config.json');
    expect([missing.status, missing.stderr]).toEqual([
      2,
      'punchgate check-config: cannot read FILE /nonexistent/config.json: file not found\nRun punchgate check-config --help for usage.\n',
    ]);
    const folder = run('serve', '--config', tmpdir());
    expect([folder.status, folder.stderr]).toEqual([
      2,
      `punchgate serve: cannot read --config ${tmpdir()}: is a directory\nRun punchgate serve --help for usage.\n`,
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-config-'));
    writeFileSync(join(dir, 'x.json'), '{ nope');
    const result = run('check-config', join(dir, 'x.json'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('is not valid JSON');
  });

  it('warns (exit 0) about each buyer without authAllowedAddresses, naming its path', () => {
    const result = run('check-config', 'fixtures/demo.config.json');
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(
      ['acme', 'coupa', 'sap1']
        .map(
          (id, i) =>
            `punchgate check-config: warning: buyers[${i}].authAllowedAddresses: not set: anyone who knows buyer "${id}"'s identity can lock it out by failing authentication; list the addresses of its procurement system\n`,
        )
        .join(''),
    );
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-config-'));
    const demo = JSON.parse(readFileSync('fixtures/demo.config.json', 'utf8'));
    for (const buyer of demo.buyers) buyer.authAllowedAddresses = ['192.0.2.0/24'];
    writeFileSync(join(dir, 'allowed.json'), JSON.stringify(demo));
    expect(run('check-config', join(dir, 'allowed.json')).stderr).toBe('');
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
    for (const command of ['serve', 'check-config', 'catalog', 'send', 'sandbox', 'keygen']) {
      const result = run(command, '--help');
      expect(result.status, command).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: punchgate ${command}`));
    }
  });
});

/** A port held open on loopback until its server is closed. */
async function listeningPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

const runAsync = (args: string[], cwd = process.cwd()) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', cwd, env: { PATH: process.env.PATH } },
      (error, stdout, stderr) =>
        resolve({ status: error === null ? 0 : (error.code as number), stdout, stderr }),
    );
  });

describe('punchgate catalog', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it("writes the demo buyer's cXML Index to standard output, valid against cXML.dtd", () => {
    const result = run(
      'catalog',
      '--config',
      'fixtures/demo.config.json',
      '--buyer',
      'acme',
      '--format',
      'cxml',
    );
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(validateAgainstDtd(result.stdout, 'cXML')).toEqual({ ok: true, messages: '' });
    const parts = [...result.stdout.matchAll(/<SupplierPartID>([^<]+)<\/SupplierPartID>/g)].map((m) => m[1]);
    expect(parts).toEqual(['BC-STD', 'FLY-A5', 'POS-CUSTOM']);
    expect(result.stdout).toContain('<URL>http://127.0.0.1:8080/cxml</URL>');
  });

  it('writes the CIF file to --out, and says where', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'punchgate-catalog-')), 'acme.cif');
    const result = run(
      'catalog',
      '--config',
      'fixtures/demo.config.json',
      '--buyer',
      'sap1',
      '--format',
      'cif',
      '--out',
      out,
    );
    expect([result.status, result.stdout, result.stderr]).toEqual([
      0,
      `wrote the CIF 3.0 catalog of buyer sap1 to ${out}\n`,
      '',
    ]);
    const lines = readFileSync(out, 'utf8').split('\r\n');
    expect(lines.slice(0, 2)).toEqual(['CIF_I_V3.0', 'CHARSET: UTF-8']);
    expect(lines).toContain('ITEMCOUNT: 3');
    expect(lines.find((line) => line.startsWith('PRINTCO,FLY-A5,'))).toMatch(
      /^PRINTCO,FLY-A5,A5 flyer,82121503,0\.35,EA,3,http:\/\/127\.0\.0\.1:8080\/oci\/sap1,en,USD,http:\/\/127\.0\.0\.1:8080\/thumbnail\/demo\/102\/[\w-]{22}\.png,TRUE$/,
    );
    expect(lines.slice(-2)).toEqual(['ENDOFDATA', '']);
  });

  it('an unknown buyer, or a product without a field CIF requires, is one line naming it (exit 1)', () => {
    const unknown = run(
      'catalog',
      '--config',
      'fixtures/demo.config.json',
      '--buyer',
      'globex',
      '--format',
      'cif',
    );
    expect([unknown.status, unknown.stdout, unknown.stderr]).toEqual([
      1,
      '',
      'punchgate catalog: no buyer "globex" is configured (the config has acme, coupa, sap1)\n',
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'punchgate-catalog-')), 'no-unspsc.json');
    const demo = JSON.parse(readFileSync('fixtures/demo.config.json', 'utf8'));
    delete demo.storefronts[0].products[1].unspsc;
    writeFileSync(file, JSON.stringify(demo));
    const missing = run('catalog', '--config', file, '--buyer', 'coupa', '--format', 'cif');
    expect([missing.status, missing.stdout, missing.stderr]).toEqual([
      1,
      '',
      'punchgate catalog: buyer coupa: product FLY-A5 has no UNSPSC code, which CIF requires (field "SPSC Code")\n',
    ]);
  });

  it("reads the buyer's reorder items from the config's store and lists them after the products", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'punchgate-catalog-'));
    const path = join(dir, 'gateway.db');
    const store = createSqliteStore({ path });
    await store.reorders.record([
      {
        buyerId: 'acme',
        partId: 'R-BC-STD-4242',
        storefrontId: 'demo',
        userRef: 'jroe',
        designId: 4242,
        productId: 101,
        sku: 'BC-STD',
        name: 'Business cards (design 4242)',
        thumbnailUrl: 'http://127.0.0.1:8080/sandbox/editor/productthumb.ashx?p=4242&w=200&h=140',
        quantity: 500,
        unitPrice: '0.09',
        currency: 'USD',
        uom: 'EA',
        poId: '1',
        orderedAt: new Date('2026-11-20T10:00:00Z'),
      },
    ]);
    await store.close();
    const file = join(dir, 'config.json');
    const demo = JSON.parse(readFileSync('fixtures/demo.config.json', 'utf8'));
    writeFileSync(file, JSON.stringify({ ...demo, store: { kind: 'sqlite', path } }));
    const result = run('catalog', '--config', file, '--buyer', 'acme', '--format', 'cxml');
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(validateAgainstDtd(result.stdout, 'cXML')).toEqual({ ok: true, messages: '' });
    const parts = [...result.stdout.matchAll(/<SupplierPartID>([^<]+)<\/SupplierPartID>/g)].map((m) => m[1]);
    expect(parts).toEqual(['BC-STD', 'FLY-A5', 'POS-CUSTOM', 'R-BC-STD-4242']);
    // coupa has reorders off: acme's item is not in its catalog.
    const coupa = run('catalog', '--config', file, '--buyer', 'coupa', '--format', 'cxml');
    expect(coupa.stdout).not.toContain('R-BC-STD-4242');
  });

  it('a missing or unknown --format is a usage error (exit 2)', () => {
    const missing = run('catalog', '--config', 'fixtures/demo.config.json', '--buyer', 'acme');
    expect([missing.status, missing.stderr]).toEqual([
      2,
      'punchgate catalog: --format cif|cxml is required\nRun punchgate catalog --help for usage.\n',
    ]);
  });
});

describe('messages that say what to do', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  it('send to a closed port names the URL and the reason (exit 1)', async () => {
    const { port, server } = await listeningPort();
    await new Promise((resolve) => server.close(resolve));
    const url = `http://127.0.0.1:${port}/cxml`;
    const result = await runAsync([
      'send',
      'fixtures/cxml/valid/profile-request.oracle-osn-no-tz.xml',
      '--to',
      url,
    ]);
    expect([result.status, result.stderr]).toEqual([
      1,
      `punchgate send: could not reach ${url}: connection refused (ECONNREFUSED)\n`,
    ]);
  });

  it('a port in use is one line naming it and the way out (exit 1), for serve, demo and sandbox', async () => {
    const { port, server } = await listeningPort();
    const cwd = mkdtempSync(join(tmpdir(), 'punchgate-port-'));
    try {
      const config = new URL('../../fixtures/demo.config.json', import.meta.url).pathname;
      const serve = await runAsync(['serve', '--config', config, '--port', String(port)], cwd);
      expect(serve.status).toBe(1);
      expect(serve.stderr.trimEnd().split('\n').at(-1)).toBe(
        `punchgate serve: port ${port} on 127.0.0.1 is already in use; choose another with --port or PORT`,
      );
      const sandbox = await runAsync(['sandbox', '--port', String(port)], cwd);
      expect([sandbox.status, sandbox.stderr]).toEqual([
        1,
        `punchgate sandbox: port ${port} on 127.0.0.1 is already in use; choose another with --port\n`,
      ]);
      const demo = await runAsync(['demo', '--port', String(port)], cwd);
      expect(demo.status).toBe(1);
      expect(demo.stderr.trimEnd().split('\n').at(-1)).toBe(
        `punchgate demo: port ${port} on 127.0.0.1 is already in use; choose another with --port or PORT`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
