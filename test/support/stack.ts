/**
 * The whole punch-out stack in one process for tests: the sandbox print service, the gateway on a
 * SQLite store in memory, a shared frozen clock, and a "browser" that follows links and posts forms
 * across the gateway, the sandbox's editor host and the buyer's return URL, with no port and no network.
 */
import { readFileSync } from 'node:fs';
import { createSandbox, type Sandbox, type SandboxSeedInput } from '@punchgate/sandbox';
import type { Hono } from 'hono';
import {
  type GatewayConfigInput,
  parseGatewayConfig,
  type ResolvedConfig,
  resolveConfigSecrets,
} from '../../schemas/config.ts';
import { createGateway, type Gateway } from '../../src/gateway/app/gateway.ts';
import type { GatewayDeps } from '../../src/gateway/deps.ts';
import { createPrintApi } from '../../src/print-api/index.ts';
import type { Store } from '../../src/store/port.ts';
import { createTestStore } from './test-store.ts';

export const GATEWAY_ORIGIN = 'http://gateway.test';
export const SANDBOX_ORIGIN = 'http://sandbox.test';
export const START = Date.parse('2026-11-22T09:00:00Z');

const SEED: SandboxSeedInput = JSON.parse(
  readFileSync(new URL('../../fixtures/sandbox-seed.json', import.meta.url), 'utf8'),
);

/** The Enterprise token of the seed meant for the gateway, and its derived key (1000 rounds). */
export const GATEWAY_TOKEN = '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c';
export const GATEWAY_KEY = 'd0dd65f22482c8d918bcdf98ebba0c4ebf6f97f285c21405379dca275e7ad1e8';

const ociBuyer = (id: string, name: string, hookUrlHosts: string[]) => ({
  id,
  name,
  storefront: 'demo',
  protocol: 'oci' as const,
  username: id,
  password: `${id}-secret`,
  hookUrlHosts,
});

const cxmlBuyer = (id: string, name: string, from: [string, string][], secret: string, hosts: string[]) => ({
  id,
  name,
  storefront: 'demo',
  protocol: 'cxml' as const,
  from: from.map(([domain, identity]) => ({ domain, identity })),
  sharedSecret: secret,
  returnUrlHosts: hosts,
});

/** One buyer per style of the fixtures in fixtures/cxml/valid (their credentials and return hosts). */
export function testConfig(overrides: Partial<GatewayConfigInput> = {}): GatewayConfigInput {
  return {
    publicUrl: GATEWAY_ORIGIN,
    store: { kind: 'sqlite', path: ':memory:' },
    signingKey: 'test-signing-key-0123456789abcdef',
    adminToken: 'test-admin-token-0123456789abcdef',
    supplier: { credentials: [{ domain: 'DUNS', identity: 'PRINTCO' }], userAgent: 'punchgate test' },
    storefronts: [
      {
        id: 'demo',
        storefrontId: 1,
        name: 'Demo Print Shop',
        apiBaseUrl: SANDBOX_ORIGIN,
        editorUrl: `${SANDBOX_ORIGIN}/editor`,
        apiToken: GATEWAY_TOKEN,
        apiKey: GATEWAY_KEY,
        currency: 'USD',
        products: [
          {
            productId: 101,
            sku: 'BC-STD',
            name: 'Business cards',
            uom: 'EA',
            unspsc: '82121512',
            leadTimeDays: 5,
            minQuantity: 100,
            prices: [
              { minQuantity: 1, unitPrice: 0.12 },
              { minQuantity: 500, unitPrice: 0.09 },
            ],
          },
          {
            productId: 102,
            sku: 'FLY-A5',
            name: 'A5 flyer',
            uom: 'EA',
            unspsc: '82121503',
            leadTimeDays: 3,
            prices: [{ minQuantity: 1, unitPrice: 0.35 }],
          },
          {
            productId: 103,
            sku: 'POS-CUSTOM',
            name: 'Custom-size poster',
            uom: 'EA',
            prices: [{ minQuantity: 1, unitPrice: 18.5 }],
          },
        ],
      },
      {
        // A German storefront on the same print service, for the ISO-8859-1 OCI buyer: umlauts, ß, ×, €.
        id: 'druck',
        storefrontId: 1,
        name: 'Druckerei Demo',
        apiBaseUrl: SANDBOX_ORIGIN,
        editorUrl: `${SANDBOX_ORIGIN}/editor`,
        apiToken: GATEWAY_TOKEN,
        apiKey: GATEWAY_KEY,
        currency: 'EUR',
        products: [
          {
            productId: 101,
            sku: 'VK-MATT',
            name: 'Visitenkarten für Mitarbeiter',
            description:
              '85 × 55 mm, 350 g/m² matt, beidseitig bedruckt – Größe nach DIN, ab 0,08 € je Karte',
            uom: 'EA',
            unspsc: '82121512',
            leadTimeDays: 4,
            matGroup: 'DRUCK-01',
            manufacturerPartId: 'DD-VK-350',
            minQuantity: 250,
            prices: [
              { minQuantity: 1, unitPrice: 0.11 },
              { minQuantity: 1000, unitPrice: 0.08 },
            ],
          },
        ],
      },
    ],
    buyers: [
      cxmlBuyer('acme', 'ACME (Ariba)', [['NetworkID', 'AN01000000001']], 'acme-secret', [
        's1-eu.ariba.example',
        'buyer.example',
      ]),
      cxmlBuyer('coupa', 'ACME (Coupa)', [['DUNS', 'COUPA-ACME']], 'coupa-secret', [
        'acme.coupahost.example',
      ]),
      cxmlBuyer('university', 'University (JAGGAER)', [['NetworkID', 'UNIVERSITY-7']], 'jaggaer-secret', [
        'solutions.jaggaer.example',
      ]),
      cxmlBuyer('oracle', 'ACME (Oracle iProcurement)', [['DUNS', '123456789']], 'oracle-secret', [
        'erp.acme.example',
      ]),
      cxmlBuyer('hotel', 'Grand Hotel (BirchStreet)', [['NetworkID', 'grandhotel42']], 'birch-secret', [
        'procurement.birchstreet.example',
      ]),
      cxmlBuyer('aquiire', 'ACME (Aquiire)', [['NetworkId', 'AQ-ACME']], 'aquiire-secret', [
        'app.aquiire.example',
      ]),
      cxmlBuyer('mueller', 'Müller GmbH', [['DUNS', 'MUELLER-GMBH']], 'grüße', ['erp.muller.example']),
      {
        ...cxmlBuyer('temp', 'Temp users', [['NetworkID', 'TEMP-1']], 'temp-secret', ['buyer.example']),
        userMode: 'temporary',
      },
      // OCI buyers, one per punch-in style of test/gateway/oci; sap1's later POs come as cXML OrderRequests.
      {
        ...ociBuyer('sap1', 'ACME (SAP SRM 7, OCI)', ['srm.acme.example']),
        unitMap: { EA: 'ST' },
        vendorNumber: '0000100234',
        manufacturerCode: 'M-4711',
        custFields: ['KST-4711', '', 'PRINT'],
        frameAncestors: ['portal.acme.example'],
        from: [{ domain: 'NetworkID', identity: 'SAP1-ORDERS' }],
        sharedSecret: 'sap1-order-secret',
      },
      { ...ociBuyer('s4', 'ACME (S/4HANA, OCI 5.0)', ['s4.acme.example:44300']), ociVersion: '5.0' },
      { ...ociBuyer('odoo', 'Odoo (OCI, multipart)', ['odoo.example']), unitMap: { EA: 'PCE' } },
      {
        ...ociBuyer('latin', 'Müller Druckerei-Einkauf (SAP ECC, ISO-8859-1)', ['sap.mueller.example']),
        storefront: 'druck',
        charset: 'iso-8859-1',
        allowSapEvent: true,
        unitMap: { EA: 'ST' },
        custFields: ['', '', '', '', 'Budget 500 € – Müller & Söhne'],
      },
    ],
    ...overrides,
  };
}

export function resolveTestConfig(input: GatewayConfigInput): ResolvedConfig {
  const parsed = parseGatewayConfig(input);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  const resolved = resolveConfigSecrets(parsed.config, {});
  if (!resolved.ok) throw new Error(resolved.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  return resolved.config;
}

export interface BrowserResponse {
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

/** What the buyer's order-status endpoint (`orderStatusUrl`) received: ConfirmationRequest, ShipNoticeRequest. */
export interface OrderStatusPost {
  url: string;
  contentType: string;
  body: string;
}

/** A browser's navigation over `request`: follows 30x redirects, turning them into GETs as after a 303. */
export function followRedirects(
  request: (url: string, init?: RequestInit) => Promise<Response>,
): (url: string, init?: RequestInit) => Promise<BrowserResponse> {
  return async (url, init) => {
    let current = url;
    let currentInit = init;
    for (let hop = 0; hop < 10; hop++) {
      const res = await request(current, currentInit);
      const location = res.headers.get('Location');
      if (res.status >= 300 && res.status < 400 && location) {
        current = new URL(location, current).toString();
        currentInit = undefined;
        continue;
      }
      return { url: current, status: res.status, headers: res.headers, text: await res.text() };
    }
    throw new Error(`too many redirects from ${url}`);
  };
}

export interface Stack {
  gateway: Gateway;
  sandbox: Sandbox;
  store: Store;
  clock: { now(): Date; advance(seconds: number): void };
  /** Requests the print service's API saw, for counting upstream calls. */
  upstreamCalls: string[];
  /** Posts reaching hosts other than the gateway and the sandbox (the buyer's return URLs). */
  buyerPosts: { url: string; body: string }[];
  /** One request as a browser would make it, routed by origin; no redirects followed. */
  request(url: string, init?: RequestInit): Promise<Response>;
  /** Follows 30x redirects like a browser (303 turns into GET). */
  browse(url: string, init?: RequestInit): Promise<BrowserResponse>;
  /** Posts to `/cxml` as `contentType` (a plain document by default) and answers the response text. */
  postCxml(body: string | Uint8Array, contentType?: string): Promise<string>;
  /** Documents the gateway posted to buyers' order-status URLs. */
  orderStatusPosts: OrderStatusPost[];
  /** How the buyer's order-status endpoint answers (default a cXML Status 200). */
  answerOrderStatus: (post: OrderStatusPost) => Response | Promise<Response>;
  /** While true, every call to the print service API fails as if the service were unreachable. */
  printServiceDown: boolean;
  /** While true, the sandbox's webhook deliveries never reach the gateway (they "fail silently"). */
  webhooksLost: boolean;
  /**
   * A new gateway on `store` with the same sandbox and clock (a restart), with the same config or `config`
   * (e.g. a rotated signing key); replaces `gateway`.
   */
  restartGateway(store: Store, config?: GatewayConfigInput): Promise<Gateway>;
}

/** A buyer's cXML answer to an order-status document. */
export function cxmlStatusAnswer(code: number, text: string): Response {
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?><cXML payloadID="${Date.now()}.answer@buyer.example" timestamp="2026-11-22T09:00:00+00:00"><Response><Status code="${code}" text="${text}"/></Response></cXML>`,
    { status: 200, headers: { 'Content-Type': 'text/xml; charset=UTF-8' } },
  );
}

export interface StackOptions {
  /** Wraps the print-service transport, e.g. to inject faults. */
  wrapPrintFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch;
  /** The print-service client's timeout (default the client's 10 s), for tests of a service that hangs. */
  printTimeoutMs?: number;
  /** Extra gateway dependencies, e.g. a capturing logger or a client-address reader. */
  gatewayDeps?: Pick<GatewayDeps, 'logger' | 'clientAddress' | 'metrics' | 'parseLargeCxml' | 'testPunchout'>;
  /** The gateway's store (default: SQLite in memory on the stack's clock), e.g. a SQLite file. */
  store?: Store;
  /** Routes a test adds to the gateway's app (e.g. one that throws), under its error funnel and logging. */
  routes?: (app: Hono) => void;
  /** Changes a copy of the sandbox seed before the sandbox starts (e.g. a storefront without invoice numbers). */
  seed?: (seed: SandboxSeedInput) => SandboxSeedInput;
}

export async function createStack(
  configInput: GatewayConfigInput = testConfig(),
  options: StackOptions = {},
): Promise<Stack> {
  let now = START;
  const clock = {
    now: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
  const links = { printServiceDown: false, webhooksLost: false };
  // The sandbox's webhook deliveries reach the gateway in-process (bound once the gateway exists).
  let deliverToGateway: (request: Request) => Promise<Response> = () =>
    Promise.reject(new TypeError('fetch failed: the gateway is not up'));
  const webhookFetch: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    if (links.webhooksLost || new URL(request.url).origin !== GATEWAY_ORIGIN) {
      return Promise.reject(new TypeError('fetch failed'));
    }
    return deliverToGateway(request);
  };
  const seed = options.seed === undefined ? SEED : options.seed(structuredClone(SEED));
  const sandbox = createSandbox(seed, { clock: () => now, mergeDelayMs: 3000, fetch: webhookFetch });
  const upstreamCalls: string[] = [];
  const sandboxFetch: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    upstreamCalls.push(`${request.method} ${new URL(request.url).pathname}`);
    if (links.printServiceDown) {
      // What undici reports for a host that refuses connections: the request never left.
      const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return Promise.reject(new TypeError('fetch failed', { cause: refused }));
    }
    return Promise.resolve(sandbox.app.fetch(request));
  };
  const orderStatusPosts: OrderStatusPost[] = [];
  let answerOrderStatus: Stack['answerOrderStatus'] = () => cxmlStatusAnswer(200, 'OK');
  const buyerFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const post = {
      url: request.url,
      contentType: request.headers.get('Content-Type') ?? '',
      body: await request.text(),
    };
    orderStatusPosts.push(post);
    return answerOrderStatus(post);
  };
  const store = options.store ?? createTestStore({ clock });
  const config = resolveTestConfig(configInput);
  const buildGateway = async (on: Store, withConfig: ResolvedConfig = config) => {
    const built = await createGateway({
      config: withConfig,
      store: on,
      clock,
      fetch: buyerFetch,
      printApiFor: (s) =>
        createPrintApi({
          baseUrl: s.apiBaseUrl,
          token: s.apiToken,
          key: s.apiKey,
          fetch: options.wrapPrintFetch ? options.wrapPrintFetch(sandboxFetch) : sandboxFetch,
          retries: 0,
          ...(options.printTimeoutMs !== undefined && { timeoutMs: options.printTimeoutMs }),
        }),
      ...options.gatewayDeps,
    });
    options.routes?.(built.app);
    return built;
  };
  let gateway = await buildGateway(store);
  deliverToGateway = async (request) => gateway.app.fetch(request);
  const buyerPosts: { url: string; body: string }[] = [];

  const request = async (url: string, init?: RequestInit): Promise<Response> => {
    const target = new URL(url);
    if (target.origin === GATEWAY_ORIGIN) return gateway.app.fetch(new Request(url, init));
    if (target.origin === SANDBOX_ORIGIN) return sandbox.app.fetch(new Request(url, init));
    buyerPosts.push({ url, body: typeof init?.body === 'string' ? init.body : String(init?.body ?? '') });
    return new Response('<html><body>requisition received</body></html>', {
      status: 200,
      headers: { 'Content-Type': 'text/html' },
    });
  };

  const browse = followRedirects(request);

  const postCxml = async (body: string | Uint8Array, contentType = 'text/xml'): Promise<string> => {
    const res = await gateway.app.fetch(
      new Request(`${GATEWAY_ORIGIN}/cxml`, {
        method: 'POST',
        body: typeof body === 'string' ? body : new Uint8Array(body),
        headers: { 'Content-Type': contentType },
      }),
    );
    if (res.status !== 200) throw new Error(`POST /cxml answered HTTP ${res.status}`);
    return res.text();
  };

  const stack: Stack = {
    gateway,
    sandbox,
    store,
    clock,
    upstreamCalls,
    buyerPosts,
    request,
    browse,
    postCxml,
    orderStatusPosts,
    get answerOrderStatus() {
      return answerOrderStatus;
    },
    set answerOrderStatus(answer) {
      answerOrderStatus = answer;
    },
    get printServiceDown() {
      return links.printServiceDown;
    },
    set printServiceDown(down) {
      links.printServiceDown = down;
    },
    get webhooksLost() {
      return links.webhooksLost;
    },
    set webhooksLost(lost) {
      links.webhooksLost = lost;
    },
    async restartGateway(next, nextConfig) {
      gateway = await buildGateway(next, nextConfig === undefined ? config : resolveTestConfig(nextConfig));
      stack.gateway = gateway;
      stack.store = next;
      return gateway;
    },
  };
  return stack;
}
