import { availableParallelism } from 'node:os';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The tests run the TypeScript sources of both workspace packages, never their dist/ (tsconfig.json says
// how the "punchgate-source" export condition works): vite resolves with it, and so does every Node
// process a test starts with the inherited environment.
const SOURCE_CONDITION = 'punchgate-source';

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The suite starts real servers on loopback ports; two cores are the norm here.
    pool: 'forks',
    // One file more than there are cores: about half of the suite's time is spent waiting on child processes
    // (serve, sandbox, PostgreSQL, Chromium) and sockets, so with one file per core the machine was half idle
    // (a whole run used 16 CPU-minutes in 15.7 minutes on 2 cores).
    maxWorkers: availableParallelism() + 1,
    // PUNCHGATE_TEST_PG_URL, or a throwaway PostgreSQL started for the run and deleted after it; and the
    // npm Chromium unpacked once, before the browser test files run side by side.
    globalSetup: ['test/support/postgres-global-setup.ts', 'test/browser/chromium-global-setup.ts'],
    env: {
      NODE_OPTIONS: [process.env.NODE_OPTIONS, `--conditions=${SOURCE_CONDITION}`].filter(Boolean).join(' '),
    },
  },
});
