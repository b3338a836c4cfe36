/**
 * The typed shapes of the inbound cXML requests punchgate handles. Identifiers, amounts and
 * quantities stay strings exactly as sent (`0100`, `1505.0`): a buyer's value is echoed or compared,
 * never reformatted. Amounts also carry a parsed number for arithmetic that tolerates floats.
 */

/** One `<Credential>`: `domain` as sent (compare it case-insensitively), identity trimmed. */
export interface Credential {
  readonly domain: string;
  readonly identity: string;
  readonly sharedSecret?: string;
  /** `marketplace` for a marketplace's second From credential. */
  readonly type?: string;
}

export interface CxmlHeader {
  readonly from: readonly Credential[];
  readonly to: readonly Credential[];
  readonly sender: { readonly credentials: readonly Credential[]; readonly userAgent: string };
}

/** A date or timestamp as sent, and the instant it means when it could be read. */
export interface TimestampValue {
  readonly raw: string;
  readonly date: Date | undefined;
  /** The value had no zone and was read as UTC. */
  readonly assumedUtc: boolean;
  /** The value was a date without a time. */
  readonly dateOnly: boolean;
}

/** `<Money currency>`: the decimal exactly as sent plus its numeric value. */
export interface Money {
  readonly value: string;
  readonly amount: number;
  readonly currency: string;
}

/** Shipping or Tax: an amount with its description. */
export interface Charge extends Money {
  readonly description: string;
}

export interface Extrinsic {
  readonly name: string;
  readonly value: string;
}

/** Extrinsics in document order, with a lookup that ignores the case of names. */
export interface Extrinsics {
  readonly list: readonly Extrinsic[];
  /** The first value whose name matches case-insensitively. */
  get(name: string): string | undefined;
}

export interface Classification {
  readonly domain: string;
  readonly code: string;
}

/** An `<Address>` with its `<PostalAddress>` flattened; blank values are left out. */
export interface Address {
  readonly addressID?: string;
  readonly name: string;
  readonly deliverTo: readonly string[];
  readonly street: readonly string[];
  readonly city?: string;
  readonly municipality?: string;
  readonly state?: string;
  readonly postalCode?: string;
  /** The country as written (`Germany`, `US`). */
  readonly country?: string;
  /** `Country@isoCountryCode`, else `Address@isoCountryCode`. */
  readonly isoCountryCode?: string;
  readonly email?: string;
  readonly phone?: string;
}

export interface Contact {
  readonly role?: string;
  readonly name: string;
  readonly emails: readonly string[];
  readonly phone?: string;
}

/** An item reference: what SelectedItem names and every ItemOut starts with. */
export interface ItemReference {
  readonly supplierPartID: string;
  /** Exactly as sent, whitespace included: it is the supplier's own cookie and is echoed unchanged. */
  readonly supplierPartAuxiliaryID?: string;
}

/** An `<ItemOut>` line. In a setup request (edit/inspect) only the reference and quantity are sure. */
export interface ItemOut extends ItemReference {
  /** `@lineNumber`, or the line's position (from 1) when the buyer sent none, as cXML defines it. */
  readonly lineNumber: number;
  /** The decimal exactly as sent. */
  readonly quantity: string;
  readonly quantityNumber: number;
  readonly requestedDeliveryDate?: TimestampValue;
  readonly unitPrice?: Money;
  /** The first Description's text, else its ShortName, else ''. */
  readonly description: string;
  readonly shortName?: string;
  readonly unitOfMeasure?: string;
  readonly classifications: readonly Classification[];
  readonly manufacturerPartID?: string;
  readonly manufacturerName?: string;
  /** ItemDetail's extrinsics. */
  readonly extrinsics: Extrinsics;
  /** Line Comments' text, several joined by a line break. */
  readonly comments: string;
  readonly shipTo?: Address;
}

/** An OrderRequest line: price and unit are required there. */
export interface OrderItem extends ItemOut {
  readonly unitPrice: Money;
  readonly unitOfMeasure: string;
}

export type DeploymentMode = 'production' | 'test';

/** What every request carries, whatever its kind. */
export interface CxmlRequestCommon {
  readonly version?: string;
  readonly payloadID: string;
  readonly timestamp: TimestampValue;
  readonly lang?: string;
  readonly deploymentMode: DeploymentMode;
  readonly header: CxmlHeader;
  /** The decoded document text (BOM removed). */
  readonly raw: string;
}

export type SetupOperation = 'create' | 'edit' | 'inspect';

export interface PunchOutSetupRequest extends CxmlRequestCommon {
  readonly kind: 'PunchOutSetupRequest';
  readonly operation: SetupOperation;
  /** Exactly as sent, whitespace included; may be ''. Echo it unchanged, never key a session on it. */
  readonly buyerCookie: string;
  /** Where the cart goes back, trimmed and unescaped once. */
  readonly browserFormPost: string;
  readonly supplierSetup?: string;
  readonly extrinsics: Extrinsics;
  readonly contacts: readonly Contact[];
  readonly shipTo?: Address;
  readonly selectedItem?: ItemReference;
  readonly itemOut: readonly ItemOut[];
  /** The `ReturnFrame` extrinsic (Aquiire, Vinimaya): the target frame for the cart form. */
  readonly returnFrame?: string;
}

export type OrderType = 'new' | 'update' | 'delete';

export interface OrderRequest extends CxmlRequestCommon {
  readonly kind: 'OrderRequest';
  readonly orderID: string;
  readonly orderDate?: TimestampValue;
  readonly type: OrderType;
  readonly orderVersion?: string;
  /** DocumentReference@payloadID: the previous OrderRequest an update or delete replaces. */
  readonly previousPayloadID?: string;
  readonly total: Money;
  readonly shipTo?: Address;
  readonly billTo?: Address;
  readonly shipping?: Charge;
  readonly tax?: Charge;
  readonly contacts: readonly Contact[];
  readonly comments: string;
  readonly extrinsics: Extrinsics;
  readonly requestedDeliveryDate?: TimestampValue;
  readonly items: readonly OrderItem[];
}

export interface ProfileRequest extends CxmlRequestCommon {
  readonly kind: 'ProfileRequest';
}

export type CxmlRequest = PunchOutSetupRequest | OrderRequest | ProfileRequest;
