/**
 * The sample documents under examples/ work with the demo as it ships: `punchgate demo` runs as a process
 * (its data in a temporary folder) and every cXML example goes to it through `punchgate send`, exactly as
 * examples/README.md tells people to; the OCI example's form is posted as a browser would. The demo's routes
 * also answer with a trailing slash.
 *
 * The demo runs on a free port, not 8080. The examples still fit: their return URLs use localhost:8080,
 * which the demo config allows and the demo keeps as written on any port.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeDtdValidators, requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';
import {
  childEnv,
  type PunchgateProcess,
  runPunchgate,
  SHIP_TEST_TIMEOUT_MS,
  startPunchgate,
  stopAllCommands,
} from './processes.ts';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(REPOSITORY, 'examples');
const CXML_EXAMPLES = readdirSync(join(EXAMPLES, 'cxml'))
  .filter((file) => file.endsWith('.xml'))
  .sort();
const SETUP_EXAMPLES = CXML_EXAMPLES.filter((file) => file.startsWith('setup-request.'));

interface DemoBuyer {
  id: string;
  protocol: string;
  from?: { domain: string; identity: string }[];
}

const DEMO_BUYERS: DemoBuyer[] = JSON.parse(
  readFileSync(join(REPOSITORY, 'fixtures/demo.config.json'), 'utf8'),
).buyers;

/** The From identities a cXML document's header names. */
function fromIdentities(xml: string): string[] {
  const from = /<From>([\s\S]*?)<\/From>/.exec(xml)?.[1] ?? '';
  return [...from.matchAll(/<Identity>([^<]*)<\/Identity>/g)].map((m) => m[1]!.trim());
}

/** The demo buyer whose From credentials a document names. */
function buyerOf(xml: string): string | undefined {
  const identities = fromIdentities(xml);
  return DEMO_BUYERS.find((buyer) => buyer.from?.some((c) => identities.includes(c.identity)))?.id;
}

/** What `punchgate send FILE --to URL` did: its exit code and the parts of the answer it printed. */
async function send(file: string, to: string) {
  const run = await runPunchgate(['send', file, '--to', to], childEnv());
  return {
    code: run.code,
    stderr: run.stderr,
    httpStatus: /^HTTP (\d+)$/m.exec(run.stdout)?.[1],
    status: /<Status code="(\d+)" text="([^"]*)"/.exec(run.stdout)?.slice(1),
    startPage: /<StartPage>\s*<URL>([^<]+)<\/URL>/.exec(run.stdout)?.[1],
    stdout: run.stdout,
  };
}

describe('the examples, sent to `punchgate demo` as it ships', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
  let folder: string;
  let demo: PunchgateProcess;
  let url: string;

  beforeAll(async () => {
    requireDtdValidator();
    // The demo empties and rewrites .punchgate/demo.db under its working folder: a temporary one, so a
    // demo someone runs in the checkout keeps its data.
    folder = mkdtempSync(join(tmpdir(), 'punchgate-examples-'));
    demo = startPunchgate('demo', ['demo', '--port', '0'], childEnv(), folder);
    [, url = ''] = await demo.waitForStdout(/^punchgate demo on (\S+)/m);
  }, SHIP_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await stopAllCommands();
    disposeDtdValidators();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('there is a setup request for every cXML buyer of the demo, and a profile request', () => {
    const cxmlBuyers = DEMO_BUYERS.filter((buyer) => buyer.protocol === 'cxml').map((buyer) => buyer.id);
    const covered = SETUP_EXAMPLES.map((file) => buyerOf(readFileSync(join(EXAMPLES, 'cxml', file), 'utf8')));
    expect(covered.sort()).toEqual(cxmlBuyers.sort());
    expect(CXML_EXAMPLES).toContain('profile-request.xml');
  });

  it('every cXML example is valid against the cXML 1.2.071 DTD', () => {
    for (const file of CXML_EXAMPLES) {
      const verdict = validateAgainstDtd(readFileSync(join(EXAMPLES, 'cxml', file), 'utf8'), 'cXML');
      expect({ file, ...verdict }).toEqual({ file, ok: true, messages: '' });
    }
  });

  it.each(SETUP_EXAMPLES)(
    'punchgate send examples/cxml/%s gets Status 200 and a StartPage that opens the catalog',
    async (file) => {
      const answer = await send(`examples/cxml/${file}`, `${url}/cxml`);
      expect([answer.code, answer.httpStatus, answer.status, answer.stderr]).toEqual([
        0,
        '200',
        ['200', 'OK'],
        '',
      ]);
      expect(answer.startPage).toMatch(new RegExp(`^${url}/punchout/start/[\\w.-]+$`));
      const start = await fetch(answer.startPage!, { redirect: 'manual' });
      expect(start.status).toBe(303);
      expect(start.headers.get('location')).toMatch(new RegExp(`^${url}/punchout/s/[\\w.-]+/catalog$`));
    },
  );

  it("punchgate send examples/cxml/profile-request.xml gets Status 200 and the gateway's transactions", async () => {
    const answer = await send('examples/cxml/profile-request.xml', `${url}/cxml`);
    expect([answer.code, answer.httpStatus, answer.status, answer.stderr]).toEqual([
      0,
      '200',
      ['200', 'OK'],
      '',
    ]);
    const transactions = [
      ...answer.stdout.matchAll(/<Transaction requestName="(\w+)">\s*<URL>([^<]+)<\/URL>/g),
    ].map((m) => [m[1], m[2]]);
    expect(transactions).toEqual([
      ['PunchOutSetupRequest', `${url}/cxml`],
      ['OrderRequest', `${url}/cxml`],
      ['ProfileRequest', `${url}/cxml`],
      ['StatusUpdateRequest', `${url}/cxml`],
    ]);
  });

  it('the OCI example form punches sap1 in: a 303 to the catalog start URL', async () => {
    const html = readFileSync(join(EXAMPLES, 'oci/punch-in.sap1.html'), 'utf8');
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    expect(action).toBe('http://127.0.0.1:8080/oci/sap1');
    const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      (m) => [m[1]!, m[2]!] as [string, string],
    );
    expect(fields.map(([name]) => name)).toEqual(
      expect.arrayContaining(['USERNAME', 'PASSWORD', 'HOOK_URL', '~OkCode', '~TARGET', '~CALLER']),
    );
    const response = await fetch(action!.replace('http://127.0.0.1:8080', url), {
      method: 'POST',
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${url}/punchout/start/[\\w.-]+$`));
  });

  it('the demo answers with a trailing slash: /buyer/ is the buyer simulator, /cxml/ takes documents', async () => {
    const [plain, slashed] = await Promise.all([fetch(`${url}/buyer`), fetch(`${url}/buyer/`)]);
    expect([plain.status, slashed.status]).toEqual([200, 200]);
    expect(await slashed.text()).toBe(await plain.text());
    const answer = await send('examples/cxml/profile-request.xml', `${url}/cxml/`);
    expect([answer.code, answer.httpStatus, answer.status]).toEqual([0, '200', ['200', 'OK']]);
  });

  it('examples/README.md names every example file and the send command of each cXML one', () => {
    const readme = readFileSync(join(EXAMPLES, 'README.md'), 'utf8');
    for (const file of CXML_EXAMPLES) {
      expect(readme).toContain(`punchgate send examples/cxml/${file} --to http://127.0.0.1:8080/cxml`);
    }
    expect(readme).toContain('oci/punch-in.sap1.html');
    expect(readme).toContain('worker.config.json');
  });
});
