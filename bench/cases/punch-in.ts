/**
 * Punch-in over HTTP: PunchOutSetupRequests of a returning mapped user through the gateway (its own child
 * process, SQLite store with the session cache, undici to the sandbox in another child process), against
 * the upstream work such a setup cannot avoid, made directly: one PIPO login at the sandbox.
 *
 * Two gateways run side by side: `pipoTokenReuseSeconds` 0 (every setup logs in: 1 upstream call) and the
 * default 600 s (a returning user's token is reused: 0 upstream calls). Upstream calls per setup are
 * counted at the sandbox. Goals: reuse-0 gateway / direct login throughput at least 0.8, and its p99 at
 * most 3 ms above the direct login's.
 */
import { createPrintApi } from '../../src/index.ts';
import { createNodeFetch } from '../../src/print-api/node-fetch.ts';
import { setupRequest } from '../../test/support/cxml-documents.ts';
import { AUTOCANNON_METRICS, runAutocannon } from '../harness/autocannon-load.ts';
import type { BenchCase, Figures } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { cxmlAccepted, cxmlPosts } from '../harness/cxml-posts.ts';
import { sandboxRequestCount } from '../harness/sandbox-requests.ts';

const CONNECTIONS = 8;
/** The storefront of the test config (and of the sandbox seed). */
const STOREFRONT_ID = 1;

/**
 * A setup the size SAP Ariba sends (about 5 KB): its three From and four To credentials, the user's
 * extrinsics (cost centre, company code, address and phone fields), the user as Contact and a ShipTo.
 */
export function realisticSetup(): string {
  const extrinsics = [
    ['UniqueName', 'jroe'],
    ['UserEmail', 'jane.roe@acme.example'],
    ['User', 'jroe'],
    ['UserFullName', 'Jane Roe'],
    ['UserPrintableName', 'Jane Roe'],
    ['FirstName', 'Jane'],
    ['LastName', 'Roe'],
    ['PhoneNumber', '+1 217 555 0142'],
    ['CostCenter', '4711-Marketing'],
    ['CompanyCode', '1000'],
    ['PurchasingOrganization', 'P100'],
    ['PurchasingGroup', 'G12'],
    ['Plant', 'SPRINGFIELD-01'],
    ['BusinessUnit', 'ACME North America'],
    ['Department', 'Marketing Communications'],
    ['ExpenseAccount', '640100 Printed matter'],
    ['Requester', 'Jane Roe (jane.roe@acme.example)'],
    ['ShipToAddressID', 'SPR-RECV-1'],
    ['Language', 'en_US'],
    ['Currency', 'USD'],
    ['ApprovalChain', 'Default purchase approval, under 5,000 USD'],
    ['ProcurementUnit', 'US-Central purchasing'],
    ['Region', 'North America, Central'],
    ['ContractID', 'CW-2026-PRINT-0042 (print services framework agreement)'],
    ['BudgetLine', 'FY2026 Q4 marketing collateral, trade fairs and events'],
    ['DeliveryInstructions', 'Deliver to dock 1 between 8:00 and 15:00; call receiving 30 minutes ahead'],
    ['AccountingNote', 'Split 60/40 between cost centres 4711 and 4712 on the invoice'],
    ['SupplierPortalLanguage', 'en'],
    ['ApproverEmail', 'purchasing.approvals@acme.example'],
    ['Ariba.invoicingAllowed', 'Yes'],
    ['Ariba.punchoutLevel', '1'],
    ...Array.from({ length: 14 }, (_, i) => [
      `CustomField${i + 1}`,
      `Custom requisition field ${i + 1} of the buyer's configuration`,
    ]),
  ]
    .map(([name, value]) => `<Extrinsic name="${name}">${value}</Extrinsic>`)
    .join('\n');
  const parties = `<Credential domain="NetworkID"><Identity>AN01000000001</Identity></Credential>
<Credential domain="SystemID"><Identity>ACME-PROD-S4</Identity></Credential>
<Credential domain="PrivateID"><Identity>acme-user-jroe</Identity></Credential>`;
  const address = `<Name xml:lang="en">ACME Receiving</Name><PostalAddress name="Dock 1"><DeliverTo>Jane Roe</DeliverTo>
<DeliverTo>Marketing, building 4</DeliverTo><Street>1 Dock Road</Street><City>Springfield</City><State>IL</State>
<PostalCode>62701</PostalCode><Country isoCountryCode="US">United States</Country></PostalAddress>
<Email name="default">receiving@acme.example</Email><Phone name="work"><TelephoneNumber><CountryCode isoCountryCode="US">1</CountryCode>
<AreaOrCityCode>217</AreaOrCityCode><Number>5550100</Number></TelephoneNumber></Phone>`;
  const to = ['DUNS/PRINTCO', 'NetworkID/AN02000000002', 'SystemID/PRINTCO-SHOP', 'PrivateID/supplier-0042']
    .map((credential) => {
      const [domain, identity] = credential.split('/');
      return `<Credential domain="${domain}"><Identity>${identity}</Identity></Credential>`;
    })
    .join('\n');
  return setupRequest({ payloadID: 'BENCH-ID@buyer.example' })
    .replace(/<From>[\s\S]*?<\/From>/, `<From>${parties}</From>`)
    .replace(/<To>[\s\S]*?<\/To>/, `<To>${to}</To>`)
    .replace(
      '<Extrinsic name="UniqueName">jroe</Extrinsic>\n<Extrinsic name="UserEmail">jane.roe@acme.example</Extrinsic>',
      extrinsics,
    )
    .replace(
      '<SupplierSetup>',
      `<Contact role="endUser"><Name xml:lang="en">Jane Roe</Name><Email>jane.roe@acme.example</Email></Contact>\n<ShipTo><Address addressID="SPR-RECV-1">${address}</Address></ShipTo>\n<SupplierSetup>`,
    );
}

const punchIn: BenchCase = {
  name: 'punch-in',
  title: 'cXML setup of a returning mapped user through the gateway vs a direct PIPO login at the sandbox',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const [noReuse, reuse] = await Promise.all([
      startGatewayServer(sandbox, { reuseSeconds: 0 }),
      startGatewayServer(sandbox, { reuseSeconds: 600 }),
    ]);
    const durationMs = quick ? 1_000 : 3_000;

    // A PIPO account of its own for the direct login, so the floor does the sandbox work a login does.
    const transport = createNodeFetch();
    const api = createPrintApi({
      baseUrl: sandbox.ready.url,
      token: sandbox.ready.token,
      key: sandbox.ready.key,
      fetch: transport,
    });
    const direct = { username: 'bench-direct', password: 'Bench!direct-0123456789' };
    await api.pipo.createUser({
      storefront_id: STOREFRONT_ID,
      ...direct,
      email: 'bench-direct@punchout.invalid',
      first_name: 'Bench',
      last_name: 'Direct',
    });
    await transport.close();

    const directLogin = () =>
      runAutocannon({
        url: `${sandbox.ready.url}/api/v2/pipo/user/login`,
        method: 'POST',
        connections: CONNECTIONS,
        durationMs,
        headers: {
          authorization: `Basic ${Buffer.from(`${sandbox.ready.token}:${sandbox.ready.key}`).toString('base64')}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ ...direct, storefront_id: STOREFRONT_ID }),
      });
    // Each setup gets its own payloadID, as real buyers send; about 5 KB, as SAP Ariba's are.
    const setupBody = realisticSetup().replace('BENCH-ID', '[<id>]');
    const gatewaySetups = (url: string) =>
      cxmlPosts({ url, body: setupBody, connections: CONNECTIONS, durationMs, accept: cxmlAccepted });

    /** Adds the upstream calls per accepted operation, counted at the sandbox. */
    const countingUpstream = (run: () => Promise<Figures>) => async (): Promise<Figures> => {
      const before = await sandboxRequestCount(sandbox.ready.url);
      const figures = await run();
      const calls = (await sandboxRequestCount(sandbox.ready.url)) - before;
      return { ...figures, upstreamPerOp: calls / figures.accepted! };
    };

    const variants = {
      'direct PIPO login': countingUpstream(directLogin),
      'gateway setup, reuse 0 s': countingUpstream(gatewaySetups(noReuse.ready.url)),
      'gateway setup, reuse 600 s': countingUpstream(gatewaySetups(reuse.ready.url)),
    };
    return {
      variants,
      metrics: {
        ...AUTOCANNON_METRICS,
        upstreamPerOp: { unit: 'calls', better: 'lower' },
      },
      ratios: [
        {
          name: 'gateway(reuse 0 s)/direct req/s',
          metric: 'reqPerSec',
          numerator: 'gateway setup, reuse 0 s',
          denominator: 'direct PIPO login',
          goal: { atLeast: 0.8 },
        },
        {
          name: 'gateway(reuse 600 s)/direct req/s',
          metric: 'reqPerSec',
          numerator: 'gateway setup, reuse 600 s',
          denominator: 'direct PIPO login',
          goal: { atLeast: 0.8 },
        },
      ],
      differences: [
        {
          name: 'p99 overhead, reuse 0 s',
          metric: 'p99Ms',
          minuend: 'gateway setup, reuse 0 s',
          subtrahend: 'direct PIPO login',
          goal: { atMost: 3 },
        },
        {
          name: 'p99 overhead, reuse 600 s',
          metric: 'p99Ms',
          minuend: 'gateway setup, reuse 600 s',
          subtrahend: 'direct PIPO login',
          goal: { atMost: 3 },
        },
      ],
      limits: [
        {
          name: 'upstream calls per setup, reuse 0 s',
          variant: 'gateway setup, reuse 0 s',
          metric: 'upstreamPerOp',
          goal: { atMost: 1 },
        },
        {
          name: 'upstream calls per setup, reuse 600 s',
          variant: 'gateway setup, reuse 600 s',
          metric: 'upstreamPerOp',
          goal: { atMost: 0 },
        },
      ],
      rounds: quick ? 3 : 5,
      parameters: {
        connections: CONNECTIONS,
        durationMs,
        loadGenerator: 'autocannon',
        servers: 'gateway(s) and sandbox in child processes',
        store: 'SQLite file + session cache',
      },
      async warmUp() {
        for (const run of Object.values(variants)) await run();
      },
      async close() {
        await Promise.all([noReuse.stop(), reuse.stop()]);
        await sandbox.stop();
      },
    };
  },
};

export default punchIn;
