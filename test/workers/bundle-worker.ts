/**
 * Builds the Worker exactly as a deploy does — `wrangler deploy --dry-run` with the repository's wrangler.toml —
 * so the workerd tests run the very bundle a deploy uploads. Only the bundled config file differs, passed the
 * way docs/workers.md tells users to (`--alias punchgate-worker-config:FILE`). wrangler must not reach the
 * network or ask for a log-in: a dry run needs neither, and the variables below keep it from trying.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

/** What keeps a dry run offline and non-interactive. */
export const OFFLINE_WRANGLER_ENV = {
  CI: 'true',
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  // The banner would look for a newer wrangler on npm.
  WRANGLER_HIDE_BANNER: 'true',
  // A build is not worth a debug log under the user's home directory.
  WRANGLER_WRITE_LOGS: 'false',
} as const;

export interface WorkerBundle {
  /** The built module, as uploaded. */
  code: string;
  bytes: number;
  /** The upload size wrangler reports ("Total Upload: … / gzip: … KiB"), in KiB. */
  wranglerGzipKiB: number;
  gzipBytes: number;
}

/** The compatibility date the deploy uses, so Miniflare runs the bundle with the same one. */
export async function compatibilityDate(): Promise<string> {
  const toml = await readFile(join(ROOT, 'wrangler.toml'), 'utf8');
  const match = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml);
  if (match === null) throw new Error('wrangler.toml has no compatibility_date');
  return match[1] as string;
}

/**
 * @param config the gateway config to bundle (written to a file); default the example the repository ships
 */
export async function buildWorker(config?: unknown): Promise<WorkerBundle> {
  const dir = await mkdtemp(join(tmpdir(), 'punchgate-worker-'));
  try {
    const args = [WRANGLER, 'deploy', '--dry-run', '--outdir', join(dir, 'out')];
    if (config !== undefined) {
      const file = join(dir, 'punchgate.config.json');
      await writeFile(file, JSON.stringify(config, null, 2));
      args.push('--alias', `punchgate-worker-config:${file}`);
    }
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...OFFLINE_WRANGLER_ENV },
      maxBuffer: 16 * 1024 * 1024,
    });
    const size = /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(stdout);
    if (size === null) throw new Error(`wrangler did not report the upload size:\n${stdout}`);
    const code = await readFile(join(dir, 'out', 'worker.js'), 'utf8');
    return {
      code,
      bytes: Buffer.byteLength(code),
      wranglerGzipKiB: Number(size[1]),
      gzipBytes: gzipSync(code, { level: 9 }).length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
