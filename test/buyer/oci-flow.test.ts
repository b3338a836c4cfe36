import { decodeUrlencoded, lineAmountText, readOciCart, SAP_PROFILE } from '@punchgate/sandbox/buyer';
import { describe, expect, it } from 'vitest';
import { buildOciItems, type OciCartLine } from '../../src/oci/index.ts';
import { findForms } from '../support/html-forms.ts';
import { createTestSimulator, form, GATEWAY, PUBLIC } from './fake-gateway.ts';

type Simulator = ReturnType<typeof createTestSimulator>;

const ECHO: [string, string][] = [
  ['~OkCode', 'ADDI'],
  ['~TARGET', '_top'],
  ['~CALLER', 'CTLG'],
  ['returntarget', '_parent'],
];

const FLYER: OciCartLine = {
  lineRef: 'M3P9ZA',
  sku: 'FLY-A5',
  description: 'A5 Flyer – Schlüsselübergabe für Müller GmbH, 135 g matt',
  quantity: 250,
  unitPrice: '0.35',
  currency: 'EUR',
  uom: 'EA',
  leadTimeDays: 3,
  unspsc: '82121503',
};

const CARDS: OciCartLine = {
  lineRef: 'L7K2QX',
  sku: 'BC-STD',
  description: 'Visitenkarten',
  quantity: 500,
  unitPrice: '45.00',
  priceUnit: 500,
  currency: 'EUR',
  uom: 'EA',
};

/** Form-urlencodes fields the way a browser does for a page in `charset`: bytes of that charset, percent-escaped. */
function encodeForm(
  fields: readonly (readonly [string, string])[],
  charset: 'utf-8' | 'iso-8859-1',
): Uint8Array<ArrayBuffer> {
  const bytesOf = (text: string): number[] =>
    charset === 'utf-8' ? [...new TextEncoder().encode(text)] : [...text].map((c) => c.charCodeAt(0));
  const percentEncode = (text: string) =>
    bytesOf(text)
      .map((b) =>
        /[A-Za-z0-9*_.-]/.test(String.fromCharCode(b))
          ? String.fromCharCode(b)
          : b === 0x20
            ? '+'
            : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
      )
      .join('');
  return new TextEncoder().encode(
    fields.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join('&'),
  );
}

async function punchOut(sim: Simulator, user = 'mmueller') {
  const res = await sim.request(
    '/requisitions',
    form([
      ['profile', 'sap'],
      ['user', user],
    ]),
  );
  const location = res.headers.get('Location') ?? '';
  const id = /\/requisitions\/(REQ-[A-Z0-9]+)/.exec(location)?.[1] ?? '';
  return { id, location };
}

async function page(sim: Simulator, url: string): Promise<string> {
  const res = await sim.request(url);
  expect(res.status).toBe(200);
  return res.text();
}

function postOciCart(
  sim: Simulator,
  id: string,
  body: Uint8Array<ArrayBuffer>,
  contentType = 'application/x-www-form-urlencoded',
) {
  return sim.request(`/requisitions/${id}/oci-cart`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  });
}

describe('OCI punch-in', () => {
  it('posts the punch-in fields from the browser into the catalog frame; nothing goes server-side', async () => {
    const sim = createTestSimulator();
    const { id, location } = await punchOut(sim);
    expect(location).toBe(`${PUBLIC}/requisitions/${id}?catalog=1`);
    expect(sim.gateway.requests).toEqual([]);
    const html = await page(sim, location);
    const [punchIn] = findForms(html);
    expect(punchIn?.action).toBe(`${GATEWAY}/oci/sap1`);
    expect(punchIn?.method).toBe('post');
    expect(punchIn?.fields).toEqual([
      ['USERNAME', 'sap1'],
      ['PASSWORD', 'sap1-secret'],
      ['OCI_VERSION', '4.0'],
      ['OPI_VERSION', '1.0'],
      ['sap-client', '100'],
      ['sap-language', 'EN'],
      ['userid', 'MMUELLER'],
      ['fname', 'Max'],
      ['lname', 'Müller'],
      ['email', 'max.mueller@acme.example'],
      ['http_content_charset', 'utf-8'],
      ['HOOK_URL', `${PUBLIC}/requisitions/${id}/oci-cart`],
      ['~OkCode', 'ADDI'],
      ['~TARGET', '_top'],
      ['~CALLER', 'CTLG'],
      ['returntarget', '_parent'],
    ]);
    expect(html).toContain(
      `<form method="post" action="${GATEWAY}/oci/sap1" target="catalog-1" accept-charset="UTF-8" data-autosubmit>`,
    );
    expect(html).toContain('<iframe name="catalog-1" title="Supplier catalog (punch-out 1)"></iframe>');
    expect(html).toContain('OCI punch-in (form fields)');
    // No edit or inspect for OCI.
    expect(html).not.toContain('value="edit"');
  });

  it('receives NEW_ITEM fields in UTF-8 and lists the lines, the price as quoted per PRICEUNIT', async () => {
    const sim = createTestSimulator();
    const { id } = await punchOut(sim);
    const fields = [...buildOciItems([FLYER, CARDS], { unitMap: { EA: 'ST' } }), ...ECHO];
    const res = await postOciCart(sim, id, encodeForm(fields, 'utf-8'));
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`${PUBLIC}/requisitions/${id}`);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('2 lines added from the catalog (OCI, UTF-8).');
    expect(html).toContain(
      '<td class="mono">FLY-A5</td><td>A5 Flyer – Schlüsselübergabe für Müller<div class="long">',
    );
    expect(html).toContain(
      '<td class="num">250</td><td class="num">0.35 EUR</td><td>ST</td><td class="num">87.50 EUR</td><td class="mono">M3P9ZA</td><td class="mono">82121503</td>',
    );
    // 45.00 per 500 pieces, as SAP would book it: 500 × 45.00 ÷ 500.
    expect(html).toContain(
      '<td class="num">45.00 EUR<div class="muted">per 500 ST</div></td><td>ST</td><td class="num">45.00 EUR</td>',
    );
    expect(html).toContain('<td colspan="6">Total</td><td class="num">132.50 EUR</td>');
    expect(html).toContain('form decoded as UTF-8: every value is valid UTF-8');
    expect(html).not.toContain('was sent at punch-in but not echoed');
  });

  it('receives NEW_ITEM fields from an ISO-8859-1 page as raw Latin-1 bytes', async () => {
    const sim = createTestSimulator();
    const { id } = await punchOut(sim);
    const fields = [...buildOciItems([FLYER], { charset: 'iso-8859-1' }), ...ECHO];
    const body = encodeForm(fields, 'iso-8859-1');
    expect(new TextDecoder().decode(body)).toContain('Schl%FCssel');
    await postOciCart(sim, id, body);
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('1 line added from the catalog (OCI, ISO-8859-1).');
    expect(html).toContain(
      '<td>A5 Flyer - Schlüsselübergabe für Müller<div class="long">A5 Flyer - Schlüsselübergabe für Müller GmbH, 135 g matt</div></td>',
    );
    expect(html).toContain('some bytes are not valid UTF-8, so the post was read as ISO-8859-1');
  });

  it('treats an empty transfer as a cancel and notes missing echo fields', async () => {
    const sim = createTestSimulator();
    const { id } = await punchOut(sim);
    await postOciCart(sim, id, encodeForm([['~OkCode', 'ADDI']], 'utf-8'));
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain('The catalog returned an empty cart: nothing was added (the user cancelled).');
    expect(html).toContain('~TARGET was sent at punch-in but not echoed with the cart.');
    expect(html).toContain('No lines yet.');
  });

  it('refuses an OCI cart for a cXML requisition', async () => {
    const sim = createTestSimulator();
    const res = await sim.request(
      '/requisitions',
      form([
        ['profile', 'coupa'],
        ['user', 'jroe'],
      ]),
    );
    const id = /(REQ-[A-Z0-9]+)/.exec(res.headers.get('Location') ?? '')?.[1] ?? '';
    await postOciCart(sim, id, encodeForm(buildOciItems([FLYER]), 'utf-8'));
    const html = await page(sim, `/requisitions/${id}`);
    expect(html).toContain(`Requisition ${id} punched out with cXML; an OCI cart does not belong to it.`);
  });
});

describe('OCI cart reading', () => {
  it('groups items by number with holes, reads long-text variants and the Content-Type charset', () => {
    const body = new TextEncoder().encode(
      'NEW_ITEM-DESCRIPTION%5B3%5D=Third&NEW_ITEM-QUANTITY%5B3%5D=1&NEW_ITEM-DESCRIPTION%5B1%5D=Gr%FC%DFe' +
        '&NEW_ITEM-QUANTITY%5B1%5D=2.5&NEW_ITEM-PRICE%5B1%5D=10&NEW_ITEM-PRICEUNIT%5B1%5D=3&NEW_ITEM-CURRENCY%5B1%5D=EUR' +
        '&NEW_ITEM-LONGTEXT_1%3A132%5B%5D=line+one&NEW_ITEM-LONGTEXT_1%3A132%5B%5D=line+two' +
        '&NEW_ITEM-VENDORMAT%5B1%5D=P1&NEW_ITEM-MATGROUP%5B3%5D=PRINT&NEW_ITEM-VENDORMAT%5B3%5D=P3',
    );
    const decoded = decodeUrlencoded(body, 'application/x-www-form-urlencoded; charset=ISO-8859-1');
    expect(decoded.charset).toBe('ISO-8859-1');
    expect(decoded.charsetReason).toBe('named by the Content-Type');
    const cart = readOciCart(decoded, SAP_PROFILE);
    expect(
      cart.lines.map((l) => [l.supplierPartID, l.description, l.quantity, l.unitPrice, l.longText]),
    ).toEqual([
      ['P1', 'Grüße', '2.5', '10', 'line one\nline two'],
      ['P3', 'Third', '1', '0', undefined],
    ]);
    // PRICE stays per PRICEUNIT; the line's amount is 2.5 × 10 ÷ 3, rounded once.
    expect(cart.lines[0]?.priceBasis).toEqual({ quantity: '3', conversionFactor: '1', unitOfMeasure: '' });
    expect(cart.lines[1]?.priceBasis).toBeUndefined();
    expect(lineAmountText(cart.lines[0]!)).toBe('8.33');
    expect(cart.lines[1]?.classifications).toEqual([{ domain: 'MATGROUP', code: 'PRINT' }]);
    expect(cart.warnings).toEqual([
      '~OkCode was sent at punch-in but not echoed with the cart.',
      '~TARGET was sent at punch-in but not echoed with the cart.',
      '~CALLER was sent at punch-in but not echoed with the cart.',
      'returntarget was sent at punch-in but not echoed with the cart.',
    ]);
  });
});
