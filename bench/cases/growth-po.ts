/**
 * Growth of PO intake and the order job (issue 18): an OrderRequest of 1, 100, 1,000 and 5,000 lines, taken
 * in through the gateway app in process (`POST /cxml` to its `fetch`, no socket, as growth-cart does) and
 * then placed by one worker tick against the in-process sandbox (the job: print order created with every
 * design, processed, the job ticket written into its history, the confirmation queued and posted). Test
 * stack, SQLite in memory; each PO gets a fresh gateway on an empty store, a punch-in (the owner's user
 * mapping, which the job logs in with) and its cart lines seeded through the store API as
 * bench/servers/gateway-server.ts does, all untimed.
 *
 * A 5,000-line OrderRequest is 3.3 MB: `POST /cxml` takes it from an authenticated buyer up to
 * `orders.maxDocumentBytes` (16 MiB by default). Where the route refuses it (a 1 MB cap, as before that
 * limit existed), the case asks once, stores that size's PO through the intake function itself
 * (`createOrderIntake` with the parsed document, untimed) and measures only its job; the intake curve then
 * runs from 1 to 1,000 lines. The parameters' `intake5000` says which.
 *
 * Figures per point: `intakeMs` and `jobMs`, medians of one PO; `…UsPerItem`, those per line. Goals
 * (bench/harness/growth.ts): per-line cost at the last point / at the first ≤ 1.2, and over the last
 * decade (the first point is mostly a request's and a job's fixed cost, so the last decade is the
 * stricter check).
 */
import { parseCxmlRequest } from '../../src/cxml/index.ts';
import { createOrderWorker } from '../../src/gateway/orders/index.ts';
import { createOrderIntake } from '../../src/gateway/orders/intake.ts';
import { largeOrderRequest } from '../../test/cxml/large-order-request.ts';
import { orderConfig } from '../../test/support/order-flow.ts';
import { createStack, GATEWAY_ORIGIN } from '../../test/support/stack.ts';
import type { BenchCase, Figures, RatioSpec } from '../harness/bench-case.ts';
import { growthRatio, pointFigures, sizeLabel } from '../harness/growth.ts';
import { freshCartOf } from '../harness/seeded-lines-order.ts';
import { median } from '../harness/statistics.ts';

const SIZES = [1, 100, 1_000, 5_000] as const;
/** The product every line orders (a template of the sandbox's storefront 1, so its id is a design). */
const PRODUCT = { productId: 101, sku: 'BC-STD', name: 'Business cards', uom: 'EA' } as const;

const label = (n: number) => `PO: ${sizeLabel(n, 'line', 'lines')}`;

/**
 * largeOrderRequest's Ariba layout, ordering the seeded cart lines on the cart's terms (100 at 0.12 USD,
 * all BC-STD): intake refuses a quantity the product does not allow and flags one that differs.
 */
function orderBody(n: number, unique: string): string {
  return largeOrderRequest(n)
    .replace(/payloadID="[^"]*"/, `payloadID="${unique}@buyer.example"`)
    .replace(/orderID="[^"]*"/, `orderID="PO-${unique}"`)
    .replace(/L-(\d{6})/g, 'L-00$1')
    .replace(/<SupplierPartID>[^<]*</g, `<SupplierPartID>${PRODUCT.sku}<`)
    .replace(/<ItemOut quantity="\d+"/g, '<ItemOut quantity="100"')
    .replace(/<Money currency="EUR">12\.50</g, '<Money currency="USD">0.12<')
    .replace(/<Money currency="EUR">[0-9.]+</, `<Money currency="USD">${(n * 12).toFixed(2)}<`);
}

const growthPo: BenchCase = {
  name: 'growth-po',
  title: 'PO intake and order job at 1, 100, 1,000, 5,000 lines: per-line cost must not grow (in-process)',
  async setup({ quick }) {
    // The order-flow tests' config: buyer acme has an orderStatusUrl, so the job's confirmation is posted.
    const stack = await createStack(orderConfig());
    let worker = createOrderWorker(stack.gateway.context);
    let serial = 0;

    /** A fresh gateway and store, a punch-in, and `n` cart lines of its user; answers the PO to send. */
    async function prepare(n: number): Promise<string> {
      await freshCartOf(stack, n);
      worker = createOrderWorker(stack.gateway.context);
      return orderBody(n, `growth-${++serial}`);
    }

    /** POST /cxml; answers whether the PO was accepted (false: refused before intake, e.g. too large). */
    async function postOrder(body: string): Promise<boolean> {
      const res = await stack.request(`${GATEWAY_ORIGIN}/cxml`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'text/xml' },
      });
      const answer = await res.text();
      return res.status === 200 && answer.includes('<Status code="200"');
    }

    /** The intake without HTTP, for a PO the route refuses: the parsed document to the intake function. */
    async function storeDirectly(body: string): Promise<void> {
      const request = parseCxmlRequest(body, { maxBytes: 16 * 1024 * 1024 });
      const buyer = stack.gateway.context.buyers.byId('acme');
      if (request.kind !== 'OrderRequest' || buyer === undefined) throw new Error('not an acme OrderRequest');
      const status = await createOrderIntake(stack.gateway.context)(
        request,
        buyer,
        request.deploymentMode,
        [],
      );
      if (status.code !== 200) throw new Error(`intake: ${status.code} ${status.text}`);
    }

    /** The PO must have come out of its job ordered (checked untimed: the list copies the whole record). */
    async function checkOrdered(jobs: number): Promise<void> {
      const { items } = await stack.store.orders.list({ limit: 1 });
      if (jobs === 0 || items[0]?.state !== 'ordered') {
        throw new Error(`job: ${jobs} run, PO ${items[0]?.state} (${items[0]?.lastError ?? 'no error'})`);
      }
    }

    // Does POST /cxml take a 5,000-line PO from an authenticated buyer yet (issue 18, deliverable 4)?
    const httpTakes5000 = await postOrder(await prepare(5_000));

    async function measure(n: number, iterations: number): Promise<Figures> {
      const intake: number[] = [];
      const job: number[] = [];
      const viaHttp = n < 5_000 || httpTakes5000;
      for (let i = 0; i < iterations; i++) {
        const body = await prepare(n);
        const started = performance.now();
        if (viaHttp) {
          if (!(await postOrder(body))) throw new Error(`intake of ${n} lines refused`);
          intake.push(performance.now() - started);
        } else {
          await storeDirectly(body);
        }
        const jobStarted = performance.now();
        const { jobs } = await worker.tick();
        job.push(performance.now() - jobStarted);
        await checkOrdered(jobs);
      }
      return pointFigures(n, {
        ...(viaHttp && { intake: median(intake) }),
        job: median(job),
      });
    }

    // Enough POs per point for a stable median, few enough for --quick (~30 s in all).
    const iterations = (n: number) =>
      n >= 5_000 ? (quick ? 1 : 3) : n >= 1_000 ? (quick ? 2 : 5) : quick ? 5 : 15;
    const lastIntake = httpTakes5000 ? 5_000 : 1_000;
    const ratios: RatioSpec[] = [
      growthRatio(
        `intake per line, ${sizeLabel(lastIntake, 'line', 'lines')} / 1 line`,
        'intakeUsPerItem',
        label(1),
        label(lastIntake),
      ),
      growthRatio(
        `intake per line, ${sizeLabel(lastIntake, 'line', 'lines')} / ${httpTakes5000 ? '1,000' : '100'} lines`,
        'intakeUsPerItem',
        label(httpTakes5000 ? 1_000 : 100),
        label(lastIntake),
      ),
      growthRatio('job per line, 5,000 lines / 1 line', 'jobUsPerItem', label(1), label(5_000)),
      // The order job must be linear where big POs live, closer than the curves' general 1.2.
      growthRatio('job per line, 5,000 lines / 1,000 lines', 'jobUsPerItem', label(1_000), label(5_000), {
        atMost: 1.1,
      }),
    ];

    return {
      variants: Object.fromEntries(SIZES.map((n) => [label(n), () => measure(n, iterations(n))])),
      metrics: {
        intakeMs: { unit: 'ms', better: 'lower' },
        intakeUsPerItem: { unit: 'µs/line', better: 'lower' },
        jobMs: { unit: 'ms', better: 'lower' },
        jobUsPerItem: { unit: 'µs/line', better: 'lower' },
      },
      ratios,
      rounds: quick ? 3 : 5,
      parameters: {
        sizes: SIZES.join(' '),
        store: 'sqlite :memory:, fresh per PO',
        intake5000: httpTakes5000
          ? 'POST /cxml'
          : 'refused by POST /cxml: stored through the intake function, job only',
      },
      async warmUp() {
        for (const n of [1, 100, 1_000]) await measure(n, 1);
      },
      async close() {
        await stack.store.close();
      },
    };
  },
};

export default growthPo;
