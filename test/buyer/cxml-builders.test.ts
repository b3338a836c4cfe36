import {
  ARIBA_PROFILE,
  buildOrderRequest,
  buildSetupRequest,
  buyerTimestamp,
  COUPA_PROFILE,
  DEMO_USERS,
  type RequisitionLine,
  SAP_PROFILE,
} from '@punchgate/sandbox/buyer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extrinsicValue,
  type OrderRequest,
  type PunchOutSetupRequest,
  parseCxmlRequest,
} from '../../src/cxml/index.ts';
import { disposeDtdValidators, requireDtdValidator, validateAgainstDtd } from '../support/dtd-validation.ts';

const NOW = new Date('2026-11-22T09:00:00Z');
const [JANE, MAX] = DEMO_USERS as [(typeof DEMO_USERS)[number], (typeof DEMO_USERS)[number]];

const cardLine: RequisitionLine = {
  source: 'cxml',
  supplierPartID: 'BC-STD',
  supplierPartAuxiliaryID: ' L7K2QX ',
  description: 'Business cards <script>alert("x")</script> & co',
  shortName: 'Cards',
  quantity: '500',
  unitPrice: '0.09',
  currency: 'USD',
  unitOfMeasure: 'EA',
  classifications: [{ domain: 'UNSPSC', code: '82121512' }],
  manufacturerPartID: 'MP-1',
  url: 'http://sandbox.test/proof/9',
  leadTime: '5',
  extrinsics: [{ name: 'designId', value: '9' }],
};

const ociLine: RequisitionLine = {
  source: 'oci',
  supplierPartID: 'FLY-A5',
  supplierPartAuxiliaryID: 'M3P9ZA',
  description: 'A5 Flyer für Müller',
  longText: 'A5 Flyer für Müller, 135 g matt',
  quantity: '250',
  unitPrice: '0.35',
  currency: 'EUR',
  unitOfMeasure: 'ST',
  classifications: [{ domain: 'UNSPSC', code: '82121503' }],
  extrinsics: [],
};

function setup(xml: string): PunchOutSetupRequest {
  const request = parseCxmlRequest(xml);
  if (request.kind !== 'PunchOutSetupRequest') throw new Error(`parsed as ${request.kind}`);
  return request;
}

function order(xml: string): OrderRequest {
  const request = parseCxmlRequest(xml);
  if (request.kind !== 'OrderRequest') throw new Error(`parsed as ${request.kind}`);
  return request;
}

/**
 * The profiles declare the versions their systems send (1.2.014, 1.2.044, 1.2.050); the vendored DTD is
 * 1.2.071, which accepts everything the older ones do, so the DOCTYPE is pointed at it for validation.
 */
function dtdVerdict(xml: string): { ok: boolean; messages: string } {
  return validateAgainstDtd(xml.replace(/schemas\/cXML\/1\.2\.\d{3}\//, 'schemas/cXML/1.2.071/'), 'cXML');
}

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

describe('buyerTimestamp', () => {
  it.each([
    ['Z', '2026-11-22T09:00:00Z'],
    ['-08:00', '2026-11-22T01:00:00-08:00'],
    ['+01:00', '2026-11-22T10:00:00+01:00'],
  ])('writes zone %s', (zone, expected) => {
    expect(buyerTimestamp(NOW, zone)).toBe(expected);
  });

  it('refuses a zone it cannot write', () => {
    expect(() => buyerTimestamp(NOW, 'PST')).toThrow('timeZone must be Z or ±hh:mm, got "PST"');
  });
});

describe('PunchOutSetupRequest', () => {
  const ariba = buildSetupRequest({
    profile: ARIBA_PROFILE,
    user: JANE,
    operation: 'create',
    buyerCookie: 'c0ffee42',
    browserFormPost: 'http://buyer.test/buyer/requisitions/REQ-1/cart?a=1&b=2',
    payloadID: '1795338000000.abc@app299.eu1.ariba.example',
    timestamp: NOW,
  });

  it('is what the gateway reads as an Ariba create: credentials, cookie, return URL, extrinsics, ship-to', () => {
    const request = setup(ariba);
    expect(request.operation).toBe('create');
    expect(request.buyerCookie).toBe('c0ffee42');
    expect(request.browserFormPost).toBe('http://buyer.test/buyer/requisitions/REQ-1/cart?a=1&b=2');
    expect(request.header.from.map((c) => `${c.domain}:${c.identity}`)).toEqual([
      'SystemID:ACME-PROD',
      'NetworkID:AN01000000001',
      'EndPointID:Ariba',
    ]);
    expect(request.header.sender.credentials.map((c) => c.sharedSecret)).toEqual([
      'acme-secret',
      'acme-secret',
    ]);
    expect(request.header.sender.userAgent).toBe('Buyer 14s2');
    expect(extrinsicValue(request.extrinsics, 'UniqueName')).toBe('jroe');
    expect(extrinsicValue(request.extrinsics, 'UserEmail')).toBe('jane.roe@acme.example');
    expect(request.shipTo?.name).toBe('0100');
    expect(request.shipTo?.deliverTo).toEqual(['Jane Roe']);
    expect(request.returnFrame).toBeUndefined();
    expect(request.timestamp.raw).toBe('2026-11-22T01:00:00-08:00');
  });

  it("carries Ariba's encoder comments and no encoding in the declaration", () => {
    expect(
      ariba.startsWith(
        '<?xml version="1.0"?>\n<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.044/cXML.dtd">',
      ),
    ).toBe(true);
    expect(ariba).toContain('<Header>\n    <!-- class: ariba.encoder.xml.AXComponent -->');
    expect(ariba.match(/ariba\.encoder/g)?.length).toBeGreaterThan(10);
  });

  it('is valid against the cXML DTD', () => {
    expect(dtdVerdict(ariba)).toEqual({ ok: true, messages: '' });
  });

  it('is what the gateway reads as a Coupa create: one DUNS credential, Z time, contact', () => {
    const xml = buildSetupRequest({
      profile: COUPA_PROFILE,
      user: MAX,
      operation: 'create',
      buyerCookie: 'c1',
      browserFormPost: 'http://buyer.test/buyer/requisitions/REQ-2/cart',
      payloadID: '1795338000000.def@acme.coupahost.example',
      timestamp: NOW,
    });
    const request = setup(xml);
    expect(request.timestamp.raw).toBe('2026-11-22T09:00:00Z');
    expect(request.header.from).toEqual([{ domain: 'DUNS', identity: 'COUPA-ACME' }]);
    expect(request.header.sender.credentials[0]?.sharedSecret).toBe('coupa-secret');
    expect(request.header.sender.userAgent).toBe('Coupa Procurement 1.0');
    expect(request.extrinsics.map((e) => e.name)).toEqual([
      'FirstName',
      'LastName',
      'UniqueName',
      'UserEmail',
      'User',
      'BusinessUnit',
    ]);
    expect(extrinsicValue(request.extrinsics, 'LastName')).toBe('Müller');
    expect(request.contacts).toEqual([
      { role: 'endUser', name: 'Max Müller', emails: ['max.mueller@acme.example'] },
    ]);
    expect(request.shipTo).toBeUndefined();
    expect(request.returnFrame).toBeUndefined();
    expect(xml).not.toContain('<!--');
    expect(dtdVerdict(xml)).toEqual({ ok: true, messages: '' });
  });

  it('reopens the cart on edit with ItemOut lines carrying part id, the raw auxiliary id and quantity', () => {
    const xml = buildSetupRequest({
      profile: ARIBA_PROFILE,
      user: JANE,
      operation: 'edit',
      buyerCookie: 'c2',
      browserFormPost: 'http://buyer.test/buyer/requisitions/REQ-1/cart',
      payloadID: '1795338000000.ghi@app299.eu1.ariba.example',
      timestamp: NOW,
      lines: [cardLine, ociLine],
    });
    const request = setup(xml);
    expect(request.operation).toBe('edit');
    expect(
      request.itemOut.map((i) => [i.lineNumber, i.supplierPartID, i.supplierPartAuxiliaryID, i.quantity]),
    ).toEqual([
      [1, 'BC-STD', ' L7K2QX ', '500'],
      [2, 'FLY-A5', 'M3P9ZA', '250'],
    ]);
    expect(request.itemOut[0]?.description).toBe('Business cards <script>alert("x")</script> & co');
    expect(dtdVerdict(xml)).toEqual({ ok: true, messages: '' });
  });

  it('leaves the lines out of a create', () => {
    const xml = buildSetupRequest({
      profile: COUPA_PROFILE,
      user: JANE,
      operation: 'create',
      buyerCookie: 'c3',
      browserFormPost: 'http://buyer.test/x',
      payloadID: '1.x@acme.coupahost.example',
      timestamp: NOW,
      lines: [cardLine],
    });
    expect(setup(xml).itemOut).toEqual([]);
  });

  it('sends ReturnFrame when a profile has one', () => {
    const xml = buildSetupRequest({
      profile: { ...COUPA_PROFILE, returnFrame: 'procurement_frame' },
      user: JANE,
      operation: 'create',
      buyerCookie: 'c4',
      browserFormPost: 'http://buyer.test/x',
      payloadID: '1.y@acme.coupahost.example',
      timestamp: NOW,
    });
    expect(setup(xml).returnFrame).toBe('procurement_frame');
  });
});

describe('OrderRequest', () => {
  it('echoes the ItemIn detail and carries header, addresses, contact, comments and extrinsics (Ariba)', () => {
    const xml = buildOrderRequest({
      profile: ARIBA_PROFILE,
      user: JANE,
      orderID: 'PO-1001',
      requisitionId: 'REQ-1',
      payloadID: '1795338000000.po@app299.eu1.ariba.example',
      timestamp: NOW,
      lines: [cardLine],
      comments: 'Deliver to "Dock 3" & ring <twice>',
    });
    const request = order(xml);
    expect(request.orderID).toBe('PO-1001');
    expect(request.payloadID).toBe('1795338000000.po@app299.eu1.ariba.example');
    expect(request.type).toBe('new');
    expect(request.total).toEqual({ value: '45.00', currency: 'USD' });
    expect(request.shipTo?.name).toBe('0100');
    expect(request.billTo?.city).toBe('San Francisco');
    expect(request.contacts[0]?.emails).toEqual(['jane.roe@acme.example']);
    expect(request.comments).toBe('Deliver to "Dock 3" & ring <twice>');
    expect(extrinsicValue(request.extrinsics, 'CostCenter')).toBe('CC-4711');
    expect(request.header.sender.credentials[1]?.sharedSecret).toBe('acme-secret');
    const item = request.items[0];
    expect(item).toMatchObject({
      lineNumber: 1,
      quantity: '500',
      supplierPartID: 'BC-STD',
      supplierPartAuxiliaryID: ' L7K2QX ',
      unitPrice: { value: '0.09', currency: 'USD' },
      description: 'Business cards <script>alert("x")</script> & co',
      shortName: 'Cards',
      unitOfMeasure: 'EA',
      classifications: [{ domain: 'UNSPSC', code: '82121512' }],
      manufacturerPartID: 'MP-1',
    });
    expect(extrinsicValue(item?.extrinsics ?? [], 'designId')).toBe('9');
    expect(xml).toContain('<URL>http://sandbox.test/proof/9</URL>');
    expect(xml).toContain('<LeadTime>5</LeadTime>');
    expect(dtdVerdict(xml)).toEqual({ ok: true, messages: '' });
  });

  it("sends SAP's order with its own credentials, ISO units and the long text as line comments", () => {
    const xml = buildOrderRequest({
      profile: SAP_PROFILE,
      user: MAX,
      orderID: 'PO-1002',
      requisitionId: 'REQ-2',
      payloadID: '1795338000000.po@srm.acme.example',
      timestamp: NOW,
      lines: [
        ociLine,
        {
          ...ociLine,
          supplierPartAuxiliaryID: 'Q1',
          quantity: '0.5',
          unitPrice: '31',
          priceBasis: { quantity: '3', conversionFactor: '1', unitOfMeasure: 'ST' },
        },
      ],
      comments: '',
    });
    const request = order(xml);
    expect(request.header.from).toEqual([{ domain: 'NetworkID', identity: 'SAP1-ORDERS' }]);
    expect(request.header.sender.credentials[0]?.sharedSecret).toBe('sap1-order-secret');
    expect(request.header.sender.userAgent).toBe('SAP SRM 7.0');
    expect(request.timestamp.raw).toBe('2026-11-22T10:00:00+01:00');
    expect(request.items.map((i) => i.unitOfMeasure)).toEqual(['EA', 'EA']);
    expect(request.items[0]?.comments).toBe('A5 Flyer für Müller, 135 g matt');
    expect(request.items[0]?.description).toBe('A5 Flyer für Müller');
    // The OCI price per PRICEUNIT 3 is repeated as quoted, in the PO's unit; each line's amount is rounded
    // once to the cent as the buyer's system books it: 87.50 + 0.5 × 31 ÷ 3 (5.1666…) = 92.67.
    expect(request.items[1]?.unitPrice.value).toBe('31');
    expect(request.items[1]?.priceBasis).toEqual({
      quantity: '3',
      conversionFactor: '1',
      unitOfMeasure: 'EA',
    });
    expect(request.total.value).toBe('92.67');
    expect(request.comments).toBe('');
    expect(request.shipTo?.street).toEqual(['Müllerstraße 12']);
    expect(dtdVerdict(xml)).toEqual({ ok: true, messages: '' });
  });

  it('refuses an order without lines', () => {
    expect(() =>
      buildOrderRequest({
        profile: COUPA_PROFILE,
        user: JANE,
        orderID: 'PO-1',
        requisitionId: 'R',
        payloadID: '1.p@x',
        timestamp: NOW,
        lines: [],
        comments: '',
      }),
    ).toThrow('An OrderRequest needs at least one line');
  });
});
