/**
 * Bundles `src/runtime/worker.ts` the way wrangler does (esbuild, ES module, the `workerd` export
 * conditions), so tests can run the very code a deploy uploads under workerd. Also reports its size.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface WorkerBundle {
  code: string;
  bytes: number;
  gzipBytes: number;
}

export async function bundleWorker(options: { minify?: boolean } = {}): Promise<WorkerBundle> {
  const result = await build({
    entryPoints: [new URL('../../src/runtime/worker.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    minify: options.minify ?? true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const bytes = Buffer.byteLength(code);
  return { code, bytes, gzipBytes: gzipSync(code, { level: 9 }).length };
}
