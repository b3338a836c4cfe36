import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The suite starts real servers on loopback ports; two cores are the norm here.
    pool: 'forks',
  },
});
