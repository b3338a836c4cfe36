/**
 * What a benchmark case is. A case is one file in `bench/cases/` whose default export is a BenchCase;
 * `bench/run.ts` finds it there, so adding a case touches nothing else.
 *
 * A case starts what it measures (`setup`), then hands back named variants that the harness measures
 * side by side: every round runs each variant once, the order alternating between rounds so that drift
 * (thermal, GC, a noisy neighbour) hits all variants alike. Figures are medians over the rounds; ratios
 * are medians of the per-round ratios, because the two variants of one round ran under the same
 * conditions.
 */
import type { HeadlineTag } from './ratios.ts';

export interface BenchSetupOptions {
  /** `--quick`: shorter runs and fewer rounds with the same goals, for a smoke check (minutes, not tens). */
  readonly quick: boolean;
}

/** Figures of one measurement, e.g. `{ reqPerSec: 12000, p50Ms: 1.2, p99Ms: 3.4 }`. */
export type Figures = Readonly<Record<string, number>>;

export interface MetricSpec {
  readonly unit: string;
  /** Which direction is good; shown in the table. */
  readonly better: 'higher' | 'lower';
}

export interface RatioSpec {
  /** e.g. `client/raw req/s`. */
  readonly name: string;
  readonly metric: string;
  readonly numerator: string;
  readonly denominator: string;
  /** The ratio the project aims for. */
  readonly goal?: Goal;
  /** Set on the ratios of a headline operation to one of its floors: the run's summary shows them. */
  readonly headline?: HeadlineTag;
}

/** A figure of one variant held against an absolute goal, e.g. resident memory at most 300 MB. */
export interface LimitSpec {
  readonly name: string;
  readonly variant: string;
  readonly metric: string;
  readonly goal: Goal;
}

/** The paired difference numerator − denominator of one metric, e.g. the gateway's p99 overhead in ms. */
export interface DifferenceSpec {
  readonly name: string;
  readonly metric: string;
  readonly minuend: string;
  readonly subtrahend: string;
  readonly goal?: Goal;
}

export interface Goal {
  readonly atLeast?: number;
  readonly atMost?: number;
}

export interface BenchSession {
  /** Measured side by side, one run each per round. */
  readonly variants: Readonly<Record<string, () => Promise<Figures>>>;
  readonly metrics: Readonly<Record<string, MetricSpec>>;
  readonly ratios?: readonly RatioSpec[];
  /** Medians of the per-round differences (same units as the metric). */
  readonly differences?: readonly DifferenceSpec[];
  /** Medians held against absolute goals. */
  readonly limits?: readonly LimitSpec[];
  /** Default 3 with --quick, 5 otherwise (never fewer than 3). */
  readonly rounds?: number;
  /** Run before the first round, results discarded (JIT, connection pools). */
  warmUp?(): Promise<void>;
  /** Facts worth keeping with the results (concurrency, payload sizes…). */
  readonly parameters?: Readonly<Record<string, string | number | boolean>>;
  close(): Promise<void>;
}

/**
 * What `setup` answers when the thing to measure does not exist in this build (a feature not landed yet):
 * the run goes on and the report says why the case has no figures.
 */
export interface SkippedCase {
  readonly skipped: string;
}

export function skipCase(reason: string): SkippedCase {
  return { skipped: reason };
}

export interface BenchCase {
  /** Short id, used by `--only`. */
  readonly name: string;
  /** One line on what is measured and why. */
  readonly title: string;
  /** It measures headline operations against their floors: `--runs` without `--only` repeats these cases. */
  readonly headline?: boolean;
  setup(options: BenchSetupOptions): Promise<BenchSession | SkippedCase>;
}
