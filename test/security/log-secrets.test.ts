import { describe, expect, it } from 'vitest';
import { createOrderWorker } from '../../src/gateway/orders/index.ts';
import { capturingLogger } from '../support/capturing-logger.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  linesOf,
  orderConfig,
  punchOut,
  sendOrder,
} from '../support/order-flow.ts';
import { designProduct, statusOf } from '../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, resolveTestConfig } from '../support/stack.ts';

const SECRET_NAME = /token|password|secret|key|authorization/i;

/** Every string under a secret-sounding name in a JSON value, however deep. */
function secretValues(value: unknown, into: Set<string>, named = false): void {
  if (typeof value === 'string') {
    if (named && value.length >= 6) into.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) secretValues(item, into, named);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) secretValues(item, into, named || SECRET_NAME.test(key));
  }
}

/**
 * The print-service transport, recording every credential that crosses it: headers, JSON bodies and
 * answers (PIPO passwords of created users, PIPO tokens of logins).
 */
function recordingCredentials(seen: Set<string>) {
  return (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
    async (input, init) => {
      const request = new Request(input, init);
      request.headers.forEach((value, name) => {
        if (SECRET_NAME.test(name) && value.length >= 6) seen.add(value);
      });
      const body = await request.clone().text();
      try {
        if (body !== '') secretValues(JSON.parse(body), seen);
      } catch {
        // Not JSON (form posts to the editor host); nothing to record.
      }
      const res = await fetch(request);
      try {
        secretValues(await res.clone().json(), seen);
      } catch {
        // Not JSON (pages, files).
      }
      return res;
    };
}

describe('logs never carry secrets, passwords or PIPO tokens', () => {
  it('a full cXML and OCI round trip with a PO, failed logins and throttling', async () => {
    const logger = capturingLogger();
    const seen = new Set<string>();
    const config = orderConfig();
    const stack = await createStack(config, {
      gatewayDeps: { logger },
      wrapPrintFetch: recordingCredentials(seen),
    });

    // cXML: punch-out, design, transfer, the PO, and the worker until quiet.
    const cart = await punchOut(stack, ['Business cards']);
    expect(await sendOrder(stack, { orderID: 'PO-LOGS', lines: linesOf(cart) })).toMatchObject({ code: 200 });
    const worker = createOrderWorker(stack.gateway.context);
    for (let round = 0; round < 5; round++) {
      await stack.sandbox.control.idle();
      await worker.tick();
    }

    // OCI: punch-in and a design, the PIPO token travelling in the editor URL.
    const punchIn = new URLSearchParams({
      USERNAME: 'sap1',
      PASSWORD: 'sap1-secret',
      HOOK_URL: 'https://srm.acme.example/hook',
    });
    const catalog = await stack.browse(`${GATEWAY_ORIGIN}/oci/sap1?${punchIn}`);
    expect(catalog.status).toBe(200);
    const design = await designProduct(stack, catalog, 'Business cards');
    expect(design.status).toBe(200);

    // Failed logins of every kind, enough of them to be throttled.
    const guesses = ['guess-one-secret', 'acme-secret-2', 'ACME-SECRET', 'wrong-secret-x', 'x-acme-secret'];
    for (const secret of [...guesses, 'acme-secret']) await stack.postCxml(setupRequest({ secret }));
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(403);
    const badOci = new URLSearchParams({ ...Object.fromEntries(punchIn), PASSWORD: 'sap1-guessed' });
    expect((await stack.request(`${GATEWAY_ORIGIN}/oci/sap1?${badOci}`)).status).toBe(401);
    expect((await adminRequest(stack, '/admin/orders', {}, 'admin-guessed-token')).status).toBe(401);
    expect((await adminRequest(stack, '/admin/orders')).status).toBe(200);

    const resolved = resolveTestConfig(config);
    const secrets = new Set<string>([
      ...seen,
      ...guesses,
      'sap1-guessed',
      'admin-guessed-token',
      ADMIN_TOKEN,
      resolved.signingKey,
      ...resolved.storefronts.flatMap((s) => [s.apiToken, s.apiKey]),
      ...resolved.buyers.flatMap((b) =>
        b.protocol === 'cxml' ? [b.sharedSecret ?? ''] : [b.password, b.sharedSecret ?? ''],
      ),
      resolved.supplier.sharedSecret ?? '',
    ]);
    secrets.delete('');
    // The test saw the credentials it meant to look for: PIPO logins happened and were recorded.
    expect(seen.size).toBeGreaterThanOrEqual(3);
    expect(logger.lines.length).toBeGreaterThan(10);
    const log = logger.text();
    const leaked = [...secrets].filter((secret) => log.includes(secret));
    console.log(
      `[logs] ${logger.lines.length} log lines scanned for ${secrets.size} secrets (${seen.size} seen on the wire): ${leaked.length} found`,
    );
    expect(leaked).toEqual([]);
    expect(log).toContain('cxml secret refused');
  });
});
