/**
 * Runs one case: set up, warm up, rounds with alternating variant order, medians and paired ratios.
 */
import os from 'node:os';
import type {
  BenchCase,
  BenchSetupOptions,
  DifferenceSpec,
  Figures,
  LimitSpec,
  MetricSpec,
  RatioSpec,
} from './bench-case.ts';
import { meets, pairedDifference, pairedRatio } from './ratios.ts';
import { type RunTook, startRunClock } from './run-clock.ts';
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

export interface DifferenceResult extends DifferenceSpec {
  /** Median of the per-round differences. */
  readonly value: number;
  readonly perRound: readonly number[];
  readonly met: boolean | undefined;
}

export interface LimitResult extends LimitSpec {
  /** The variant's median of the metric. */
  readonly value: number;
  readonly met: boolean;
}

export interface CaseResult {
  readonly name: string;
  readonly title: string;
  /** Why the case has no figures in this run (the thing it measures is not in this build). */
  readonly skipped?: string;
  readonly rounds: number;
  readonly parameters: Readonly<Record<string, string | number | boolean>>;
  readonly metrics: Readonly<Record<string, MetricSpec>>;
  readonly variants: Readonly<Record<string, VariantResult>>;
  readonly ratios: readonly RatioResult[];
  readonly differences: readonly DifferenceResult[];
  readonly limits: readonly LimitResult[];
  /** The machine's load averages (1, 5, 15 min) when the case started and when it ended. */
  readonly load: { readonly atStart: readonly number[]; readonly atEnd: readonly number[] };
  /** Wall clock of the case, set-up to close, and the CPU it used: the bench's process and its ended children. */
  readonly took: RunTook;
}

export async function measureCase(
  benchCase: BenchCase,
  options: BenchSetupOptions,
  progress: (line: string) => void,
): Promise<CaseResult> {
  const atStart = os.loadavg();
  const clock = startRunClock();
  const session = await benchCase.setup(options);
  if ('skipped' in session) {
    progress(`${benchCase.name}: skipped (${session.skipped})`);
    return {
      name: benchCase.name,
      title: benchCase.title,
      skipped: session.skipped,
      rounds: 0,
      parameters: {},
      metrics: {},
      variants: {},
      ratios: [],
      differences: [],
      limits: [],
      load: { atStart, atEnd: os.loadavg() },
      took: clock.took(),
    };
  }
  let closed = false;
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

    const roundsOf = (variant: string, what: string): Figures[] => {
      const found = perVariant.get(variant);
      if (!found) throw new Error(`${benchCase.name}: ${what} names an unknown variant ${variant}`);
      return found;
    };
    const ratios = (session.ratios ?? []).map((spec): RatioResult => {
      const top = roundsOf(spec.numerator, `ratio ${spec.name}`);
      const bottom = roundsOf(spec.denominator, `ratio ${spec.name}`);
      const { value, perRound } = pairedRatio(top, bottom, spec.metric);
      return { ...spec, value, perRound, met: meets(spec.goal, value) };
    });
    const differences = (session.differences ?? []).map((spec): DifferenceResult => {
      const left = roundsOf(spec.minuend, `difference ${spec.name}`);
      const right = roundsOf(spec.subtrahend, `difference ${spec.name}`);
      const { value, perRound } = pairedDifference(left, right, spec.metric);
      return { ...spec, value, perRound, met: meets(spec.goal, value) };
    });
    const limits = (session.limits ?? []).map((spec): LimitResult => {
      const value = median(roundsOf(spec.variant, `limit ${spec.name}`).map((f) => f[spec.metric]!));
      return { ...spec, value, met: meets(spec.goal, value) === true };
    });

    await session.close();
    closed = true;
    return {
      name: benchCase.name,
      title: benchCase.title,
      rounds,
      parameters: session.parameters ?? {},
      metrics: session.metrics,
      variants,
      ratios,
      differences,
      limits,
      load: { atStart, atEnd: os.loadavg() },
      took: clock.took(),
    };
  } finally {
    if (!closed) await session.close();
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
