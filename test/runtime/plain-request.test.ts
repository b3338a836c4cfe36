/**
 * What `parseCxmlRequest` returns is plain data: the same value inline, from the worker thread (which has no
 * code per request type), through `structuredClone` and through JSON, and exactly what the codec's zod
 * schema describes. Every request type, small and beyond the 8 KB the gateway parses inline on Node.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type CxmlRequest, cxmlRequestSchema, parseCxmlRequest } from '../../src/cxml/index.ts';
import { createOffThreadCxmlParser } from '../../src/runtime/node-cxml-parser.ts';
import { fixtureBytes, fixtureNames } from '../cxml/fixture-files.ts';
import { largeOrderRequest } from '../cxml/large-order-request.ts';
import { profileRequest, setupRequest } from '../support/cxml-documents.ts';

const MAX = { maxBytes: 16 * 1024 * 1024 };
const encode = (text: string) => new TextEncoder().encode(text);
const INLINE_LIMIT = 8 * 1024;

const bigSetup = setupRequest({
  operation: 'edit',
  items: Array.from({ length: 200 }, (_, i) => ({ sku: `BC-${i}`, lineRef: `L-${i}`, quantity: i + 1 })),
});
/** A ProfileRequest is small by nature: this one carries a long comment, which buyers' tools do write. */
const bigProfile = profileRequest().replace('<Request>', `<!-- ${'padding '.repeat(1200)}--><Request>`);

/** A StatusUpdateRequest over 8 KB: an accounts payable clerk's long comment on the invoice. */
const bigStatusUpdate = fixtureBytes('valid', 'status-update-request.invoice-rejected-by-id.xml');
const bigStatusText = new TextDecoder()
  .decode(bigStatusUpdate)
  .replace(
    'Shipping not on the PO.',
    `Shipping not on the PO. ${'Line 1 was not ordered at this price. '.repeat(250)}`,
  );

const documents: [string, Uint8Array][] = [
  ...fixtureNames('valid').map((name): [string, Uint8Array] => [name, fixtureBytes('valid', name)]),
  ['PunchOutSetupRequest over 8 KB', encode(bigSetup)],
  ['OrderRequest over 8 KB', encode(largeOrderRequest(30))],
  ['OrderRequest whose items cross in parts', encode(largeOrderRequest(2_500))],
  ['ProfileRequest over 8 KB', encode(bigProfile)],
  ['StatusUpdateRequest over 8 KB', encode(bigStatusText)],
];

/** Every number in `value` that is not a whole number (paths), and every value JSON has no place for. */
function notPlain(value: unknown, path = '$'): string[] {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? [] : [`${path}: ${value}`];
  if (typeof value === 'string' || typeof value === 'boolean') return [];
  if (Array.isArray(value)) return value.flatMap((each, i) => notPlain(each, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).flatMap(([key, each]) => notPlain(each, `${path}.${key}`));
  }
  return [`${path}: ${String(value)} (${typeof value})`];
}

const parser = createOffThreadCxmlParser();
afterAll(() => parser.close());

describe('a parsed cXML request is plain data', () => {
  it('the documents cover every request type, small and over 8 KB', () => {
    const kinds = documents.map(([, bytes]) => {
      const request = parseCxmlRequest(bytes, MAX);
      return `${request.kind} ${bytes.length > INLINE_LIMIT ? 'large' : 'small'}`;
    });
    expect(new Set(kinds)).toEqual(
      new Set(
        ['PunchOutSetupRequest', 'OrderRequest', 'ProfileRequest', 'StatusUpdateRequest'].flatMap((k) => [
          `${k} small`,
          `${k} large`,
        ]),
      ),
    );
  });

  it.each(documents)(
    '%s: inline, worker thread, structuredClone and JSON give the same value',
    async (_, bytes) => {
      const inline: CxmlRequest = parseCxmlRequest(bytes, MAX);
      expect(notPlain(inline)).toEqual([]);
      expect(await parser.parse(bytes, MAX)).toStrictEqual(inline);
      expect(structuredClone(inline)).toStrictEqual(inline);
      expect(JSON.parse(JSON.stringify(inline))).toStrictEqual(inline);
      // The schema's type is the request type, and the value is exactly what it describes: nothing stripped.
      expect(cxmlRequestSchema.parse(inline)).toStrictEqual(inline);
    },
  );
});
