/**
 * The buyer's language in a real browser: a cXML setup saying xml:lang="de-DE" and an SAP OCI punch-in
 * saying sap-language=D both open German pages — German words, German product names from the config's
 * translations, prices and quantities written the German way (0,04 $; 1.000+; 60,00 $) — though the
 * browser itself asks for English. The gateway is the in-process test stack served on a loopback port; a
 * product ordered as it is (no editor) puts a line in the cart.
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../schemas/config.ts';
import { startUrlOf } from '../support/punchout-flow.ts';
import { createStack, type Stack, testConfig } from '../support/stack.ts';
import { launchChromium } from './chromium.ts';
import { stepsWithScreenshots } from './failure-screenshots.ts';

/** C4 envelopes, the sandbox's template 106 sold as it is, named in German and French. */
const ENVELOPES = {
  productId: 106,
  printProductId: 106,
  sku: 'ENV-C4',
  name: 'C4 envelopes',
  description: '229 × 324 mm, white, self-seal',
  translations: {
    de: { name: 'C4-Briefumschläge', description: '229 × 324 mm, weiß, selbstklebend' },
    fr: { name: 'Enveloppes C4' },
  },
  uom: 'EA',
  minQuantity: 100,
  prices: [
    { minQuantity: 1, unitPrice: 0.05 },
    { minQuantity: 1000, unitPrice: 0.04 },
  ],
};

function languagesConfig(publicUrl: string): GatewayConfigInput {
  const base = testConfig({ publicUrl });
  return {
    ...base,
    storefronts: base.storefronts.map((s) => (s.id === 'demo' ? { ...s, products: [ENVELOPES] } : s)),
  };
}

const SETUP = (lang: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.044/cXML.dtd">
<cXML payloadID="1714557600.1@muc.acme.example" timestamp="2024-05-01T10:00:00+02:00" xml:lang="${lang}">
<Header>
<From><Credential domain="NetworkID"><Identity>AN01000000001</Identity></Credential></From>
<To><Credential domain="DUNS"><Identity>PRINTCO</Identity></Credential></To>
<Sender><Credential domain="NetworkID"><Identity>AN01000000001</Identity><SharedSecret>acme-secret</SharedSecret></Credential><UserAgent>Ariba</UserAgent></Sender>
</Header>
<Request deploymentMode="production"><PunchOutSetupRequest operation="create">
<BuyerCookie>de-1</BuyerCookie>
<Extrinsic name="UserEmail">max.mueller@acme.example</Extrinsic>
<BrowserFormPost><URL>https://buyer.example/punchout/return</URL></BrowserFormPost>
<SupplierSetup><URL>https://gateway.test/cxml</URL></SupplierSetup>
</PunchOutSetupRequest></Request>
</cXML>`;

/** Text as a person reads it: Intl's no-break spaces (0,04 $) read as spaces. */
async function read(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\s+/g, ' ').trim();
}

/** The German catalog and cart, as a person reads them: words, names and numbers. */
async function orderInGerman(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Wählen Sie ein Produkt zum Gestalten' }).waitFor();
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  const card = page.getByRole('article').filter({ hasText: 'C4-Briefumschläge' });
  expect(await read(card.locator('.price'))).toBe('100+ 0,05 $, 1.000+ 0,04 $ / EA');
  expect(await card.getByText('Mindestens 100 EA').count()).toBe(1);
  await card.getByLabel('Menge (EA)').fill('1500');
  await card.getByRole('button', { name: 'In den Warenkorb' }).click();

  await page.getByRole('heading', { level: 1, name: 'Ihr Warenkorb' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: 'C4-Briefumschläge' });
  expect(await read(row)).toContain('Mengen 100 bis 100.000 EA · Staffelpreise 100+ 0,05 $, 1.000+ 0,04 $');
  expect(await read(row.getByRole('cell').nth(3))).toBe('0,04 $ / EA');
  expect(await read(row.getByRole('cell').nth(4))).toBe('60,00 $');
  // The input keeps the number as forms send it.
  expect(await row.getByRole('spinbutton', { name: 'Menge' }).inputValue()).toBe('1500');
  expect(await read(page.getByRole('row').filter({ hasText: 'Warenkorb gesamt' }))).toMatch(/60,00 \$/);
  await page.getByRole('button', { name: 'Warenkorb an das Beschaffungssystem übertragen' }).waitFor();
}

describe('buyer pages in the buyer’s language, in Chromium', () => {
  let browser: Browser;
  let server: ServerType;
  let stack: Stack;
  let origin: string;

  beforeAll(async () => {
    let app: Stack['gateway']['app'] | undefined;
    ({ server, origin } = await new Promise<{ server: ServerType; origin: string }>((resolve) => {
      const listening = serve(
        {
          fetch: (request) => (app ? app.fetch(request) : new Response('starting', { status: 503 })),
          port: 0,
          hostname: '127.0.0.1',
        },
        (info: AddressInfo) => resolve({ server: listening, origin: `http://127.0.0.1:${info.port}` }),
      );
    }));
    stack = await createStack(languagesConfig(origin));
    app = stack.gateway.app;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('a German cXML setup and a German OCI punch-in show German pages with German numbers', {
    timeout: 60_000,
  }, async () => {
    // The browser asks for English: the punch-ins' own language fields decide.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const step = stepsWithScreenshots(page, 'languages');
    try {
      await step('cXML setup with xml:lang="de-DE": German catalog and cart', async () => {
        const startUrl = startUrlOf(await stack.postCxml(SETUP('de-DE')));
        expect(startUrl.startsWith(`${origin}/punchout/start/`)).toBe(true);
        await page.goto(startUrl);
        await orderInGerman(page);
      });
      await step('OCI punch-in with sap-language=D: German catalog and cart', async () => {
        const params = new URLSearchParams({
          USERNAME: 'sap1',
          PASSWORD: 'sap1-secret',
          HOOK_URL: 'https://srm.acme.example/sap/bc/hook',
          'sap-language': 'D',
        });
        await page.goto(`${origin}/oci/sap1?${params}`);
        await orderInGerman(page);
      });
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
