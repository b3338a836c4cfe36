/**
 * Growth curves: one operation measured at sizes a decade apart, each size a variant of its case, so the
 * table shows the curve and the harness alternates the sizes between rounds like any other variants.
 *
 * Linear means the cost per item does not grow with the size: for a curve from `first` to `last` items,
 * `growth = (t(last) / last) / (t(first) / first)`, t the median time of one operation, taken per round
 * (both sizes ran in the same round) and then the median over the rounds; the goal is growth ≤ 1.2. A
 * fixed cost per operation (routing, the session check, the page frame) makes the first point's cost per
 * item high, so a linear or flatter curve scores far below 1; one that grows faster than its items (n²,
 * n log n with a large factor) crosses 1.2 within three decades.
 */
import type { Figures, RatioSpec } from './bench-case.ts';
import { median } from './statistics.ts';

/** The growth goal of every curve: cost per item at the last point at most 1.2× that at the first. */
export const LINEAR_GOAL = { atMost: 1.2 } as const;

/** `1,000 lines` */
export function sizeLabel(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * Runs `operation` `iterations` times, each after an untimed `prepare` (fresh state the operation uses
 * up), and answers the median time of one operation in ms.
 */
export async function medianMs<T>(
  iterations: number,
  prepare: () => Promise<T>,
  operation: (prepared: T) => Promise<unknown>,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const prepared = await prepare();
    const started = performance.now();
    await operation(prepared);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** A point's figures: the time of one operation and the time per item (µs). */
export function pointFigures(n: number, ms: Readonly<Record<string, number>>): Figures {
  const figures: Record<string, number> = {};
  for (const [name, value] of Object.entries(ms)) {
    figures[`${name}Ms`] = value;
    figures[`${name}UsPerItem`] = (value * 1000) / n;
  }
  return figures;
}

/** The growth ratio of `metric` (a `…UsPerItem` figure) from the first variant to the last, with its goal. */
export function growthRatio(
  name: string,
  metric: string,
  first: string,
  last: string,
  goal: RatioSpec['goal'] = LINEAR_GOAL,
): RatioSpec {
  return { name, metric, numerator: last, denominator: first, goal };
}
