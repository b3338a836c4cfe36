/**
 * Every browser- and buyer-facing operation against its floor (issue 18, deliverable 1), measured in the
 * same run: the gateway doing the operation, and the parts the operation cannot avoid done bare and back
 * to back (bench/harness/floor.ts). Goal: the gateway's cost at most 1.3× its floor's.
 *
 * Topology: the sandbox, the gateway (`createNodeGateway`: SQLite file, session cache, pooled undici;
 * PIPO token reuse 600 s, the default) and the floor server (a bare Hono route per operation running its
 * parts, bench/servers/floor-server.ts) each in a child process; this process sends one request at a
 * time with `fetch` and times it, after untimed preparation (a fresh session for a transfer). One request
 * at a time, so a figure is one operation's latency: the server's CPU, the HTTP round trip and the client,
 * the last two the same on both sides. The order job has no HTTP: a gateway in this process (same config)
 * takes each PO in untimed, one `worker.tick()` is timed, and its floor runs its parts in this process.
 *
 * The floors (the `floor:` variants' names say the same):
 * - punch-in, returning user: the 5.3 KB setup of punch-in.ts, unique payloadID; floor = bare parse of
 *   that document + 1 NORMAL commit (the session) + 1 sign (the start URL) + the bare route answering as
 *   many bytes. The user's PIPO token is reused (0 upstream calls).
 * - punch-in, new user: the same setup naming a new user each time (UniqueName and e-mail); floor adds the
 *   account's creation and its login at the sandbox, and its commit is FULL (the user mapping must last).
 * - catalog page: `GET /punchout/s/<token>/catalog` of a session with 3 lines in its cart (the page shows
 *   their count); floor = 1 verify (the session URL) + the route answering the page's bytes.
 * - editor return: `GET /punchout/return/<token>?productid=<saved design>` (the browser back from the
 *   editor; the gateway reads the design as the user at the print service and adds a cart line); floor =
 *   1 verify + 1 sign (the session URL it redirects to) + sandbox getProject + 1 FULL commit (the line) +
 *   the route (a 303, no body).
 * - cart transfer, cXML and OCI: `POST /punchout/s/<token>/transfer` of a cart of 3 lines (put there
 *   through the editor return), the self-posting page with the PunchOutOrderMessage or the OCI fields;
 *   floor = 1 verify + 1 sign per line (its proof link) + 1 NORMAL commit (the session closed) + the route
 *   answering the page's bytes.
 * - order job: one worker tick placing a 5-line PO (untimed intake first); floor = 1 FULL commit of a
 *   PO-sized row + the sandbox calls the job makes for it: createOrder, processOrder, getOrder (the status
 *   the history entry keeps), setStatus (the history entry).
 * PO intake's floor is in po-intake.ts.
 *
 * Figures per variant, medians over the round's iterations: `ms`, one operation's latency; `serverCpuUs`,
 * the CPU it cost the process serving it (all its threads, the WebCrypto pool included; the gateway or the
 * floor server, this process for the order job; harness/process-cpu.ts); and `upstreamPerOp`, sandbox
 * requests per operation, counted there. Ratios, each per round then the median: gateway/floor CPU (the
 * cost ratio the goal is about, and steady when other processes share the cores) and gateway/floor
 * latency (which also holds what the floor and the gateway share: the round trip, the client, the
 * sandbox's own time). Two cores are shared by the three servers and this process: read ratios, not
 * absolute times.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrintApi } from '../../src/index.ts';
import { createOrderWorker } from '../../src/gateway/orders/index.ts';
import { createNodeFetch } from '../../src/print-api/node-fetch.ts';
import { createNodeGateway } from '../../src/runtime/gateway-node.ts';
import { setupRequest } from '../../test/support/cxml-documents.ts';
import { findForms, formBody } from '../../test/support/html-forms.ts';
import { seedOrderLines } from '../../test/support/order-lines.ts';
import { startUrlOf } from '../../test/support/punchout-flow.ts';
import { GATEWAY_ORIGIN } from '../../test/support/stack.ts';
import { benchGatewayConfig, SILENT_LOGGER } from '../harness/bench-gateway.ts';
import type { BenchCase, Figures, RatioSpec } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { startChildServer } from '../harness/child-server.ts';
import { createFloorParts, describeFloor, type FloorSandbox, type FloorSpec } from '../harness/floor.ts';
import { processCpuMicros } from '../harness/process-cpu.ts';
import { sandboxRequestCount } from '../harness/sandbox-requests.ts';
import { median } from '../harness/statistics.ts';
import type { FloorConfiguration, FloorServerReady } from '../servers/floor-server.ts';
import { orderBody } from './po-intake.ts';
import { realisticSetup } from './punch-in.ts';

const STOREFRONT_ID = 1;
const CART_LINES = 3;
const PO_LINES = 5;
const GOAL = { atMost: 1.3 } as const;
const OCI_PUNCH_IN = new URLSearchParams({
  USERNAME: 'sap1',
  PASSWORD: 'sap1-secret',
  HOOK_URL: 'https://srm.acme.example/sap/bc/gui/sap/its/bbpsc02/?sap-client=100',
  userid: 'JDOE',
});

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly location: string;
  readonly bytes: number;
}

async function http(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  const body = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    text: new TextDecoder().decode(body),
    location: res.headers.get('location') ?? '',
    bytes: body.byteLength,
  };
}

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) {
    throw new Error(
      `floors: ${what} answered ${answer.status}, not ${status}:\n${answer.text.slice(0, 500)}`,
    );
  }
  return answer;
}

const floors: BenchCase = {
  name: 'floors',
  title: 'each operation (punch-in, catalog, editor return, transfers, order job) against its floor',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const [gateway, floorServer] = await Promise.all([
      startGatewayServer(sandbox, { reuseSeconds: 600 }),
      startChildServer<FloorServerReady>(new URL('../servers/floor-server.ts', import.meta.url)),
    ]);
    const gatewayUrl = gateway.ready.url;
    /** The gateway's links name its public URL (the test config's); they are served at its port. */
    const local = (url: string) => url.replace(GATEWAY_ORIGIN, gatewayUrl);

    // --- sessions, editor trips and carts, as a browser makes them ---------------------------------------
    /** Follows the start URL's redirects to the session's catalog; answers the session token. */
    async function sessionToken(first: Answer): Promise<string> {
      let answer = first;
      for (let hops = 0; hops < 5; hops++) {
        const token = /\/punchout\/s\/([^/?]+)\//.exec(answer.location)?.[1];
        if (token !== undefined) return token;
        expectStatus(answer, 303, 'a punch-in redirect');
        answer = await http(local(answer.location));
      }
      throw new Error('floors: no session page after five redirects');
    }
    const openCxml = async () => {
      const setup = await http(`${gatewayUrl}/cxml`, { method: 'POST', body: setupRequest() });
      return sessionToken(expectStatus(await http(local(startUrlOf(setup.text))), 303, 'the start URL'));
    };
    const openOci = async () => sessionToken(await http(`${gatewayUrl}/oci/sap1?${OCI_PUNCH_IN}`));
    /** The editor trip of a new BC-STD design: the editor's URL (with the user's PIPO token) and the return URL. */
    async function editorTrip(token: string) {
      const redirect = await http(`${gatewayUrl}/punchout/s/${token}/design/BC-STD`);
      const editor = new URL(expectStatus(redirect, 303, 'the design link').location);
      return {
        editor,
        pipoToken: editor.searchParams.get('token') ?? '',
        returnUrl: local(editor.searchParams.get('cru') ?? ''),
      };
    }
    /** Saves the design in the sandbox's editor form; answers the saved design's id. */
    async function saveDesign(editor: URL): Promise<number> {
      const page = expectStatus(await http(editor.href), 200, 'the editor');
      const form = findForms(page.text).find((f) => f.action.includes('save'));
      if (form === undefined) throw new Error('floors: no save form in the editor');
      const saved = await http(new URL(form.action, editor).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: formBody(form.fields),
      });
      const id = Number(
        new URL(expectStatus(saved, 303, 'the editor save').location).searchParams.get('productid'),
      );
      if (!(id > 0)) throw new Error(`floors: the editor saved no design (${saved.location})`);
      return id;
    }
    const returnOf = (returnUrl: string, designId: number) => {
      const url = new URL(returnUrl);
      url.searchParams.set('productid', String(designId));
      return url.href;
    };
    /** A new session of `open`'s kind with CART_LINES lines of `designId`; answers its URL of `page`. */
    async function cartOf(open: () => Promise<string>, designId: number, page = 'transfer'): Promise<string> {
      const token = await open();
      const { returnUrl } = await editorTrip(token);
      for (let i = 0; i < CART_LINES; i++) {
        expectStatus(await http(returnOf(returnUrl, designId)), 303, 'the editor return');
      }
      return `${gatewayUrl}/punchout/s/${token}/${page}`;
    }

    // Each protocol's user saves one design of their own (a return names a design of the session's user).
    const cxmlSession = await openCxml();
    const cxmlTrip = await editorTrip(cxmlSession);
    const cxmlDesign = await saveDesign(cxmlTrip.editor);
    const ociTrip = await editorTrip(await openOci());
    const ociDesign = await saveDesign(ociTrip.editor);
    const editorReturnUrl = returnOf(cxmlTrip.returnUrl, cxmlDesign);
    // A session of its own, its cart as a transfer's (the editor returns add lines to cxmlSession's).
    const catalogUrl = await cartOf(openCxml, cxmlDesign, 'catalog');

    // --- the operations ------------------------------------------------------------------------------------
    let serial = 0;
    const setupOf = realisticSetup();
    const returningSetup = () => setupOf.replace('BENCH-ID', `floor-${++serial}`);
    const newUserSetup = () => {
      const user = `nu-${process.pid}-${++serial}`;
      return setupOf
        .replace('BENCH-ID', `floor-${serial}`)
        .replace(/(<Extrinsic name="(?:UniqueName|User)">)jroe</g, `$1${user}<`)
        .replaceAll('jane.roe@acme.example', `${user}@acme.example`);
    };
    const setupAccepted = (answer: Answer) => {
      if (!answer.text.includes('<Status code="200"'))
        throw new Error(`floors: setup refused:\n${answer.text}`);
      return answer;
    };
    const postSetup = async (body: string) =>
      setupAccepted(await http(`${gatewayUrl}/cxml`, { method: 'POST', body }));
    const transfer = async (url: string) =>
      expectStatus(await http(url, { method: 'POST' }), 200, 'transfer');

    // Probes: the bytes each answer carries, for the floor route to answer as many.
    const probe = {
      setup: (await postSetup(returningSetup())).bytes,
      newUser: (await postSetup(newUserSetup())).bytes,
      catalog: expectStatus(await http(catalogUrl), 200, 'the catalog').bytes,
      cxmlTransfer: (await transfer(await cartOf(openCxml, cxmlDesign))).bytes,
      ociTransfer: (await transfer(await cartOf(openOci, ociDesign))).bytes,
    };
    const setupBytes = new TextEncoder().encode(returningSetup()).byteLength;

    const operations: Record<string, FloorSpec> = {
      'punch-in, returning user': {
        parse: true,
        commit: 'NORMAL',
        rowBytes: 1_500,
        sign: 1,
        answerBytes: probe.setup,
      },
      'punch-in, new user': {
        parse: true,
        commit: 'FULL',
        rowBytes: 1_500,
        sign: 1,
        calls: ['createUser', 'login'],
        answerBytes: probe.newUser,
      },
      'catalog page': { verify: 1, answerBytes: probe.catalog },
      'editor return': {
        verify: 1,
        sign: 1,
        calls: ['getProject'],
        commit: 'FULL',
        rowBytes: 600,
        answerBytes: 0,
      },
      'cart transfer, cXML': {
        verify: 1,
        sign: CART_LINES,
        commit: 'NORMAL',
        rowBytes: 1_500,
        answerBytes: probe.cxmlTransfer,
      },
      'cart transfer, OCI': {
        verify: 1,
        sign: CART_LINES,
        commit: 'NORMAL',
        rowBytes: 1_500,
        answerBytes: probe.ociTransfer,
      },
    };

    // The floor server's sandbox side: a login account of its own, the cXML user's token and design.
    const transport = createNodeFetch();
    const api = createPrintApi({
      baseUrl: sandbox.ready.url,
      token: sandbox.ready.token,
      key: sandbox.ready.key,
      fetch: transport,
    });
    const floorLogin = { username: `bench-floor-${process.pid}`, password: 'Bench!floor-0123456789' };
    await api.pipo.createUser({
      storefront_id: STOREFRONT_ID,
      ...floorLogin,
      email: `${floorLogin.username}@punchout.invalid`,
      first_name: 'Bench',
      last_name: 'Floor',
    });
    await transport.close();
    const floorSandbox = (pipoToken: string, designIds: readonly number[]): FloorSandbox => ({
      url: sandbox.ready.url,
      token: sandbox.ready.token,
      key: sandbox.ready.key,
      storefrontId: STOREFRONT_ID,
      pipoToken,
      designIds,
      login: floorLogin,
    });
    const configured = await http(`${floorServer.ready.url}/__floor/configure`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sandbox: floorSandbox(cxmlTrip.pipoToken, [cxmlDesign]),
        operations,
      } satisfies FloorConfiguration),
    });
    expectStatus(configured, 200, 'the floor server');
    const floorUrl = (operation: string) => `${floorServer.ready.url}/floor/${encodeURIComponent(operation)}`;

    // --- the order job, in this process ---------------------------------------------------------------------
    const jobDir = mkdtempSync(join(tmpdir(), 'punchgate-bench-job-'));
    const jobConfig = benchGatewayConfig({
      sandboxUrl: sandbox.ready.url,
      reuseSeconds: 600,
      databasePath: join(jobDir, 'gateway.db'),
    });
    const jobGateway = await createNodeGateway(jobConfig, { logger: SILENT_LOGGER });
    const jobApp = jobGateway.gateway.app;
    // The returning user's mapping and PIPO token, as a punch-in leaves them.
    await jobApp.fetch(new Request(`${GATEWAY_ORIGIN}/cxml`, { method: 'POST', body: setupRequest() }));
    const worker = createOrderWorker(jobGateway.gateway.context);
    const products = jobConfig.storefronts[0]?.products ?? [];
    let po = 0;
    /** Seeds PO_LINES cart lines of their own and takes in the PO naming them (untimed). */
    async function receivedPo(): Promise<void> {
      const k = ++po;
      const ref = (i: number) => `L-${String(k * 10 + i).padStart(8, '0')}`;
      await seedOrderLines(jobGateway.store, products, {
        sessionId: `floor-job-${k}`,
        lines: PO_LINES,
        expiresAt: new Date(Date.now() + 86_400_000),
        lineRef: ref,
      });
      // Designs of the user's own (seedOrderLines numbers them 1…n, which the sandbox does not know).
      for (let i = 1; i <= PO_LINES; i++)
        await jobGateway.store.cart.update(ref(i), { designId: cxmlDesign });
      const body = orderBody(`floor-job-${process.pid}-${k}`).replace(/L-(\d{8})/g, (_, n: string) =>
        ref(Number(n)),
      );
      const res = await jobApp.fetch(
        new Request(`${GATEWAY_ORIGIN}/cxml`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'text/xml' },
        }),
      );
      const answer = await res.text();
      if (!answer.includes('<Status code="200"')) throw new Error(`floors: PO refused:\n${answer}`);
    }
    async function tick(): Promise<void> {
      const { jobs } = await worker.tick();
      const { items } = await jobGateway.store.orders.list({ limit: 1 });
      if (jobs === 0 || items[0]?.state !== 'ordered') {
        throw new Error(`floors: job ${jobs}, PO ${items[0]?.state} (${items[0]?.lastError ?? ''})`);
      }
    }
    const poBytes = new TextEncoder().encode(orderBody('floor-size')).byteLength;
    const jobSpec: FloorSpec = {
      commit: 'FULL',
      rowBytes: poBytes,
      calls: ['createOrder', 'processOrder', 'getOrder', 'setStatus'],
    };
    const jobFloor = await createFloorParts(
      floorSandbox(
        cxmlTrip.pipoToken,
        Array.from({ length: PO_LINES }, () => cxmlDesign),
      ),
    );

    // --- variants ---------------------------------------------------------------------------------------------
    const iterations = quick ? 20 : 60;
    const none = async () => undefined;
    /**
     * One operation `iterations` times, each after an untimed `prepare`: the median of its latency, the
     * median CPU it cost the process `pid` that serves it (all threads), and the sandbox requests it made
     * on average (counted at the sandbox, the preparation's own taken out).
     */
    async function measured<T>(
      pid: number | undefined,
      prepare: () => Promise<T>,
      operation: (prepared: T) => Promise<unknown>,
    ): Promise<Figures> {
      const ms: number[] = [];
      const cpuUs: number[] = [];
      let calls = 0;
      const cpu = () => (pid === undefined ? Number.NaN : processCpuMicros(pid));
      for (let i = 0; i < iterations; i++) {
        const prepared = await prepare();
        const callsBefore = await sandboxRequestCount(sandbox.ready.url);
        const cpuBefore = cpu();
        const started = performance.now();
        await operation(prepared);
        ms.push(performance.now() - started);
        cpuUs.push(cpu() - cpuBefore);
        calls += (await sandboxRequestCount(sandbox.ready.url)) - callsBefore;
      }
      return { ms: median(ms), serverCpuUs: median(cpuUs), upstreamPerOp: calls / iterations };
    }
    const gatewayOperations: Record<string, () => Promise<Figures>> = {
      'punch-in, returning user': () => measured(gateway.pid, async () => returningSetup(), postSetup),
      'punch-in, new user': () => measured(gateway.pid, async () => newUserSetup(), postSetup),
      'catalog page': () =>
        measured(gateway.pid, none, async () => expectStatus(await http(catalogUrl), 200, 'the catalog')),
      'editor return': () =>
        measured(gateway.pid, none, async () =>
          expectStatus(await http(editorReturnUrl), 303, 'the editor return'),
        ),
      'cart transfer, cXML': () => measured(gateway.pid, () => cartOf(openCxml, cxmlDesign), transfer),
      'cart transfer, OCI': () => measured(gateway.pid, () => cartOf(openOci, ociDesign), transfer),
      'order job': () => measured(process.pid, receivedPo, tick),
    };
    const floorOperations: Record<string, () => Promise<Figures>> = {
      ...Object.fromEntries(
        Object.keys(operations).map((name) => {
          const body = name.startsWith('punch-in') ? returningSetup() : undefined;
          const run = async () =>
            expectStatus(
              await http(floorUrl(name), body === undefined ? {} : { method: 'POST', body }),
              200,
              `floor ${name}`,
            );
          return [name, () => measured(floorServer.pid, none, run)];
        }),
      ),
      'order job': () => measured(process.pid, none, () => jobFloor.run(jobSpec)),
    };
    const specOf = (name: string) => (name === 'order job' ? jobSpec : operations[name]!);
    const variants: Record<string, () => Promise<Figures>> = {};
    const ratios: RatioSpec[] = [];
    const parameters: Record<string, string | number> = {
      iterations,
      setupBytes,
      cartLines: CART_LINES,
      poLines: PO_LINES,
    };
    for (const name of Object.keys(gatewayOperations)) {
      const actual = `${name}: gateway`;
      const floor = `${name}: floor`;
      variants[actual] = gatewayOperations[name]!;
      variants[floor] = floorOperations[name]!;
      ratios.push(
        {
          name: `${name}, gateway/floor CPU`,
          metric: 'serverCpuUs',
          numerator: actual,
          denominator: floor,
          goal: GOAL,
        },
        {
          name: `${name}, gateway/floor latency`,
          metric: 'ms',
          numerator: actual,
          denominator: floor,
          goal: GOAL,
        },
      );
      parameters[`floor of ${name}`] = describeFloor(specOf(name));
    }

    return {
      variants,
      metrics: {
        ms: { unit: 'ms', better: 'lower' },
        serverCpuUs: { unit: 'µs', better: 'lower' },
        upstreamPerOp: { unit: 'calls', better: 'lower' },
      },
      ratios,
      rounds: quick ? 3 : 5,
      parameters,
      async warmUp() {
        for (const run of Object.values(variants)) await run();
      },
      async close() {
        await jobFloor.close();
        await jobGateway.close();
        rmSync(jobDir, { recursive: true, force: true });
        await Promise.all([gateway.stop(), floorServer.stop()]);
        await sandbox.stop();
      },
    };
  },
};

export default floors;
