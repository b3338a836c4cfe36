import { describe, expect, it } from 'vitest';
import {
  credentialsInDomain,
  extrinsicValue,
  type OrderRequest,
  type PunchOutSetupRequest,
  parseCxmlRequest,
} from '../../src/cxml/index.ts';
import { fixtureBytes, fixtureNames } from './fixture-files.ts';

function setup(name: string): PunchOutSetupRequest {
  const request = parseCxmlRequest(fixtureBytes('valid', name));
  if (request.kind !== 'PunchOutSetupRequest') throw new Error(`${name} is a ${request.kind}`);
  return request;
}

function order(name: string): OrderRequest {
  const request = parseCxmlRequest(fixtureBytes('valid', name));
  if (request.kind !== 'OrderRequest') throw new Error(`${name} is a ${request.kind}`);
  return request;
}

const ariba = { domain: 'NetworkID', identity: 'AN01000000001' };

/** The fields each fixture must produce; `toMatchObject`, so only what is listed is checked. */
const expectations: Record<string, Record<string, unknown>> = {
  'setup-request.ariba-multi-credential.xml': {
    kind: 'PunchOutSetupRequest',
    payloadID: '1714557600123.482913377@app12.eu2.ariba.example',
    timestamp: { raw: '2024-05-01T10:00:00', instant: '2024-05-01T10:00:00.000Z', assumedUtc: true },
    lang: 'en',
    deploymentMode: 'production',
    header: {
      from: [
        { domain: 'SystemID', identity: 'ACME-ERP' },
        ariba,
        { domain: 'EndPointID', identity: 'Ariba' },
      ],
      to: [
        { domain: 'buyersystemid', identity: '0000004711' },
        { domain: 'internalsupplierid', identity: '0000004711' },
        { domain: 'networkid', identity: 'an02000000002' },
        { domain: 'transactionnetworkid', identity: 'an02000000002' },
      ],
      sender: {
        credentials: [
          { domain: 'SystemID', identity: 'ACME-ERP', sharedSecret: 'acme-secret' },
          { domain: 'NetworkId', identity: 'AN01000000001', sharedSecret: 'acme-secret' },
        ],
        userAgent: 'Buyer 14s2',
      },
    },
    operation: 'create',
    buyerCookie: '1TEZ7HFKTBP2M',
    browserFormPost: 'https://s1-eu.ariba.example/Buyer/punchout?client=HTML.E7956A53&responseid=a&locale=en',
    supplierSetup: 'https://punchgate.example/cxml',
    extrinsics: [
      { name: 'UniqueName', value: 'JDOE0042' },
      { name: 'UserEmail', value: 'jane.doe@acme.example' },
      { name: 'CompanyCode', value: '0126' },
    ],
    shipTo: {
      addressID: '0100',
      name: '0100',
      deliverTo: ['Jane Doe'],
      street: ['Kieler Straße 371-377'],
      city: 'Hamburg',
      postalCode: '22525',
      country: 'Germany',
      isoCountryCode: 'DE',
    },
    itemOut: [],
  },
  'setup-request.coupa.xml': {
    timestamp: { raw: '2024-05-01T08:00:00Z', instant: '2024-05-01T08:00:00.000Z', assumedUtc: false },
    header: {
      from: [{ domain: 'DUNS', identity: 'COUPA-ACME' }],
      to: [{ domain: 'duns', identity: 'PRINTCO' }],
      sender: {
        credentials: [{ domain: 'Duns', identity: 'COUPA-ACME', sharedSecret: 'coupa-secret' }],
        userAgent: 'Coupa Procurement 1.0',
      },
    },
    buyerCookie: 'c64af92dc27e68172e030d3dfd1bc944',
    browserFormPost: 'https://acme.coupahost.example/punchout/checkout/42',
    extrinsics: [
      { name: 'FirstName', value: 'Ana' },
      { name: 'LastName', value: 'Lima' },
      { name: 'UniqueName', value: 'alima' },
      { name: 'UserEmail', value: 'ana.lima@acme.example' },
      { name: 'User', value: 'alima' },
      { name: 'BusinessUnit', value: 'MARKETING' },
    ],
    contacts: [{ role: 'endUser', name: 'Ana Lima', emails: ['ana.lima@acme.example'] }],
  },
  'setup-request.jaggaer-empty-elements.xml': {
    version: '1.2.011',
    timestamp: { raw: '2024-05-01T09:15:07 -04:00', instant: '2024-05-01T13:15:07.000Z', assumedUtc: false },
    deploymentMode: 'test',
    buyerCookie: 'JAG-000981-cookie',
    extrinsics: [
      { name: 'UserEmail', value: 'r.okafor@university.example' },
      { name: 'Contract Number', value: '' },
      { name: 'CostCenter', value: '' },
    ],
    contacts: [{ role: 'User', name: 'Rita Okafor', emails: ['r.okafor@university.example'] }],
    shipTo: {
      name: 'Central Receiving',
      deliverTo: ['Rita Okafor'],
      street: ['426 Church St SE'],
      city: 'Minneapolis',
      state: 'MN',
      postalCode: '55455',
      country: 'United States',
      isoCountryCode: 'US',
    },
  },
  'setup-request.oracle-iprocurement.xml': {
    version: '1.1.007',
    lang: 'fr-FR',
    timestamp: { instant: '2024-05-01T08:15:00.000Z' },
    header: { sender: { userAgent: 'Oracle iProcurement' } },
    buyerCookie: '8E1F3A0C27B44F6E',
    browserFormPost:
      'https://erp.acme.example/OA_HTML/OA.jsp?OAFunc=ICX_CAT_PUNCHOUT_CALLBACK&OAHP=ICX_POR_HOMEPAGE&OASF=ICX_CAT_PUNCHOUT_CALLBACK',
    extrinsics: [{ name: 'User', value: 'CHEVALIER.M' }],
    contacts: [{ role: 'buyer', name: 'Marie Chevalier', emails: ['marie.chevalier@acme.example'] }],
  },
  'setup-request.birchstreet-no-tz.xml': {
    timestamp: { raw: '2024-05-01T04:34:19', instant: '2024-05-01T04:34:19.000Z', assumedUtc: true },
    header: {
      to: [{ domain: 'birchstreet.com', identity: 'PRINTCO' }],
      sender: { userAgent: 'V7' },
    },
    buyerCookie: 'x-yz-2024-05-01-04-34-19-286-KAPOW',
    browserFormPost: 'https://procurement.birchstreet.example/receive-items-punchout',
    extrinsics: [],
    contacts: [],
    itemOut: [],
  },
  'setup-request.aquiire-returnframe.xml': {
    timestamp: { raw: '2024-05-01T06:00:00-0500', instant: '2024-05-01T11:00:00.000Z' },
    returnFrame: '_parent',
    browserFormPost: 'https://app.aquiire.example/punchout_return?session=77',
    contacts: [{ name: 'John Smith', emails: ['john.smith@acme.example'], phone: '+1 888 5551212' }],
    shipTo: {
      name: 'Acme Canada',
      city: 'Montréal',
      municipality: 'Ville-Marie',
      state: 'QC',
      postalCode: 'H3C 3P3',
      isoCountryCode: 'CA',
      email: 'reception@acme.example',
      phone: '+1 888 5551212 x8888',
    },
  },
  'setup-request.lowercase-root.xml': {
    version: '1.2.020',
    payloadID: '5/1/2024 11:56:16 AM 019768490@sdi.example',
    timestamp: { raw: '5/1/2024 11:56:16 AM', instant: '2024-05-01T11:56:16.000Z', assumedUtc: true },
    header: {
      from: [{ domain: 'NetworkId', identity: 'AN01000000001' }],
      to: [{ domain: 'NETWORKID', identity: 'AN02000000002' }],
      sender: {
        credentials: [{ domain: 'networkid', identity: 'AN01000000001', sharedSecret: 'acme-secret' }],
      },
    },
    buyerCookie: 'sdi-2024-0501-115616',
    extrinsics: [{ name: 'UniqueName', value: 'DOE,JANE' }],
  },
  'setup-request.iso-8859-1-names.xml': {
    lang: 'de-DE',
    header: { sender: { credentials: [{ sharedSecret: 'grüße' }] } },
    buyerCookie: 'müller-été-01',
    browserFormPost: 'https://erp.muller.example/punchout/rückgabe',
    extrinsics: [{ name: 'User', value: 'Jürgen Müller' }],
    contacts: [{ name: 'Jürgen Müller' }],
    shipTo: {
      addressID: '0042',
      name: 'Müller & Söhne GmbH',
      deliverTo: ['Zoë Åström'],
      street: ['Große Straße 5'],
      city: 'Köln',
    },
  },
  'setup-request.windows-1252-single-quoted.xml': {
    timestamp: { raw: '2024-05-01T12:00:00.250+01:00', instant: '2024-05-01T11:00:00.250Z' },
    header: { sender: { userAgent: 'Buyer ‘Classic’ 2.0' } },
    buyerCookie: 'win-1252-€-cookie',
    browserFormPost: 'https://buyer.example/return?a=1&b=2',
    extrinsics: [{ name: 'Budget', value: '€ 1.500 – marketing' }],
  },
  'setup-request.utf8-bom.xml': {
    timestamp: {
      raw: 'Wed May 01 18:29:48 +0000 2024',
      instant: '2024-05-01T18:29:48.000Z',
      assumedUtc: false,
    },
    buyerCookie: 'bom-cookie-7',
  },
  'setup-request.edit-item-out.xml': {
    operation: 'edit',
    buyerCookie: '\n                    1CX3L4843PPZO\n               ',
    browserFormPost: 'https://s1-eu.ariba.example/Buyer/punchout?client=HTML.A11&responseid=b',
    extrinsics: [
      { name: 'CostCenter', value: '0610' },
      { name: 'User', value: 'jane_doe' },
    ],
    itemOut: [
      {
        lineNumber: 1,
        quantity: '2',
        supplierPartID: 'BC-STD',
        supplierPartAuxiliaryID: 'L-7K2M9Q\n                         ',
        description: '',
        classifications: [],
        extrinsics: [],
        comments: '',
      },
      {
        lineNumber: 2,
        quantity: '1',
        supplierPartID: 'POS-CUSTOM',
        supplierPartAuxiliaryID: 'L-4TQ8ZX',
        unitPrice: { value: '149.00', currency: 'EUR' },
        description: 'Poster A1, custom design',
        unitOfMeasure: 'EA',
        classifications: [{ domain: 'UNSPSC', code: '82121500' }],
        extrinsics: [{ name: 'designId', value: '0098123' }],
      },
    ],
  },
  'setup-request.inspect-item-out.xml': {
    operation: 'inspect',
    itemOut: [
      {
        lineNumber: 1,
        quantity: '2.5',
        requestedDeliveryDate: { raw: '2024-05-15', instant: '2024-05-15T00:00:00.000Z', dateOnly: true },
        supplierPartID: 'FLY-A5',
        supplierPartAuxiliaryID: 'L-9WX3RT',
        unitPrice: { value: '0.10', currency: 'USD' },
        description: 'Flyer A5, 135 g gloss, 4/4 <spring campaign>',
        shortName: 'Flyer A5',
        unitOfMeasure: 'PK',
        manufacturerPartID: '0012-FLY',
        manufacturerName: 'PrintCo',
        extrinsics: [{ name: 'designId', value: 'D-00077' }],
      },
    ],
  },
  'setup-request.ariba-empty-selected-item.xml': {
    operation: 'create',
    buyerCookie: '2AFX8KQ0LM3ZQ',
    itemOut: [],
  },
  'setup-request.level2-selected-item.xml': {
    deploymentMode: 'test',
    buyerCookie: '2AFX8KQ0LM3ZP',
    selectedItem: { supplierPartID: 'FLY-A5', supplierPartAuxiliaryID: '' },
    itemOut: [],
  },
  'profile-request.oracle-osn-no-tz.xml': {
    kind: 'ProfileRequest',
    payloadID: '2024-05-01T19:23:18.1234@osn.oracle.example',
    timestamp: { raw: '2024-05-01T19:23:18', instant: '2024-05-01T19:23:18.000Z', assumedUtc: true },
    header: {
      sender: {
        credentials: [
          { domain: 'OracleSN', identity: 'testexchange.oracle.example', sharedSecret: 'oracle-secret' },
        ],
        userAgent: 'Oracle Supplier Network',
      },
    },
  },
  'order-request.ariba-control-keys-accounting.xml': {
    kind: 'OrderRequest',
    orderID: '0004500777',
    controlKeys: { invoiceInstruction: 'isERS' },
    items: [{ lineNumber: 10, controlKeys: { ocInstruction: 'notAllowed' } }, { lineNumber: 20 }],
  },
  'order-request.new-several-lines.xml': {
    kind: 'OrderRequest',
    orderID: '0004500123',
    orderDate: { raw: '2024-05-03T12:30:00+02:00', instant: '2024-05-03T10:30:00.000Z' },
    type: 'new',
    orderVersion: '1',
    requestedDeliveryDate: { raw: '2024-05-20', dateOnly: true },
    total: { value: '318.90', currency: 'EUR' },
    shipTo: {
      addressID: '0100',
      name: '0100',
      deliverTo: ['Jane Doe', 'Marketing, 3rd floor'],
      email: 'jane.doe@acme.example',
      phone: '+49 40 5550100',
    },
    billTo: { addressID: '0001', name: 'ACME GmbH Accounts Payable', street: ['Postfach 10 20 30'] },
    shipping: { value: '9.90', currency: 'EUR', description: 'DHL Standard' },
    tax: { value: '50.92', currency: 'EUR', description: 'VAT 19%' },
    contacts: [
      { role: 'endUser', name: 'Jane Doe', emails: ['jane.doe@acme.example', 'marketing@acme.example'] },
      { role: 'purchasingAgent', name: 'Max Buyer', emails: ['max.buyer@acme.example'] },
    ],
    comments: 'Please deliver before the trade fair & call ahead.',
    extrinsics: [
      { name: 'CompanyCode', value: '0126' },
      { name: 'PurchaseGroup', value: '007' },
      { name: 'Ariba.invoicingAllowed', value: 'Yes' },
    ],
    items: [
      {
        lineNumber: 1,
        quantity: '500',
        requestedDeliveryDate: { raw: '2024-05-15', dateOnly: true },
        supplierPartID: 'BC-STD',
        supplierPartAuxiliaryID: 'L-7K2M9Q',
        unitPrice: { value: '0.118', currency: 'EUR' },
        description: 'Business cards 85x55 mm, 350 g matt, 4/4',
        unitOfMeasure: 'EA',
        classifications: [{ domain: 'UNSPSC', code: '82121500' }],
        extrinsics: [{ name: 'designId', value: '0098123' }],
        comments: 'Names as in the proof.',
      },
      {
        lineNumber: 2,
        quantity: '2.5',
        supplierPartID: 'FLY-A5',
        supplierPartAuxiliaryID: 'L-9WX3RT',
        unitPrice: { value: '40.00', currency: 'EUR' },
        description: 'Flyer A5, 1000 per pack',
        shortName: 'Flyer A5',
        unitOfMeasure: 'PK',
        classifications: [
          { domain: 'UNSPSC', code: '82121500' },
          { domain: 'custom', code: 'FLY' },
        ],
        comments: '',
      },
      {
        lineNumber: 3,
        supplierPartID: 'POS-CUSTOM',
        supplierPartAuxiliaryID: 'L-4TQ8ZX',
        shipTo: { addressID: '0200', name: 'Trade fair booth B-17', city: 'Hannover' },
        comments: 'First part.\nSecond part.',
      },
    ],
  },
  'order-request.coupa-comments.xml': {
    timestamp: { raw: '2024-05-03T12:40:00Z', instant: '2024-05-03T12:40:00.000Z' },
    header: {
      from: [{ domain: 'duns', identity: 'COUPA-ACME' }],
      to: [{ domain: 'Duns', identity: 'PRINTCO' }],
      sender: { credentials: [{ domain: 'duns', identity: 'COUPA-ACME' }] },
    },
    orderID: '6112',
    total: { value: '1505.0', currency: 'USD' },
    shipping: { value: '0.0', currency: 'USD', description: '' },
    comments: 'header comment goes here if entered by user',
    extrinsics: [{ name: 'legacy_po', value: '' }],
    items: [
      {
        lineNumber: 1,
        supplierPartID: 'POS-CUSTOM',
        supplierPartAuxiliaryID: 'L-4TQ8ZX',
        unitPrice: { value: '1505.0', currency: 'USD' },
        extrinsics: [{ name: 'LineType', value: 'Quantity' }],
        comments: 'line item comment goes here if entered by user',
      },
    ],
  },
  'order-request.jaggaer-empty-elements.xml': {
    version: '1.2.011',
    timestamp: { raw: '2024-05-03T17:10:07 -04:00', instant: '2024-05-03T21:10:07.000Z' },
    orderID: '0001549923',
    orderDate: { raw: '2024-05-03T17:10:07-0400', instant: '2024-05-03T21:10:07.000Z' },
    total: { value: '250.00', currency: 'AUD' },
    shipTo: { deliverTo: ['Rita Okafor', '.'], country: 'US', email: 'receiving@university.example' },
    comments: '',
    extrinsics: [
      { name: 'SOLD TO ID', value: '0001213286' },
      { name: 'Payer ID', value: '1213871427' },
    ],
    items: [
      {
        quantity: '250',
        supplierPartAuxiliaryID: 'contract="542237399B" cart=L-9WX3RT',
        unitPrice: { value: '1.00', currency: 'USD' },
        extrinsics: [{ name: 'Contract Number', value: '' }],
      },
    ],
  },
  'order-request.update.xml': {
    orderID: '0004500123',
    type: 'update',
    orderVersion: '2',
    previousPayloadID: '1714730000000.123456789@app12.eu2.ariba.example',
    total: { value: '118.00', currency: 'EUR' },
    items: [{ lineNumber: 1, quantity: '1000', supplierPartAuxiliaryID: 'L-7K2M9Q' }],
  },
  // BillTo's VAT id comes first (trimmed, a blank one skipped), before a soldTo Contact's and the extrinsic.
  'order-request.eu-billto-vat-id.xml': { orderID: '4500777001', buyerVatID: 'DE123456789' },
  'order-request.ariba-buyer-vat-extrinsic.xml': { orderID: '4500777002', buyerVatID: 'FR40303265045' },
  'order-request.delete.xml': {
    orderID: '0004500123',
    type: 'delete',
    orderVersion: '3',
    previousPayloadID: '1714816400000.223344556@app12.eu2.ariba.example',
    comments: 'Trade fair cancelled.',
  },
  'order-request.cxml-1.1-no-line-numbers.xml': {
    deploymentMode: 'test',
    header: {
      from: [
        { domain: 'AribaNetworkUserId', identity: 'admin@acme.example' },
        { domain: 'AribaNetworkUserId', identity: 'bigadmin@marketplace.example', type: 'marketplace' },
      ],
      sender: { userAgent: 'Ariba ORMS 5.1P4' },
    },
    orderID: 'DO1234',
    type: 'new',
    orderDate: { raw: '2024-05-03', instant: '2024-05-03T00:00:00.000Z', dateOnly: true, assumedUtc: true },
    total: { value: '.34', currency: 'USD' },
    tax: { value: '0.02', description: 'CA Sales Tax' },
    items: [
      { lineNumber: 1, requestedDeliveryDate: { raw: '2024-05-10' }, supplierPartID: 'BC-STD' },
      { lineNumber: 2, supplierPartID: 'FLY-A5' },
    ],
  },
  'status-update-request.async-status.xml': {
    documentPayloadID: '1714557600000.3@supplier.example',
    status: { code: 200, text: 'OK', message: 'Forwarded to supplier' },
    extrinsics: [],
  },
  'status-update-request.invoice-rejected-by-id.xml': {
    header: { from: [{ domain: 'DUNS', identity: 'COUPA-ACME' }] },
    status: { code: 200, text: 'OK', message: '' },
    invoiceStatus: {
      type: 'rejected',
      invoiceID: 'INV-000042',
      invoiceDate: { raw: '2024-05-01T12:00:00+02:00', instant: '2024-05-01T10:00:00.000Z' },
      comments: 'Shipping not on the PO.\nVersand fehlt in der Bestellung – bitte Gutschrift.',
    },
    extrinsics: [{ name: 'RejectedBy', value: 'ap.clerk@acme.example' }],
  },
  'status-update-request.invoice-paid-partial.xml': {
    documentPayloadID: '1714600000000.abc123@punchgate.example',
    status: { code: 200, text: 'OK', message: 'Paid by bank transfer' },
    invoiceStatus: {
      type: 'paid',
      partialAmount: { value: '15.50', currency: 'USD' },
      paymentNetDueDate: { raw: '2024-05-31T00:00:00-07:00', instant: '2024-05-31T07:00:00.000Z' },
      comments: 'Short paid: one box damaged',
    },
  },
};

describe('valid cXML fixtures', () => {
  const names = fixtureNames('valid');

  it('every fixture has expectations and every expectation a fixture', () => {
    expect(Object.keys(expectations).sort()).toEqual(names);
  });

  it.each(names)('%s parses to its expected values', (name) => {
    const bytes = fixtureBytes('valid', name);
    const request = parseCxmlRequest(bytes);
    const kind = name.startsWith('setup-request.')
      ? 'PunchOutSetupRequest'
      : name.startsWith('order-request.')
        ? 'OrderRequest'
        : name.startsWith('status-update-request.')
          ? 'StatusUpdateRequest'
          : 'ProfileRequest';
    expect(request.kind).toBe(kind);
    expect(request.payloadID).not.toBe('');
    expect(request.timestamp.instant).toBe(new Date(request.timestamp.instant ?? NaN).toISOString());
    expect(request.header.from.length).toBeGreaterThan(0);
    expect(request.raw.charCodeAt(0)).not.toBe(0xfeff);
    expect(request).toMatchObject(expectations[name] ?? {});
  });

  it.each(names)('%s parses the same from bytes and from the decoded string', (name) => {
    const fromBytes = parseCxmlRequest(fixtureBytes('valid', name));
    expect(parseCxmlRequest(fromBytes.raw)).toStrictEqual(fromBytes);
  });
});

describe('values that must survive exactly', () => {
  it('keeps the BuyerCookie byte for byte, whitespace and line breaks included', () => {
    const request = setup('setup-request.edit-item-out.xml');
    expect(request.buyerCookie).toBe('\n                    1CX3L4843PPZO\n               ');
    expect(request.itemOut[0]?.supplierPartAuxiliaryID).toBe('L-7K2M9Q\n                         ');
  });

  it('keeps leading zeros in identifiers, names and extrinsics', () => {
    const request = setup('setup-request.ariba-multi-credential.xml');
    expect(request.shipTo?.addressID).toBe('0100');
    expect(request.shipTo?.name).toBe('0100');
    expect(extrinsicValue(request.extrinsics, 'CompanyCode')).toBe('0126');
    expect(request.header.to[0]?.identity).toBe('0000004711');
    expect(order('order-request.jaggaer-empty-elements.xml').orderID).toBe('0001549923');
  });

  it('keeps amounts as the exact decimals sent', () => {
    const request = order('order-request.coupa-comments.xml');
    expect(request.total.value).toBe('1505.0');
    expect(request.items[0]?.unitPrice.value).toBe('1505.0');
    expect(order('order-request.new-several-lines.xml').items[0]?.unitPrice).toEqual({
      value: '0.118',
      currency: 'EUR',
    });
  });

  it('decodes ISO-8859-1 and windows-1252 bytes as declared', () => {
    expect(setup('setup-request.iso-8859-1-names.xml').shipTo?.deliverTo).toEqual(['Zoë Åström']);
    expect(setup('setup-request.windows-1252-single-quoted.xml').buyerCookie).toBe('win-1252-€-cookie');
  });

  it('keeps the raw decoded document, without the BOM', () => {
    const request = setup('setup-request.utf8-bom.xml');
    expect(request.raw.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});

describe('credentials and extrinsics lookups', () => {
  it('finds credentials by domain whatever its case', () => {
    const request = setup('setup-request.ariba-multi-credential.xml');
    expect(credentialsInDomain(request.header.from, 'networkid')).toEqual([ariba]);
    expect(credentialsInDomain(request.header.to, 'NetworkID').map((c) => c.identity)).toEqual([
      'an02000000002',
    ]);
    expect(credentialsInDomain(request.header.sender.credentials, 'NETWORKID')).toEqual([
      { domain: 'NetworkId', identity: 'AN01000000001', sharedSecret: 'acme-secret' },
    ]);
  });

  it('looks extrinsics up without regard to case and keeps their order', () => {
    const request = setup('setup-request.coupa.xml');
    expect(extrinsicValue(request.extrinsics, 'useremail')).toBe('ana.lima@acme.example');
    expect(extrinsicValue(request.extrinsics, 'USER')).toBe('alima');
    expect(extrinsicValue(request.extrinsics, 'CostCenter')).toBeUndefined();
    expect(request.extrinsics.map((extrinsic) => extrinsic.name)).toEqual([
      'FirstName',
      'LastName',
      'UniqueName',
      'UserEmail',
      'User',
      'BusinessUnit',
    ]);
  });

  it('reads ReturnFrame whatever the case of its name, and leaves it out when absent', () => {
    expect(setup('setup-request.aquiire-returnframe.xml').returnFrame).toBe('_parent');
    expect('returnFrame' in setup('setup-request.coupa.xml')).toBe(false);
  });
});

describe('control keys and accounting (order-request.ariba-control-keys-accounting.xml)', () => {
  const request = order('order-request.ariba-control-keys-accounting.xml');

  it('reads the header ControlKeys, values as the DTD spells them, tolerances left aside', () => {
    expect(request.controlKeys).toEqual({
      ocInstruction: 'requiredBeforeASN',
      asnInstruction: 'allowed',
      invoiceInstruction: 'isERS',
    });
  });

  it("reads each line's own ControlKeys, whatever the case of a value, and a TemporaryPrice of yes", () => {
    expect(request.items.map((item) => item.controlKeys)).toEqual([
      { ocInstruction: 'notAllowed', invoiceInstruction: 'isNotERS' },
      { asnInstruction: 'notAllowed', temporaryPrice: true },
    ]);
  });

  it('reads Distribution with AccountingSegment and the deprecated Segment, and the Charge as sent', () => {
    expect(request.items[0]?.distribution).toEqual([
      {
        accountingName: 'DistributionCharge',
        segments: [
          { id: '0610', name: 'Cost Center', description: 'Marketing' },
          { id: '6300100', name: 'G/L Account', description: 'Werbedrucksachen' },
        ],
        charge: { value: '35.40', currency: 'EUR' },
      },
      {
        accountingName: 'DistributionCharge',
        segments: [{ id: '0620', name: 'CostCenter', description: 'Sales' }],
        charge: { value: '23.60', currency: 'EUR' },
      },
    ]);
    expect(request.items[1]).not.toHaveProperty('distribution');
    expect(request.items[0]?.extrinsics).toEqual([
      { name: 'designId', value: '98123' },
      { name: 'Requisitioner', value: 'Jana Doe' },
    ]);
  });

  it('a PO without ControlKeys, Distribution or a VAT id has none of these properties', () => {
    const plain = order('order-request.jaggaer-empty-elements.xml');
    expect(plain).not.toHaveProperty('controlKeys');
    expect(plain).not.toHaveProperty('buyerVatID');
    expect(order('order-request.update.xml')).not.toHaveProperty('buyerVatID');
    expect(plain.items[0]).not.toHaveProperty('controlKeys');
    expect(plain.items[0]).not.toHaveProperty('distribution');
  });
});

describe('StatusUpdateRequest', () => {
  const read = (name: string) => {
    const request = parseCxmlRequest(fixtureBytes('valid', name));
    if (request.kind !== 'StatusUpdateRequest') throw new Error(`${name} is a ${request.kind}`);
    return request;
  };

  it('a Status alone (a document the buyer processed) carries no InvoiceStatus', () => {
    expect(read('status-update-request.async-status.xml')).not.toHaveProperty('invoiceStatus');
  });

  it('an invoice named by InvoiceIDInfo alone has no document reference, and no partial amount', () => {
    const request = read('status-update-request.invoice-rejected-by-id.xml');
    expect(request).not.toHaveProperty('documentPayloadID');
    expect(request.invoiceStatus).not.toHaveProperty('partialAmount');
  });
});
