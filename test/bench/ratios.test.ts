import { describe, expect, it } from 'vitest';
import {
  formatHeadline,
  headlineGoal,
  headlineOverRuns,
  headlineSummary,
  meets,
  pairedDifference,
  pairedRatio,
  verdictText,
} from '../../bench/harness/ratios.ts';

describe('meets', () => {
  it('holds a value against an upper bound, the bound itself included', () => {
    expect(meets({ atMost: 1.3 }, 1.3)).toBe(true);
    expect(meets({ atMost: 1.3 }, 1.31)).toBe(false);
  });

  it('holds a value against a lower bound, and against both', () => {
    expect(meets({ atLeast: 0.6 }, 0.59)).toBe(false);
    expect(meets({ atLeast: 0.6 }, 0.6)).toBe(true);
    expect(meets({ atLeast: 1, atMost: 2 }, 2.5)).toBe(false);
    expect(meets({ atLeast: 1, atMost: 2 }, 1.5)).toBe(true);
  });

  it('has no verdict without a goal, and never calls a missing figure met', () => {
    expect(meets(undefined, 5)).toBeUndefined();
    expect(meets({ atMost: 2 }, Number.NaN)).toBe(false);
    expect(meets({ atLeast: 0.6 }, Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe('pairedRatio', () => {
  it('divides round by round and takes the median of the rounds, not the ratio of the medians', () => {
    const gateway = [{ cpu: 100 }, { cpu: 300 }, { cpu: 200 }];
    const floor = [{ cpu: 50 }, { cpu: 100 }, { cpu: 200 }];
    const { value, perRound } = pairedRatio(gateway, floor, 'cpu');
    expect(perRound).toEqual([2, 3, 1]);
    expect(value).toBe(2);
  });

  it('gives NaN, not a shifted pairing, when a round or a figure is missing on one side', () => {
    const missingRound = pairedRatio([{ cpu: 1 }, { cpu: 2 }], [{ cpu: 1 }], 'cpu');
    expect(missingRound.perRound).toEqual([1, Number.NaN]);
    expect(missingRound.value).toBeNaN();
    expect(pairedRatio([{ cpu: 1 }], [{ ms: 1 }], 'cpu').value).toBeNaN();
  });

  it('subtracts round by round for differences', () => {
    const { value, perRound } = pairedDifference(
      [{ p99: 10 }, { p99: 30 }],
      [{ p99: 4 }, { p99: 10 }],
      'p99',
    );
    expect(perRound).toEqual([6, 20]);
    expect(value).toBe(13);
  });
});

describe('headlineGoal', () => {
  it('holds every operation to 1.3× its design floor, the order job to 1.5×', () => {
    expect(headlineGoal('catalog page', 'design')).toEqual({ atMost: 1.3 });
    expect(headlineGoal('PO intake, 5 lines', 'design')).toEqual({ atMost: 1.3 });
    expect(headlineGoal('order job', 'design')).toEqual({ atMost: 1.5 });
  });

  it('holds punch-in and the 5-line PO to 2.0× the physical floor, and nothing else', () => {
    expect(headlineGoal('punch-in, returning user', 'physical')).toEqual({ atMost: 2 });
    expect(headlineGoal('punch-in, new user', 'physical')).toEqual({ atMost: 2 });
    expect(headlineGoal('PO intake, 5 lines', 'physical')).toEqual({ atMost: 2 });
    expect(headlineGoal('cart transfer, cXML', 'physical')).toBeUndefined();
    expect(headlineGoal('order job', 'physical')).toBeUndefined();
  });

  it('wants intake throughput at least 0.6× the physical floor with group commit', () => {
    expect(headlineGoal('PO intake, 5 lines', 'physical, group commit')).toEqual({ atLeast: 0.6 });
    expect(headlineGoal('punch-in, returning user', 'physical, group commit')).toBeUndefined();
  });
});

describe('headlineSummary', () => {
  const ratio = (
    name: string,
    value: number,
    headline?: Parameters<typeof headlineGoal>,
  ): Parameters<typeof headlineSummary>[0][number]['ratios'][number] => {
    const goal = headline === undefined ? undefined : headlineGoal(...headline);
    return {
      name,
      metric: 'cpuUsPerOp',
      value,
      perRound: [value],
      ...(goal !== undefined && { goal }),
      met: meets(goal, value),
      ...(headline !== undefined && { headline: { operation: headline[0], floor: headline[1] } }),
    };
  };

  it('keeps only tagged ratios, ordered by operation and then design before physical, with goals and verdicts', () => {
    const rows = headlineSummary([
      {
        name: 'po-intake',
        ratios: [
          ratio('gateway/bare req/s', 0.05),
          ratio('throughput', 0.7, ['PO intake, 5 lines', 'physical, group commit']),
        ],
      },
      {
        name: 'floors',
        ratios: [
          ratio('order job physical', 2.9, ['order job', 'physical']),
          ratio('returning physical', 2.1, ['punch-in, returning user', 'physical']),
          ratio('returning design', 1.2, ['punch-in, returning user', 'design']),
        ],
      },
    ]);
    expect(rows.map((row) => [row.operation, row.floor, row.met])).toEqual([
      ['punch-in, returning user', 'design', true],
      ['punch-in, returning user', 'physical', false],
      ['PO intake, 5 lines', 'physical, group commit', true],
      ['order job', 'physical', undefined],
    ]);
    expect(rows[2]).toMatchObject({ case: 'po-intake', name: 'throughput', goal: { atLeast: 0.6 } });
  });

  it('prints one line per operation with both verdicts', () => {
    const text = formatHeadline(
      headlineSummary([
        {
          name: 'floors',
          ratios: [
            ratio('d', 1.2, ['catalog page', 'design']),
            ratio('p', 3.38, ['catalog page', 'physical']),
          ],
        },
      ]),
    );
    expect(text.split('\n')[1]).toBe(
      `  ${'catalog page'.padEnd(26)} design 1.20× (≤ 1.3: met)   physical 3.38×`,
    );
    expect(formatHeadline([])).toBe('');
  });

  it('says NOT MET, and n/a for a ratio that could not be formed', () => {
    expect(verdictText(1.42, { atMost: 1.3 }, false)).toBe('1.42× (≤ 1.3: NOT MET)');
    expect(verdictText(Number.NaN, { atLeast: 0.6 }, false)).toBe('n/a (≥ 0.6: NOT MET)');
  });
});

describe('headlineOverRuns', () => {
  const row = (
    operation: Parameters<typeof headlineGoal>[0],
    floor: Parameters<typeof headlineGoal>[1],
    value: number,
  ) => {
    const goal = headlineGoal(operation, floor);
    return {
      case: 'floors',
      operation,
      floor,
      name: `${operation} ${floor}`,
      metric: 'cpuUsPerOp',
      value,
      perRound: [value],
      goal,
      met: meets(goal, value),
    };
  };

  it('takes the median of the runs per operation and floor and judges the median, not any one run', () => {
    const rows = headlineOverRuns([
      [row('order job', 'design', 1.6), row('punch-in, new user', 'physical', 2.1)],
      [row('punch-in, new user', 'physical', 1.9), row('order job', 'design', 1.4)],
      [row('order job', 'design', 1.45), row('punch-in, new user', 'physical', 1.8)],
    ]);
    expect(rows.map((r) => [r.operation, r.floor, r.perRun, r.value, r.met])).toEqual([
      ['punch-in, new user', 'physical', [2.1, 1.9, 1.8], 1.9, true],
      ['order job', 'design', [1.6, 1.4, 1.45], 1.45, true],
    ]);
  });

  it('gives n/a, not the median of the other runs, when a run lacks the ratio', () => {
    const [only] = headlineOverRuns([[row('catalog page', 'design', 1.1)], []]);
    expect(only?.perRun).toEqual([1.1, Number.NaN]);
    expect(only?.value).toBeNaN();
    expect(only?.met).toBe(false);
  });

  it("prints each run's value before the median and its verdict", () => {
    const text = formatHeadline(
      headlineOverRuns([
        [row('catalog page', 'design', 1.2), row('catalog page', 'physical', 3)],
        [row('catalog page', 'design', 1.5), row('catalog page', 'physical', 2)],
        [row('catalog page', 'design', 1.4), row('catalog page', 'physical', 2.5)],
      ]),
    ).split('\n');
    expect(text[0]).toMatch(/median of 3 runs$/);
    expect(text[1]).toBe(
      `  ${'catalog page'.padEnd(26)} design 1.20 1.50 1.40 → 1.40× (≤ 1.3: NOT MET)   physical 3.00 2.00 2.50 → 2.50×`,
    );
  });
});
