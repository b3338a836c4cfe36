/**
 * The sandbox seed of the client's contract suite: small, and shaped for the rows it shows — an
 * Enterprise license with a shipping and a non-shipping storefront, a BusinessPlus and a Business license
 * for the tier checks, permanent and temporary PIPO users with saved projects, merged and unmerged orders.
 * Kept here rather than in fixtures/sandbox-seed.json so that the demo's seed can change freely.
 */
import type { SandboxSeedInput } from '@punchgate/sandbox';

export const ENTERPRISE_TOKEN = 'e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0';
export const OTHER_ENTERPRISE_TOKEN = 'e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1e1';
export const INACTIVE_TOKEN = 'e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2';
export const BUSINESS_PLUS_TOKEN = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';
export const BUSINESS_TOKEN = 'c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0';
export const KEY_ROUNDS = 5;

export const STORE = 10;
export const NO_SHIPPING_STORE = 11;

export const CARDS = 101; // editor product with renderings, image tags and custom size
export const FLYER = 102; // upload product
export const ADA_PROJECT = 7001;
export const BOB_PROJECT = 7002;
export const TEMP_PROJECT = 7003;

export const ADA = { id: 501, username: 'ada', password: 'ada-pw-1', email: 'ada@acme.example' } as const;
export const BOB = { id: 502, username: 'bob', password: 'bob-pw-1', email: 'bob@acme.example' } as const;
export const TEMP = { id: 503, username: 'temp-seeded', password: 'temp-pw-1' } as const;

export const MERGED_ORDER = 1042; // items 9001 (cards, shipment 1) and 9002 (flyer, shipment 2)
export const UNMERGED_ORDER = 1043; // item 9003
export const NO_SHIPPING_ORDER = 2001; // item 9101

const address = (id: number, city: string) => ({
  id,
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: 'Acme GmbH',
  line1: 'Hauptstr. 1',
  city,
  postalCode: '10115',
  countryCode: 'DE',
});

const created = '2025-02-01T09:00:00Z';

export const contractSeed: SandboxSeedInput = {
  keyRounds: KEY_ROUNDS,
  licenses: [
    {
      id: 1,
      name: 'Acme Print',
      tier: 'Enterprise',
      apiKeys: [
        { token: ENTERPRISE_TOKEN, label: 'gateway' },
        { token: OTHER_ENTERPRISE_TOKEN, label: 'second integration' },
        { token: INACTIVE_TOKEN, label: 'retired', active: false },
      ],
      storefronts: [
        {
          id: STORE,
          name: 'Acme Store',
          statuses: [
            { name: 'New Order' },
            { name: 'In Production' },
            { name: 'Order Shipped', shipping: true },
          ],
          products: [
            {
              id: CARDS,
              name: 'Business cards',
              integrationId: 'BC-STD',
              itemNumber: 'BC-100',
              price: 0.12,
              size: { widthIn: 3.5, heightIn: 2 },
              customSize: true,
              renderings: [{ id: 1, name: 'On the desk' }],
              imageTags: [
                { name: 'logo', kind: 'visibility', default: 'true' },
                { name: 'background', kind: 'colors', default: '#ffffff,#ffffff' },
              ],
              textFields: [{ name: 'name', value: 'Ada Lovelace' }],
            },
            { id: FLYER, name: 'Flyer', designKind: 'upload', size: { widthIn: 8.5, heightIn: 11 } },
          ],
          customers: [
            {
              ...ADA,
              firstName: 'Ada',
              lastName: 'Lovelace',
              createdOn: created,
              address: address(1, 'Berlin'),
            },
            { ...BOB, firstName: 'Bob', lastName: 'Builder', createdOn: created },
            {
              ...TEMP,
              email: '',
              firstName: '',
              lastName: '',
              isTemp: true,
              createdOn: created,
              albums: [{ id: 61, name: 'Uploads', images: [{ id: 611, name: 'logo.png' }] }],
            },
          ],
          projects: [
            { id: ADA_PROJECT, ownerId: ADA.id, templateId: CARDS, createdOn: created },
            { id: BOB_PROJECT, ownerId: BOB.id, templateId: CARDS, createdOn: created },
            { id: TEMP_PROJECT, ownerId: TEMP.id, templateId: CARDS, createdOn: created },
          ],
          orders: [
            {
              id: MERGED_ORDER,
              customerId: ADA.id,
              createdOn: '2025-02-10T10:00:00Z',
              billingAddress: address(2, 'Berlin'),
              payment: { methods: ['po'], poNumber: 'PO-77' },
              shipments: [
                { provider: 'UPS', service: 'Ground', address: address(3, 'Berlin') },
                { provider: 'DHL', service: 'Express', address: address(4, 'Hamburg') },
              ],
              items: [
                { id: 9001, productId: ADA_PROJECT, quantity: 250 },
                { id: 9002, productId: FLYER, quantity: 100, shipmentIndex: 2, uploads: ['flyer-front.pdf'] },
              ],
            },
            {
              id: UNMERGED_ORDER,
              customerId: ADA.id,
              createdOn: '2025-02-11T10:00:00Z',
              billingAddress: address(5, 'Berlin'),
              shipments: [{ address: address(6, 'Berlin') }],
              filesMerged: false,
              items: [{ id: 9003, productId: CARDS, quantity: 500 }],
            },
          ],
        },
        {
          id: NO_SHIPPING_STORE,
          name: 'Quotes only',
          statuses: [{ name: 'Received' }, { name: 'Quoted' }],
          products: [{ id: 201, name: 'Poster', size: { widthIn: 24, heightIn: 36 } }],
          customers: [
            {
              id: 601,
              username: 'carl',
              password: 'carl-pw-1',
              email: 'carl@acme.example',
              firstName: 'Carl',
              lastName: 'Q',
              createdOn: created,
            },
          ],
          orders: [
            {
              id: NO_SHIPPING_ORDER,
              customerId: 601,
              createdOn: '2025-02-12T10:00:00Z',
              billingAddress: address(7, 'Munich'),
              shipments: [{ address: address(8, 'Munich') }],
              items: [{ id: 9101, productId: 201, quantity: 1 }],
            },
          ],
        },
      ],
    },
    {
      id: 2,
      name: 'Punch-out only',
      tier: 'BusinessPlus',
      apiKeys: [{ token: BUSINESS_PLUS_TOKEN }],
      storefronts: [
        {
          id: 20,
          name: 'Small store',
          statuses: [{ name: 'New' }],
          customers: [
            {
              id: 701,
              username: 'dora',
              password: 'dora-pw-1',
              email: 'dora@small.example',
              firstName: 'Dora',
              lastName: 'S',
              createdOn: created,
            },
          ],
        },
      ],
    },
    { id: 3, name: 'Tiny shop', tier: 'Business', apiKeys: [{ token: BUSINESS_TOKEN }] },
  ],
};
