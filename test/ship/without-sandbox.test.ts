/**
 * The published gateway does not depend on `@punchgate/sandbox`: a user who installed only `punchgate` and
 * runs a command that needs the sandbox gets one line naming the package to install (exit 1, no stack).
 * The commands run from a copy of the gateway whose node_modules holds every installed package except the
 * workspace's two (`@punchgate/sandbox` and the link back to `punchgate`), so the sandbox cannot resolve.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_TIMEOUT_MS, childEnv, SHIP_TEST_TIMEOUT_MS } from './processes.ts';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const WORKSPACE_LINKS = new Set(['@punchgate', 'punchgate', '.bin', '.package-lock.json']);
const INSTALL_HINT =
  'the sandbox print service and the buyer simulator are a separate package; install it beside punchgate: npm install @punchgate/sandbox';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCopy(bin: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: childEnv(), timeout: COMMAND_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('punchgate without @punchgate/sandbox installed', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'punchgate-alone-'));
    for (const entry of ['package.json', 'bin', 'src', 'schemas', 'fixtures']) {
      cpSync(join(REPOSITORY, entry), join(copy, entry), { recursive: true });
    }
    const installed = join(REPOSITORY, 'node_modules');
    mkdirSync(join(copy, 'node_modules'));
    for (const entry of readdirSync(installed)) {
      if (!WORKSPACE_LINKS.has(entry)) symlinkSync(join(installed, entry), join(copy, 'node_modules', entry));
    }
  }, SHIP_TEST_TIMEOUT_MS);
  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  it('demo, sandbox and keygen each say in one line which package to install, exit 1', async () => {
    const bin = join(copy, 'bin/punchgate.js');
    const [demo, sandbox, keygen] = await Promise.all([
      runCopy(bin, ['demo', '--port', '0']),
      runCopy(bin, ['sandbox', '--port', '0']),
      runCopy(bin, ['keygen', '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c']),
    ]);
    expect(demo).toEqual({ code: 1, stdout: '', stderr: `punchgate demo: ${INSTALL_HINT}\n` });
    expect(sandbox).toEqual({ code: 1, stdout: '', stderr: `punchgate sandbox: ${INSTALL_HINT}\n` });
    expect(keygen).toEqual({ code: 1, stdout: '', stderr: `punchgate keygen: ${INSTALL_HINT}\n` });
  });

  it('the commands that do not need the sandbox still work', async () => {
    const check = await runCopy(join(copy, 'bin/punchgate.js'), [
      'check-config',
      join(copy, 'fixtures/demo.config.json'),
    ]);
    // The demo's buyers have no authAllowedAddresses: warned about, still valid.
    expect([check.code, check.stderr.match(/^punchgate check-config: warning: \S+/gm)]).toEqual([
      0,
      [0, 1, 2].map((i) => `punchgate check-config: warning: buyers[${i}].authAllowedAddresses:`),
    ]);
  });
});
