/**
 * `npm run bench [-- --quick] [-- --only name,name] [-- --runs n]`: runs every case in bench/cases/ (one
 * file each, default export a BenchCase), prints a table per case, then the headline summary (each headline
 * operation's ratio to its design and physical floors with its goal and whether it is met), and writes
 * every figure, ratio, the summary, the machine's description, its load averages and how long each case
 * took to `.bench/results.json`.
 *
 * `--runs n` runs the cases n times, their order reversed every other run (as rounds alternate variants),
 * and the summary gives each run's ratio and their median: figures of record in one command. Without
 * `--only` it runs the cases that measure headline operations.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchCase } from './harness/bench-case.ts';
import { describeMachine } from './harness/machine.ts';
import { type CaseResult, measureCase } from './harness/measure-case.ts';
import { formatHeadline, type HeadlineRatio, headlineOverRuns, headlineSummary } from './harness/ratios.ts';
import { formatCaseTable, tookText } from './harness/results-table.ts';
import { startRunClock } from './harness/run-clock.ts';

const root = join(import.meta.dirname, '..');

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    runs: { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`usage: node bench/run.ts [--quick] [--only name[,name]] [--runs n]

  --quick   short runs, 3 rounds, the same goals (a smoke check; docs/performance.md says how long it takes)
  --only    run only the named cases
  --runs    run the cases n times, alternating their order, and give the headline ratios' median over
            the runs (without --only: the cases that measure headline operations)

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
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs wants a whole number of at least 1, not ${values.runs}`);
  process.exit(2);
}
const selected =
  wanted !== undefined
    ? all.filter((c) => wanted.includes(c.name))
    : runs > 1
      ? all.filter((c) => c.headline === true)
      : all;

const machine = describeMachine();
console.log(
  `punchgate bench${values.quick ? ' --quick' : ''}: ${machine.cpuModel} x${machine.cpuCount}, ${machine.os} ${machine.osRelease}, Node ${machine.nodeVersion}\n`,
);

const startedAt = new Date().toISOString();
const loadAtStart = os.loadavg();
const runClock = startRunClock();
const results: CaseResult[] = [];
const headlineOfRun: HeadlineRatio[][] = [];
for (let run = 0; run < runs; run++) {
  const ofRun: CaseResult[] = [];
  const order = run % 2 === 0 ? selected : [...selected].reverse();
  for (const benchCase of order) {
    const prefix = runs > 1 ? `run ${run + 1}/${runs} ` : '';
    const result = await measureCase(benchCase, { quick: values.quick }, (line) =>
      console.error(`  … ${prefix}${line}`),
    );
    ofRun.push(result);
    console.log(`${prefix}${formatCaseTable(result)}\n`);
  }
  results.push(...ofRun.map((result) => ({ ...result, ...(runs > 1 && { run: run + 1 }) })));
  headlineOfRun.push(headlineSummary(ofRun));
  if (runs > 1 && headlineOfRun[run]!.length > 0)
    console.log(`run ${run + 1}/${runs} ${formatHeadline(headlineOfRun[run]!)}\n`);
}

const headline = runs === 1 ? headlineOfRun[0]! : headlineOverRuns(headlineOfRun);
const load = { atStart: loadAtStart, atEnd: os.loadavg() };
const took = runClock.took();
const loadText = (averages: readonly number[]) => averages.map((a) => a.toFixed(1)).join(' ');
if (headline.length > 0) console.log(`${formatHeadline(headline)}\n`);
console.log(
  `load average (1, 5, 15 min): ${loadText(load.atStart)} at the start, ${loadText(load.atEnd)} at the end`,
);
console.log(`the run ${tookText({ took, load })}`);

await mkdir(join(root, '.bench'), { recursive: true });
const file = join(root, '.bench', 'results.json');
const finishedAt = new Date().toISOString();
await writeFile(
  file,
  `${JSON.stringify({ startedAt, finishedAt, took, quick: values.quick, runs, machine, load, headline, headlineOfRun, cases: results }, null, 2)}\n`,
);
console.log(`results: ${file.slice(root.length + 1)}`);
