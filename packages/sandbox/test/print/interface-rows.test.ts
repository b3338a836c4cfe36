import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROWS = new URL('../../../../../shared/design/INTERFACE-ROWS.md', import.meta.url);
const TESTS = new URL('./', import.meta.url);

/** The row ids a test name starts with: `it('T03 E08 order status …')` shows T03 and E08. */
function idsNamedBy(source: string): Set<string> {
  const ids = new Set<string>();
  for (const [, name] of source.matchAll(/\bit\(\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)/g)) {
    const lead = /^((?:[A-Z]\d{2}\s+)+)/.exec(name ?? '');
    for (const id of lead?.[1]?.trim().split(/\s+/) ?? []) ids.add(id);
  }
  return ids;
}

describe('sandbox contract coverage', () => {
  it('every row of INTERFACE-ROWS.md is named by a sandbox test', () => {
    const rows = [...readFileSync(ROWS, 'utf8').matchAll(/\*\*([A-Z]\d{2})\*\*/g)].map((m) => m[1]!);
    expect(rows.length).toBeGreaterThan(100);
    const named = new Set<string>();
    for (const file of readdirSync(TESTS).filter((f) => f.endsWith('.test.ts'))) {
      for (const id of idsNamedBy(readFileSync(new URL(file, TESTS), 'utf8'))) named.add(id);
    }
    expect(rows.filter((id) => !named.has(id))).toEqual([]);
  });
});
