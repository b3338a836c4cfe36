/**
 * GET /report/{report_type} (E31, R13): the twelve report types computed from the sandbox's live records.
 * `sales` has the interface's record; the other shapes are the sandbox's own (SANDBOX_REPORT_RECORDS in
 * schemas/print-api.ts, documented in docs/sandbox.md). Deleted orders are left out; dates compare by UTC day.
 */
import { REPORT_TYPES, type ReportType, type SandboxReportRecord, ViewBy } from 'punchgate/schemas/print-api';
import { readId } from './request-input.ts';
import { itemSubTotal, orderGrandTotal, templateOf } from './resources.ts';
import { SandboxError } from './sandbox-error.ts';
import type { SandboxService } from './service.ts';
import { type OrderRecord, roundMoney, type StorefrontRecord } from './state.ts';

export interface ReportQueryInput {
  readonly storefrontId?: string | undefined;
  readonly fromDate?: string | undefined;
  readonly toDate?: string | undefined;
  readonly viewBy?: string | undefined;
}

interface ReportScope {
  readonly storefronts: readonly StorefrontRecord[];
  /** Inclusive UTC days as YYYY-MM-DD; undefined means unbounded. */
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly viewBy: ViewBy;
}

function isReportType(text: string): text is ReportType {
  return (REPORT_TYPES as readonly string[]).includes(text);
}

/** The report type from the path; 404 naming the valid ones otherwise. */
export function reportTypeOf(text: string): ReportType {
  if (!isReportType(text)) {
    throw SandboxError.own(
      'notFound',
      `Unknown report type '${text}'; report types are ${REPORT_TYPES.join(', ')}.`,
    );
  }
  return text;
}

function readDate(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const date = match === null ? undefined : new Date(`${text}T00:00:00Z`);
  if (date === undefined || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw SandboxError.invalid(`${name} must be a calendar date as YYYY-MM-DD.`);
  }
  return text;
}

/** Validates the query: every bad value is a 400 naming the parameter. */
export function readReportScope(
  service: SandboxService,
  licenseId: number,
  type: ReportType,
  query: ReportQueryInput,
): ReportScope {
  let storefronts: StorefrontRecord[];
  const allOfLicense = () =>
    [...service.state.storefronts.values()].filter((sf) => sf.licenseId === licenseId);
  if (query.storefrontId === undefined || query.storefrontId === '0') {
    storefronts = allOfLicense();
  } else {
    const id = readId(query.storefrontId);
    if (id === undefined)
      throw SandboxError.invalid('storefrontId must be an integer (0 means all storefronts).');
    const storefront = service.state.storefronts.get(id);
    if (storefront === undefined || storefront.licenseId !== licenseId) {
      throw SandboxError.invalid(`storefrontId ${id} is not a storefront of this license.`);
    }
    storefronts = [storefront];
  }
  const from = readDate('fromDate', query.fromDate);
  const to = readDate('toDate', query.toDate);
  if (from !== undefined && to !== undefined && from > to) {
    throw SandboxError.invalid('fromDate must not be after toDate.');
  }
  let viewBy: ViewBy = 'day';
  if (query.viewBy !== undefined) {
    if (type !== 'order') throw SandboxError.invalid('viewBy applies only to report type order.');
    const parsed = ViewBy.safeParse(query.viewBy);
    if (!parsed.success) throw SandboxError.invalid('viewBy must be day, month or year.');
    viewBy = parsed.data;
  }
  return { storefronts, from, to, viewBy };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(ms).toISOString();

function inRange(scope: ReportScope, ms: number): boolean {
  const d = day(ms);
  return (scope.from === undefined || d >= scope.from) && (scope.to === undefined || d <= scope.to);
}

function ordersIn(service: SandboxService, scope: ReportScope, storefront: StorefrontRecord): OrderRecord[] {
  return [...service.state.orders.values()]
    .filter((o) => o.storefrontId === storefront.id && !o.isDeleted && inRange(scope, o.createdOn))
    .sort((a, b) => a.id - b.id);
}

/** Groups rows by a key, keeping first-seen order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [row]);
    else group.push(row);
  }
  return groups;
}

const sum = <T>(rows: readonly T[], value: (row: T) => number) =>
  roundMoney(rows.reduce((s, r) => s + value(r), 0));

type Records = {
  [T in ReportType]: (service: SandboxService, scope: ReportScope) => SandboxReportRecord<T>[];
};

const REPORTS: Records = {
  sales: (service, scope) =>
    scope.storefronts.map((sf) => {
      const orders = ordersIn(service, scope, sf);
      const total = sum(orders, orderGrandTotal);
      return {
        storefront: sf.name,
        user_count: new Set(orders.map((o) => o.customerId)).size,
        order_count: orders.length,
        order_average: orders.length === 0 ? 0 : roundMoney(total / orders.length),
        order_total: total,
      };
    }),
  tax: (service, scope) =>
    scope.storefronts.map((sf) => {
      const orders = ordersIn(service, scope, sf);
      return {
        storefront: sf.name,
        order_count: orders.length,
        taxable_total: sum(orders, (o) => sum(o.items, itemSubTotal)),
        shipping_total: sum(orders, (o) => sum(o.shipments, (s) => s.shippingTotal)),
        tax_total: sum(orders, (o) => sum(o.shipments, (s) => s.taxTotal)),
      };
    }),
  order: (service, scope) => {
    const length = { day: 10, month: 7, year: 4 }[scope.viewBy];
    const orders = scope.storefronts
      .flatMap((sf) => ordersIn(service, scope, sf))
      .sort((a, b) => a.createdOn - b.createdOn);
    return [...groupBy(orders, (o) => day(o.createdOn).slice(0, length))].map(([period, group]) => ({
      period,
      order_count: group.length,
      item_count: group.reduce((n, o) => n + o.items.length, 0),
      quantity: group.reduce((n, o) => n + o.items.reduce((q, i) => q + i.quantity, 0), 0),
      order_total: sum(group, orderGrandTotal),
    }));
  },
  order_details: (service, scope) =>
    scope.storefronts.flatMap((sf) =>
      ordersIn(service, scope, sf).map((o) => {
        const customer = service.state.customers.get(o.customerId)!;
        return {
          order_id: o.id,
          storefront: sf.name,
          created_on: iso(o.createdOn),
          status: o.status,
          customer_id: customer.id,
          customer_name: `${customer.firstName} ${customer.lastName}`.trim(),
          customer_email: customer.email,
          po_number: o.payment.poNumber,
          integration_id: o.integrationId ?? null,
          item_count: o.items.length,
          sub_total: sum(o.items, itemSubTotal),
          shipping_total: sum(o.shipments, (s) => s.shippingTotal),
          tax_total: sum(o.shipments, (s) => s.taxTotal),
          promotion_total: o.promotionTotal,
          order_total: orderGrandTotal(o),
        };
      }),
    ),
  order_item_details: (service, scope) =>
    scope.storefronts.flatMap((sf) =>
      ordersIn(service, scope, sf).flatMap((o) =>
        o.items.map((i) => ({
          order_id: o.id,
          item_id: i.id,
          storefront: sf.name,
          created_on: iso(o.createdOn),
          product_id: i.productId,
          name: i.name,
          item_number: templateOf(service.state, i.productId)?.itemNumber ?? '',
          status: i.status,
          quantity: i.quantity,
          sub_total: itemSubTotal(i),
          shipment_index: i.shipmentIndex,
        })),
      ),
    ),
  product_sales: (service, scope) =>
    scope.storefronts.flatMap((sf) => {
      // Customized copies count toward their template, as the template is the product being sold.
      const lines = ordersIn(service, scope, sf).flatMap((o) =>
        o.items.map((item) => ({ order: o, item, template: templateOf(service.state, item.productId)! })),
      );
      return [...groupBy(lines, (l) => String(l.template.id))].map(([, group]) => {
        const template = group[0]!.template;
        return {
          storefront: sf.name,
          product_id: template.id,
          name: template.name,
          item_number: template.itemNumber,
          order_count: new Set(group.map((l) => l.order.id)).size,
          quantity: group.reduce((n, l) => n + l.item.quantity, 0),
          sales_total: sum(group, (l) => itemSubTotal(l.item)),
        };
      });
    }),
  promotion_code: (service, scope) =>
    scope.storefronts.flatMap((sf) => {
      const promoted = ordersIn(service, scope, sf).filter((o) => o.promotionCode !== null);
      return [...groupBy(promoted, (o) => o.promotionCode!)].map(([code, group]) => ({
        storefront: sf.name,
        promotion_code: code,
        order_count: group.length,
        discount_total: sum(group, (o) => o.promotionTotal),
        order_total: sum(group, orderGrandTotal),
      }));
    }),
  customer_list: (service, scope) =>
    scope.storefronts.flatMap((sf) =>
      [...service.state.customers.values()]
        .filter((c) => c.storefrontId === sf.id && !c.deleted && inRange(scope, c.createdOn))
        .sort((a, b) => a.id - b.id)
        .map((c) => ({
          storefront: sf.name,
          customer_id: c.id,
          username: c.username,
          first_name: c.firstName,
          last_name: c.lastName,
          email: c.email,
          company: c.company,
          is_temp: c.isTemp,
          created_on: iso(c.createdOn),
        })),
    ),
  customer_sales: (service, scope) =>
    scope.storefronts.flatMap((sf) =>
      [...groupBy(ordersIn(service, scope, sf), (o) => String(o.customerId))].map(([, group]) => {
        const customer = service.state.customers.get(group[0]!.customerId)!;
        return {
          storefront: sf.name,
          customer_id: customer.id,
          customer_name: `${customer.firstName} ${customer.lastName}`.trim(),
          email: customer.email,
          order_count: group.length,
          order_total: sum(group, orderGrandTotal),
        };
      }),
    ),
  shipping: (service, scope) =>
    scope.storefronts.flatMap((sf) => {
      const shipments = ordersIn(service, scope, sf).flatMap((o) => o.shipments);
      return [...groupBy(shipments, (s) => `${s.provider ?? ''}\n${s.service ?? ''}`)].map(([, group]) => ({
        storefront: sf.name,
        provider: group[0]!.provider ?? '',
        service: group[0]!.service ?? '',
        shipment_count: group.length,
        shipped_count: group.filter((s) => s.shippedOn !== null).length,
        shipping_total: sum(group, (s) => s.shippingTotal),
      }));
    }),
  sales_rep: (service, scope) =>
    scope.storefronts.flatMap((sf) => {
      const orders = ordersIn(service, scope, sf);
      const repOf = (o: OrderRecord) => service.state.customers.get(o.customerId)?.salesRep ?? '';
      return [...groupBy(orders, repOf)].map(([rep, group]) => ({
        storefront: sf.name,
        sales_rep: rep,
        customer_count: new Set(group.map((o) => o.customerId)).size,
        order_count: group.length,
        order_total: sum(group, orderGrandTotal),
      }));
    }),
  saved_projects: (service, scope) =>
    scope.storefronts.flatMap((sf) =>
      [...service.state.projects.values()]
        .filter((p) => p.storefrontId === sf.id && !p.deleted && inRange(scope, p.createdOn))
        .sort((a, b) => a.id - b.id)
        .map((p) => ({
          storefront: sf.name,
          project_id: p.id,
          name: p.name,
          template_id: p.templateId,
          external_id: service.state.templates.get(p.templateId)?.integrationId ?? '',
          customer_id: p.ownerId,
          username: service.state.customers.get(p.ownerId)?.username ?? '',
          created_on: iso(p.createdOn),
        })),
    ),
};

/** The records of one report type for the scope. */
export function runReport(service: SandboxService, type: ReportType, scope: ReportScope): unknown[] {
  return REPORTS[type](service, scope);
}
