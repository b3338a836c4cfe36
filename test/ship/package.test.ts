/**
 * The published packages as a user gets them: `npm pack` of `punchgate` and `@punchgate/sandbox` (each
 * builds its dist/ on the way, prepare and prepack), both tarballs installed into an empty project, and
 * then what the README promises: `npx punchgate`, a typed `import` from 'punchgate' under
 * `moduleResolution: nodenext`, and `npx punchgate sandbox` and `npx punchgate demo` serving from the
 * files the packages ship. Nothing here runs the repository's sources: the children get an environment
 * without the "punchgate-source" condition vitest sets, so they resolve the packages' dist/ as any
 * project would. `npm install` works offline because every dependency is in npm's cache after the
 * repository's own `npm ci`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPOSITORY, 'node_modules/typescript/bin/tsc');
/** Packing builds both packages (tsc) and installing unpacks a few hundred files: minutes on a busy machine. */
const SETUP_TIMEOUT_MS = 300_000;
const COMMAND_TIMEOUT_MS = 60_000;

interface PackedFile {
  path: string;
}
interface PackResult {
  name: string;
  filename: string;
  files: PackedFile[];
}
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What `npm test` (or npx) tells its script about this repository: its prefix, package, lifecycle and the
 * repository's allowScripts. The machine's npm settings (npm_config_cache, userconfig, registry, …) stay,
 * so the consumer's install finds the same cache.
 */
const REPOSITORY_NPM_VARIABLES =
  /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_(local_prefix|allow_scripts|npm_version|user_agent)$)/i;

/**
 * The environment of a user's shell: this process's, minus NODE_OPTIONS (vitest adds the repository's
 * source condition there) and the npm variables that describe this repository.
 */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name !== 'NODE_OPTIONS' && !REPOSITORY_NPM_VARIABLES.test(name)) env[name] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: userEnv(), timeout: SETUP_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Fails with what the command wrote when it did not exit 0. */
function mustSucceed(what: string, result: Run): Run {
  if (result.code !== 0) {
    throw new Error(
      `${what} exited ${result.code}\n--- stderr ---\n${result.stderr}\n--- stdout ---\n${result.stdout}`,
    );
  }
  return result;
}

/** npx's own complaints about the machine's npm config (`npm warn …`) are not punchgate's output. */
function withoutNpmWarnings(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => !line.startsWith('npm warn '))
    .join('\n');
}

/** Top-level entries of a package: a file's path, or a folder's name with a slash. */
function topLevel(files: readonly PackedFile[]): string[] {
  return [...new Set(files.map((file) => file.path.replace(/\/.*$/s, '/')))].sort();
}

describe('the packed packages, installed into an empty project', { timeout: COMMAND_TIMEOUT_MS }, () => {
  let work: string;
  let project: string;
  let gateway: PackResult;
  let sandbox: PackResult;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'punchgate-package-'));
    const packed = mustSucceed(
      'npm pack',
      await run(
        'npm',
        ['pack', '--workspaces', '--include-workspace-root', '--pack-destination', work, '--json'],
        REPOSITORY,
      ),
    );
    const results = JSON.parse(packed.stdout) as PackResult[];
    const byName = (name: string) => {
      const found = results.find((result) => result.name === name);
      if (found === undefined) throw new Error(`npm pack made no ${name} tarball:\n${packed.stdout}`);
      return found;
    };
    gateway = byName('punchgate');
    sandbox = byName('@punchgate/sandbox');

    project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
    );
    mustSucceed(
      'npm install of the tarballs',
      await run(
        'npm',
        [
          'install',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          join(work, gateway.filename),
          join(work, sandbox.filename),
        ],
        project,
      ),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('close', () => resolve());
            // npx runs the command in a child of its own: stop the whole group.
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          }),
      ),
    );
    rmSync(work, { recursive: true, force: true });
  });

  it('each package holds its built code, the files its commands read, and nothing of the repository', () => {
    expect(topLevel(gateway.files)).toEqual([
      'LICENSE',
      'README.md',
      'bin/',
      'dist/',
      'package.json',
      'schemas/',
    ]);
    const gatewayPaths = gateway.files.map((file) => file.path);
    expect(gatewayPaths).toEqual(
      expect.arrayContaining([
        'bin/punchgate.js',
        'bin/check-node.cjs',
        'dist/src/cli.js',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        // src/cli.ts's default seed and src/runtime/demo.ts's config and seed, at their relative URLs.
        'dist/fixtures/sandbox-seed.json',
        'dist/fixtures/demo.config.json',
        'schemas/config.schema.json',
      ]),
    );
    expect(gatewayPaths.filter((path) => /\.ts$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
    // The version is src/print-api/version.ts's: no module reads package.json any more.
    expect(gatewayPaths).not.toContain('dist/package.json');
    // No test of the repository: nothing under a test folder, no *.test.* file (a module may still be
    // named for what it does, such as the console's test punch-out).
    expect(gatewayPaths.filter((path) => /(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(path))).toEqual([]);

    expect(topLevel(sandbox.files)).toEqual(['LICENSE', 'README.md', 'dist/', 'package.json']);
    // npm packs a package's own LICENSE only: the sandbox keeps a copy of the repository's, word for word.
    expect(readFileSync(join(REPOSITORY, 'packages/sandbox/LICENSE'), 'utf8')).toBe(
      readFileSync(join(REPOSITORY, 'LICENSE'), 'utf8'),
    );
    const sandboxPaths = sandbox.files.map((file) => file.path);
    expect(sandboxPaths).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/buyer/index.js', 'dist/node.js']),
    );
    expect(sandboxPaths.filter((path) => /\.ts$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('npx punchgate --help lists the commands', async () => {
    const help = await run('npx', ['--no-install', 'punchgate', '--help'], project);
    expect([help.code, withoutNpmWarnings(help.stderr)]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^Usage: punchgate <command> \[options\]\n/);
    expect(help.stdout).toContain('\n  sandbox ');
  });

  it("import { createPrintApi, createEditorUrls } from 'punchgate' works at run time, with the subpaths", async () => {
    const script = [
      "import { createPrintApi, createEditorUrls, DEFAULT_USER_AGENT } from 'punchgate';",
      "import { serializeXml } from 'punchgate/cxml';",
      "import { createNodeFetch } from 'punchgate/node';",
      "import { createSandbox } from '@punchgate/sandbox';",
      "import { readSeedFile } from '@punchgate/sandbox/node';",
      "const api = createPrintApi({ baseUrl: 'https://print.example.com', token: 't', key: 'k' });",
      "const urls = createEditorUrls('https://print.example.com/editor');",
      'console.log([typeof api.ping, typeof urls.onlineEditorUrl, DEFAULT_USER_AGENT,',
      '  typeof serializeXml, typeof createNodeFetch, typeof createSandbox, typeof readSeedFile].join(" "));',
    ].join('\n');
    const imported = await run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(imported).toEqual({
      code: 0,
      stdout: 'function function punchgate/0.1.0 function function function function\n',
      stderr: '',
    });
  });

  it('a consumer .ts file type-checks under moduleResolution nodenext, and a wrong call does not', async () => {
    const compilerOptions = {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2023',
      lib: ['es2023', 'dom'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    };
    writeFileSync(
      join(project, 'right.ts'),
      [
        "import { createEditorUrls, createPrintApi, type PrintApi, PrintApiError } from 'punchgate';",
        "import { createSandbox } from '@punchgate/sandbox';",
        "import { createNodeFetch } from 'punchgate/node';",
        'const api: PrintApi = createPrintApi({',
        "  baseUrl: 'https://print.example.com', token: 't', key: 'k', fetch: createNodeFetch() });",
        'export const ping: Promise<void> = api.ping();',
        "export const editor: string = createEditorUrls('https://print.example.com/editor').onlineEditorUrl({",
        "  productId: 101, token: 'session', cartReturnUrl: 'https://gateway.example.com/return' });",
        'export const isError = (error: unknown): boolean => error instanceof PrintApiError;',
        'export const sandboxMaker: typeof createSandbox = createSandbox;',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'wrong.ts'),
      [
        "import { createPrintApi } from 'punchgate';",
        "export const api = createPrintApi({ baseUrl: 'https://print.example.com', token: 't' });",
        '',
      ].join('\n'),
    );
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['right.ts'] }));
    writeFileSync(
      join(project, 'tsconfig.wrong.json'),
      JSON.stringify({ compilerOptions, files: ['wrong.ts'] }),
    );

    const [right, wrong] = await Promise.all([
      run(process.execPath, [TSC, '-p', 'tsconfig.json'], project),
      run(process.execPath, [TSC, '-p', 'tsconfig.wrong.json'], project),
    ]);
    expect(right).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toMatch(/^wrong\.ts\(2,35\): error TS2345: .*\n {2}Property 'key' is missing/);
  });

  /** `npx punchgate <args>` left running; resolves with the first match of `pattern` in what it prints. */
  function startCommand(
    args: readonly string[],
    pattern: RegExp,
  ): Promise<{ match: RegExpExecArray; out: string }> {
    const child = spawn('npx', ['--no-install', 'punchgate', ...args], {
      cwd: project,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    return new Promise((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = pattern.exec(out);
        if (match) resolve({ match, out });
      });
      child.once('close', (code) =>
        reject(new Error(`punchgate ${args[0]} exited (${code})\n${err}\n${out}`)),
      );
    });
  }

  it('npx punchgate sandbox serves the print API from the seed it ships', async () => {
    const { match, out } = await startCommand(
      ['sandbox', '--port', '0'],
      /^ {4}Enterprise +([0-9a-f]+):([0-9a-f]+) +punchgate gateway demo$/m,
    );
    expect(out).toMatch(/^punchgate sandbox print service on http:\/\/127\.0\.0\.1:\d+ \(seed /);
    const base = /API base URL: (\S+)/.exec(out)?.[1];
    const basic = Buffer.from(`${match[1]}:${match[2]}`).toString('base64');
    const ping = await fetch(`${base}/api/v2/ping`, { headers: { Authorization: `Basic ${basic}` } });
    expect(ping.status).toBe(204);
    const refused = await fetch(`${base}/api/v2/ping`);
    expect(refused.status).toBe(401);
  });

  it('npx punchgate demo runs from the demo config and seed it ships', async () => {
    const { match } = await startCommand(['demo', '--port', '0'], /^punchgate demo on (\S+)$/m);
    const [buyer, ready] = await Promise.all([fetch(`${match[1]}/buyer`), fetch(`${match[1]}/readyz`)]);
    expect([buyer.status, ready.status]).toEqual([200, 200]);
    expect(await buyer.text()).toContain('<html');
  });
});
