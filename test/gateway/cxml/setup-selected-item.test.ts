/**
 * Level-1 punch-outs as Ariba sends them: a SelectedItem that names no part opens the catalog, where it
 * used to be refused with 400 (a SelectedItem naming a part still opens that product: setup.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type PunchOutSetupRequest, parseCxmlRequest } from '../../../src/cxml/index.ts';
import { startUrlOf, statusOf } from '../../support/punchout-flow.ts';
import { createStack } from '../../support/stack.ts';

const FIXTURE = readFileSync(
  new URL('../../../fixtures/cxml/valid/setup-request.ariba-empty-selected-item.xml', import.meta.url),
  'utf8',
);
const ARIBA_SELECTED_ITEM = /<SelectedItem>[\s\S]*<\/SelectedItem>/;

/** The fixture with its SelectedItem written another way. */
const withSelectedItem = (selectedItem: string) => FIXTURE.replace(ARIBA_SELECTED_ITEM, selectedItem);

const EMPTY_SELECTED_ITEMS = [
  ['an empty SupplierPartID (the fixture)', FIXTURE],
  ['an empty element', withSelectedItem('<SelectedItem/>')],
  ['an empty ItemID', withSelectedItem('<SelectedItem><ItemID/></SelectedItem>')],
  [
    'a blank SupplierPartID and an empty SupplierPartAuxiliaryID',
    withSelectedItem(
      '<SelectedItem><ItemID><SupplierPartID>  </SupplierPartID><SupplierPartAuxiliaryID/></ItemID></SelectedItem>',
    ),
  ],
] as const;

describe('an empty SelectedItem', () => {
  it('the fixture really carries an empty SelectedItem, which parses as no selected item', () => {
    expect(FIXTURE).toMatch(ARIBA_SELECTED_ITEM);
    const request = parseCxmlRequest(new TextEncoder().encode(FIXTURE)) as PunchOutSetupRequest;
    expect(request.kind).toBe('PunchOutSetupRequest');
    expect(request.selectedItem).toBeUndefined();
  });

  it.each(EMPTY_SELECTED_ITEMS)('with %s opens the catalog (level 1)', async (_case, document) => {
    const stack = await createStack();
    const answer = await stack.postCxml(document);
    expect(statusOf(answer)).toMatchObject({ code: 200, text: 'OK' });
    const page = await stack.browse(startUrlOf(answer));
    expect(page.status).toBe(200);
    expect(page.url).toMatch(/\/catalog$/);
    expect(page.text).toContain('Choose a product to design');
  });
});
