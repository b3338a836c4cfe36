/**
 * The cXML codec's cost: `parseCxmlRequest` (byte cap, decoding, markup guard, parse, validation and
 * mapping to typed requests) against fast-xml-parser's bare `new XMLParser().parse` of the same bytes,
 * for a ~5 KB PunchOutSetupRequest (an edit naming 25 lines) and a 1,000-line (~500 KB) OrderRequest.
 * Both are handed the posted bytes, as the /cxml route has them. Goal: ours at most 1.5× the bare parse.
 */
import { XMLParser } from 'fast-xml-parser';
import { parseCxmlRequest } from '../../src/cxml/index.ts';
import { largeOrderRequest } from '../../test/cxml/large-order-request.ts';
import { setupRequest } from '../../test/support/cxml-documents.ts';
import type { BenchCase, Figures } from '../harness/bench-case.ts';

/** Runs `operation` back to back for about `durationMs`, in batches so that the clock is read rarely. */
function timeOperation(operation: () => unknown, durationMs: number): Figures {
  let count = 0;
  let batch = 1;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (let i = 0; i < batch; i++) operation();
    count += batch;
    elapsed = performance.now() - started;
    if (elapsed < durationMs / 20) batch *= 2;
  }
  return { usPerOp: (elapsed * 1000) / count, opsPerSec: count / (elapsed / 1000) };
}

const codec: BenchCase = {
  name: 'codec',
  title: 'parseCxmlRequest (parse + validate + map) vs bare fast-xml-parser parse of the same bytes',
  async setup({ quick }) {
    const encoder = new TextEncoder();
    const setupBytes = encoder.encode(
      setupRequest({
        operation: 'edit',
        items: Array.from({ length: 25 }, (_, i) => ({
          sku: 'BC-STD',
          lineRef: `L-${String(i + 1).padStart(6, '0')}`,
          quantity: 100 + i,
        })),
      }),
    );
    const orderBytes = encoder.encode(largeOrderRequest(1_000));
    const bare = new XMLParser();
    // Both sides of a pair get the same Buffer view of the bytes.
    const setupBuffer = Buffer.from(setupBytes);
    const orderBuffer = Buffer.from(orderBytes);
    const durationMs = quick ? 300 : 1_000;

    // A wrong document would make "ours" fast for the wrong reason.
    if (parseCxmlRequest(setupBuffer).kind !== 'PunchOutSetupRequest') throw new Error('setup did not parse');
    const order = parseCxmlRequest(orderBuffer);
    if (order.kind !== 'OrderRequest' || order.items.length !== 1_000) throw new Error('order did not parse');

    return {
      variants: {
        'setup 5 KB: bare parse': async () => timeOperation(() => bare.parse(setupBuffer), durationMs),
        'setup 5 KB: parseCxmlRequest': async () =>
          timeOperation(() => parseCxmlRequest(setupBuffer), durationMs),
        'order 500 KB: bare parse': async () => timeOperation(() => bare.parse(orderBuffer), durationMs),
        'order 500 KB: parseCxmlRequest': async () =>
          timeOperation(() => parseCxmlRequest(orderBuffer), durationMs),
      },
      metrics: {
        usPerOp: { unit: 'µs', better: 'lower' },
        opsPerSec: { unit: 'op/s', better: 'higher' },
      },
      ratios: [
        {
          name: 'setup: ours/bare time',
          metric: 'usPerOp',
          numerator: 'setup 5 KB: parseCxmlRequest',
          denominator: 'setup 5 KB: bare parse',
          goal: { atMost: 1.5 },
        },
        {
          name: 'order: ours/bare time',
          metric: 'usPerOp',
          numerator: 'order 500 KB: parseCxmlRequest',
          denominator: 'order 500 KB: bare parse',
          goal: { atMost: 1.5 },
        },
      ],
      rounds: quick ? 5 : 7,
      parameters: {
        setupBytes: setupBytes.byteLength,
        orderBytes: orderBytes.byteLength,
        orderLines: 1_000,
        durationMs,
      },
      async warmUp() {
        timeOperation(() => bare.parse(setupBuffer), 200);
        timeOperation(() => parseCxmlRequest(setupBuffer), 200);
        timeOperation(() => bare.parse(orderBuffer), 200);
        timeOperation(() => parseCxmlRequest(orderBuffer), 200);
      },
      async close() {},
    };
  },
};

export default codec;
