/**
 * A clone on its own passes the tests: nothing the tests, the benchmarks, the vitest configs or CI run reads
 * a file outside the repository. What they used to read from beside it now lives inside: the cXML DTDs in
 * fixtures/cxml-dtd, the print interface's requirement ids in packages/sandbox/test/print/interface-rows.md.
 * Caught here: a relative path that climbs out of the repository from the file that names it, and any
 * mention of the `shared` folder that sat beside the repository. System tools (xmllint, Chromium,
 * PostgreSQL's binaries) are found where the machine installs them; they are not files of the project.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const THIS_FILE = relative(root, import.meta.filename);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(root, path)];
  });
}

const packages = readdirSync(join(root, 'packages')).filter((name) =>
  statSync(join(root, 'packages', name)).isDirectory(),
);
const CHECKED = [
  ...filesUnder(join(root, 'test')),
  ...packages.flatMap((name) => filesUnder(join(root, 'packages', name, 'test'))),
  ...filesUnder(join(root, 'bench')),
  ...['vitest.config.ts', 'vitest.fuzz.config.ts', '.ci/run'].filter((file) => existsSync(join(root, file))),
]
  .filter((file) => /\.(ts|js|mjs|json|sh)$|^\.ci\/run$/.test(file))
  .filter((file) => file !== THIS_FILE);

describe('the tests read nothing outside the repository', () => {
  it('the check covers the tests of the gateway and of every package, the benchmarks and CI', () => {
    expect(CHECKED).toContain('test/support/dtd-validation.ts');
    expect(CHECKED).toContain('packages/sandbox/test/print/interface-rows.test.ts');
    expect(CHECKED).toContain('.ci/run');
  });

  it('no relative path climbs out of the repository from the file that names it', () => {
    const escapes = CHECKED.flatMap((file) =>
      [...readFileSync(join(root, file), 'utf8').matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)]
        .map((m) => m[1]!)
        .filter((path) => relative(root, resolve(dirname(join(root, file)), path)).startsWith('..'))
        .map((path) => `${file}: ${path}`),
    );
    expect(escapes).toEqual([]);
  });

  it('nothing names the shared folder that sat beside the repository', () => {
    const beside = /\.\.\/shared\b|\/shared\/(design|reference)\b/;
    expect(CHECKED.filter((file) => beside.test(readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });
});
