/**
 * Reader for fixtures/oci/{valid,invalid}/*.json (format in fixtures/oci/README.md), shared by the codec
 * tests and the HTTP route tests that replay the same punch-ins.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OciBuyerSettings, OciPunchInRequest } from '../../src/oci/index.ts';

const FIXTURE_ROOT = join(import.meta.dirname, '../../fixtures/oci');

/** The buyer every fixture starts from. */
export const OCI_FIXTURE_BUYER: OciBuyerSettings = {
  username: 'sap1',
  password: 'sap1-secret',
  hookUrlHosts: ['srm.example.com'],
};

export interface OciFixture {
  readonly file: string;
  readonly description: string;
  readonly buyer: OciBuyerSettings;
  /** The request with its body as bytes, ready for acceptOciPunchIn or a fetch Request. */
  readonly request: OciPunchInRequest & { readonly body: Uint8Array<ArrayBuffer> };
  readonly expect?: Readonly<Record<string, unknown>>;
  readonly error?: { readonly code: string; readonly param: string | null };
}

interface FixtureFile {
  description: string;
  buyer?: Partial<OciBuyerSettings>;
  request: { method: string; query: string; contentType?: string; body?: string; bodyEncoding?: string };
  expect?: Record<string, unknown>;
  error?: { code: string; param: string | null };
}

/** Every fixture of one folder, sorted by file name. */
export function loadOciFixtures(kind: 'valid' | 'invalid'): OciFixture[] {
  const folder = join(FIXTURE_ROOT, kind);
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const data = JSON.parse(readFileSync(join(folder, file), 'utf8')) as FixtureFile;
      const { method, query, contentType, body, bodyEncoding } = data.request;
      return {
        file,
        description: data.description,
        buyer: { ...OCI_FIXTURE_BUYER, ...data.buyer },
        request: {
          method,
          query,
          ...(contentType !== undefined && { contentType }),
          body: fixtureBodyBytes(body ?? '', bodyEncoding ?? 'utf-8'),
        },
        ...(data.expect !== undefined && { expect: data.expect }),
        ...(data.error !== undefined && { error: data.error }),
      };
    });
}

/** The bytes a fixture body stands for. */
export function fixtureBodyBytes(body: string, encoding: string): Uint8Array<ArrayBuffer> {
  switch (encoding) {
    case 'utf-8':
      return new TextEncoder().encode(body);
    case 'latin1':
      return Uint8Array.from(body, (c) => {
        const code = c.charCodeAt(0);
        if (code > 0xff) throw new Error(`latin1 fixture body has U+${code.toString(16)}`);
        return code;
      });
    case 'hex':
      return Uint8Array.from(body.replace(/\s+/g, '').match(/../g) ?? [], (pair) =>
        Number.parseInt(pair, 16),
      );
    default:
      throw new Error(`unknown bodyEncoding ${encoding}`);
  }
}

/** The fixture as a fetch Request to `url` (e.g. the gateway's OCI route), for the HTTP tests. */
export function fixtureToRequest(fixture: OciFixture, url: string): Request {
  const target = new URL(url);
  target.search = fixture.request.query;
  const init: RequestInit = {
    method: fixture.request.method,
    headers: fixture.request.contentType === undefined ? {} : { 'content-type': fixture.request.contentType },
  };
  if (fixture.request.method !== 'GET' && fixture.request.method !== 'HEAD') {
    init.body = fixture.request.body;
  }
  return new Request(target, init);
}
