import { readdirSync, readFileSync } from 'node:fs';
import { PRINT_API_ERRORS } from 'punchgate/schemas/print-api';
import { describe, expect, it } from 'vitest';

const ROWS = new URL('./interface-rows.md', import.meta.url);
const TESTS = new URL('./', import.meta.url);

/** The requirement ids of the print interface, from the list beside this file (`- **E01** summary`). */
function listedRows(): { id: string; summary: string }[] {
  return [...readFileSync(ROWS, 'utf8').matchAll(/^- \*\*([A-Z]\d{2})\*\* (.*)$/gm)].map((m) => ({
    id: m[1]!,
    summary: m[2]!.trim(),
  }));
}

/** The row ids a test name starts with: `it('T03 E08 order status …')` shows T03 and E08. */
function idsNamedBy(source: string): Set<string> {
  const ids = new Set<string>();
  for (const [, single, double, backtick] of source.matchAll(/\bit\(\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)/g)) {
    const lead = /^((?:[A-Z]\d{2}\s+)+)/.exec(single ?? double ?? backtick ?? '');
    for (const id of lead?.[1]?.trim().split(/\s+/) ?? []) ids.add(id);
  }
  return ids;
}

function idsNamedByTests(): Set<string> {
  const named = new Set<string>();
  for (const file of readdirSync(TESTS).filter((f) => f.endsWith('.test.ts'))) {
    for (const id of idsNamedBy(readFileSync(new URL(file, TESTS), 'utf8'))) named.add(id);
  }
  return named;
}

describe('sandbox contract coverage', () => {
  it('interface-rows.md lists 116 distinct requirement ids, each with a summary', () => {
    const rows = listedRows();
    expect(rows.length).toBe(116);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(rows.filter((row) => row.summary.length < 10)).toEqual([]);
  });

  it('every row of interface-rows.md is named by a sandbox test', () => {
    const named = idsNamedByTests();
    expect(listedRows().filter((row) => !named.has(row.id))).toEqual([]);
  });

  it('every id a sandbox test names is a row of interface-rows.md', () => {
    const listed = new Set(listedRows().map((row) => row.id));
    expect([...idsNamedByTests()].filter((id) => !listed.has(id))).toEqual([]);
  });

  it('the errors table the sandbox answers with has exactly the X rows of the list', () => {
    const listed = listedRows()
      .map((row) => row.id)
      .filter((id) => id.startsWith('X'));
    const answered = [...new Set(Object.values(PRINT_API_ERRORS).map((error) => error.row))];
    expect(answered.sort()).toEqual(listed.sort());
  });
});
