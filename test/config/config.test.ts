import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  configJsonSchema,
  loadGatewayConfig,
  parseGatewayConfig,
  resolveConfigSecrets,
} from '../../schemas/config.ts';
import { testConfig } from '../support/stack.ts';

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));

describe('gateway config', () => {
  it('the demo config is valid and holds a cXML and an OCI buyer', () => {
    const result = parseGatewayConfig(read('fixtures/demo.config.json'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.buyers.map((b) => b.protocol).sort()).toEqual(['cxml', 'cxml', 'oci']);
  });

  it('schemas/config.schema.json is what the schema generates (run `npm run schema:config`)', () => {
    expect(read('schemas/config.schema.json')).toEqual(JSON.parse(JSON.stringify(configJsonSchema())));
  });

  it('lists every problem by path', () => {
    const config = testConfig() as Record<string, unknown>;
    const result = parseGatewayConfig({
      ...config,
      publicUrl: 'ftp://gateway',
      signingKey: undefined,
      buyers: [
        {
          id: 'Bad Id',
          storefront: 'nowhere',
          protocol: 'cxml',
          from: [],
          sharedSecret: '',
          returnUrlHosts: ['x'],
        },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { path: 'publicUrl', message: 'must be an absolute http(s) URL' },
        { path: 'signingKey', message: 'is required' },
        { path: 'buyers[0].id', message: 'must be a lower-case slug' },
        { path: 'buyers[0].from', message: 'Too small: expected array to have >=1 items' },
        { path: 'buyers[0].sharedSecret', message: 'must not be empty' },
      ]),
    );
  });

  it('refuses the retired memory store, saying what to write instead, and takes SQLite at :memory:', () => {
    const memory = loadGatewayConfig({ ...testConfig(), store: { kind: 'memory' } }, {});
    expect(memory).toEqual({
      ok: false,
      problems: [
        {
          path: 'store.kind',
          message:
            '"memory" is no longer supported: write { "kind": "sqlite", "path": ":memory:" } for a store that lives as long as the process',
        },
      ],
    });
    // What the message says to write is a valid store.
    const inMemory = loadGatewayConfig({ ...testConfig(), store: { kind: 'sqlite', path: ':memory:' } }, {});
    expect(inMemory.ok && inMemory.config.store).toEqual({ kind: 'sqlite', path: ':memory:' });
    // Any other kind still gets the list of the kinds there are.
    expect(parseGatewayConfig({ ...testConfig(), store: { kind: 'redis' } })).toEqual({
      ok: false,
      problems: [
        { path: 'store.kind', message: "Invalid discriminator value. Expected 'sqlite' | 'postgres' | 'd1'" },
      ],
    });
  });

  it('checks references between sections', () => {
    const config = testConfig();
    config.buyers = config.buyers.map((b, i) => (i === 1 ? { ...b, storefront: 'nowhere' } : b));
    expect(loadGatewayConfig(config, {})).toEqual({
      ok: false,
      problems: [{ path: 'buyers[1].storefront', message: 'no storefront with id "nowhere"' }],
    });
  });

  it('lists schema problems, reference problems, unset variables and weak secrets in one pass', () => {
    const config = testConfig({ signingKey: 'short-key', adminToken: { env: 'ADMIN' } }) as Record<
      string,
      unknown
    > & { buyers: Record<string, unknown>[]; storefronts: Record<string, unknown>[] };
    config.publicUrl = 'not a url';
    config.buyers[1] = { ...config.buyers[1], storefront: 'nowhere' };
    config.storefronts[0] = { ...config.storefronts[0], apiBaseUrl: 'https://print.example/api/v2/' };
    expect(loadGatewayConfig(config, { ADMIN: 'admin-token-from-the-env' })).toEqual({
      ok: false,
      problems: [
        { path: 'publicUrl', message: 'must be an absolute http(s) URL' },
        {
          path: 'storefronts[0].apiBaseUrl',
          message: "must be the service's {base_url} without /api/v2 (the client adds it to every call)",
        },
        { path: 'buyers[1].storefront', message: 'no storefront with id "nowhere"' },
        {
          path: 'signingKey',
          message:
            'must be at least 32 characters (it signs the links buyers follow and encrypts the stored ' +
            'print-service passwords, so a short key can be guessed offline); this one has 9',
        },
        {
          path: 'adminToken',
          message:
            'must be at least 32 characters (it is the only credential of the /admin API); this one has 24',
        },
      ],
    });
  });

  it('refuses OCI login parameters that differ only in case', () => {
    const config = testConfig();
    const index = config.buyers.findIndex((b) => b.protocol === 'oci');
    config.buyers = config.buyers.map((b, i) =>
      i === index ? { ...b, loginFields: { username: 'USER', password: 'user ' } } : b,
    );
    const result = loadGatewayConfig(config, {});
    expect(result.ok === false && result.problems).toEqual([
      {
        path: `buyers[${index}].loginFields.password`,
        message:
          'must differ from loginFields.username ("USER"): SAP sends the login parameters with names compared ' +
          'without case, so one field would hide the other',
      },
    ]);
  });

  it('refuses a From credential that would identify two buyers', () => {
    const config = testConfig();
    config.buyers = [
      ...config.buyers,
      { ...config.buyers[0], id: 'acme2' } as (typeof config.buyers)[number],
    ];
    const result = loadGatewayConfig(config, {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toContainEqual({
      path: `buyers[${config.buyers.length - 1}].from[0]`,
      message: 'credential NetworkID/AN01000000001 already identifies buyer "acme"',
    });
  });

  it('checks that each authAllowedAddresses entry is an IP address or CIDR range', () => {
    const config = testConfig();
    const allowed = ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7', '::1'];
    config.buyers = config.buyers.map((b, i) => (i === 0 ? { ...b, authAllowedAddresses: allowed } : b));
    expect(loadGatewayConfig(config, {}).ok).toBe(true);
    config.buyers = config.buyers.map((b, i) =>
      i === 0 ? { ...b, authAllowedAddresses: [...allowed, '203.0.113.0/33', 'ariba.example'] } : b,
    );
    expect(loadGatewayConfig(config, {})).toEqual({
      ok: false,
      problems: [
        {
          path: 'buyers[0].authAllowedAddresses[4]',
          message:
            '"203.0.113.0/33" is not an IPv4 or IPv6 address or CIDR range (such as 203.0.113.0/24 or 2001:db8::/32)',
        },
        {
          path: 'buyers[0].authAllowedAddresses[5]',
          message:
            '"ariba.example" is not an IPv4 or IPv6 address or CIDR range (such as 203.0.113.0/24 or 2001:db8::/32)',
        },
      ],
    });
  });

  it('resolves {"env": NAME} secrets and names the ones missing', () => {
    const config = testConfig({ signingKey: { env: 'SIGNING' }, adminToken: { env: 'ADMIN' } });
    const parsed = parseGatewayConfig(config);
    if (!parsed.ok) throw new Error('test config invalid');
    const missing = resolveConfigSecrets(parsed.config, { SIGNING: 'from-the-environment-0123' });
    expect(missing).toEqual({
      ok: false,
      problems: [{ path: 'adminToken', message: 'environment variable ADMIN is not set' }],
    });
    const resolved = resolveConfigSecrets(parsed.config, {
      SIGNING: 'from-the-environment-0123',
      ADMIN: 'a',
    });
    expect(resolved.ok && resolved.config.signingKey).toBe('from-the-environment-0123');
  });
});
