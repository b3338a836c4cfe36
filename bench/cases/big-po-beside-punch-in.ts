/**
 * A punch-in while a 5,000-line PO is taken in (issue 18, deliverable 2): the returning user's
 * PunchOutSetupRequests through the gateway (its own child process, `punchgate serve`'s build, SQLite),
 * alone and while one client posts the 3.3 MB OrderRequest of test/cxml/large-order-request.ts over and
 * over (a unique payloadID and orderID each, naming the 5,000 cart lines seeded in the gateway). A buyer's
 * system sends its POs one after another, so one at a time. Goal: the setups' p99 beside the big POs at
 * most 50 ms — which a parse or a store write that holds the event loop for half a second cannot meet.
 */
import { Agent, request } from 'undici';
import type { BenchCase } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { cxmlAccepted } from '../harness/cxml-posts.ts';
import { seededLinesOrder } from '../harness/seeded-lines-order.ts';
import { setupsBesideLoad } from '../harness/setups-beside-load.ts';

const LINES = 5_000;
const CONNECTIONS = 2;

/** The 5,000-line PO on the seeded lines' terms (as bench/cases/po-intake.ts sends its 5-line one). */
function bigOrder(id: string): string {
  return seededLinesOrder(LINES, `big-${id}@buyer.example`, `PO-BIG-${id}`);
}

const bigPoBesidePunchIn: BenchCase = {
  name: 'big-po-beside-punch-in',
  title:
    'cXML setup of a returning user, alone and while 5,000-line POs (3.3 MB) are taken in one after another',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const gateway = await startGatewayServer(sandbox, { reuseSeconds: 600, orderLines: LINES }, 120_000);
    const durationMs = quick ? 2_000 : 5_000;
    const template = bigOrder('ID');
    const agent = new Agent({ connections: 1 });
    let sequence = 0;
    let refusedPos = 0;

    /** One big PO after another while `running()`; answers how many were accepted. */
    const bigPosWhile = async (running: () => boolean): Promise<number> => {
      let accepted = 0;
      while (running()) {
        const id = `${process.pid}-${++sequence}`;
        const answer = await request(`${gateway.ready.url}/cxml`, {
          method: 'POST',
          body: template.replace('big-ID@', `big-${id}@`).replace('PO-BIG-ID"', `PO-BIG-${id}"`),
          headers: { 'content-type': 'text/xml; charset=UTF-8' },
          dispatcher: agent,
        });
        const text = await answer.body.text();
        if (cxmlAccepted(answer.statusCode, text)) accepted++;
        else refusedPos++;
      }
      return accepted;
    };

    const measured = setupsBesideLoad({
      gatewayUrl: gateway.ready.url,
      connections: CONNECTIONS,
      durationMs,
      loadName: 'the big POs',
      besideVariant: 'setup beside 5,000-line POs',
      load: bigPosWhile,
      rate: { metric: 'bigPosPerSec', unit: 'POs/s', perSecond: (accepted, ms) => accepted / (ms / 1000) },
      p99AtMostMs: 50,
    });
    const { variants } = measured;
    return {
      ...measured,
      rounds: quick ? 3 : 5,
      parameters: {
        linesPerOrder: LINES,
        orderBytes: Buffer.byteLength(template),
        connections: CONNECTIONS,
        durationMs,
        servers: 'gateway (SQLite) and sandbox in child processes',
      },
      async warmUp() {
        for (const run of Object.values(variants)) await run();
        if (refusedPos > 0) throw new Error(`the gateway refused ${refusedPos} of the big POs`);
      },
      async close() {
        await agent.close();
        await gateway.stop();
        await sandbox.stop();
      },
    };
  },
};

export default bigPoBesidePunchIn;
