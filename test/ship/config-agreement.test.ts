/**
 * `punchgate check-config FILE` and `punchgate serve --config FILE` must agree on every broken config: a
 * user who ran check-config and saw "valid" must not meet a refusal at start-up, and a refusal must list
 * every problem in one pass, by path, the same way in both. Each case of the table runs both commands as
 * processes on the same file and environment; both exit 1, print the same problems, and serve never
 * gets to listen.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ChildEnv,
  childEnv,
  freePort,
  runPunchgate,
  SHIP_TEST_TIMEOUT_MS,
  stopAllCommands,
} from './processes.ts';
import { type ConfigJson, freshFolder, secretEnv, userConfig, writeConfigFile } from './user-config.ts';

const GATEWAY_KEY = 'd0dd65f22482c8d918bcdf98ebba0c4ebf6f97f285c21405379dca275e7ad1e8';

/** A valid config as a user writes it: a cXML buyer as docs/configuration.md describes it plus an SAP buyer over OCI. */
function validConfig(folder: string): ConfigJson {
  const config = userConfig({
    publicUrl: 'https://punchout.printco.example',
    printService: {
      apiBaseUrl: 'https://print.printco.example',
      editorUrl: 'https://print.printco.example/editor',
      apiToken: '9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c',
    },
    buyerSystem: {
      returnHost: 's1-eu.ariba.example',
      orderStatusUrl: 'https://s1-eu.ariba.example/cxml/order-status',
    },
    store: { kind: 'sqlite', path: `${folder}/gateway.db` },
  });
  config.buyers.push({
    id: 'sap1',
    name: 'ACME (SAP SRM, OCI)',
    storefront: 'printco',
    protocol: 'oci',
    username: 'acme-srm',
    password: { env: 'SAP1_PASSWORD' },
    hookUrlHosts: ['srm.acme.example'],
    authAllowedAddresses: ['198.51.100.0/24'],
    from: [{ domain: 'NetworkID', identity: 'SAP1-ORDERS' }],
    sharedSecret: { env: 'SAP1_ORDER_SECRET' },
  });
  return config;
}

const VALID_ENV: ChildEnv = {
  ...secretEnv(GATEWAY_KEY),
  SAP1_PASSWORD: 'sap1-login-password',
  SAP1_ORDER_SECRET: 'sap1-order-secret',
};

interface BrokenConfig {
  name: string;
  /** Breaks the valid config in place, or replaces the file's text. */
  break: (config: ConfigJson) => ConfigJson | string;
  /** Changes to the environment (undefined removes a variable). */
  env?: Record<string, string | undefined>;
  /**
   * Every problem expected: its path and its whole message (for an invalid file, a part of it: the rest
   * is V8's own wording of the JSON mistake).
   */
  problems: [path: string, message: string | { containing: string }][];
}

/** What a user reads for each mistake; the same texts in check-config and serve. */
const MESSAGES = {
  signingKey: (length: number) =>
    `must be at least 32 characters (it signs the links buyers follow and encrypts the stored print-service passwords, so a short key can be guessed offline); this one has ${length}`,
  adminToken: (length: number) =>
    `must be at least 32 characters (it is the only credential of the /admin API); this one has ${length}`,
  loginFields: (username: string) =>
    `must differ from loginFields.username ("${username}"): SAP sends the login parameters with names compared without case, so one field would hide the other`,
  unknownStorefront: (id: string) => `no storefront with id "${id}"`,
  duplicateSku: (sku: string) => `duplicate sku "${sku}"`,
  credentialTaken: (credential: string, buyer: string) =>
    `credential ${credential} already identifies buyer "${buyer}"`,
  apiBaseUrl: "must be the service's {base_url} without /api/v2 (the client adds it to every call)",
  unset: (name: string) => `environment variable ${name} is not set`,
};

const BROKEN_CONFIGS: BrokenConfig[] = [
  {
    name: 'a signingKey shorter than 32 characters (from the environment)',
    break: (c) => c,
    env: { PUNCHGATE_SIGNING_KEY: 'only-twenty-one-chars' },
    problems: [['signingKey', MESSAGES.signingKey(21)]],
  },
  {
    name: 'an adminToken shorter than 32 characters (inline)',
    break: (c) => ({ ...c, adminToken: 'admin-token-2024' }),
    problems: [['adminToken', MESSAGES.adminToken(16)]],
  },
  {
    name: 'OCI login fields whose names differ only in case',
    break: (c) => {
      c.buyers[1].loginFields = { username: 'LOGIN', password: 'login' };
      return c;
    },
    problems: [['buyers[1].loginFields.password', MESSAGES.loginFields('LOGIN')]],
  },
  {
    name: 'a buyer naming a storefront that does not exist',
    break: (c) => {
      c.buyers[0].storefront = 'printshop';
      return c;
    },
    problems: [['buyers[0].storefront', MESSAGES.unknownStorefront('printshop')]],
  },
  {
    name: 'one SKU twice in a storefront',
    break: (c) => {
      c.storefronts[0].products[1].sku = 'BC-STD';
      return c;
    },
    problems: [['storefronts[0].products[1].sku', MESSAGES.duplicateSku('BC-STD')]],
  },
  {
    name: 'one From credential used by two buyers (domains compared without case)',
    break: (c) => {
      c.buyers[1].from = [{ domain: 'networkid', identity: c.buyers[0].from[0].identity }];
      return c;
    },
    problems: [['buyers[1].from[0]', MESSAGES.credentialTaken('networkid/AN01000000001', 'acme')]],
  },
  {
    name: 'an apiBaseUrl that already ends in /api/v2',
    break: (c) => {
      c.storefronts[0].apiBaseUrl = 'https://print.printco.example/api/v2';
      return c;
    },
    problems: [['storefronts[0].apiBaseUrl', MESSAGES.apiBaseUrl]],
  },
  {
    name: 'a secret whose environment variable is not set',
    break: (c) => c,
    env: { ACME_SHARED_SECRET: undefined },
    problems: [['buyers[0].sharedSecret', MESSAGES.unset('ACME_SHARED_SECRET')]],
  },
  {
    name: 'a file that is not JSON',
    break: (c) => JSON.stringify(c, null, 2).replace('"storefronts": [', '"storefronts": [,'),
    problems: [['(file)', { containing: 'punchgate.config.json is not valid JSON: ' }]],
  },
  {
    name: 'schema errors and cross-reference errors at once, all in one pass',
    break: (c) => {
      c.publicUrl = 'punchout.printco.example';
      c.signingKey = 'too-short';
      c.adminToken = 'admin-token-2024';
      c.storefronts[0].currency = 'dollars';
      c.storefronts[0].apiBaseUrl = 'https://print.printco.example/api/v2';
      c.storefronts[0].products[1].sku = 'BC-STD';
      c.buyers[0].storefront = 'printshop';
      delete c.buyers[1].hookUrlHosts;
      c.buyers[1].loginFields = { username: 'USER', password: 'User' };
      c.buyers[1].from = [{ domain: 'NetworkID', identity: 'AN01000000001' }];
      return c;
    },
    env: { SAP1_PASSWORD: undefined },
    problems: [
      ['publicUrl', 'must be an absolute http(s) URL'],
      ['signingKey', MESSAGES.signingKey(9)],
      ['adminToken', MESSAGES.adminToken(16)],
      ['storefronts[0].currency', 'must be an ISO 4217 code'],
      ['storefronts[0].apiBaseUrl', MESSAGES.apiBaseUrl],
      ['storefronts[0].products[1].sku', MESSAGES.duplicateSku('BC-STD')],
      ['buyers[0].storefront', MESSAGES.unknownStorefront('printshop')],
      ['buyers[1].hookUrlHosts', 'is required'],
      ['buyers[1].loginFields.password', MESSAGES.loginFields('USER')],
      ['buyers[1].from[0]', MESSAGES.credentialTaken('NetworkID/AN01000000001', 'acme')],
      ['buyers[1].password', MESSAGES.unset('SAP1_PASSWORD')],
    ],
  },
];

const HEADER = /^punchgate (check-config|serve): (.+) has (\d+) problems?:$/;

/** The problem lines of a refusal ("  path: message"), after checking its header names the file and count. */
function problemLines(stderr: string, command: string, file: string): string[] {
  const [header = '', ...rest] = stderr.trimEnd().split('\n');
  const match = HEADER.exec(header);
  expect(match, `${command}'s first line of stderr:\n${stderr}`).not.toBeNull();
  expect(match?.[1]).toBe(command);
  expect(match?.[2]).toBe(file);
  expect(
    rest.every((line) => line.startsWith('  ')),
    `${command} stderr:\n${stderr}`,
  ).toBe(true);
  expect(rest, `${command} stderr:\n${stderr}`).toHaveLength(Number(match?.[3]));
  return rest.map((line) => line.slice(2));
}

function envFor(changes: Record<string, string | undefined> = {}): ChildEnv {
  const env: Record<string, string> = { ...VALID_ENV };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return childEnv(env);
}

describe('check-config and serve agree on broken configs', { timeout: SHIP_TEST_TIMEOUT_MS }, () => {
  afterAll(stopAllCommands, SHIP_TEST_TIMEOUT_MS);

  it('the valid config the table starts from passes check-config', async () => {
    const folder = freshFolder();
    const file = writeConfigFile(folder, validConfig(folder));
    const result = await runPunchgate(['check-config', file], envFor());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${file} is valid: 1 storefront(s), 2 buyer(s): acme (cxml), sap1 (oci); store sqlite\n`,
    );
  });

  it.each(BROKEN_CONFIGS)('$name: both exit 1 listing the same problems', async (broken) => {
    const folder = freshFolder();
    const file = writeConfigFile(folder, broken.break(validConfig(folder)));
    const env = envFor(broken.env);
    const port = await freePort();
    const [check, serve] = await Promise.all([
      runPunchgate(['check-config', file], env),
      runPunchgate(['serve', '--config', file, '--port', String(port)], env),
    ]);

    expect(serve.timedOut, `serve kept running on a broken config:\n${serve.stdout}${serve.stderr}`).toBe(
      false,
    );
    expect({ code: check.code, stdout: check.stdout }).toEqual({ code: 1, stdout: '' });
    // serve refuses before it listens: it never prints its address.
    expect({ code: serve.code, stdout: serve.stdout }).toEqual({ code: 1, stdout: '' });

    const checked = problemLines(check.stderr, 'check-config', file);
    const served = problemLines(serve.stderr, 'serve', file);
    expect(served).toEqual(checked);

    // Each problem once, by its path, with its message (the order is the commands' own).
    const byPath = checked.map((line) => [
      line.slice(0, line.indexOf(': ')),
      line.slice(line.indexOf(': ') + 2),
    ]);
    expect(new Set(byPath.map(([path]) => path)).size, checked.join('\n')).toBe(byPath.length);
    expect(Object.fromEntries(byPath)).toEqual(
      Object.fromEntries(
        broken.problems.map(([path, message]) => [
          path,
          typeof message === 'string' ? message : expect.stringContaining(message.containing),
        ]),
      ),
    );
    // No secret's value is ever echoed in a problem.
    for (const value of Object.values(env)) {
      if (value.length >= 8 && value !== env.PATH) expect(check.stderr).not.toContain(value);
    }
  });
});
