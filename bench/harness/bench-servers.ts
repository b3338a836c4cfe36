/**
 * The sandbox and the gateway as cases start them: each in a child process of its own (see
 * child-server.ts), the gateway pointed at the sandbox.
 */
import { join } from 'node:path';
import type { GatewayServerOptions, GatewayServerReady } from '../servers/gateway-server.ts';
import type { SandboxServerReady } from '../servers/sandbox-server.ts';
import { type ChildServer, startChildServer } from './child-server.ts';

const SANDBOX_SCRIPT = new URL('../servers/sandbox-server.ts', import.meta.url);
const GATEWAY_SCRIPT = new URL('../servers/gateway-server.ts', import.meta.url);
/** Where the gateways' log lines go (git-ignored with the results); one file per gateway, made afresh. */
const LOG_DIR = join(import.meta.dirname, '..', '..', '.bench', 'logs');
let gateways = 0;

/** The print platform's sandbox (bench/servers/sandbox-server.ts). */
export function startSandboxServer(): Promise<ChildServer<SandboxServerReady>> {
  return startChildServer<SandboxServerReady>(SANDBOX_SCRIPT);
}

/**
 * `punchgate serve`'s build on SQLite, logging as serve does (`createNodeLogger('gateway')`, JSON lines on
 * stderr at the default level) into `.bench/logs/gateway-<n>.log` (bench/servers/gateway-server.ts) in front of `sandbox`; `timeoutMs`
 * for one that seeds many cart lines first.
 */
export function startGatewayServer(
  sandbox: ChildServer<SandboxServerReady>,
  options: Omit<GatewayServerOptions, 'sandboxUrl'>,
  timeoutMs?: number,
): Promise<ChildServer<GatewayServerReady>> {
  return startChildServer<GatewayServerReady>(GATEWAY_SCRIPT, {
    options: { sandboxUrl: sandbox.ready.url, ...options } satisfies GatewayServerOptions,
    stderrFile: join(LOG_DIR, `gateway-${++gateways}.log`),
    // serve's format off a terminal; the level is whatever LOG_LEVEL says, as for serve.
    env: { LOG_FORMAT: 'json' },
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
}
