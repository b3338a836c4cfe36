/**
 * Starts a benchmark server script in a child process and waits for its "ready" message over IPC, so that
 * cases measure a server on its own event loop (and, with two or more cores, its own core).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** The options a parent handed to this server script (see {@link ChildServerOptions.options}). */
export function childServerOptions<T>(): Partial<T> {
  return JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') as Partial<T>;
}

export interface ChildServer<Ready> {
  readonly ready: Ready;
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  /** Handed to the script as `process.env.BENCH_SERVER_OPTIONS` (JSON): where to connect, what to seed. */
  readonly options?: unknown;
  /** Longest wait for "ready" (a server that seeds data needs more). Default 30 s. */
  readonly timeoutMs?: number;
  /** Flags for the child's node, e.g. `--expose-gc`. */
  readonly execArgv?: readonly string[];
  /**
   * Where the child's stderr goes (a file, made afresh), instead of this process's: a server that logs as
   * `punchgate serve` does writes its lines there, as serve's would go to a file or a log shipper's pipe.
   */
  readonly stderrFile?: string;
  /** Variables set in the child's environment beside this process's. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startChildServer<Ready>(
  script: URL,
  { options, timeoutMs = 30_000, execArgv = [], stderrFile, env = {} }: ChildServerOptions = {},
): Promise<ChildServer<Ready>> {
  let stderr: number | 'inherit' = 'inherit';
  if (stderrFile !== undefined) {
    mkdirSync(dirname(stderrFile), { recursive: true });
    stderr = openSync(stderrFile, 'w');
  }
  const child: ChildProcess = fork(script, [], {
    stdio: ['ignore', 'inherit', stderr, 'ipc'],
    execArgv: [...process.execArgv, ...execArgv],
    env: { ...process.env, ...env, BENCH_SERVER_OPTIONS: JSON.stringify(options ?? {}) },
  });
  // The child holds its own copy of the descriptor.
  if (typeof stderr === 'number') closeSync(stderr);
  const whereItSaid = stderrFile === undefined ? '' : ` (its stderr: ${stderrFile})`;
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${script.pathname} did not report ready within ${timeoutMs} ms${whereItSaid}`));
    }, timeoutMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as Ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script.pathname} exited with code ${code} before it was ready${whereItSaid}`));
    });
  });
  return {
    ready,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.disconnect();
      const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(forced);
    },
  };
}
