/**
 * The sandbox's in-memory state: the records the emulated service keeps, built from a seed.
 *
 * Records are plain mutable objects with times as epoch milliseconds; the resource builders turn them into
 * the interface's JSON. Operations validate first and mutate last, so a rejected request leaves no trace.
 */

import type { EventName, LicenseTier } from 'punchgate/schemas/print-api';
import type {
  SandboxSeed,
  SeedAddress,
  SeedParametricProperty,
  SeedPayment,
  SeedPipoCharges,
  SeedProduct,
} from '../sandbox-seed.ts';

export interface LicenseRecord {
  readonly id: number;
  readonly name: string;
  readonly tier: LicenseTier;
  readonly storefrontIds: number[];
}

export interface ApiKeyRecord {
  readonly token: string;
  readonly licenseId: number;
  readonly label: string;
  active: boolean;
  deleted: boolean;
}

export interface StatusRecord {
  readonly name: string;
  readonly shipping: boolean;
  readonly cancel: boolean;
}

export interface StorefrontRecord {
  readonly id: number;
  readonly licenseId: number;
  readonly name: string;
  readonly statuses: readonly StatusRecord[];
  /** What PIPO orders are charged; `invoiceNumbers.next` moves on with every PIPO order. */
  readonly pipoCharges: SeedPipoCharges;
}

export interface TemplateRecord extends SeedProduct {
  readonly storefrontId: number;
}

interface DesignRecord {
  widthIn: number;
  heightIn: number;
  textFields: { name: string; value: string }[];
  tags: Record<string, string>;
}

/** A saved design: a customized copy of a template, owned by a user (a PIPO project). */
export interface ProjectRecord {
  readonly id: number;
  readonly storefrontId: number;
  ownerId: number;
  readonly templateId: number;
  readonly name: string;
  readonly createdOn: number;
  deleted: boolean;
  readonly design: DesignRecord;
}

interface AlbumRecord {
  readonly id: number;
  readonly name: string;
  readonly images: { id: number; name: string }[];
}

/** A customer account; PIPO users are customers (the PIPO user id is the customer id). */
export interface CustomerRecord {
  readonly id: number;
  readonly storefrontId: number;
  username: string;
  password: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  isTemp: boolean;
  receiveMarketingEmails: boolean;
  taxExempt: boolean;
  organization: string | null;
  userGroups: string[];
  salesRep: string;
  address: SeedAddress | undefined;
  readonly createdOn: number;
  lastUpdatedOn: number;
  lastLoggedInOn: number;
  deleted: boolean;
  albums: AlbumRecord[];
}

export interface OptionRecord {
  readonly name: string;
  readonly value: string;
  readonly price: number;
  readonly optionIntegrationId: string | null;
  readonly valueIntegrationId: string | null;
}

export interface ItemRecord {
  readonly id: number;
  readonly productId: number;
  readonly name: string;
  status: string;
  /** A PIPO item's change when the job ticket gives its quantity (`ticket-quantities.ts`). */
  quantity: number;
  basePrice: number;
  readonly markupPrice: number;
  readonly imageFee: number;
  readonly downloadFee: number;
  weight: number;
  readonly createdOn: number;
  readonly dueOn: number | null;
  readonly notes: string;
  readonly reorderRef: string;
  /** Changes when the admin moves the item into a new shipment (control API split). */
  shipmentIndex: number;
  readonly options: readonly OptionRecord[];
  readonly uploads: readonly string[];
  /** The external_id given to PIPO order create (rule P03). */
  readonly externalId: string | undefined;
  /** When the item's print files finish merging; null until processing starts. */
  mergeReadyAt: number | null;
}

export interface ShipmentRecord {
  readonly provider: string | null;
  readonly service: string | null;
  /** Recomputed for a PIPO order when the admin splits it (its charges say how). */
  shippingTotal: number;
  taxTotal: number;
  trackingNumbers: string[];
  shippedOn: number | null;
  readonly address: SeedAddress;
}

export interface HistoryEntry {
  readonly at: number;
  readonly itemId: number | null;
  /** Where the change came from: the v2 API, PIPO, the admin (control API) or the storefront checkout. */
  readonly source: 'api' | 'pipo' | 'admin' | 'checkout';
  readonly status: string | null;
  readonly note: string;
  readonly comments: string | null;
  readonly userInitials: string | null;
  readonly trackingNumbers: readonly string[];
}

interface EmailRecord {
  readonly at: number;
  readonly template: 'Order Shipped' | 'Order Status Changed' | 'Vendor Purchase Order';
  readonly to: string;
  readonly itemId: number | null;
}

export interface OrderRecord {
  readonly id: number;
  readonly storefrontId: number;
  readonly customerId: number;
  readonly integrationId: string | undefined;
  status: string;
  readonly isArchived: boolean;
  isDeleted: boolean;
  readonly createdOn: number;
  shippedOn: number | null;
  readonly payment: SeedPayment;
  readonly billingAddress: SeedAddress;
  readonly shipments: ShipmentRecord[];
  readonly promotionCode: string | null;
  promotionTotal: number;
  /**
   * How a PIPO order's shipping, tax and promotion were charged (its storefront's `pipoCharges` when it
   * was created, and whether the customer was tax-exempt), so a split can charge the new shipment alike;
   * null for seed and checkout orders, whose figures are their own.
   */
  readonly charges: OrderCharges | null;
  /** Order-level totals the control API made the order report instead of the computed ones. */
  reportedTotals: ReportedTotals;
  readonly checkoutFields: readonly { name: string; value: string }[];
  readonly items: ItemRecord[];
  readonly history: HistoryEntry[];
  readonly emails: EmailRecord[];
}

export interface OrderCharges {
  readonly taxRatePercent: number;
  readonly taxOnShipping: boolean;
  readonly shippingPerShipment: number;
  readonly promotion: SeedPipoCharges['promotion'];
}

/** Totals an order shows in place of the computed ones (control API: totals that do not add up). */
export interface ReportedTotals {
  subTotal?: number;
  taxTotal?: number;
  shippingTotal?: number;
  promotionTotal?: number;
}

export interface HookRecord {
  readonly id: number;
  readonly token: string;
  readonly targetUrl: string;
  readonly event: EventName;
  readonly createdOn: number;
  /** Cleared by a 410 answer to a delivery. */
  active: boolean;
  /** Set by DELETE /hooks/{id}. */
  deleted: boolean;
  /** Set when the owning API key is deleted. */
  disabled: boolean;
}

export interface DeliveryRecord {
  readonly id: number;
  readonly hookId: number;
  readonly event: EventName;
  readonly targetUrl: string;
  readonly at: number;
  /** delivered: 2xx; gone: 410 (hook deactivated); rejected: another status; unreachable: no answer. */
  outcome: 'pending' | 'delivered' | 'gone' | 'rejected' | 'unreachable';
  status: number | null;
  error: string | null;
}

export interface SessionRecord {
  readonly token: string;
  userId: number;
  readonly licenseId: number;
  expiresAt: number;
}

interface IdCounters {
  order: number;
  item: number;
  customer: number;
  product: number;
  hook: number;
  delivery: number;
}

export interface SandboxState {
  readonly licenses: Map<number, LicenseRecord>;
  readonly apiKeys: Map<string, ApiKeyRecord>;
  readonly storefronts: Map<number, StorefrontRecord>;
  readonly templates: Map<number, TemplateRecord>;
  readonly projects: Map<number, ProjectRecord>;
  readonly customers: Map<number, CustomerRecord>;
  readonly orders: Map<number, OrderRecord>;
  readonly hooks: Map<number, HookRecord>;
  readonly deliveries: DeliveryRecord[];
  readonly sessions: Map<string, SessionRecord>;
  /** Live (non-deleted) customers by `usernameKey(storefrontId, username)`: login is on the hot path. */
  readonly usernames: Map<string, number>;
  readonly next: IdCounters;
}

const parseTime = (iso: string): number => Date.parse(iso);

/** The design a template starts as: its size, its text fields' defaults and its tags' defaults. */
function templateDesign(template: SeedProduct): DesignRecord {
  return {
    widthIn: template.size.widthIn,
    heightIn: template.size.heightIn,
    textFields: template.textFields.map((f) => ({ ...f })),
    tags: Object.fromEntries(template.imageTags.map((tag) => [tag.name, tag.default])),
  };
}

/** Builds a fresh state from a validated seed (the seed itself is never mutated). */
export function createStateFromSeed(seed: SandboxSeed): SandboxState {
  const state: SandboxState = {
    licenses: new Map(),
    apiKeys: new Map(),
    storefronts: new Map(),
    templates: new Map(),
    projects: new Map(),
    customers: new Map(),
    orders: new Map(),
    hooks: new Map(),
    deliveries: [],
    sessions: new Map(),
    usernames: new Map(),
    next: { order: 1, item: 1, customer: 1, product: 1, hook: 1, delivery: 1 },
  };
  for (const license of seed.licenses) {
    state.licenses.set(license.id, {
      id: license.id,
      name: license.name,
      tier: license.tier,
      storefrontIds: license.storefronts.map((sf) => sf.id),
    });
    for (const key of license.apiKeys) {
      state.apiKeys.set(key.token, { ...key, licenseId: license.id });
    }
    for (const sf of license.storefronts) {
      state.storefronts.set(sf.id, {
        id: sf.id,
        licenseId: license.id,
        name: sf.name,
        statuses: sf.statuses.map((s) => ({ ...s })),
        pipoCharges: structuredClone(sf.pipoCharges),
      });
      for (const product of sf.products) {
        state.templates.set(product.id, structuredClone({ ...product, storefrontId: sf.id }));
      }
      for (const customer of sf.customers) {
        const createdOn = parseTime(customer.createdOn);
        state.customers.set(customer.id, {
          ...structuredClone(customer),
          storefrontId: sf.id,
          address: customer.address === undefined ? undefined : structuredClone(customer.address),
          createdOn,
          lastUpdatedOn: customer.lastUpdatedOn === undefined ? createdOn : parseTime(customer.lastUpdatedOn),
          lastLoggedInOn:
            customer.lastLoggedInOn === undefined ? createdOn : parseTime(customer.lastLoggedInOn),
          deleted: false,
        });
        state.usernames.set(usernameKey(sf.id, customer.username), customer.id);
      }
      for (const project of sf.projects) {
        const template = state.templates.get(project.templateId)!;
        const base = templateDesign(template);
        state.projects.set(project.id, {
          id: project.id,
          storefrontId: sf.id,
          ownerId: project.ownerId,
          templateId: project.templateId,
          name: project.name ?? template.name,
          createdOn: parseTime(project.createdOn),
          deleted: false,
          design: {
            widthIn: project.design.widthIn ?? base.widthIn,
            heightIn: project.design.heightIn ?? base.heightIn,
            textFields: project.design.textFields?.map((f) => ({ ...f })) ?? base.textFields,
            tags: { ...base.tags, ...project.design.tags },
          },
        });
      }
      for (const order of sf.orders) {
        const status = order.status ?? sf.statuses[0]!.name;
        const createdOn = parseTime(order.createdOn);
        state.orders.set(order.id, {
          id: order.id,
          storefrontId: sf.id,
          customerId: order.customerId,
          integrationId: order.integrationId,
          status,
          isArchived: order.isArchived,
          isDeleted: order.isDeleted,
          createdOn,
          shippedOn: order.shippedOn === null ? null : parseTime(order.shippedOn),
          payment: structuredClone(order.payment),
          billingAddress: structuredClone(order.billingAddress),
          shipments: order.shipments.map((s) => ({
            ...structuredClone(s),
            shippedOn: s.shippedOn === null ? null : parseTime(s.shippedOn),
          })),
          promotionCode: order.promotionCode,
          promotionTotal: order.promotionTotal,
          charges: null,
          reportedTotals: {},
          checkoutFields: structuredClone(order.checkoutFields),
          items: order.items.map((item) => {
            const product = state.templates.get(item.productId) ?? state.projects.get(item.productId)!;
            const template = 'templateId' in product ? state.templates.get(product.templateId)! : product;
            return {
              id: item.id,
              productId: item.productId,
              name: product.name,
              status: item.status ?? status,
              quantity: item.quantity,
              basePrice: item.basePrice ?? roundMoney(item.quantity * template.price),
              markupPrice: item.markupPrice,
              imageFee: item.imageFee,
              downloadFee: item.downloadFee,
              weight: roundMoney(item.quantity * template.weight),
              createdOn,
              dueOn: item.dueOn === null ? null : parseTime(item.dueOn),
              notes: item.notes,
              reorderRef: item.reorderRef,
              shipmentIndex: item.shipmentIndex,
              options: structuredClone(item.options ?? template.options),
              uploads: [...item.uploads],
              externalId: undefined,
              mergeReadyAt: order.filesMerged ? 0 : null,
            };
          }),
          history: [],
          emails: [],
        });
      }
    }
  }
  const after = (ids: Iterable<number>, floor: number) => Math.max(floor, ...ids) + 1;
  state.next.order = after(state.orders.keys(), 1000);
  state.next.item = after(
    [...state.orders.values()].flatMap((o) => o.items.map((i) => i.id)),
    5000,
  );
  state.next.customer = after(state.customers.keys(), 100);
  state.next.product = after([...state.templates.keys(), ...state.projects.keys()], 1000);
  return state;
}

/** Usernames are unique per storefront, compared case-insensitively. */
export function usernameKey(storefrontId: number, username: string): string {
  return `${storefrontId}\n${username.toLowerCase()}`;
}

/** Rounds to cents, as money is shown. */
export function roundMoney(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A parametric property as the interface shows it: dimensions converted to the product's unit system. */
export function parametricValue(property: SeedParametricProperty, unitSystem: 'inches' | 'mm'): string {
  if ('text' in property) return property.text;
  const value = unitSystem === 'inches' ? property.mm / 25.4 : property.mm;
  return String(Math.round(value * 1000) / 1000);
}
