/**
 * PO intake: cXML OrderRequests (unique payloadID and orderID each, naming cart lines seeded in the
 * gateway's store) accepted, meaning persisted and answered with Status 200, per second, against a bare
 * Hono route that reads the same body. Goal: ratio at least 0.5.
 *
 * The order intake is a gateway feature of its own; a gateway built without it answers Status 450, and
 * the case then reports itself skipped rather than measuring refusals.
 */
import { largeOrderRequest } from '../../test/cxml/large-order-request.ts';
import { AUTOCANNON_METRICS, runAutocannon } from '../harness/autocannon-load.ts';
import { type BenchCase, skipCase } from '../harness/bench-case.ts';
import { startChildServer } from '../harness/child-server.ts';
import type { BareBodyServerReady } from '../servers/bare-body-server.ts';
import type { GatewayServerOptions, GatewayServerReady } from '../servers/gateway-server.ts';
import type { SandboxServerReady } from '../servers/sandbox-server.ts';

const CONNECTIONS = 8;
const LINES_PER_ORDER = 5;

/** An OrderRequest whose payloadID and orderID autocannon makes unique per request (`[<id>]`). */
function orderBody(uniqueId: string): string {
  return largeOrderRequest(LINES_PER_ORDER)
    .replace(/payloadID="[^"]*"/, `payloadID="${uniqueId}@buyer.example"`)
    .replace(/orderID="[^"]*"/, `orderID="PO-${uniqueId}"`)
    .replace(/L-(\d{6})/g, 'L-00$1');
}

const poIntake: BenchCase = {
  name: 'po-intake',
  title:
    'cXML OrderRequests accepted (persisted, Status 200) per second vs a bare Hono route reading the body',
  async setup({ quick }) {
    const sandbox = await startChildServer<SandboxServerReady>(
      new URL('../servers/sandbox-server.ts', import.meta.url),
    );
    const gateway = await startChildServer<GatewayServerReady>(
      new URL('../servers/gateway-server.ts', import.meta.url),
      {
        options: {
          sandboxUrl: sandbox.ready.url,
          reuseSeconds: 600,
          orderLines: LINES_PER_ORDER,
        } satisfies GatewayServerOptions,
      },
    );
    const stopServers = async () => {
      await gateway.stop();
      await sandbox.stop();
    };

    const probe = await fetch(`${gateway.ready.url}/cxml`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=UTF-8' },
      body: orderBody(`probe-${Date.now()}`),
    });
    const probeAnswer = await probe.text();
    if (probeAnswer.includes('<Status code="450"')) {
      await stopServers();
      return skipCase('order intake not available (the gateway answers OrderRequest with Status 450)');
    }
    if (!probeAnswer.includes('<Status code="200"')) {
      await stopServers();
      throw new Error(`po-intake: the gateway refused the probe OrderRequest:\n${probeAnswer}`);
    }

    const bare = await startChildServer<BareBodyServerReady>(
      new URL('../servers/bare-body-server.ts', import.meta.url),
    );
    const durationMs = quick ? 1_000 : 3_000;
    const body = orderBody('[<id>]');
    const post = (url: string, accept?: (status: number, text: string) => boolean) => () =>
      runAutocannon({
        url: `${url}/cxml`,
        method: 'POST',
        connections: CONNECTIONS,
        durationMs,
        headers: { 'content-type': 'text/xml; charset=UTF-8' },
        body,
        ...(accept !== undefined && { accept }),
      });
    const variants = {
      'bare Hono route': post(bare.ready.url),
      'gateway order intake': post(
        gateway.ready.url,
        (status, text) => status === 200 && text.includes('<Status code="200"'),
      ),
    };
    return {
      variants,
      metrics: AUTOCANNON_METRICS,
      ratios: [
        {
          name: 'gateway/bare req/s',
          metric: 'reqPerSec',
          numerator: 'gateway order intake',
          denominator: 'bare Hono route',
          goal: { atLeast: 0.5 },
        },
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        connections: CONNECTIONS,
        durationMs,
        linesPerOrder: LINES_PER_ORDER,
        orderBytes: new TextEncoder().encode(body).byteLength,
        loadGenerator: 'autocannon',
      },
      async warmUp() {
        for (const run of Object.values(variants)) await run();
      },
      async close() {
        await bare.stop();
        await stopServers();
      },
    };
  },
};

export default poIntake;
