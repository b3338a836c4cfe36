/**
 * The sandbox's control surface, not part of the v2 interface: what an admin or the storefront would do
 * (checkout, status changes, shipment splits, deletions, customer CRUD, API key deletion), the virtual
 * clock, merges, and views of what the service recorded (webhook deliveries, order history and e-mails,
 * PIPO users and projects). `createSandbox` returns it for in-process use; `/_sandbox/...` serves the same
 * over HTTP.
 */

import type { Customer, Order } from 'punchgate/schemas/print-api';
import type { z } from 'zod';
import { SeedAddress, type SeedPayment } from '../sandbox-seed.ts';
import {
  type CustomerChanges,
  createCustomer,
  deleteCustomer,
  updateCustomer,
} from './customer-operations.ts';
import { deleteApiKey } from './hook-operations.ts';
import {
  changeStatus,
  checkout,
  deleteOrder,
  finishMerges,
  type NewOrderLine,
  overrideTotals,
  splitShipment,
  type TotalsOverride,
} from './order-operations.ts';
import { describeIssues } from './request-input.ts';
import { customerResource, orderResource, projectResource } from './resources.ts';
import { SandboxError } from './sandbox-error.ts';
import type { SandboxService } from './service.ts';
import type { CustomerRecord, OrderRecord } from './state.ts';

const iso = (ms: number) => new Date(ms).toISOString();

interface CheckoutRequest {
  readonly customerId: number;
  readonly items: readonly NewOrderLine[];
  /** Defaults to no recorded method (PayPal). */
  readonly payment?: SeedPayment | undefined;
}

interface StatusChangeRequest {
  readonly status: string;
  readonly itemId?: number | undefined;
  readonly comments?: string | undefined;
  readonly notifyCustomer?: boolean | undefined;
}

interface ShipmentSplitRequest {
  /** The items that move into the new shipment; the primary shipment must keep at least one. */
  readonly itemIds: readonly number[];
  /** The new shipment's destination, camelCase like the seed; defaults to a copy of the primary's. */
  readonly shipTo?: z.input<typeof SeedAddress> | undefined;
  /** Carrier and service level of the new shipment; null when not given. */
  readonly provider?: string | undefined;
  readonly service?: string | undefined;
}

interface NewCustomerRequest {
  readonly storefrontId: number;
  readonly username: string;
  readonly password: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly company?: string | undefined;
}

interface OrderHistoryView {
  readonly orderId: number;
  readonly history: {
    at: string;
    itemId: number | null;
    source: string;
    status: string | null;
    note: string;
    comments: string | null;
    userInitials: string | null;
    trackingNumbers: string[];
  }[];
  readonly emails: { at: string; template: string; to: string; itemId: number | null }[];
}

interface DeliveryView {
  readonly id: number;
  readonly hookId: number;
  readonly event: string;
  readonly targetUrl: string;
  readonly at: string;
  readonly outcome: string;
  readonly status: number | null;
  readonly error: string | null;
}

interface UserView {
  readonly id: number;
  readonly storefrontId: number;
  readonly username: string;
  /** Shown so demos can log in; the sandbox's passwords guard nothing. */
  readonly password: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly isTemp: boolean;
  readonly deleted: boolean;
  readonly albums: { id: number; name: string; images: number }[];
}

interface ProjectView {
  readonly id: number;
  readonly name: string;
  readonly external_id: string;
  readonly ownerId: number;
  readonly templateId: number;
  readonly storefrontId: number;
  readonly createdOn: string;
  readonly design: {
    widthIn: number;
    heightIn: number;
    textFields: { name: string; value: string }[];
    tags: Record<string, string>;
  };
}

interface OverviewView {
  readonly now: string;
  readonly clockOffsetSeconds: number;
  readonly licenses: {
    id: number;
    name: string;
    tier: string;
    apiKeys: { token: string; key: string | undefined; label: string; active: boolean; deleted: boolean }[];
    storefronts: {
      id: number;
      name: string;
      statuses: { name: string; shipping: boolean; cancel: boolean }[];
      products: {
        id: number;
        name: string;
        integrationId: string;
        itemNumber: string;
        customSize: boolean;
      }[];
    }[];
  }[];
}

export interface SandboxControl {
  /** Back to the seed: every record, session, hook and delivery, and the clock offset. */
  reset(): void;
  now(): Date;
  /** Moves the virtual clock forward (sessions expire, merges finish). */
  advanceClock(seconds: number): Date;
  /** Completes every pending or unstarted file merge; answers how many items it finished. */
  finishMerges(): number;
  /** A storefront checkout: a new order for the customer, order_created (N01). */
  checkout(request: CheckoutRequest): Order;
  /** The admin changes an order's or an item's status: order_updated (N02). */
  setOrderStatus(orderId: number, request: StatusChangeRequest): Order;
  /**
   * The admin moves items of an order into a new shipment of their own (split shipping): order_updated.
   *
   * @example
   * const order = control.splitShipment(1003, { itemIds: [5005], provider: 'FedEx', service: '2Day' });
   * order.items.find((i) => i.id === 5005)?.shipment_index; // 2
   */
  splitShipment(orderId: number, request: ShipmentSplitRequest): Order;
  /**
   * Makes the order report order-level totals of its own, so they no longer add up (the items and
   * shipments keep theirs); null restores a computed figure. order_updated.
   *
   * @example
   * control.overrideTotals(orderId, { subTotal: 99.99 }).sub_total; // 99.99, items unchanged
   */
  overrideTotals(orderId: number, totals: TotalsOverride): Order;
  /** The admin deletes an order (soft): order_deleted (N03). */
  deleteOrder(orderId: number): Order;
  orderHistory(orderId: number): OrderHistoryView;
  createCustomer(request: NewCustomerRequest): Customer;
  updateCustomer(customerId: number, changes: CustomerChanges): Customer;
  deleteCustomer(customerId: number): Customer;
  /** Deletes an API key: it stops authenticating and its hooks are disabled (T15). */
  deleteApiKey(token: string): { disabledHooks: number };
  deliveries(): DeliveryView[];
  users(storefrontId?: number): UserView[];
  projects(ownerId?: number): ProjectView[];
  overview(): Promise<OverviewView>;
  /** Resolves when every webhook delivery started so far has finished. */
  idle(): Promise<void>;
}

function orderById(service: SandboxService, orderId: number): OrderRecord {
  const order = service.state.orders.get(orderId);
  if (order === undefined) throw SandboxError.of('orderNotFound');
  return order;
}

function customerById(service: SandboxService, customerId: number): CustomerRecord {
  const customer = service.state.customers.get(customerId);
  if (customer === undefined || customer.deleted) throw SandboxError.own('notFound', 'Customer not found.');
  return customer;
}

/** An order's history and the e-mails it sent, as the control API shows them. */
function orderHistoryView(service: SandboxService, orderId: number) {
  const order = orderById(service, orderId);
  return {
    orderId: order.id,
    history: order.history.map((h) => ({
      at: iso(h.at),
      itemId: h.itemId,
      source: h.source,
      status: h.status,
      note: h.note,
      comments: h.comments,
      userInitials: h.userInitials,
      trackingNumbers: [...h.trackingNumbers],
    })),
    emails: order.emails.map((e) => ({
      at: iso(e.at),
      template: e.template,
      to: e.to,
      itemId: e.itemId,
    })),
  };
}

/** Every license with its keys (and their derived keys), storefronts, statuses and products. */
async function overviewOf(service: SandboxService) {
  const { state } = service;
  const licenses = [];
  for (const license of state.licenses.values()) {
    const apiKeys = [];
    for (const key of state.apiKeys.values()) {
      if (key.licenseId !== license.id) continue;
      apiKeys.push({
        token: key.token,
        key: await service.keyOf(key.token),
        label: key.label,
        active: key.active,
        deleted: key.deleted,
      });
    }
    const storefronts = license.storefrontIds.map((id) => {
      const sf = state.storefronts.get(id)!;
      return {
        id: sf.id,
        name: sf.name,
        statuses: sf.statuses.map((s) => ({ ...s })),
        products: [...state.templates.values()]
          .filter((t) => t.storefrontId === sf.id)
          .map((t) => ({
            id: t.id,
            name: t.name,
            integrationId: t.integrationId,
            itemNumber: t.itemNumber,
            customSize: t.customSize,
          })),
      };
    });
    licenses.push({ id: license.id, name: license.name, tier: license.tier, apiKeys, storefronts });
  }
  return { now: iso(service.now()), clockOffsetSeconds: service.clock.offsetSeconds, licenses };
}

export function createControl(service: SandboxService): SandboxControl {
  return {
    reset: () => service.reset(),
    now: () => new Date(service.now()),
    advanceClock(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) {
        throw SandboxError.invalid('seconds must be a number of seconds, zero or more.');
      }
      service.clock.advance(seconds);
      return new Date(service.now());
    },
    finishMerges: () => finishMerges(service),
    checkout(request) {
      if (request.items.length === 0) throw SandboxError.invalid('items must list at least one product.');
      const payment = request.payment ?? {
        methods: [],
        reference: '',
        avsCode: '',
        cvCode: '',
        poNumber: '',
        invoiceNumber: '',
      };
      const order = checkout(service, { customerId: request.customerId, lines: request.items, payment });
      return orderResource(service.state, order);
    },
    setOrderStatus(orderId, request) {
      const order = orderById(service, orderId);
      const item = request.itemId === undefined ? null : order.items.find((i) => i.id === request.itemId);
      if (item === undefined) throw SandboxError.of('itemNotFound');
      changeStatus(
        service,
        order,
        item,
        {
          order_status: request.status,
          ...(request.comments === undefined ? {} : { comments: request.comments }),
          ...(request.notifyCustomer === undefined ? {} : { notify_customer: request.notifyCustomer }),
        },
        'admin',
      );
      return orderResource(service.state, order);
    },
    splitShipment(orderId, request) {
      const order = orderById(service, orderId);
      let address = structuredClone(order.shipments[0]!.address);
      if (request.shipTo !== undefined) {
        const parsed = SeedAddress.safeParse(request.shipTo);
        if (!parsed.success) {
          throw SandboxError.invalid(`shipTo is not an address: ${describeIssues(parsed.error)}.`);
        }
        address = parsed.data;
      }
      splitShipment(service, order, {
        itemIds: request.itemIds,
        address,
        provider: request.provider ?? null,
        service: request.service ?? null,
      });
      return orderResource(service.state, order);
    },
    overrideTotals(orderId, totals) {
      const order = orderById(service, orderId);
      for (const [name, value] of Object.entries(totals)) {
        if (value !== null && value !== undefined && (!Number.isFinite(value) || value < 0)) {
          throw SandboxError.invalid(`${name} must be an amount of zero or more, or null.`);
        }
      }
      overrideTotals(service, order, totals);
      return orderResource(service.state, order);
    },
    deleteOrder(orderId) {
      const order = orderById(service, orderId);
      deleteOrder(service, order);
      return orderResource(service.state, order);
    },
    orderHistory: (orderId) => orderHistoryView(service, orderId),
    createCustomer(request) {
      if (!service.state.storefronts.has(request.storefrontId)) {
        throw SandboxError.invalid(`No storefront ${request.storefrontId}.`);
      }
      const customer = createCustomer(service, {
        storefrontId: request.storefrontId,
        username: request.username,
        password: request.password,
        email: request.email,
        firstName: request.firstName,
        lastName: request.lastName,
        ...(request.company === undefined ? {} : { company: request.company }),
      });
      return customerResource(service.state, customer);
    },
    updateCustomer(customerId, changes) {
      const customer = customerById(service, customerId);
      updateCustomer(service, customer, changes);
      return customerResource(service.state, customer);
    },
    deleteCustomer(customerId) {
      const customer = customerById(service, customerId);
      deleteCustomer(service, customer);
      return customerResource(service.state, customer);
    },
    deleteApiKey: (token) => ({ disabledHooks: deleteApiKey(service, token) }),
    deliveries: () =>
      service.state.deliveries.map((d) => ({
        id: d.id,
        hookId: d.hookId,
        event: d.event,
        targetUrl: d.targetUrl,
        at: iso(d.at),
        outcome: d.outcome,
        status: d.status,
        error: d.error,
      })),
    users: (storefrontId) =>
      [...service.state.customers.values()]
        .filter((c) => storefrontId === undefined || c.storefrontId === storefrontId)
        .map((c) => ({
          id: c.id,
          storefrontId: c.storefrontId,
          username: c.username,
          password: c.password,
          email: c.email,
          firstName: c.firstName,
          lastName: c.lastName,
          isTemp: c.isTemp,
          deleted: c.deleted,
          albums: c.albums.map((a) => ({ id: a.id, name: a.name, images: a.images.length })),
        })),
    projects: (ownerId) =>
      [...service.state.projects.values()]
        .filter((p) => !p.deleted && (ownerId === undefined || p.ownerId === ownerId))
        .map((p) => ({
          ...projectResource(service.state, p),
          ownerId: p.ownerId,
          templateId: p.templateId,
          storefrontId: p.storefrontId,
          createdOn: iso(p.createdOn),
          design: structuredClone(p.design),
        })),
    overview: () => overviewOf(service),
    idle: () => service.webhooks.idle(),
  };
}
