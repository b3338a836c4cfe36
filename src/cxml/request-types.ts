/**
 * The inbound cXML requests punchgate handles, as zod schemas whose inferred types are the request types:
 * what the reader returns is plain data (strings, whole numbers, booleans, arrays, plain objects), so it
 * crosses a worker thread, `structuredClone` and JSON unchanged, and a stored purchase order is the same
 * value checked with the same schema. Identifiers, amounts and quantities stay strings exactly as sent
 * (`0100`, `1505.0`): a buyer's value is echoed or compared, never reformatted, and arithmetic on it goes
 * through `kernel/decimal.ts`, never a float. Lists are plain arrays rather than readonly ones, so a value
 * is the store's `JsonValue` as it is.
 */
import * as z from 'zod';

/** A property that is absent rather than `undefined` when there is nothing, as JSON keeps it. */
const optional = <T extends z.ZodType>(schema: T) => schema.exactOptional();

/** One `<Credential>`: `domain` as sent (compare it case-insensitively), identity trimmed. */
export const credentialSchema = z.object({
  domain: z.string(),
  identity: z.string(),
  sharedSecret: optional(z.string()),
  /** `marketplace` for a marketplace's second From credential. */
  type: optional(z.string()),
});
export type Credential = z.infer<typeof credentialSchema>;

export const cxmlHeaderSchema = z.object({
  from: z.array(credentialSchema),
  to: z.array(credentialSchema),
  sender: z.object({ credentials: z.array(credentialSchema), userAgent: z.string() }),
});
export type CxmlHeader = z.infer<typeof cxmlHeaderSchema>;

/**
 * A date or timestamp as sent, and the instant it means when it could be read (`instant`, ISO 8601 in UTC
 * as `Date.prototype.toISOString` writes it; absent when the value could not be read).
 */
export const timestampValueSchema = z.object({
  raw: z.string(),
  instant: optional(z.iso.datetime()),
  /** The value had no zone and was read as UTC. */
  assumedUtc: z.boolean(),
  /** The value was a date without a time. */
  dateOnly: z.boolean(),
});
export type TimestampValue = z.infer<typeof timestampValueSchema>;

/** `<Money currency>`: the decimal exactly as sent. */
export const moneySchema = z.object({ value: z.string(), currency: z.string() });
export type Money = z.infer<typeof moneySchema>;

/** Shipping or Tax: an amount with its description. */
export const chargeSchema = moneySchema.extend({ description: z.string() });
export type Charge = z.infer<typeof chargeSchema>;

/** One `<Extrinsic name>`; a request's extrinsics are a list in document order (see `extrinsicValue`). */
export const extrinsicSchema = z.object({ name: z.string(), value: z.string() });
export type Extrinsic = z.infer<typeof extrinsicSchema>;
export const extrinsicListSchema = z.array(extrinsicSchema);

export const classificationSchema = z.object({ domain: z.string(), code: z.string() });
export type Classification = z.infer<typeof classificationSchema>;

/** An `<Address>` with its `<PostalAddress>` flattened; blank values are left out. */
export const addressSchema = z.object({
  addressID: optional(z.string()),
  name: z.string(),
  deliverTo: z.array(z.string()),
  street: z.array(z.string()),
  city: optional(z.string()),
  municipality: optional(z.string()),
  state: optional(z.string()),
  postalCode: optional(z.string()),
  /** The country as written (`Germany`, `US`). */
  country: optional(z.string()),
  /** `Country@isoCountryCode`, else `Address@isoCountryCode`. */
  isoCountryCode: optional(z.string()),
  email: optional(z.string()),
  phone: optional(z.string()),
});
export type Address = z.infer<typeof addressSchema>;

export const contactSchema = z.object({
  role: optional(z.string()),
  name: z.string(),
  emails: z.array(z.string()),
  phone: optional(z.string()),
});
export type Contact = z.infer<typeof contactSchema>;

/**
 * `<ControlKeys>`: the buyer's instructions on which documents the supplier may send for the order or a
 * line, overriding the network's defaults (cXML.dtd). Each is absent when the buyer gave none.
 */
export const controlKeysSchema = z.object({
  /** OCInstruction: may a ConfirmationRequest be sent; `requiredBeforeASN`: one must precede a ship notice. */
  ocInstruction: optional(z.enum(['allowed', 'notAllowed', 'requiredBeforeASN'])),
  /** ASNInstruction: may a ShipNoticeRequest be sent. */
  asnInstruction: optional(z.enum(['allowed', 'notAllowed'])),
  /**
   * InvoiceInstruction: `isERS` (evaluated receipt settlement: the buyer pays from its goods receipt, so a
   * supplier invoice would bill twice) and `notAllowed` forbid invoices; `isNotERS` and `allowed` do not.
   */
  invoiceInstruction: optional(z.enum(['isERS', 'isNotERS', 'allowed', 'notAllowed'])),
  /** InvoiceInstruction/TemporaryPrice value="yes": the price is not final, so it may not be invoiced. */
  temporaryPrice: optional(z.boolean()),
});
export type ControlKeys = z.infer<typeof controlKeysSchema>;

/** One `<AccountingSegment id>` (or the deprecated `<Segment type id description>`, its type as the name). */
export const accountingSegmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type AccountingSegment = z.infer<typeof accountingSegmentSchema>;

/** One `<Distribution>`: an accounting object (cost centre, GL account, …) and the share charged to it. */
export const distributionSchema = z.object({
  /** `Accounting@name`, e.g. `DistributionCharge`. */
  accountingName: z.string(),
  segments: z.array(accountingSegmentSchema),
  /** `Charge/Money`; absent when the buyer sent no Charge. */
  charge: optional(moneySchema),
});
export type Distribution = z.infer<typeof distributionSchema>;

/** An item reference: what SelectedItem names and every ItemOut starts with. */
export const itemReferenceSchema = z.object({
  supplierPartID: z.string(),
  /** Exactly as sent, whitespace included: it is the supplier's own cookie and is echoed unchanged. */
  supplierPartAuxiliaryID: optional(z.string()),
});
export type ItemReference = z.infer<typeof itemReferenceSchema>;

/**
 * `ItemDetail/PriceBasisQuantity`: the UnitPrice is for `quantity` units of `unitOfMeasure`, one ordered
 * unit being `conversionFactor` of them (45.20 per 1,000 EA: quantity `1000`, conversionFactor `1`).
 * Values exactly as sent; a line's amount is quantity × price × conversionFactor ÷ basis quantity.
 */
export const priceBasisQuantitySchema = z.object({
  quantity: z.string(),
  conversionFactor: z.string(),
  unitOfMeasure: z.string(),
  description: optional(z.string()),
});
export type PriceBasisQuantity = z.infer<typeof priceBasisQuantitySchema>;

/** An `<ItemOut>` line. In a setup request (edit/inspect) only the reference and quantity are sure. */
export const itemOutSchema = itemReferenceSchema.extend({
  /** `@lineNumber`, or the line's position (from 1) when the buyer sent none, as cXML defines it. */
  lineNumber: z.number().int(),
  /** The decimal exactly as sent. */
  quantity: z.string(),
  requestedDeliveryDate: optional(timestampValueSchema),
  unitPrice: optional(moneySchema),
  /** The first Description's text, else its ShortName, else ''. */
  description: z.string(),
  shortName: optional(z.string()),
  unitOfMeasure: optional(z.string()),
  /** What the UnitPrice is quoted for, when not one ordered unit. */
  priceBasis: optional(priceBasisQuantitySchema),
  classifications: z.array(classificationSchema),
  manufacturerPartID: optional(z.string()),
  manufacturerName: optional(z.string()),
  /** ItemDetail's extrinsics. */
  extrinsics: extrinsicListSchema,
  /** Line Comments' text, several joined by a line break. */
  comments: z.string(),
  shipTo: optional(addressSchema),
  /** The line's accounting, in document order; absent when it has none. */
  distribution: optional(z.array(distributionSchema)),
  /** The line's own ControlKeys; each instruction it gives overrides the header's. */
  controlKeys: optional(controlKeysSchema),
});
export type ItemOut = z.infer<typeof itemOutSchema>;

/** An OrderRequest line: price and unit are required there. */
export const orderItemSchema = itemOutSchema.extend({ unitPrice: moneySchema, unitOfMeasure: z.string() });
export type OrderItem = z.infer<typeof orderItemSchema>;

export const deploymentModeSchema = z.enum(['production', 'test']);
export type DeploymentMode = z.infer<typeof deploymentModeSchema>;

/** An `Attachment` the document names: its URL as sent and where it stands. */
export const attachmentReferenceSchema = z.object({
  /** `cid:<Content-ID>` for a part of the same MIME message; buyers also send plain URLs or file names. */
  url: z.string(),
  /** The element's path from the request document: `OrderRequest/ItemOut[2]/Comments/Attachment`. */
  at: z.string(),
});
export type AttachmentReference = z.infer<typeof attachmentReferenceSchema>;

/** What every request carries, whatever its kind. */
export const cxmlRequestCommonSchema = z.object({
  version: optional(z.string()),
  payloadID: z.string(),
  timestamp: timestampValueSchema,
  lang: optional(z.string()),
  deploymentMode: deploymentModeSchema,
  header: cxmlHeaderSchema,
  /** Every Attachment it names (none read back from POs stored before attachments were read). */
  attachments: z.array(attachmentReferenceSchema).default([]),
  /** The decoded document text (BOM removed). */
  raw: z.string(),
});
export type CxmlRequestCommon = z.infer<typeof cxmlRequestCommonSchema>;

export const setupOperationSchema = z.enum(['create', 'edit', 'inspect']);
export type SetupOperation = z.infer<typeof setupOperationSchema>;

export const punchOutSetupRequestSchema = cxmlRequestCommonSchema.extend({
  kind: z.literal('PunchOutSetupRequest'),
  operation: setupOperationSchema,
  /** Exactly as sent, whitespace included; may be ''. Echo it unchanged, never key a session on it. */
  buyerCookie: z.string(),
  /** Where the cart goes back, trimmed and unescaped once. */
  browserFormPost: z.string(),
  supplierSetup: optional(z.string()),
  extrinsics: extrinsicListSchema,
  contacts: z.array(contactSchema),
  shipTo: optional(addressSchema),
  selectedItem: optional(itemReferenceSchema),
  itemOut: z.array(itemOutSchema),
  /** The `ReturnFrame` extrinsic (Aquiire, Vinimaya): the target frame for the cart form. */
  returnFrame: optional(z.string()),
});
export type PunchOutSetupRequest = z.infer<typeof punchOutSetupRequestSchema>;

export const orderTypeSchema = z.enum(['new', 'update', 'delete']);
export type OrderType = z.infer<typeof orderTypeSchema>;

export const orderRequestSchema = cxmlRequestCommonSchema.extend({
  kind: z.literal('OrderRequest'),
  orderID: z.string(),
  orderDate: optional(timestampValueSchema),
  type: orderTypeSchema,
  orderVersion: optional(z.string()),
  /** DocumentReference@payloadID: the previous OrderRequest an update or delete replaces. */
  previousPayloadID: optional(z.string()),
  total: moneySchema,
  shipTo: optional(addressSchema),
  billTo: optional(addressSchema),
  shipping: optional(chargeSchema),
  tax: optional(chargeSchema),
  contacts: z.array(contactSchema),
  comments: z.string(),
  extrinsics: extrinsicListSchema,
  requestedDeliveryDate: optional(timestampValueSchema),
  /** OrderRequestHeader's ControlKeys: the instructions for every line that gives none of its own. */
  controlKeys: optional(controlKeysSchema),
  /**
   * The buyer's VAT id, as the PO names it (BillTo's or a soldTo Contact's `IdReference domain="vatID"`,
   * else SAP Ariba's header `Extrinsic name="buyerVatID"`), for the invoice to echo; absent when none.
   */
  buyerVatID: optional(z.string()),
  items: z.array(orderItemSchema),
});
export type OrderRequest = z.infer<typeof orderRequestSchema>;

export const profileRequestSchema = cxmlRequestCommonSchema.extend({ kind: z.literal('ProfileRequest') });
export type ProfileRequest = z.infer<typeof profileRequestSchema>;

/**
 * `InvoiceStatus@type` as Fulfill.dtd enumerates it: where the buyer's accounts payable stands with an
 * invoice. `rejected` means it will not be paid as sent; `paid` that it was (in part, with a PartialAmount).
 */
export const INVOICE_STATUS_TYPES = [
  'processing',
  'canceled',
  'reconciled',
  'rejected',
  'paying',
  'paid',
] as const;
export const invoiceStatusTypeSchema = z.enum(INVOICE_STATUS_TYPES);
export type InvoiceStatusType = z.infer<typeof invoiceStatusTypeSchema>;

/** `<InvoiceStatus>`: the buyer's word on an invoice the supplier sent. */
export const invoiceStatusSchema = z.object({
  type: invoiceStatusTypeSchema,
  /** `InvoiceIDInfo@invoiceID`: the invoice named by its invoiceID, where DocumentReference may be left out. */
  invoiceID: optional(z.string()),
  invoiceDate: optional(timestampValueSchema),
  /** What the buyer paid, where it is not the whole amount (relevant to `paid`). */
  partialAmount: optional(moneySchema),
  paymentNetDueDate: optional(timestampValueSchema),
  /** Its Comments' text, several joined by a line break ('' when none). */
  comments: z.string(),
});
export type InvoiceStatus = z.infer<typeof invoiceStatusSchema>;

/** A `<Status>` as a buyer sends it about a document: code, text and its content (the specifics). */
export const reportedStatusSchema = z.object({
  code: z.number().int(),
  text: z.string(),
  message: z.string(),
});
export type ReportedStatus = z.infer<typeof reportedStatusSchema>;

/**
 * `StatusUpdateRequest`: the buyer's word on a document the supplier sent, asynchronously — an invoice's
 * InvoiceStatus, or the Status of any other document (say, a ConfirmationRequest its system processed).
 */
export const statusUpdateRequestSchema = cxmlRequestCommonSchema.extend({
  kind: z.literal('StatusUpdateRequest'),
  /**
   * `DocumentReference@payloadID`: the document the status is about. Absent only where an InvoiceStatus
   * names its invoice by InvoiceIDInfo, as cXML allows.
   */
  documentPayloadID: optional(z.string()),
  status: reportedStatusSchema,
  invoiceStatus: optional(invoiceStatusSchema),
  extrinsics: extrinsicListSchema,
});
export type StatusUpdateRequest = z.infer<typeof statusUpdateRequestSchema>;

export const cxmlRequestSchema = z.discriminatedUnion('kind', [
  punchOutSetupRequestSchema,
  orderRequestSchema,
  profileRequestSchema,
  statusUpdateRequestSchema,
]);
export type CxmlRequest = z.infer<typeof cxmlRequestSchema>;
