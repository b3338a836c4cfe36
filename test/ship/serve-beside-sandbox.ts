/**
 * The stack the ship tests run as a print shop would: a buyer's procurement system on its own port,
 * `punchgate sandbox` and `punchgate serve --config FILE` as processes, the config written from the
 * configuration reference with its secrets in the environment and a SQLite store in a fresh folder.
 */
import { join } from 'node:path';
import { type BuyerSystem, startBuyerSystem } from './buyer-system.ts';
import {
  childEnv,
  freePort,
  type SandboxProcess,
  type ServeProcess,
  startSandboxCommand,
  startServeCommand,
} from './processes.ts';
import { type ConfigJson, freshFolder, serveConfig, writeConfigFile } from './user-config.ts';

export interface ServeBesideSandbox {
  buyer: BuyerSystem;
  sandbox: SandboxProcess;
  serve: ServeProcess;
  /** The secrets serve's config names, as its environment holds them. */
  secrets: Record<string, string>;
  port: number;
}

/**
 * @example
 * const stack = await startServeBesideSandbox({ sandboxArgs: ['--session-idle-s', '2'] });
 * await fetch(`${stack.serve.url}/healthz`);
 */
export async function startServeBesideSandbox(
  options: {
    sandboxArgs?: readonly string[];
    adjustConfig?: (config: ConfigJson) => void;
    /** More environment for serve, e.g. LOG_LEVEL. */
    serveEnv?: Record<string, string>;
  } = {},
): Promise<ServeBesideSandbox> {
  const buyer = await startBuyerSystem();
  const sandbox = await startSandboxCommand(childEnv(), options.sandboxArgs ?? []);
  // The gateway's public URL goes into the config before it listens, as a user writes it.
  const port = await freePort();
  const folder = freshFolder();
  const serving = serveConfig({
    publicUrl: `http://127.0.0.1:${port}`,
    sandbox,
    buyer,
    store: { kind: 'sqlite', path: join(folder, 'gateway.db') },
  });
  options.adjustConfig?.(serving.config);
  const configFile = writeConfigFile(folder, serving.config);
  const serve = await startServeCommand(
    'serve',
    configFile,
    port,
    childEnv({ ...serving.secrets, ...options.serveEnv }),
  );
  return { buyer, sandbox, serve, secrets: { ...serving.secrets }, port };
}
