/**
 * @punchgate/sandbox: what a host needs to run the sandbox print service (an emulation of the print
 * ordering service's REST interface v2, built from a seed) and the buyer simulator beside the gateway —
 * `punchgate sandbox`, `punchgate demo`, the tests and the benchmarks. The simulator's document builders
 * and readers are under `@punchgate/sandbox/buyer`; reading a seed file on Node is `@punchgate/sandbox/node`.
 * Runtime-agnostic (Web APIs only), like the gateway's core.
 *
 * @example
 * import { createSandbox } from '@punchgate/sandbox';
 * const { app } = createSandbox(seed);
 * const res = await app.request('/api/v2/ping', { headers: { Authorization: basic } });
 */
export {
  type BuyerSimulator,
  type BuyerSimulatorOptions,
  createBuyerSimulator,
} from './buyer/simulator.ts';
export {
  createSandbox,
  deriveSandboxKey,
  type Sandbox,
  type SandboxControl,
  type SandboxDeps,
  type SandboxLogger,
} from './print/index.ts';
export {
  parseSandboxSeed,
  type SandboxSeed,
  type SandboxSeedInput,
  type SeedProblem,
  type SeedResult,
} from './sandbox-seed.ts';
