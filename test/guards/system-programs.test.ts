/**
 * No system program in the tests: test code and its support start only Node itself, npm and npx (which
 * come with Node), /bin/sh (the shell npm runs `npm test` with), and binaries that npm installed into
 * node_modules. Everything else a test once took from the machine (xmllint, Chromium, PostgreSQL's initdb
 * and pg_ctl, psql) comes from npm now, so `npm install && npm test` is all a fresh machine needs; this
 * guard keeps it that way. test/guards/spawned-programs.ts says how a program is followed back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Program, type Spawn, spawnedPrograms } from './spawned-programs.ts';

const root = join(import.meta.dirname, '../..');

/** By name, the programs that come with Node and npm or that every machine running npm has. */
const ALLOWED_NAMES = new Set(['npm', 'npx', '/bin/sh']);

function allowed(program: Program): boolean {
  return (
    program.kind === 'node' ||
    program.kind === 'npm' ||
    (program.kind === 'named' && ALLOWED_NAMES.has(program.name))
  );
}

function describeProgram(program: Program): string {
  switch (program.kind) {
    case 'node':
      return 'node';
    case 'npm':
      return `npm (${program.via})`;
    case 'named':
      return program.name;
    case 'unknown':
      return `a program the guard cannot follow: ${program.text}`;
  }
}

/** What a test that breaks the rule is told: where, which call, which program. */
function refusals(file: string, source: string): string[] {
  return spawnedPrograms(file, source).flatMap((spawn: Spawn) =>
    spawn.programs
      .filter((program) => !allowed(program))
      .map((program) => `${file}:${spawn.line} ${spawn.call} starts ${describeProgram(program)}`),
  );
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

const packageTests = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name, 'test'))
  .filter((dir) => {
    try {
      return readdirSync(dir).length > 0;
    } catch {
      return false;
    }
  });
const files = [join(root, 'test'), ...packageTests].flatMap(testFiles);

// Each test here parses every test file with the TypeScript compiler: 5 s quiet, 20 s and more on a
// loaded machine, which is no reason to fail.
describe('test code starts no system program', { timeout: 120_000 }, () => {
  it('every child_process call in test/ and packages/*/test starts Node, npm/npx, /bin/sh or a binary from node_modules', () => {
    const found = files.flatMap((file) => [
      ...new Set(refusals(file, readFileSync(join(root, file), 'utf8'))),
    ]);
    expect(found).toEqual([]);
  });

  it('finds the programs the tests do start, so an empty answer above means something', () => {
    const starts = files.flatMap((file) =>
      spawnedPrograms(file, readFileSync(join(root, file), 'utf8')).map((spawn) => ({ file, spawn })),
    );
    const programs = new Set(starts.flatMap(({ spawn }) => spawn.programs.map(describeProgram)));
    expect(programs).toContain('node');
    expect(programs).toContain('npm');
    expect(programs).toContain('npx');
    expect([...programs].filter((name) => name.startsWith('npm ('))).not.toEqual([]);
    expect(starts.filter(({ file }) => file === 'test/support/throwaway-postgres.ts').length).toBeGreaterThan(
      0,
    );
  });
});

describe('the guard itself', () => {
  const refused = (source: string) => refusals('planted.test.ts', source);

  it('refuses a planted execFileSync of xmllint, naming the file, line and program', () => {
    expect(
      refused(
        `import { execFileSync } from 'node:child_process';\n\nexecFileSync('xmllint', ['--noout', 'a.xml']);\n`,
      ),
    ).toEqual(['planted.test.ts:3 execFileSync starts xmllint']);
  });

  it('follows the program through a constant, a parameter, a conditional and destructuring', () => {
    expect(
      refused(`import { spawn, spawnSync } from 'node:child_process';
const CHROMIUM = '/usr/bin/chromium';
spawn(CHROMIUM, []);
function run(program: string, args: string[]) { return spawnSync(program, args); }
run('initdb', ['-D', 'data']);
run(process.execPath, ['-v']);
const [file] = process.env.CI ? ['pg_ctl'] : [process.execPath];
spawn(file, ['start']);
`),
    ).toEqual([
      'planted.test.ts:3 spawn starts /usr/bin/chromium',
      'planted.test.ts:4 spawnSync starts initdb',
      'planted.test.ts:8 spawn starts pg_ctl',
    ]);
  });

  it('reads a shell line, a namespace import and promisify', () => {
    expect(
      refused(`import * as cp from 'node:child_process';
import { execFile, exec } from 'child_process';
import { promisify } from 'node:util';
exec('psql -c "select 1"');
cp.spawnSync('chromium', ['--headless']);
await promisify(execFile)('xmllint', []);
const run = promisify(execFile);
await run('pg_ctl', []);
`),
    ).toEqual([
      'planted.test.ts:4 exec starts psql',
      'planted.test.ts:5 spawnSync starts chromium',
      'planted.test.ts:6 execFile starts xmllint',
      'planted.test.ts:8 execFile starts pg_ctl',
    ]);
  });

  it('refuses a program it cannot follow rather than letting it pass', () => {
    expect(
      refused(`import { spawn } from 'node:child_process';\nspawn(process.env.PROGRAM ?? 'node', []);\n`),
    ).toEqual([
      "planted.test.ts:2 spawn starts a program the guard cannot follow: process.env.PROGRAM ?? 'node'",
    ]);
  });

  it('lets Node, npm, /bin/sh and binaries from npm packages through', () => {
    expect(
      refused(`import { fork, spawn } from 'node:child_process';
import { join } from 'node:path';
spawn(process.execPath, ['bin/punchgate.js']);
spawn('npx', ['--no-install', 'punchgate']);
spawn('/bin/sh', ['-c', 'ulimit -n 64 && exec "$0"', process.execPath]);
fork('worker.js');
spawn(join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), []);
const { postgres } = await import(PLATFORM_PACKAGE);
spawn(postgres, ['-D', 'data']);
`),
    ).toEqual([]);
  });
});
