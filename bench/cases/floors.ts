/**
 * The headline operations, each against its two floors in the same run (bench/harness/floor.ts): the
 * *design* floor (the same unavoidable work done with fast-xml-parser, better-sqlite3, jose and hono only)
 * and the *physical* floor (a raw `node:http` handler, the lean parser, one SQLite commit at the sync
 * level the write needs, an HMAC from `node:crypto`). Goals: harness/ratios.ts (`headlineGoal`).
 *
 * Topology: the sandbox, the gateway (`createNodeGateway`: SQLite file, pooled undici, PIPO token reuse
 * 600 s, logging as `punchgate serve` does into .bench/logs; bench/servers/gateway-server.ts) and the two
 * floor servers (bench/servers/floor-server.ts) each in a child process of its own. This process sends one
 * request at a time with `fetch`. The order job has no HTTP: a gateway in this process (same config,
 * logging as serve into .bench/logs) takes each PO in untimed, one `worker.tick()` is timed, and its floors
 * run their parts in this process.
 *
 * How a variant is measured (`batch`): its inputs for the round are prepared first, untimed (a fresh cart
 * for a transfer: a punch-in, an editor trip and three returns), then `iterations` operations run back to
 * back; the figure `cpuUsPerOp` is the serving process's CPU over that whole stretch (every thread, from
 * /proc, harness/process-cpu.ts) divided by the operations, so collections of the garbage they made are
 * in it. The order job alternates intake and tick, so its figure is the CPU of this process summed over
 * the ticks. Every variant runs once as warm-up before the rounds, the rounds alternate the variants'
 * order, and ratios are per round, then the median.
 *
 * The floors' parts per operation:
 * - punch-in, returning user (5.3 KB setup of punch-in.ts, token reused: 0 upstream calls): parse + 1
 *   NORMAL commit (the session) + 1 sign (the start URL) + the route answering as many bytes;
 * - punch-in, new user: adds createUser, login and getUser at the sandbox (the account's id: print API v2's
 *   create answers none), and the commit is FULL (the mapping);
 * - catalog page (a session with 3 cart lines): 1 verify + the page's bytes;
 * - editor return (`GET /punchout/return/<token>?productid=`): 1 verify + 1 sign + getProject + 1 FULL
 *   commit (the line) + the route;
 * - cart transfer, cXML and OCI (3 lines): 1 verify + 1 sign per line + 1 NORMAL commit + the page's bytes;
 * - PO intake, 5 lines (the OrderRequest of po-intake.ts naming the gateway's 5 seeded lines): parse + 1
 *   FULL commit of the raw text and a document-sized row + the answer's bytes;
 * - order job (one tick placing a 5-line PO): 1 FULL commit of a PO-sized row + createOrder,
 *   processOrder, getOrder, setStatus. Both floors are the same here (no parse, no token), upstream calls
 *   go through the project's client in both (harness/floor.ts).
 * PO intake's throughput against the physical floor with group commit is the po-intake case's.
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
import { benchGatewayConfig } from '../harness/bench-gateway.ts';
import type { BenchCase, Figures, RatioSpec } from '../harness/bench-case.ts';
import { startGatewayServer, startSandboxServer } from '../harness/bench-servers.ts';
import { startChildServer } from '../harness/child-server.ts';
import {
  createFloorParts,
  describeFloor,
  type FloorFlavour,
  type FloorSandbox,
  type FloorSpec,
} from '../harness/floor.ts';
import { processCpuMicros } from '../harness/process-cpu.ts';
import { type HeadlineOperation, headlineGoal } from '../harness/ratios.ts';
import { sandboxRequestCount } from '../harness/sandbox-requests.ts';
import { serveLogFile } from '../harness/serve-log.ts';
import { median } from '../harness/statistics.ts';
import type { FloorConfiguration, FloorServerOptions, FloorServerReady } from '../servers/floor-server.ts';
import { orderBody } from './po-intake.ts';
import { realisticSetup } from './punch-in.ts';

const STOREFRONT_ID = 1;
const CART_LINES = 3;
const PO_LINES = 5;
const FLAVOURS: readonly FloorFlavour[] = ['design', 'physical'];
const LOG_DIR = join(import.meta.dirname, '..', '..', '.bench', 'logs');
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
  headline: true,
  title:
    'each headline operation against its design floor and its physical floor (serving CPU per operation)',
  async setup({ quick }) {
    const sandbox = await startSandboxServer();
    const floorServer = (flavour: FloorFlavour) =>
      startChildServer<FloorServerReady>(new URL('../servers/floor-server.ts', import.meta.url), {
        options: { flavour } satisfies FloorServerOptions,
      });
    const [gateway, designFloor, physicalFloor] = await Promise.all([
      startGatewayServer(sandbox, { reuseSeconds: 600, orderLines: PO_LINES }),
      floorServer('design'),
      floorServer('physical'),
    ]);
    const floorServers = { design: designFloor, physical: physicalFloor };
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
    const postOrder = async (body: string) => {
      const answer = await http(`${gatewayUrl}/cxml`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'text/xml; charset=UTF-8' },
      });
      if (!answer.text.includes('<Status code="200"')) throw new Error(`floors: PO refused:\n${answer.text}`);
      return answer;
    };
    const intakeOrder = () => orderBody(`floor-intake-${process.pid}-${++serial}`);

    // Probes: the bytes each answer carries, for the floor route to answer as many.
    const probe = {
      setup: (await postSetup(returningSetup())).bytes,
      newUser: (await postSetup(newUserSetup())).bytes,
      catalog: expectStatus(await http(catalogUrl), 200, 'the catalog').bytes,
      cxmlTransfer: (await transfer(await cartOf(openCxml, cxmlDesign))).bytes,
      ociTransfer: (await transfer(await cartOf(openOci, ociDesign))).bytes,
      order: (await postOrder(intakeOrder())).bytes,
    };
    const setupBytes = new TextEncoder().encode(returningSetup()).byteLength;

    const poBytes = new TextEncoder().encode(orderBody('floor-size')).byteLength;
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
        // The account's id is read after its login: print API v2's create answers no id.
        calls: ['createUser', 'login', 'getUser'],
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
      // The raw text and the document read from it, about as long.
      'PO intake, 5 lines': { parse: true, commit: 'FULL', rowBytes: 2 * poBytes, answerBytes: probe.order },
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
    for (const flavour of FLAVOURS) {
      const configured = await http(`${floorServers[flavour].ready.url}/__floor/configure`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sandbox: floorSandbox(cxmlTrip.pipoToken, [cxmlDesign]),
          operations,
        } satisfies FloorConfiguration),
      });
      expectStatus(configured, 200, `the ${flavour} floor server`);
    }
    const floorUrl = (flavour: FloorFlavour, operation: string) =>
      `${floorServers[flavour].ready.url}/floor/${encodeURIComponent(operation)}`;

    // --- the order job, in this process ---------------------------------------------------------------------
    const jobDir = mkdtempSync(join(tmpdir(), 'punchgate-bench-job-'));
    const jobConfig = benchGatewayConfig({
      sandboxUrl: sandbox.ready.url,
      reuseSeconds: 600,
      databasePath: join(jobDir, 'gateway.db'),
    });
    // Logging as serve's does (JSON lines at the default level), into a file rather than this terminal.
    const jobLog = serveLogFile(join(LOG_DIR, 'order-job.log'));
    const jobGateway = await createNodeGateway(jobConfig, { logger: jobLog.logger });
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
    let ticked = 0;
    async function tick(): Promise<void> {
      ticked = (await worker.tick()).jobs;
    }
    /** That the tick placed the PO: read after the tick's CPU is counted, since the floors read nothing. */
    async function placed(): Promise<void> {
      const { items } = await jobGateway.store.orders.list({ limit: 1 });
      if (ticked === 0 || items[0]?.state !== 'ordered') {
        throw new Error(`floors: job ${ticked}, PO ${items[0]?.state} (${items[0]?.lastError ?? ''})`);
      }
    }
    const jobSpec: FloorSpec = {
      commit: 'FULL',
      rowBytes: poBytes,
      calls: ['createOrder', 'processOrder', 'getOrder', 'setStatus'],
    };
    const jobSandbox = floorSandbox(
      cxmlTrip.pipoToken,
      Array.from({ length: PO_LINES }, () => cxmlDesign),
    );
    const jobFloors = {
      design: await createFloorParts(jobSandbox, 'design'),
      physical: await createFloorParts(jobSandbox, 'physical'),
    };

    // --- variants ---------------------------------------------------------------------------------------------
    /**
     * Operations per variant and round: enough for a few young-generation collections in the cheap ones;
     * the dear ones (a cart to fill per transfer, an account per new user, a PO per job) fewer, to keep
     * `--quick` within minutes on a busy machine.
     */
    const iterationsOf = (name: HeadlineOperation): number => {
      const scale = quick ? 1 : 4;
      if (name === 'order job') return 10 * scale;
      if (name === 'punch-in, new user' || name.startsWith('cart transfer')) return 20 * scale;
      return 40 * scale;
    };
    const none = async () => undefined;
    const cpuOf = (pid: number | undefined) => () => (pid === undefined ? Number.NaN : processCpuMicros(pid));
    /**
     * `iterations` operations back to back after their untimed preparation: the median latency, the CPU of
     * the serving process over the whole stretch per operation, and the sandbox requests per operation.
     */
    async function batch<T>(
      iterations: number,
      cpu: () => number,
      prepare: () => Promise<T>,
      operation: (prepared: T) => Promise<unknown>,
    ): Promise<Figures> {
      const inputs: T[] = [];
      for (let i = 0; i < iterations; i++) inputs.push(await prepare());
      const ms: number[] = [];
      const callsBefore = await sandboxRequestCount(sandbox.ready.url);
      const cpuBefore = cpu();
      for (const input of inputs) {
        const started = performance.now();
        await operation(input);
        ms.push(performance.now() - started);
      }
      const cpuUsPerOp = (cpu() - cpuBefore) / iterations;
      const calls = (await sandboxRequestCount(sandbox.ready.url)) - callsBefore;
      return { ms: median(ms), cpuUsPerOp, upstreamPerOp: calls / iterations };
    }
    /** The order job: intake and tick alternate in this process, so only the ticks' CPU is summed. */
    async function ticks(
      operation: () => Promise<unknown>,
      prepare: () => Promise<unknown>,
      check: () => Promise<unknown> = none,
    ): Promise<Figures> {
      const iterations = iterationsOf('order job');
      const ms: number[] = [];
      let cpuUs = 0;
      let calls = 0;
      const cpu = cpuOf(process.pid);
      for (let i = 0; i < iterations; i++) {
        await prepare();
        const callsBefore = await sandboxRequestCount(sandbox.ready.url);
        const cpuBefore = cpu();
        const started = performance.now();
        await operation();
        ms.push(performance.now() - started);
        cpuUs += cpu() - cpuBefore;
        calls += (await sandboxRequestCount(sandbox.ready.url)) - callsBefore;
        await check();
      }
      return { ms: median(ms), cpuUsPerOp: cpuUs / iterations, upstreamPerOp: calls / iterations };
    }
    const onGateway = cpuOf(gateway.pid);
    const gatewayOperations: Record<HeadlineOperation, () => Promise<Figures>> = {
      'punch-in, returning user': () =>
        batch(iterationsOf('punch-in, returning user'), onGateway, async () => returningSetup(), postSetup),
      'punch-in, new user': () =>
        batch(iterationsOf('punch-in, new user'), onGateway, async () => newUserSetup(), postSetup),
      'catalog page': () =>
        batch(iterationsOf('catalog page'), onGateway, none, async () =>
          expectStatus(await http(catalogUrl), 200, 'the catalog'),
        ),
      'editor return': () =>
        batch(iterationsOf('editor return'), onGateway, none, async () =>
          expectStatus(await http(editorReturnUrl), 303, 'the editor return'),
        ),
      'cart transfer, cXML': () =>
        batch(iterationsOf('cart transfer, cXML'), onGateway, () => cartOf(openCxml, cxmlDesign), transfer),
      'cart transfer, OCI': () =>
        batch(iterationsOf('cart transfer, OCI'), onGateway, () => cartOf(openOci, ociDesign), transfer),
      'PO intake, 5 lines': () =>
        batch(iterationsOf('PO intake, 5 lines'), onGateway, async () => intakeOrder(), postOrder),
      'order job': () => ticks(tick, receivedPo, placed),
    };
    const floorOperation = (flavour: FloorFlavour, name: HeadlineOperation) => {
      if (name === 'order job') return () => ticks(() => jobFloors[flavour].run(jobSpec), none);
      const body = name.startsWith('punch-in')
        ? returningSetup()
        : name.startsWith('PO')
          ? intakeOrder()
          : undefined;
      const run = async () =>
        expectStatus(
          await http(floorUrl(flavour, name), body === undefined ? {} : { method: 'POST', body }),
          200,
          `${flavour} floor ${name}`,
        );
      return () => batch(iterationsOf(name), cpuOf(floorServers[flavour].pid), none, run);
    };
    const specOf = (name: string) => (name === 'order job' ? jobSpec : operations[name]!);
    const variants: Record<string, () => Promise<Figures>> = {};
    const ratios: RatioSpec[] = [];
    const parameters: Record<string, string | number> = {
      setupBytes,
      poBytes,
      cartLines: CART_LINES,
      poLines: PO_LINES,
    };
    for (const name of Object.keys(gatewayOperations) as HeadlineOperation[]) {
      const actual = `${name}: gateway`;
      variants[actual] = gatewayOperations[name];
      for (const flavour of FLAVOURS) {
        const floor = `${name}: ${flavour} floor`;
        variants[floor] = floorOperation(flavour, name);
        ratios.push({
          name: `${name}, gateway/${flavour} floor CPU`,
          metric: 'cpuUsPerOp',
          numerator: actual,
          denominator: floor,
          ...(headlineGoal(name, flavour) !== undefined && { goal: headlineGoal(name, flavour)! }),
          headline: { operation: name, floor: flavour },
        });
      }
      parameters[`floor of ${name}`] = describeFloor(specOf(name));
      parameters[`iterations of ${name}`] = iterationsOf(name);
    }

    return {
      variants,
      metrics: {
        ms: { unit: 'ms', better: 'lower' },
        cpuUsPerOp: { unit: 'µs', better: 'lower' },
        upstreamPerOp: { unit: 'calls', better: 'lower' },
      },
      ratios,
      rounds: quick ? 3 : 5,
      parameters,
      async warmUp() {
        for (const run of Object.values(variants)) await run();
      },
      async close() {
        await jobFloors.design.close();
        await jobFloors.physical.close();
        await jobGateway.close();
        await jobLog.close();
        rmSync(jobDir, { recursive: true, force: true });
        await Promise.all([gateway.stop(), designFloor.stop(), physicalFloor.stop()]);
        await sandbox.stop();
      },
    };
  },
};

export default floors;
