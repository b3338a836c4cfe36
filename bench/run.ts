/**
 * `npm run bench [-- --quick] [-- --only name,name]`: runs every case in bench/cases/ (one file each,
 * default export a BenchCase), prints a table per case, then the headline summary (each headline
 * operation's ratio to its design and physical floors with its goal and whether it is met), and writes
 * every figure, ratio, the summary, the machine's description and its load averages to
 * `.bench/results.json`.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchCase } from './harness/bench-case.ts';
import { describeMachine } from './harness/machine.ts';
import { type CaseResult, measureCase } from './harness/measure-case.ts';
import { formatHeadline, headlineSummary } from './harness/ratios.ts';
import { formatCaseTable } from './harness/results-table.ts';

const root = join(import.meta.dirname, '..');

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`usage: node bench/run.ts [--quick] [--only name[,name]]

  --quick   short runs, 3 rounds, the same goals (a smoke check; docs/performance.md says how long it takes)
  --only    run only the named cases

Results: a table per case on stdout, every figure in .bench/results.json.`);
  process.exit(0);
}

async function loadCases(): Promise<BenchCase[]> {
  const dir = join(import.meta.dirname, 'cases');
  const files = (await readdir(dir)).filter((name) => name.endsWith('.ts')).sort();
  const cases: BenchCase[] = [];
  for (const file of files) {
    const module = (await import(join(dir, file))) as { default?: BenchCase };
    if (!module.default?.setup) throw new Error(`bench/cases/${file} has no default export of a BenchCase`);
    cases.push(module.default);
  }
  return cases;
}

const all = await loadCases();
const wanted = values.only?.split(',').map((name) => name.trim());
const unknown = wanted?.filter((name) => !all.some((c) => c.name === name)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown case(s): ${unknown.join(', ')}; known: ${all.map((c) => c.name).join(', ')}`);
  process.exit(2);
}
const selected = wanted === undefined ? all : all.filter((c) => wanted.includes(c.name));

const machine = describeMachine();
console.log(
  `punchgate bench${values.quick ? ' --quick' : ''}: ${machine.cpuModel} x${machine.cpuCount}, ${machine.os} ${machine.osRelease}, Node ${machine.nodeVersion}\n`,
);

const startedAt = new Date().toISOString();
const loadAtStart = os.loadavg();
const results: CaseResult[] = [];
for (const benchCase of selected) {
  const result = await measureCase(benchCase, { quick: values.quick }, (line) =>
    console.error(`  … ${line}`),
  );
  results.push(result);
  console.log(`${formatCaseTable(result)}\n`);
}

const headline = headlineSummary(results);
const load = { atStart: loadAtStart, atEnd: os.loadavg() };
const loadText = (averages: readonly number[]) => averages.map((a) => a.toFixed(1)).join(' ');
if (headline.length > 0) console.log(`${formatHeadline(headline)}\n`);
console.log(
  `load average (1, 5, 15 min): ${loadText(load.atStart)} at the start, ${loadText(load.atEnd)} at the end`,
);

await mkdir(join(root, '.bench'), { recursive: true });
const file = join(root, '.bench', 'results.json');
const finishedAt = new Date().toISOString();
await writeFile(
  file,
  `${JSON.stringify({ startedAt, finishedAt, quick: values.quick, machine, load, headline, cases: results }, null, 2)}\n`,
);
console.log(`results: ${file.slice(root.length + 1)}`);
