/**
 * The stored PO document is read back like data from the wire: what the intake writes reads back as the
 * codec's own values, a document an older punchgate wrote reads as today's shape, and a record that does not
 * match is an `internal` error naming the PO, never a half-read order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type OrderRequest, parseCxmlRequest } from '../../../src/cxml/index.ts';
import { GatewayError } from '../../../src/gateway/http/errors.ts';
import {
  type PoDocument,
  poDocument,
  readPoDocument,
  requestForStorage,
  storableDocument,
  storedRequest,
} from '../../../src/gateway/orders/po-record.ts';
import { type PurchaseOrder, toJson } from '../../../src/store/types.ts';
import { largeOrderRequest } from '../../cxml/large-order-request.ts';
import { legacyPoDocument } from '../../support/legacy-po-document.ts';

const VALID = new URL('../../../fixtures/cxml/valid/', import.meta.url);
const ORDER_FIXTURES = readdirSync(VALID).filter((name) => name.startsWith('order-request.'));

function orderRequest(name: string): OrderRequest {
  const request = parseCxmlRequest(readFileSync(new URL(name, VALID), 'utf8'));
  if (request.kind !== 'OrderRequest') throw new Error(`${name} is not an OrderRequest`);
  return request;
}

function storedOrder(document: unknown): PurchaseOrder {
  return {
    id: '42',
    buyerId: 'acme',
    payloadId: 'po-42@buyer.example',
    orderId: 'PO-42',
    deploymentMode: 'production',
    type: 'new',
    state: 'received',
    raw: '<cXML/>',
    document: toJson(document),
    answer: { code: 200, text: 'OK' },
    printOrderIds: [],
    createAttempts: [],
    flags: [],
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
}

const LINE: PoDocument['lines'][number] = {
  lineNumber: 1,
  lineRef: 'L-7K2M9Q',
  supplierPartID: 'BC-STD',
  description: 'Business cards',
  quantity: '500',
  unitOfMeasure: 'EA',
  unitPrice: { value: '0.12', currency: 'EUR' },
  shipTo: { name: 'Acme', deliverTo: ['Jane Roe'], street: ['Main St 1'], city: 'Berlin' },
  comments: '',
  storefrontId: 'demo',
  userRef: 'acme:jroe',
  designId: 7,
  cart: { sku: 'BC-STD', quantity: 500, unitPrice: '0.12', currency: 'EUR', state: 'cart' },
};

describe('the stored PO document', () => {
  it.each(ORDER_FIXTURES)('reads %s back as stored: the codec value without secrets or raw text', (name) => {
    const request = orderRequest(name);
    const stored = requestForStorage(request);
    const document: PoDocument = {
      request: stored,
      lines: [LINE],
      mismatches: [{ lineNumber: 1, lineRef: 'L-7K2M9Q', field: 'price', po: '0.12 EUR', cart: '0.10 EUR' }],
    };
    const order = storedOrder(document);
    expect(poDocument(order)).toStrictEqual(document);
    expect(JSON.stringify(order.document)).not.toMatch(/sharedSecret|"raw":"<\?xml/);
    const { raw: _raw, header: _header, ...rest } = request;
    expect(storedRequest(order)).toMatchObject(rest);
  });

  it.each(ORDER_FIXTURES)("reads %s as an older punchgate stored it as today's shape", (name) => {
    const document: PoDocument = {
      request: requestForStorage(orderRequest(name)),
      lines: [LINE],
      mismatches: [],
    };
    const legacy = legacyPoDocument(document);
    for (const old of ['"amount":', '"quantityNumber":', '"extrinsics":{"list":[', '"date":']) {
      expect(JSON.stringify(legacy)).toContain(old);
    }
    expect(poDocument(storedOrder(legacy))).toStrictEqual(document);
  });

  it('reads an older document whose amount JSON could not write (stored as null)', () => {
    const request = requestForStorage(orderRequest('order-request.update.xml'));
    const value = '9'.repeat(400);
    const document: PoDocument = {
      request: { ...request, total: { value, currency: 'EUR' } },
      lines: [],
      mismatches: [],
    };
    const legacy = legacyPoDocument(document);
    expect(JSON.stringify(legacy)).toContain('"amount":null');
    expect(storedRequest(storedOrder(legacy)).total).toStrictEqual({ value, currency: 'EUR' });
  });

  it('refuses a record that does not match with an internal error naming the PO and the fields', () => {
    const request = requestForStorage(orderRequest('order-request.update.xml'));
    const order = storedOrder({
      request: { ...request, total: { value: 1, currency: 'EUR' } },
      lines: [{ ...LINE, quantity: 500 }],
      mismatches: [],
    });
    let thrown: unknown;
    try {
      poDocument(order);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    expect((thrown as GatewayError).code).toBe('internal');
    expect((thrown as GatewayError).message).toBe(
      'PO record 42 (orderID PO-42) has a stored document this punchgate cannot read: ' +
        'request.total.value: Invalid input: expected string, received number; ' +
        'lines.0.quantity: Invalid input: expected string, received number',
    );
  });

  it('reads a document the intake wrote as it is, without checking it again', async () => {
    const document: PoDocument = {
      request: requestForStorage(orderRequest('order-request.update.xml')),
      lines: [LINE],
      mismatches: [],
    };
    const stored = storableDocument(document);
    expect(stored).toStrictEqual({ ...document, shape: 2 });
    const order = { ...storedOrder(document), document: stored };
    expect(poDocument(order)).toBe(stored);
    expect(await readPoDocument(order)).toBe(stored);
    // Without the mark (an older punchgate's) or with another (a newer one's) it is checked.
    for (const shape of [undefined, 3]) {
      const unmarked = storedOrder({ ...document, lines: [{ ...LINE, quantity: 500 }], shape });
      expect(() => poDocument(unmarked)).toThrow(/lines\.0\.quantity: Invalid input: expected string/);
    }
  });

  it('refuses a record without a document', () => {
    expect(() => poDocument(storedOrder({}))).toThrow(
      /^PO record 42 \(orderID PO-42\) has a stored document this punchgate cannot read: request: /,
    );
  });
});

describe('the stored document of a big PO, read by the job in slices (readPoDocument)', () => {
  const big = (lines: number): PoDocument => {
    const request = parseCxmlRequest(largeOrderRequest(lines), { maxBytes: 16 * 1024 * 1024 });
    if (request.kind !== 'OrderRequest') throw new Error('not an OrderRequest');
    const stored = requestForStorage(request);
    return {
      request: stored,
      lines: Array.from({ length: lines }, (_, i) => ({ ...LINE, lineNumber: i + 1, lineRef: `L-${i}` })),
      mismatches: [{ lineNumber: 1, lineRef: 'L-0', field: 'price', po: '0.12 EUR', cart: '0.10 EUR' }],
    };
  };

  it('gives what poDocument gives, and later poDocument calls the same object', async () => {
    for (const lines of [3, 1_200]) {
      const order = storedOrder(big(lines));
      const sliced = await readPoDocument(order);
      expect(sliced).toStrictEqual(poDocument(storedOrder(big(lines))));
      expect(poDocument(order)).toBe(sliced);
    }
  });

  it("reads a big document an older punchgate stored as today's shape too", async () => {
    const document = big(1_200);
    expect(await readPoDocument(storedOrder(legacyPoDocument(document)))).toStrictEqual(document);
  });

  it('a big document that does not check out: the same internal error as poDocument', async () => {
    const document = big(1_200);
    const broken = {
      ...document,
      lines: document.lines.map((line, i) => (i === 1_100 ? { ...line, quantity: 500 } : line)),
    };
    const expected = (() => {
      try {
        poDocument(storedOrder(broken));
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(expected).toMatch(/lines\.1100\.quantity/);
    await expect(readPoDocument(storedOrder(broken))).rejects.toThrow(expected);
  });
});
