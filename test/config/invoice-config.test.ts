import { describe, expect, it } from 'vitest';
import { type GatewayConfigInput, loadGatewayConfig } from '../../schemas/config.ts';
import { testConfig } from '../support/stack.ts';

/** The test config with `invoices` (and optionally other fields) set on its first buyer. */
function withInvoices(invoices: unknown, buyer: Record<string, unknown> = {}): GatewayConfigInput {
  const config = testConfig();
  config.buyers = config.buyers.map((b, i) =>
    i === 0 ? ({ ...b, ...buyer, invoices } as (typeof config.buyers)[number]) : b,
  );
  return config;
}

function problems(config: GatewayConfigInput) {
  const result = loadGatewayConfig(config, {});
  return result.ok ? [] : result.problems;
}

describe('buyer invoices config', () => {
  it('defaults to off, with the documented settings', () => {
    const result = loadGatewayConfig(testConfig(), {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.buyers[0]?.invoices).toEqual({
      send: 'off',
      taxAt: 'header',
      invoiceIds: 'gateway',
      idPrefix: 'INV-',
      paymentTermDays: 30,
      priceTolerancePercent: 1,
      accountingInLine: false,
      chargesNotOnPo: 'bill',
    });
  });

  it('takes a full on-ship block for cXML and OCI buyers alike', () => {
    const invoices = {
      send: 'on-ship',
      url: 'https://buyer.example/invoices',
      taxAt: 'line',
      invoiceIds: 'print-service',
      per: 'order',
      paymentTermDays: 14,
      priceTolerancePercent: 2.5,
      defaultTaxPercent: '19',
      defaultShipping: '4.95',
      remitTo: {
        name: 'PrintCo GmbH',
        street: ['Hauptstraße 1'],
        city: 'Berlin',
        postalCode: '10115',
        country: 'DE',
      },
    };
    const config = testConfig();
    config.buyers = config.buyers.map((b) => ({ ...b, invoices }) as (typeof config.buyers)[number]);
    const result = loadGatewayConfig(config, {});
    expect(result.ok ? [] : result.problems).toEqual([]);
    if (!result.ok) return;
    for (const buyer of result.config.buyers) expect(buyer.invoices).toMatchObject(invoices);
    expect(result.config.buyers.map((b) => b.protocol)).toContain('oci');
  });

  it('refuses on-status without a status, naming the field', () => {
    expect(problems(withInvoices({ send: 'on-status' }, { orderStatusUrl: 'https://b.example/s' }))).toEqual([
      {
        path: 'buyers[0].invoices.status',
        message: 'is required with send "on-status": the print-order status name that triggers the invoice',
      },
    ]);
  });

  it('refuses a status with on-ship, and per-shipment invoices with on-status', () => {
    expect(
      problems(
        withInvoices({ send: 'on-ship', status: 'Shipped' }, { orderStatusUrl: 'https://b.example/s' }),
      ),
    ).toEqual([
      {
        path: 'buyers[0].invoices.status',
        message: 'is only read with send "on-status"; with "on-ship" the invoice follows the shipments',
      },
    ]);
    expect(
      problems(
        withInvoices(
          { send: 'on-status', status: 'Invoiced', per: 'shipment' },
          { orderStatusUrl: 'https://b.example/s' },
        ),
      ),
    ).toEqual([
      {
        path: 'buyers[0].invoices.per',
        message:
          'must be "order" (or left out) with send "on-status": a status is the whole print order\'s, so it is invoiced once',
      },
    ]);
  });

  it('refuses invoices on with nowhere to send them, and takes either URL', () => {
    const config = withInvoices({ send: 'on-ship' });
    const buyer = config.buyers[0] as Record<string, unknown>;
    delete buyer.orderStatusUrl;
    expect(problems(config)).toEqual([
      {
        path: 'buyers[0].invoices.url',
        message:
          "is required when invoices are sent and the buyer has no orderStatusUrl: set invoices.url or the buyer's orderStatusUrl",
      },
    ]);
    expect(problems(withInvoices({ send: 'on-ship', url: 'https://b.example/invoices' }))).toEqual([]);
    expect(problems(withInvoices({ send: 'on-ship' }, { orderStatusUrl: 'https://b.example/s' }))).toEqual(
      [],
    );
    // Off needs no URL.
    const off = withInvoices({ send: 'off' });
    delete (off.buyers[0] as Record<string, unknown>).orderStatusUrl;
    expect(problems(off)).toEqual([]);
  });

  it('refuses amounts that are not decimal strings and out-of-range terms', () => {
    expect(
      problems(
        withInvoices({
          send: 'off',
          defaultTaxPercent: 19,
          defaultShipping: '4,95',
          paymentTermDays: 400,
          remitTo: { name: 'PrintCo', street: [], city: 'Berlin', country: 'Germany' },
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        { path: 'buyers[0].invoices.defaultTaxPercent', message: expect.stringContaining('expected string') },
        {
          path: 'buyers[0].invoices.defaultShipping',
          message: 'must be a non-negative decimal written as a string, such as "19" or "4.95"',
        },
        { path: 'buyers[0].invoices.paymentTermDays', message: expect.stringContaining('<=365') },
        { path: 'buyers[0].invoices.remitTo.street', message: expect.stringContaining('>=1') },
        {
          path: 'buyers[0].invoices.remitTo.country',
          message: 'must be an ISO 3166 two-letter country code such as DE',
        },
      ]),
    );
  });
});
