/**
 * A compliant VAT invoice end to end in process: a storefront with the supplier's VAT ids and 19 % VAT, a
 * buyer with its remit-to code and accounting in line, a PO that names the buyer's VAT id (SAP Ariba's
 * header extrinsic) and a line's cost centre; the print order ships on the sandbox print service, and the
 * InvoiceDetailRequest the buyer receives is DTD-valid with every id where a buyer's system reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../../../schemas/config.ts';
import { attr, child, children, descend, text, type XmlNode } from '../../../src/cxml/xml-node.ts';
import { parseXmlTree } from '../../../src/cxml/xml-tree.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  adminJson,
  createOrderStack,
  drain,
  linesOf,
  type OrderStack,
  orderConfig,
  printOrdersFor,
  punchOut,
  sendOrder,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

/** The order config with the demo storefront's VAT ids and 19 % VAT, and acme invoiced compliantly. */
function vatConfig(): GatewayConfigInput {
  const base = orderConfig();
  return {
    ...base,
    storefronts: base.storefronts.map((s) => ({
      ...s,
      vendorName: 'PrintCo GmbH',
      invoicing: {
        supplierTaxIds: { vatId: 'DE811907980', taxPrefix: 'DE', taxNumber: '811907980' },
        tax: { category: 'vat', percent: '19', taxPointDate: 'ship-date' },
      },
    })),
    buyers: base.buyers.map((b) =>
      b.id === 'acme'
        ? {
            ...b,
            invoices: {
              send: 'on-ship',
              taxAt: 'line',
              remitToAddressID: 'RT-4711',
              accountingInLine: true,
            },
          }
        : b,
    ),
  };
}

const COST_CENTRE = `<Distribution><Accounting name="DistributionCharge">
<AccountingSegment id="4410"><Name xml:lang="en">Cost Center</Name><Description xml:lang="en">Marketing</Description></AccountingSegment>
</Accounting><Charge><Money currency="USD">12.00</Money></Charge></Distribution>`;

function invoiceOf(stack: OrderStack): { body: string; root: XmlNode | undefined } {
  const bodies = stack.orderStatusPosts
    .map((post) => post.body)
    .filter((body) => body.includes('<InvoiceDetailRequest>'));
  expect(bodies).toHaveLength(1);
  const body = bodies[0] ?? '';
  return { body, root: descend(parseXmlTree(body), 'cXML', 'Request', 'InvoiceDetailRequest') };
}

const money = (node: XmlNode | undefined) => text(child(node, 'Money'));

function partner(root: XmlNode | undefined, role: string) {
  const found = children(child(root, 'InvoiceDetailRequestHeader'), 'InvoicePartner').find(
    (p) => attr(child(p, 'Contact'), 'role') === role,
  );
  return {
    addressID: attr(child(found, 'Contact'), 'addressID'),
    name: text(descend(found, 'Contact', 'Name')),
    ids: children(found, 'IdReference').map((id) => `${attr(id, 'domain')}=${attr(id, 'identifier')}`),
  };
}

describe('a compliant VAT invoice', () => {
  it('carries the supplier’s and the buyer’s VAT ids, the remit-to code, 19 % VAT per line and the cost centre', async () => {
    const stack = await createOrderStack(vatConfig());
    await stack.worker.startup();
    const cart = await punchOut(stack, ['Business cards']);
    const lines = linesOf(cart).map((line) => ({ ...line, itemXml: COST_CENTRE }));
    const orderID = 'PO-VAT-1';
    const headerXml = '<Extrinsic name="buyerVatID">FR40303265045</Extrinsic>';
    expect(
      await sendOrder(stack, { payloadID: 'po-vat-1@ariba.example', orderID, lines, headerXml }),
    ).toMatchObject({
      code: 200,
    });
    await drain(stack);
    const [printOrderId] = await printOrdersFor(stack, orderID);
    if (printOrderId === undefined) throw new Error('the order was not placed');
    stack.clock.advance(3600);
    await stack.api.markShipped(printOrderId, { trackingNumber: '1Z999AA10123456784' });
    await drain(stack);
    const shippedOn = (await stack.api.getOrder(printOrderId)).shipments[0]?.shipped_on;

    const { body, root } = invoiceOf(stack);
    expect(validateAgainstDtd(body, 'InvoiceDetail')).toEqual({ ok: true, messages: '' });
    const header = child(root, 'InvoiceDetailRequestHeader');
    expect(attr(child(header, 'InvoiceDetailLineIndicator'), 'isTaxInLine')).toBe('yes');
    expect(attr(child(header, 'InvoiceDetailLineIndicator'), 'isAccountingInLine')).toBe('yes');
    expect(partner(root, 'from')).toEqual({
      addressID: undefined,
      name: 'PrintCo GmbH',
      ids: ['vatID=DE811907980'],
    });
    expect(partner(root, 'remitTo')).toEqual({
      addressID: 'RT-4711',
      name: 'PrintCo GmbH',
      ids: ['taxPrefix=DE', 'taxNumber=811907980'],
    });
    expect(partner(root, 'billTo')).toEqual({
      addressID: '0001',
      name: 'ACME Accounts Payable',
      ids: ['vatID=FR40303265045'],
    });

    // 100 cards at 0.12: 12.00, VAT 19 % of it 2.28; the print order's shipping (the demo shop gives no promotion).
    const [item] = children(child(root, 'InvoiceDetailOrder'), 'InvoiceDetailItem');
    const detail = descend(item, 'Tax', 'TaxDetail');
    expect({
      subtotal: money(child(item, 'SubtotalAmount')),
      tax: money(child(item, 'Tax')),
      description: text(descend(item, 'Tax', 'Description')),
      category: attr(detail, 'category'),
      rate: attr(detail, 'percentageRate'),
      taxable: money(child(detail, 'TaxableAmount')),
      taxAmount: money(child(detail, 'TaxAmount')),
      exempt: attr(detail, 'exemptDetail'),
    }).toEqual({
      subtotal: '12.00',
      tax: '2.28',
      description: 'VAT',
      category: 'vat',
      rate: '19',
      taxable: '12.00',
      taxAmount: '2.28',
      exempt: undefined,
    });
    // The tax point is the day the shipment shipped.
    expect(shippedOn).toBeTruthy();
    expect(new Date(attr(detail, 'taxPointDate') ?? '').getTime()).toBe(
      new Date(/(Z|[+-]\d\d:?\d\d)$/.test(shippedOn ?? '') ? (shippedOn ?? '') : `${shippedOn}Z`).getTime(),
    );
    expect(
      children(item, 'Distribution').map((d) => [
        attr(descend(d, 'Accounting', 'AccountingSegment'), 'id'),
        money(child(d, 'Charge')),
      ]),
    ).toEqual([['4410', '12.00']]);
    const summary = child(root, 'InvoiceDetailSummary');
    expect(
      ['SubtotalAmount', 'Tax', 'ShippingAmount', 'GrossAmount', 'InvoiceDetailDiscount', 'DueAmount'].map(
        (name) => money(child(summary, name)),
      ),
    ).toEqual(['12.00', '2.28', '9.95', '24.23', text(undefined), '24.23']);

    // What the gateway recorded is what it sent; the admin API shows the VAT id the PO named.
    const po = await stack.store.orders.getByPayloadId('acme', 'po-vat-1@ariba.example');
    const poDetail = await adminJson(stack, `/admin/orders/${po?.id}`);
    expect([poDetail.status, poDetail.body.request.buyerVatID]).toEqual([200, 'FR40303265045']);
    expect((await stack.store.invoices.listByPo(po?.id ?? '')).map((i) => i.amounts)).toEqual([
      { currency: 'USD', subtotal: '12.00', tax: '2.28', shipping: '9.95', discount: '0.00', due: '24.23' },
    ]);
  });
});
