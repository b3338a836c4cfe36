/**
 * An ordered line stays ordered whatever an edit or inspect punch-out does with it: its state is what flags
 * a second new PO for the same line (`line_already_ordered`) and what keeps housekeeping from deleting
 * it. Inspect and edit used to put it back into the cart state, which cleared both.
 */
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../../support/cxml-documents.ts';
import { findForms } from '../../support/html-forms.ts';
import {
  type CartLineOut,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  parseXml,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { clickButton, cxmlFromForm, returnFormOf, startUrlOf, submit } from '../../support/punchout-flow.ts';

/** A cart of business cards and flyers ordered by PO-1; answers its lines. */
async function orderedLines(stack: OrderStack): Promise<CartLineOut[]> {
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
  expect(
    await sendOrder(stack, { payloadID: 'first@ariba.example', orderID: 'PO-1', lines: linesOf(cart) }),
  ).toMatchObject({ code: 200 });
  await drain(stack);
  for (const line of cart) {
    expect(await stack.store.cart.get(line.lineRef)).toMatchObject({ state: 'ordered' });
  }
  return cart;
}

/** Reopens the requisition's lines in an edit or inspect punch-out; answers the cart page. */
async function reopen(stack: OrderStack, operation: 'edit' | 'inspect', cart: readonly CartLineOut[]) {
  const answer = await stack.postCxml(
    setupRequest({
      operation,
      buyerCookie: `${operation}-cookie`,
      items: cart.map((line) => ({ sku: line.sku, lineRef: line.lineRef, quantity: Number(line.quantity) })),
    }),
  );
  const page = await stack.browse(startUrlOf(answer));
  expect(page.status).toBe(200);
  expect(page.url).toMatch(/\/cart$/);
  return page;
}

const stateOf = async (stack: OrderStack, lineRef: string) => (await stack.store.cart.get(lineRef))?.state;

describe('ordered lines in edit and inspect punch-outs', () => {
  it('inspect shows the ordered lines and leaves them ordered: a second new PO is still flagged', async () => {
    const stack = await createOrderStack();
    const cart = await orderedLines(stack);
    const page = await reopen(stack, 'inspect', cart);
    for (const line of cart) {
      expect(page.text).toContain(line.lineRef);
      expect(await stateOf(stack, line.lineRef)).toBe('ordered');
    }
    await clickButton(stack, page, 'Return to procurement system');
    for (const line of cart) expect(await stateOf(stack, line.lineRef)).toBe('ordered');

    await sendOrder(stack, { payloadID: 'second@ariba.example', orderID: 'PO-2', lines: linesOf(cart) });
    await drain(stack);
    const second = await stack.store.orders.getByPayloadId('acme', 'second@ariba.example');
    expect(second?.flags).toEqual(['line_already_ordered']);
  });

  it('edit changes an ordered line’s quantity and removes one without changing their state', async () => {
    const stack = await createOrderStack();
    const cart = await orderedLines(stack);
    const [cards, flyers] = cart as [CartLineOut, CartLineOut];
    const page = await reopen(stack, 'edit', cart);
    expect(await stateOf(stack, cards.lineRef)).toBe('ordered');

    const quantityForm = findForms(page.text).find((f) =>
      f.action.endsWith(`/cart/${cards.lineRef}/quantity`),
    );
    if (quantityForm === undefined) throw new Error('no quantity form for the business cards');
    const changed = await submit(stack, page, quantityForm, { quantity: '500' });
    expect(changed.status).toBe(200);
    expect(await stack.store.cart.get(cards.lineRef)).toMatchObject({ state: 'ordered', quantity: 500 });

    const removeForm = findForms(changed.text).find((f) =>
      f.action.endsWith(`/cart/${flyers.lineRef}/remove`),
    );
    if (removeForm === undefined) throw new Error('no remove form for the flyers');
    const removed = await submit(stack, changed, removeForm, {});
    expect(removed.status).toBe(200);
    expect(removed.text).not.toContain(flyers.lineRef);
    expect(await stateOf(stack, flyers.lineRef)).toBe('ordered');

    const poom = cxmlFromForm(
      returnFormOf(await clickButton(stack, removed, 'Transfer cart to procurement system')),
    );
    const items = parseXml(poom).cXML.Message.PunchOutOrderMessage.ItemIn;
    expect(
      items.map(
        (item: { ItemID: { SupplierPartAuxiliaryID: string } }) => item.ItemID.SupplierPartAuxiliaryID,
      ),
    ).toEqual([cards.lineRef]);
    expect(items[0]['@quantity']).toBe('500');
    for (const line of cart) expect(await stateOf(stack, line.lineRef)).toBe('ordered');

    // The requisition as the buyer now has it can be edited again: the removed line is back if named.
    const again = await reopen(stack, 'edit', cart);
    expect(again.text).toContain(flyers.lineRef);
    expect(await stateOf(stack, flyers.lineRef)).toBe('ordered');
  });
});
