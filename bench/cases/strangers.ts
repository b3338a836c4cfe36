/**
 * A legitimate punch-in while strangers push worst-case documents (issue 17, deliverable 4): the same
 * returning user's PunchOutSetupRequests through the gateway (its own child process, as in `punch-in`),
 * alone and while eight unauthenticated clients each keep posting a 1 MB cXML document whose Header names an
 * unknown buyer and whose body is 16,000 Extrinsics — the document that used to cost over half a second of
 * markup checks and parsing before its credentials were read. The gateway now reads the Header first, so
 * each stranger costs a few milliseconds. Goal: the setup's p99 under the strangers at most 200 ms.
 */
import { Agent, request } from 'undici';
import { setupRequest } from '../../test/support/cxml-documents.ts';
import type { BenchCase } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { setupsBesideLoad } from '../harness/setups-beside-load.ts';

const STRANGERS = 8;
const CONNECTIONS = 2;

/** A 1 MB setup request from nobody: an unknown From credential, then 16,000 Extrinsics. */
function strangersDocument(): string {
  const filler = Array.from(
    { length: 16_000 },
    (_, i) => `<Extrinsic name="x${i}" a="1" b="2" c="3">${'y'.repeat(8)}</Extrinsic>`,
  ).join('');
  return setupRequest({ identity: 'NOBODY-AT-ALL', secret: 'guess' }).replace(
    '<BrowserFormPost>',
    `${filler}<BrowserFormPost>`,
  );
}

const strangers: BenchCase = {
  name: 'strangers',
  title: 'cXML setup of a returning user, alone and beside eight strangers posting worst-case 1 MB documents',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const gateway = await startGatewayServer(sandbox, { reuseSeconds: 600 });
    const durationMs = quick ? 1_000 : 3_000;
    const body = strangersDocument();
    const agent = new Agent({ connections: STRANGERS });
    let refusedStrangers = 0;

    /** Eight loops posting the stranger's document while `running()`; answers how many were sent. */
    const strangersWhile = async (running: () => boolean): Promise<number> => {
      let sent = 0;
      await Promise.all(
        Array.from({ length: STRANGERS }, async () => {
          while (running()) {
            const answer = await request(`${gateway.ready.url}/cxml`, {
              method: 'POST',
              body,
              headers: { 'content-type': 'text/xml; charset=UTF-8' },
              dispatcher: agent,
            });
            const text = await answer.body.text();
            if (text.includes('<Status code="401"')) refusedStrangers++;
            sent++;
          }
        }),
      );
      return sent;
    };

    const measured = setupsBesideLoad({
      gatewayUrl: gateway.ready.url,
      connections: CONNECTIONS,
      durationMs,
      loadName: 'the strangers',
      besideVariant: 'setup beside 8 strangers',
      load: strangersWhile,
      rate: { metric: 'strangersPerSec', unit: 'docs/s', perSecond: (sent) => sent / (durationMs / 1000) },
      p99AtMostMs: 200,
    });
    const { variants } = measured;
    return {
      ...measured,
      rounds: quick ? 3 : 5,
      parameters: {
        strangers: STRANGERS,
        strangerDocumentBytes: Buffer.byteLength(body),
        connections: CONNECTIONS,
        durationMs,
        servers: 'gateway and sandbox in child processes',
      },
      async warmUp() {
        for (const run of Object.values(variants)) await run();
        if (refusedStrangers === 0) throw new Error('the strangers were never refused with 401');
      },
      async close() {
        await agent.close();
        await gateway.stop();
        await sandbox.stop();
      },
    };
  },
};

export default strangers;
