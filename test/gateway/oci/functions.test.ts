import { describe, expect, it } from 'vitest';
import { profileRequest, setupRequest } from '../../support/cxml-documents.ts';
import { findLinks } from '../../support/html-forms.ts';
import { designProduct, statusOf } from '../../support/punchout-flow.ts';
import { GATEWAY_ORIGIN, type Stack, testConfig } from '../../support/stack.ts';
import { createOciStack, cspOf, getPunchIn, ociFormOf, pressButton, readRawPage } from './oci-http.ts';

const SRM_HOOK = 'https://srm.acme.example/sap/bc/gui/sap/its/bbpsc02/?sap-client=100';
const SAP1 = {
  USERNAME: 'sap1',
  PASSWORD: 'sap1-secret',
  HOOK_URL: SRM_HOOK,
  userid: 'JDOE',
  '~OkCode': 'ADDI',
  '~TARGET': '_top',
  '~CALLER': 'CTLG',
  returntarget: '_parent',
};
const SAP1_ECHO = [
  ['~OkCode', 'ADDI'],
  ['~TARGET', '_top'],
  ['~CALLER', 'CTLG'],
  ['returntarget', '_parent'],
];
/** What sap1's configuration adds to every item. */
const SAP1_FIELDS = {
  UNIT: 'ST',
  VENDOR: '0000100234',
  MANUFACTCODE: 'M-4711',
  CUST_FIELD1: 'KST-4711',
  CUST_FIELD3: 'PRINT',
};
const LATIN = {
  USERNAME: 'latin',
  PASSWORD: 'latin-secret',
  HOOK_URL: 'https://sap.mueller.example/sap/bc/gui/sap/its/bbpsc02/?~',
};

/** Punches in with FUNCTION parameters and follows the redirects to the page the user sees. */
async function punchInPage(stack: Stack, params: Record<string, string>) {
  const answer = await getPunchIn(stack, 'sap1', { ...SAP1, ...params });
  expect(answer.status, await answer.clone().text()).toBe(303);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  return stack.browse(answer.headers.get('location') ?? '');
}

/** A design of business cards transferred by sap1; answers its line reference. */
async function transferredLine(stack: Stack): Promise<string> {
  const cart = await designProduct(stack, await punchInPage(stack, {}), 'Business cards');
  const form = ociFormOf(await pressButton(stack, cart, 'Transfer cart to procurement system'));
  return form.items[1]?.EXT_PRODUCT_ID ?? '';
}

describe('FUNCTION=VALIDATE: no UI, the one item at its current price, posted to HOOK_URL at once', () => {
  it('by SKU: the tier price for QUANTITY, EXT_PRODUCT_ID the SKU, no session and no print-service call', async () => {
    const stack = await createOciStack();
    const page = await readRawPage(
      await getPunchIn(stack, 'sap1', {
        ...SAP1,
        FUNCTION: 'VALIDATE',
        PRODUCTID: 'BC-STD',
        QUANTITY: '750.000',
      }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('set-cookie')).toBeNull();
    const csp = cspOf(page.headers);
    expect(csp['script-src']).toMatch(/^'sha256-/);
    expect(csp['form-action']).toBeUndefined();
    expect(page.text).toContain('<script>');

    const form = ociFormOf(page);
    expect(form.attributes).toMatchObject({ action: SRM_HOOK, target: '_parent', 'accept-charset': 'UTF-8' });
    expect(form.items).toEqual({
      1: {
        DESCRIPTION: 'Business cards',
        QUANTITY: '750',
        PRICE: '0.09',
        PRICEUNIT: '1',
        CURRENCY: 'USD',
        LEADTIME: '5',
        VENDORMAT: 'BC-STD',
        EXT_PRODUCT_ID: 'BC-STD',
        EXT_SCHEMA_TYPE: 'UNSPSC',
        EXT_CATEGORY_ID: '82121512',
        ...SAP1_FIELDS,
      },
    });
    expect(form.echo).toEqual(SAP1_ECHO);
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('a quantity below the minimum or with decimals is raised to whole pieces from the minimum', async () => {
    const stack = await createOciStack();
    const validate = async (productId: string, quantity: string) =>
      ociFormOf(
        await readRawPage(
          await getPunchIn(stack, 'sap1', {
            ...SAP1,
            FUNCTION: 'VALIDATE',
            PRODUCTID: productId,
            QUANTITY: quantity,
          }),
        ),
      ).items[1];
    expect(await validate('BC-STD', '20')).toMatchObject({ QUANTITY: '100', PRICE: '0.12' });
    expect(await validate('FLY-A5', '2.5')).toMatchObject({ QUANTITY: '3', PRICE: '0.35' });
    // SAP pads with spaces and some systems write a decimal comma.
    expect(await validate('FLY-A5', ' 7,000 ')).toMatchObject({ QUANTITY: '7' });
  });

  it('a quantity above the maximum is refused with a page', async () => {
    const stack = await createOciStack();
    const response = await getPunchIn(stack, 'sap1', {
      ...SAP1,
      FUNCTION: 'VALIDATE',
      PRODUCTID: 'BC-STD',
      QUANTITY: '100001',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(
      'The quantity for Business cards must be a whole number from 100 to 100000.',
    );
  });

  it('by a line reference from an earlier transfer: the design keeps its reference and name, priced anew', async () => {
    const stack = await createOciStack();
    const lineRef = await transferredLine(stack);
    const form = ociFormOf(
      await readRawPage(
        await getPunchIn(stack, 'sap1', {
          ...SAP1,
          FUNCTION: 'VALIDATE',
          PRODUCTID: lineRef,
          QUANTITY: '1000',
        }),
      ),
    );
    expect(form.items[1]).toMatchObject({
      DESCRIPTION: expect.stringMatching(/^Business cards \(design \d+\)$/),
      QUANTITY: '1000',
      PRICE: '0.09',
      VENDORMAT: 'BC-STD',
      EXT_PRODUCT_ID: lineRef,
    });
  });

  it("another buyer's line reference and unknown products read as not in the catalog (404)", async () => {
    const stack = await createOciStack();
    const lineRef = await transferredLine(stack);
    for (const [buyer, params] of [
      ['s4', { USERNAME: 's4', PASSWORD: 's4-secret', HOOK_URL: 'https://s4.acme.example:44300/r' }],
      ['sap1', SAP1],
    ] as const) {
      const productId = buyer === 'sap1' ? 'NO-SUCH-SKU' : lineRef;
      const response = await getPunchIn(stack, buyer, {
        ...params,
        FUNCTION: 'VALIDATE',
        PRODUCTID: productId,
      });
      expect(response.status).toBe(404);
      expect(await response.text()).toContain(`This catalog has no product ${productId}.`);
    }
  });

  it('in ISO-8859-1, with the long text in Latin-1 bytes, to a SAPEVENT: hook of SAP GUI', async () => {
    const stack = await createOciStack();
    const page = await readRawPage(
      await getPunchIn(stack, 'latin', {
        ...LATIN,
        HOOK_URL: 'SAPEVENT:POST',
        FUNCTION: 'VALIDATE',
        PRODUCTID: 'VK-MATT',
        QUANTITY: '1000',
      }),
    );
    expect(page.headers.get('content-type')).toBe('text/html; charset=ISO-8859-1');
    expect(page.bytes.includes(0xfc)).toBe(true);
    const form = ociFormOf(page);
    expect(form.attributes).toMatchObject({
      action: 'SAPEVENT:POST',
      target: '_top',
      'accept-charset': 'ISO-8859-1',
    });
    expect(form.items[1]).toMatchObject({
      DESCRIPTION: 'Visitenkarten für Mitarbeiter',
      QUANTITY: '1000',
      PRICE: '0.08',
      CURRENCY: 'EUR',
      LONGTEXT: '85 × 55 mm, 350 g/m² matt, beidseitig bedruckt - Größe nach DIN, ab 0,08 EUR je Karte',
      EXT_PRODUCT_ID: 'VK-MATT',
    });
  });
});

describe('FUNCTION=BACKGROUND_SEARCH: server to server, a form SAP reads and never submits', () => {
  it('lists the hits at their minimum quantity, without script, cookie, session or print-service call', async () => {
    const stack = await createOciStack();
    const page = await readRawPage(
      await getPunchIn(stack, 'sap1', {
        FUNCTION: 'BACKGROUND_SEARCH',
        HOOK_URL: 'https://srm.acme.example/sap/oci/search',
        SEARCHSTRING: 'business CARDS',
        USERNAME: 'sap1',
        PASSWORD: 'sap1-secret',
      }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(cspOf(page.headers)['script-src']).toBe("'none'");
    expect(page.text).not.toContain('<script');
    expect(page.text).not.toContain('onload');
    const form = ociFormOf(page);
    expect(form.attributes).toMatchObject({
      action: 'https://srm.acme.example/sap/oci/search',
      target: '_top',
    });
    expect(form.items).toEqual({
      1: {
        DESCRIPTION: 'Business cards',
        QUANTITY: '100',
        PRICE: '0.12',
        PRICEUNIT: '1',
        CURRENCY: 'USD',
        LEADTIME: '5',
        VENDORMAT: 'BC-STD',
        EXT_PRODUCT_ID: 'BC-STD',
        EXT_SCHEMA_TYPE: 'UNSPSC',
        EXT_CATEGORY_ID: '82121512',
        ...SAP1_FIELDS,
      },
    });
    expect(form.echo).toEqual([]);
    expect(page.text).toContain('<caption>business CARDS (1)</caption>');
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('a wildcard lists the whole catalog in order; a miss is a form without items', async () => {
    const stack = await createOciStack();
    const search = async (searchString: string) =>
      ociFormOf(
        await readRawPage(
          await getPunchIn(stack, 'sap1', {
            ...SAP1,
            FUNCTION: 'BACKGROUND_SEARCH',
            SEARCHSTRING: searchString,
          }),
        ),
      );
    const all = await search('*');
    expect(Object.values(all.items).map((item) => item.VENDORMAT)).toEqual([
      'BC-STD',
      'FLY-A5',
      'POS-CUSTOM',
    ]);
    expect(Object.values(all.items).map((item) => item.EXT_CATEGORY_ID)).toEqual([
      '82121512',
      '82121503',
      '82121500',
    ]);
    const none = await search('Visitenkarten');
    expect(none.items).toEqual({});
    expect(none.echo).toEqual(SAP1_ECHO);
  });

  it("answers the first catalog page of hits (48), as SOURCING's results are paged; the notice says how many were found", async () => {
    const config = testConfig();
    const [demo, ...others] = config.storefronts;
    const products = Array.from({ length: 100 }, (_, i) => ({
      productId: 101,
      sku: `SKU-${String(i + 1).padStart(3, '0')}`,
      name: `Business cards ${i + 1}`,
      uom: 'EA',
      prices: [{ minQuantity: 1, unitPrice: 0.12 }],
    }));
    const stack = await createOciStack({ ...config, storefronts: [{ ...demo!, products }, ...others] });
    const search = async (searchString: string) =>
      readRawPage(
        await getPunchIn(stack, 'sap1', {
          ...SAP1,
          FUNCTION: 'BACKGROUND_SEARCH',
          SEARCHSTRING: searchString,
        }),
      );
    const all = await search('*');
    const items = Object.values(ociFormOf(all).items);
    expect(items).toHaveLength(48);
    expect(items.map((item) => item.VENDORMAT)).toEqual(products.slice(0, 48).map((product) => product.sku));
    expect(all.text).toContain(
      '<p>The first 48 of 100 catalog items found for your search; narrow the search to find the others.</p>',
    );
    expect(all.text).toContain('<caption>* (48)</caption>');
    const one = await search('SKU-100');
    expect(Object.values(ociFormOf(one).items).map((item) => item.VENDORMAT)).toEqual(['SKU-100']);
    expect(one.text).toContain('<p>Catalog items found for your search.</p>');
  });

  it('matches without case and accents, in the buyer charset', async () => {
    const stack = await createOciStack();
    const page = await readRawPage(
      await getPunchIn(stack, 'latin', {
        ...LATIN,
        FUNCTION: 'BACKGROUND_SEARCH',
        SEARCHSTRING: 'VISITENKARTEN fur',
      }),
    );
    expect(page.headers.get('content-type')).toBe('text/html; charset=ISO-8859-1');
    expect(ociFormOf(page).items[1]).toMatchObject({
      DESCRIPTION: 'Visitenkarten für Mitarbeiter',
      QUANTITY: '250',
      PRICE: '0.11',
      UNIT: 'ST',
    });
  });
});

describe('FUNCTION=DETAIL and SOURCING: product pages inside a session, then the usual punch-out', () => {
  it('DETAIL of a SKU: the product page, "Design" into the editor, then cart and transfer', async () => {
    const stack = await createOciStack();
    const page = await punchInPage(stack, { FUNCTION: 'DETAIL', PRODUCTID: 'FLY-A5' });
    expect(page.status).toBe(200);
    expect(page.url).toMatch(new RegExp(`^${GATEWAY_ORIGIN}/oci/s/[^/]+/product/FLY-A5$`));
    expect(cspOf(page.headers)['frame-ancestors']).toBe("'self' srm.acme.example portal.acme.example");
    expect(page.text).toContain('<h1>A5 flyer</h1>');
    expect(page.text).toContain('<td class="num">0.35 USD / EA</td>');
    expect(findLinks(page.text).map((link) => link.text)).toEqual([
      'Design A5 flyer',
      'Browse the whole catalog',
      'Cart (0)',
    ]);

    const cart = await designProduct(stack, page, 'A5 flyer');
    const transfer = ociFormOf(await pressButton(stack, cart, 'Transfer cart to procurement system'));
    expect(transfer.attributes.action).toBe(SRM_HOOK);
    expect(transfer.items[1]).toMatchObject({
      DESCRIPTION: expect.stringMatching(/^A5 flyer \(design \d+\)$/),
      VENDORMAT: 'FLY-A5',
      QUANTITY: '1',
    });
  });

  it('DETAIL of a line reference shows the design from the requisition with its product', async () => {
    const stack = await createOciStack();
    const lineRef = await transferredLine(stack);
    const page = await punchInPage(stack, { FUNCTION: 'DETAIL', PRODUCTID: lineRef });
    expect(page.url).toMatch(/\/product\/BC-STD\?line=L-/);
    const line = await stack.store.cart.get(lineRef);
    expect(page.text).toContain(
      `In your requisition: <strong>Business cards (design ${line?.designId})</strong> <span class="muted">(ref ${lineRef})</span>`,
    );
    expect(page.text).toContain('Design Business cards');
  });

  it('DETAIL of an unknown product is a 404 page and opens no session', async () => {
    const stack = await createOciStack();
    const response = await getPunchIn(stack, 'sap1', { ...SAP1, FUNCTION: 'DETAIL', PRODUCTID: 'L-8F3K2' });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('This catalog has no product L-8F3K2.');
    expect(stack.upstreamCalls).toEqual([]);
  });

  it('SOURCING shows the matching products to design; without SEARCHSTRING, the catalog', async () => {
    const stack = await createOciStack();
    const page = await punchInPage(stack, { FUNCTION: 'SOURCING', SEARCHSTRING: 'flyer' });
    expect(page.url).toMatch(/\/oci\/s\/[^/]+\/search\?q=flyer$/);
    expect(page.text).toContain('<h1>Products for “flyer”</h1>');
    expect(page.text).toContain('1 product matches your search.');
    const cart = await designProduct(stack, page, 'A5 flyer');
    expect(cart.text).toContain('A5 flyer');

    const miss = await punchInPage(stack, { FUNCTION: 'SOURCING', SEARCHSTRING: 'Kugelschreiber' });
    expect(miss.text).toContain('No product matches “Kugelschreiber”. Browse the whole catalog instead.');

    const catalog = await punchInPage(stack, { FUNCTION: 'SOURCING' });
    expect(catalog.text).toContain('Choose a product to design');
  });

  it('DETAIL shows the price breaks a buyer can reach: from the minimum, never the tier below it', async () => {
    const stack = await createOciStack();
    const page = await punchInPage(stack, { FUNCTION: 'DETAIL', PRODUCTID: 'BC-STD' });
    const rows = [...page.text.matchAll(/<tr><td>(\d+)<\/td><td class="num">([^<]+)<\/td><\/tr>/g)];
    expect(rows.map(([, from, price]) => [from, price])).toEqual([
      ['100', '0.12 USD / EA'],
      ['500', '0.09 USD / EA'],
    ]);
  });

  it("a session page's link does not work once the cart was transferred", async () => {
    const stack = await createOciStack();
    const page = await punchInPage(stack, { FUNCTION: 'DETAIL', PRODUCTID: 'BC-STD' });
    const cart = await designProduct(stack, page, 'Business cards');
    await pressButton(stack, cart, 'Transfer cart to procurement system');
    const again = await stack.browse(page.url);
    expect(again.status).toBe(409);
    expect(again.text).toContain('This cart was already sent to your procurement system.');
  });
});

describe('cancel', () => {
  it('posts HOOK_URL an empty transfer: only the echoed ~ fields, in the buyer charset', async () => {
    const stack = await createOciStack();
    const answer = await getPunchIn(stack, 'latin', { ...LATIN, '~OkCode': 'ADDI', '~Target': '_parent' });
    const catalog = await stack.browse(answer.headers.get('location') ?? '');
    const cart = await designProduct(stack, catalog, 'Visitenkarten für Mitarbeiter');
    const page = await pressButton(stack, cart, 'Cancel and return');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=ISO-8859-1');
    expect(page.text).toContain('You are returning to your procurement system without new items.');
    const form = ociFormOf(page);
    expect(form.attributes).toMatchObject({ action: LATIN.HOOK_URL, target: '_parent' });
    expect(form.inputs).toEqual([
      ['~OkCode', 'ADDI'],
      ['~Target', '_parent'],
    ]);
    const lineRef = /ref (L-[0-9A-Z]{8})/.exec(cart.text)?.[1] ?? '';
    const line = await stack.store.cart.get(lineRef);
    const session = await stack.store.sessions.get(line?.sessionId ?? '');
    expect(session?.state).toBe('cancelled');
  });
});

describe('the purchase order that follows comes as cXML, authenticated by the OCI buyer’s From and SharedSecret', () => {
  it('sap1’s order credentials open the cXML door, a wrong secret does not, and they cannot punch out by cXML', async () => {
    const stack = await createOciStack();
    expect(statusOf(await stack.postCxml(profileRequest('SAP1-ORDERS', 'sap1-order-secret')))).toMatchObject({
      code: 200,
    });
    expect(statusOf(await stack.postCxml(profileRequest('SAP1-ORDERS', 'sap1-secret')))).toEqual({
      code: 401,
      text: 'Unauthorized',
      detail: 'Authentication failed: the Sender SharedSecret is not valid.',
    });
    const setup = setupRequest({ identity: 'SAP1-ORDERS', secret: 'sap1-order-secret' });
    expect(statusOf(await stack.postCxml(setup))).toEqual({
      code: 400,
      text: 'Bad Request',
      detail: 'Buyer sap1 punches out with OCI, not cXML.',
    });
  });
});

describe('supplierPartIds: sku-design for an OCI buyer', () => {
  it('VENDORMAT names the design and VALIDATE of the line repeats it; EXT_PRODUCT_ID stays the line reference', async () => {
    const base = testConfig();
    const config = {
      ...base,
      buyers: base.buyers.map((b) =>
        b.id === 'sap1' ? { ...b, supplierPartIds: 'sku-design' as const } : b,
      ),
    };
    const stack = await createOciStack(config);
    const cart = await designProduct(stack, await punchInPage(stack, {}), 'Business cards');
    const item = ociFormOf(await pressButton(stack, cart, 'Transfer cart to procurement system')).items[1];
    const line = await stack.store.cart.get(item?.EXT_PRODUCT_ID ?? '');
    expect(item).toMatchObject({
      VENDORMAT: `BC-STD-D${line?.designId}`,
      DESCRIPTION: `Business cards (design ${line?.designId})`,
      EXT_PRODUCT_ID: line?.lineRef,
    });

    const validated = await readRawPage(
      await getPunchIn(stack, 'sap1', { ...SAP1, FUNCTION: 'VALIDATE', PRODUCTID: line?.lineRef ?? '' }),
    );
    expect(ociFormOf(validated).items[1]).toMatchObject({ VENDORMAT: `BC-STD-D${line?.designId}` });
  });
});
