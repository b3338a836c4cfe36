/**
 * Growth of the catalog page (issue 18): `GET /punchout/s/<token>/catalog` of storefronts with 10, 100,
 * 1,000 and 10,000 products, through the gateway app in process (its `fetch`, no socket) on the test stack,
 * one open session per storefront. Two operations per point, each the request and reading its answer:
 * - `page`: the first page (48 product cards, prepared at config load, plus the session's links);
 * - `search`: `?q=` naming one product's SKU, matched against every product's folded texts.
 *
 * Figures per point: `pageMs`, `searchMs`, the medians of one request; `…UsPerItem`, those per product in
 * the storefront. Goals (bench/harness/growth.ts): growth = per-product cost at 10,000 products /
 * per-product cost at 10 products ≤ 1.2, taken per round, for each operation; and for the search, which
 * must read every product, the same over the last decade (10,000 / 1,000 products ≤ 1.2). The paginated
 * page costs about the same at every size, so its per-product cost falls with the size. Also recorded:
 * the time a gateway takes to load the config at each size (`configLoadMs…`, once, not a goal), which now
 * includes indexing the products and rendering their cards.
 */
import type { GatewayConfigInput } from '../../schemas/config.ts';
import { setupRequest } from '../../test/support/cxml-documents.ts';
import { startUrlOf } from '../../test/support/punchout-flow.ts';
import { createStack, type Stack, testConfig } from '../../test/support/stack.ts';
import type { BenchCase, Figures } from '../harness/bench-case.ts';
import { growthRatio, medianMs, pointFigures, sizeLabel } from '../harness/growth.ts';

const SIZES = [10, 100, 1_000, 10_000] as const;

const label = (n: number) => `catalog: ${sizeLabel(n, 'product', 'products')}`;

/** The test config with its demo storefront selling `n` products like real ones (two price tiers). */
function configWith(n: number): GatewayConfigInput {
  const config = testConfig();
  const [demo, ...others] = config.storefronts;
  if (demo === undefined) throw new Error('no demo storefront');
  const products = Array.from({ length: n }, (_, i) => ({
    productId: 101,
    sku: `SKU-${String(i).padStart(6, '0')}`,
    name: `Business cards ${i}, 350 g matt`,
    description: `85 × 55 mm, 350 g/m² matt, printed both sides, finish ${i % 7}, for Müller & Söhne`,
    uom: 'EA',
    minQuantity: 100,
    prices: [
      { minQuantity: 1, unitPrice: 0.12 },
      { minQuantity: 500, unitPrice: 0.09 },
    ],
  }));
  return { ...config, storefronts: [{ ...demo, products }, ...others] };
}

interface Point {
  stack: Stack;
  catalogUrl: string;
  configLoadMs: number;
}

async function pointOf(n: number): Promise<Point> {
  const stack = await createStack(configWith(n));
  // A second gateway on the same store: the config load alone, products indexed and cards rendered.
  const started = performance.now();
  await stack.restartGateway(stack.store);
  const configLoadMs = performance.now() - started;
  const catalog = await stack.browse(startUrlOf(await stack.postCxml(setupRequest())));
  if (catalog.status !== 200) throw new Error(`no catalog at ${n} products: ${catalog.status}`);
  return { stack, catalogUrl: catalog.url, configLoadMs };
}

async function get(stack: Stack, url: string, expected: string): Promise<void> {
  const res = await stack.request(url);
  const page = await res.text();
  if (res.status !== 200 || !page.includes(expected)) throw new Error(`GET ${url}: ${res.status}`);
}

const growthCatalog: BenchCase = {
  name: 'growth-catalog',
  title: 'catalog page and search at 10 to 10,000 products: per-product cost must not grow (in-process app)',
  async setup({ quick }) {
    const points = new Map<number, Point>();
    for (const n of SIZES) points.set(n, await pointOf(n));
    const iterations = quick ? 20 : 50;
    const none = async () => undefined;

    async function measure(n: number): Promise<Figures> {
      const { stack, catalogUrl } = points.get(n)!;
      // One product's SKU, lower case: found by folding, one hit.
      const search = `${catalogUrl}?q=sku-${String(n - 1).padStart(6, '0')}`;
      return pointFigures(n, {
        page: await medianMs(iterations, none, () => get(stack, catalogUrl, 'Design Business cards 0,')),
        search: await medianMs(iterations, none, () => get(stack, search, '1 product matches')),
      });
    }

    return {
      variants: Object.fromEntries(SIZES.map((n) => [label(n), () => measure(n)])),
      metrics: {
        pageMs: { unit: 'ms', better: 'lower' },
        pageUsPerItem: { unit: 'µs/product', better: 'lower' },
        searchMs: { unit: 'ms', better: 'lower' },
        searchUsPerItem: { unit: 'µs/product', better: 'lower' },
      },
      ratios: [
        growthRatio('page: per-product cost, 10,000 / 10', 'pageUsPerItem', label(10), label(10_000)),
        growthRatio('search: per-product cost, 10,000 / 10', 'searchUsPerItem', label(10), label(10_000)),
        growthRatio(
          'search: per-product cost, 10,000 / 1,000',
          'searchUsPerItem',
          label(1_000),
          label(10_000),
        ),
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        pageSize: 48,
        iterations,
        ...Object.fromEntries(
          SIZES.map((n) => [`configLoadMs@${n}`, Math.round(points.get(n)!.configLoadMs * 10) / 10]),
        ),
      },
      async warmUp() {
        for (const n of SIZES) await measure(n);
      },
      async close() {},
    };
  },
};

export default growthCatalog;
