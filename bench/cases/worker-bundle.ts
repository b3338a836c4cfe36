/**
 * The Workers build's size: `src/runtime/worker.ts` bundled with esbuild as Cloudflare's wrangler would
 * (ESM, browser platform with the `workerd`/`worker` conditions, minified), then gzipped at level 9.
 * Goal: at most 250 KB gzipped. Until the Workers entry exists the case says so and is skipped.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { type BenchCase, skipCase } from '../harness/bench-case.ts';

const entry = fileURLToPath(new URL('../../src/runtime/worker.ts', import.meta.url));

const workerBundle: BenchCase = {
  name: 'worker-bundle',
  title: 'gzip size of the Cloudflare Workers bundle (src/runtime/worker.ts, esbuild, minified)',
  async setup() {
    if (!existsSync(entry)) return skipCase('no Workers build yet (src/runtime/worker.ts does not exist)');
    const bundle = async () => {
      const started = performance.now();
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        conditions: ['workerd', 'worker', 'browser'],
        target: 'es2022',
        minify: true,
        // The Workers runtime provides these (nodejs_compat); they are not part of the bundle.
        external: ['node:*', 'cloudflare:*'],
        logLevel: 'silent',
      });
      const code = result.outputFiles[0]?.contents ?? new Uint8Array();
      return {
        bundleKB: code.byteLength / 1024,
        gzipKB: gzipSync(code, { level: 9 }).byteLength / 1024,
        buildMs: performance.now() - started,
      };
    };
    return {
      variants: { 'worker.ts bundle': bundle },
      metrics: {
        bundleKB: { unit: 'KB', better: 'lower' },
        gzipKB: { unit: 'KB', better: 'lower' },
        buildMs: { unit: 'ms', better: 'lower' },
      },
      limits: [{ name: 'gzip size', variant: 'worker.ts bundle', metric: 'gzipKB', goal: { atMost: 250 } }],
      rounds: 3,
      parameters: { bundler: 'esbuild', gzipLevel: 9 },
      async close() {},
    };
  },
};

export default workerBundle;
