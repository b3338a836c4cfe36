/**
 * The interface's JSON resources built from the sandbox's records: Order (with items, shipments and
 * payment flags), Customer, PIPO User and Project. The GET endpoints and the webhook deliveries use the
 * same builders, so a delivery body is shaped exactly like the matching GET answer (W02).
 */
import {
  type Address,
  type Customer,
  type Order,
  type OrderItem,
  type PipoProject,
  type PipoUser,
  paymentPaypal,
  type Shipment,
} from 'punchgate/schemas/print-api';
import type { SeedAddress } from '../sandbox-seed.ts';
import {
  type CustomerRecord,
  type ItemRecord,
  type OrderRecord,
  type ProjectRecord,
  parametricValue,
  roundMoney,
  type SandboxState,
  type ShipmentRecord,
  type TemplateRecord,
} from './state.ts';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** The separator of the tracking numbers of a shipment, which the interface shows as one string. */
const TRACKING_SEPARATOR = ', ';

function addressResource(a: SeedAddress): Address {
  return {
    id: a.id,
    name: a.name,
    company: a.company,
    first_name: a.firstName,
    last_name: a.lastName,
    line_1: a.line1,
    line_2: a.line2,
    line_3: a.line3,
    line_4: a.line4,
    city: a.city,
    state: a.state,
    postal_code: a.postalCode,
    phone: a.phone,
    email: a.email,
    country_code: a.countryCode,
    is_residential: a.isResidential,
  };
}

function shipmentResource(s: ShipmentRecord, index: number): Shipment {
  return {
    index,
    provider: s.provider,
    service: s.service,
    shipping_total: s.shippingTotal,
    tax_total: s.taxTotal,
    tracking_numbers: s.trackingNumbers.length === 0 ? null : s.trackingNumbers.join(TRACKING_SEPARATOR),
    shipped_on: isoOrNull(s.shippedOn),
    ship_to_address: {
      first_name: s.address.firstName,
      last_name: s.address.lastName,
      address1: s.address.line1,
      city: s.address.city,
      state: s.address.state,
      zip: s.address.postalCode,
      country: s.address.countryCode,
    },
  };
}

/** The template an item's numbers come from: the product itself, or the original of a customized copy (R04). */
export function templateOf(state: SandboxState, productId: number): TemplateRecord | undefined {
  const template = state.templates.get(productId);
  if (template !== undefined) return template;
  const project = state.projects.get(productId);
  return project === undefined ? undefined : state.templates.get(project.templateId);
}

function itemOptionsPrice(item: ItemRecord): number {
  return roundMoney(item.options.reduce((sum, o) => sum + o.price, 0));
}

export function itemSubTotal(item: ItemRecord): number {
  return roundMoney(
    item.basePrice + itemOptionsPrice(item) + item.markupPrice + item.imageFee + item.downloadFee,
  );
}

function itemResource(state: SandboxState, item: ItemRecord): OrderItem {
  const template = templateOf(state, item.productId);
  const parametric = template?.parametric ?? null;
  const combinedNotes = [template?.comments ?? '', item.notes].filter((n) => n !== '').join('\n');
  const resource: OrderItem & { external_id?: string } = {
    id: item.id,
    product_id: item.productId,
    name: item.name,
    status: item.status,
    quantity: item.quantity,
    sub_total: itemSubTotal(item),
    base_price: item.basePrice,
    options_price: itemOptionsPrice(item),
    markup_price: item.markupPrice,
    image_fee: item.imageFee,
    download_fee: item.downloadFee,
    weight: item.weight,
    created_on: iso(item.createdOn),
    due_on: isoOrNull(item.dueOn),
    item_number: template?.itemNumber ?? '',
    model_number: template?.modelNumber ?? '',
    integration_id: template?.integrationId ?? '',
    vendor: template?.vendor ?? '',
    notes: combinedNotes,
    reorder_ref: item.reorderRef,
    shipment_index: item.shipmentIndex,
    options: item.options.map((o) => ({
      name: o.name,
      value: o.value,
      option_integration_id: o.optionIntegrationId,
      value_integration_id: o.valueIntegrationId,
    })),
    parametric:
      parametric === null
        ? null
        : parametric.properties.map((p) => ({
            name: p.name,
            value: parametricValue(p, parametric.unitSystem),
          })),
  };
  if (item.externalId !== undefined) resource.external_id = item.externalId;
  return resource;
}

export function customerResource(state: SandboxState, c: CustomerRecord): Customer {
  return {
    storefront: state.storefronts.get(c.storefrontId)?.name ?? '',
    id: c.id,
    first_name: c.firstName,
    last_name: c.lastName,
    email: c.email,
    username: c.username,
    receive_marketing_emails: c.receiveMarketingEmails,
    last_logged_in_on: iso(c.lastLoggedInOn),
    created_on: iso(c.createdOn),
    last_updated_on: iso(c.lastUpdatedOn),
    company: c.company,
    organization: c.organization,
    user_groups: [...c.userGroups],
    tax_exempt: c.taxExempt,
  };
}

/** The order total the reports use: items, every shipment's shipping and tax, less the promotion. */
export function orderGrandTotal(order: OrderRecord): number {
  const items = order.items.reduce((sum, i) => sum + itemSubTotal(i), 0);
  const shipping = order.shipments.reduce((sum, s) => sum + s.shippingTotal + s.taxTotal, 0);
  return roundMoney(items + shipping - order.promotionTotal);
}

export function orderResource(state: SandboxState, order: OrderRecord): Order {
  const customer = state.customers.get(order.customerId)!;
  const primary = order.shipments[0]!;
  const p = order.payment;
  // The control API may have made the order report totals that do not add up (`reportedTotals`).
  const reported = order.reportedTotals;
  const flags = {
    payment_creditcard: p.methods.includes('creditcard'),
    payment_check: p.methods.includes('check'),
    payment_cod: p.methods.includes('cod'),
    payment_po: p.methods.includes('po'),
    payment_invoice: p.methods.includes('invoice'),
  };
  const resource: Order = {
    storefront: state.storefronts.get(order.storefrontId)!.name,
    id: order.id,
    is_archived: order.isArchived,
    is_deleted: order.isDeleted,
    status: order.status,
    customer: customerResource(state, customer),
    shipping_address: addressResource(primary.address),
    billing_address: addressResource(order.billingAddress),
    ...flags,
    payment_paypal: paymentPaypal(flags),
    payment_reference: p.reference,
    payment_avscode: p.avsCode,
    payment_cvcode: p.cvCode,
    po_number: p.poNumber,
    invoice_number: p.invoiceNumber,
    tax_total: reported.taxTotal ?? roundMoney(order.shipments.reduce((sum, s) => sum + s.taxTotal, 0)),
    shipping_total: reported.shippingTotal ?? primary.shippingTotal,
    sub_total: reported.subTotal ?? roundMoney(order.items.reduce((sum, i) => sum + itemSubTotal(i), 0)),
    promotion_total: reported.promotionTotal ?? order.promotionTotal,
    promotion_code: order.promotionCode,
    created_on: iso(order.createdOn),
    shipped_on: isoOrNull(order.shippedOn),
    shipping_provider: primary.provider ?? '',
    shipping_service: primary.service ?? '',
    items: order.items.map((item) => itemResource(state, item)),
    shipments: order.shipments.map((s, i) => shipmentResource(s, i + 1)),
    checkout_fields: order.checkoutFields.map((f) => ({ name: f.name, value: f.value })),
  };
  if (order.integrationId !== undefined) resource.integration_id = order.integrationId;
  // Present only for the payment kind they belong to (R02).
  if (flags.payment_creditcard) {
    resource.card_type = p.cardType ?? '';
    resource.card_number = p.cardNumber ?? '';
  }
  if (flags.payment_check) resource.check_number = p.checkNumber ?? '';
  return resource;
}

export function pipoUserResource(c: CustomerRecord, withStorefront: boolean): PipoUser {
  const user: PipoUser = {
    id: c.id,
    username: c.username,
    first_name: c.firstName,
    last_name: c.lastName,
    email: c.email,
    is_temp: c.isTemp,
  };
  if (withStorefront) user.storefront_id = c.storefrontId;
  return user;
}

export function projectResource(state: SandboxState, project: ProjectRecord): PipoProject {
  return {
    id: project.id,
    name: project.name,
    external_id: state.templates.get(project.templateId)?.integrationId ?? '',
  };
}
