/**
 * The seed of the sandbox print service (`fixtures/sandbox-seed.json`): licenses and their API keys,
 * storefronts with their statuses, product templates, customers (who are also the PIPO users), saved
 * projects and orders. `createSandbox(seed)` builds its state from it and `POST /_sandbox/reset` returns
 * to it. docs/sandbox.md documents every field.
 *
 * The seed is written in the sandbox's own camelCase; the sandbox turns it into the interface's snake_case
 * resources. Cross-references (customers of orders, products of items, statuses, shipments) are checked
 * here, so a seed that parses builds a consistent service.
 *
 * Pure module: no I/O, no Node globals.
 */

import { formatConfigPath } from 'punchgate/schemas/config';
import { IsoDateTime, LicenseTier, PRINT_API_LIMITS } from 'punchgate/schemas/print-api';
import { z } from 'zod';

const Id = z.number().int().min(1).max(2_147_483_647);
const Money = z.number().min(0);
const HexToken = z.string().regex(/^[0-9a-f]{16,128}$/, 'must be 16 to 128 lower-case hex digits');
const HexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a #RRGGBB colour');
const Name = z.string().min(1);

export const SeedAddress = z.strictObject({
  id: Id,
  name: z.string().default(''),
  company: z.string().default(''),
  firstName: z.string(),
  lastName: z.string(),
  line1: z.string(),
  line2: z.string().default(''),
  line3: z.string().nullable().default(null),
  line4: z.string().nullable().default(null),
  city: z.string(),
  state: z.string().default(''),
  postalCode: z.string(),
  phone: z.string().default(''),
  email: z.string().default(''),
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166 alpha-2 country code'),
  isResidential: z.boolean().default(false),
});
export type SeedAddress = z.infer<typeof SeedAddress>;

const SeedStatus = z.strictObject({
  name: Name,
  /** Associated with the Order Shipped e-mail template: the status mark-shipped sets. */
  shipping: z.boolean().default(false),
  /** Reserved for cancellation flows of later issues; the sandbox only stores it. */
  cancel: z.boolean().default(false),
});

const SeedImageTag = z.strictObject({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be a letter followed by letters, digits or _'),
  kind: z.enum(['visibility', 'image', 'colors']),
  /** The template's value in query syntax: 'true'/'false', an image id, or a colour map. */
  default: z.string(),
  /** For image tags: the image ids the editor offers. */
  images: z.array(Id).optional(),
});

export const SeedParametricProperty = z.union([
  z.strictObject({ name: Name, mm: z.number().min(0) }),
  z.strictObject({ name: Name, text: z.string() }),
]);
export type SeedParametricProperty = z.infer<typeof SeedParametricProperty>;

/** A chosen product option, as a product's defaults and as an order item's own list. */
const SeedOption = z.strictObject({
  name: Name,
  value: z.string(),
  price: Money.default(0),
  optionIntegrationId: z.string().nullable().default(null),
  valueIntegrationId: z.string().nullable().default(null),
});

export const SeedProduct = z.strictObject({
  id: Id,
  name: Name,
  integrationId: z.string().default(''),
  itemNumber: z.string().default(''),
  modelNumber: z.string().default(''),
  /** Unit price; an item's base price is quantity × price unless the seed order gives one. */
  price: Money.default(0),
  /**
   * The unit price a PIPO order's item of this product is charged, when the print service prices it
   * differently from `price` (and so, usually, from the price the gateway's config offers): a PIPO item is
   * one design of quantity 1, so its base price is this. Defaults to `price`.
   */
  pipoUnitPrice: Money.optional(),
  /**
   * Unit prices by quantity for PIPO items, as the shop's price list has them: an item the job ticket gives
   * a quantity (see docs/sandbox.md, PIPO order totals) is priced at the tier with the highest minQuantity
   * not above it. Empty: PIPO items keep `pipoUnitPrice` (or `price`) at quantity 1.
   */
  priceTiers: z.array(z.strictObject({ minQuantity: z.number().int().min(1), price: Money })).default([]),
  /** Weight of one unit, for shipping. */
  weight: z.number().min(0).default(0),
  vendor: z.string().default(''),
  /** Product comments; an item's notes combine them with the order item's own. */
  comments: z.string().default(''),
  /** Trim size in inches. */
  size: z.strictObject({ widthIn: z.number().positive().max(200), heightIn: z.number().positive().max(200) }),
  customSize: z.boolean().default(false),
  /** editor: designed in the online editor; upload: the customer uploads print-ready files. */
  designKind: z.enum(['editor', 'upload']).default('editor'),
  renderings: z.array(z.strictObject({ id: Id, name: Name })).default([]),
  imageTags: z.array(SeedImageTag).default([]),
  textFields: z.array(z.strictObject({ name: Name, value: z.string() })).default([]),
  /** Palette name → #RRGGBB; colour maps may name these colours. */
  palette: z.record(z.string().min(1), HexColor).default({}),
  /** Only for products designed with the parametric CAD tool; dimensions are stored in millimetres. */
  parametric: z
    .strictObject({
      unitSystem: z.enum(['inches', 'mm']),
      properties: z.array(SeedParametricProperty).min(1),
    })
    .nullable()
    .default(null),
  /** Options every order of this product carries unless the seed order lists its own. */
  options: z.array(SeedOption).default([]),
});
export type SeedProduct = z.infer<typeof SeedProduct>;

const SeedDesign = z.strictObject({
  widthIn: z.number().positive().max(200).optional(),
  heightIn: z.number().positive().max(200).optional(),
  textFields: z.array(z.strictObject({ name: Name, value: z.string() })).optional(),
  tags: z.record(z.string(), z.string()).optional(),
});

const SeedAlbum = z.strictObject({
  id: Id,
  name: Name,
  images: z.array(z.strictObject({ id: Id, name: Name })).default([]),
});

const SeedCustomer = z.strictObject({
  id: Id,
  username: Name,
  /** The PIPO login password; the sandbox keeps it in clear (it guards nothing). */
  password: Name,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string().default(''),
  isTemp: z.boolean().default(false),
  receiveMarketingEmails: z.boolean().default(false),
  taxExempt: z.boolean().default(false),
  organization: z.string().nullable().default(null),
  userGroups: z.array(z.string()).default([]),
  /** Name of the sales representative (the sales_rep report groups by it); empty for none. */
  salesRep: z.string().default(''),
  /** The address orders placed for this customer (PIPO, checkout) default to. */
  address: SeedAddress.optional(),
  createdOn: IsoDateTime,
  lastUpdatedOn: IsoDateTime.optional(),
  lastLoggedInOn: IsoDateTime.optional(),
  albums: z.array(SeedAlbum).default([]),
});

const SeedProject = z.strictObject({
  id: Id,
  ownerId: Id,
  templateId: Id,
  /** Defaults to the template's name. */
  name: z.string().optional(),
  createdOn: IsoDateTime,
  design: SeedDesign.default({}),
});

const PaymentMethod = z.enum(['creditcard', 'check', 'cod', 'po', 'invoice']);

export const SeedPayment = z
  .strictObject({
    /** Recorded payment methods; none means PayPal (payment_paypal is calculated from this). */
    methods: z.array(PaymentMethod).default([]),
    reference: z.string().default(''),
    avsCode: z.string().default(''),
    cvCode: z.string().default(''),
    cardType: z.string().optional(),
    cardNumber: z
      .string()
      .regex(/^\d{4}$/, 'must be the last 4 digits')
      .optional(),
    checkNumber: z.string().optional(),
    poNumber: z.string().default(''),
    invoiceNumber: z.string().default(''),
  })
  .superRefine((p, ctx) => {
    const card = p.methods.includes('creditcard');
    if (card !== (p.cardType !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['cardType'],
        message: 'is given exactly for credit card payments',
      });
    }
    if (card !== (p.cardNumber !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['cardNumber'],
        message: 'is given exactly for credit card payments',
      });
    }
    if (p.methods.includes('check') !== (p.checkNumber !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['checkNumber'], message: 'is given exactly for check payments' });
    }
  });
export type SeedPayment = z.infer<typeof SeedPayment>;

const SeedShipment = z.strictObject({
  provider: z.string().nullable().default(null),
  service: z.string().nullable().default(null),
  shippingTotal: Money.default(0),
  taxTotal: Money.default(0),
  trackingNumbers: z.array(z.string().min(1)).default([]),
  shippedOn: IsoDateTime.nullable().default(null),
  address: SeedAddress,
});

const SeedOrderItem = z.strictObject({
  id: Id,
  /** A template of the storefront or a project (customized copy). */
  productId: Id,
  quantity: z.number().int().min(1),
  /** Defaults to the order's status. */
  status: z.string().optional(),
  /** Defaults to quantity × the product's price. */
  basePrice: Money.optional(),
  markupPrice: Money.default(0),
  imageFee: Money.default(0),
  downloadFee: Money.default(0),
  dueOn: IsoDateTime.nullable().default(null),
  notes: z.string().default(''),
  reorderRef: z.string().default(''),
  shipmentIndex: z.number().int().min(1).default(1),
  /** Defaults to the product's options. */
  options: z.array(SeedOption).optional(),
  /** The uploaded print files of an upload product (file names; the sandbox draws their content). */
  uploads: z
    .array(
      z
        .string()
        .regex(/^[\w-][\w .-]{0,95}\.[A-Za-z0-9]{1,5}$/, 'must be a plain file name with an extension'),
    )
    .default([]),
});

const SeedOrder = z.strictObject({
  id: Id,
  customerId: Id,
  /** Defaults to the storefront's first status. */
  status: z.string().optional(),
  integrationId: z.string().optional(),
  isArchived: z.boolean().default(false),
  isDeleted: z.boolean().default(false),
  createdOn: IsoDateTime,
  shippedOn: IsoDateTime.nullable().default(null),
  payment: SeedPayment.prefault({}),
  billingAddress: SeedAddress,
  /** Index 1 (the first entry) is the order-level primary shipment. */
  shipments: z.array(SeedShipment).min(1),
  promotionCode: z.string().nullable().default(null),
  promotionTotal: Money.default(0),
  checkoutFields: z.array(z.strictObject({ name: Name, value: z.string() })).default([]),
  /** Whether the items' print files are merged already (downloads answer 409 until they are). */
  filesMerged: z.boolean().default(true),
  items: z.array(SeedOrderItem).min(1),
});

/** A promotion applied to every PIPO order of the storefront: a fixed amount or a percentage. */
const SeedPromotion = z
  .strictObject({
    /** The order's promotion_code. */
    code: Name,
    /** A fixed discount; capped at the order's sub_total plus shipping (a promotion never pays out). */
    amount: Money.optional(),
    /** A percentage of the order's sub_total, rounded to cents. */
    percent: z.number().gt(0).max(100).optional(),
  })
  .refine((p) => (p.amount === undefined) !== (p.percent === undefined), {
    message: 'gives exactly one of amount and percent',
  });

/**
 * What a PIPO order of the storefront is charged besides its items (seed orders carry their own figures,
 * checkout orders none). Every default is zero or none, so a storefront without it charges nothing more.
 */
export const SeedPipoCharges = z.strictObject({
  /** Sales tax in percent (8.25 = 8.25 %) of each shipment's items; tax-exempt customers pay none. */
  taxRatePercent: z.number().min(0).max(100).default(0),
  /** Each shipment's shipping is taxed at the same rate (EU VAT), not only its items. */
  taxOnShipping: z.boolean().default(false),
  /** The shipping price of each shipment (a split adds another). */
  shippingPerShipment: Money.default(0),
  promotion: SeedPromotion.nullable().default(null),
  /**
   * When set, PIPO order create assigns the order an invoice_number: `prefix` + `next`, and `next` moves
   * on by one; unset, PIPO orders have an empty invoice_number.
   */
  invoiceNumbers: z
    .strictObject({ prefix: z.string().max(40).default(''), next: z.number().int().min(0).max(1e12) })
    .nullable()
    .default(null),
});
export type SeedPipoCharges = z.infer<typeof SeedPipoCharges>;

const SeedStorefront = z.strictObject({
  id: Id,
  name: Name,
  /** In sequence order: the first one is the status of a new order. */
  statuses: z.array(SeedStatus).min(1),
  pipoCharges: SeedPipoCharges.prefault({}),
  products: z.array(SeedProduct).default([]),
  customers: z.array(SeedCustomer).default([]),
  projects: z.array(SeedProject).default([]),
  orders: z.array(SeedOrder).default([]),
});

const SeedApiKey = z.strictObject({
  token: HexToken,
  label: z.string().default(''),
  active: z.boolean().default(true),
  deleted: z.boolean().default(false),
});

const SeedLicense = z.strictObject({
  id: Id,
  name: Name,
  tier: LicenseTier,
  apiKeys: z.array(SeedApiKey).default([]),
  storefronts: z.array(SeedStorefront).default([]),
});

/** User-Agent substrings (case-insensitive) that identify an automation-platform integration (A05). */
const DEFAULT_AUTOMATION_USER_AGENTS = ['Zapier', 'Make.com', 'Integromat', 'n8n', 'Workato'] as const;

/** The default number of SHA-256 rounds of the sandbox key derivation. */
const DEFAULT_KEY_ROUNDS = 1000;

export const SandboxSeed = z
  .strictObject({
    $schema: z.string().optional(),
    keyRounds: z.number().int().min(1).max(100_000).default(DEFAULT_KEY_ROUNDS),
    automationUserAgents: z.array(z.string().min(2)).default([...DEFAULT_AUTOMATION_USER_AGENTS]),
    licenses: z.array(SeedLicense).min(1),
  })
  .superRefine((seed, ctx) => checkReferences(seed, ctx));
export type SandboxSeed = z.infer<typeof SandboxSeed>;
export type SandboxSeedInput = z.input<typeof SandboxSeed>;

type Path = (string | number)[];

/** Every id space, uniqueness rule and cross-reference a consistent service needs. */
function checkReferences(seed: z.infer<typeof SandboxSeed>, ctx: z.RefinementCtx): void {
  const problem = (path: Path, message: string) => ctx.addIssue({ code: 'custom', path, message });
  const firstSeen = <K>(seen: Map<K, string>, key: K, where: Path, what: string) => {
    const earlier = seen.get(key);
    if (earlier !== undefined) problem(where, `duplicate ${what} (also at ${earlier})`);
    else seen.set(key, formatConfigPath(where));
  };
  const licenseIds = new Map<number, string>();
  const tokens = new Map<string, string>();
  const storefrontIds = new Map<number, string>();
  // Templates and projects share one product id space, as customized copies are products too.
  const productIds = new Map<number, string>();
  const customerIds = new Map<number, string>();
  const orderIds = new Map<number, string>();
  const itemIds = new Map<number, string>();
  const albumIds = new Map<number, string>();

  seed.licenses.forEach((license, l) => {
    const at: Path = ['licenses', l];
    firstSeen(licenseIds, license.id, [...at, 'id'], `license id ${license.id}`);
    const active = license.apiKeys.filter((k) => k.active && !k.deleted).length;
    if (active > PRINT_API_LIMITS.activeKeyPairsPerLicense) {
      problem(
        [...at, 'apiKeys'],
        `has ${active} active key pairs; a license allows at most ${PRINT_API_LIMITS.activeKeyPairsPerLicense}`,
      );
    }
    license.apiKeys.forEach((key, k) => {
      firstSeen(tokens, key.token, [...at, 'apiKeys', k, 'token'], 'token');
    });
    license.storefronts.forEach((sf, s) => {
      const sfAt: Path = [...at, 'storefronts', s];
      firstSeen(storefrontIds, sf.id, [...sfAt, 'id'], `storefront id ${sf.id}`);
      const statusNames = new Map<string, string>();
      sf.statuses.forEach((status, i) => {
        firstSeen(statusNames, status.name.toLowerCase(), [...sfAt, 'statuses', i, 'name'], 'status name');
      });
      const templates = new Map<number, (typeof sf.products)[number]>();
      sf.products.forEach((product, p) => {
        const pAt: Path = [...sfAt, 'products', p];
        firstSeen(productIds, product.id, [...pAt, 'id'], `product id ${product.id}`);
        templates.set(product.id, product);
        const renderingIds = new Map<number, string>();
        product.renderings.forEach((r, i) => {
          firstSeen(renderingIds, r.id, [...pAt, 'renderings', i, 'id'], `rendering id ${r.id}`);
        });
        const tagNames = new Map<string, string>();
        product.imageTags.forEach((tag, i) => {
          firstSeen(tagNames, tag.name.toLowerCase(), [...pAt, 'imageTags', i, 'name'], 'image tag name');
        });
      });
      const customers = new Map<number, (typeof sf.customers)[number]>();
      const usernames = new Map<string, string>();
      const emails = new Map<string, string>();
      sf.customers.forEach((customer, c) => {
        const cAt: Path = [...sfAt, 'customers', c];
        firstSeen(customerIds, customer.id, [...cAt, 'id'], `customer id ${customer.id}`);
        customers.set(customer.id, customer);
        firstSeen(
          usernames,
          customer.username.toLowerCase(),
          [...cAt, 'username'],
          'username on the storefront',
        );
        if (customer.email !== '') {
          firstSeen(emails, customer.email.toLowerCase(), [...cAt, 'email'], 'email on the storefront');
        }
        customer.albums.forEach((album, a) => {
          firstSeen(albumIds, album.id, [...cAt, 'albums', a, 'id'], `album id ${album.id}`);
        });
      });
      const projects = new Map<number, (typeof sf.projects)[number]>();
      sf.projects.forEach((project, p) => {
        const pAt: Path = [...sfAt, 'projects', p];
        firstSeen(productIds, project.id, [...pAt, 'id'], `product id ${project.id}`);
        projects.set(project.id, project);
        if (!customers.has(project.ownerId)) {
          problem([...pAt, 'ownerId'], `customer ${project.ownerId} is not a customer of this storefront`);
        }
        if (!templates.has(project.templateId)) {
          problem(
            [...pAt, 'templateId'],
            `product ${project.templateId} is not a template of this storefront`,
          );
        }
      });
      const statusKnown = (name: string) => statusNames.has(name.toLowerCase());
      sf.orders.forEach((order, o) => {
        const oAt: Path = [...sfAt, 'orders', o];
        firstSeen(orderIds, order.id, [...oAt, 'id'], `order id ${order.id}`);
        if (!customers.has(order.customerId)) {
          problem(
            [...oAt, 'customerId'],
            `customer ${order.customerId} is not a customer of this storefront`,
          );
        }
        if (order.status !== undefined && !statusKnown(order.status)) {
          problem([...oAt, 'status'], `"${order.status}" is not a status of this storefront`);
        }
        order.items.forEach((item, i) => {
          const iAt: Path = [...oAt, 'items', i];
          firstSeen(itemIds, item.id, [...iAt, 'id'], `item id ${item.id}`);
          const project = projects.get(item.productId);
          if (!templates.has(item.productId) && project === undefined) {
            problem(
              [...iAt, 'productId'],
              `product ${item.productId} is not a template or project of this storefront`,
            );
          }
          if (project !== undefined && project.ownerId !== order.customerId) {
            problem([...iAt, 'productId'], `project ${item.productId} belongs to another customer`);
          }
          if (item.status !== undefined && !statusKnown(item.status)) {
            problem([...iAt, 'status'], `"${item.status}" is not a status of this storefront`);
          }
          if (new Set(item.uploads).size !== item.uploads.length) {
            problem([...iAt, 'uploads'], 'file names must be unique within the item');
          }
          if (item.shipmentIndex > order.shipments.length) {
            problem([...iAt, 'shipmentIndex'], `the order has only ${order.shipments.length} shipment(s)`);
          }
        });
      });
    });
  });
}

/** A problem found in a seed, by JSON path (`licenses[0].storefronts[1].orders[2].customerId`). */
export interface SeedProblem {
  path: string;
  message: string;
}

export type SeedResult = { ok: true; seed: SandboxSeed } | { ok: false; problems: SeedProblem[] };

/**
 * Validates a parsed JSON value as a sandbox seed; every problem is reported, each with its path.
 *
 * @example
 * const result = parseSandboxSeed(JSON.parse(text));
 * if (!result.ok) for (const p of result.problems) console.error(`${p.path}: ${p.message}`);
 */
export function parseSandboxSeed(value: unknown): SeedResult {
  const result = SandboxSeed.safeParse(value, {
    error: (issue) => (issue.input === undefined ? 'is required' : undefined),
  });
  if (result.success) return { ok: true, seed: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({
      path: formatConfigPath(issue.path),
      message: issue.message,
    })),
  };
}
