/**
 * The gateway configuration: one JSON file, validated with this schema at start-up (`punchgate serve`,
 * `punchgate check-config`). Its JSON Schema is generated to `schemas/config.schema.json` for editors.
 *
 * Secrets (shared secrets, passwords, API keys, the signing key, the admin token) may be written inline or
 * as `{ "env": "NAME" }`; `resolveConfigSecrets` replaces the references from an environment record, so
 * the same file works on Node (process.env) and on Workers (the Worker's env bindings).
 *
 * Pure module: no I/O, no Node globals.
 */
import * as z from 'zod';
import { parseAddressRange } from '../src/kernel/address-ranges.ts';
import { constantTimeEqual } from '../src/kernel/constant-time.ts';

export const SecretRef = z
  .union([
    z.string().min(1, 'must not be empty'),
    z.strictObject({
      env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'),
    }),
  ])
  .describe('A secret, inline or as {"env": "NAME"} to read it from the environment');
export type SecretRef = z.infer<typeof SecretRef>;

const Host = z
  .string()
  .regex(
    /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/,
    'must be a lower-case host name, optionally with a port or a leading "*." wildcard',
  );

const AddressOrRange = z.string().refine((entry) => parseAddressRange(entry) !== undefined, {
  error: (issue) =>
    `"${String(issue.input)}" is not an IPv4 or IPv6 address or CIDR range (such as 203.0.113.0/24 or 2001:db8::/32)`,
});

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' });

/** What `POST /cxml` reads before the sender is proven, and the most any document but an OrderRequest may be. */
export const ANONYMOUS_DOCUMENT_BYTES = 1024 * 1024;
/** The default `orders.maxDocumentBytes`: a 5,000-line PO is about 3.3 MB, so this leaves room for 20,000 lines. */
export const DEFAULT_ORDER_DOCUMENT_BYTES = 16 * 1024 * 1024;
/**
 * The largest PO a D1 store takes by default. D1 itself would take more: a PO too big for one row (D1 holds
 * at most 2,000,000 bytes a row) is stored in parts (src/store/d1.ts). What bounds it is the Worker's memory,
 * 128 MB an isolate: taking a PO in holds its text, its parsed tree and the records made of it, which on
 * Node measured about 28× the document (a 3.2 MB, 5,000-line PO added about 90 MB of heap). 3.5 MiB takes
 * a 5,000-line PO (3.3 MB) and leaves the isolate room for its code and other requests.
 */
export const D1_ORDER_DOCUMENT_BYTES = 3.5 * 1024 * 1024;
/**
 * The default `buyers[].attachments.maxBytes`: the files of one PO, decoded, together. Print artwork as
 * buyers attach it (a print-ready PDF, a logo, a spec sheet) is a few MB; 10 MiB base64-encoded (×4/3, plus
 * line breaks) is about 14.3 MiB, so with its cXML part the message still fits the default
 * `orders.maxDocumentBytes` of 16 MiB, which bounds the whole message.
 */
export const DEFAULT_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/**
 * What a config that still names the retired `memory` store is told: the same store lives on as SQLite in
 * process memory, which one word in the file switches to.
 */
export const MEMORY_STORE_RETIRED =
  '"memory" is no longer supported: write { "kind": "sqlite", "path": ":memory:" } for a store that lives as long as the process';

export const StoreConfig = z
  .discriminatedUnion(
    'kind',
    [
      z.strictObject({
        kind: z.literal('sqlite'),
        path: z
          .string()
          .min(1)
          .describe(
            'Database file, relative to the working directory (its folder is created), or ":memory:" for a database in the process that is gone when it stops (tests, trials)',
          ),
      }),
      z.strictObject({ kind: z.literal('postgres'), url: SecretRef }),
      z.strictObject({ kind: z.literal('d1'), binding: z.string().min(1) }),
    ],
    {
      error: (issue) =>
        typeof issue.input === 'object' &&
        issue.input !== null &&
        'kind' in issue.input &&
        issue.input.kind === 'memory'
          ? MEMORY_STORE_RETIRED
          : undefined,
    },
  )
  .describe('Where sessions, carts, purchase orders and the outbox live');
export type StoreConfig = z.infer<typeof StoreConfig>;

export const PriceTier = z.strictObject({
  minQuantity: z.number().int().min(1),
  unitPrice: z.number().min(0),
});

/** An ISO 639-1 language code, lower case: `de`, `fr`. */
const LanguageCode = z.string().regex(/^[a-z]{2}$/, 'must be an ISO 639-1 language code such as de');

export const ProductTranslation = z
  .strictObject({
    name: z.string().min(1),
    description: z
      .string()
      .optional()
      .describe("The description in this language; without one, the product's own description is shown"),
  })
  .describe("A product's name and description in one language");

export const CatalogProduct = z
  .strictObject({
    productId: z.number().int().positive().describe('Template product id on the print service'),
    sku: z.string().min(1).max(40).describe('SupplierPartID / OCI VENDORMAT'),
    name: z.string().min(1),
    description: z.string().optional(),
    translations: z
      .record(LanguageCode, ProductTranslation)
      .optional()
      .describe(
        "Name and description by language code (e.g. de): shown to sessions in that language and sent in their carts labelled with it; a session in a language without one gets name and description in the storefront's language",
      ),
    uom: z
      .string()
      .regex(/^[A-Z0-9]{1,3}$/, 'must be a UN/CEFACT unit code such as EA')
      .default('EA'),
    unspsc: z
      .string()
      .regex(/^\d{8}$/, 'must be an 8-digit UNSPSC code')
      .optional(),
    leadTimeDays: z.number().int().min(0).optional(),
    manufacturerPartId: z.string().optional(),
    weightKg: z
      .number()
      .positive()
      .optional()
      .describe("Weight of one unit in kg: a shipping table's byWeight rows price this product's lines"),
    matGroup: z.string().max(10).optional().describe('OCI NEW_ITEM-MATGROUP'),
    prices: z
      .array(PriceTier)
      .min(1)
      .refine((tiers) => tiers.some((t) => t.minQuantity === 1), 'needs a tier with minQuantity 1')
      .describe('Unit price tiers by quantity'),
    priceUnit: z
      .number()
      .int()
      .min(1)
      .max(99999)
      .default(1)
      .describe(
        "How many units the tiers' unitPrice is for (e.g. 1000: prices per thousand); carts send it as cXML PriceBasisQuantity and OCI NEW_ITEM-PRICEUNIT",
      ),
    minQuantity: z.number().int().min(1).default(1),
    maxQuantity: z.number().int().min(1).default(100000),
    printProductId: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(
        'Print-service product id the product is ordered as it is, without a design (often productId): such a product is put in the cart from the catalog and a PO line naming its SKU is produced without a cart line',
      ),
  })
  .describe('A product buyers can design and order');
export type CatalogProduct = z.infer<typeof CatalogProduct>;

export const CarrierMapping = z
  .strictObject({
    name: z.string().min(1).describe('Carrier name, sent as CarrierIdentifier domain="companyName"'),
    scac: z
      .string()
      .regex(/^[A-Z]{2,4}$/, 'must be a Standard Carrier Alpha Code: 2 to 4 capital letters')
      .optional()
      .describe('Standard Carrier Alpha Code, sent as CarrierIdentifier domain="SCAC"'),
  })
  .describe('How a carrier of the print service is named in ShipNoticeRequests');
export type CarrierMapping = z.infer<typeof CarrierMapping>;

/**
 * A `carriers` key as it is matched: the print order's "provider/service" or "provider", without regard to
 * case or surrounding spaces (the service's admins type these names by hand).
 */
export const carrierKey = (key: string): string => key.trim().toLowerCase();

/** A non-negative decimal written as text, e.g. `19` or `4.95`: amounts never pass through a float. */
const DecimalText = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal written as a string, such as "19" or "4.95"');

/** An id of the supplier's other than its VAT id (`federalTaxID`, `gstID`, `companyRegistrationNumber`, …). */
const PartyIdReference = z.strictObject({
  domain: z
    .string()
    .min(1)
    .describe('IdReference domain, e.g. federalTaxID, gstID, companyRegistrationNumber'),
  identifier: z.string().min(1),
});

/**
 * The supplier's tax ids on its invoices: the VAT id as cXML writes it (`IdReference domain="vatID"` on the
 * supplier's InvoicePartner), and the pair Coupa's compliant invoicing reads from the remit-to partner.
 */
export const SupplierTaxIds = z
  .strictObject({
    vatId: z
      .string()
      .min(1)
      .optional()
      .describe('VAT id, e.g. DE123456789: IdReference domain="vatID" on the supplier (from) InvoicePartner'),
    taxPrefix: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Coupa: the VAT id\'s country prefix, e.g. DE (IdReference domain="taxPrefix" on the remitTo partner)',
      ),
    taxNumber: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Coupa: the VAT number without the prefix (IdReference domain="taxNumber" on the remitTo partner)',
      ),
    otherIds: z
      .array(PartyIdReference)
      .default([])
      .describe('Further ids on the supplier (from) InvoicePartner'),
  })
  .refine((ids) => (ids.taxPrefix === undefined) === (ids.taxNumber === undefined), {
    message: 'taxPrefix and taxNumber go together (Coupa reads the pair)',
  })
  .describe("The supplier's tax ids written on its invoices");
export type SupplierTaxIds = z.infer<typeof SupplierTaxIds>;

/** Why an exempt or zero-rated supply bills no tax. */
const TaxExemption = z.strictObject({
  detail: z
    .enum(['exempt', 'zeroRated'])
    .default('exempt')
    .describe('TaxDetail exemptDetail: exempt from the tax, or taxed at 0 %'),
  reason: z
    .string()
    .min(1)
    .describe('The legal reason, e.g. "Reverse charge: Article 196 Council Directive 2006/112/EC"'),
  code: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The tax authority's exemption code (TaxExemption exemptCode); without one only the reason is written",
    ),
});

/**
 * How an invoice states its tax. Each field given by a buyer's `invoices.tax` replaces the storefront's
 * `invoicing.tax` one.
 */
export const InvoiceTaxTreatment = z
  .strictObject({
    category: z
      .enum(['vat', 'gst', 'sales'])
      .optional()
      .describe('TaxDetail category: vat, gst or sales (default sales)'),
    percent: DecimalText.optional().describe(
      'The rate the invoice states and works its tax out from, per line (taxable × rate, to the cent), e.g. "19"; without it the print order\'s own rate',
    ),
    taxPointDate: z
      .enum(['invoice-date', 'ship-date'])
      .optional()
      .describe(
        "TaxDetail taxPointDate: the invoice's date, or the day the invoiced goods shipped; not written without it",
      ),
    exempt: TaxExemption.optional().describe(
      'The supply is exempt (or zero-rated): no tax is billed, each TaxDetail says why',
    ),
  })
  .describe('How invoices state their tax');
export type InvoiceTaxTreatment = z.infer<typeof InvoiceTaxTreatment>;

/** A storefront's invoicing facts, the same for every buyer unless one's `invoices` says otherwise. */
export const StorefrontInvoicing = z
  .strictObject({
    supplierTaxIds: SupplierTaxIds.optional(),
    tax: InvoiceTaxTreatment.optional(),
  })
  .describe("The supplier's tax ids and tax on invoices of this storefront's orders");
export type StorefrontInvoicing = z.infer<typeof StorefrontInvoicing>;

const ShippingRow = z.strictObject({
  upTo: z.number().positive().describe('The largest quantity (or weight in kg) this row prices'),
  amount: DecimalText.describe('Shipping of a line up to upTo'),
});

const ShippingRows = z
  .array(ShippingRow)
  .min(1)
  .refine(
    (rows) => rows.every((row, i) => i === 0 || row.upTo > (rows[i - 1]?.upTo ?? 0)),
    'rows must be in ascending order of upTo',
  );

export const ShippingRule = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('flat'), amount: DecimalText.describe('Shipping of the whole cart') }),
    z.strictObject({
      kind: z.literal('per-line'),
      amount: DecimalText.describe('Shipping of each cart line'),
    }),
    z.strictObject({
      kind: z.literal('table'),
      byQuantity: ShippingRows.describe(
        'Per line, by its quantity: the first row whose upTo is not below it; a quantity beyond the last row cannot be quoted and the transfer is refused',
      ),
      byWeight: ShippingRows.optional().describe(
        "Per line of a product with weightKg, by the line's weight (quantity × weightKg) instead",
      ),
    }),
  ])
  .describe('Shipping quoted in the cart: flat per cart, per line, or per line from a table');
export type ShippingRule = z.infer<typeof ShippingRule>;

export const TaxRule = z
  .strictObject({
    percent: DecimalText.describe('Tax rate in percent of the lines (and of the shipping with onShipping)'),
    onShipping: z
      .boolean()
      .default(false)
      .describe(
        "Tax the shipping at the same rate (EU VAT): with header tax the cart's Tax is the rate of lines plus shipping; with line tax the shipping's tax is added to the header Tax, whose Description says so",
      ),
    byShipTo: z
      .array(
        z.strictObject({
          country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166 two-letter country code such as US'),
          region: z.string().min(1).optional().describe('State or region as the ShipTo names it, e.g. CA'),
          percent: DecimalText,
        }),
      )
      .default([])
      .describe(
        "Rates by the punch-out's ShipTo: a row with the region before one of the country alone; else percent",
      ),
    description: z.string().min(1).default('Sales tax'),
  })
  .describe("Tax quoted in the cart, rounded half up to the currency's minor units");
export type TaxRule = z.infer<typeof TaxRule>;

export const ChargeRules = z
  .strictObject({
    shipping: ShippingRule.optional(),
    shippingDescription: z.string().min(1).default('Shipping'),
    tax: TaxRule.optional(),
  })
  .describe(
    "Shipping and tax the cart carries (cXML header Shipping/Tax, OCI charge lines), so the buyer's PO includes them",
  );
export type ChargeRules = z.infer<typeof ChargeRules>;

export const StorefrontConfig = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case slug'),
  storefrontId: z.number().int().positive().describe('Storefront id on the print service'),
  name: z.string().optional(),
  apiBaseUrl: HttpUrl.refine(
    (url) => !/\/api\/v2\/*$/i.test(url),
    "must be the service's {base_url} without /api/v2 (the client adds it to every call)",
  ).describe('{base_url} of the print service (without /api/v2)'),
  editorUrl: HttpUrl.describe('{editor_url} of the editor host'),
  apiToken: z.string().regex(/^[0-9a-fA-F]+$/, 'must be the hex API token'),
  apiKey: SecretRef,
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'),
  language: LanguageCode.default('en').describe(
    "The language products' names and descriptions are written in: the label of cart texts sent without a translation",
  ),
  vendorName: z.string().optional().describe('Shown to buyers as the supplier'),
  cancelStatus: z
    .string()
    .optional()
    .describe('Status set on the print order when the buyer cancels the PO (OrderRequest type delete)'),
  newOrderStatus: z
    .string()
    .min(1)
    .optional()
    .describe("Status set on a new print order with its PO note, e.g. the shop's review queue"),
  carriers: z
    .record(z.string(), CarrierMapping)
    .refine((carriers) => Object.keys(carriers).every((key) => key.trim() !== ''), 'has a blank key')
    .refine(
      (carriers) => new Set(Object.keys(carriers).map(carrierKey)).size === Object.keys(carriers).length,
      'names a shipping provider twice (keys are matched without regard to case)',
    )
    .optional()
    .describe(
      'Ship-notice carrier per print-order shipping provider: key "provider/service" or "provider" (case ignored)',
    ),
  charges: ChargeRules.optional(),
  products: z.array(CatalogProduct).min(1),
  invoicing: StorefrontInvoicing.optional(),
});
export type StorefrontConfig = z.infer<typeof StorefrontConfig>;

const Credential = z.strictObject({ domain: z.string().min(1), identity: z.string().min(1) });

export const RemitToAddress = z
  .strictObject({
    name: z.string().min(1).describe('Who payments go to'),
    street: z.array(z.string().min(1)).min(1).max(4).describe('Street lines'),
    city: z.string().min(1),
    state: z.string().min(1).optional(),
    postalCode: z.string().min(1).optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166 two-letter country code such as DE')
      .describe('ISO 3166 two-letter country code'),
  })
  .describe('The remit-to partner of invoices: where the buyer pays');
export type RemitToAddress = z.infer<typeof RemitToAddress>;

/**
 * A buyer's invoicing (cXML InvoiceDetailRequest). The checks that tie fields together (`status` with
 * `on-status`, a URL to send to) are in `crossReferenceProblems`, so they are reported with the rest.
 */
export const InvoiceConfig = z
  .strictObject({
    send: z
      .enum(['off', 'on-ship', 'on-status'])
      .default('off')
      .describe(
        'off: no invoices; on-ship: when a shipment (or the whole print order, per "per") has shipped; on-status: when the print order reaches "status"',
      ),
    status: z
      .string()
      .min(1)
      .optional()
      .describe('The print-order status that triggers the invoice with send "on-status" (case ignored)'),
    url: HttpUrl.optional().describe("Where invoices are posted; default the buyer's orderStatusUrl"),
    taxAt: z
      .enum(['header', 'line'])
      .default('header')
      .describe(
        'header: one Tax in the summary (SAP Ariba style); line: a Tax per line, summed in the summary (Coupa style)',
      ),
    invoiceIds: z
      .enum(['print-service', 'gateway'])
      .default('gateway')
      .describe(
        "print-service: the print order's invoice_number (the invoice waits while it is empty); gateway: idPrefix and a sequence per buyer",
      ),
    idPrefix: z
      .string()
      .max(40)
      .regex(/^[^\s]*$/, 'must not contain spaces')
      .default('INV-')
      .describe('Prefix of gateway invoice ids: <prefix><sequence per buyer, 6 digits>'),
    per: z
      .enum(['shipment', 'order'])
      .optional()
      .describe(
        'With send "on-ship": an invoice per shipment (default) or one per print order once all shipped',
      ),
    paymentTermDays: z
      .number()
      .int()
      .min(0)
      .max(365)
      .default(30)
      .describe('Net payment term in days (PaymentTerm payInNumberOfDays)'),
    priceTolerancePercent: z
      .number()
      .min(0)
      .max(100)
      .default(1)
      .describe(
        "How far, in percent, what a print-order item charges a unit (its total over its quantity) may differ from the PO line's unit price: beyond it the invoice is held for an operator, within it it is sent and the difference flagged",
      ),
    chargesNotOnPo: z
      .enum(['bill', 'hold'])
      .default('bill')
      .describe(
        'Shipping or tax the print order charges where the PO carries none: bill: invoiced as charged; hold: the invoice waits for an operator. Where the PO carries Shipping or Tax, its figure is billed (tolerance as for prices)',
      ),
    defaultTaxPercent: DecimalText.optional().describe(
      'Tax rate in percent used when the print order carries no tax',
    ),
    defaultShipping: DecimalText.optional().describe(
      'Shipping charged per invoice when the print order carries no shipping',
    ),
    remitTo: RemitToAddress.optional(),
    remitToAddressID: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The remit-to address code the buyer's supplier portal gave (Coupa: remit_to_code), written as the remitTo Contact's addressID",
      ),
    supplierTaxIds: SupplierTaxIds.optional().describe(
      "The supplier's tax ids on this buyer's invoices, in place of the storefront's invoicing.supplierTaxIds",
    ),
    tax: InvoiceTaxTreatment.optional().describe(
      "How this buyer's invoices state their tax; each field given replaces the storefront's invoicing.tax one",
    ),
    accountingInLine: z
      .boolean()
      .default(false)
      .describe("Echo each PO line's accounting (Distribution) on its invoice line, with isAccountingInLine"),
  })
  .describe('Invoices (cXML InvoiceDetailRequest) for orders this buyer placed through the gateway');
export type InvoiceConfig = z.infer<typeof InvoiceConfig>;

/**
 * How a buyer's test documents (cXML `deploymentMode="test"`) are treated. Its default is the safe one: no
 * test storefront, so a test PO is stored and confirmed but never reaches a print service.
 */
export const TestModeConfig = z
  .strictObject({
    storefront: z
      .string()
      .min(1)
      .optional()
      .describe(
        "id of a storefront in this file (not any buyer's own storefront) where test punch-outs open and test POs become print orders; without one a test PO is stored and confirmed, never sent to a print service",
      ),
    credentials: z
      .array(Credential)
      .default([])
      .describe("From credentials that only ever open test mode (a buyer's separate test account)"),
    sharedSecret: SecretRef.optional().describe(
      'A SharedSecret that only ever opens test mode; with test credentials it is the one they are proven by (default: sharedSecret)',
    ),
    fromProductionCredentials: z
      .enum(['accept-as-test', 'refuse'])
      .default('accept-as-test')
      .describe(
        'A document with deploymentMode="test" sent with the production credentials: taken as a test document, or refused',
      ),
  })
  .describe('Test mode: how documents with deploymentMode="test" are treated');
export type TestModeConfig = z.infer<typeof TestModeConfig>;

const BuyerCommon = {
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case slug'),
  name: z.string().optional(),
  storefront: z.string().min(1).describe('id of a storefront in this file'),
  language: LanguageCode.default('en').describe(
    "Language of the buyer's pages when the punch-in names none it has (cXML xml:lang, OCI sap-language/LANGU/language) and the browser's Accept-Language names none either; a language without messages falls back to English",
  ),
  userMode: z
    .enum(['mapped', 'temporary'])
    .default('mapped')
    .describe('mapped: one permanent print-service user per buyer user; temporary: a fresh user per session'),
  anonymousUsers: z
    .enum(['temporary', 'refuse'])
    .default('temporary')
    .describe('A punch-in that names no user: a temporary print-service user for the session, or refused'),
  frameAncestors: z
    .array(Host)
    .default([])
    .describe('Hosts allowed to frame the catalog (CSP frame-ancestors), besides the return hosts'),
  authAllowedAddresses: z
    .array(AddressOrRange)
    .default([])
    .describe(
      "IPv4/IPv6 addresses and CIDR ranges of the buyer's procurement system (its published ranges): they keep authenticating while failed secrets from elsewhere lock the buyer",
    ),
  orderStatusUrl: HttpUrl.optional().describe('Where ConfirmationRequest and ShipNoticeRequest are posted'),
  orderStatusCredential: Credential.optional().describe('To credential for documents sent to orderStatusUrl'),
  confirmDetails: z
    .boolean()
    .default(false)
    .describe('Send ConfirmationRequest detail on later status changes'),
  confirmations: z
    .enum(['accept', 'allDetail'])
    .default('accept')
    .describe(
      'accept: a header-only accept; allDetail: a ConfirmationItem per PO line (SAP Ariba enhanced order confirmation)',
    ),
  poDeviations: z
    .enum(['confirm', 'reject', 'accept'])
    .default('confirm')
    .describe(
      "How a new PO's quantity or price deviations from the cart are answered: confirm: accept the PO's terms with a detail confirmation per deviating line; reject: refuse the PO at intake; accept: accept and flag for the operator",
    ),
  unknownLines: z
    .enum(['reject-line', 'hold', 'refuse-po'])
    .default('reject-line')
    .describe(
      'A PO line the gateway cannot produce (unknown part, freight or fee line, free text without a part id): reject-line: the other lines are produced and one detail ConfirmationRequest accepts them and rejects this one with the reason; hold: the PO waits for an operator; refuse-po: the whole PO is refused. A PO with no producible line is always refused',
    ),
  missingShipTo: z
    .enum(['hold', 'accept'])
    .default('hold')
    .describe(
      "A new PO with a line that has no usable ship-to address (its own nor the order's: a street, city and postal code): hold: it waits for an operator instead of being placed; accept: it is placed; flagged ship_to_missing either way",
    ),
  supplierPartIds: z
    .enum(['sku', 'sku-design'])
    .default('sku')
    .describe(
      "The SupplierPartID (OCI VENDORMAT) of a designed line: sku: the product's SKU; sku-design: the SKU and the design id (SKU-D1234), so ERPs that key lines on the part number keep two designs of one product apart",
    ),
  test: TestModeConfig.default({ credentials: [], fromProductionCredentials: 'accept-as-test' }),
  catalog: z
    .strictObject({
      reorders: z
        .boolean()
        .default(false)
        .describe(
          'Each design the buyer ordered through a PO is orderable again as it is: a reorder item (part number R-<SKU>-<design id>) in the buyer\'s catalog export and under "Ordered before" on the catalog page, and a level-2 SelectedItem naming it opens the cart with that design at its last quantity. Shared by every requester of the buyer, whoever designed it',
        ),
    })
    .default({ reorders: false })
    .describe("What the buyer's catalog holds besides the storefront's products"),
  attachments: z
    .strictObject({
      maxBytes: z
        .number()
        .int()
        .min(0)
        .max(256 * 1024 * 1024)
        .default(DEFAULT_ATTACHMENT_BYTES)
        .describe(
          `Most bytes of files, decoded and together, one PO may carry as multipart/related parts; a PO with more is refused naming the part (0 refuses every attachment). Default ${DEFAULT_ATTACHMENT_BYTES} (10 MiB). The whole message, encoded, stays within orders.maxDocumentBytes too`,
        ),
    })
    .default({ maxBytes: DEFAULT_ATTACHMENT_BYTES })
    .describe(
      "Files a PO carries (artwork, specs): kept with the PO for operators to download, since the print service's interface has no upload",
    ),
  invoices: InvoiceConfig.default({
    send: 'off',
    taxAt: 'header',
    invoiceIds: 'gateway',
    idPrefix: 'INV-',
    paymentTermDays: 30,
    priceTolerancePercent: 1,
    accountingInLine: false,
    chargesNotOnPo: 'bill',
  }),
  cartCharges: z
    .strictObject({
      taxExempt: z.boolean().default(false).describe('The buyer pays no tax: carts quote none'),
      taxAt: z
        .enum(['header', 'line'])
        .default('header')
        .describe('cXML carts: tax in the header only, or a Tax per ItemIn as well (summed in the header)'),
    })
    .default({ taxExempt: false, taxAt: 'header' })
    .describe("How the storefront's charges are quoted in this buyer's carts"),
};

export const CxmlBuyerConfig = z.strictObject({
  ...BuyerCommon,
  protocol: z.literal('cxml'),
  from: z.array(Credential).min(1).describe('Any of these From credentials identifies the buyer'),
  sharedSecret: SecretRef,
  previousSharedSecrets: z
    .array(SecretRef)
    .default([])
    .describe(
      "SharedSecrets accepted besides sharedSecret while the buyer's system switches over (rotation); remove once it sends the new one",
    ),
  cartEncoding: z.enum(['base64', 'urlencoded']).default('base64'),
  returnUrlHosts: z.array(Host).min(1).describe('Hosts a BrowserFormPost URL may point to'),
  unitMap: z
    .record(z.string(), z.string().min(1))
    .default({})
    .describe('Our UOM → the buyer system unit, in the PunchOutOrderMessage'),
  cartThumbnails: z
    .enum(['extrinsic', 'url', 'off'])
    .default('extrinsic')
    .describe(
      "Each cart line's design thumbnail, a gateway link that opens that picture without any credential: extrinsic: an ItemDetail Extrinsic named thumbnailUrl; url: ItemDetail/URL (in place of the proof link, which stays in the proofUrl Extrinsic); off: none",
    ),
});
export type CxmlBuyerConfig = z.infer<typeof CxmlBuyerConfig>;

const OciChargeLine = z.strictObject({
  partId: z
    .string()
    .min(1)
    .max(40)
    .describe("NEW_ITEM-VENDORMAT (and the PO line's SupplierPartID), e.g. FREIGHT"),
  description: z.string().min(1).max(40).describe('NEW_ITEM-DESCRIPTION'),
  matGroup: z.string().max(10).optional().describe('NEW_ITEM-MATGROUP'),
  unspsc: z
    .string()
    .regex(/^\d{8}$/, 'must be an 8-digit UNSPSC code')
    .optional()
    .describe('Default 78102200 (postal, small parcel and courier services) for shipping, 84111500 for tax'),
});

export const OciBuyerConfig = z.strictObject({
  ...BuyerCommon,
  protocol: z.literal('oci'),
  username: z.string().min(1),
  password: SecretRef,
  previousPasswords: z
    .array(SecretRef)
    .default([])
    .describe(
      "OCI passwords accepted besides password while the buyer's system switches over (rotation); remove once it sends the new one",
    ),
  loginFields: z
    .strictObject({ username: z.string().min(1), password: z.string().min(1) })
    .default({ username: 'USERNAME', password: 'PASSWORD' }),
  hookUrlHosts: z.array(Host).min(1),
  allowSapEvent: z.boolean().default(false).describe('Accept SAPEVENT: hook URLs (SAP GUI)'),
  charset: z.enum(['utf-8', 'iso-8859-1', 'windows-1252']).default('utf-8'),
  ociVersion: z.enum(['4.0', '5.0']).default('4.0'),
  unitMap: z.record(z.string(), z.string().max(3)).default({}).describe('Our UOM → the buyer system unit'),
  cartThumbnails: z
    .enum(['off', 'attachment', 'longtext'])
    .default('off')
    .describe(
      "Each cart line's design thumbnail, a gateway link that opens that picture without any credential: attachment: NEW_ITEM-ATTACHMENT (the buyer's system downloads the picture) with NEW_ITEM-ATTACHMENT_TITLE; longtext: a last long-text line 'Preview: <link>'; off: none",
    ),
  custFields: z.array(z.string()).max(5).default([]).describe('NEW_ITEM-CUST_FIELD1..5'),
  chargeLines: z
    .strictObject({
      shipping: OciChargeLine.optional().describe("The cart's shipping as an item of its own"),
      tax: OciChargeLine.optional().describe("The cart's tax as an item of its own"),
    })
    .default({})
    .describe(
      "OCI has no charge fields: the storefront's shipping (and tax) go as items with these part numbers, and a PO line naming one is the PO's charge, not a product",
    ),
  vendorNumber: z
    .string()
    .min(1)
    .max(10)
    .optional()
    .describe("NEW_ITEM-VENDOR: the buyer's own vendor (business partner) number for this supplier"),
  manufacturerCode: z
    .string()
    .min(1)
    .max(10)
    .optional()
    .describe("NEW_ITEM-MANUFACTCODE: the buyer's own number for this supplier as the manufacturer"),
  from: z
    .array(Credential)
    .default([])
    .describe('cXML From credentials of the OrderRequests this buyer sends later'),
  sharedSecret: SecretRef.optional().describe('SharedSecret of the OrderRequests this buyer sends later'),
  previousSharedSecrets: z
    .array(SecretRef)
    .default([])
    .describe(
      'SharedSecrets of later OrderRequests accepted besides sharedSecret while the buyer switches over',
    ),
});
export type OciBuyerConfig = z.infer<typeof OciBuyerConfig>;

export const BuyerConfig = z.discriminatedUnion('protocol', [CxmlBuyerConfig, OciBuyerConfig]);
export type BuyerConfig = z.infer<typeof BuyerConfig>;
export type BuyerProtocol = BuyerConfig['protocol'];

/** A protocol some buyer may be configured with, as a session kept in the store names it. */
export const BuyerProtocol = z.custom<BuyerProtocol>(
  (value) => BuyerConfig.options.some((kind) => kind.shape.protocol.value === value),
  'not a buyer protocol',
);

/** The hosts a buyer's hand-back forms may post to (and so may frame its pages), whatever its protocol calls them. */
export function returnHostsOf(
  buyer:
    | Pick<CxmlBuyerConfig, 'protocol' | 'returnUrlHosts'>
    | Pick<OciBuyerConfig, 'protocol' | 'hookUrlHosts'>,
): readonly string[] {
  switch (buyer.protocol) {
    case 'cxml':
      return buyer.returnUrlHosts;
    case 'oci':
      return buyer.hookUrlHosts;
  }
}

/** A URL that may carry a secret in it (a Slack incoming webhook's does): inline, or `{"env": "NAME"}`. */
const SecretHttpUrl = z
  .union([HttpUrl, z.strictObject({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/) })])
  .describe('An absolute http(s) URL, inline or as {"env": "NAME"} when the URL itself is a secret');

const EmailAddress = z.email({ error: 'must be an e-mail address' });

export const NotificationsConfig = z
  .strictObject({
    webhook: z
      .strictObject({
        url: SecretHttpUrl.describe(
          'Where each announcement is POSTed as JSON {event, subject, text, …} (Slack incoming webhooks take it as it is)',
        ),
        authorization: SecretRef.optional().describe(
          'Sent as the Authorization header, e.g. "Bearer …", for receivers that want one',
        ),
        maxPerHour: z.number().int().min(1).max(1000).default(20).describe('Rate limit: messages per hour'),
      })
      .optional(),
    email: z
      .strictObject({
        url: z
          .string()
          .regex(
            /^smtps?:\/\/[^\s/@:]+(:\d{1,5})?\/?$/,
            'must be smtp://host:port or smtps://host:port, without credentials (they go in username and password)',
          )
          .describe('The SMTP server: smtp://host:port (STARTTLS when offered) or smtps://host:port (TLS)'),
        from: EmailAddress,
        to: z.array(EmailAddress).min(1),
        username: z.string().min(1).optional(),
        password: SecretRef.optional(),
        maxPerHour: z.number().int().min(1).max(1000).default(10).describe('Rate limit: messages per hour'),
      })
      .optional()
      .describe('E-mail over SMTP; Node only (a Worker has no SMTP and says so at start)'),
    digestAfter: z
      .number()
      .int()
      .min(2)
      .default(3)
      .describe('This many new exceptions or more in one round go out as one message listing them'),
    printServiceFailingMinutes: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe("Announce a storefront's print service once every call to it has failed for this long"),
    refusalsPerHour: z
      .number()
      .int()
      .min(1)
      .default(5)
      .describe('Announce a buyer once this many of its documents were refused within the last hour'),
  })
  .describe('Who is told of exceptions an operator must settle, and how');
export type NotificationsConfig = z.infer<typeof NotificationsConfig>;

export const GatewayConfig = z.strictObject({
  $schema: z.string().optional(),
  publicUrl: HttpUrl.describe('The URL buyers and browsers reach the gateway at'),
  store: StoreConfig.default({ kind: 'sqlite', path: '.punchgate/gateway.db' }),
  trustedProxies: z
    .array(z.union([z.ipv4(), z.ipv6()]))
    .default([])
    .describe('Addresses of reverse proxies in front of the gateway, whose X-Forwarded-For names the client'),
  signingKey: SecretRef.describe('Signs session URLs and event tokens; encrypts stored credentials'),
  previousSigningKeys: z
    .array(SecretRef)
    .default([])
    .describe(
      'Signing keys of before a rotation: links signed and credentials sealed with them still open; nothing new is signed or sealed with them',
    ),
  adminToken: SecretRef.describe('Bearer token of the /admin API'),
  previousAdminTokens: z
    .array(SecretRef)
    .default([])
    .describe("Admin tokens accepted besides adminToken while operators' tooling switches over (rotation)"),
  supplier: z
    .strictObject({
      credentials: z.array(Credential).min(1),
      sharedSecret: SecretRef.optional(),
      userAgent: z.string().default('punchgate'),
    })
    .default({ credentials: [{ domain: 'NetworkID', identity: 'punchgate' }], userAgent: 'punchgate' })
    .describe('Our own identity in the cXML we send'),
  sessions: z
    .strictObject({
      startPageTtlSeconds: z.number().int().min(30).max(3600).default(300),
      sessionTtlSeconds: z.number().int().min(300).max(86400).default(14400),
      pipoTokenReuseSeconds: z.number().int().min(0).max(1800).default(600),
      proofLinkTtlDays: z
        .number()
        .int()
        .min(1)
        .max(3650)
        .default(180)
        .describe(
          'How long a proof link in a cart or PunchOutOrderMessage opens the proof: approvers read requisitions weeks later',
        ),
    })
    .default({
      startPageTtlSeconds: 300,
      sessionTtlSeconds: 14400,
      pipoTokenReuseSeconds: 600,
      proofLinkTtlDays: 180,
    }),
  orders: z
    .strictObject({
      maxAttempts: z.number().int().min(1).max(50).default(6),
      reconcileIntervalSeconds: z.number().int().min(10).default(300),
      outboxMaxAttempts: z.number().int().min(1).max(50).default(10),
      maxHistoryCommentLength: z.number().int().min(200).max(1_000_000).default(4000),
      maxDocumentBytes: z
        .number()
        .int()
        .min(64 * 1024)
        .max(256 * 1024 * 1024)
        .optional()
        .describe(
          `Largest OrderRequest, in bytes, taken from an authenticated buyer (anything else, and anything before the Header proves its sender, stays within ${ANONYMOUS_DOCUMENT_BYTES} bytes). Default ${DEFAULT_ORDER_DOCUMENT_BYTES} (16 MiB); with a D1 store ${D1_ORDER_DOCUMENT_BYTES} (3.5 MiB), and no more: what a Worker's 128 MB of memory takes in (D1 stores a bigger PO in parts)`,
        ),
    })
    .default({
      maxAttempts: 6,
      reconcileIntervalSeconds: 300,
      outboxMaxAttempts: 10,
      maxHistoryCommentLength: 4000,
    }),
  background: z
    .strictObject({
      intervalSeconds: z
        .number()
        .int()
        .min(1)
        .max(3600)
        .default(5)
        .describe('Seconds between background rounds on Node (on Workers the Cron Trigger sets the pace)'),
      staleAfterSeconds: z
        .number()
        .int()
        .min(10)
        .default(300)
        .describe('/readyz fails when no background round has completed for this long'),
    })
    .default({ intervalSeconds: 5, staleAfterSeconds: 300 })
    .describe('The background round: PO jobs, webhooks, reconciliation, documents to buyers, housekeeping'),
  housekeeping: z
    .strictObject({
      expiredSessionDays: z.number().min(0).default(1).describe('Punch-out sessions, after they expire'),
      staleCartLineDays: z
        .number()
        .min(1)
        .default(30)
        .describe('Cart lines never ordered, after last change'),
      finishedJobDays: z.number().min(0).default(7).describe('Completed background jobs'),
      deliveredMessageDays: z
        .number()
        .min(0)
        .default(30)
        .describe('Delivery-queue state of documents delivered to buyers (the documents stay with the PO)'),
      processedEventDays: z
        .number()
        .min(0)
        .default(7)
        .describe('Print-service webhook deliveries, once processed'),
      refusalDays: z
        .number()
        .min(0)
        .default(30)
        .describe('Refusals log entries (refused punch-outs and buyer documents), after they were recorded'),
    })
    .default({
      expiredSessionDays: 1,
      staleCartLineDays: 30,
      finishedJobDays: 7,
      deliveredMessageDays: 30,
      processedEventDays: 7,
      refusalDays: 30,
    })
    .describe('Retention periods of working data; purchase orders and their documents are never purged'),
  notifications: NotificationsConfig.optional(),
  storefronts: z.array(StorefrontConfig).min(1),
  buyers: z.array(BuyerConfig).min(1),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
export type GatewayConfigInput = z.input<typeof GatewayConfig>;

/** A problem found in a configuration, by JSON path. */
export interface ConfigProblem {
  path: string;
  message: string;
}

/** Formats a path as `buyers[1].sharedSecret`, the way docs/configuration.md and the CLI name config fields. */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

export type ConfigResult = { ok: true; config: GatewayConfig } | { ok: false; problems: ConfigProblem[] };

/** Validates a parsed JSON value; every problem is reported, each with its path. */
export function parseGatewayConfig(value: unknown): ConfigResult {
  const result = GatewayConfig.safeParse(value, {
    error: (issue) => (issue.input === undefined ? 'is required' : undefined),
  });
  if (result.success) return { ok: true, config: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({
      path: formatConfigPath(issue.path),
      message: issue.message,
    })),
  };
}

type Loose = Record<string, unknown>;
const asRecord = (value: unknown): Loose | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * A buyer's `invoices` fields that only make sense together: the trigger status of `on-status`, one invoice
 * per order for a status, and somewhere to post the invoices.
 */
function invoiceProblems(buyer: Loose): { field: string; message: string }[] {
  const invoices = asRecord(buyer.invoices);
  if (invoices === undefined) return [];
  const problems: { field: string; message: string }[] = [];
  const { send, status, per, url } = invoices;
  const hasText = (value: unknown) => typeof value === 'string' && value.trim() !== '';
  if (send === 'on-status' && !hasText(status)) {
    problems.push({
      field: 'status',
      message: 'is required with send "on-status": the print-order status name that triggers the invoice',
    });
  }
  if (send === 'on-ship' && status !== undefined) {
    problems.push({
      field: 'status',
      message: 'is only read with send "on-status"; with "on-ship" the invoice follows the shipments',
    });
  }
  if (send === 'on-status' && per === 'shipment') {
    problems.push({
      field: 'per',
      message:
        'must be "order" (or left out) with send "on-status": a status is the whole print order\'s, so it is invoiced once',
    });
  }
  if ((send === 'on-ship' || send === 'on-status') && url === undefined && !hasText(buyer.orderStatusUrl)) {
    problems.push({
      field: 'url',
      message:
        "is required when invoices are sent and the buyer has no orderStatusUrl: set invoices.url or the buyer's orderStatusUrl",
    });
  }
  return problems;
}

/**
 * The checks across sections (ids that must be unique or exist, SKUs, credentials, OCI login names), run on
 * the raw JSON so they are reported in the same pass as the schema's own problems: a zod refinement would
 * only run once every field is valid, and the user would fix the file in rounds.
 */
export function crossReferenceProblems(value: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const add = (path: PropertyKey[], message: string) =>
    problems.push({ path: formatConfigPath(path), message });
  const root = asRecord(value) ?? {};
  const storefrontIds = new Set<string>();
  asArray(root.storefronts).forEach((raw, i) => {
    const storefront = asRecord(raw) ?? {};
    if (typeof storefront.id === 'string') {
      if (storefrontIds.has(storefront.id))
        add(['storefronts', i, 'id'], `duplicate storefront id "${storefront.id}"`);
      storefrontIds.add(storefront.id);
    }
    const skus = new Set<string>();
    asArray(storefront.products).forEach((product, j) => {
      const sku = asRecord(product)?.sku;
      if (typeof sku !== 'string') return;
      if (skus.has(sku)) add(['storefronts', i, 'products', j, 'sku'], `duplicate sku "${sku}"`);
      skus.add(sku);
    });
  });
  const buyerIds = new Set<string>();
  const credentialOwners = new Map<string, string>();
  // A storefront some buyer orders on in production: a test PO must never reach one.
  const productionStorefronts = new Set(
    asArray(root.buyers).flatMap((raw) => {
      const storefront = asRecord(raw)?.storefront;
      return typeof storefront === 'string' ? [storefront] : [];
    }),
  );
  asArray(root.buyers).forEach((raw, i) => {
    const buyer = asRecord(raw) ?? {};
    const id = typeof buyer.id === 'string' ? buyer.id : `#${i}`;
    if (typeof buyer.id === 'string') {
      if (buyerIds.has(buyer.id)) add(['buyers', i, 'id'], `duplicate buyer id "${buyer.id}"`);
      buyerIds.add(buyer.id);
    }
    if (typeof buyer.storefront === 'string' && !storefrontIds.has(buyer.storefront)) {
      add(['buyers', i, 'storefront'], `no storefront with id "${buyer.storefront}"`);
    }
    const test = asRecord(buyer.test);
    // Production and test From credentials of one buyer are told apart by the credential alone, so each
    // must name one buyer and one mode.
    const fromLists: [PropertyKey[], unknown, string][] = [
      [['buyers', i, 'from'], buyer.from, 'production'],
      [['buyers', i, 'test', 'credentials'], test?.credentials, 'test'],
    ];
    for (const [path, list, mode] of fromLists) {
      asArray(list).forEach((rawCredential, j) => {
        const credential = asRecord(rawCredential);
        if (typeof credential?.domain !== 'string' || typeof credential.identity !== 'string') return;
        // A From credential must name exactly one buyer, or a setup could be authenticated as another buyer.
        const key = `${credential.domain.toLowerCase()}\u0000${credential.identity}`;
        const owner = credentialOwners.get(key);
        if (owner !== undefined && owner !== `${id}\u0000${mode}`) {
          const [ownerId, ownerMode] = owner.split('\u0000');
          add(
            [...path, j],
            ownerId === id
              ? `credential ${credential.domain}/${credential.identity} is already one of this buyer's ${ownerMode} credentials`
              : `credential ${credential.domain}/${credential.identity} already identifies buyer "${ownerId}"`,
          );
        }
        credentialOwners.set(key, `${id}\u0000${mode}`);
      });
    }
    if (typeof test?.storefront === 'string') {
      if (!storefrontIds.has(test.storefront)) {
        add(['buyers', i, 'test', 'storefront'], `no storefront with id "${test.storefront}"`);
      } else if (productionStorefronts.has(test.storefront)) {
        add(
          ['buyers', i, 'test', 'storefront'],
          `"${test.storefront}" is a buyer's production storefront: test orders must go to a storefront of their own`,
        );
      }
    }
    for (const { field, message } of invoiceProblems(buyer)) add(['buyers', i, 'invoices', field], message);
    const loginFields = asRecord(buyer.loginFields);
    if (
      buyer.protocol === 'oci' &&
      typeof loginFields?.username === 'string' &&
      typeof loginFields.password === 'string' &&
      loginFields.username.trim().toLowerCase() === loginFields.password.trim().toLowerCase()
    ) {
      add(
        ['buyers', i, 'loginFields', 'password'],
        `must differ from loginFields.username ("${loginFields.username}"): SAP sends the login parameters ` +
          'with names compared without case, so one field would hide the other',
      );
    }
  });
  const maxDocumentBytes = asRecord(root.orders)?.maxDocumentBytes;
  if (
    asRecord(root.store)?.kind === 'd1' &&
    typeof maxDocumentBytes === 'number' &&
    maxDocumentBytes > D1_ORDER_DOCUMENT_BYTES
  ) {
    add(
      ['orders', 'maxDocumentBytes'],
      `must be at most ${D1_ORDER_DOCUMENT_BYTES} with a D1 store: a Worker has 128 MB of memory, and taking a PO in holds about 30 times its size`,
    );
  }
  return problems;
}

/**
 * The largest OrderRequest `POST /cxml` takes from an authenticated buyer: the configured size, else the
 * default of the store (on D1, what a Worker's memory takes in). Below ANONYMOUS_DOCUMENT_BYTES it makes
 * OrderRequests smaller than other documents may be.
 */
export function orderDocumentLimit(config: {
  readonly orders: { readonly maxDocumentBytes?: number | undefined };
  readonly store: { readonly kind: string };
}): number {
  return (
    config.orders.maxDocumentBytes ??
    (config.store.kind === 'd1' ? D1_ORDER_DOCUMENT_BYTES : DEFAULT_ORDER_DOCUMENT_BYTES)
  );
}

/**
 * Secrets whose strength the gateway relies on, with why a short one is refused. Their previous values
 * (kept during a rotation) are accepted like the current one, so they must be as strong.
 */
const STRONG_SECRETS: readonly {
  field: 'signingKey' | 'adminToken';
  previous: 'previousSigningKeys' | 'previousAdminTokens';
  why: string;
}[] = [
  {
    field: 'signingKey',
    previous: 'previousSigningKeys',
    why: 'it signs the links buyers follow and encrypts the stored print-service passwords, so a short key can be guessed offline',
  },
  {
    field: 'adminToken',
    previous: 'previousAdminTokens',
    why: 'it is the only credential of the /admin API',
  },
];
const MIN_SECRET_LENGTH = 32;

/** A secret as written inline or read from the environment; undefined when neither gives one. */
function secretValue(raw: unknown, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const secret = isSecretRef(raw) ? env[raw.env] : raw;
  return typeof secret === 'string' && secret !== '' ? secret : undefined;
}

/** Strong secrets, current or previous, shorter than the minimum. */
function weakSecretProblems(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
): ConfigProblem[] {
  const root = asRecord(value) ?? {};
  const problems: ConfigProblem[] = [];
  for (const { field, previous, why } of STRONG_SECRETS) {
    const candidates: [PropertyKey[], unknown][] = [
      [[field], root[field]],
      ...asArray(root[previous]).map((raw, i): [PropertyKey[], unknown] => [[previous, i], raw]),
    ];
    for (const [path, raw] of candidates) {
      const secret = secretValue(raw, env);
      if (secret !== undefined && secret.length < MIN_SECRET_LENGTH) {
        problems.push({
          path: formatConfigPath(path),
          message: `must be at least ${MIN_SECRET_LENGTH} characters (${why}); this one has ${secret.length}`,
        });
      }
    }
  }
  return problems;
}

/**
 * A previous secret equal to the current one: harmless to the gateway, but a sign of a rotation written
 * the wrong way round (the new value listed as previous, or the old one left as current), so it is refused.
 */
function rotationProblems(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
): ConfigProblem[] {
  const root = asRecord(value) ?? {};
  const problems: ConfigProblem[] = [];
  const check = (path: PropertyKey[], field: string, current: unknown, previous: unknown) => {
    const now = secretValue(current, env);
    asArray(previous).forEach((raw, i) => {
      const old = secretValue(raw, env);
      if (now === undefined || old === undefined || !constantTimeEqual(old, now)) return;
      problems.push({
        path: formatConfigPath([...path, i]),
        message: `is the same as ${field}: list here only values being retired, and the new one as ${field}`,
      });
    });
  };
  check(['previousSigningKeys'], 'signingKey', root.signingKey, root.previousSigningKeys);
  check(['previousAdminTokens'], 'adminToken', root.adminToken, root.previousAdminTokens);
  asArray(root.buyers).forEach((raw, i) => {
    const buyer = asRecord(raw) ?? {};
    check(
      ['buyers', i, 'previousSharedSecrets'],
      'sharedSecret',
      buyer.sharedSecret,
      buyer.previousSharedSecrets,
    );
    check(['buyers', i, 'previousPasswords'], 'password', buyer.password, buyer.previousPasswords);
    // The test secret tells a test document from a production one: it must be no production secret.
    const testSecret = secretValue(asRecord(buyer.test)?.sharedSecret, env);
    const productionSecrets = [buyer.sharedSecret, ...asArray(buyer.previousSharedSecrets)];
    if (
      testSecret !== undefined &&
      productionSecrets.some((raw) => {
        const secret = secretValue(raw, env);
        return secret !== undefined && constantTimeEqual(secret, testSecret);
      })
    ) {
      problems.push({
        path: formatConfigPath(['buyers', i, 'test', 'sharedSecret']),
        message: 'is the same as a production SharedSecret: a test secret must open test mode only',
      });
    }
  });
  return problems;
}

/**
 * Validates and resolves a config in one pass: schema problems, cross-section problems, environment
 * variables that are referenced but not set, secrets too short, and previous secrets (rotation) equal to the
 * current ones — every one by path, so `check-config`
 * and every runtime list the same problems and a user fixes the file once.
 *
 * @example
 * const result = loadGatewayConfig(JSON.parse(text), process.env);
 * if (!result.ok) for (const p of result.problems) console.error(`${p.path}: ${p.message}`);
 */
export function loadGatewayConfig(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; config: ResolvedConfig } | { ok: false; problems: ConfigProblem[] } {
  const parsed = parseGatewayConfig(value);
  const problems = [...(parsed.ok ? [] : parsed.problems), ...crossReferenceProblems(value)];
  // Resolved from the raw value so unset variables are listed even when other fields are wrong.
  const secrets = resolveConfigSecrets(value as GatewayConfig, env);
  if (!secrets.ok) problems.push(...secrets.problems);
  problems.push(...weakSecretProblems(value, env), ...rotationProblems(value, env));
  const unique = problems.filter(
    (p, i) => problems.findIndex((q) => q.path === p.path && q.message === p.message) === i,
  );
  if (unique.length > 0 || !parsed.ok) return { ok: false, problems: unique };
  return resolveConfigSecrets(parsed.config, env);
}

/** The configuration with every secret reference replaced by its value. */
export type ResolvedSecrets<T> = T extends string
  ? T
  : T extends { env: string }
    ? string
    : T extends readonly (infer U)[]
      ? ResolvedSecrets<U>[]
      : T extends object
        ? { [K in keyof T]: ResolvedSecrets<T[K]> }
        : T;

export type ResolvedConfig = ResolvedSecrets<GatewayConfig>;

function isSecretRef(value: unknown): value is { env: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    typeof (value as { env?: unknown }).env === 'string'
  );
}

/**
 * Replaces every `{ "env": "NAME" }` with the named variable. Missing variables are problems by path, so
 * `check-config` can list them all at once.
 */
export function resolveConfigSecrets(
  config: GatewayConfig,
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; config: ResolvedConfig } | { ok: false; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const walk = (value: unknown, path: PropertyKey[]): unknown => {
    if (isSecretRef(value)) {
      const resolved = env[value.env];
      if (resolved === undefined || resolved === '') {
        problems.push({
          path: formatConfigPath(path),
          message: `environment variable ${value.env} is not set`,
        });
        return '';
      }
      return resolved;
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
    }
    return value;
  };
  const resolved = walk(config, []) as ResolvedConfig;
  return problems.length === 0 ? { ok: true, config: resolved } : { ok: false, problems };
}

/** The JSON Schema of the config file (what an editor validates against); written to config.schema.json. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(GatewayConfig, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://punchgate.dev/schemas/config.schema.json',
    title: 'punchgate gateway configuration',
  };
}
