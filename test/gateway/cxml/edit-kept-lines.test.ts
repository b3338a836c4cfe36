/**
 * An edit punch-out keeps every line of the requisition (issue 16): a line the gateway cannot match to a
 * cart line of its own (no line reference, a SKU-only line from before the gateway, an unknown reference)
 * is shown as "kept as sent" and handed back in the edit PunchOutOrderMessage exactly as received, because
 * Ariba and Coupa delete every line an edit leaves out. An edit that would hand back nothing asks first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupRequest } from '../../support/cxml-documents.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import { findForms } from '../../support/html-forms.ts';
import { parseXml, punchOut, type XmlTree } from '../../support/order-flow.ts';
import { clickButton, cxmlFromForm, returnFormOf, startUrlOf, submit } from '../../support/punchout-flow.ts';
import { type BrowserResponse, createStack, type Stack } from '../../support/stack.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

/** A line the gateway never handed out, with every ItemDetail field a buyer's system sends. */
const UNKNOWN_LINE = `<ItemOut quantity="2.5" lineNumber="7"><ItemID><SupplierPartID>LEGACY-42</SupplierPartID><SupplierPartAuxiliaryID>OLD:ref/9</SupplierPartAuxiliaryID></ItemID>
<ItemDetail><UnitPrice><Money currency="EUR">3.4500</Money></UnitPrice><Description xml:lang="en">Toner &amp; drum</Description><UnitOfMeasure>BX</UnitOfMeasure><Classification domain="UNSPSC">44103103</Classification><Classification domain="custom">TON</Classification><ManufacturerPartID>TN-1</ManufacturerPartID><ManufacturerName>Acme Imaging</ManufacturerName><Extrinsic name="costCenter">CC-7</Extrinsic><Extrinsic name="contract">K 12</Extrinsic></ItemDetail></ItemOut>`;

/** A SKU-only line (our SKU, no line reference), as a requisition from before the gateway holds it. */
const SKU_ONLY_LINE = `<ItemOut quantity="300" lineNumber="8"><ItemID><SupplierPartID>BC-STD</SupplierPartID></ItemID>
<ItemDetail><UnitPrice><Money currency="USD">0.10</Money></UnitPrice><Description xml:lang="en">Cards from before</Description><UnitOfMeasure>EA</UnitOfMeasure><Classification domain="UNSPSC">82121512</Classification></ItemDetail></ItemOut>`;

/** Our reference pattern, but a line the gateway does not know. */
const UNKNOWN_REF_LINE = `<ItemOut quantity="1" lineNumber="9"><ItemID><SupplierPartID>BC-STD</SupplierPartID><SupplierPartAuxiliaryID>L-ZZZZZZZZ</SupplierPartAuxiliaryID></ItemID>
<ItemDetail><UnitPrice><Money currency="USD">5.00</Money></UnitPrice><Description xml:lang="en">Lost line</Description><UnitOfMeasure>PK</UnitOfMeasure><Classification domain="UNSPSC">82121500</Classification></ItemDetail></ItemOut>`;

async function editSetup(
  stack: Stack,
  ours: { sku: string; lineRef: string; quantity: number }[],
  extra: string[],
): Promise<BrowserResponse> {
  const xml = setupRequest({ operation: 'edit', buyerCookie: 'edit-cookie', items: ours }).replace(
    '</PunchOutSetupRequest>',
    `${extra.join('\n')}\n</PunchOutSetupRequest>`,
  );
  const page = await stack.browse(startUrlOf(await stack.postCxml(xml)));
  expect(page.status).toBe(200);
  expect(page.url).toMatch(/\/cart$/);
  return page;
}

/** Transfers the cart and answers the PunchOutOrderMessage's ItemIn list, after checking it against the DTD. */
async function transferredItems(stack: Stack, page: BrowserResponse): Promise<XmlTree[]> {
  const transfer = await clickButton(stack, page, 'Transfer cart to procurement system');
  expect(transfer.status).toBe(200);
  return itemsOf(cxmlFromForm(returnFormOf(transfer)));
}

function itemsOf(poom: string): XmlTree[] {
  const validation = validateAgainstDtd(poom, 'cXML');
  expect(validation.messages).toBe('');
  const message = parseXml(poom).cXML.Message.PunchOutOrderMessage;
  expect(message.PunchOutOrderMessageHeader['@operationAllowed']).toBe('edit');
  const items = message.ItemIn ?? [];
  return Array.isArray(items) ? items : [items];
}

const list = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The ItemIn fields a buyer's system compares, in the parsed document's shape. */
function fieldsOf(item: XmlTree) {
  const detail = item.ItemDetail;
  return {
    quantity: item['@quantity'],
    supplierPartID: item.ItemID.SupplierPartID,
    auxiliary: item.ItemID.SupplierPartAuxiliaryID,
    price: detail.UnitPrice.Money,
    description: detail.Description['#text'],
    uom: detail.UnitOfMeasure,
    classifications: list(detail.Classification),
    manufacturerPartID: detail.ManufacturerPartID,
    // The builder writes ManufacturerName with the message's xml:lang; its text is the buyer's.
    manufacturerName: detail.ManufacturerName?.['#text'],
    extrinsics: list(detail.Extrinsic),
  };
}

const removeFormOf = (page: BrowserResponse, index: number) => {
  const form = findForms(page.text).find((f) => f.action.endsWith(`/kept/${index}/remove`));
  if (form === undefined) throw new Error(`no remove form for kept line ${index}`);
  return form;
};

describe('edit punch-out keeps the lines the gateway does not know', () => {
  it('shows unknown, SKU-only and unknown-reference lines as kept and hands them back unchanged', async () => {
    const stack = await createStack();
    const [cards] = await punchOut(stack, ['Business cards']);
    if (cards === undefined) throw new Error('no line');
    const page = await editSetup(
      stack,
      [{ sku: cards.sku, lineRef: cards.lineRef, quantity: 200 }],
      [UNKNOWN_LINE, SKU_ONLY_LINE, UNKNOWN_REF_LINE],
    );
    expect(page.text).toContain(cards.lineRef);
    expect(page.text.match(/kept as sent/g)).toHaveLength(3);
    expect(page.text).toContain('Toner &amp; drum');
    expect(page.text).toContain('Cards from before');

    const items = await transferredItems(stack, page);
    expect(items.map((i) => i['@lineNumber'])).toEqual(['1', '2', '3', '4']);
    expect(items[0].ItemID.SupplierPartAuxiliaryID).toBe(cards.lineRef);
    expect(items[0]['@quantity']).toBe('200');
    expect(fieldsOf(items[1])).toEqual({
      quantity: '2.5',
      supplierPartID: 'LEGACY-42',
      auxiliary: 'OLD:ref/9',
      price: { '#text': '3.4500', '@currency': 'EUR' },
      description: 'Toner & drum',
      uom: 'BX',
      classifications: [
        { '#text': '44103103', '@domain': 'UNSPSC' },
        { '#text': 'TON', '@domain': 'custom' },
      ],
      manufacturerPartID: 'TN-1',
      manufacturerName: 'Acme Imaging',
      extrinsics: [
        { '#text': 'CC-7', '@name': 'costCenter' },
        { '#text': 'K 12', '@name': 'contract' },
      ],
    });
    expect(fieldsOf(items[2])).toEqual({
      quantity: '300',
      supplierPartID: 'BC-STD',
      auxiliary: undefined,
      price: { '#text': '0.10', '@currency': 'USD' },
      description: 'Cards from before',
      uom: 'EA',
      classifications: [{ '#text': '82121512', '@domain': 'UNSPSC' }],
      manufacturerPartID: undefined,
      manufacturerName: undefined,
      extrinsics: [],
    });
    expect(fieldsOf(items[3])).toMatchObject({
      quantity: '1',
      supplierPartID: 'BC-STD',
      auxiliary: 'L-ZZZZZZZZ',
      price: { '#text': '5.00', '@currency': 'USD' },
      uom: 'PK',
    });
  });

  it('removing a kept line drops it from the transfer; the others stay', async () => {
    const stack = await createStack();
    let page = await editSetup(stack, [], [UNKNOWN_LINE, SKU_ONLY_LINE]);
    page = await submit(stack, page, removeFormOf(page, 0));
    expect(page.status).toBe(200);
    expect(page.text.match(/kept as sent/g)).toHaveLength(1);
    expect(page.text).not.toContain('LEGACY-42');
    const removedAgain = await stack.browse(
      new URL(removeFormOf(page, 1).action.replace('/kept/1/', '/kept/0/'), page.url).toString(),
      { method: 'POST' },
    );
    expect(removedAgain.status).toBe(404);
    const items = await transferredItems(stack, page);
    expect(items.map((i) => i.ItemID.SupplierPartID)).toEqual(['BC-STD']);
    expect(items[0].ItemID.SupplierPartAuxiliaryID).toBeUndefined();
  });

  it('an edit cart that would hand back no line asks to confirm first', async () => {
    const stack = await createStack();
    let page = await editSetup(stack, [], [UNKNOWN_LINE]);
    page = await submit(stack, page, removeFormOf(page, 0));
    expect(page.text).toContain('Your cart is empty.');
    expect(page.text).toContain('name="confirmEmpty"');

    const refused = await clickButton(stack, page, 'Transfer cart to procurement system');
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(
      'This cart is empty. Tick the box to confirm that every line of the requisition is to be removed.',
    );
    expect(findForms(refused.text).some((f) => f.action.endsWith('/cancel'))).toBe(true);

    const transferForm = findForms(refused.text).find((f) => f.action.endsWith('/transfer'));
    if (transferForm === undefined) throw new Error('no transfer form');
    const confirmed = await submit(stack, refused, {
      ...transferForm,
      fields: [...transferForm.fields, ['confirmEmpty', 'yes']],
    });
    expect(confirmed.status).toBe(200);
    expect(itemsOf(cxmlFromForm(returnFormOf(confirmed)))).toEqual([]);
  });
});
