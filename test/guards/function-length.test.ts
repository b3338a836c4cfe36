/**
 * No function in the gateway's or the sandbox's sources is over 150 lines, a factory counted with the
 * closures inside it (issue 14): past that, a function holds several jobs that want names of their own.
 * Measured on the TypeScript syntax tree, outermost function-like nodes only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 150;
const root = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = 'name' in node && node.name !== undefined ? node.name.getText(source) : '(anonymous)';
      if (end - start + 1 > MAX_LINES) {
        found.push(`${relative(root, file)}:${start + 1} ${name} (${end - start + 1} lines)`);
      }
      return; // closures count with their outermost function
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it(`no function in src/ or packages/sandbox/src is over ${MAX_LINES} lines`, () => {
    const files = [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'packages/sandbox/src'))];
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(longFunctions)).toEqual([]);
  });
});
