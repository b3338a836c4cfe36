/**
 * No `as unknown as` in src or packages: a cast through unknown tells the compiler a value is whatever the
 * code wants, so a shape that changes (a codec field, a library's type) compiles and then fails at run time.
 * A value of unknown shape is validated (zod) or narrowed; a library type that does not fit is bridged with
 * a typed function. Comments count too, so the phrase does not come back as a suggestion.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const SKIPPED = new Set(['node_modules', 'dist']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [relative(root, path)] : [];
  });
}

describe('no cast through unknown', () => {
  const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'packages'))];

  it('finds the sources it guards', () => {
    expect(files).toContain('src/cxml/request-types.ts');
    expect(files.some((file) => file.startsWith('packages/sandbox/test/'))).toBe(true);
  });

  it('no file in src or packages casts `as unknown as`', () => {
    const offenders = files.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bas\s+unknown\s+as\b/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
