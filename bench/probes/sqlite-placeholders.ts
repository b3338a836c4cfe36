/**
 * `node --conditions=punchgate-source bench/probes/sqlite-placeholders.ts`: what each SELECT of the store
 * costs on SQLite with its placeholders written as the dialect writes them (`+?`) and as bare `?`, each
 * statement run 2,000 times in a row with its values bound anew every time (as better-sqlite3 does at every
 * call), on an empty store file. With a bare `?` SQLite prepares many statements again at every bind (it
 * may choose a plan by a bound value); the difference is that work. Prints the statements where it is
 * more than 5 µs, largest first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteDialect } from '../../src/store/sql/dialect.ts';
import { storeStatements } from '../../src/store/sql/statements.ts';
import { createSqliteStore } from '../../src/store/sqlite.ts';

const CALLS = 2_000;
const dir = mkdtempSync(join(tmpdir(), 'punchgate-placeholders-'));
const path = join(dir, 'store.db');
await createSqliteStore({ path }).close();
const db = new Database(path);

/** µs per call, the better of two runs after one warm-up run. */
function microseconds(statement: Database.Statement, values: readonly string[]): number {
  const run = () => {
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) statement.all(...values);
    return ((performance.now() - started) * 1000) / CALLS;
  };
  run();
  return Math.min(run(), run());
}

const found: { name: string; bare: number; plus: number }[] = [];
for (const [group, value] of Object.entries(storeStatements(sqliteDialect))) {
  const entries =
    'sql' in value
      ? [[group, value] as const]
      : Object.entries(value).map(([n, s]) => [`${group}.${n}`, s] as const);
  for (const [name, { sql }] of entries) {
    if (!/^\s*(SELECT|WITH)\b/i.test(sql)) continue;
    const values = Array.from(sql.matchAll(/\+\?/g), () => '1');
    found.push({
      name,
      plus: microseconds(db.prepare(sql), values),
      bare: microseconds(db.prepare(sql.replaceAll('+?', '?')), values),
    });
  }
}
for (const { name, bare, plus } of found.sort((a, b) => b.bare - b.plus - (a.bare - a.plus))) {
  if (bare - plus > 5) console.log(`${name}: ${bare.toFixed(1)} µs with ?, ${plus.toFixed(1)} µs with +?`);
}
db.close();
rmSync(dir, { recursive: true, force: true });
