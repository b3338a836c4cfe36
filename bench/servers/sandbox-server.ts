/**
 * The sandbox print service as a benchmark server: run in a child process (`startSandboxServer`) so that
 * the server and the load generator get their own cores and event loops. It serves the default seed
 * (fixtures/sandbox-seed.json) on a free loopback port and tells its parent, over IPC, where it is and
 * which Enterprise credentials work.
 *
 * `GET /__bench/requests` (see harness/sandbox-requests.ts) answers how many requests the sandbox has served so far (that one excluded), so
 * that a case can report the upstream calls a gateway operation costs.
 */
import { createSandbox, deriveSandboxKey } from '@punchgate/sandbox';
import { readSeedFile } from '@punchgate/sandbox/node';
import { serveNode } from '../../src/runtime/node.ts';
import { REQUEST_COUNT_PATH } from '../harness/sandbox-requests.ts';

export interface SandboxServerReady {
  readonly url: string;
  readonly token: string;
  readonly key: string;
}

const seed = await readSeedFile(new URL('../../fixtures/sandbox-seed.json', import.meta.url));
if (!seed.ok) {
  for (const problem of seed.problems) console.error(`sandbox seed ${problem.path}: ${problem.message}`);
  process.exit(2);
}
const credentials = seed.seed.licenses
  .filter((license) => license.tier === 'Enterprise')
  .flatMap((license) => license.apiKeys)
  .find((key) => key.active && !key.deleted);
if (credentials === undefined) {
  console.error('sandbox seed: no active Enterprise API key to benchmark with');
  process.exit(2);
}

const { app } = createSandbox(seed.seed);
let served = 0;
const server = await serveNode(
  {
    fetch(request, env) {
      if (new URL(request.url).pathname === REQUEST_COUNT_PATH) return Response.json({ count: served });
      served++;
      return app.fetch(request, env);
    },
  },
  { port: 0 },
);
const ready: SandboxServerReady = {
  url: server.url,
  token: credentials.token,
  key: await deriveSandboxKey(credentials.token, seed.seed.keyRounds),
};
process.send?.(ready);
// The parent closing the IPC channel (or dying) ends the server.
process.once('disconnect', () => {
  void server.close().finally(() => process.exit(0));
});
