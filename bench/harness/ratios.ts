/**
 * The arithmetic of a bench's verdicts, kept apart from the measuring so it can be tested: paired ratios
 * (each round's numerator over the same round's denominator, then the median), goals and whether a value
 * meets them, and the headline summary — every headline operation's ratio to its design floor and to its
 * physical floor, with the goal each is held to.
 */
import type { Figures, Goal } from './bench-case.ts';
import { median } from './statistics.ts';

export function meets(goal: Goal | undefined, value: number): boolean | undefined {
  if (goal === undefined) return undefined;
  if (!Number.isFinite(value)) return false;
  return (
    (goal.atLeast === undefined || value >= goal.atLeast) &&
    (goal.atMost === undefined || value <= goal.atMost)
  );
}

export interface Paired {
  /** Median of the per-round values. */
  readonly value: number;
  readonly perRound: readonly number[];
}

/**
 * `metric` of `top` over `bottom`, round by round (the two ran under the same conditions), then the median.
 * A round missing on either side, or a figure missing in one, gives NaN for that round, never a shifted pair.
 */
export function pairedRatio(top: readonly Figures[], bottom: readonly Figures[], metric: string): Paired {
  return paired(top, bottom, metric, (a, b) => a / b);
}

/** `metric` of `left` minus `right`, round by round, then the median. */
export function pairedDifference(
  left: readonly Figures[],
  right: readonly Figures[],
  metric: string,
): Paired {
  return paired(left, right, metric, (a, b) => a - b);
}

function paired(
  left: readonly Figures[],
  right: readonly Figures[],
  metric: string,
  combine: (a: number, b: number) => number,
): Paired {
  const rounds = Math.max(left.length, right.length);
  const perRound = Array.from({ length: rounds }, (_, i) =>
    combine(left[i]?.[metric] ?? Number.NaN, right[i]?.[metric] ?? Number.NaN),
  );
  const finite = perRound.filter(Number.isFinite);
  return { value: finite.length === perRound.length ? median(perRound) : Number.NaN, perRound };
}

/** The floors a headline operation is held against. */
export type FloorKind = 'design' | 'physical' | 'physical, group commit';

/** The headline operations, as the cases name them. */
export const HEADLINE_OPERATIONS = [
  'punch-in, returning user',
  'punch-in, new user',
  'catalog page',
  'editor return',
  'cart transfer, cXML',
  'cart transfer, OCI',
  'PO intake, 5 lines',
  'order job',
] as const;

export type HeadlineOperation = (typeof HEADLINE_OPERATIONS)[number];

/**
 * The goals the project holds its hot paths to. Cost against the design floor: at most 1.3× (the order
 * job 1.5×); against the physical floor: punch-in and the 5-line PO at most 2.0× (the others are shown
 * without a goal); PO intake's throughput at least 0.6× the physical floor's with group commit.
 */
export function headlineGoal(operation: HeadlineOperation, floor: FloorKind): Goal | undefined {
  switch (floor) {
    case 'design':
      return { atMost: operation === 'order job' ? 1.5 : 1.3 };
    case 'physical':
      return operation.startsWith('punch-in') || operation === 'PO intake, 5 lines'
        ? { atMost: 2.0 }
        : undefined;
    case 'physical, group commit':
      return operation === 'PO intake, 5 lines' ? { atLeast: 0.6 } : undefined;
  }
}

/** Marks a ratio as one of the headline summary's. */
export interface HeadlineTag {
  readonly operation: HeadlineOperation;
  readonly floor: FloorKind;
}

export interface HeadlineRatio extends HeadlineTag {
  readonly case: string;
  /** e.g. `gateway/design floor CPU per operation`. */
  readonly name: string;
  readonly metric: string;
  readonly value: number;
  readonly perRound: readonly number[];
  readonly goal: Goal | undefined;
  readonly met: boolean | undefined;
}

/** The headline ratios of a run's cases, in the order of HEADLINE_OPERATIONS, then design before physical. */
export function headlineSummary(
  cases: readonly {
    readonly name: string;
    readonly ratios: readonly (Paired & {
      readonly name: string;
      readonly metric: string;
      readonly headline?: HeadlineTag;
      readonly goal?: Goal;
      readonly met: boolean | undefined;
    })[];
  }[],
): HeadlineRatio[] {
  const rows: HeadlineRatio[] = [];
  for (const result of cases) {
    for (const ratio of result.ratios) {
      if (ratio.headline === undefined) continue;
      rows.push({
        case: result.name,
        ...ratio.headline,
        name: ratio.name,
        metric: ratio.metric,
        value: ratio.value,
        perRound: ratio.perRound,
        goal: ratio.goal,
        met: ratio.met,
      });
    }
  }
  return sortHeadline(rows);
}

const FLOOR_ORDER: readonly FloorKind[] = ['design', 'physical', 'physical, group commit'];

function sortHeadline<Row extends HeadlineTag>(rows: Row[]): Row[] {
  return rows.sort(
    (a, b) =>
      HEADLINE_OPERATIONS.indexOf(a.operation) - HEADLINE_OPERATIONS.indexOf(b.operation) ||
      FLOOR_ORDER.indexOf(a.floor) - FLOOR_ORDER.indexOf(b.floor),
  );
}

/** A headline ratio over several runs of the same cases: the median of the runs' values. */
export interface HeadlineOverRuns extends HeadlineRatio {
  /** Each run's value (the median of its rounds), in run order; NaN where a run had none. */
  readonly perRun: readonly number[];
}

/**
 * The headline ratios of `runs` (each a run's headlineSummary), one row per operation and floor: the
 * median of the runs' values, held against the goal again. A run without the ratio gives NaN for it, and
 * the median is then n/a, never a median of fewer runs than asked for.
 */
export function headlineOverRuns(runs: readonly (readonly HeadlineRatio[])[]): HeadlineOverRuns[] {
  const keyOf = (row: HeadlineTag) => `${row.operation}\n${row.floor}`;
  const firsts = new Map<string, HeadlineRatio>();
  for (const run of runs) for (const row of run) if (!firsts.has(keyOf(row))) firsts.set(keyOf(row), row);
  const rows = [...firsts.values()].map((first): HeadlineOverRuns => {
    const perRun = runs.map((run) => run.find((row) => keyOf(row) === keyOf(first))?.value ?? Number.NaN);
    const value = perRun.every(Number.isFinite) ? median(perRun) : Number.NaN;
    const { case: caseName, operation, floor, name, metric, goal } = first;
    return {
      case: caseName,
      operation,
      floor,
      name,
      metric,
      value,
      perRound: [],
      perRun,
      goal,
      met: meets(goal, value),
    };
  });
  return sortHeadline(rows);
}

/** `1.42× (≤ 1.3: NOT MET)`, `0.71× (≥ 0.6: met)`, `1.10×` without a goal. */
export function verdictText(value: number, goal: Goal | undefined, met: boolean | undefined): string {
  const ratio = Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
  if (goal === undefined) return ratio;
  const bounds = [
    goal.atLeast === undefined ? '' : `≥ ${goal.atLeast}`,
    goal.atMost === undefined ? '' : `≤ ${goal.atMost}`,
  ].filter(Boolean);
  return `${ratio} (${bounds.join(', ')}: ${met ? 'met' : 'NOT MET'})`;
}

/**
 * The headline summary as the run prints it: one line per operation, both floors side by side; over
 * several runs, each run's value and then their median with its verdict.
 */
export function formatHeadline(rows: readonly (HeadlineRatio | HeadlineOverRuns)[]): string {
  if (rows.length === 0) return '';
  const runs = rows.find((row) => 'perRun' in row)?.perRun.length;
  const lines = [
    `headline: gateway cost / floor cost (serving process CPU per operation; intake throughput)${runs === undefined ? '' : `, median of ${runs} runs`}`,
  ];
  const runsText = (row: HeadlineRatio | HeadlineOverRuns) =>
    'perRun' in row
      ? `${row.perRun.map((v) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a')).join(' ')} → `
      : '';
  for (const operation of HEADLINE_OPERATIONS) {
    const own = rows.filter((row) => row.operation === operation);
    if (own.length === 0) continue;
    const cells = own.map(
      (row) => `${row.floor} ${runsText(row)}${verdictText(row.value, row.goal, row.met)}`,
    );
    lines.push(`  ${operation.padEnd(26)} ${cells.join('   ')}`);
  }
  return lines.join('\n');
}
