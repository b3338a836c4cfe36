/**
 * The refusals log through the routes: what a refused cXML document and a refused OCI punch-in leave in it
 * (claimed buyer, address, the answer as sent, the document with its secrets blanked), that recording never
 * changes or fails the answer, that a flood from many addresses stays within the caps, and the admin API's
 * `GET /admin/refusals` with its exact refusals of bad parameters.
 */
import { describe, expect, it } from 'vitest';
import {
  REFUSAL_CAPS,
  REFUSAL_DOCUMENT_CHARS,
  REFUSALS_RECORDED_PER_ADDRESS_MINUTE,
} from '../../../src/gateway/refusals/refusal-log.ts';
import type { Store } from '../../../src/store/port.ts';
import { capturingLogger } from '../../support/capturing-logger.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import { adminJson } from '../../support/order-flow.ts';
import { createStack, GATEWAY_ORIGIN, START, type Stack, testConfig } from '../../support/stack.ts';
import { createTestStore } from '../../support/test-store.ts';

/** The client address each test request claims, read by the stack's gateway from a test header. */
const ADDRESS_HEADER = 'x-test-client';

function stackWith(options: { store?: Store; logger?: ReturnType<typeof capturingLogger> } = {}) {
  return createStack(testConfig(), {
    ...(options.store !== undefined && { store: options.store }),
    gatewayDeps: {
      clientAddress: (c) => c.req.header(ADDRESS_HEADER) ?? '192.0.2.1',
      ...(options.logger !== undefined && { logger: options.logger }),
    },
  });
}

function postFrom(stack: Stack, address: string, body: string): Promise<Response> {
  return stack.request(`${GATEWAY_ORIGIN}/cxml`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'text/xml', [ADDRESS_HEADER]: address },
  });
}

const statusOf = (xml: string) => /<Status code="(\d+)" text="([^"]*)"/.exec(xml)?.slice(1);

describe('the refusals log', () => {
  it('a setup with a wrong SharedSecret: the claimed buyer, the address, the Status as sent, the document without the secret', async () => {
    const stack = await stackWith();
    const document = setupRequest({ secret: 'wrong-guess-4711', payloadID: 'setup-1@ariba.example' });
    const answer = await (await postFrom(stack, '203.0.113.9', document)).text();
    expect(statusOf(answer)).toEqual(['401', 'Unauthorized']);

    const listed = await adminJson(stack, '/admin/refusals?buyer=acme');
    expect(listed).toEqual({
      status: 200,
      body: {
        items: [
          {
            id: expect.any(String),
            buyerId: 'acme',
            channel: 'cxml',
            documentType: 'PunchOutSetupRequest',
            payloadId: 'setup-1@ariba.example',
            clientAddress: '203.0.113.9',
            status: 401,
            answer: 'Unauthorized: Authentication failed: the Sender SharedSecret is not valid.',
            document: document.replace('wrong-guess-4711', '[redacted]'),
            documentBytes: new TextEncoder().encode(document).byteLength,
            createdAt: stack.clock.now().toISOString(),
          },
        ],
        nextCursor: null,
      },
    });
  });

  it('an unknown From identity is an "unknown" buyer; an accepted setup is not recorded', async () => {
    const stack = await stackWith();
    await postFrom(stack, '203.0.113.9', setupRequest({ identity: 'AN-NOBODY' }));
    const ok = await (await postFrom(stack, '203.0.113.9', setupRequest())).text();
    expect(statusOf(ok)).toEqual(['200', 'OK']);
    const { items } = await stack.store.refusals.list();
    expect(items.map((r) => [r.buyerId, r.status, r.answer])).toEqual([
      [undefined, 401, 'Unauthorized: Unknown buyer: no account for From credential NetworkID/AN-NOBODY.'],
    ]);
  });

  it('a document that is not cXML is kept as it came, cut short with a marker past the bound', async () => {
    const stack = await stackWith();
    const junk = `<html>${'x'.repeat(REFUSAL_DOCUMENT_CHARS + 100)}</html>`;
    const answer = await (await postFrom(stack, '198.51.100.4', junk)).text();
    const [code] = statusOf(answer) ?? [];
    const [entry] = (await stack.store.refusals.list()).items;
    expect(entry).toMatchObject({ status: Number(code), documentBytes: junk.length });
    expect(entry?.document).toBe(
      `${junk.slice(0, REFUSAL_DOCUMENT_CHARS)}\n[… cut here: the log keeps the first ${REFUSAL_DOCUMENT_CHARS} characters]`,
    );
  });

  it('an OCI punch-in with a wrong password: its page status and text, the request with the password blanked', async () => {
    const stack = await stackWith();
    const params = new URLSearchParams({
      USERNAME: 'sap1',
      PASSWORD: 'typo-in-password',
      HOOK_URL: 'https://srm.acme.example/return',
    });
    const res = await stack.request(`${GATEWAY_ORIGIN}/oci/sap1`, {
      method: 'POST',
      body: params,
      headers: { [ADDRESS_HEADER]: '203.0.113.20' },
    });
    expect(res.status).toBe(401);
    const [entry] = (await stack.store.refusals.list({ buyerId: 'sap1' })).items;
    expect(entry).toMatchObject({
      channel: 'oci',
      documentType: 'punch-in',
      clientAddress: '203.0.113.20',
      status: 401,
      answer: '401 The catalog login was refused: The OCI user name or password is not correct.',
      document:
        'POST /oci/sap1\n\nUSERNAME=sap1&PASSWORD=[redacted]&HOOK_URL=https%3A%2F%2Fsrm.acme.example%2Freturn',
    });
  });

  it('an OCI address no buyer has: 404, recorded as unknown', async () => {
    const stack = await stackWith();
    const res = await stack.request(`${GATEWAY_ORIGIN}/oci/nobody?USERNAME=x&PASSWORD=y`);
    expect(res.status).toBe(404);
    const [entry] = (await stack.store.refusals.list()).items;
    expect(entry).toMatchObject({
      channel: 'oci',
      status: 404,
      document: 'GET /oci/nobody?USERNAME=x&PASSWORD=[redacted]\n',
    });
    expect(entry?.buyerId).toBeUndefined();
  });

  it('a store that cannot record changes nothing in the answer; the failure is logged', async () => {
    const logger = capturingLogger();
    const store = createTestStore({ clock: { now: () => new Date(START) } });
    const failing: Store = {
      ...store,
      refusals: { ...store.refusals, add: () => Promise.reject(new Error('database is locked')) },
    };
    const stack = await stackWith({ store: failing, logger });
    const answer = await (await postFrom(stack, '203.0.113.9', setupRequest({ secret: 'nope-nope' }))).text();
    expect(statusOf(answer)).toEqual(['401', 'Unauthorized']);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'refusal not recorded',
        fields: expect.objectContaining({ buyer: 'acme', error: 'database is locked' }),
      }),
    );
  });

  it(`a flood of refused documents from several addresses keeps at most ${REFUSAL_CAPS.perAddress} of each`, async () => {
    const stack = await stackWith();
    const addresses = ['198.51.100.1', '198.51.100.2', '198.51.100.3'];
    const sent = REFUSAL_CAPS.perAddress + 30;
    for (const address of addresses) {
      for (let i = 0; i < sent; i++) {
        // Within each address's allowance of entries a minute, so every one is stored and the caps decide.
        if (i % REFUSALS_RECORDED_PER_ADDRESS_MINUTE === 0) stack.clock.advance(60);
        await postFrom(
          stack,
          address,
          setupRequest({ identity: `FLOOD-${i}`, payloadID: `${address}-${i}` }),
        );
      }
    }
    const kept: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await stack.store.refusals.list({ limit: 500, ...(cursor !== undefined && { cursor }) });
      kept.push(...page.items.map((r) => r.payloadId ?? ''));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(kept).toHaveLength(addresses.length * REFUSAL_CAPS.perAddress);
    // The newest of each address are the ones kept.
    for (const address of addresses) {
      expect(kept).toContain(`${address}-${sent - 1}`);
      expect(kept).not.toContain(`${address}-${sent - REFUSAL_CAPS.perAddress - 1}`);
    }
    // 390 documents refused and recorded one after another: a bound on a hang, not on speed.
  }, 90_000);
});

describe('the refusals log under a flood from one address', () => {
  it(`stores ${REFUSALS_RECORDED_PER_ADDRESS_MINUTE} a minute of one address, counts the rest in a metric and one warn line, and stores again the next minute`, async () => {
    const logger = capturingLogger();
    const stack = await stackWith({ logger });
    const sent = REFUSALS_RECORDED_PER_ADDRESS_MINUTE + 15;
    for (let i = 0; i < sent; i++) {
      const answer = await postFrom(
        stack,
        '198.51.100.7',
        setupRequest({ identity: `FLOOD-${i}`, payloadID: `flood-${i}` }),
      );
      // Every one is answered as before: only its entry is left out.
      expect(statusOf(await answer.text())).toEqual(['401', 'Unauthorized']);
    }
    // Another address is not held back by this one's flood.
    await postFrom(stack, '198.51.100.8', setupRequest({ identity: 'OTHER', payloadID: 'other-0' }));
    stack.clock.advance(60);
    await postFrom(stack, '198.51.100.7', setupRequest({ identity: 'LATER', payloadID: 'flood-later' }));

    const kept = (await stack.store.refusals.list({ limit: 500 })).items.map((r) => r.payloadId).sort();
    const first = Array.from({ length: REFUSALS_RECORDED_PER_ADDRESS_MINUTE }, (_, i) => `flood-${i}`);
    expect(kept).toEqual([...first, 'flood-later', 'other-0'].sort());
    const metrics = await (await stack.request(`${GATEWAY_ORIGIN}/metrics`)).text();
    expect(metrics).toContain('punchgate_refusals_unrecorded_total{channel="cxml"} 15');
    const warned = logger.lines.filter(
      (line) => line.message === 'refusals not recorded: too many from one address',
    );
    expect(warned.map((line) => line.fields)).toEqual([
      expect.objectContaining({ channel: 'cxml', address: '198.51.100.7', recordedThisMinute: 10 }),
      expect.objectContaining({ channel: 'cxml', address: '198.51.100.7', unrecorded: 15 }),
    ]);
  });
});

describe('GET /admin/refusals', () => {
  it('filters by buyer and time (a day is a whole day), pages with a cursor', async () => {
    const stack = await stackWith();
    await postFrom(stack, '192.0.2.1', setupRequest({ secret: 'bad-1', payloadID: 'a@x' }));
    stack.clock.advance(86_400);
    await postFrom(stack, '192.0.2.1', setupRequest({ secret: 'bad-2', payloadID: 'b@x' }));
    await postFrom(stack, '192.0.2.1', setupRequest({ identity: 'AN-NOBODY', payloadID: 'c@x' }));
    const ids = async (query: string) => {
      const { body } = await adminJson(stack, `/admin/refusals${query}`);
      return (body as { items: { payloadId: string }[] }).items.map((r) => r.payloadId);
    };
    expect(await ids('')).toEqual(['c@x', 'b@x', 'a@x']);
    expect(await ids('?buyer=acme')).toEqual(['b@x', 'a@x']);
    expect(await ids('?from=2026-11-23')).toEqual(['c@x', 'b@x']);
    expect(await ids('?to=2026-11-22')).toEqual(['a@x']);
    expect(await ids('?buyer=acme&from=2026-11-22T00:00:00Z&to=2026-11-22T23:59:59Z')).toEqual(['a@x']);
    const first = await adminJson(stack, '/admin/refusals?limit=2');
    const { nextCursor } = first.body as { nextCursor: string };
    expect(await ids(`?limit=2&cursor=${nextCursor}`)).toEqual(['a@x']);
  });

  it.each([
    ['from=yesterday', 'from must be a date (YYYY-MM-DD) or an ISO 8601 date-time.'],
    ['to=2026-13-01', 'to must be a date (YYYY-MM-DD) or an ISO 8601 date-time.'],
    ['limit=many', 'limit must be a whole number up to 500.'],
    ['cursor=abc', 'cursor was not handed out by this store'],
  ])('?%s: 400 naming the parameter', async (query, message) => {
    const stack = await stackWith();
    expect(await adminJson(stack, `/admin/refusals?${query}`)).toEqual({
      status: 400,
      body: { error: { code: 'bad_request', message } },
    });
  });
});
