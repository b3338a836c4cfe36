/**
 * Quantities within the product's bounds on every page a user sees (issue 16, deliverable 2): the catalog
 * and the cart show the price breaks and the minimum, the quantity input carries min, max and step, an
 * out-of-range update re-renders the cart with the message by its line, and an edit that brings a
 * quantity out of range is marked and cannot be transferred until it is changed. Over HTTP through the
 * in-process stack: gateway, sandbox print service and editor, buyer endpoint.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { setupRequest } from '../../support/cxml-documents.ts';
import { findForms, type HtmlForm } from '../../support/html-forms.ts';
import {
  clickButton,
  cxmlFromForm,
  designProduct,
  returnFormOf,
  startUrlOf,
  statusOf,
  submit,
} from '../../support/punchout-flow.ts';
import { type BrowserResponse, createStack, type Stack } from '../../support/stack.ts';

const reader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => name === 'ItemIn',
});

const BUSINESS_CARDS_RANGE = 'The quantity for Business cards must be a whole number from 100 to 100000.';
const TRANSFER_BLOCKED =
  'This cart cannot be transferred until the marked quantities are changed. You can still cancel and return.';

async function punchOut(stack: Stack, options: Parameters<typeof setupRequest>[0] = {}) {
  const answer = await stack.postCxml(setupRequest(options));
  expect(statusOf(answer)).toMatchObject({ code: 200 });
  return stack.browse(startUrlOf(answer));
}

/** A cart with one line of business cards at their minimum of 100, and that line's reference. */
async function businessCardsCart(stack: Stack) {
  const cart = await designProduct(stack, await punchOut(stack), 'Business cards');
  expect(cart.status).toBe(200);
  const lineRef = /\/cart\/([^/]+)\/quantity/.exec(cart.text)?.[1] ?? '';
  expect(lineRef).toMatch(/^L-/);
  return { cart, lineRef };
}

/** Business cards designed, transferred, then reopened by an edit naming the line with `quantity`. */
async function editedCart(stack: Stack, quantity: number, operation: 'edit' | 'inspect' = 'edit') {
  const { cart, lineRef } = await businessCardsCart(stack);
  await clickButton(stack, cart, 'Transfer cart to procurement system');
  const edited = await punchOut(stack, {
    operation,
    buyerCookie: 'cookie-edit',
    items: [{ sku: 'BC-STD', lineRef, quantity }],
  });
  expect(edited.status).toBe(200);
  expect(edited.url).toMatch(/\/cart$/);
  return { cart: edited, lineRef };
}

function formEndingWith(page: BrowserResponse, suffix: string): HtmlForm {
  const form = findForms(page.text).find((f) => f.action.endsWith(suffix));
  expect(form, `a form posting to …${suffix}`).toBeDefined();
  return form as HtmlForm;
}

/** The quantity input of a line, as the page writes it. */
function quantityInput(page: BrowserResponse, lineRef: string): string {
  return new RegExp(`<input id="q-${lineRef}"[^>]*>`).exec(page.text)?.[0] ?? '';
}

function transferButton(page: BrowserResponse): string {
  return /<button[^>]*>Transfer cart to procurement system<\/button>/.exec(page.text)?.[0] ?? '';
}

describe('price breaks and minimum quantities are shown', () => {
  it('the catalog card shows the price breaks a buyer can reach and the minimum', async () => {
    const stack = await createStack();
    const catalog = await punchOut(stack);
    expect(catalog.status).toBe(200);
    // Business cards: minimum 100, so the tier from 1 never applies and is not shown.
    expect(catalog.text).toContain('<p class="price">100+ 0.12, 500+ 0.09 USD / EA</p>');
    expect(catalog.text).toContain('<p class="muted">Minimum 100 EA · SKU BC-STD</p>');
    expect(catalog.text).toContain('<p class="price">1+ 0.35 USD / EA</p>');
    expect(catalog.text).toContain('<p class="muted">Minimum 1 EA · SKU FLY-A5</p>');
  });

  it('a cart line shows its orderable quantities and price breaks; its input carries min, max and step', async () => {
    const stack = await createStack();
    const { cart, lineRef } = await businessCardsCart(stack);
    expect(cart.text).toContain(
      '<span class="muted">Quantities 100 to 100000 EA · price breaks 100+ 0.12, 500+ 0.09 USD</span>',
    );
    expect(quantityInput(cart, lineRef)).toBe(
      `<input id="q-${lineRef}" type="number" name="quantity" min="100" max="100000" step="1" value="100" required>`,
    );
    expect(transferButton(cart)).toBe(
      '<button class="primary" type="submit">Transfer cart to procurement system</button>',
    );
  });
});

describe('an out-of-range quantity update re-renders the cart, never a dead end', () => {
  it.each([
    ['below the minimum', '50'],
    ['above the maximum', '100001'],
    ['not a number', 'many'],
    ['with decimals', '150.5'],
  ])('%s (%s): 400 with the cart, the message by the line and the typed value kept', async (_case, typed) => {
    const stack = await createStack();
    const { cart, lineRef } = await businessCardsCart(stack);
    const refused = await submit(stack, cart, formEndingWith(cart, '/quantity'), { quantity: typed });

    expect(refused.status).toBe(400);
    expect(refused.headers.get('Content-Type')).toBe('text/html; charset=UTF-8');
    expect(refused.text).toContain('<h1>Your cart</h1>');
    expect(refused.text).toContain(`<p class="error" id="q-${lineRef}-problem">${BUSINESS_CARDS_RANGE}</p>`);
    expect(quantityInput(refused, lineRef)).toBe(
      `<input id="q-${lineRef}" type="number" name="quantity" min="100" max="100000" step="1" value="${typed}" required aria-invalid="true" aria-describedby="q-${lineRef}-problem">`,
    );
    // The line itself is unchanged, and the cart can still be transferred as it is.
    expect(refused.text).toContain('12.00 USD');
    expect(transferButton(refused)).not.toContain('disabled');
    const stored = await stack.store.cart.get(lineRef);
    expect(stored?.quantity).toBe(100);
  });

  it('the re-rendered cart takes the corrected quantity and reprices the line', async () => {
    const stack = await createStack();
    const { cart, lineRef } = await businessCardsCart(stack);
    const refused = await submit(stack, cart, formEndingWith(cart, '/quantity'), { quantity: '20' });
    expect(refused.status).toBe(400);

    const corrected = await submit(stack, refused, formEndingWith(refused, '/quantity'), { quantity: '500' });
    expect(corrected.status).toBe(200);
    expect(corrected.url).toMatch(/\/cart$/);
    expect(corrected.text).not.toContain('class="error"');
    expect(quantityInput(corrected, lineRef)).toContain('value="500" required>');
    expect(corrected.text).toContain('0.09 USD / EA');
    expect(corrected.text).toContain('45.00 USD');
  });
});

describe('an edit that brings a quantity out of range', () => {
  it('shows the line marked and the transfer button disabled with the reason', async () => {
    const stack = await createStack();
    const { cart, lineRef } = await editedCart(stack, 2);
    expect(cart.text).toContain(`<p class="error" id="q-${lineRef}-problem">${BUSINESS_CARDS_RANGE}</p>`);
    expect(quantityInput(cart, lineRef)).toBe(
      `<input id="q-${lineRef}" type="number" name="quantity" min="100" max="100000" step="1" value="2" required aria-invalid="true" aria-describedby="q-${lineRef}-problem">`,
    );
    expect(cart.text).toContain(
      `<p class="error" id="transfer-blocked" role="alert">${TRANSFER_BLOCKED}</p>`,
    );
    expect(transferButton(cart)).toBe(
      '<button class="primary" type="submit" disabled aria-describedby="transfer-blocked">Transfer cart to procurement system</button>',
    );
    expect(cart.text).toContain('>Cancel and return</button>');
  });

  it('is refused on transfer with 409 and the cart again, and nothing reaches the buyer', async () => {
    const stack = await createStack();
    const { cart, lineRef } = await editedCart(stack, 2);
    const postsBefore = stack.buyerPosts.length;
    const refused = await submit(stack, cart, formEndingWith(cart, '/transfer'));

    expect(refused.status).toBe(409);
    expect(refused.text).toContain('<h1>Your cart</h1>');
    expect(refused.text).toContain(`<p class="error" id="q-${lineRef}-problem">${BUSINESS_CARDS_RANGE}</p>`);
    expect(refused.text).toContain(TRANSFER_BLOCKED);
    expect(refused.text).not.toContain('data-autosubmit');
    expect(stack.buyerPosts.length).toBe(postsBefore);
    const session = await stack.store.sessions.get((await stack.store.cart.get(lineRef))?.sessionId ?? '');
    expect(session?.state).toBe('open');
  });

  it('above the maximum is marked and refused the same way', async () => {
    const stack = await createStack();
    const { cart, lineRef } = await editedCart(stack, 200000);
    expect(quantityInput(cart, lineRef)).toContain('value="200000" required aria-invalid="true"');
    expect((await submit(stack, cart, formEndingWith(cart, '/transfer'))).status).toBe(409);
  });

  it('can still be cancelled: Status 204 back to the requisition', async () => {
    const stack = await createStack();
    const { cart } = await editedCart(stack, 2);
    const cancel = cxmlFromForm(returnFormOf(await clickButton(stack, cart, 'Cancel and return')));
    expect(cancel).toContain('<Status code="204" text="No Content"/>');
  });

  it('once the quantity is changed, the cart transfers with it', async () => {
    const stack = await createStack();
    const { cart, lineRef } = await editedCart(stack, 2);
    const fixed = await submit(stack, cart, formEndingWith(cart, '/quantity'), { quantity: '100' });
    expect(fixed.status).toBe(200);
    expect(fixed.text).not.toContain('class="error"');
    expect(transferButton(fixed)).toBe(
      '<button class="primary" type="submit">Transfer cart to procurement system</button>',
    );
    const poom = cxmlFromForm(returnFormOf(await submit(stack, fixed, formEndingWith(fixed, '/transfer'))));
    const item = reader.parse(poom).cXML.Message.PunchOutOrderMessage.ItemIn[0];
    expect(item.ItemID.SupplierPartAuxiliaryID).toBe(lineRef);
    expect(item['@quantity']).toBe('100');
  });

  it('within the bounds is not marked (250 business cards)', async () => {
    const stack = await createStack();
    const { cart } = await editedCart(stack, 250);
    expect(cart.text).not.toContain('class="error"');
    expect(transferButton(cart)).not.toContain('disabled');
  });

  it('in an inspect is shown as it is: nothing can change there, and the return is not held back', async () => {
    const stack = await createStack();
    const { cart } = await editedCart(stack, 2, 'inspect');
    expect(cart.text).toContain('<h1>Your cart (read only)</h1>');
    expect(cart.text).not.toContain('class="error"');
    const back = returnFormOf(await clickButton(stack, cart, 'Return to procurement system'));
    expect(cxmlFromForm(back)).toContain('operationAllowed="inspect"');
  });
});
