/**
 * The sandbox and the gateway as cases start them: each in a child process of its own (see
 * child-server.ts), the gateway pointed at the sandbox.
 */
import type { GatewayServerOptions, GatewayServerReady } from '../servers/gateway-server.ts';
import type { SandboxServerReady } from '../servers/sandbox-server.ts';
import { type ChildServer, startChildServer } from './child-server.ts';

const SANDBOX_SCRIPT = new URL('../servers/sandbox-server.ts', import.meta.url);
const GATEWAY_SCRIPT = new URL('../servers/gateway-server.ts', import.meta.url);

/** The print platform's sandbox (bench/servers/sandbox-server.ts). */
export function startSandboxServer(): Promise<ChildServer<SandboxServerReady>> {
  return startChildServer<SandboxServerReady>(SANDBOX_SCRIPT);
}

/**
 * `punchgate serve`'s build on SQLite (bench/servers/gateway-server.ts) in front of `sandbox`; `timeoutMs`
 * for one that seeds many cart lines first.
 */
export function startGatewayServer(
  sandbox: ChildServer<SandboxServerReady>,
  options: Omit<GatewayServerOptions, 'sandboxUrl'>,
  timeoutMs?: number,
): Promise<ChildServer<GatewayServerReady>> {
  return startChildServer<GatewayServerReady>(GATEWAY_SCRIPT, {
    options: { sandboxUrl: sandbox.ready.url, ...options } satisfies GatewayServerOptions,
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
}
