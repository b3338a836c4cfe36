/**
 * `npm run fuzz`: the fuzz properties of test/fuzz with 100,000 cases in total (shared out by
 * test/fuzz/fuzz-budget.ts). PUNCHGATE_FUZZ_CASES overrides the total, PUNCHGATE_FUZZ_SEED replays a run.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/fuzz/**/*.test.ts'],
    env: { PUNCHGATE_FUZZ_CASES: process.env.PUNCHGATE_FUZZ_CASES ?? '100000' },
    testTimeout: 3_600_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
