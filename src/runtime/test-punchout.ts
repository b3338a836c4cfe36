/**
 * The console's test punch-out (`GatewayDeps.testPunchout`), built from the buyer simulator's pieces
 * (`@punchgate/sandbox/buyer`: its setup-request builder, `postCxml`, its response reader and profiles): a
 * punch-out of one buyer as its live config describes it — cXML: a PunchOutSetupRequest with the buyer's
 * From credentials as From and Sender, its SharedSecret and the supplier's credentials as To; OCI: the
 * punch-in form with the buyer's login fields, user name and password — sent to the gateway through the
 * fetch the console hands in (the gateway app's own), then the start page followed to the catalog, which
 * must answer 200, and the session cancelled again, so a test leaves a cancelled session, never an open one
 * that looks like the buyer's. Runtime-agnostic: the host hands in how the package is loaded.
 */
import { returnHostsOf } from '../../schemas/config.ts';
import type {
  ResolvedBuyer,
  ResolvedCxmlBuyer,
  ResolvedOciBuyer,
  TestPunchoutOutcome,
  TestPunchoutRequest,
  TestPunchoutStep,
} from '../gateway/deps.ts';

/** What the test punch-out uses of the simulator. */
export type SimulatorKit = Pick<
  typeof import('@punchgate/sandbox/buyer'),
  'buildSetupRequest' | 'postCxml' | 'COUPA_PROFILE' | 'SAP_PROFILE' | 'DEMO_USERS'
>;

/** The user the test punches out as: recognisable in the gateway's sessions and logs. */
const TEST_USER = {
  id: 'punchgate-test',
  firstName: 'Console',
  lastName: 'Test',
  email: 'test-punchout@punchgate.invalid',
  department: 'Operations',
  costCenter: 'TEST',
  phone: '+1 555 0100',
};

/** Redirects followed from the start URL to the catalog (start → session page is one). */
const MAX_REDIRECTS = 5;

const USER_AGENT = 'punchgate console test punch-out';

function returnUrl(buyer: ResolvedBuyer): string {
  const host = returnHostsOf(buyer)[0];
  return `https://${host ?? 'buyer.invalid'}/punchgate-test-punchout`;
}

function randomText(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

/** The text of an HTML page's first paragraph (the gateway's error pages say why there). */
function pageMessage(body: string): string {
  const paragraph = /<p[^>]*>([\s\S]*?)<\/p>/i.exec(body)?.[1] ?? body.slice(0, 300);
  return paragraph
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

async function cxmlSetup(
  kit: SimulatorKit,
  request: TestPunchoutRequest,
  buyer: ResolvedCxmlBuyer,
  steps: TestPunchoutStep[],
): Promise<string | undefined> {
  const base = kit.COUPA_PROFILE;
  const profile = {
    ...base,
    gatewayBuyerId: buyer.id,
    cxml: {
      from: buyer.from,
      to: request.supplierCredentials,
      sender: buyer.from,
      sharedSecret: buyer.sharedSecret,
      userAgent: USER_AGENT,
    },
  };
  const xml = kit.buildSetupRequest({
    profile,
    user: TEST_USER,
    operation: 'create',
    buyerCookie: `test-${randomText()}`,
    browserFormPost: returnUrl(buyer),
    payloadID: `${Date.now()}.${randomText()}@punchgate-test.invalid`,
    timestamp: new Date(),
  });
  const exchange = await kit.postCxml(request.fetch, `${request.gatewayUrl}/cxml`, xml);
  const { status, startPageUrl } = exchange.answer;
  const ok = status.code >= 200 && status.code < 300 && startPageUrl !== undefined;
  const said = status.code === 0 ? status.detail : `${status.code} ${status.text}`;
  const detail = status.code !== 0 && status.detail !== '' ? `${said}: ${status.detail}` : said;
  steps.push({
    name: 'PunchOutSetupRequest',
    ok,
    detail:
      ok || startPageUrl !== undefined
        ? detail
        : `${detail}${status.code >= 200 && status.code < 300 ? ' (no StartPage URL)' : ''}`,
  });
  return ok ? startPageUrl : undefined;
}

async function ociPunchIn(
  request: TestPunchoutRequest,
  kit: SimulatorKit,
  buyer: ResolvedOciBuyer,
  steps: TestPunchoutStep[],
): Promise<string | undefined> {
  const fields = new URLSearchParams([
    [buyer.loginFields.username, buyer.username],
    [buyer.loginFields.password, buyer.password],
    ['OCI_VERSION', buyer.ociVersion],
    ...kit.SAP_PROFILE.punchInFields(TEST_USER).map((f) => [f.name, f.value] as [string, string]),
    ['HOOK_URL', returnUrl(buyer)],
    ['~OkCode', 'ADDI'],
    ['~TARGET', '_top'],
    ['~CALLER', 'CTLG'],
  ]);
  const url = `${request.gatewayUrl}/oci/${encodeURIComponent(buyer.id)}`;
  const res = await request.fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': USER_AGENT },
    body: fields.toString(),
    redirect: 'manual',
  });
  const location = res.headers.get('Location');
  if (res.status >= 300 && res.status < 400 && location !== null) {
    steps.push({
      name: 'OCI punch-in',
      ok: true,
      detail: `HTTP ${res.status}, redirected to the start page`,
    });
    return new URL(location, url).href;
  }
  const why = pageMessage(await res.text().catch(() => ''));
  steps.push({ name: 'OCI punch-in', ok: false, detail: `HTTP ${res.status}: ${why}` });
  return undefined;
}

/** Follows the start URL's redirects to the catalog page; answers the catalog's URL when it answered 200. */
async function openCatalog(
  request: TestPunchoutRequest,
  startUrl: string,
  steps: TestPunchoutStep[],
): Promise<string | undefined> {
  let url = startUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await request.fetch(url, { headers: { 'User-Agent': USER_AGENT }, redirect: 'manual' });
    const location = res.headers.get('Location');
    if (res.status >= 300 && res.status < 400 && location !== null) {
      if (hop === 0)
        steps.push({ name: 'Start page', ok: true, detail: `HTTP ${res.status}, redirected to the catalog` });
      url = new URL(location, url).href;
      continue;
    }
    const body = await res.text().catch(() => '');
    if (res.status !== 200) {
      steps.push({
        name: hop === 0 ? 'Start page' : 'Catalog page',
        ok: false,
        detail: `HTTP ${res.status}: ${pageMessage(body)}`,
      });
      return undefined;
    }
    steps.push({
      name: 'Catalog page',
      ok: true,
      detail: `HTTP 200 (${new URL(url).pathname.replace(/\/s\/[^/]+\//, '/s/…/')})`,
    });
    return url;
  }
  steps.push({ name: 'Catalog page', ok: false, detail: `more than ${MAX_REDIRECTS} redirects` });
  return undefined;
}

/** Cancels the session the test opened, as the catalog's cancel button does (nothing reaches the buyer). */
async function cancelSession(
  request: TestPunchoutRequest,
  catalogUrl: string,
  steps: TestPunchoutStep[],
): Promise<boolean> {
  const cancelUrl = catalogUrl.replace(/\/catalog(\?.*)?$/, '/cancel');
  const res = await request.fetch(cancelUrl, {
    method: 'POST',
    headers: { 'User-Agent': USER_AGENT, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  await res.text().catch(() => '');
  const ok = res.status === 200;
  steps.push({
    name: 'Session cancelled',
    ok,
    detail: ok ? 'the test session is closed as cancelled' : `HTTP ${res.status}`,
  });
  return ok;
}

/** The punch-in the simulator makes for the buyer's protocol: the start page's URL, or undefined when it failed. */
async function punchIn(
  kit: SimulatorKit,
  request: TestPunchoutRequest,
  steps: TestPunchoutStep[],
): Promise<string | undefined> {
  const { buyer } = request;
  switch (buyer.protocol) {
    case 'cxml':
      return cxmlSetup(kit, request, buyer, steps);
    case 'oci':
      return ociPunchIn(request, kit, buyer, steps);
    default:
      // A protocol the simulator does not speak yet: the test says so instead of failing to compile.
      steps.push({
        name: 'Punch-in',
        ok: false,
        detail: `the buyer simulator has no ${request.buyer.protocol} punch-in`,
      });
      return undefined;
  }
}

/**
 * @example
 * const outcome = await runTestPunchout(await loadSandboxBuyer(), { buyer, supplierCredentials, gatewayUrl, fetch });
 */
async function runTestPunchout(
  kit: SimulatorKit,
  request: TestPunchoutRequest,
): Promise<TestPunchoutOutcome> {
  const started = performance.now();
  const steps: TestPunchoutStep[] = [];
  const done = (ok: boolean): TestPunchoutOutcome => ({
    ran: true,
    ok,
    steps,
    elapsedMs: Math.round(performance.now() - started),
  });
  const startUrl = await punchIn(kit, request, steps);
  if (startUrl === undefined) return done(false);
  const catalogUrl = await openCatalog(request, startUrl, steps);
  if (catalogUrl === undefined) return done(false);
  return done(await cancelSession(request, catalogUrl, steps));
}

/**
 * The hook a host hands the gateway: loads the simulator with `load` (Node: `loadSandboxPackage`, whose
 * error names the package to install) and runs the test; a load failure is the page's one line.
 */
export function createTestPunchout(
  load: () => Promise<SimulatorKit>,
): (request: TestPunchoutRequest) => Promise<TestPunchoutOutcome> {
  return async (request) => {
    let kit: SimulatorKit;
    try {
      kit = await load();
    } catch (error) {
      return { ran: false, reason: error instanceof Error ? error.message : String(error) };
    }
    return runTestPunchout(kit, request);
  };
}
