/**
 * The config file a print shop writes from the configuration reference (docs/configuration.md), for the tests that run
 * `punchgate serve` and `check-config` as processes: secrets as {"env": "NAME"} (their values go into the
 * child's environment, never into the file), the storefront from what `punchgate sandbox` printed, one
 * Ariba-style cXML buyer whose order-status documents go to the buyer's system of the test.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BuyerSystem } from './buyer-system.ts';
import type { ChildEnv, SandboxProcess } from './processes.ts';

/** The buyer's identity and secret as `setupRequest` and `orderRequest` send them by default. */
export const BUYER_IDENTITY = 'AN01000000001';
export const BUYER_SECRET = 'acme-secret';
export const SUPPLIER_SECRET = 'printco-ship-test-secret';
export const ADMIN_TOKEN = 'ship-test-admin-token-0123456789abcdef';

/** The secrets the config names, as the operator exports them before `punchgate serve`. */
export function secretEnv(apiKey: string): ChildEnv {
  return {
    PUNCHGATE_SIGNING_KEY: 'ship-test-signing-key-0123456789abcdef',
    PUNCHGATE_ADMIN_TOKEN: ADMIN_TOKEN,
    PUNCHGATE_SUPPLIER_SECRET: SUPPLIER_SECRET,
    PRINT_API_KEY: apiKey,
    ACME_SHARED_SECRET: BUYER_SECRET,
  };
}

export interface UserConfigOptions {
  publicUrl: string;
  /** What `punchgate sandbox` printed. */
  printService: { apiBaseUrl: string; editorUrl: string; apiToken: string };
  /** The buyer's procurement system: where the punch-out returns and order-status documents go. */
  buyerSystem: { returnHost: string; orderStatusUrl: string };
  store: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: { env: string } };
}

// biome-ignore lint/suspicious/noExplicitAny: a config file as written, right or deliberately wrong
export type ConfigJson = Record<string, any>;

export function userConfig(options: UserConfigOptions): ConfigJson {
  return {
    publicUrl: options.publicUrl,
    store: options.store,
    signingKey: { env: 'PUNCHGATE_SIGNING_KEY' },
    adminToken: { env: 'PUNCHGATE_ADMIN_TOKEN' },
    supplier: {
      credentials: [{ domain: 'DUNS', identity: 'PRINTCO' }],
      sharedSecret: { env: 'PUNCHGATE_SUPPLIER_SECRET' },
      userAgent: 'PrintCo punchgate',
    },
    // Rounds every second, so a PO turns into a print order while the test waits.
    background: { intervalSeconds: 1 },
    storefronts: [
      {
        id: 'printco',
        storefrontId: 1,
        name: 'Demo Print Shop',
        apiBaseUrl: options.printService.apiBaseUrl,
        editorUrl: options.printService.editorUrl,
        apiToken: options.printService.apiToken,
        apiKey: { env: 'PRINT_API_KEY' },
        currency: 'USD',
        products: [
          {
            productId: 101,
            sku: 'BC-STD',
            name: 'Business cards',
            uom: 'EA',
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
            prices: [{ minQuantity: 1, unitPrice: 0.35 }],
          },
        ],
      },
    ],
    buyers: [
      {
        id: 'acme',
        name: 'ACME (Ariba)',
        storefront: 'printco',
        protocol: 'cxml',
        from: [{ domain: 'NetworkID', identity: BUYER_IDENTITY }],
        sharedSecret: { env: 'ACME_SHARED_SECRET' },
        returnUrlHosts: [options.buyerSystem.returnHost],
        orderStatusUrl: options.buyerSystem.orderStatusUrl,
        // The buyer's system runs on this machine: failed secrets from elsewhere cannot lock it out.
        authAllowedAddresses: ['127.0.0.1'],
      },
    ],
  };
}

/**
 * The config and its secrets for `serve` beside a running `punchgate sandbox` and buyer's system: the
 * storefront uses the Enterprise key the sandbox printed for the gateway, the buyer returns to and receives
 * order-status documents at the buyer's system.
 */
export function serveConfig(options: {
  publicUrl: string;
  sandbox: SandboxProcess;
  buyer: BuyerSystem;
  store: UserConfigOptions['store'];
}): { config: ConfigJson; secrets: ChildEnv } {
  const { sandbox, buyer } = options;
  const gatewayKey = sandbox.apiKeys.find((k) => k.label === 'punchgate gateway demo');
  if (gatewayKey === undefined) throw new Error(`no gateway key printed\n${sandbox.process.tail()}`);
  const config = userConfig({
    publicUrl: options.publicUrl,
    printService: { apiBaseUrl: sandbox.url, editorUrl: sandbox.editorUrl, apiToken: gatewayKey.token },
    buyerSystem: { returnHost: buyer.host, orderStatusUrl: buyer.orderStatusUrl },
    store: options.store,
  });
  return { config, secrets: secretEnv(gatewayKey.key) };
}

/** A fresh temporary folder for one test's config file and SQLite database. */
export function freshFolder(): string {
  return mkdtempSync(join(tmpdir(), 'punchgate-ship-'));
}

/** Writes `config` into `dir` as a user's editor would (pretty JSON), answering the file's path. */
export function writeConfigFile(
  dir: string,
  config: ConfigJson | string,
  name = 'punchgate.config.json',
): string {
  const file = join(dir, name);
  writeFileSync(file, typeof config === 'string' ? config : `${JSON.stringify(config, null, 2)}\n`);
  return file;
}
