import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildConfirmationRequest,
  buildNoChangeOrderMessage,
  buildOrderMessage,
  buildProfileResponse,
  buildSetupResponse,
  buildShipNoticeRequest,
  buildStatusResponse,
  type CxmlHeader,
  newPayloadId,
  readConfirmationRequest,
  type OrderMessageInput,
} from '../../src/cxml/index.ts';
import {
  type DtdModule,
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../support/dtd-validation.ts';

const envelope = {
  payloadID: '1714557600000.k3j9x2@punchgate.example',
  timestamp: new Date('2024-05-01T10:00:00Z'),
};

/** The buyer's header as punchgate echoes it into the cart: the buyer's secret must not travel on. */
const cartHeader: CxmlHeader = {
  from: [
    { domain: 'NetworkID', identity: 'AN01000000001' },
    { domain: 'SystemID', identity: 'ACME-ERP' },
  ],
  to: [{ domain: 'NetworkID', identity: 'AN02000000002' }],
  sender: {
    credentials: [{ domain: 'NetworkID', identity: 'AN02000000002', sharedSecret: 'punchgate-secret' }],
    userAgent: 'punchgate 0.1',
  },
};

/** punchgate writing to the buyer server to server: here the Sender secret is required. */
const supplierHeader: CxmlHeader = {
  from: [{ domain: 'NetworkID', identity: 'AN02000000002' }],
  to: [{ domain: 'NetworkID', identity: 'AN01000000001' }],
  sender: {
    credentials: [{ domain: 'NetworkID', identity: 'AN02000000002', sharedSecret: 'punchgate-secret' }],
    userAgent: 'punchgate 0.1',
  },
};

const awkward = `Müller & Söhne <"Spring"> 'sale' — 名刺 🖨`;

const cart: OrderMessageInput = {
  ...envelope,
  header: cartHeader,
  buyerCookie: '\n  1CX3L4843PPZO & <co> \n',
  operationAllowed: 'edit',
  inReplyTo: '1714557500000.1@ariba.example',
  total: { value: '208.90', currency: 'EUR' },
  shipping: { value: '9.90', currency: 'EUR', description: 'DHL Standard' },
  tax: { value: '0.00', currency: 'EUR', description: 'VAT reverse charge' },
  items: [
    {
      quantity: 500,
      lineNumber: 1,
      supplierPartID: 'BC-STD',
      supplierPartAuxiliaryID: 'L-7K2M9Q',
      unitPrice: { value: '0.118', currency: 'EUR' },
      description: awkward,
      shortName: 'Business cards',
      unitOfMeasure: 'EA',
      classifications: [{ domain: 'UNSPSC', code: '82121500' }],
      manufacturerPartID: 'BC-STD-350',
      manufacturerName: 'PrintCo',
      url: 'https://punchgate.example/proof/L-7K2M9Q?size=large&page=1',
      leadTimeDays: 5,
      extrinsics: [
        { name: 'designId', value: '0098123' },
        { name: 'proofUrl', value: 'https://print.example/proof?id=0098123&v=2' },
      ],
    },
    {
      quantity: '2.5',
      supplierPartID: 'FLY-A5',
      supplierPartAuxiliaryID: 'L-9WX3RT',
      unitPrice: { value: '40.00', currency: 'EUR' },
      description: 'Flyer A5, 1000 per pack',
      unitOfMeasure: 'PK',
      classifications: [{ domain: 'UNSPSC', code: '82121500' }],
    },
  ],
};

/** An independent reader for what the builders wrote: standard entity and character-reference decoding. */
function reader(trimValues: boolean): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    trimValues,
    htmlEntities: true,
    isArray: (name) =>
      ['ItemIn', 'Extrinsic', 'Credential', 'Transaction', 'ShipmentIdentifier'].includes(name),
  });
}

const readBack = reader(true);
const readBackUntrimmed = reader(false);

// biome-ignore lint/suspicious/noExplicitAny: the read-back tree is checked by tests, not typed.
function tree(xml: string): any {
  return readBack.parse(xml);
}

const documents: Record<string, { xml: string; dtd: DtdModule }> = {
  'status response 200': { xml: buildStatusResponse({ ...envelope, code: 200, text: 'OK' }), dtd: 'cXML' },
  'status response 406 with detail': {
    xml: buildStatusResponse({
      ...envelope,
      code: 406,
      text: 'Not Acceptable',
      detail: `</BuyerCook> & ${awkward}`,
    }),
    dtd: 'cXML',
  },
  'setup response': {
    xml: buildSetupResponse({ ...envelope, startPageUrl: 'https://punchgate.example/s/tok?x=1&y=2' }),
    dtd: 'cXML',
  },
  'profile response': {
    xml: buildProfileResponse({
      ...envelope,
      effectiveDate: '2024-01-01T00:00:00+01:00',
      options: [{ name: 'Locale', value: 'en-US' }],
      transactions: [
        { requestName: 'ProfileRequest', url: 'https://punchgate.example/cxml' },
        {
          requestName: 'PunchOutSetupRequest',
          url: 'https://punchgate.example/cxml',
          options: [{ name: 'operationAllowed', value: 'create edit inspect' }],
        },
        { requestName: 'OrderRequest', url: 'https://punchgate.example/cxml' },
      ],
    }),
    dtd: 'cXML',
  },
  'order message': { xml: buildOrderMessage(cart), dtd: 'cXML' },
  'order message, ASCII only': { xml: buildOrderMessage({ ...cart, asciiOnly: true }), dtd: 'cXML' },
  'order message, empty cart on create': {
    xml: buildOrderMessage({
      ...cart,
      operationAllowed: 'create',
      total: { value: '0.00', currency: 'EUR' },
      items: [],
      deploymentMode: 'test',
    }),
    dtd: 'cXML',
  },
  'no-change order message': {
    xml: buildNoChangeOrderMessage({
      ...envelope,
      header: cartHeader,
      buyerCookie: 'c1',
      operationAllowed: 'edit',
      currency: 'EUR',
    }),
    dtd: 'cXML',
  },
  'confirmation accept': {
    xml: buildConfirmationRequest({
      ...envelope,
      header: supplierHeader,
      type: 'accept',
      confirmID: 'PRINT-100042',
      noticeDate: new Date('2024-05-03T11:00:00Z'),
      orderID: '0004500123',
      orderDate: '2024-05-03T12:30:00+02:00',
      orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
      comments: 'Accepted & queued for print.',
    }),
    dtd: 'Fulfill',
  },
  'confirmation reject': {
    xml: buildConfirmationRequest({
      ...envelope,
      header: supplierHeader,
      type: 'reject',
      noticeDate: '2024-05-03T13:00:00+02:00',
      orderID: '0004500123',
      orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
      comments: 'Design L-4TQ8ZX was deleted before the order arrived.',
    }),
    dtd: 'Fulfill',
  },
  'confirmation detail rejecting a line': {
    xml: buildConfirmationRequest({
      ...envelope,
      header: supplierHeader,
      type: 'detail',
      confirmID: '100042-2',
      version: 1,
      noticeDate: new Date('2024-05-05T09:00:00Z'),
      orderID: '0004500123',
      orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
      comments: 'Print order 100043 was cancelled by the supplier (status "Cancelled").',
      items: [
        {
          lineNumber: 2,
          quantity: 250,
          unitOfMeasure: 'EA',
          statuses: [{ type: 'reject', comments: 'Print order 100043 was cancelled by the supplier.' }],
        },
      ],
    }),
    dtd: 'Fulfill',
  },
  'confirmation detail': {
    xml: buildConfirmationRequest({
      ...envelope,
      header: supplierHeader,
      type: 'detail',
      operation: 'update',
      amends: '1714800000000.1@punchgate.example',
      confirmID: 'PRINT-100042',
      version: 2,
      noticeDate: new Date('2024-05-04T08:00:00Z'),
      orderID: '0004500123',
      orderDate: new Date('2024-05-03T10:30:00Z'),
      orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
      total: { value: '318.90', currency: 'EUR' },
      shipping: { value: '9.90', currency: 'EUR', description: 'DHL Standard' },
      extrinsics: [{ name: 'printOrderId', value: '100042' }],
      items: [
        {
          lineNumber: 1,
          quantity: 500,
          unitOfMeasure: 'EA',
          statuses: [
            {
              type: 'detail',
              quantity: 300,
              deliveryDate: '2024-05-10T12:00:00+02:00',
              unitPrice: { value: '0.118', currency: 'EUR' },
            },
            {
              type: 'backordered',
              quantity: 200,
              deliveryDate: '2024-05-17T12:00:00+02:00',
              comments: 'Paper shortage',
            },
          ],
        },
        {
          lineNumber: 2,
          quantity: '2.5',
          unitOfMeasure: 'PK',
          statuses: [{ type: 'accept', shipmentDate: new Date('2024-05-08T16:00:00Z') }],
        },
      ],
    }),
    dtd: 'Fulfill',
  },
  'ship notice': {
    xml: buildShipNoticeRequest({
      ...envelope,
      header: supplierHeader,
      shipmentID: 'SH-100042-1',
      noticeDate: new Date('2024-05-08T16:05:00Z'),
      shipmentDate: new Date('2024-05-08T16:00:00Z'),
      deliveryDate: '2024-05-10T12:00:00+02:00',
      carrier: { name: 'DHL', scac: 'DHLC' },
      service: 'Express',
      trackingNumbers: ['00340434161094042557', '00340434161094042558'],
      trackingUrl: 'https://track.example/?id=00340434161094042557&lang=en',
      comments: 'Two parcels.',
      orderID: '0004500123',
      orderDate: '2024-05-03T12:30:00+02:00',
      orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
      lines: [
        {
          lineNumber: 1,
          quantity: 500,
          unitOfMeasure: 'EA',
          supplierPartID: 'BC-STD',
          supplierPartAuxiliaryID: 'L-7K2M9Q',
        },
        { lineNumber: 2, quantity: '2.5', unitOfMeasure: 'PK' },
      ],
    }),
    dtd: 'Fulfill',
  },
  'ship notice without tracking': {
    xml: buildShipNoticeRequest({
      ...envelope,
      header: supplierHeader,
      shipmentID: 'SH-100042-2',
      noticeDate: new Date('2024-05-08T16:05:00Z'),
      carrier: { name: 'Local courier' },
      trackingNumbers: [],
      orderID: '0004500123',
      orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
      lines: [{ lineNumber: 3, quantity: 1, unitOfMeasure: 'EA' }],
    }),
    dtd: 'Fulfill',
  },
};

function xmlOf(name: string): string {
  const document = documents[name];
  if (document === undefined) throw new Error(`no document named ${name}`);
  return document.xml;
}

describe('every built document is valid against the official cXML 1.2.071 DTD', () => {
  beforeAll(() => requireDtdValidator());
  afterAll(() => disposeDtdValidators());

  it.each(Object.keys(documents))('%s', (name) => {
    const document = documents[name];
    if (document === undefined) throw new Error(name);
    const verdict = validateAgainstDtd(document.xml, document.dtd);
    expect(verdict.messages).toBe('');
    expect(verdict.ok).toBe(true);
  });

  it('the validator does refuse a document whose elements are out of DTD order', () => {
    const swapped = xmlOf('order message').replace(
      /(<UnitOfMeasure>EA<\/UnitOfMeasure>)(\s*)(<Classification[^>]*>[^<]*<\/Classification>)/,
      '$3$2$1',
    );
    expect(swapped).not.toBe(xmlOf('order message'));
    const verdict = validateAgainstDtd(swapped, 'cXML');
    expect(verdict.ok).toBe(false);
    expect(verdict.messages).toContain('Element ItemDetail content does not follow the DTD');
  });
});

describe('the envelope', () => {
  it('writes a UTF-8 declaration, the DOCTYPE and the root, with no BOM', () => {
    for (const { xml, dtd } of Object.values(documents)) {
      expect(xml.charCodeAt(0)).not.toBe(0xfeff);
      expect(xml.split('\n').slice(0, 3)).toEqual([
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/${dtd}.dtd">`,
        '<cXML version="1.2.071" payloadID="1714557600000.k3j9x2@punchgate.example" timestamp="2024-05-01T10:00:00+00:00" xml:lang="en-US">',
      ]);
    }
  });

  it('writes a bare Status response exactly', () => {
    expect(buildStatusResponse({ ...envelope, code: 200, text: 'OK' })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.071/cXML.dtd">\n' +
        '<cXML version="1.2.071" payloadID="1714557600000.k3j9x2@punchgate.example" timestamp="2024-05-01T10:00:00+00:00" xml:lang="en-US">\n' +
        '  <Response>\n' +
        '    <Status code="200" text="OK"/>\n' +
        '  </Response>\n' +
        '</cXML>\n',
    );
  });

  it('takes the version, language and an offset timestamp from the caller', () => {
    const xml = buildStatusResponse({
      payloadID: 'p@h',
      timestamp: '2024-05-01T12:00:00+02:00',
      lang: 'de-DE',
      dtdVersion: '1.2.014',
      code: 201,
      text: 'Accepted',
    });
    expect(xml).toContain('<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">');
    expect(xml).toContain(
      '<cXML version="1.2.014" payloadID="p@h" timestamp="2024-05-01T12:00:00+02:00" xml:lang="de-DE">',
    );
  });

  it('refuses a Z timestamp string and other misuse as TypeErrors', () => {
    const status = { code: 200, text: 'OK' };
    expect(() => buildStatusResponse({ ...envelope, ...status, timestamp: '2024-05-01T10:00:00Z' })).toThrow(
      TypeError,
    );
    expect(() => buildStatusResponse({ ...envelope, ...status, payloadID: ' ' })).toThrow(TypeError);
    expect(() => buildStatusResponse({ ...envelope, ...status, dtdVersion: '1.2' })).toThrow(TypeError);
    expect(() => buildStatusResponse({ ...envelope, ...status, lang: 'en US' })).toThrow(TypeError);
    expect(() => buildStatusResponse({ ...envelope, code: 20, text: 'OK' })).toThrow(TypeError);
  });
});

describe('status and setup responses', () => {
  it('puts the detail in the Status content, escaped, with its language', () => {
    const status = tree(xmlOf('status response 406 with detail')).cXML.Response.Status;
    expect(status['@code']).toBe('406');
    expect(status['@text']).toBe('Not Acceptable');
    expect(status['@xml:lang']).toBe('en-US');
    expect(status['#text']).toBe(`</BuyerCook> & ${awkward}`);
  });

  it('answers a setup request with 200 OK and the start page URL', () => {
    const response = tree(xmlOf('setup response')).cXML.Response;
    expect(response.Status).toMatchObject({ '@code': '200', '@text': 'OK' });
    expect(response.PunchOutSetupResponse.StartPage.URL).toBe('https://punchgate.example/s/tok?x=1&y=2');
  });

  it('lists the profile transactions with their options', () => {
    const profile = tree(xmlOf('profile response')).cXML.Response.ProfileResponse;
    expect(profile['@effectiveDate']).toBe('2024-01-01T00:00:00+01:00');
    expect(profile.Transaction.map((t: { '@requestName': string }) => t['@requestName'])).toEqual([
      'ProfileRequest',
      'PunchOutSetupRequest',
      'OrderRequest',
    ]);
    expect(profile.Transaction[1].Option).toEqual({
      '#text': 'create edit inspect',
      '@name': 'operationAllowed',
    });
  });

  it('refuses a relative start page URL', () => {
    expect(() => buildSetupResponse({ ...envelope, startPageUrl: '/s/tok' })).toThrow(TypeError);
  });
});

describe('the PunchOutOrderMessage', () => {
  const document = () => tree(xmlOf('order message')).cXML;

  it('carries no SharedSecret anywhere, since it travels through the browser', () => {
    expect(xmlOf('order message')).not.toContain('SharedSecret');
    expect(xmlOf('order message')).not.toContain('punchgate-secret');
    expect(document().Header.From.Credential.map((c: { Identity: string }) => c.Identity)).toEqual([
      'AN01000000001',
      'ACME-ERP',
    ]);
  });

  it('echoes the BuyerCookie exactly, whitespace and special characters included', () => {
    const untrimmed = readBackUntrimmed.parse(xmlOf('order message'));
    expect(untrimmed.cXML.Message.PunchOutOrderMessage.BuyerCookie).toBe('\n  1CX3L4843PPZO & <co> \n');
    expect(xmlOf('order message')).toContain(
      '<BuyerCookie>\n  1CX3L4843PPZO &amp; &lt;co&gt; \n</BuyerCookie>',
    );
  });

  it('writes the header with operationAllowed, Total, Shipping and Tax', () => {
    const message = document().Message;
    expect(message['@inReplyTo']).toBe('1714557500000.1@ariba.example');
    expect(message['@deploymentMode']).toBeUndefined();
    const header = message.PunchOutOrderMessage.PunchOutOrderMessageHeader;
    expect(header['@operationAllowed']).toBe('edit');
    expect(header.Total.Money).toEqual({ '#text': '208.90', '@currency': 'EUR' });
    expect(header.Shipping.Description).toEqual({ '#text': 'DHL Standard', '@xml:lang': 'en-US' });
    expect(header.Tax.Money).toEqual({ '#text': '0.00', '@currency': 'EUR' });
  });

  it('writes each line with SKU, line reference, price, UNSPSC and extrinsics', () => {
    const [first, second] = document().Message.PunchOutOrderMessage.ItemIn;
    expect(first['@quantity']).toBe('500');
    expect(first['@lineNumber']).toBe('1');
    expect(first.ItemID).toEqual({ SupplierPartID: 'BC-STD', SupplierPartAuxiliaryID: 'L-7K2M9Q' });
    expect(first.ItemDetail.UnitPrice.Money).toEqual({ '#text': '0.118', '@currency': 'EUR' });
    expect(first.ItemDetail.Description).toEqual({
      ShortName: 'Business cards',
      '#text': awkward,
      '@xml:lang': 'en-US',
    });
    expect(first.ItemDetail.Classification).toEqual({ '#text': '82121500', '@domain': 'UNSPSC' });
    expect(first.ItemDetail.URL).toBe('https://punchgate.example/proof/L-7K2M9Q?size=large&page=1');
    expect(first.ItemDetail.LeadTime).toBe('5');
    expect(first.ItemDetail.Extrinsic).toEqual([
      { '#text': '0098123', '@name': 'designId' },
      { '#text': 'https://print.example/proof?id=0098123&v=2', '@name': 'proofUrl' },
    ]);
    expect(second['@quantity']).toBe('2.5');
    expect(second['@lineNumber']).toBeUndefined();
  });

  it('keeps element order even where the reader would not care: ItemDetail as the DTD lists it', () => {
    const detail = xmlOf('order message').split('<ItemDetail>')[1]?.split('</ItemDetail>')[0] ?? '';
    const order = [...detail.matchAll(/<([A-Za-z]+)[ >/]/g)].map((match) => match[1]);
    expect(order).toEqual([
      'UnitPrice',
      'Money',
      'Description',
      'ShortName',
      'UnitOfMeasure',
      'Classification',
      'ManufacturerPartID',
      'ManufacturerName',
      'URL',
      'LeadTime',
      'Extrinsic',
      'Extrinsic',
    ]);
  });

  it('writes only ASCII when asked, with the same values', () => {
    const xml = xmlOf('order message, ASCII only');
    expect(/[^\x00-\x7f]/.test(xml)).toBe(false);
    expect(xml).toContain('M&#xFC;ller &amp; S&#xF6;hne');
    expect(xml).toContain('&#x1F5A8;');
    const description = tree(xml).cXML.Message.PunchOutOrderMessage.ItemIn[0].ItemDetail.Description['#text'];
    expect(description).toBe(awkward);
  });

  it('marks a test-mode cart and allows an empty cart', () => {
    const message = tree(xmlOf('order message, empty cart on create')).cXML.Message;
    expect(message['@deploymentMode']).toBe('test');
    expect(message.PunchOutOrderMessage.ItemIn).toBeUndefined();
  });

  it('cancels an edit with Status 204 before an empty cart', () => {
    const xml = xmlOf('no-change order message');
    expect(xml).toContain(
      '<Message>\n    <Status code="204" text="No Content"/>\n    <PunchOutOrderMessage>',
    );
    const message = tree(xml).cXML.Message.PunchOutOrderMessage;
    expect(message.BuyerCookie).toBe('c1');
    expect(message.PunchOutOrderMessageHeader['@operationAllowed']).toBe('edit');
    expect(message.PunchOutOrderMessageHeader.Total.Money).toEqual({ '#text': '0.00', '@currency': 'EUR' });
    expect(message.ItemIn).toBeUndefined();
  });

  it.each([
    ['a float-like price', { unitPrice: { value: '1e3', currency: 'EUR' } }],
    ['a lower-case currency', { unitPrice: { value: '1.00', currency: 'eur' } }],
    ['no classification', { classifications: [] }],
    ['a negative quantity', { quantity: -1 }],
    ['an exponent quantity', { quantity: 1e21 }],
    ['a zero line number', { lineNumber: 0 }],
    ['an empty SKU', { supplierPartID: '' }],
    ['an empty description', { description: ' ' }],
    ['a fractional lead time', { leadTimeDays: 1.5 }],
  ])('refuses %s as a TypeError', (_case, change) => {
    const [first] = cart.items;
    if (first === undefined) throw new Error('cart has no lines');
    expect(() => buildOrderMessage({ ...cart, items: [{ ...first, ...change }] })).toThrow(TypeError);
  });

  it('refuses an operation the DTD does not know', () => {
    expect(() => buildOrderMessage({ ...cart, operationAllowed: 'source' as 'edit' })).toThrow(TypeError);
  });
});

describe('the ConfirmationRequest', () => {
  it('sends an accept with the order reference, the Sender secret and no items', () => {
    const document = tree(xmlOf('confirmation accept')).cXML;
    expect(document.Header.Sender.Credential[0].SharedSecret).toBe('punchgate-secret');
    const request = document.Request.ConfirmationRequest;
    expect(request.ConfirmationHeader).toMatchObject({
      '@type': 'accept',
      '@confirmID': 'PRINT-100042',
      '@noticeDate': '2024-05-03T11:00:00+00:00',
      Comments: { '#text': 'Accepted & queued for print.', '@xml:lang': 'en-US' },
    });
    expect(request.OrderReference).toEqual({
      DocumentReference: { '@payloadID': '1714730000000.123456789@app12.eu2.ariba.example' },
      '@orderID': '0004500123',
      '@orderDate': '2024-05-03T12:30:00+02:00',
    });
    expect(request.ConfirmationItem).toBeUndefined();
  });

  it('rejects a whole order with the reason in the header and no ConfirmationItem (Fulfill.dtd)', () => {
    const request = tree(xmlOf('confirmation reject')).cXML.Request.ConfirmationRequest;
    expect(request.ConfirmationHeader).toMatchObject({
      '@type': 'reject',
      Comments: { '#text': 'Design L-4TQ8ZX was deleted before the order arrived.' },
    });
    expect(request.ConfirmationItem).toBeUndefined();
    expect(request.ConfirmationHeader.DocumentReference).toBeUndefined();
    expect(request.ConfirmationHeader['@operation']).toBeUndefined();
  });

  it('rejects exactly one line in a detail: status reject for its whole quantity, the reason in its Comments', () => {
    const request = tree(xmlOf('confirmation detail rejecting a line')).cXML.Request.ConfirmationRequest;
    expect(request.ConfirmationHeader).toMatchObject({
      '@type': 'detail',
      '@confirmID': '100042-2',
      '@version': '1',
    });
    expect(request.ConfirmationItem).toEqual({
      '@quantity': '250',
      '@lineNumber': '2',
      UnitOfMeasure: 'EA',
      ConfirmationStatus: {
        '@quantity': '250',
        '@type': 'reject',
        UnitOfMeasure: 'EA',
        Comments: { '#text': 'Print order 100043 was cancelled by the supplier.', '@xml:lang': 'en-US' },
      },
    });
  });

  it('refuses items in a whole-order reject, which the buyer would not read', () => {
    expect(() =>
      buildConfirmationRequest({
        ...envelope,
        header: supplierHeader,
        type: 'reject',
        noticeDate: new Date(),
        orderID: 'PO',
        orderPayloadID: 'p@h',
        items: [{ lineNumber: 1, quantity: 1, unitOfMeasure: 'EA', statuses: [{ type: 'reject' }] }],
      }),
    ).toThrow('a reject confirmation has no items; reject lines in a detail instead');
  });

  it('links an update to the version it replaces: DocumentReference first in the header, same confirmID, next version', () => {
    const header = tree(xmlOf('confirmation detail')).cXML.Request.ConfirmationRequest.ConfirmationHeader;
    expect(Object.keys(header).filter((key) => !key.startsWith('@'))[0]).toBe('DocumentReference');
    expect(header).toMatchObject({
      '@operation': 'update',
      '@confirmID': 'PRINT-100042',
      '@version': '2',
      DocumentReference: { '@payloadID': '1714800000000.1@punchgate.example' },
    });
  });

  it('gives a DocumentReference with operation update and only then', () => {
    const base = {
      ...envelope,
      header: supplierHeader,
      type: 'accept',
      noticeDate: new Date(),
      orderID: 'PO',
      orderPayloadID: 'p@h',
    } as const;
    const message = 'amends (the DocumentReference) is given with operation "update" and only then';
    expect(() => buildConfirmationRequest({ ...base, operation: 'update' })).toThrow(message);
    expect(() => buildConfirmationRequest({ ...base, amends: 'earlier@h' })).toThrow(message);
    expect(() => buildConfirmationRequest({ ...base, operation: 'new', amends: 'earlier@h' })).toThrow(
      message,
    );
  });

  it('reads back what it built: confirmID, operation, version and every status of every item', () => {
    const read = readConfirmationRequest(xmlOf('confirmation detail'));
    expect(read).toEqual({
      payloadID: envelope.payloadID,
      orderPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
      confirmID: 'PRINT-100042',
      operation: 'update',
      type: 'detail',
      version: 2,
      items: [
        {
          lineNumber: 1,
          quantity: '500',
          unitOfMeasure: 'EA',
          statuses: [
            {
              type: 'detail',
              quantity: '300',
              deliveryDate: '2024-05-10T12:00:00+02:00',
              unitPrice: { value: '0.118', currency: 'EUR' },
            },
            {
              type: 'backordered',
              quantity: '200',
              deliveryDate: '2024-05-17T12:00:00+02:00',
              comments: 'Paper shortage',
            },
          ],
        },
        {
          lineNumber: 2,
          quantity: '2.5',
          unitOfMeasure: 'PK',
          statuses: [{ type: 'accept', quantity: '2.5', shipmentDate: '2024-05-08T16:00:00+00:00' }],
        },
      ],
    });
    // Rebuilt from what was read, the update is the same document.
    expect(
      buildConfirmationRequest({
        ...envelope,
        header: supplierHeader,
        type: read.type,
        operation: 'update',
        amends: '1714800000000.1@punchgate.example',
        confirmID: 'PRINT-100042',
        version: 2,
        noticeDate: new Date('2024-05-04T08:00:00Z'),
        orderID: '0004500123',
        orderDate: new Date('2024-05-03T10:30:00Z'),
        orderPayloadID: read.orderPayloadID,
        total: { value: '318.90', currency: 'EUR' },
        shipping: { value: '9.90', currency: 'EUR', description: 'DHL Standard' },
        extrinsics: [{ name: 'printOrderId', value: '100042' }],
        items: read.items,
      }),
    ).toBe(xmlOf('confirmation detail'));
  });

  it('details split quantities, dates and prices per line', () => {
    const request = tree(xmlOf('confirmation detail')).cXML.Request.ConfirmationRequest;
    expect(request.ConfirmationHeader['@operation']).toBe('update');
    expect(request.OrderReference['@orderDate']).toBe('2024-05-03T10:30:00+00:00');
    const [first, second] = request.ConfirmationItem;
    expect(first.ConfirmationStatus).toEqual([
      {
        UnitOfMeasure: 'EA',
        UnitPrice: { Money: { '#text': '0.118', '@currency': 'EUR' } },
        '@quantity': '300',
        '@type': 'detail',
        '@deliveryDate': '2024-05-10T12:00:00+02:00',
      },
      {
        UnitOfMeasure: 'EA',
        Comments: { '#text': 'Paper shortage', '@xml:lang': 'en-US' },
        '@quantity': '200',
        '@type': 'backordered',
        '@deliveryDate': '2024-05-17T12:00:00+02:00',
      },
    ]);
    expect(second.ConfirmationStatus).toEqual({
      UnitOfMeasure: 'PK',
      '@quantity': '2.5',
      '@type': 'accept',
      '@shipmentDate': '2024-05-08T16:00:00+00:00',
    });
  });

  it('needs explicit statuses when the header type is not a line status', () => {
    expect(() =>
      buildConfirmationRequest({
        ...envelope,
        header: supplierHeader,
        type: 'except',
        noticeDate: new Date(),
        orderID: 'PO',
        orderPayloadID: 'p@h',
        items: [{ lineNumber: 1, quantity: 1, unitOfMeasure: 'EA' }],
      }),
    ).toThrow(TypeError);
  });

  it('refuses a header type the DTD does not have, even one that is a line status', () => {
    expect(() =>
      buildConfirmationRequest({
        ...envelope,
        header: supplierHeader,
        type: 'unknown' as 'accept',
        noticeDate: new Date(),
        orderID: 'PO',
        orderPayloadID: 'p@h',
      }),
    ).toThrow(TypeError);
  });

  it('needs the payloadID of the order it confirms', () => {
    expect(() =>
      buildConfirmationRequest({
        ...envelope,
        header: supplierHeader,
        type: 'accept',
        noticeDate: new Date(),
        orderID: 'PO',
        orderPayloadID: '',
      }),
    ).toThrow(TypeError);
  });
});

describe('the ShipNoticeRequest', () => {
  it('writes carrier, service, tracking numbers and the shipped lines', () => {
    const request = tree(xmlOf('ship notice')).cXML.Request.ShipNoticeRequest;
    expect(request.ShipNoticeHeader).toMatchObject({
      '@shipmentID': 'SH-100042-1',
      '@noticeDate': '2024-05-08T16:05:00+00:00',
      '@shipmentDate': '2024-05-08T16:00:00+00:00',
      '@deliveryDate': '2024-05-10T12:00:00+02:00',
      ServiceLevel: { '#text': 'Express', '@xml:lang': 'en-US' },
      Comments: { '#text': 'Two parcels.', '@xml:lang': 'en-US' },
    });
    expect(request.ShipControl.CarrierIdentifier).toEqual([
      { '#text': 'DHL', '@domain': 'companyName' },
      { '#text': 'DHLC', '@domain': 'SCAC' },
    ]);
    expect(request.ShipControl.ShipmentIdentifier).toEqual([
      {
        '#text': '00340434161094042557',
        '@domain': 'trackingNumber',
        '@trackingURL': 'https://track.example/?id=00340434161094042557&lang=en',
      },
      {
        '#text': '00340434161094042558',
        '@domain': 'trackingNumber',
        '@trackingURL': 'https://track.example/?id=00340434161094042557&lang=en',
      },
    ]);
    expect(request.ShipNoticePortion.OrderReference['@orderID']).toBe('0004500123');
    expect(request.ShipNoticePortion.ShipNoticeItem).toEqual([
      {
        ItemID: { SupplierPartID: 'BC-STD', SupplierPartAuxiliaryID: 'L-7K2M9Q' },
        UnitOfMeasure: 'EA',
        '@quantity': '500',
        '@lineNumber': '1',
      },
      { UnitOfMeasure: 'PK', '@quantity': '2.5', '@lineNumber': '2' },
    ]);
  });

  it('leaves ShipControl out when there is no tracking number to put in it', () => {
    const request = tree(xmlOf('ship notice without tracking')).cXML.Request.ShipNoticeRequest;
    expect(request.ShipControl).toBeUndefined();
    expect(request.ShipNoticePortion.ShipNoticeItem).toMatchObject({ '@lineNumber': '3' });
  });

  it('refuses a ship notice without lines, which would mean "everything shipped"', () => {
    expect(() =>
      buildShipNoticeRequest({
        ...envelope,
        header: supplierHeader,
        shipmentID: 'S',
        noticeDate: new Date(),
        trackingNumbers: [],
        orderID: 'PO',
        orderPayloadID: 'p@h',
        lines: [],
      }),
    ).toThrow(TypeError);
  });
});

describe('newPayloadId', () => {
  it('writes <epoch-ms>.<random>@<host>', () => {
    expect(newPayloadId(() => 'k3j9x2', 'punchgate.example', new Date('2024-05-01T10:00:00Z'))).toBe(
      '1714557600000.k3j9x2@punchgate.example',
    );
  });

  it('refuses random parts and hosts that would break the form', () => {
    const now = new Date('2024-05-01T10:00:00Z');
    expect(() => newPayloadId(() => 'a@b', 'h', now)).toThrow(TypeError);
    expect(() => newPayloadId(() => 'a', 'h/x', now)).toThrow(TypeError);
    expect(() => newPayloadId(() => 'a', 'h', new Date('x'))).toThrow(TypeError);
  });
});
