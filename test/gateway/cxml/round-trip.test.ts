import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PunchOutSetupRequest, parseCxmlRequest } from '../../../src/cxml/index.ts';
import { localeOf } from '../../../src/gateway/i18n/locale.ts';
import { languageOfTag } from '../../../src/gateway/i18n/session-language.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
} from '../../support/punchout-flow.ts';
import { createStack, testConfig } from '../../support/stack.ts';
import { buyersWith } from '../../support/order-flow.ts';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../fixtures/cxml/valid/${name}`, import.meta.url)));

const reader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  isArray: (name) => ['ItemIn', 'Extrinsic', 'Classification'].includes(name),
});

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

// One setup request in the style of each buyer system; each goes through the whole round trip.
const STYLES = [
  ['SAP Ariba', 'setup-request.ariba-multi-credential.xml'],
  ['Coupa', 'setup-request.coupa.xml'],
  ['JAGGAER', 'setup-request.jaggaer-empty-elements.xml'],
  ['Oracle iProcurement', 'setup-request.oracle-iprocurement.xml'],
  ['BirchStreet', 'setup-request.birchstreet-no-tz.xml'],
  ['Aquiire (ReturnFrame)', 'setup-request.aquiire-returnframe.xml'],
  ['an ISO-8859-1 ERP', 'setup-request.iso-8859-1-names.xml'],
] as const;

describe('cXML punch-out round trip through the sandbox editor', () => {
  it.each(STYLES)(
    '%s: setup → editor → priced cart → DTD-valid PunchOutOrderMessage',
    async (_style, file) => {
      const stack = await createStack();
      const bytes = fixture(file);
      const setup = parseCxmlRequest(bytes) as PunchOutSetupRequest;

      const answer = await stack.postCxml(bytes);
      expect(answer).toContain('<Status code="200" text="OK"/>');
      // The pages speak the setup's xml:lang (Oracle's fr-FR, the ERP's de-DE); the products have no
      // translation, so their names and the cart sent back stay in English.
      const locale = localeOf(languageOfTag(setup.lang) ?? 'en');
      const catalog = await stack.browse(startUrlOf(answer));
      expect(catalog.status).toBe(200);
      expect(catalog.text).toContain(`<html lang="${locale.language}">`);
      expect(catalog.text).toContain(locale.t('catalog.heading'));

      const designLink = locale.t('catalog.design', { name: 'Business cards' });
      const cart = await designProduct(stack, catalog, 'Business cards', { Name: 'Jane Roe' }, designLink);
      expect(cart.status).toBe(200);
      expect(cart.url).toMatch(/\/punchout\/s\/[^/]+\/cart$/);
      expect(cart.text).toContain('Business cards');
      expect(cart.text).toContain(locale.money('12.00', 'USD'));

      const transfer = await clickButton(stack, cart, locale.t('cart.transfer'));
      expect(transfer.status).toBe(200);
      const form = returnFormOf(transfer);
      expect(form.action).toBe(setup.browserFormPost);
      expect(form.target).toBe(setup.returnFrame ?? '_top');
      const poom = cxmlFromForm(form);

      const validation = validateAgainstDtd(poom, 'cXML');
      expect(validation.messages).toBe('');
      expect(validation.ok).toBe(true);

      const doc = reader.parse(poom).cXML;
      expect(doc.Header.From.Credential['@domain']).toBe('DUNS');
      expect(doc.Header.Sender.Credential.SharedSecret).toBeUndefined();
      const message = doc.Message.PunchOutOrderMessage;
      expect(message.BuyerCookie).toBe(setup.buyerCookie);
      expect(message.PunchOutOrderMessageHeader['@operationAllowed']).toBe('edit');
      expect(message.PunchOutOrderMessageHeader.Total.Money).toEqual({
        '#text': '12.00',
        '@currency': 'USD',
      });
      expect(message.ItemIn).toHaveLength(1);
      const item = message.ItemIn[0];
      expect(item['@quantity']).toBe('100');
      expect(item['@lineNumber']).toBe('1');
      expect(item.ItemID.SupplierPartID).toBe('BC-STD');
      expect(item.ItemID.SupplierPartAuxiliaryID).toMatch(/^L-[0-9A-Z]{8}$/);
      expect(item.ItemDetail.UnitPrice.Money).toEqual({ '#text': '0.12', '@currency': 'USD' });
      const designId = item.ItemDetail.Extrinsic.find((e: { '@name': string }) => e['@name'] === 'designId');
      // The configured product name and the design's label: two designs of one product read apart.
      expect(item.ItemDetail.Description['#text']).toBe(`Business cards (design ${designId['#text']})`);
      expect(item.ItemDetail.UnitOfMeasure).toBe('EA');
      expect(item.ItemDetail.Classification).toEqual([{ '#text': '82121512', '@domain': 'UNSPSC' }]);
      expect(item.ItemDetail.LeadTime).toBe('5');
      const extrinsics = Object.fromEntries(
        item.ItemDetail.Extrinsic.map((e: { '@name': string; '#text': string }) => [e['@name'], e['#text']]),
      );
      expect(extrinsics.designId).toMatch(/^\d+$/);
      // A gateway proof link, the same in ItemDetail/URL; never the editor host's URL with a PIPO token.
      expect(extrinsics.proofUrl).toMatch(/^http:\/\/gateway\.test\/proof\/[\w-]+\.[\w-]+$/);
      expect(item.ItemDetail.URL).toBe(extrinsics.proofUrl);

      // The saved design is the buyer user's own project on the print service, with the typed text.
      const project = stack.upstreamCalls.filter((c) => c.startsWith('GET /api/v2/pipo/project/'));
      expect(project).toEqual([`GET /api/v2/pipo/project/${extrinsics.designId}`]);
    },
  );
});

describe("the buyer's units", () => {
  it("a cXML buyer's unitMap names the PunchOutOrderMessage's UnitOfMeasure in the buyer's code", async () => {
    const base = testConfig();
    const config = {
      ...base,
      buyers: buyersWith(base.buyers, 'acme', { unitMap: { EA: 'C62' } }),
    };
    const stack = await createStack(config);
    const answer = await stack.postCxml(fixture('setup-request.ariba-multi-credential.xml'));
    const catalog = await stack.browse(startUrlOf(answer));
    const cart = await designProduct(stack, catalog, 'Business cards', { Name: 'Jane Roe' });
    const poom = cxmlFromForm(
      returnFormOf(await clickButton(stack, cart, 'Transfer cart to procurement system')),
    );
    expect(validateAgainstDtd(poom, 'cXML')).toEqual({ ok: true, messages: '' });
    const [item] = reader.parse(poom).cXML.Message.PunchOutOrderMessage.ItemIn;
    expect(item.ItemDetail.UnitOfMeasure).toBe('C62');
  });
});
