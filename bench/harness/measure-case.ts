/**
 * Runs one case: set up, warm up, rounds with alternating variant order, medians and paired ratios.
 */
import type { BenchCase, BenchSetupOptions, Figures, MetricSpec, RatioSpec } from './bench-case.ts';
import { median } from './statistics.ts';

export interface VariantResult {
  /** Median of each figure over the rounds. */
  readonly median: Figures;
  /** Every round's figures, in round order. */
  readonly rounds: readonly Figures[];
}

export interface RatioResult extends RatioSpec {
  /** Median of the per-round ratios. */
  readonly value: number;
  readonly perRound: readonly number[];
  /** Undefined when the ratio has no goal. */
  readonly met: boolean | undefined;
}

export interface CaseResult {
  readonly name: string;
  readonly title: string;
  readonly rounds: number;
  readonly parameters: Readonly<Record<string, string | number | boolean>>;
  readonly metrics: Readonly<Record<string, MetricSpec>>;
  readonly variants: Readonly<Record<string, VariantResult>>;
  readonly ratios: readonly RatioResult[];
}

export async function measureCase(
  benchCase: BenchCase,
  options: BenchSetupOptions,
  progress: (line: string) => void,
): Promise<CaseResult> {
  const session = await benchCase.setup(options);
  try {
    const names = Object.keys(session.variants);
    const rounds = Math.max(3, session.rounds ?? (options.quick ? 3 : 5));
    if (session.warmUp) {
      progress(`${benchCase.name}: warming up`);
      await session.warmUp();
    }
    const perVariant = new Map<string, Figures[]>(names.map((name) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const figures = await session.variants[name]!();
        perVariant.get(name)!.push(figures);
        progress(`${benchCase.name}: round ${round + 1}/${rounds} ${name} ${summarise(figures)}`);
      }
    }

    const variants: Record<string, VariantResult> = {};
    for (const [name, all] of perVariant) {
      const figureNames = Object.keys(all[0] ?? {});
      variants[name] = {
        median: Object.fromEntries(figureNames.map((figure) => [figure, median(all.map((f) => f[figure]!))])),
        rounds: all,
      };
    }

    const ratios = (session.ratios ?? []).map((spec): RatioResult => {
      const top = perVariant.get(spec.numerator);
      const bottom = perVariant.get(spec.denominator);
      if (!top || !bottom) throw new Error(`${benchCase.name}: ratio ${spec.name} names an unknown variant`);
      const perRound = top.map((figures, i) => figures[spec.metric]! / bottom[i]![spec.metric]!);
      const value = median(perRound);
      const met =
        spec.goal === undefined
          ? undefined
          : (spec.goal.atLeast === undefined || value >= spec.goal.atLeast) &&
            (spec.goal.atMost === undefined || value <= spec.goal.atMost);
      return { ...spec, value, perRound, met };
    });

    return {
      name: benchCase.name,
      title: benchCase.title,
      rounds,
      parameters: session.parameters ?? {},
      metrics: session.metrics,
      variants,
      ratios,
    };
  } finally {
    await session.close();
  }
}

function summarise(figures: Figures): string {
  return Object.entries(figures)
    .map(([name, value]) => `${name}=${formatNumber(value)}`)
    .join(' ');
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(3);
}
