/**
 * Contracts of the print ordering service interface v2 (`print-api-v2.md`), as zod schemas.
 *
 * One source of truth for the typed client (which validates every answer with them), the sandbox (which
 * builds its answers to match them and validates request bodies with them) and the tests.
 *
 * Resources are `looseObject`s: a real service may add fields, and the client must let unknown extra fields
 * pass. Fields are nullable only where the interface says a value may be null.
 *
 * Pure module: no I/O, no Node globals.
 */
import * as z from 'zod';

/** An ISO 8601 date-time; the interface says "UTC" but not whether the designator is always written. */
export const IsoDateTime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/,
    'expected an ISO 8601 date-time',
  );

/** A calendar date as the report endpoint takes it. */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

/** "Decimal means a JSON number with a fractional part"; integers are valid JSON numbers too. */
const Decimal = z.number();

/**
 * A field the interface names a string. A real service written in .NET sends `null` for a string it has no
 * value for; the client reads that as empty text rather than refusing the whole answer (`invalid_response`).
 */
const Text = z
  .string()
  .nullable()
  .transform((value) => value ?? '');
const Id = z.number().int();

// ---------------------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------------------

export const EventName = z.enum([
  'order_created',
  'order_updated',
  'order_deleted',
  'customer_created',
  'customer_updated',
  'customer_deleted',
]);
export type EventName = z.infer<typeof EventName>;
export const EVENT_NAMES = EventName.options;

export const ReportType = z.enum([
  'sales',
  'tax',
  'order',
  'order_details',
  'order_item_details',
  'product_sales',
  'promotion_code',
  'customer_list',
  'customer_sales',
  'shipping',
  'sales_rep',
  'saved_projects',
]);
export type ReportType = z.infer<typeof ReportType>;
export const REPORT_TYPES = ReportType.options;

export const ViewBy = z.enum(['day', 'month', 'year']);
export type ViewBy = z.infer<typeof ViewBy>;

/** License tiers the interface names; "a lower tier" stands for anything below BusinessPlus. */
export const LicenseTier = z.enum(['Enterprise', 'BusinessPlus', 'Business', 'Standard']);
export type LicenseTier = z.infer<typeof LicenseTier>;

// ---------------------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------------------

export const Address = z.looseObject({
  id: Id,
  name: Text,
  company: Text,
  first_name: Text,
  last_name: Text,
  line_1: Text,
  line_2: Text,
  line_3: z.string().nullable(),
  line_4: z.string().nullable(),
  city: Text,
  state: Text,
  postal_code: Text,
  phone: Text,
  email: Text,
  country_code: Text,
  is_residential: z.boolean(),
});
export type Address = z.infer<typeof Address>;

/** The shipment's destination uses other field names than Address (the interface's sample shows so). */
export const ShipToAddress = z.looseObject({
  first_name: Text,
  last_name: Text,
  address1: Text,
  city: Text,
  state: Text,
  zip: Text,
  country: Text,
});
export type ShipToAddress = z.infer<typeof ShipToAddress>;

export const Shipment = z.looseObject({
  index: z.number().int().min(1),
  provider: z.string().nullable(),
  service: z.string().nullable(),
  shipping_total: Decimal,
  tax_total: Decimal,
  tracking_numbers: z.string().nullable(),
  shipped_on: IsoDateTime.nullable(),
  ship_to_address: ShipToAddress,
});
export type Shipment = z.infer<typeof Shipment>;

export const OptionItem = z.looseObject({
  name: Text,
  value: Text,
  option_integration_id: z.string().nullable(),
  value_integration_id: z.string().nullable(),
});
export type OptionItem = z.infer<typeof OptionItem>;

export const ParametricProperty = z.looseObject({
  name: Text,
  value: Text,
});
export type ParametricProperty = z.infer<typeof ParametricProperty>;

export const OrderItem = z.looseObject({
  id: Id,
  product_id: Id,
  name: Text,
  status: Text,
  quantity: z.number().int(),
  sub_total: Decimal,
  base_price: Decimal,
  options_price: Decimal,
  markup_price: Decimal,
  image_fee: Decimal,
  download_fee: Decimal,
  weight: Decimal,
  created_on: IsoDateTime,
  due_on: IsoDateTime.nullable(),
  item_number: Text,
  model_number: Text,
  integration_id: Text,
  vendor: Text,
  notes: Text,
  reorder_ref: Text,
  // Added in v2 without changing existing fields (Versioning 3): an older answer may lack it; 1 is the default.
  shipment_index: z.number().int().min(1).default(1),
  options: z.array(OptionItem),
  parametric: z.array(ParametricProperty).nullable(),
});
export type OrderItem = z.infer<typeof OrderItem>;

export const Customer = z.looseObject({
  storefront: Text,
  id: Id,
  first_name: Text,
  last_name: Text,
  email: Text,
  username: Text,
  receive_marketing_emails: z.boolean(),
  last_logged_in_on: IsoDateTime,
  created_on: IsoDateTime,
  last_updated_on: IsoDateTime,
  company: Text,
  // The interface does not show these types.
  organization: z.unknown().nullable(),
  user_groups: z.array(z.unknown()),
  tax_exempt: z.boolean(),
});
export type Customer = z.infer<typeof Customer>;

export const CheckoutField = z.looseObject({ name: Text, value: Text });
export type CheckoutField = z.infer<typeof CheckoutField>;

export const Order = z.looseObject({
  storefront: Text,
  id: Id,
  is_archived: z.boolean(),
  is_deleted: z.boolean(),
  // "Present when the order came from an external system": absent otherwise.
  integration_id: Text.optional(),
  status: Text,
  customer: Customer,
  shipping_address: Address,
  billing_address: Address,
  payment_creditcard: z.boolean(),
  payment_check: z.boolean(),
  payment_cod: z.boolean(),
  payment_po: z.boolean(),
  payment_invoice: z.boolean(),
  payment_paypal: z.boolean(),
  payment_reference: Text,
  payment_avscode: Text,
  payment_cvcode: Text,
  // Present only for credit card payments / check payments (rule R02).
  card_type: Text.optional(),
  card_number: Text.optional(),
  check_number: Text.optional(),
  po_number: Text,
  invoice_number: Text,
  tax_total: Decimal,
  shipping_total: Decimal,
  sub_total: Decimal,
  promotion_total: Decimal,
  promotion_code: z.string().nullable(),
  created_on: IsoDateTime,
  shipped_on: IsoDateTime.nullable(),
  shipping_provider: Text,
  shipping_service: Text,
  items: z.array(OrderItem),
  // Added in v2 (Versioning 3); "at least one entry" on the current version.
  shipments: z.array(Shipment),
  checkout_fields: z.array(CheckoutField),
});
export type Order = z.infer<typeof Order>;

/** The payment flags recorded on an order; payment_paypal is not among them because it is derived. */
export interface RecordedPayment {
  payment_creditcard: boolean;
  payment_check: boolean;
  payment_cod: boolean;
  payment_po: boolean;
  payment_invoice: boolean;
}

/** payment_paypal is "calculated, not stored: true when no other payment method was recorded" (R01). */
export function paymentPaypal(p: RecordedPayment): boolean {
  return !(p.payment_creditcard || p.payment_check || p.payment_cod || p.payment_po || p.payment_invoice);
}

export const PipoUser = z.looseObject({
  id: Id,
  username: Text,
  first_name: Text,
  last_name: Text,
  email: Text,
  is_temp: z.boolean(),
  storefront_id: Id.optional(),
});
export type PipoUser = z.infer<typeof PipoUser>;

/** The sandbox's answer to createtemp: the user plus its system-generated password (INTERFACES.md). */
export const PipoTempUser = PipoUser.extend({ password: z.string() });
export type PipoTempUser = z.infer<typeof PipoTempUser>;

export const PipoProject = z.looseObject({
  id: Id,
  name: Text,
  external_id: Text,
});
export type PipoProject = z.infer<typeof PipoProject>;

export const Rendering = z.looseObject({ id: Id, name: Text });
export type Rendering = z.infer<typeof Rendering>;

export const HookEntry = z.looseObject({
  id: Id,
  target_url: Text,
  event: EventName,
});
export type HookEntry = z.infer<typeof HookEntry>;

export const SalesReportRecord = z.looseObject({
  storefront: Text,
  user_count: z.number().int(),
  order_count: z.number().int(),
  order_average: Decimal,
  order_total: Decimal,
});
export type SalesReportRecord = z.infer<typeof SalesReportRecord>;

/** Records of the other report types: their shape is not shown by the interface. */
export const ReportRecord = z.record(z.string(), z.unknown());
export type ReportRecord = z.infer<typeof ReportRecord>;

// The record shapes of the other eleven report types are the sandbox's own (the interface does not show
// them; docs/sandbox.md documents them). A client must not rely on them against a real
// service; they are here so the sandbox's tests and demos can check what it answers.
const Money = Decimal;
export const SANDBOX_REPORT_RECORDS = {
  sales: SalesReportRecord,
  tax: z.looseObject({
    storefront: z.string(),
    order_count: z.number().int(),
    taxable_total: Money,
    shipping_total: Money,
    tax_total: Money,
  }),
  order: z.looseObject({
    period: z.string(),
    order_count: z.number().int(),
    item_count: z.number().int(),
    quantity: z.number().int(),
    order_total: Money,
  }),
  order_details: z.looseObject({
    order_id: Id,
    storefront: z.string(),
    created_on: IsoDateTime,
    status: z.string(),
    customer_id: Id,
    customer_name: z.string(),
    customer_email: z.string(),
    po_number: z.string(),
    integration_id: z.string().nullable(),
    item_count: z.number().int(),
    sub_total: Money,
    shipping_total: Money,
    tax_total: Money,
    promotion_total: Money,
    order_total: Money,
  }),
  order_item_details: z.looseObject({
    order_id: Id,
    item_id: Id,
    storefront: z.string(),
    created_on: IsoDateTime,
    product_id: Id,
    name: z.string(),
    item_number: z.string(),
    status: z.string(),
    quantity: z.number().int(),
    sub_total: Money,
    shipment_index: z.number().int(),
  }),
  product_sales: z.looseObject({
    storefront: z.string(),
    product_id: Id,
    name: z.string(),
    item_number: z.string(),
    order_count: z.number().int(),
    quantity: z.number().int(),
    sales_total: Money,
  }),
  promotion_code: z.looseObject({
    storefront: z.string(),
    promotion_code: z.string(),
    order_count: z.number().int(),
    discount_total: Money,
    order_total: Money,
  }),
  customer_list: z.looseObject({
    storefront: z.string(),
    customer_id: Id,
    username: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    company: z.string(),
    is_temp: z.boolean(),
    created_on: IsoDateTime,
  }),
  customer_sales: z.looseObject({
    storefront: z.string(),
    customer_id: Id,
    customer_name: z.string(),
    email: z.string(),
    order_count: z.number().int(),
    order_total: Money,
  }),
  shipping: z.looseObject({
    storefront: z.string(),
    provider: z.string(),
    service: z.string(),
    shipment_count: z.number().int(),
    shipped_count: z.number().int(),
    shipping_total: Money,
  }),
  sales_rep: z.looseObject({
    storefront: z.string(),
    sales_rep: z.string(),
    customer_count: z.number().int(),
    order_count: z.number().int(),
    order_total: Money,
  }),
  saved_projects: z.looseObject({
    storefront: z.string(),
    project_id: Id,
    name: z.string(),
    template_id: Id,
    external_id: z.string(),
    customer_id: Id,
    username: z.string(),
    created_on: IsoDateTime,
  }),
} as const satisfies Record<ReportType, z.ZodType>;
export type SandboxReportRecord<T extends ReportType> = z.infer<(typeof SANDBOX_REPORT_RECORDS)[T]>;

/**
 * The names of the fields typed "decimal" in the resources and report records. Each name is a decimal
 * wherever it appears, so a writer can give every such field the fractional part the interface's
 * conventions promise ("Decimal means a JSON number with a fractional part").
 */
export const DECIMAL_FIELDS: ReadonlySet<string> = new Set(
  [Order, OrderItem, Shipment, ...Object.values(SANDBOX_REPORT_RECORDS)].flatMap((schema) =>
    Object.entries(schema.shape)
      .filter(([, field]) => field === Decimal)
      .map(([name]) => name),
  ),
);

/** A webhook delivery body: a JSON array with exactly one Order or Customer (W02). */
export const OrderEventBody = z.tuple([Order]);
export const CustomerEventBody = z.tuple([Customer]);

// ---------------------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------------------

export const StatusBody = z.object({
  order_status: z.string().min(1),
  comments: z.string().optional(),
  tracking_number: z.string().optional(),
  user_initials: z.string().optional(),
  notify_customer: z.boolean().optional(),
  notify_vendor: z.boolean().optional(),
});
export type StatusBody = z.infer<typeof StatusBody>;

export const ShippedBody = z.object({ tracking_number: z.string().optional() });
export type ShippedBody = z.infer<typeof ShippedBody>;

export const PipoLoginBody = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  storefront_id: Id,
});
export type PipoLoginBody = z.infer<typeof PipoLoginBody>;

export const PipoUpdateUserBody = z.object({
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  current_password: z.string().optional(),
  new_password: z.string().optional(),
});
export type PipoUpdateUserBody = z.infer<typeof PipoUpdateUserBody>;

export const PipoCreateUserBody = z.object({
  storefront_id: Id,
  username: z.string().min(1),
  password: z.string().min(1),
  email: z.string().min(1),
  first_name: z.string(),
  last_name: z.string(),
});
export type PipoCreateUserBody = z.infer<typeof PipoCreateUserBody>;

export const PipoCreateTempUserBody = z.object({ storefront_id: Id });
export type PipoCreateTempUserBody = z.infer<typeof PipoCreateTempUserBody>;

export const PipoConvertUserBody = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  email: z.string().min(1),
  first_name: z.string(),
  last_name: z.string(),
  // "A request example also carries storefront_id."
  storefront_id: Id.optional(),
});
export type PipoConvertUserBody = z.infer<typeof PipoConvertUserBody>;

export const PipoTransferUserBody = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
});
export type PipoTransferUserBody = z.infer<typeof PipoTransferUserBody>;

export const PipoCreateOrderBody = z.object({
  product_id: z.array(z.number()),
  external_id: z.string().optional(),
});
export type PipoCreateOrderBody = z.infer<typeof PipoCreateOrderBody>;

/** The event is checked against the event names separately, so that a bad one gets its exact 400 text. */
export const CreateHookBody = z.object({
  target_url: z.string().min(1),
  event: z.string(),
});
export type CreateHookBody = z.infer<typeof CreateHookBody>;

export const ReportQuery = z.object({
  storefrontId: z.number().int().min(0).optional(),
  fromDate: IsoDate.optional(),
  toDate: IsoDate.optional(),
  viewBy: ViewBy.optional(),
});
export type ReportQuery = z.infer<typeof ReportQuery>;

/** The session token the sandbox's login answers: a bare JSON string (INTERFACES.md). */
export const PipoSessionToken = z.string().min(1);

// ---------------------------------------------------------------------------------------------------------
// Errors: every code and message of the interface's Errors table, exactly as written there.
// ---------------------------------------------------------------------------------------------------------

export interface PrintApiErrorText {
  /** The id of the row in packages/sandbox/test/print/interface-rows.md. */
  readonly row: string;
  readonly status: 400 | 401 | 403 | 404 | 409;
  /** null where the interface shows no message. */
  readonly message: string | null;
  readonly retryAfterSeconds?: number;
}

export const PRINT_API_ERRORS = {
  credentialsMissing: { row: 'X01', status: 401, message: 'Authorization credentials missing.' },
  invalidKeyOrToken: { row: 'X02', status: 401, message: 'Invalid key or token.' },
  httpsRequired: { row: 'X03', status: 401, message: 'Invalid scheme, please use https.' },
  licenseTooLow: { row: 'X04', status: 401, message: "License doesn't allow this api call." },
  pipoLoginFailed: { row: 'X05', status: 401, message: null },
  pipoTokenInvalid: { row: 'X06', status: 403, message: null },
  transferTokenInvalid: { row: 'X07', status: 403, message: 'token is invalid or expired' },
  transferNotTemporary: { row: 'X08', status: 403, message: 'current user is not temporary' },
  transferUnknownUser: { row: 'X09', status: 403, message: 'username does not exist' },
  transferWrongPassword: { row: 'X10', status: 403, message: 'password is incorrect' },
  orderNotFound: { row: 'X11', status: 404, message: 'Order not the service.' },
  itemNotFound: { row: 'X12', status: 404, message: 'Item not the service.' },
  renderingsNotFound: { row: 'X13', status: 404, message: 'Product renderings not the service.' },
  renderingNotFound: { row: 'X14', status: 404, message: 'Product rendering not the service.' },
  hookNotFound: { row: 'X15', status: 404, message: 'Hook not the service.' },
  projectNotFound: { row: 'X16', status: 404, message: null },
  invalidEventName: { row: 'X17', status: 400, message: 'Event name is invalid.' },
  badRequest: { row: 'X18', status: 400, message: 'Bad Request' },
  targetUrlExists: { row: 'X19', status: 409, message: 'Target url already exists.' },
  orderFilesNotReady: {
    row: 'X20',
    status: 409,
    message: 'All items have not completed merge process.',
    retryAfterSeconds: 60,
  },
  itemFilesNotReady: {
    row: 'X21',
    status: 409,
    message: 'Item has not completed merge process.',
    retryAfterSeconds: 30,
  },
  duplicateUserName: { row: 'X22', status: 409, message: 'duplicate user name' },
  duplicateEmail: { row: 'X22', status: 409, message: 'duplicate email' },
} as const satisfies Record<string, PrintApiErrorText>;

export type PrintApiErrorName = keyof typeof PRINT_API_ERRORS;

// ---------------------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------------------

export const PRINT_API_LIMITS = {
  activeKeyPairsPerLicense: 5,
  registrationsPerTargetUrlAndToken: 1,
  orderDownloadRetryAfterSeconds: 60,
  itemDownloadRetryAfterSeconds: 30,
} as const;

/** Minimum license tier per endpoint group: BusinessPlus for ping and PIPO, Enterprise for the rest (A04). */
export type EndpointTier = 'BusinessPlus' | 'Enterprise';
