/**
 * vitest's global setup: the PostgreSQL the suites run against. `PUNCHGATE_TEST_PG_URL` names one of your
 * own; without it the run starts a throwaway server (test/support/throwaway-postgres.ts), hands its URL to
 * the suites and deletes it when the run ends. It starts once per run, before any test file, so the
 * PostgreSQL suites never skip.
 */
import type { TestProject } from 'vitest/node';
import { createDatabase, startThrowawayPostgres } from './throwaway-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The database the PostgreSQL suites share; a superuser may create more beside it. */
    postgresUrl: string;
  }
}

/** The suites open many pools at once: two gateways per test, backend kills, files side by side. */
const MAX_CONNECTIONS = 300;

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const configured = process.env.PUNCHGATE_TEST_PG_URL;
  if (configured) {
    project.provide('postgresUrl', configured);
    return undefined;
  }
  const begun = performance.now();
  const server = await startThrowawayPostgres({ maxConnections: MAX_CONNECTIONS });
  try {
    project.provide('postgresUrl', await createDatabase(server.url, 'punchgate_test'));
  } catch (error) {
    await server.remove();
    throw error;
  }
  console.info(
    `PostgreSQL for the tests: a throwaway server, ready in ${Math.round(performance.now() - begun)} ms`,
  );
  return () => server.remove();
}
