/**
 * Runtime at the edges: only the Node runtime (the Node-only files of src/runtime, src/cli.ts) and the
 * Node-only store adapters and transport may use Node built-ins or `process`; in the sandbox package
 * (packages/sandbox/src) only its Node file does, by the same naming rule. Everything else runs unchanged
 * on Cloudflare Workers, which `tsconfig.pure.json` (no Node types) checks at compile time; this test keeps
 * its exclusion list and the source in step, and catches `process` used without a type error (globalThis).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const pure = JSON.parse(readFileSync(join(root, 'tsconfig.pure.json'), 'utf8')) as { exclude: string[] };
const NODE_ONLY = new Set(pure.exclude);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

/** The code without comments, so an example in a doc comment is not taken for a use. */
function code(file: string): string {
  return readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('Node built-ins stay at the edges', () => {
  it('the Node-only files are the runtime edges the issue names: src/runtime, src/cli.ts, node/sqlite/postgres', () => {
    for (const file of NODE_ONLY) {
      expect(file).toMatch(
        /^(src\/(runtime\/|cli\.ts$|.*(node|sqlite|postgres)[^/]*\.ts$)|packages\/sandbox\/src\/.*node[^/]*\.ts$)/,
      );
    }
  });

  const portable = [
    ...sourceFiles(join(root, 'src')),
    ...sourceFiles(join(root, 'packages/sandbox/src')),
  ].filter((file) => !NODE_ONLY.has(file));

  it.each(portable)('%s imports no node:* module and does not use process', (file) => {
    const text = code(file);
    expect(text.match(/from\s+['"]node:[^'"]+['"]/g) ?? []).toEqual([]);
    expect(
      text.match(/\bprocess\.(env|exit|argv|stdout|stderr|on|once|cwd|platform|versions)\b/g) ?? [],
    ).toEqual([]);
  });
});
