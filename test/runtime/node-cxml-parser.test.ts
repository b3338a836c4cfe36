/**
 * cXML parsed on a worker thread (src/runtime/node-cxml-parser.ts): what comes back is what an inline
 * `parseCxmlRequest` gives — the request, or the same `CxmlError` code and message, so the buyer reads the
 * same Status text — and a worker that dies loses no document and hangs none: each is parsed inline then.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CxmlError, extrinsicValue, parseCxmlRequest } from '../../src/cxml/index.ts';
import { createOffThreadCxmlParser, type OffThreadCxmlParser } from '../../src/runtime/node-cxml-parser.ts';
import { largeOrderRequest } from '../cxml/large-order-request.ts';
import { setupRequest } from '../support/cxml-documents.ts';

const MAX = { maxBytes: 16 * 1024 * 1024 };
const encode = (text: string) => new TextEncoder().encode(text);
const parsers: OffThreadCxmlParser[] = [];
function parser(thread?: URL): OffThreadCxmlParser {
  const created = createOffThreadCxmlParser(thread === undefined ? {} : { thread });
  parsers.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(parsers.splice(0).map((p) => p.close()));
});

/** What inline parsing throws for `bytes`. */
function inlineError(bytes: Uint8Array): CxmlError {
  try {
    parseCxmlRequest(bytes, MAX);
  } catch (error) {
    if (error instanceof CxmlError) return error;
    throw error;
  }
  throw new Error('the document parsed');
}

async function offThreadError(p: OffThreadCxmlParser, bytes: Uint8Array): Promise<CxmlError> {
  const error = await p.parse(bytes, MAX).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CxmlError);
  return error as CxmlError;
}

describe('a document parsed on the worker thread', () => {
  it('a 5,000-line OrderRequest: the same request as inline, items in order', async () => {
    const bytes = encode(largeOrderRequest(5_000));
    const request = await parser().parse(bytes, MAX);
    expect(request).toStrictEqual(parseCxmlRequest(bytes, MAX));
    if (request.kind !== 'OrderRequest') throw new Error(`parsed as ${request.kind}`);
    expect(request.items).toHaveLength(5_000);
    expect(extrinsicValue(request.items[4_999]?.extrinsics ?? [], 'DESIGNID')).toBe('D-5000');
    expect(extrinsicValue(request.extrinsics, 'nothing')).toBeUndefined();
  });

  it('a small OrderRequest and a PunchOutSetupRequest come back whole too', async () => {
    const p = parser();
    const order = encode(largeOrderRequest(3));
    expect(await p.parse(order, MAX)).toStrictEqual(parseCxmlRequest(order, MAX));
    const setup = encode(setupRequest());
    const parsed = await p.parse(setup, MAX);
    expect(parsed).toStrictEqual(parseCxmlRequest(setup, MAX));
    if (parsed.kind !== 'PunchOutSetupRequest') throw new Error(`parsed as ${parsed.kind}`);
    const inline = parseCxmlRequest(setup, MAX);
    if (inline.kind !== 'PunchOutSetupRequest') throw new Error(`parsed as ${inline.kind}`);
    expect(extrinsicValue(parsed.extrinsics, 'userEmail')).toBe(
      extrinsicValue(inline.extrinsics, 'userEmail'),
    );
  });

  it('bad XML deep in a big document: the same CxmlError code and message as inline', async () => {
    const p = parser();
    // 2,000 lines (1.3 MB) is deep enough to be past any buffer a parser reads ahead, and each document is
    // parsed twice here: at 5,000 lines the case took 24 s of a loaded machine's time for no more cover.
    const broken = [
      largeOrderRequest(2_000).replace(
        '<Comments xml:lang="en">Line 1999</Comments>',
        '<Comments xml:lang="en">Line 1999</Coments>',
      ),
      largeOrderRequest(2_000).replace('quantity="5" lineNumber="1498"', 'quantity="many" lineNumber="1498"'),
      largeOrderRequest(2_000)
        .replace('<OrderRequest>', '<Unknown>')
        .replace('</OrderRequest>', '</Unknown>'),
    ];
    for (const text of broken) {
      const bytes = encode(text);
      const inline = inlineError(bytes);
      const error = await offThreadError(p, bytes);
      expect({ code: error.code, message: error.message }).toEqual({
        code: inline.code,
        message: inline.message,
      });
    }
  });

  it('documents posted together are each answered with their own request', async () => {
    const p = parser();
    const texts = [1, 200, 5, 1_000].map((lines) => largeOrderRequest(lines));
    const parsed = await Promise.all(texts.map((text) => p.parse(encode(text), MAX)));
    expect(parsed.map((r) => (r.kind === 'OrderRequest' ? r.items.length : -1))).toEqual([1, 200, 5, 1_000]);
  });
});

describe('a worker that dies', () => {
  it('mid-document: the document is parsed inline instead, neither lost nor left hanging', async () => {
    const p = parser(new URL('./crashing-parse-thread.ts', import.meta.url));
    const bytes = encode(largeOrderRequest(300));
    const [first, second] = await Promise.all([p.parse(bytes, MAX), p.parse(bytes, MAX)]);
    expect(first).toStrictEqual(parseCxmlRequest(bytes, MAX));
    expect(second).toStrictEqual(first);
    // The next document starts another worker, which dies the same way: still answered.
    expect((await p.parse(bytes, MAX)).payloadID).toBe(first.payloadID);
    const bad = encode(largeOrderRequest(300).replace('</Comments>', '</Coments>'));
    expect((await offThreadError(p, bad)).message).toBe(inlineError(bad).message);
  });

  it('as it starts: the same', async () => {
    const p = parser(new URL('./broken-parse-thread.ts', import.meta.url));
    const bytes = encode(largeOrderRequest(10));
    expect(await p.parse(bytes, MAX)).toStrictEqual(parseCxmlRequest(bytes, MAX));
  });

  it('ended by close() with documents in flight: they are parsed inline', async () => {
    const p = parser();
    const bytes = encode(largeOrderRequest(2_000));
    const pending = p.parse(bytes, MAX);
    await p.close();
    expect((await pending).payloadID).toBe(parseCxmlRequest(bytes, MAX).payloadID);
  });
});
