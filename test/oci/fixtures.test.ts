import { describe, expect, it } from 'vitest';
import {
  acceptOciPunchIn,
  OciError,
  type OciPunchIn,
  ociParamValue,
  ociParamValues,
} from '../../src/oci/index.ts';
import { fixtureBodyBytes, fixtureToRequest, loadOciFixtures } from '../support/oci-fixtures.ts';

const SPECIAL_KEYS = new Set(['params', 'paramsAll', 'paramCount']);

function catchOciError(run: () => unknown): OciError {
  try {
    run();
  } catch (error) {
    if (error instanceof OciError) return error;
    throw error;
  }
  throw new Error('expected an OciError, but the punch-in was accepted');
}

describe('valid OCI punch-in fixtures', () => {
  const fixtures = loadOciFixtures('valid');

  it('has the buyer styles the issue asks for', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(20);
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s', (_, fixture) => {
    const punchIn = acceptOciPunchIn(fixture.request, fixture.buyer);
    expect(punchIn.password).toBe(fixture.buyer.password);
    for (const [key, expected] of Object.entries(fixture.expect ?? {})) {
      if (SPECIAL_KEYS.has(key)) continue;
      expect(punchIn[key as keyof OciPunchIn], key).toEqual(expected ?? undefined);
    }
    for (const [name, value] of Object.entries(
      (fixture.expect?.params ?? {}) as Record<string, string | null>,
    )) {
      expect(ociParamValue(punchIn.params, name), `params.get(${name})`).toBe(value ?? undefined);
    }
    for (const [name, values] of Object.entries(
      (fixture.expect?.paramsAll ?? {}) as Record<string, string[]>,
    )) {
      expect(ociParamValues(punchIn.params, name), `params.getAll(${name})`).toEqual(values);
    }
    if (fixture.expect?.paramCount !== undefined)
      expect(punchIn.params.length).toBe(fixture.expect.paramCount);
  });
});

describe('invalid OCI punch-in fixtures', () => {
  it.each(loadOciFixtures('invalid').map((f) => [f.file, f] as const))('%s', (_, fixture) => {
    const error = catchOciError(() => acceptOciPunchIn(fixture.request, fixture.buyer));
    expect({ code: error.code, param: error.param ?? null }).toEqual(fixture.error);
    expect(error.message).not.toContain('sap1-secret');
  });
});

describe('fixture reader', () => {
  it('turns body text into bytes as each encoding says', () => {
    expect([...fixtureBodyBytes('ü', 'utf-8')]).toEqual([0xc3, 0xbc]);
    expect([...fixtureBodyBytes('ü', 'latin1')]).toEqual([0xfc]);
    expect([...fixtureBodyBytes('fc 0d0a', 'hex')]).toEqual([0xfc, 0x0d, 0x0a]);
    expect(() => fixtureBodyBytes('€', 'latin1')).toThrow('U+20ac');
  });

  it('builds a fetch Request carrying the raw query and body bytes', async () => {
    const fixture = loadOciFixtures('valid').find((f) => f.file === 'latin1-multipart-raw-bytes.json')!;
    const request = fixtureToRequest(fixture, 'http://gateway.test/oci/sap1');
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe(fixture.request.contentType);
    expect(new Uint8Array(await request.arrayBuffer())).toEqual(fixture.request.body);
    const get = loadOciFixtures('valid').find((f) => f.file === 'latin1-get-umlauts.json')!;
    expect(new URL(fixtureToRequest(get, 'http://gateway.test/oci/sap1').url).search.slice(1)).toBe(
      get.request.query,
    );
  });
});
