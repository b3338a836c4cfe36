/**
 * What a PO carries for the people who produce and bill it: each line's accounting (Distribution) and its
 * own Extrinsics kept with the stored line, shown in the admin API, on the console's PO page and in the job
 * ticket, beside the buyer's ControlKeys in force; and a print PO whose line has no usable ship-to address,
 * flagged `ship_to_missing` and held for an operator (or, for buyers who say so, placed and flagged).
 */
import { describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import {
  adminJson,
  confirmationsReceived,
  createOrderStack,
  drain,
  linesOf,
  type OrderLineIn,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';
import { signIn } from '../operator/console/console-support.ts';

function configWith(missingShipTo?: 'hold' | 'accept'): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    buyers: base.buyers.map((b) =>
      b.id === 'acme' && missingShipTo !== undefined ? { ...b, missingShipTo } : b,
    ),
  };
}

const COST_CENTRE = `<Distribution><Accounting name="DistributionCharge">
<AccountingSegment id="0610"><Name xml:lang="en">Cost Center</Name><Description xml:lang="en">Marketing</Description></AccountingSegment>
<AccountingSegment id="6300100"><Name xml:lang="en">G/L Account</Name><Description xml:lang="en">Printed matter</Description></AccountingSegment>
</Accounting><Charge><Money currency="USD">12.00</Money></Charge></Distribution>`;

const address = (postal: string) =>
  `<Address addressID="0200"><Name xml:lang="en">Trade fair booth</Name><PostalAddress>${postal}<Country isoCountryCode="US">United States</Country></PostalAddress></Address>`;
const FULL = '<Street>1 Fair Way</Street><City>Chicago</City><PostalCode>60601</PostalCode>';
const NO_POSTAL_CODE = '<Street>1 Dock Road</Street><City>Springfield</City>';

/** A punch-out of `products` ordered by acme as `orderID` with the lines and header `shape` gives. */
async function order(
  stack: OrderStack,
  orderID: string,
  shape: {
    products?: string[];
    line?: (line: OrderLineIn, index: number) => OrderLineIn;
    shipToXml?: string;
    headerXml?: string;
  } = {},
) {
  await stack.worker.startup();
  const cart = await punchOut(stack, shape.products ?? ['Business cards']);
  const payloadID = `${orderID}@ariba.example`;
  const lines = linesOf(cart).map((line, i) => shape.line?.(line, i) ?? line);
  const answer = await sendOrder(stack, {
    payloadID,
    orderID,
    lines,
    ...(shape.shipToXml !== undefined && { shipToXml: shape.shipToXml }),
    ...(shape.headerXml !== undefined && { headerXml: shape.headerXml }),
  });
  expect(answer).toMatchObject({ code: 200 });
  await drain(stack);
  const po = await stack.store.orders.getByPayloadId('acme', payloadID);
  if (po === undefined) throw new Error('the PO was not stored');
  return { po, cart };
}

function jobTicket(stack: OrderStack, printOrderId: number, orderID: string): string {
  const history = stack.sandbox.control.orderHistory(printOrderId).history;
  return history.find((h) => h.comments?.startsWith(`Purchase order ${orderID}`))?.comments ?? '';
}

describe('accounting and line extrinsics', () => {
  it('are kept with the PO line and shown in the admin API, the job ticket and the PO page, beside the instructions in force', async () => {
    const stack = await createOrderStack(configWith());
    const { po } = await order(stack, 'PO-ACCOUNTING', {
      headerXml: '<ControlKeys><InvoiceInstruction value="isERS"/></ControlKeys>',
      line: (line) => ({
        ...line,
        itemXml: COST_CENTRE,
        detailXml:
          '<Extrinsic name="Requisitioner">Jane Roe</Extrinsic><Extrinsic name="WBS">P-100-2</Extrinsic>',
      }),
    });
    const { body } = await adminJson(stack, `/admin/orders/${po.id}`);
    expect(body.lines[0]).toMatchObject({
      distribution: [
        {
          accountingName: 'DistributionCharge',
          segments: [
            { id: '0610', name: 'Cost Center', description: 'Marketing' },
            { id: '6300100', name: 'G/L Account', description: 'Printed matter' },
          ],
          charge: { value: '12.00', currency: 'USD' },
        },
      ],
      extrinsics: [
        { name: 'Requisitioner', value: 'Jane Roe' },
        { name: 'WBS', value: 'P-100-2' },
      ],
    });
    expect(body.instructions).toMatchObject({ invoice: false, confirmation: true });

    const [printOrderId] = await printOrdersFor(stack, 'PO-ACCOUNTING');
    const ticket = jobTicket(stack, printOrderId ?? 0, 'PO-ACCOUNTING');
    expect(ticket).toContain(
      '   accounting: Cost Center 0610 (Marketing), G/L Account 6300100 (Printed matter) — 12.00 USD\n' +
        "   buyer's line fields: Requisitioner: Jane Roe · WBS: P-100-2",
    );
    expect(ticket).toContain(
      "Buyer's instruction: InvoiceInstruction isERS (order): evaluated receipt settlement — the buyer pays from its goods receipt, so no invoice or credit memo is sent",
    );

    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${po.id}`)).text();
    expect(page).toContain(
      '<li>Cost Center 0610 (Marketing), G/L Account 6300100 (Printed matter) — 12.00 USD</li>',
    );
    expect(page).toContain('Requisitioner: Jane Roe · WBS: P-100-2');
    expect(page).toContain('<li>InvoiceInstruction isERS (order): evaluated receipt settlement');
  });

  it('a PO without them shows none and says the buyer gave no instructions', async () => {
    const stack = await createOrderStack(configWith());
    const { po } = await order(stack, 'PO-PLAIN');
    const { body } = await adminJson(stack, `/admin/orders/${po.id}`);
    expect(body.lines[0]).not.toHaveProperty('distribution');
    expect(body.lines[0]).not.toHaveProperty('extrinsics');
    expect(body.instructions.inForce).toEqual([]);
    const operator = await signIn(stack);
    const page = await (await operator.get(`/admin/ui/orders/${po.id}`)).text();
    expect(page).toContain('No accounting or line fields on the lines.');
    expect(page).toContain('none (every document is sent as configured)');
  });
});

describe('a PO without a usable ship-to address', () => {
  it('held by default: flagged, waiting for an operator with the reason, no print order, no confirmation', async () => {
    const stack = await createOrderStack(configWith());
    const { po } = await order(stack, 'PO-NO-SHIPTO', { shipToXml: '' });
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'needs_operator',
      flags: ['ship_to_missing'],
      printOrderIds: [],
      lastError:
        "Line 1 of this order has no usable ship-to address (neither the line's own ShipTo nor the order's " +
        'has a street, city and postal code), so it was not placed. Get the address from the buyer, then ' +
        'retry to place the order (the print shop ships to the address it got), or mark it handled if it ' +
        'was placed by hand.',
    });
    expect(await printOrdersFor(stack, 'PO-NO-SHIPTO')).toEqual([]);
    expect(confirmationsReceived(stack)).toEqual([]);

    // The operator's retry places it as it is, the ticket telling the print shop to get the address.
    const retried = await adminJson(stack, `/admin/orders/${po.id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    await drain(stack);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'ordered',
      flags: ['ship_to_missing', 'ship_to_released_by_operator'],
    });
    const [printOrderId] = await printOrdersFor(stack, 'PO-NO-SHIPTO');
    expect(jobTicket(stack, printOrderId ?? 0, 'PO-NO-SHIPTO')).toContain(
      'CHECK — no usable ship-to address for line 1: get it from the buyer before shipping.',
    );
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
  });

  it('an order address without a postal code leaves the line without its own ShipTo unaddressed; the line that has one is fine', async () => {
    const stack = await createOrderStack(configWith());
    const { po } = await order(stack, 'PO-HALF-SHIPTO', {
      products: ['Business cards', 'A5 flyer'],
      shipToXml: `<ShipTo>${address(NO_POSTAL_CODE)}</ShipTo>`,
      line: (line, i) => (i === 1 ? { ...line, itemXml: `<ShipTo>${address(FULL)}</ShipTo>` } : line),
    });
    const stored = await stack.store.orders.get(po.id);
    expect(stored).toMatchObject({ state: 'needs_operator', flags: ['ship_to_missing'] });
    expect(stored?.lastError).toMatch(/^Line 1 of this order has no usable ship-to address/);

    // Every line with its own usable address: nothing is missing.
    const second = await createOrderStack(configWith());
    const { po: addressed } = await order(second, 'PO-LINE-SHIPTO', {
      shipToXml: '',
      line: (line) => ({ ...line, itemXml: `<ShipTo>${address(FULL)}</ShipTo>` }),
    });
    expect(await second.store.orders.get(addressed.id)).toMatchObject({ state: 'ordered', flags: [] });
  });

  it('missingShipTo accept: placed and confirmed, flagged ship_to_missing', async () => {
    const stack = await createOrderStack(configWith('accept'));
    const { po } = await order(stack, 'PO-SHIPTO-ACCEPT', { shipToXml: '' });
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'ordered',
      flags: ['ship_to_missing'],
    });
    expect(await printOrdersFor(stack, 'PO-SHIPTO-ACCEPT')).toHaveLength(1);
    expect(confirmationsReceived(stack).map((c) => c.type)).toEqual(['accept']);
  });

  it('marked handled (placed by hand), it is closed with no print order and no document to the buyer', async () => {
    const stack = await createOrderStack(configWith());
    const { po } = await order(stack, 'PO-SHIPTO-HANDLED', { shipToXml: '' });
    const handled = await adminJson(stack, `/admin/orders/${po.id}/handled`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'Placed by phone with the address' }),
    });
    expect(handled.status).toBe(200);
    await drain(stack);
    expect(await stack.store.orders.get(po.id)).toMatchObject({
      state: 'cancelled',
      lastError: 'Handled by an operator: Placed by phone with the address',
    });
    expect(await printOrdersFor(stack, 'PO-SHIPTO-HANDLED')).toEqual([]);
    expect(confirmationsReceived(stack)).toEqual([]);
  });
});
