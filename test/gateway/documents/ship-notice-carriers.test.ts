/**
 * A storefront's `carriers` map names the print order's carrier the way buyers' systems key carriers: a
 * SCAC and a recognisable name in the ShipNoticeRequest's ShipControl. Shipments whose provider is not
 * mapped go out as today: the provider as written, or "Carrier not specified" when there is none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../../schemas/config.ts';
import {
  disposeDtdValidators,
  requireDtdValidator,
  validateAgainstDtd,
} from '../../support/dtd-validation.ts';
import {
  createOrderStack,
  drain,
  linesOf,
  orderConfig,
  printOrdersFor,
  punchOut,
  receivedDocuments,
  sendOrder,
  type XmlTree,
} from '../../support/order-flow.ts';

beforeAll(() => requireDtdValidator());
afterAll(() => disposeDtdValidators());

const CARRIERS = {
  'FedEx/2Day': { name: 'FedEx Express', scac: 'FDEN' },
  FedEx: { name: 'FedEx Ground', scac: 'FDEG' },
  UPS: { name: 'United Parcel Service', scac: 'UPSN' },
  'Local courier': { name: 'Kurier Nord' },
};

function carrierConfig() {
  const config = orderConfig();
  return {
    ...config,
    storefronts: config.storefronts.map((s) => (s.id === 'demo' ? { ...s, carriers: CARRIERS } : s)),
  };
}

/**
 * Business cards and flyers ordered on one print order; the flyers split into a shipment of their own by
 * `provider`/`service`; both shipped with a tracking number. Answers the two notices' ShipControl.
 */
async function shipControls(provider: string, service: string) {
  const stack = await createOrderStack(carrierConfig());
  await stack.worker.startup();
  const cart = await punchOut(stack, ['Business cards', 'A5 flyer']);
  const flyers = cart[1];
  if (flyers === undefined) throw new Error('the cart has two lines');
  expect(
    await sendOrder(stack, {
      payloadID: 'carrier@ariba.example',
      orderID: 'PO-CARRIER',
      lines: linesOf(cart),
    }),
  ).toMatchObject({ code: 200 });
  await drain(stack);
  const [printOrderId] = await printOrdersFor(stack, 'PO-CARRIER');
  if (printOrderId === undefined) throw new Error('the order was not placed');
  const flyersItem = (await stack.api.getOrder(printOrderId)).items.find(
    (i) => i.product_id === flyers.designId,
  );
  if (flyersItem === undefined) throw new Error('no print item for the flyers');
  stack.sandbox.control.splitShipment(printOrderId, { itemIds: [flyersItem.id], provider, service });
  await stack.api.markShipped(printOrderId, { trackingNumber: '1Z 999 AA1 01 2345 6784' });
  await drain(stack);
  const notices = receivedDocuments(stack, 'ShipNoticeRequest');
  for (const notice of notices) {
    expect(validateAgainstDtd(notice.post.body, 'Fulfill')).toEqual({ ok: true, messages: '' });
  }
  const byShipment = new Map<string, XmlTree>(
    notices.map((n) => [
      n.doc.Request.ShipNoticeRequest.ShipNoticeHeader['@shipmentID'],
      n.doc.Request.ShipNoticeRequest,
    ]),
  );
  const primary = byShipment.get(`${printOrderId}-1`);
  const split = byShipment.get(`${printOrderId}-2`);
  expect(notices).toHaveLength(2);
  return {
    primary: primary.ShipControl.CarrierIdentifier,
    split: split.ShipControl.CarrierIdentifier,
    splitService: split.ShipNoticeHeader.ServiceLevel?.['#text'],
  };
}

describe('storefronts[].carriers in ship notices', () => {
  it.each([
    [
      'a "provider/service" key wins over the provider alone',
      'FedEx',
      '2Day',
      [
        { '#text': 'FedEx Express', '@domain': 'companyName' },
        { '#text': 'FDEN', '@domain': 'SCAC' },
      ],
    ],
    [
      'the provider alone maps any service of it',
      'FedEx',
      'Home Delivery',
      [
        { '#text': 'FedEx Ground', '@domain': 'companyName' },
        { '#text': 'FDEG', '@domain': 'SCAC' },
      ],
    ],
    [
      'keys match without regard to case or surrounding spaces',
      ' ups ',
      'Ground',
      [
        { '#text': 'United Parcel Service', '@domain': 'companyName' },
        { '#text': 'UPSN', '@domain': 'SCAC' },
      ],
    ],
    [
      'a mapping without a SCAC renames only',
      'Local courier',
      'Same day',
      [{ '#text': 'Kurier Nord', '@domain': 'companyName' }],
    ],
    [
      'an unmapped provider goes out as written, without a SCAC (as before)',
      'DHL',
      'Express',
      [{ '#text': 'DHL', '@domain': 'companyName' }],
    ],
  ])('%s', async (_case, provider, service, carrierIdentifiers) => {
    const notices = await shipControls(provider, service);
    expect(notices.split).toEqual(carrierIdentifiers);
    expect(notices.splitService).toBe(service);
    // The primary shipment of a PIPO order records no provider: unchanged, whatever the map holds.
    expect(notices.primary).toEqual([{ '#text': 'Carrier not specified', '@domain': 'companyName' }]);
  });
});

describe('storefronts[].carriers in the config', () => {
  const withCarriers = (carriers: unknown) => {
    const config = carrierConfig();
    return parseGatewayConfig({
      ...config,
      storefronts: config.storefronts.map((s) => (s.id === 'demo' ? { ...s, carriers } : s)),
    });
  };

  it('is optional and takes names with or without a SCAC', () => {
    expect(parseGatewayConfig(orderConfig()).ok).toBe(true);
    expect(withCarriers(CARRIERS).ok).toBe(true);
  });

  it.each([
    [
      { UPS: { name: 'UPS', scac: 'ups1' } },
      'storefronts[0].carriers.UPS.scac',
      'must be a Standard Carrier Alpha Code: 2 to 4 capital letters',
    ],
    [{ UPS: { scac: 'UPSN' } }, 'storefronts[0].carriers.UPS.name', 'is required'],
    [
      { UPS: { name: 'UPS' }, ups: { name: 'UPS' } },
      'storefronts[0].carriers',
      'names a shipping provider twice (keys are matched without regard to case)',
    ],
    [{ ' ': { name: 'UPS' } }, 'storefronts[0].carriers', 'has a blank key'],
  ])('refuses %j at %s', (carriers, path, message) => {
    const result = withCarriers(carriers);
    expect(result.ok ? [] : result.problems).toEqual([{ path, message }]);
  });
});
