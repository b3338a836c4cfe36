/**
 * A 5,000-line OrderRequest (test/cxml/large-order-request.ts, 3.3 MB) taken in by the gateway as
 * `punchgate serve` builds it (SQLite store in a temporary directory, a real port), naming 5,000 cart lines
 * seeded through the store API as bench/servers/gateway-server.ts seeds them. Prints, per round, the time
 * from the POST to its Status 200, the longest event-loop stall meanwhile (and every stall over 20 ms), and the
 * heap and RSS it added. The parse runs on the gateway's worker thread, as `punchgate serve` has it.
 * Intake only: the order job (and the print service) are not involved.
 *
 * Run: `node bench/probes/large-po-intake.ts [lines] [rounds]` (default 5,000 lines, 3 rounds).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createNodeGateway } from '../../src/runtime/gateway-node.ts';
import { serveNode } from '../../src/runtime/node.ts';
import { largeOrderRequest } from '../../test/cxml/large-order-request.ts';
import { seedOrderLines } from '../../test/support/order-lines.ts';
import { resolveTestConfig, testConfig } from '../../test/support/stack.ts';

const lines = Number(process.argv[2] ?? 5_000);
const rounds = Number(process.argv[3] ?? 3);
const dataDir = mkdtempSync(join(tmpdir(), 'punchgate-large-po-'));
const config = resolveTestConfig({
  ...testConfig(),
  store: { kind: 'sqlite', path: join(dataDir, 'gateway.db') },
});
const silent = { info() {}, warn() {}, error() {} };
const node = await createNodeGateway(config, { logger: silent });
const products = config.storefronts[0]?.products ?? [];

/** One round's cart: `lines` lines under their own references, so each round's PO orders fresh lines. */
async function seed(round: number): Promise<void> {
  await seedOrderLines(node.store, products, {
    sessionId: `large-po-${round}`,
    lines,
    expiresAt: new Date(Date.now() + 86_400_000),
    lineRef: (i) => `L${round}${String(i).padStart(7, '0')}`,
  });
}

function order(round: number): string {
  return largeOrderRequest(lines)
    .replace(/payloadID="[^"]*"/, `payloadID="large-${round}-${Date.now()}@buyer.example"`)
    .replace(/orderID="[^"]*"/, `orderID="PO-LARGE-${round}"`)
    .replace(/L-(\d{6})/g, `L${round}0$1`)
    .replace(/<ItemOut quantity="\d+"/g, '<ItemOut quantity="100"')
    .replace(/<Money currency="EUR">12\.50</g, '<Money currency="USD">0.12<')
    .replace(/<Money currency="EUR">[0-9.]+</, `<Money currency="USD">${(lines * 12).toFixed(2)}<`);
}

const server = await serveNode(node.gateway.app, { port: 0 });
try {
  for (let round = 1; round <= rounds; round++) {
    await seed(round);
    const body = order(round);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const rssBefore = process.memoryUsage().rss;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    // Every stall over 20 ms, to tell the slices apart (monitorEventLoopDelay keeps only their distribution).
    const stalls: number[] = [];
    let tick = performance.now();
    const watch = setInterval(() => {
      const now = performance.now();
      if (now - tick > 20) stalls.push(now - tick);
      tick = now;
    }, 1);
    const started = performance.now();
    // A connection of its own per round: seeding the next round outlasts the server's 5 s keep-alive.
    const agent = new Agent();
    const answer = await request(`${server.url}/cxml`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=UTF-8' },
      body,
      dispatcher: agent,
    });
    const text = await answer.body.text();
    await agent.close();
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
    clearInterval(watch);
    loop.disable();
    const status = /<Status code="(\d+)"/.exec(text)?.[1];
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    console.log(
      `round ${round}: ${lines} lines, ${(Buffer.byteLength(body) / 1024 / 1024).toFixed(2)} MB → Status ${status} in ` +
        `${ms.toFixed(0)} ms; longest event-loop stall ${(loop.max / 1e6).toFixed(0)} ms; heap +${mb(process.memoryUsage().heapUsed - heapBefore)} MB, ` +
        `RSS +${mb(process.memoryUsage().rss - rssBefore)} MB`,
    );
    console.log(`  stalls over 20 ms: ${stalls.map((each) => each.toFixed(0)).join(', ') || 'none'}`);
    if (status !== '200') console.log(text);
  }
} finally {
  await server.close();
  await node.close();
  rmSync(dataDir, { recursive: true, force: true });
}
