/**
 * Growth of the cXML cart transfer (issue 18): `POST /punchout/s/<token>/transfer` of a cart of 1, 10, 100
 * and 1,000 lines, through the gateway app in process (its `fetch`, no socket: a child server per point
 * would measure the same code plus HTTP), on the test stack (SQLite in memory, the sandbox in process).
 * The time is the request and reading its answer, the self-posting page with the PunchOutOrderMessage in
 * `cxml-base64`: loading the session and its lines, one proof link signed per line, the message built and
 * encoded. Each timed transfer gets a fresh gateway on an empty store (so every point reads tables of its
 * own size, not what the points before it left) and a new session with its lines, untimed.
 *
 * Figures per point: `transferMs`, the median of one transfer; `transferUsPerItem`, that per line. Goals
 * (bench/harness/growth.ts): growth = per-line cost at 1,000 lines / per-line cost at 1 line ≤ 1.2, taken
 * per round; and the same over the last decade, 1,000 / 100 lines ≤ 1.2, the stricter check because at
 * 100 lines the fixed cost of a request is already small beside the lines'. The descriptions carry
 * "Müller-€", so the encoder handles multi-byte UTF-8.
 */
import { freshPunchIn } from '../../test/support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN } from '../../test/support/stack.ts';
import { createTestStore } from '../../test/support/test-store.ts';
import type { BenchCase, Figures } from '../harness/bench-case.ts';
import { growthRatio, medianMs, pointFigures, sizeLabel } from '../harness/growth.ts';

const SIZES = [1, 10, 100, 1_000] as const;

const label = (n: number) => `transfer: ${sizeLabel(n, 'line', 'lines')}`;

const growthCart: BenchCase = {
  name: 'growth-cart',
  title: 'cXML cart transfer at 1, 10, 100, 1,000 lines: per-line cost must not grow (in-process app)',
  async setup({ quick }) {
    const stack = await createStack();
    let nextLine = 0;

    /** A new session of buyer acme on a fresh gateway and store, with `n` lines; answers its transfer URL. */
    async function cartOf(n: number): Promise<string> {
      const previous = stack.store;
      await stack.restartGateway(createTestStore({ clock: stack.clock }));
      await previous.close();
      const { token, session } = await freshPunchIn(stack);
      for (let i = 1; i <= n; i++) {
        await stack.store.cart.add({
          lineRef: `L-G${++nextLine}`,
          sessionId: session.id,
          buyerId: session.buyerId,
          storefrontId: session.storefrontId,
          userRef: session.pipoUserRef,
          designId: 5000 + i,
          productId: 101,
          sku: 'BC-STD',
          name: `Business cards Müller-€ ${i}`,
          quantity: 100,
          unitPrice: '0.12',
          currency: 'USD',
          uom: 'EA',
        });
      }
      return `${GATEWAY_ORIGIN}/punchout/s/${token}/transfer`;
    }

    async function transfer(url: string): Promise<void> {
      const res = await stack.request(url, { method: 'POST' });
      const page = await res.text();
      if (res.status !== 200 || !page.includes('cxml-base64')) throw new Error(`transfer: ${res.status}`);
    }

    // Enough transfers per point that the median is stable, few enough for --quick (~15 s in all).
    const iterations = (n: number) => (n >= 1_000 ? (quick ? 3 : 5) : quick ? 10 : 25);
    const measure = async (n: number): Promise<Figures> =>
      pointFigures(n, { transfer: await medianMs(iterations(n), () => cartOf(n), transfer) });

    return {
      variants: Object.fromEntries(SIZES.map((n) => [label(n), () => measure(n)])),
      metrics: {
        transferMs: { unit: 'ms', better: 'lower' },
        transferUsPerItem: { unit: 'µs/line', better: 'lower' },
      },
      ratios: [
        growthRatio('per-line cost, 1,000 lines / 1 line', 'transferUsPerItem', label(1), label(1_000)),
        growthRatio('per-line cost, 1,000 lines / 100 lines', 'transferUsPerItem', label(100), label(1_000)),
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        sizes: SIZES.join(' '),
        store: 'sqlite :memory:, fresh per transfer',
        encoding: 'cxml-base64',
      },
      async warmUp() {
        for (const n of SIZES) await transfer(await cartOf(n));
      },
      async close() {
        await stack.store.close();
      },
    };
  },
};

export default growthCart;
