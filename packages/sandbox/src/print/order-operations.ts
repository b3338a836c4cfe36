/**
 * What happens to orders: mark shipped (T01, T02, T07), status changes through the API or the admin
 * (T03, T04), PIPO order create and file processing (T05, T06), storefront checkout, the admin's
 * shipment split and admin deletion.
 * Each operation checks everything first and mutates last, then fires its webhook event.
 */
import type { StatusBody } from 'punchgate/schemas/print-api';
import type { SeedAddress, SeedPayment } from '../sandbox-seed.ts';
import { chargeOrder } from './pipo-charges.ts';
import { applyTicketQuantities } from './ticket-quantities.ts';
import { orderResource, templateOf } from './resources.ts';
import { SandboxError } from './sandbox-error.ts';
import type { SandboxService } from './service.ts';
import {
  type CustomerRecord,
  type HistoryEntry,
  type ItemRecord,
  type OptionRecord,
  type OrderCharges,
  type OrderRecord,
  type ReportedTotals,
  roundMoney,
  type StatusRecord,
  type StorefrontRecord,
} from './state.ts';
import type { KeepAlive } from './webhooks.ts';

/** An order of the license, deleted ones included (they show is_deleted); X11 otherwise. */
export function findLicensedOrder(service: SandboxService, licenseId: number, orderId: number): OrderRecord {
  const order = service.state.orders.get(orderId);
  if (order === undefined || service.state.storefronts.get(order.storefrontId)?.licenseId !== licenseId) {
    throw SandboxError.of('orderNotFound');
  }
  return order;
}

export function findOrderItem(order: OrderRecord, itemId: number): ItemRecord {
  const item = order.items.find((i) => i.id === itemId);
  if (item === undefined) throw SandboxError.of('itemNotFound');
  return item;
}

export function isMerged(service: SandboxService, item: ItemRecord): boolean {
  return item.mergeReadyAt !== null && item.mergeReadyAt <= service.now();
}

/**
 * Tracking numbers as given: one, or several separated by commas or semicolons. White space is not a
 * separator: carriers print their numbers in groups ("1Z 999 AA1 01 2345 6784" is one UPS number).
 */
function splitTrackingNumbers(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

function appendTracking(existing: string[], added: readonly string[]): void {
  for (const number of added) if (!existing.includes(number)) existing.push(number);
}

function storefrontOf(service: SandboxService, order: OrderRecord): StorefrontRecord {
  return service.state.storefronts.get(order.storefrontId)!;
}

/** The shipments an operation covers: all of them, or the one holding the item. */
function coveredShipments(order: OrderRecord, item: ItemRecord | null) {
  return item === null ? order.shipments : [order.shipments[item.shipmentIndex - 1]!];
}

/** Marks shipments shipped at `at`; the order's shipped date is set once every shipment has shipped. */
function shipShipments(order: OrderRecord, item: ItemRecord | null, tracking: readonly string[], at: number) {
  for (const shipment of coveredShipments(order, item)) {
    shipment.shippedOn = at;
    appendTracking(shipment.trackingNumbers, tracking);
  }
  if (item === null || order.shipments.every((s) => s.shippedOn !== null)) order.shippedOn = at;
}

/**
 * The status an order-wide change last gave every item of an order, while no item has been given another
 * since. A job ticket split over hundreds of history entries sets the same status hundreds of times:
 * setting it again on each of 5,000 items every time made a status change cost as much as the order is
 * long, and the gateway's job quadratic in its lines.
 */
const sharedStatus = new WeakMap<OrderRecord, string>();

/** Gives the items their status; the order's own status follows when all its items share one. */
function applyStatus(order: OrderRecord, item: ItemRecord | null, status: string): void {
  if (item === null) {
    if (sharedStatus.get(order) !== status) {
      for (const target of order.items) target.status = status;
      sharedStatus.set(order, status);
    }
    order.status = status;
    return;
  }
  item.status = status;
  if (sharedStatus.get(order) === status) return;
  sharedStatus.delete(order);
  if (order.items.every((i) => i.status === status)) order.status = status;
}

function customerEmail(service: SandboxService, order: OrderRecord): string {
  return service.state.customers.get(order.customerId)?.email ?? '';
}

function emitOrderEvent(
  service: SandboxService,
  event: 'order_created' | 'order_updated' | 'order_deleted',
  order: OrderRecord,
  keepAlive?: KeepAlive,
): void {
  const licenseId = storefrontOf(service, order).licenseId;
  if (service.webhooks.hooksFor(licenseId, event).length === 0) return;
  service.webhooks.emit(licenseId, event, orderResource(service.state, order), keepAlive);
}

/** PATCH /order/{id}/shipped[/{itemId}] (T01, T02, T07). */
export function markShipped(
  service: SandboxService,
  order: OrderRecord,
  item: ItemRecord | null,
  trackingNumber: string | undefined,
  keepAlive?: KeepAlive,
): void {
  const shipping = storefrontOf(service, order).statuses.find((s) => s.shipping);
  if (shipping === undefined) throw SandboxError.of('badRequest');
  const now = service.now();
  const tracking = splitTrackingNumbers(trackingNumber);
  applyStatus(order, item, shipping.name);
  shipShipments(order, item, tracking, now);
  order.history.push({
    at: now,
    itemId: item?.id ?? null,
    source: 'api',
    status: shipping.name,
    note: `${item === null ? 'Order' : `Item ${item.id}`} marked shipped via the API`,
    comments: null,
    userInitials: null,
    trackingNumbers: tracking,
  });
  order.emails.push({
    at: now,
    template: 'Order Shipped',
    to: customerEmail(service, order),
    itemId: item?.id ?? null,
  });
  emitOrderEvent(service, 'order_updated', order, keepAlive);
}

/** A storefront status matched case-insensitively; a 400 naming the valid ones otherwise. */
function matchStatus(storefront: StorefrontRecord, wanted: string): StatusRecord {
  const lower = wanted.trim().toLowerCase();
  const status = storefront.statuses.find((s) => s.name.toLowerCase() === lower);
  if (status === undefined) {
    const names = storefront.statuses.map((s) => `'${s.name}'`).join(', ');
    throw SandboxError.invalid(
      `order_status '${wanted}' is not a status of storefront '${storefront.name}'; its statuses are ${names}.`,
    );
  }
  return status;
}

/** PATCH /order/{id}/status[/{itemId}] (T03, T04) and the admin's status change (source admin). */
export function changeStatus(
  service: SandboxService,
  order: OrderRecord,
  item: ItemRecord | null,
  body: StatusBody,
  source: 'api' | 'admin',
  keepAlive?: KeepAlive,
): void {
  const status = matchStatus(storefrontOf(service, order), body.order_status);
  const now = service.now();
  const tracking = splitTrackingNumbers(body.tracking_number);
  applyStatus(order, item, status.name);
  if (status.shipping) shipShipments(order, item, tracking, now);
  else
    for (const shipment of coveredShipments(order, item)) appendTracking(shipment.trackingNumbers, tracking);
  const subject = item === null ? 'Order' : `Item ${item.id}`;
  const entry: HistoryEntry = {
    at: now,
    itemId: item?.id ?? null,
    source,
    status: status.name,
    note: `${subject} status set to '${status.name}' ${source === 'api' ? 'via the API' : 'by the admin'}`,
    comments: body.comments ?? null,
    userInitials: body.user_initials ?? null,
    trackingNumbers: tracking,
  };
  order.history.push(entry);
  if (source === 'api') {
    const customer = service.state.customers.get(order.customerId);
    applyTicketQuantities(service.state, order, body.comments, customer?.taxExempt ?? false);
  }
  if (body.notify_customer === true) {
    order.emails.push({
      at: now,
      template: status.shipping ? 'Order Shipped' : 'Order Status Changed',
      to: customerEmail(service, order),
      itemId: item?.id ?? null,
    });
  }
  if (body.notify_vendor === true) {
    const vendors = new Set(order.items.map((i) => templateOf(service.state, i.productId)?.vendor ?? ''));
    vendors.delete('');
    for (const vendor of vendors) {
      order.emails.push({ at: now, template: 'Vendor Purchase Order', to: vendor, itemId: item?.id ?? null });
    }
  }
  emitOrderEvent(service, 'order_updated', order, keepAlive);
}

/** The address an order for this customer ships and bills to when none is given. */
function customerAddress(customer: CustomerRecord): SeedAddress {
  return (
    customer.address ?? {
      id: customer.id,
      name: 'Default',
      company: customer.company,
      firstName: customer.firstName,
      lastName: customer.lastName,
      line1: '',
      line2: '',
      line3: null,
      line4: null,
      city: '',
      state: '',
      postalCode: '',
      phone: '',
      email: customer.email,
      countryCode: 'US',
      isResidential: false,
    }
  );
}

export interface NewOrderLine {
  readonly productId: number;
  readonly quantity: number;
  readonly options?: readonly OptionRecord[] | undefined;
}

interface NewOrderInput {
  readonly customer: CustomerRecord;
  readonly lines: readonly NewOrderLine[];
  readonly integrationId: string | undefined;
  readonly externalId: string | undefined;
  readonly payment: SeedPayment;
  readonly source: HistoryEntry['source'];
  /** When the items' files finish merging: null until processing starts. */
  readonly mergeReadyAt: number | null;
  /** PIPO orders: shipping, tax and promotion from the storefront's charges; none otherwise. */
  readonly charges?: OrderCharges | undefined;
  /** PIPO orders: the unit price is the product's `pipoUnitPrice` where the seed gives one. */
  readonly pipoPrices?: boolean;
}

/** Builds and stores a new order in the storefront's first status (ids must be valid already). */
function placeOrder(service: SandboxService, input: NewOrderInput): OrderRecord {
  const { state } = service;
  const storefront = state.storefronts.get(input.customer.storefrontId)!;
  const first = storefront.statuses[0]!.name;
  const now = service.now();
  const address = customerAddress(input.customer);
  const order: OrderRecord = {
    id: state.next.order++,
    storefrontId: storefront.id,
    customerId: input.customer.id,
    integrationId: input.integrationId,
    status: first,
    isArchived: false,
    isDeleted: false,
    createdOn: now,
    shippedOn: null,
    payment: input.payment,
    billingAddress: address,
    shipments: [
      {
        provider: null,
        service: null,
        shippingTotal: 0,
        taxTotal: 0,
        trackingNumbers: [],
        shippedOn: null,
        address,
      },
    ],
    promotionCode: input.charges?.promotion?.code ?? null,
    promotionTotal: 0,
    charges: input.charges ?? null,
    reportedTotals: {},
    checkoutFields: [],
    items: input.lines.map((line) => {
      const template = templateOf(state, line.productId)!;
      const project = state.projects.get(line.productId);
      return {
        id: state.next.item++,
        productId: line.productId,
        name: project?.name ?? template.name,
        status: first,
        quantity: line.quantity,
        basePrice: roundMoney(
          line.quantity *
            ((input.pipoPrices === true ? template.pipoUnitPrice : undefined) ?? template.price),
        ),
        markupPrice: 0,
        imageFee: 0,
        downloadFee: 0,
        weight: roundMoney(line.quantity * template.weight),
        createdOn: now,
        dueOn: null,
        notes: '',
        reorderRef: '',
        shipmentIndex: 1,
        options: (line.options ?? template.options).map((o) => ({ ...o })),
        uploads:
          template.designKind === 'upload' ? [`${template.itemNumber || `product-${template.id}`}.pdf`] : [],
        externalId: input.externalId,
        mergeReadyAt: input.mergeReadyAt,
      };
    }),
    history: [
      {
        at: now,
        itemId: null,
        source: input.source,
        status: first,
        note: input.source === 'pipo' ? 'Order created via PIPO' : 'Order placed through storefront checkout',
        comments: null,
        userInitials: null,
        trackingNumbers: [],
      },
    ],
    emails: [],
  };
  chargeOrder(order, input.customer.taxExempt);
  state.orders.set(order.id, order);
  return order;
}

/** Whether a product id may be ordered by this user: a template of their storefront or their own project. */
function orderableBy(service: SandboxService, user: CustomerRecord, productId: number): boolean {
  const { templates, projects } = service.state;
  const template = templates.get(productId);
  if (template !== undefined) return template.storefrontId === user.storefrontId;
  const project = projects.get(productId);
  return project !== undefined && !project.deleted && project.ownerId === user.id;
}

/** The next invoice number of the storefront, when its seed numbers PIPO orders; '' otherwise. */
function nextInvoiceNumber(storefront: StorefrontRecord): string {
  const numbers = storefront.pipoCharges.invoiceNumbers;
  if (numbers === null) return '';
  const number = `${numbers.prefix}${numbers.next}`;
  numbers.next += 1;
  return number;
}

/**
 * POST /pipo/order/create (T05, P03): invalid ids are dropped silently; 400 Bad Request when none is
 * valid. The order is the session user's, in the storefront's first status, paid by purchase order
 * (po_number and integration_id = external_id); its files are not merged until processing. Each item is
 * one design of quantity 1 at the product's PIPO unit price; shipping, tax, promotion and the invoice
 * number come from the storefront's `pipoCharges`.
 */
export function createPipoOrder(
  service: SandboxService,
  user: CustomerRecord,
  productIds: readonly number[],
  externalId: string | undefined,
): OrderRecord {
  const valid = productIds.filter((id) => Number.isInteger(id) && orderableBy(service, user, id));
  if (valid.length === 0) throw SandboxError.of('badRequest');
  const external = externalId === undefined || externalId === '' ? undefined : externalId;
  const storefront = service.state.storefronts.get(user.storefrontId)!;
  const { taxRatePercent, taxOnShipping, shippingPerShipment, promotion } = storefront.pipoCharges;
  return placeOrder(service, {
    customer: user,
    lines: valid.map((productId) => ({ productId, quantity: 1 })),
    integrationId: external,
    externalId: external,
    payment: {
      methods: ['po'],
      reference: '',
      avsCode: '',
      cvCode: '',
      poNumber: external ?? '',
      invoiceNumber: nextInvoiceNumber(storefront),
    },
    source: 'pipo',
    mergeReadyAt: null,
    charges: { taxRatePercent, taxOnShipping, shippingPerShipment, promotion },
    pipoPrices: true,
  });
}

/** GET /pipo/order/{id}/process (T06): files of unprocessed items merge after the merge delay. */
export function processOrder(service: SandboxService, order: OrderRecord): void {
  const readyAt = service.now() + service.mergeDelayMs;
  for (const item of order.items) if (item.mergeReadyAt === null) item.mergeReadyAt = readyAt;
}

/** The control API's "finish merges now": every started or unstarted merge completes at once. */
export function finishMerges(service: SandboxService): number {
  const now = service.now();
  let finished = 0;
  for (const order of service.state.orders.values()) {
    for (const item of order.items) {
      if (item.mergeReadyAt === null || item.mergeReadyAt > now) {
        item.mergeReadyAt = now;
        finished++;
      }
    }
  }
  return finished;
}

export interface CheckoutInput {
  readonly customerId: number;
  readonly lines: readonly NewOrderLine[];
  readonly payment: SeedPayment;
}

/** A storefront checkout (control API): the order_created event (N01); files merge after the delay. */
export function checkout(service: SandboxService, input: CheckoutInput, keepAlive?: KeepAlive): OrderRecord {
  const customer = service.state.customers.get(input.customerId);
  if (customer === undefined || customer.deleted) {
    throw SandboxError.own('notFound', `Customer ${input.customerId} not found.`);
  }
  for (const line of input.lines) {
    if (!orderableBy(service, customer, line.productId)) {
      throw SandboxError.invalid(`Product ${line.productId} cannot be ordered by customer ${customer.id}.`);
    }
  }
  const order = placeOrder(service, {
    customer,
    lines: input.lines,
    integrationId: undefined,
    externalId: undefined,
    payment: input.payment,
    source: 'checkout',
    mergeReadyAt: service.now() + service.mergeDelayMs,
  });
  emitOrderEvent(service, 'order_created', order, keepAlive);
  return order;
}

/** The admin deletes an order (soft: it stays readable with is_deleted true); order_deleted (N03). */
export function deleteOrder(service: SandboxService, order: OrderRecord, keepAlive?: KeepAlive): void {
  if (order.isDeleted) throw SandboxError.own('conflict', `Order ${order.id} is deleted already.`);
  order.isDeleted = true;
  order.history.push({
    at: service.now(),
    itemId: null,
    source: 'admin',
    status: null,
    note: 'Order deleted by the admin',
    comments: null,
    userInitials: null,
    trackingNumbers: [],
  });
  emitOrderEvent(service, 'order_deleted', order, keepAlive);
}

/** What the admin's split says: the items that move, and the new shipment's destination and carrier. */
export interface ShipmentSplit {
  readonly itemIds: readonly number[];
  readonly address: SeedAddress;
  readonly provider: string | null;
  readonly service: string | null;
}

/**
 * The admin splits an order (control API): the given items move into a new shipment, the next index, which
 * ships independently of the others (T02). Every existing shipment keeps at least one item, so the primary
 * shipment the flat shipping_* fields reflect always holds some of the order; a shipped item stays where it
 * shipped. order_updated, since the order changed. Answers the new shipment's index.
 */
export function splitShipment(
  service: SandboxService,
  order: OrderRecord,
  split: ShipmentSplit,
  keepAlive?: KeepAlive,
): number {
  const ids = [...new Set(split.itemIds)];
  if (ids.length === 0) throw SandboxError.invalid('itemIds must list at least one item of the order.');
  const moving = ids.map((id) => {
    const item = order.items.find((i) => i.id === id);
    if (item === undefined) throw SandboxError.own('notFound', `Order ${order.id} has no item ${id}.`);
    const shipment = order.shipments[item.shipmentIndex - 1];
    if (shipment !== undefined && shipment.shippedOn !== null) {
      throw SandboxError.invalid(
        `Item ${id} is in shipment ${item.shipmentIndex}, which has shipped already; a shipped item cannot move.`,
      );
    }
    return item;
  });
  for (let index = 1; index <= order.shipments.length; index++) {
    if (order.items.every((i) => i.shipmentIndex !== index || moving.includes(i))) {
      throw SandboxError.invalid(
        `Shipment ${index} of order ${order.id} would keep no item; every shipment keeps at least one${
          index === 1 ? ' (shipment 1 is the primary one)' : ''
        }.`,
      );
    }
  }
  const index = order.shipments.length + 1;
  order.shipments.push({
    provider: split.provider,
    service: split.service,
    shippingTotal: 0,
    taxTotal: 0,
    trackingNumbers: [],
    shippedOn: null,
    address: structuredClone(split.address),
  });
  for (const item of moving) item.shipmentIndex = index;
  // A PIPO order charges the new shipment's shipping and re-taxes both shipments by their items.
  chargeOrder(order, service.state.customers.get(order.customerId)?.taxExempt ?? false);
  order.history.push({
    at: service.now(),
    itemId: moving.length === 1 ? moving[0]!.id : null,
    source: 'admin',
    status: null,
    note: `${moving.length === 1 ? 'Item' : 'Items'} ${ids.join(', ')} moved to new shipment ${index} by the admin`,
    comments: null,
    userInitials: null,
    trackingNumbers: [],
  });
  emitOrderEvent(service, 'order_updated', order, keepAlive);
  return index;
}

/** Totals to report instead of the computed ones: a number replaces, null restores the computed figure. */
export type TotalsOverride = { readonly [K in keyof ReportedTotals]?: number | null | undefined };

/**
 * The control API makes an order report order-level totals of its own (a faulty service, or an admin's
 * hand edit): `sub_total`, `tax_total`, `shipping_total` or `promotion_total` then show the given figure
 * while the items and shipments keep theirs, so the order no longer adds up. order_updated, since the
 * order changed.
 */
export function overrideTotals(
  service: SandboxService,
  order: OrderRecord,
  override: TotalsOverride,
  keepAlive?: KeepAlive,
): void {
  const reported: ReportedTotals = { ...order.reportedTotals };
  for (const key of ['subTotal', 'taxTotal', 'shippingTotal', 'promotionTotal'] as const) {
    const value = override[key];
    if (value === null) delete reported[key];
    else if (value !== undefined) reported[key] = roundMoney(value);
  }
  order.reportedTotals = reported;
  const shown = Object.entries(reported).map(([name, value]) => `${name} ${value}`);
  order.history.push({
    at: service.now(),
    itemId: null,
    source: 'admin',
    status: null,
    note:
      shown.length === 0
        ? 'Order totals computed again by the admin'
        : `Order totals overridden by the admin: ${shown.join(', ')}`,
    comments: null,
    userInitials: null,
    trackingNumbers: [],
  });
  emitOrderEvent(service, 'order_updated', order, keepAlive);
}
