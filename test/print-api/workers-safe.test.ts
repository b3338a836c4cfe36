/**
 * The client core must run unchanged on Cloudflare Workers: nothing but node-fetch.ts may import Node
 * built-ins or undici, and the package's main entry must not reach node-fetch.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const clientDir = join(root, 'src/print-api');
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g;

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1]!);
}

/** Every file reachable from `entry` through relative imports. */
function reachable(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const spec of importsOf(entry)) {
    if (spec.startsWith('.')) reachable(join(entry, '..', spec), seen);
  }
  return seen;
}

describe('Workers safety of the client core', () => {
  const core = readdirSync(clientDir)
    .filter((name) => name.endsWith('.ts') && name !== 'node-fetch.ts')
    .map((name) => join(clientDir, name));

  it.each(core.map((file) => [file.slice(root.length + 1), file]))(
    '%s imports no node:* and no undici',
    (_n, file) => {
      const bare = importsOf(file).filter((spec) => !spec.startsWith('.'));
      expect(
        bare.filter((spec) => spec.startsWith('node:') || spec === 'undici' || spec.startsWith('undici/')),
      ).toEqual([]);
    },
  );

  it('src/index.ts does not reach node-fetch.ts', () => {
    const files = [...reachable(join(root, 'src/index.ts'))].map((f) => f.slice(root.length + 1));
    expect(files).toContain('src/print-api/client.ts');
    expect(files).not.toContain('src/print-api/node-fetch.ts');
  });
});
