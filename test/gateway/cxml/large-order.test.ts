/**
 * Big POs from proven buyers (issue 18, deliverable 4): `POST /cxml` reads the first 128 KB, proves the
 * sender on the Header, and only then reads the rest — up to `orders.maxDocumentBytes` (16 MiB) for an
 * OrderRequest, 1 MiB for anything else. A 5,000-line PO (3.3 MB) becomes one print order; a stranger's
 * document of the same size is refused after its head, the rest never read.
 */
import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS_DOCUMENT_BYTES,
  crossReferenceProblems,
  D1_ORDER_DOCUMENT_BYTES,
  DEFAULT_ORDER_DOCUMENT_BYTES,
  orderDocumentLimit,
  parseGatewayConfig,
} from '../../../schemas/config.ts';
import { HEADER_SCAN_CHARS, peekCxmlHeader, wholeTags } from '../../../src/cxml/index.ts';
import { createOffThreadCxmlParser } from '../../../src/runtime/node-cxml-parser.ts';
import { serveNode } from '../../../src/runtime/node.ts';
import { largeOrderRequest } from '../../cxml/large-order-request.ts';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  confirmationsReceived,
  createOrderStack,
  drain,
  type OrderStack,
  orderConfig,
  printOrdersFor,
} from '../../support/order-flow.ts';
import { seedOrderLines } from '../../support/order-lines.ts';
import { statusOf } from '../../support/punchout-flow.ts';
import { GATEWAY_ORIGIN, testConfig } from '../../support/stack.ts';

const LINES = 5_000;
const CHUNK = 64 * 1024;

/** Cart lines the PO names (`L-00000001`…), seeded through the store API as a punch-out would leave them. */
async function seedCartLines(stack: OrderStack, lines: number): Promise<void> {
  await seedOrderLines(stack.store, stack.gateway.context.config.storefronts[0]?.products ?? [], {
    sessionId: 'large-order-session',
    lines,
    expiresAt: new Date(Date.parse('2026-11-23T09:00:00Z')),
  });
}

/** test/cxml/large-order-request.ts's PO on the seeded lines' terms (as bench/cases/po-intake.ts sends it). */
function bigOrder(lines: number, identity = 'AN01000000001'): string {
  return largeOrderRequest(lines)
    .replace(/orderID="[^"]*"/, 'orderID="PO-BIG-5000"')
    .replace(/L-(\d{6})/g, 'L-00$1')
    .replace(/<ItemOut quantity="\d+"/g, '<ItemOut quantity="100"')
    .replace(/<Money currency="EUR">12\.50</g, '<Money currency="USD">0.12<')
    .replace(/<Money currency="EUR">[0-9.]+</, `<Money currency="USD">${(lines * 12).toFixed(2)}<`)
    .replaceAll('<Identity>AN01000000001</Identity>', `<Identity>${identity}</Identity>`);
}

/** A body handed out in 64 KB chunks as the reader pulls them, counting what was taken. */
function countedBody(bytes: Uint8Array): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= bytes.byteLength) return controller.close();
        const chunk = bytes.subarray(sent, sent + CHUNK);
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => sent };
}

async function postStream(
  stack: OrderStack,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
) {
  const res = await stack.gateway.app.fetch(
    new Request(`${GATEWAY_ORIGIN}/cxml`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'text/xml', ...headers },
      duplex: 'half',
    } as RequestInit),
  );
  return statusOf(await res.text());
}

describe('a 5,000-line OrderRequest from a proven buyer', () => {
  it('is accepted and becomes exactly one print order, confirmed to the buyer', async () => {
    const stack = await createOrderStack();
    // A real punch-in first: it records the user's print-service account the order is placed for.
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(200);
    await seedCartLines(stack, LINES);
    const document = new TextEncoder().encode(bigOrder(LINES));
    expect(document.byteLength).toBeGreaterThan(3 * 1024 * 1024);
    const { stream } = countedBody(document);
    expect(await postStream(stack, stream, { 'Content-Length': String(document.byteLength) })).toMatchObject({
      code: 200,
    });
    await drain(stack);
    const po = await stack.store.orders.getByOrderId('acme', 'PO-BIG-5000');
    expect(po?.state).toBe('ordered');
    expect(po?.printOrderIds).toHaveLength(1);
    expect(await printOrdersFor(stack, 'PO-BIG-5000')).toHaveLength(1);
    const confirmations = confirmationsReceived(stack);
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.type).toBe('accept');
  }, 120_000);

  it("is taken over a real port (@hono/node-server), as a stranger's is refused there", async () => {
    const stack = await createOrderStack();
    expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(200);
    await seedCartLines(stack, LINES);
    const server = await serveNode(stack.gateway.app, { port: 0 });
    try {
      const post = async (body: string) =>
        statusOf(await (await fetch(`${server.url}/cxml`, { method: 'POST', body })).text());
      expect(await post(bigOrder(LINES, 'NOBODY'))).toMatchObject({ code: 401 });
      expect(await post(bigOrder(LINES))).toMatchObject({ code: 200 });
      expect((await stack.store.orders.getByOrderId('acme', 'PO-BIG-5000'))?.state).toBe('received');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('is refused over a smaller configured orders.maxDocumentBytes, before the rest is read', async () => {
    const stack = await createOrderStack(orderConfig({ orders: { maxDocumentBytes: 2 * 1024 * 1024 } }));
    const document = new TextEncoder().encode(bigOrder(LINES));
    const { stream, pulled } = countedBody(document);
    expect(await postStream(stack, stream)).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is larger than 2 MB.',
    });
    expect(pulled()).toBeLessThanOrEqual(2 * 1024 * 1024 + CHUNK);
  });
});

describe("a big document parsed off the event loop (Node's worker thread)", () => {
  /** A stack whose gateway parses documents larger than their head on a worker thread, counting them. */
  async function threadedStack() {
    const parser = createOffThreadCxmlParser();
    const parsedOffThread: number[] = [];
    const stack = await createOrderStack(orderConfig(), {
      gatewayDeps: {
        parseLargeCxml: (bytes, options) => {
          parsedOffThread.push(bytes.byteLength);
          return parser.parse(bytes, options);
        },
      },
    });
    return { stack, parsedOffThread, close: () => parser.close() };
  }

  it('a 5,000-line PO is parsed there and accepted, in process and over a real port; a small one inline', async () => {
    const { stack, parsedOffThread, close } = await threadedStack();
    try {
      expect(statusOf(await stack.postCxml(setupRequest())).code).toBe(200);
      expect(parsedOffThread).toEqual([]);
      await seedCartLines(stack, LINES);
      const document = new TextEncoder().encode(bigOrder(LINES));
      const { stream } = countedBody(document);
      expect(await postStream(stack, stream)).toMatchObject({ code: 200 });
      expect(parsedOffThread).toEqual([document.byteLength]);
      const server = await serveNode(stack.gateway.app, { port: 0 });
      try {
        const answer = await fetch(`${server.url}/cxml`, {
          method: 'POST',
          body: bigOrder(LINES)
            .replace('orderID="PO-BIG-5000"', 'orderID="PO-BIG-PORT"')
            .replace('payloadID="', 'payloadID="port.'),
        });
        expect(statusOf(await answer.text())).toMatchObject({ code: 200 });
      } finally {
        await server.close();
      }
      expect(parsedOffThread).toHaveLength(2);
      await drain(stack);
      expect((await stack.store.orders.getByOrderId('acme', 'PO-BIG-5000'))?.state).toBe('ordered');
      expect((await stack.store.orders.getByOrderId('acme', 'PO-BIG-PORT'))?.type).toBe('new');
    } finally {
      await close();
    }
  }, 120_000);

  it('bad XML deep in a big PO gets the exact Status an inline parse gives', async () => {
    const { stack, parsedOffThread, close } = await threadedStack();
    const inline = await createOrderStack();
    try {
      const broken = [
        bigOrder(LINES).replace(
          '<Comments xml:lang="en">Line 4999</Comments>',
          '<Comments>Line 4999</Coments>',
        ),
        bigOrder(LINES).replace('quantity="100" lineNumber="4000"', 'quantity="many" lineNumber="4000"'),
      ];
      for (const text of broken) {
        const expected = statusOf(await inline.postCxml(text));
        expect(expected.code).toBeGreaterThanOrEqual(400);
        expect(statusOf(await stack.postCxml(text))).toEqual(expected);
      }
      expect(parsedOffThread).toHaveLength(2);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('an orders.maxDocumentBytes below the 1 MB of other documents', () => {
  it('refuses a larger PO from a proven buyer (406), while a setup of that size is still read', async () => {
    const halfMiB = 512 * 1024;
    const stack = await createOrderStack(orderConfig({ orders: { maxDocumentBytes: halfMiB } }));
    const po = bigOrder(1_000);
    expect(po.length).toBeGreaterThan(halfMiB);
    expect(statusOf(await stack.postCxml(po))).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is larger than 0.5 MB.',
    });
    const setup = setupRequest().replace('<BuyerCookie>', `<!-- ${'x'.repeat(700 * 1024)} --><BuyerCookie>`);
    expect(statusOf(await stack.postCxml(setup)).code).toBe(200);
    expect(ANONYMOUS_DOCUMENT_BYTES).toBe(1024 * 1024);
  });
});

describe('documents over 1 MB at once', () => {
  it('one is read at a time: another meanwhile gets a retryable Status 500, its body unread', async () => {
    const stack = await createOrderStack();
    const document = new TextEncoder().encode(bigOrder(LINES));
    // The first upload stalls after its head until released, then breaks off.
    let release: () => void = () => {};
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent = 0;
    let waiting = false;
    const first = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (sent >= HEADER_SCAN_CHARS) {
            waiting = true;
            await stalled;
            return controller.error(new Error('aborted'));
          }
          controller.enqueue(document.subarray(sent, sent + CHUNK));
          sent += CHUNK;
        },
      },
      { highWaterMark: 0 },
    );
    const length = { 'Content-Length': String(document.byteLength) };
    const firstAnswer = postStream(stack, first, length);
    // Its head has been read and its sender proven: the route waits for the rest.
    while (!waiting) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = countedBody(document);
    expect(await postStream(stack, second.stream, length)).toEqual({
      code: 500,
      text: 'Internal Server Error',
      detail: 'Too many large documents are being received at once; it is safe to send this one again.',
    });
    expect(second.pulled()).toBeLessThanOrEqual(HEADER_SCAN_CHARS + CHUNK);
    release();
    expect((await firstAnswer).code).toBe(400);
  });
});

describe('what a large document costs before its sender is proven', () => {
  it("a stranger's 3.3 MB document is refused after its Header (401), the rest never read", async () => {
    const stack = await createOrderStack();
    const document = new TextEncoder().encode(bigOrder(LINES, 'NOBODY'));
    const { stream, pulled } = countedBody(document);
    expect(await postStream(stack, stream, { 'Content-Length': String(document.byteLength) })).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'Unknown buyer: no account for From credential NetworkID/NOBODY.',
    });
    expect(pulled()).toBeLessThanOrEqual(HEADER_SCAN_CHARS + CHUNK);
  });

  it('a Content-Length over the largest document anyone may send is refused before a byte is read', async () => {
    const stack = await createOrderStack();
    const { stream, pulled } = countedBody(new TextEncoder().encode(bigOrder(LINES)));
    expect(
      await postStream(stack, stream, { 'Content-Length': String(DEFAULT_ORDER_DOCUMENT_BYTES + 1) }),
    ).toEqual({ code: 406, text: 'Not Acceptable', detail: 'The document is larger than 16 MB.' });
    expect(pulled()).toBe(0);
  });

  it("a known buyer's 2 MB PunchOutSetupRequest is refused (406): only OrderRequests may be large", async () => {
    const stack = await createOrderStack();
    const big = setupRequest().replace(
      '<BuyerCookie>',
      `<!-- ${'x'.repeat(2 * 1024 * 1024)} --><BuyerCookie>`,
    );
    expect(statusOf(await stack.postCxml(big))).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is larger than 1 MB.',
    });
    const bytes = new TextEncoder().encode(big);
    const { stream, pulled } = countedBody(bytes);
    expect(await postStream(stack, stream, { 'Content-Length': String(bytes.byteLength) })).toMatchObject({
      code: 406,
      detail: 'The document is larger than 1 MB.',
    });
    expect(pulled()).toBeLessThanOrEqual(HEADER_SCAN_CHARS + CHUNK);
  });
});

describe('the head of a document', () => {
  it('is peeked up to its last whole tag, so a cut through a UTF-8 character still reads', () => {
    const document = new TextEncoder().encode(bigOrder(10).replaceAll('Print item', 'Druck € Stück'));
    const euro = document.indexOf(0xe2, 2000);
    const head = document.subarray(0, euro + 1);
    expect(() => peekCxmlHeader(head)).toThrow(/not valid UTF-8/);
    expect(peekCxmlHeader(wholeTags(head)).requestName).toBe('OrderRequest');
    expect(wholeTags(new TextEncoder().encode('no tag'))).toHaveLength(0);
  });
});

describe('orders.maxDocumentBytes', () => {
  const withOrders = (orders: Record<string, unknown>, store?: Record<string, unknown>) => ({
    ...testConfig(),
    orders,
    ...(store !== undefined && { store }),
  });

  it('defaults to 16 MiB, and to what a D1 row holds with a D1 store', () => {
    const parsed = parseGatewayConfig(testConfig());
    if (!parsed.ok) throw new Error('the test config does not parse');
    expect(orderDocumentLimit(parsed.config)).toBe(16 * 1024 * 1024);
    expect(orderDocumentLimit({ orders: {}, store: { kind: 'd1' } })).toBe(D1_ORDER_DOCUMENT_BYTES);
    expect(orderDocumentLimit({ orders: { maxDocumentBytes: 4_000_000 }, store: { kind: 'sqlite' } })).toBe(
      4_000_000,
    );
  });

  it('refuses nonsense: below 64 KiB, fractions, strings, huge, and more than a D1 row holds on D1', () => {
    for (const value of [0, -1, 1000, 64 * 1024 - 1, 2.5e6 + 0.5, '16MB', 1e12]) {
      const parsed = parseGatewayConfig(withOrders({ maxDocumentBytes: value }));
      expect(parsed.ok, `maxDocumentBytes ${String(value)}`).toBe(false);
      if (!parsed.ok) expect(parsed.problems.map((p) => p.path)).toContain('orders.maxDocumentBytes');
    }
    expect(
      crossReferenceProblems(
        withOrders({ maxDocumentBytes: 16 * 1024 * 1024 }, { kind: 'd1', binding: 'DB' }),
      ),
    ).toEqual([
      {
        path: 'orders.maxDocumentBytes',
        message: expect.stringContaining(`must be at most ${D1_ORDER_DOCUMENT_BYTES} with a D1 store`),
      },
    ]);
    expect(
      crossReferenceProblems(
        withOrders({ maxDocumentBytes: D1_ORDER_DOCUMENT_BYTES }, { kind: 'd1', binding: 'DB' }),
      ),
    ).toEqual([]);
  });
});
