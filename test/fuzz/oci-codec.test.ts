/**
 * OCI punch-ins: the codec on its own (acceptOciPunchIn and the transfer page it feeds), and the same
 * mutations sent to GET/POST /oci/:buyer through the gateway.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptOciPunchIn, OciError, type OciPunchIn, renderOciTransferForm } from '../../src/oci/index.ts';
import { checkPageAnswer, expectEscapedFormPage } from '../support/answer-checks.ts';
import { capturingLogger } from '../support/capturing-logger.ts';
import { loadOciFixtures, OCI_FIXTURE_BUYER, type OciFixture } from '../support/oci-fixtures.ts';
import { createStack, GATEWAY_ORIGIN, testConfig } from '../support/stack.ts';
import { fuzzParameters, outcomeTally } from './fuzz-budget.ts';
import { HOSTILE_FRAGMENTS, mutateBytes, mutateText, mutations, wellFormed } from './mutations.ts';

const fixtures = [...loadOciFixtures('valid'), ...loadOciFixtures('invalid')];

function hostAllowed(hookUrl: string, hosts: readonly string[]): boolean {
  const url = new URL(hookUrl);
  const host = url.hostname.toLowerCase();
  const withPort = url.port === '' ? host : `${host}:${url.port}`;
  return hosts.some((entry) => {
    const candidate = /:\d+$/.test(entry) ? withPort : host;
    return entry.startsWith('*.')
      ? candidate.endsWith(entry.slice(1)) && candidate.length > entry.length - 1
      : candidate === entry;
  });
}

/**
 * One punch-in through the codec: it either accepts, with a HOOK_URL the buyer allows, or throws OciError
 * without repeating the password. Whatever it accepts renders into a transfer page whose values are escaped.
 */
function checkPunchIn(fixture: Pick<OciFixture, 'buyer'>, request: OciFixture['request']): string {
  let punchIn: OciPunchIn;
  try {
    punchIn = acceptOciPunchIn(request, fixture.buyer);
  } catch (error) {
    if (!(error instanceof OciError)) throw error;
    // A message may quote a HOOK_URL that the sender itself wrote the password into; never otherwise.
    if (error.message.includes(fixture.buyer.password)) {
      const sent = `${request.query}&${Buffer.from(request.body ?? []).toString('latin1')}`;
      expect(sent.split(fixture.buyer.password).length - 1, error.message).toBeGreaterThanOrEqual(2);
    }
    return `OciError ${error.code}`;
  }
  const scheme = punchIn.hookUrl.slice(0, punchIn.hookUrl.indexOf(':')).toLowerCase();
  if (scheme === 'sapevent') expect(fixture.buyer.allowSapEvent).toBe(true);
  else expect(hostAllowed(punchIn.hookUrl, fixture.buyer.hookUrlHosts), punchIn.hookUrl).toBe(true);
  const page = renderOciTransferForm({
    hookUrl: punchIn.hookUrl,
    fields: punchIn.params.slice(0, 20).map(([name, value]) => [`NEW_ITEM-${name}[1]`, value] as const),
    target: punchIn.formTarget,
    echoFields: punchIn.echoFields,
    charset: punchIn.charset,
    autoSubmit: true,
  });
  expectEscapedFormPage(page);
  return 'accepted';
}

describe('fuzzing the OCI punch-in codec: OciError or an allowed HOOK_URL, never a crash', () => {
  it('mutated fixtures (query and body)', () => {
    const tally = outcomeTally('OCI fixture mutations');
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), mutations, mutations, fc.boolean(), (fixture, q, b, body) => {
        const request = {
          ...fixture.request,
          query: body ? fixture.request.query : mutateText(fixture.request.query, q),
          body: body ? mutateBytes(fixture.request.body, b) : fixture.request.body,
        };
        tally(checkPunchIn(fixture, request));
      }),
      fuzzParameters('ociFixtureMutations'),
    );
    tally.print();
  });

  it('random methods, content types, parameters and bodies', () => {
    const tally = outcomeTally('OCI random requests');
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(...HOSTILE_FRAGMENTS),
      fc.constantFrom('sap1', 'sap1-secret', 'https://srm.example.com/hook', 'SAPEVENT:ADDI', '_top'),
    );
    const name = fc.oneof(
      fc.constantFrom(
        'USERNAME',
        'PASSWORD',
        'HOOK_URL',
        'FUNCTION',
        'PRODUCTID',
        'QUANTITY',
        'SEARCHSTRING',
        '~OkCode',
        '~TARGET',
        '~CALLER',
        'returntarget',
        'OCI_VERSION',
        'http_content_charset',
        '_charset_',
      ),
      text,
    );
    const pair = fc
      .tuple(name, text)
      .map(([k, v]) => `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`);
    const rawPair = fc.tuple(name, text).map(([k, v]) => `${k}=${v}`);
    const randomQuery = fc.array(fc.oneof(pair, rawPair), { maxLength: 8 }).map((p) => p.join('&'));
    // Half the requests log in properly, so that the rest of the parameters reach the checks after login.
    const query = fc.oneof(
      randomQuery,
      randomQuery.map(
        (q) => `USERNAME=sap1&PASSWORD=sap1-secret&HOOK_URL=https%3A%2F%2Fsrm.example.com%2Fhook&${q}`,
      ),
    );
    const request = fc.record({
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('GET', 'POST') },
        { weight: 1, arbitrary: fc.constantFrom('post', 'PUT', 'HEAD', '') },
      ),
      query,
      contentType: fc.option(
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded; charset=ISO-8859-1',
          'multipart/form-data; boundary=XYZ',
          'multipart/form-data',
          'application/json',
          'text/plain; charset=bogus',
          '',
        ),
        { nil: undefined },
      ),
      body: fc.oneof(
        query.map((q) => new TextEncoder().encode(q)),
        fc.uint8Array({ maxLength: 200 }),
        fc
          .array(fc.tuple(name, text), { maxLength: 4 })
          .map((parts) =>
            new TextEncoder().encode(
              `${parts.map(([k, v]) => `--XYZ\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')}--XYZ--\r\n`,
            ),
          ),
      ),
    });
    fc.assert(
      fc.property(request, (r) => {
        const { contentType, ...rest } = r;
        tally(
          checkPunchIn(
            { buyer: OCI_FIXTURE_BUYER },
            { ...rest, ...(contentType !== undefined && { contentType }) },
          ),
        );
      }),
      fuzzParameters('ociRandomRequests'),
    );
    tally.print();
  });

  it('mutated fixtures sent to /oci/:buyer: a redirect to our start page or a clear page under 500', async () => {
    const logger = capturingLogger();
    const config = testConfig();
    config.buyers = [
      ...config.buyers,
      {
        id: 'codec',
        storefront: 'demo',
        protocol: 'oci',
        username: OCI_FIXTURE_BUYER.username,
        password: OCI_FIXTURE_BUYER.password,
        hookUrlHosts: [...OCI_FIXTURE_BUYER.hookUrlHosts],
        // Every fuzz client is allowed, so wrong passwords count per address and never lock the buyer.
        authAllowedAddresses: ['10.0.0.0/8'],
      },
    ];
    const stack = await createStack(config, {
      gatewayDeps: { logger, clientAddress: (c) => c.req.header('X-Fuzz-Client') },
    });
    const tally = outcomeTally('OCI over HTTP');
    let client = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fixtures), mutations, fc.boolean(), async (fixture, list, body) => {
        const url = new URL(`${GATEWAY_ORIGIN}/oci/codec`);
        try {
          url.search = body ? fixture.request.query : mutateText(fixture.request.query, list);
        } catch {
          return;
        }
        const method = fixture.request.method.toUpperCase();
        const res = await stack.gateway.app.fetch(
          new Request(url, {
            method,
            headers: {
              'X-Fuzz-Client': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`,
              ...(fixture.request.contentType !== undefined && {
                'Content-Type': fixture.request.contentType,
              }),
            },
            ...(method !== 'GET' &&
              method !== 'HEAD' && {
                body: body ? mutateBytes(fixture.request.body, list) : fixture.request.body,
              }),
          }),
        );
        const status = method === 'HEAD' ? res.status : await checkPageAnswer(res);
        expect(status).toBeLessThan(500);
        tally(`HTTP ${status}`);
      }),
      fuzzParameters('ociHttp'),
    );
    tally.print();
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
