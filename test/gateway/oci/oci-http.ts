/**
 * OCI over HTTP for the gateway tests: the punch-in fixtures of this folder (format of fixtures/oci, see
 * fixtures/oci/README.md) sent to `/oci/:buyer`, and the pages the gateway answers read as bytes in the
 * charset their Content-Type names, then parsed back the way SAP reads them (every hidden input of the form).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { readForm, readOciItems } from '../../support/html-form-reader.ts';
import { findForms, formBody } from '../../support/html-forms.ts';
import { fixtureBodyBytes } from '../../support/oci-fixtures.ts';
import {
  type BrowserResponse,
  createStack,
  GATEWAY_ORIGIN,
  type Stack,
  type StackOptions,
  testConfig,
} from '../../support/stack.ts';

export interface PunchInFixture {
  readonly description: string;
  readonly method: string;
  readonly query: string;
  readonly contentType?: string;
  readonly body: Uint8Array<ArrayBuffer>;
}

export function loadPunchIn(file: string): PunchInFixture {
  const data = JSON.parse(readFileSync(new URL(`fixtures/${file}`, import.meta.url), 'utf8'));
  const { method, query, contentType, body, bodyEncoding } = data.request;
  return {
    description: data.description,
    method,
    query,
    ...(contentType !== undefined && { contentType }),
    body: fixtureBodyBytes(body ?? '', bodyEncoding ?? 'utf-8'),
  };
}

/** The stack with the OCI feature plugged in. */
export function createOciStack(config = testConfig(), options: StackOptions = {}): Promise<Stack> {
  return createStack(config, options);
}

/** Sends a punch-in to `/oci/<buyer>`; no redirect is followed. */
export function sendPunchIn(stack: Stack, buyer: string, fixture: PunchInFixture): Promise<Response> {
  const url = new URL(`${GATEWAY_ORIGIN}/oci/${buyer}`);
  url.search = fixture.query;
  return stack.request(url.toString(), {
    method: fixture.method,
    headers: fixture.contentType === undefined ? {} : { 'content-type': fixture.contentType },
    ...(fixture.method !== 'GET' && { body: fixture.body }),
  });
}

/** A GET punch-in from parameters, as SAP's GET call or a server-to-server background search sends it. */
export function getPunchIn(stack: Stack, buyer: string, params: Record<string, string>): Promise<Response> {
  return stack.request(`${GATEWAY_ORIGIN}/oci/${buyer}?${new URLSearchParams(params)}`);
}

export interface RawPage {
  readonly status: number;
  readonly headers: Headers;
  readonly bytes: Uint8Array;
  /** The charset of the Content-Type header. */
  readonly charset: string;
  /** The bytes decoded in that charset. */
  readonly text: string;
}

export async function readRawPage(response: Response): Promise<RawPage> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const charset = /charset=([^;\s]+)/i.exec(response.headers.get('content-type') ?? '')?.[1] ?? 'UTF-8';
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    charset,
    text: new TextDecoder(charset).decode(bytes),
  };
}

/** Presses the button labelled `label` on a gateway page and reads the answer without following redirects. */
export async function pressButton(stack: Stack, page: BrowserResponse, label: string): Promise<RawPage> {
  const index = [...page.text.matchAll(/<form\b[\s\S]*?<\/form>/gi)].findIndex((m) =>
    m[0].includes(`>${label}</button>`),
  );
  expect(index, `a "${label}" button`).toBeGreaterThanOrEqual(0);
  const form = findForms(page.text)[index]!;
  const response = await stack.request(new URL(form.action, page.url).toString(), {
    method: 'POST',
    body: formBody(form.fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  return readRawPage(response);
}

export interface OciForm {
  readonly attributes: Readonly<Record<string, string>>;
  readonly inputs: readonly (readonly [string, string])[];
  /** NEW_ITEM-* fields by item number, then field name (LONGTEXT for the long text). */
  readonly items: Record<number, Record<string, string>>;
  /** The inputs that are not NEW_ITEM-* fields (the echoed `~` fields and returntarget). */
  readonly echo: readonly (readonly [string, string])[];
}

/** The OCI form of a transfer, VALIDATE or search page, read as SAP reads it. */
export function ociFormOf(page: RawPage): OciForm {
  const form = readForm(page.text);
  const items: Record<number, Record<string, string>> = {};
  for (const [n, fields] of readOciItems(form.inputs)) items[n] = Object.fromEntries(fields);
  return {
    attributes: form.attributes,
    inputs: form.inputs,
    items,
    echo: form.inputs.filter(([name]) => !name.startsWith('NEW_ITEM-')),
  };
}

/** The Content-Security-Policy directives of a response, by name. */
export function cspOf(headers: Headers): Record<string, string> {
  const policy = headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    policy
      .split(';')
      .map((directive) => directive.trim())
      .filter((directive) => directive !== '')
      .map((directive) => {
        const [name, ...values] = directive.split(/\s+/);
        return [name ?? '', values.join(' ')];
      }),
  );
}
