/**
 * On a Node older than `engines.node`, `npm install` in the repository (its preinstall script) and every
 * `punchgate` command stop at once with one line naming the Node they need and the one they found: no
 * stack trace from code the old Node cannot run. The old Node is Debian's at /usr/bin/node, which CI
 * keeps beside the Node 24 it installs into /usr/local (.ci/run), as this machine does.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const OLD_NODE = '/usr/bin/node';
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(node: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      node,
      args,
      { cwd: REPOSITORY, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('the Node version guard', () => {
  let oldVersion: string;
  let refusal: string;

  beforeAll(async () => {
    if (!existsSync(OLD_NODE)) {
      throw new Error(
        `${OLD_NODE} is missing: this test needs an old Node there (Debian's nodejs package; .ci/run installs Node 24 into /usr/local beside it)`,
      );
    }
    oldVersion = (await run(OLD_NODE, ['-p', 'process.versions.node'])).stdout.trim();
    const major = Number(oldVersion.split('.')[0]);
    if (!(major < 22)) {
      throw new Error(
        `${OLD_NODE} is Node ${oldVersion}; this test needs one older than ${PACKAGE.engines.node}`,
      );
    }
    expect(PACKAGE.engines.node).toBe('>=22.19.0');
    refusal = `punchgate needs Node.js 22.19.0 or newer; this is Node.js ${oldVersion}\n`;
  });

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
