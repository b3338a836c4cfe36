/**
 * A confirmation that states a price per N (the PO line's PriceBasisQuantity): Fulfill.dtd gives a
 * ConfirmationStatus's bare UnitPrice no basis, so the line goes as an ItemIn whose ItemDetail carries the
 * price and its basis together; the document is Fulfill.dtd-valid, says 120.00 per 1,000 (never a bare
 * 120.00 a piece), and reads back as a status with a price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildConfirmationRequest,
  type ConfirmationItemInput,
  type CxmlHeader,
  readConfirmationRequest,
} from '../../src/cxml/index.ts';
import { attr, child, children, descend, text } from '../../src/cxml/xml-node.ts';
import { parseXmlTree } from '../../src/cxml/xml-tree.ts';
import { disposeDtdValidators, requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const header: CxmlHeader = {
  from: [{ domain: 'NetworkID', identity: 'AN02000000002' }],
  to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
  sender: {
    credentials: [{ domain: 'NetworkID', identity: 'AN02000000002', sharedSecret: 'punchgate-secret' }],
    userAgent: 'punchgate 0.1',
  },
};

function confirmation(status: readonly ConfirmationItemInput[]): string {
  return buildConfirmationRequest({
    payloadID: '1714557600000.k3j9x2@punchgate.example',
    timestamp: new Date('2024-05-01T10:00:00Z'),
    header,
    type: 'detail',
    confirmID: 'PRINT-100042-1',
    noticeDate: new Date('2024-05-03T11:00:00Z'),
    orderID: '0004500123',
    orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
    items: status,
  });
}

describe('a confirmed price per 1,000', () => {
  it('goes as an ItemIn with UnitPrice and PriceBasisQuantity, never as a bare per-piece UnitPrice', () => {
    const xml = confirmation([
      {
        lineNumber: 1,
        quantity: '2500',
        unitOfMeasure: 'EA',
        statuses: [
          {
            type: 'detail',
            itemIn: {
              quantity: '2500',
              lineNumber: 1,
              supplierPartID: 'BC-STD',
              supplierPartAuxiliaryID: 'L-4TQ8ZX',
              unitPrice: { value: '45.20', currency: 'EUR' },
              description: 'Business cards',
              unitOfMeasure: 'EA',
              priceBasis: { quantity: '1000', conversionFactor: '1', unitOfMeasure: 'EA' },
              classifications: [{ domain: 'UNSPSC', code: '82121512' }],
            },
          },
        ],
      },
    ]);
    expect(validateAgainstDtd(xml, 'Fulfill')).toEqual({ ok: true, messages: '' });
    const status = descend(
      child(parseXmlTree(xml), 'cXML'),
      'Request',
      'ConfirmationRequest',
      'ConfirmationItem',
      'ConfirmationStatus',
    );
    expect(children(status, 'UnitPrice')).toEqual([]);
    const detail = descend(status, 'ItemIn', 'ItemDetail');
    expect(text(descend(detail, 'UnitPrice', 'Money'))).toBe('45.20');
    const basis = child(detail, 'PriceBasisQuantity');
    expect([attr(basis, 'quantity'), attr(basis, 'conversionFactor')]).toEqual(['1000', '1']);
    expect(text(child(basis, 'UnitOfMeasure'))).toBe('EA');
    // Read back (what the gateway holds the buyer to have been told), the status has a price.
    const [item] = readConfirmationRequest(xml).items;
    expect(item?.statuses?.[0]).toMatchObject({
      type: 'detail',
      unitPrice: { value: '45.20', currency: 'EUR' },
    });
  });

  it('a price of one unit stays the bare UnitPrice it was', () => {
    const xml = confirmation([
      {
        lineNumber: 1,
        quantity: '500',
        unitOfMeasure: 'EA',
        statuses: [{ type: 'detail', unitPrice: { value: '0.09', currency: 'USD' } }],
      },
    ]);
    expect(validateAgainstDtd(xml, 'Fulfill')).toEqual({ ok: true, messages: '' });
    expect(xml.replace(/>\s+</g, '><')).toContain(
      '<UnitPrice><Money currency="USD">0.09</Money></UnitPrice>',
    );
    expect(xml).not.toContain('<ItemIn');
  });
});
