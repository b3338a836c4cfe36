/**
 * What the simulated procurement system remembers about a requisition: its lines as the catalog returned
 * them, each punch-out session, the purchase order with the supplier's confirmations and ship notices,
 * and every document exchanged on the way, kept verbatim for people learning the protocols.
 */

export interface ClassificationValue {
  readonly domain: string;
  readonly code: string;
}

/** A requisition line: what a cXML ItemIn or an OCI NEW_ITEM-*[n] brought back. */
export interface RequisitionLine {
  readonly source: 'cxml' | 'oci';
  /** cXML SupplierPartID / OCI VENDORMAT. */
  readonly supplierPartID: string;
  /** cXML SupplierPartAuxiliaryID exactly as received / OCI EXT_PRODUCT_ID. */
  readonly supplierPartAuxiliaryID?: string;
  readonly description: string;
  /** cXML ShortName. */
  readonly shortName?: string;
  /** OCI long text. */
  readonly longText?: string;
  /** The decimal as received. */
  readonly quantity: string;
  /** The price as received (cXML UnitPrice, OCI PRICE): of `priceBasis` units when there is one. */
  readonly unitPrice: string;
  readonly currency: string;
  readonly unitOfMeasure: string;
  /**
   * What the price is for when not one unit: cXML PriceBasisQuantity as received, or OCI PRICEUNIT (with
   * factor 1 and the line's UNIT). The PO repeats it, so the supplier reads the price as quoted.
   */
  readonly priceBasis?: {
    readonly quantity: string;
    readonly conversionFactor: string;
    readonly unitOfMeasure: string;
  };
  readonly classifications: readonly ClassificationValue[];
  readonly manufacturerPartID?: string;
  readonly manufacturerName?: string;
  readonly url?: string;
  /** Days, as received. */
  readonly leadTime?: string;
  /** ItemDetail extrinsics (cXML). */
  readonly extrinsics: readonly { readonly name: string; readonly value: string }[];
}

export type PunchoutOperation = 'create' | 'edit' | 'inspect';

export interface PunchoutSession {
  /** 1, 2, 3… within the requisition. */
  readonly number: number;
  readonly operation: PunchoutOperation;
  readonly protocol: 'cxml' | 'oci';
  readonly startedAt: string;
  /** cXML: the BuyerCookie sent, which the cart must echo. */
  readonly buyerCookie?: string;
  /** cXML: the StartPage the gateway answered. */
  readonly startPageUrl?: string;
  /** OCI: the punch-in fields the browser posts into the catalog frame. */
  readonly punchInFields?: readonly (readonly [string, string])[];
  readonly state: 'open' | 'returned' | 'failed' | 'closed';
}

export type DocumentDirection = 'sent' | 'received';

/** One document exchanged, verbatim. */
export interface ExchangedDocument {
  readonly number: number;
  readonly at: string;
  readonly direction: DocumentDirection;
  /** e.g. `PunchOutSetupRequest`, `OCI cart (NEW_ITEM-*)`. */
  readonly title: string;
  /** Who it went to or came from, e.g. `POST http://127.0.0.1:8080/cxml`. */
  readonly route: string;
  readonly body: string;
  /** How it was carried or decoded, e.g. `form field cxml-base64, decoded as UTF-8`. */
  readonly note?: string;
}

export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  readonly at: string;
  readonly level: NoticeLevel;
  readonly text: string;
}

export interface StatusAnswer {
  /** The cXML Status code, or 0 when no cXML answer could be read. */
  readonly code: number;
  readonly text: string;
  readonly detail: string;
}

export interface ConfirmationView {
  readonly receivedAt: string;
  readonly payloadID: string;
  readonly type: string;
  readonly operation: string;
  readonly confirmID?: string;
  readonly noticeDate: string;
  readonly comments: string;
  readonly orderPayloadID?: string;
  readonly extrinsics: readonly { readonly name: string; readonly value: string }[];
  readonly items: readonly {
    readonly lineNumber: string;
    readonly quantity: string;
    readonly unitOfMeasure: string;
    readonly statuses: readonly {
      readonly type: string;
      readonly quantity: string;
      readonly shipmentDate?: string;
      readonly deliveryDate?: string;
      readonly unitPrice?: string;
      readonly comments: string;
    }[];
  }[];
}

export interface ShipNoticeView {
  readonly receivedAt: string;
  readonly payloadID: string;
  readonly shipmentID: string;
  readonly operation: string;
  readonly noticeDate: string;
  readonly shipmentDate?: string;
  readonly deliveryDate?: string;
  readonly serviceLevel?: string;
  readonly comments: string;
  readonly orderPayloadID?: string;
  readonly carriers: readonly { readonly domain: string; readonly name: string }[];
  readonly tracking: readonly { readonly number: string; readonly url?: string }[];
  /** Empty: the whole order shipped (cXML's rule for a portion without items). */
  readonly items: readonly {
    readonly lineNumber: string;
    readonly quantity: string;
    readonly unitOfMeasure: string;
    readonly supplierPartID?: string;
  }[];
}

/** One InvoiceDetailItem as received: amounts as decimal text, in the invoice's currency. */
export interface InvoiceLineView {
  readonly invoiceLineNumber: string;
  /** The PO line it bills (InvoiceDetailItemReference@lineNumber). */
  readonly lineNumber: string;
  readonly quantity: string;
  readonly unitOfMeasure: string;
  readonly unitPrice: string;
  /** What the unit price is for, when the invoice quotes it per more than one unit (as the PO did). */
  readonly priceBasis?: RequisitionLine['priceBasis'];
  readonly subtotal: string;
  /** The line's Tax, with isTaxInLine. */
  readonly tax?: string;
  readonly supplierPartID?: string;
  readonly description?: string;
}

/** An InvoiceDetailRequest the supplier sent for the order, accepted or not, with the answer it got. */
export interface InvoiceView {
  readonly receivedAt: string;
  readonly payloadID: string;
  /** The URL it was posted to (the order-status endpoint, or a profile's own invoice URL). */
  readonly endpoint: string;
  readonly invoiceID: string;
  /** `standard` or `creditMemo` (others are refused). */
  readonly purpose: string;
  readonly operation: string;
  readonly invoiceDate: string;
  /** A credit memo's InvoiceIDInfo@invoiceID: the invoice it credits. */
  readonly creditedInvoiceID?: string;
  readonly orderPayloadID?: string;
  readonly currency: string;
  readonly taxInLine: boolean;
  /** Net days from PaymentTerm / InvoiceDetailPaymentTerm payInNumberOfDays (the longest given). */
  readonly paymentTermDays?: number;
  /** invoiceDate's calendar day plus the payment term, `YYYY-MM-DD`. */
  readonly dueDate?: string;
  readonly lines: readonly InvoiceLineView[];
  readonly subtotal: string;
  readonly tax: string;
  readonly shipping: string;
  readonly specialHandling: string;
  readonly discount: string;
  readonly net: string;
  readonly due: string;
  readonly comments: string;
  /** The cXML Status it was answered with: 200 accepted, 4xx refused with the reason in `detail`. */
  readonly answer: StatusAnswer;
  /** How many times this document (same invoiceID and payloadID) arrived; a resend is kept once. */
  readonly received: number;
  /** What accounts payable told the supplier of it (StatusUpdateRequest), in the order sent. */
  readonly statusUpdates?: readonly InvoiceStatusSent[];
}

/** A StatusUpdateRequest the buyer sent about an invoice, with the supplier's answer. */
export interface InvoiceStatusSent {
  readonly sentAt: string;
  readonly payloadID: string;
  readonly type: 'rejected' | 'paid';
  readonly comments: string;
  readonly answer: StatusAnswer;
}

export interface PurchaseOrder {
  readonly orderID: string;
  readonly payloadID: string;
  readonly orderDate: string;
  /** The OrderRequest as sent; a retry sends exactly this again (same payloadID, as cXML requires). */
  readonly document: string;
  readonly attempts: number;
  readonly answer: StatusAnswer;
  readonly confirmations: readonly ConfirmationView[];
  readonly shipNotices: readonly ShipNoticeView[];
  /** Invoices and credit memos received for the order, accepted or refused, in arrival order. */
  readonly invoices?: readonly InvoiceView[];
}

/** A cart's Shipping or Tax, as the PunchOutOrderMessageHeader carried it. */
export interface CartCharge {
  readonly value: string;
  readonly currency: string;
  readonly description: string;
}

/** The charges the supplier's carts quoted, which the PO's header repeats. */
export interface RequisitionCharges {
  readonly shipping?: CartCharge;
  readonly tax?: CartCharge;
}

export interface Requisition {
  readonly id: string;
  readonly profileId: string;
  readonly userId: string;
  readonly createdAt: string;
  readonly lines: readonly RequisitionLine[];
  /** Shipping and tax from the carts (summed over create carts, replaced by an edit's); absent: none. */
  readonly charges?: RequisitionCharges;
  readonly punchouts: readonly PunchoutSession[];
  readonly documents: readonly ExchangedDocument[];
  readonly notices: readonly Notice[];
  readonly order?: PurchaseOrder;
  /**
   * `test` for a requisition of the procurement system's test account: its punch-outs and its PO are sent
   * with cXML `deploymentMode="test"`, and the supplier answers in kind. Absent: production.
   */
  readonly deploymentMode?: 'test';
  /** Counts every change, so an open page can tell that something arrived. */
  readonly revision: number;
}
