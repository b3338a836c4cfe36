/**
 * The Workers build's size as a deploy makes it: `wrangler deploy --dry-run` with the repository's
 * wrangler.toml (minified, the example config bundled), the size wrangler reports for the upload, and the
 * built module gzipped at level 9 for comparison. Goal: at most 250 KB gzipped as wrangler builds it.
 */
import { buildWorker } from '../../test/workers/bundle-worker.ts';
import type { BenchCase } from '../harness/bench-case.ts';

const workerBundle: BenchCase = {
  name: 'worker-bundle',
  title: 'gzip size of the Cloudflare Workers bundle as `wrangler deploy --dry-run` builds it (minified)',
  async setup() {
    const bundle = async () => {
      const started = performance.now();
      const built = await buildWorker();
      return {
        bundleKB: built.bytes / 1024,
        gzipKB: built.wranglerGzipKiB,
        gzip9KB: built.gzipBytes / 1024,
        buildMs: performance.now() - started,
      };
    };
    return {
      variants: { 'wrangler build': bundle },
      metrics: {
        bundleKB: { unit: 'KB', better: 'lower' },
        gzipKB: { unit: 'KB', better: 'lower' },
        gzip9KB: { unit: 'KB', better: 'lower' },
        buildMs: { unit: 'ms', better: 'lower' },
      },
      limits: [{ name: 'gzip size', variant: 'wrangler build', metric: 'gzipKB', goal: { atMost: 250 } }],
      rounds: 3,
      parameters: { bundler: 'wrangler deploy --dry-run', config: 'examples/worker.config.json' },
      async close() {},
    };
  },
};

export default workerBundle;
