/**
 * The human-readable report of a benchmark run: one table per case, then its ratios against their goals.
 */
import type { CaseResult } from './measure-case.ts';
import { formatNumber } from './measure-case.ts';

export function formatCaseTable(result: CaseResult): string {
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
    const goal =
      ratio.goal === undefined
        ? ''
        : `  goal ${[
            ratio.goal.atLeast === undefined ? '' : `>= ${ratio.goal.atLeast}`,
            ratio.goal.atMost === undefined ? '' : `<= ${ratio.goal.atMost}`,
          ]
            .filter(Boolean)
            .join(' and ')}: ${ratio.met ? 'met' : 'NOT MET'}`;
    const perRound = ratio.perRound.map((r) => r.toFixed(3)).join(' ');
    out.push(`  ratio ${ratio.name} = ${ratio.value.toFixed(3)} (rounds: ${perRound})${goal}`);
  }
  return out.join('\n');
}

function labelOf(metric: string, unit: string): string {
  return unit === '' || metric.toLowerCase().endsWith(unit.toLowerCase()) ? metric : `${metric} (${unit})`;
}
