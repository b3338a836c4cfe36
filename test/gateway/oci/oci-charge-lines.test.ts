/**
 * An OCI cart's charges: OCI has no charge fields, so with `chargeLines` the quoted shipping and tax go as
 * items of their own after the cart's lines; without them the cart carries none.
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedOciBuyer } from '../../../src/gateway/deps.ts';
import { ociChargeLines } from '../../../src/gateway/oci/oci-charge-lines.ts';
import { quoteCartCharges } from '../../../src/gateway/punchout/cart-charges.ts';
import { itemFields } from '../../../src/gateway/oci/oci-lines.ts';
import { resolveTestConfig, testConfig } from '../../support/stack.ts';

const config = resolveTestConfig(testConfig());
const sap1 = config.buyers.find((b): b is ResolvedOciBuyer => b.id === 'sap1');
const storefront = config.storefronts[0];
if (sap1 === undefined || storefront === undefined) throw new Error('the test config has no sap1 or demo');

const CHARGES = {
  shipping: { amount: '9.95', description: 'Shipping' },
  tax: { amount: '3.71', description: 'Sales tax', percent: '8.25', lines: [] },
};

describe('OCI charge items', () => {
  it('shipping (and tax, where configured) as items of quantity 1 at the charge', () => {
    const buyer: ResolvedOciBuyer = {
      ...sap1,
      chargeLines: {
        shipping: { partId: 'FREIGHT', description: 'Freight', matGroup: 'SERVICE' },
        tax: { partId: 'TAX', description: 'Sales tax' },
      },
    };
    const fields = Object.fromEntries(itemFields(buyer, 'utf-8', ociChargeLines(buyer, storefront, CHARGES)));
    expect(fields).toMatchObject({
      'NEW_ITEM-VENDORMAT[1]': 'FREIGHT',
      'NEW_ITEM-DESCRIPTION[1]': 'Freight',
      'NEW_ITEM-QUANTITY[1]': '1',
      'NEW_ITEM-PRICE[1]': '9.95',
      'NEW_ITEM-CURRENCY[1]': 'USD',
      'NEW_ITEM-MATGROUP[1]': 'SERVICE',
      'NEW_ITEM-EXT_PRODUCT_ID[1]': 'FREIGHT',
      'NEW_ITEM-EXT_CATEGORY_ID[1]': '78102200',
      'NEW_ITEM-VENDORMAT[2]': 'TAX',
      'NEW_ITEM-PRICE[2]': '3.71',
      'NEW_ITEM-EXT_CATEGORY_ID[2]': '84111500',
    });
  });

  it('no part number, no item: the cart then carries no charges', () => {
    expect(ociChargeLines(sap1, storefront, CHARGES)).toEqual([]);
    const shippingOnly = {
      ...sap1,
      chargeLines: { shipping: { partId: 'FREIGHT', description: 'Freight' } },
    };
    expect(ociChargeLines(shippingOnly, storefront, CHARGES).map((item) => item.sku)).toEqual(['FREIGHT']);
    expect(ociChargeLines(shippingOnly, storefront, {})).toEqual([]);
  });

  it('in the currency’s minor units: whole yen for JPY, three decimals for BHD', () => {
    const buyer: ResolvedOciBuyer = {
      ...sap1,
      chargeLines: {
        shipping: { partId: 'FREIGHT', description: 'Freight' },
        tax: { partId: 'TAX', description: 'Sales tax' },
      },
    };
    const rules = {
      shipping: { kind: 'flat' as const, amount: '1.25' },
      shippingDescription: 'Shipping',
      tax: { percent: '10', onShipping: true, byShipTo: [], description: 'VAT' },
    };
    const priced = (currency: string, lineAmount: string) => {
      const lines = [{ productName: 'Business cards', quantity: 500, amount: lineAmount }];
      const quoted = quoteCartCharges(rules, { taxExempt: false, taxAt: 'header' }, lines, {
        shipTo: {},
        currency,
      });
      if (!quoted.ok) throw new Error(quoted.message);
      const fields = Object.fromEntries(
        itemFields(buyer, 'utf-8', ociChargeLines(buyer, { currency }, quoted.charges)),
      );
      return [fields['NEW_ITEM-PRICE[1]'], fields['NEW_ITEM-PRICE[2]'], fields['NEW_ITEM-CURRENCY[1]']];
    };
    // BHD: shipping 1.250; 10 % of 45.005 + 1.250 = 4.6255 → 4.626.
    expect(priced('BHD', '45.005')).toEqual(['1.250', '4.626', 'BHD']);
    // JPY: shipping 1.25 → 1 yen; 10 % of 45 + 1 = 4.6 → 5.
    expect(priced('JPY', '45')).toEqual(['1', '5', 'JPY']);
  });
});
