/**
 * The human-readable report of a benchmark run: one table per case, then its ratios against their goals.
 */
import type { Goal } from './bench-case.ts';
import type { CaseResult } from './measure-case.ts';
import { formatNumber } from './measure-case.ts';

export function formatCaseTable(result: CaseResult): string {
  if (result.skipped !== undefined)
    return `${result.name}: ${result.title}\n  skipped: ${result.skipped}\n  ${tookText(result)}`;
  const metricNames = Object.keys(result.metrics);
  const header = ['variant', ...metricNames.map((m) => labelOf(m, result.metrics[m]!.unit))];
  const rows = Object.entries(result.variants).map(([name, variant]) => [
    name,
    ...metricNames.map((m) => formatNumber(variant.median[m] ?? Number.NaN)),
  ]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const parameters = Object.entries(result.parameters)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  const out = [
    `${result.name}: ${result.title}`,
    `  medians of ${result.rounds} rounds${parameters === '' ? '' : `; ${parameters}`}`,
    `  ${line(header)}`,
    `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`,
    ...rows.map((row) => `  ${line(row)}`),
  ];
  for (const ratio of result.ratios) {
    const perRound = ratio.perRound.map((r) => r.toFixed(3)).join(' ');
    out.push(
      `  ratio ${ratio.name} = ${ratio.value.toFixed(3)} (rounds: ${perRound})${goalText(ratio.goal, ratio.met)}`,
    );
  }
  for (const difference of result.differences) {
    const unit = result.metrics[difference.metric]?.unit ?? '';
    const perRound = difference.perRound.map((d) => d.toFixed(3)).join(' ');
    out.push(
      `  difference ${difference.name} = ${difference.value.toFixed(3)} ${unit} (rounds: ${perRound})${goalText(difference.goal, difference.met)}`,
    );
  }
  for (const limit of result.limits) {
    const unit = result.metrics[limit.metric]?.unit ?? '';
    out.push(
      `  limit ${limit.name} = ${formatNumber(limit.value)} ${unit}${goalText(limit.goal, limit.met)}`,
    );
  }
  out.push(`  ${tookText(result)}`);
  return out.join('\n');
}

/** `took 41.2 s (CPU 55.0 s), load 1.2 → 2.3`: the wall clock, the CPU and the 1-minute load average. */
export function tookText({ took, load }: Pick<CaseResult, 'took' | 'load'>): string {
  const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'n/a');
  return `took ${seconds(took.wallMs)} (CPU ${seconds(took.cpuMs)}), load ${load.atStart[0]?.toFixed(1)} → ${load.atEnd[0]?.toFixed(1)}`;
}

function goalText(goal: Goal | undefined, met: boolean | undefined): string {
  if (goal === undefined) return '';
  const bounds = [
    goal.atLeast === undefined ? '' : `>= ${goal.atLeast}`,
    goal.atMost === undefined ? '' : `<= ${goal.atMost}`,
  ].filter(Boolean);
  return `  goal ${bounds.join(' and ')}: ${met ? 'met' : 'NOT MET'}`;
}

function labelOf(metric: string, unit: string): string {
  return unit === '' || metric.toLowerCase().endsWith(unit.toLowerCase()) ? metric : `${metric} (${unit})`;
}
