/**
 * How many cases each fuzz property runs. The normal suite shares a small budget (a few thousand cases
 * in total); `npm run fuzz` sets PUNCHGATE_FUZZ_CASES (100,000 by vitest.fuzz.config.ts) and the same
 * shares scale up. PUNCHGATE_FUZZ_SEED replays a failing run.
 */
const DEFAULT_TOTAL_CASES = 2500;

/** Every property's share of the total budget; the shares add up to 1. */
export const FUZZ_SHARES = {
  cxmlFixtureMutations: 0.3,
  cxmlRandomDocuments: 0.15,
  cxmlRandomSetupParameters: 0.1,
  ociFixtureMutations: 0.1,
  ociRandomRequests: 0.05,
  ociHttp: 0.1,
  punchoutUrls: 0.2,
} as const;

export function totalFuzzCases(): number {
  const raw = process.env.PUNCHGATE_FUZZ_CASES;
  const parsed = raw === undefined ? Number.NaN : Number(raw);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : DEFAULT_TOTAL_CASES;
}

export function fuzzRunsFor(share: keyof typeof FUZZ_SHARES): number {
  return Math.max(10, Math.round(totalFuzzCases() * FUZZ_SHARES[share]));
}

/** fast-check parameters of a property: its run count, and the seed to replay when one is given. */
export function fuzzParameters(share: keyof typeof FUZZ_SHARES): { numRuns: number; seed?: number } {
  const seed = process.env.PUNCHGATE_FUZZ_SEED;
  return { numRuns: fuzzRunsFor(share), ...(seed !== undefined && { seed: Number(seed) }) };
}

export interface OutcomeTally {
  (outcome: string): void;
  /** Prints the counts and the duration, e.g. `[fuzz] cXML random documents: 450 cases in 0.1 s — Status 406: 300, …`. */
  print(): string;
}

/** Counts outcomes (e.g. `Status 400`) of one property, for the printed summary and the table in docs/security.md. */
export function outcomeTally(label: string): OutcomeTally {
  const counts = new Map<string, number>();
  const started = performance.now();
  const tally = ((outcome: string) => {
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  }) as OutcomeTally;
  tally.print = () => {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const parts = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const line = `[fuzz] ${label}: ${total} cases in ${seconds} s — ${parts.join(', ')}`;
    console.log(line);
    return line;
  };
  return tally;
}
