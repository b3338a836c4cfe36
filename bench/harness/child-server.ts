/**
 * Starts a benchmark server script in a child process and waits for its "ready" message over IPC, so that
 * cases measure a server on its own event loop (and, with two or more cores, its own core).
 */
import { type ChildProcess, fork } from 'node:child_process';

export interface ChildServer<Ready> {
  readonly ready: Ready;
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

export async function startChildServer<Ready>(script: URL, timeoutMs = 30_000): Promise<ChildServer<Ready>> {
  const child: ChildProcess = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${script.pathname} did not report ready within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as Ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script.pathname} exited with code ${code} before it was ready`));
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
