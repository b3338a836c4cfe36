/**
 * punchgate's commands as a user runs them: `node bin/punchgate.js <command>` in a child process of its
 * own, with only the environment the test hands in. Every child started here is tracked and killed by
 * `stopAllCommands()` (call it in afterAll/afterEach) or, as a last resort, when the test process exits;
 * every wait is bounded and fails with the tail of what the child wrote, so a broken start-up says why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/punchgate.js', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How long a command may take to print that it is ready or to finish (a cold Node start loading the
 * TypeScript sources, plus migrations). Generous: on a loaded two-core machine a start takes seconds, and
 * this bound only turns a hang into a readable failure; nothing here asserts how fast anything is.
 */
export const COMMAND_TIMEOUT_MS = 60_000;
/** A test or hook that waits on a few commands in a row gets this long before vitest gives up on it. */
export const SHIP_TEST_TIMEOUT_MS = 3 * COMMAND_TIMEOUT_MS;
/** Grace between SIGTERM and SIGKILL when stopping a child. */
const STOP_GRACE_MS = 5_000;
/** What a child wrote is kept up to this many characters per stream (the start matters, then the tail). */
const MAX_KEPT_OUTPUT = 1_000_000;

export type ChildEnv = Readonly<Record<string, string>>;

export interface CommandExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface PunchgateProcess {
  readonly name: string;
  readonly pid: number | undefined;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** The last lines of stderr and stdout, for failure messages. */
  tail(lines?: number): string;
  /** Resolves with the first match of `pattern` in stdout; rejects on exit or after `timeoutMs`. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** The same for stderr, where the log lines go. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Settles when the child has exited. */
  readonly exited: Promise<CommandExit>;
  /** How the child ended, or undefined while it runs (asks without waiting, unlike `exited`). */
  exit(): CommandExit | undefined;
  /** SIGTERM (the commands close their servers and stores on it), SIGKILL after a grace period. */
  stop(): Promise<CommandExit>;
}

const running = new Set<ChildProcess>();

// The last line of defence when a test file dies before its afterAll: no child outlives the test process.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The environment a child gets: PATH (to find nothing else), plus exactly what the test names. */
export function childEnv(extra: ChildEnv = {}): ChildEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...extra };
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

/**
 * Starts `punchgate <args>` and keeps what it writes. `cwd` is where relative paths land, such as the
 * demo's `.punchgate/` data (default the repository).
 */
export function startPunchgate(
  name: string,
  args: readonly string[],
  env: ChildEnv,
  cwd: string = REPOSITORY,
  options: { openFileLimit?: number } = {},
): PunchgateProcess {
  // Node cannot lower its own open-file limit, so a limit is set by the shell that then becomes the command:
  // /bin/sh, the shell Node's own `shell: true` and npm's scripts run, so it is on every machine that runs
  // the tests.
  const [file, argv] =
    options.openFileLimit === undefined
      ? [process.execPath, [BIN, ...args]]
      : [
          '/bin/sh',
          ['-c', `ulimit -n ${options.openFileLimit} && exec "$0" "$@"`, process.execPath, BIN, ...args],
        ];
  const child = spawn(file, argv, {
    cwd,
    env: { ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  let exit: CommandExit | undefined;
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    if (out.length < MAX_KEPT_OUTPUT) out += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: string) => {
    err = (err + chunk).slice(-MAX_KEPT_OUTPUT);
    for (const listener of listeners) listener();
  });
  const exited = new Promise<CommandExit>((resolve) => {
    // 'close' (not 'exit'): the pipes are drained, so stdout and stderr are complete.
    child.once('close', (code, signal) => {
      running.delete(child);
      exit = { code, signal };
      resolve(exit);
    });
    child.once('error', (error) => {
      running.delete(child);
      err += `\n(spawn failed: ${error.message})`;
      exit = { code: null, signal: null };
      resolve(exit);
    });
  });

  const tail = (lines = 20) =>
    `--- ${name} stderr (last ${lines} lines) ---\n${lastLines(err, lines)}\n--- ${name} stdout ---\n${lastLines(out, lines)}`;

  function waitFor(
    stream: string,
    read: () => string,
    pattern: RegExp,
    timeoutMs = COMMAND_TIMEOUT_MS,
  ): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        listeners.delete(check);
        outcome();
      };
      const check = () => {
        const match = pattern.exec(read());
        if (match) finish(() => resolve(match));
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new Error(`${name} did not print ${pattern} to ${stream} within ${timeoutMs} ms\n${tail()}`),
            ),
          ),
        timeoutMs,
      );
      listeners.add(check);
      void exited.then((exit) =>
        finish(() =>
          reject(
            new Error(
              `${name} exited (code ${exit.code}, signal ${exit.signal}) before printing ${pattern} to ${stream}\n${tail()}`,
            ),
          ),
        ),
      );
      check();
    });
  }

  return {
    name,
    pid: child.pid,
    stdout: () => out,
    stderr: () => err,
    tail,
    exited,
    exit: () => exit,
    waitForStdout: (pattern, timeoutMs) => waitFor('stdout', () => out, pattern, timeoutMs),
    waitForStderr: (pattern, timeoutMs) => waitFor('stderr', () => err, pattern, timeoutMs),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        try {
          return await exited;
        } finally {
          clearTimeout(killer);
        }
      }
      return exited;
    },
  };
}

/** Runs `punchgate <args>` to its end; a child still running after `timeoutMs` is killed and reported. */
export async function runPunchgate(
  args: readonly string[],
  env: ChildEnv,
  timeoutMs = COMMAND_TIMEOUT_MS,
): Promise<CommandExit & { stdout: string; stderr: string; timedOut: boolean }> {
  const command = startPunchgate(`punchgate ${args.join(' ')}`, args, env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void command.stop();
  }, timeoutMs);
  const exit = await command.exited;
  clearTimeout(timer);
  return { ...exit, stdout: command.stdout(), stderr: command.stderr(), timedOut };
}

/** Kills every child still running (afterAll/afterEach), waiting until each has gone. */
export async function stopAllCommands(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('close', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS).unref();
        }),
    ),
  );
}

/**
 * Ports nothing listens on right now, all different. `serve` must know its public URL before it listens,
 * as a user writing the config does, so ports are chosen first: each is held until all are chosen (so two
 * never coincide), then released for the commands (another process could take one in between; on
 * loopback in a test run that does not happen in practice).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '127.0.0.1', () => {
              const address = server.address();
              if (typeof address === 'object' && address !== null) resolve(address.port);
              else reject(new Error('no port'));
            });
          }),
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port as number;
}

/**
 * Polls `probe` until it answers something other than undefined; fails after `timeoutMs` naming what was
 * awaited and what the children involved wrote. No timing is asserted: the bound only turns a hang into
 * a readable failure.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; processes?: readonly PunchgateProcess[] } = {},
): Promise<T> {
  const { timeoutMs = COMMAND_TIMEOUT_MS, intervalMs = 100, processes = [] } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const tails = processes.map((p) => p.tail()).join('\n');
      throw new Error(`waited ${timeoutMs} ms for ${what}\n${tails}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface SandboxProcess {
  process: PunchgateProcess;
  /** The API base URL as printed (`{base_url}`, endpoints under /api/v2). */
  url: string;
  editorUrl: string;
  /** The active keys the sandbox printed, by tier and label. */
  apiKeys: { tier: string; token: string; key: string; label: string }[];
}

/**
 * `punchgate sandbox --port 0`, read from what it prints: its URLs and API keys. `extraArgs` adds options,
 * e.g. a short `--session-idle-s` so PIPO sessions expire within a test.
 */
export async function startSandboxCommand(
  env: ChildEnv = childEnv(),
  extraArgs: readonly string[] = [],
): Promise<SandboxProcess> {
  const args = ['sandbox', '--port', '0', '--merge-delay-ms', '0', ...extraArgs];
  const sandbox = startPunchgate('sandbox', args, env);
  // The key list is the last thing printed; wait for a line after it so the whole block is in.
  const keysEnd = /API keys \(token:key for HTTP Basic\):\n((?: {4}\S+ +[0-9a-f]+:[0-9a-f]+ .*\n)+)/;
  const [, keyLines = ''] = await sandbox.waitForStdout(new RegExp(`${keysEnd.source}(?![\\s\\S])`));
  const url = /API base URL: (\S+)/.exec(sandbox.stdout())?.[1];
  const editorUrl = /Editor URL: +(\S+)/.exec(sandbox.stdout())?.[1];
  if (url === undefined || editorUrl === undefined) {
    throw new Error(`the sandbox printed no URLs\n${sandbox.tail()}`);
  }
  const apiKeys = [...keyLines.matchAll(/^ {4}(\S+) +([0-9a-f]+):([0-9a-f]+) +(.*)$/gm)].map((m) => ({
    tier: m[1] ?? '',
    token: m[2] ?? '',
    key: m[3] ?? '',
    label: m[4] ?? '',
  }));
  return { process: sandbox, url, editorUrl, apiKeys };
}

export interface ServeProcess {
  process: PunchgateProcess;
  /** Where it listens (the URL it printed). */
  url: string;
}

/** `punchgate serve --config FILE --port PORT`, ready once it prints where it listens. */
export async function startServeCommand(
  name: string,
  configFile: string,
  port: number,
  env: ChildEnv,
  options: { openFileLimit?: number } = {},
): Promise<ServeProcess> {
  const args = ['serve', '--config', configFile, '--port', String(port)];
  const serve = startPunchgate(name, args, env, REPOSITORY, options);
  // Its banner: on stdout as text, or (JSON logs, the default off a terminal) a log record on stderr.
  const [, textUrl, jsonUrl] = await Promise.any([
    serve.waitForStdout(/^punchgate gateway on (\S+)/m),
    serve.waitForStderr(/"url":"([^"]+)"[^\n]*"msg":"punchgate gateway on /),
  ]).catch((error: AggregateError) => {
    throw error.errors[0];
  });
  return { process: serve, url: textUrl ?? jsonUrl ?? '' };
}
