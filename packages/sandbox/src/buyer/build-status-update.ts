/**
 * The buyer's word on an invoice: a cXML StatusUpdateRequest with an InvoiceStatus, as a buyer's accounts
 * payable sends one asynchronously — `DocumentReference` naming the invoice document's payloadID, then the
 * Status, then `InvoiceStatus` with `InvoiceIDInfo` and the clerk's Comments (cXML.dtd's order).
 */
import { el } from 'punchgate/cxml';
import { requestAttributes, writeBuyerDocument } from './cxml-document.ts';
import type { BuyerProfile } from './profiles.ts';

/** What the simulator's accounts payable can say of an invoice. */
export type InvoiceStatusChoice = 'rejected' | 'paid';

export interface InvoiceStatusInput {
  readonly profile: BuyerProfile;
  readonly payloadID: string;
  readonly timestamp: Date;
  /** The invoice document's payloadID, and its invoiceID and invoiceDate as it carried them. */
  readonly invoice: { readonly payloadID: string; readonly invoiceID: string; readonly invoiceDate: string };
  readonly type: InvoiceStatusChoice;
  readonly comments: string;
  readonly deploymentMode?: 'test';
}

/**
 * @example
 * const xml = buildInvoiceStatusUpdate({ profile: ARIBA_PROFILE, payloadID, timestamp: new Date(),
 *   invoice: { payloadID: invoice.payloadID, invoiceID: 'INV-000001', invoiceDate: invoice.invoiceDate },
 *   type: 'rejected', comments: 'Shipping was not on the PO' });
 */
export function buildInvoiceStatusUpdate(input: InvoiceStatusInput): string {
  const { profile, invoice } = input;
  const comments = input.comments.trim();
  return writeBuyerDocument({
    style: profile.style,
    payloadID: input.payloadID,
    timestamp: input.timestamp,
    identity: profile.cxml,
    body: el(
      'Request',
      requestAttributes(input.deploymentMode),
      el(
        'StatusUpdateRequest',
        {},
        el('DocumentReference', { payloadID: invoice.payloadID }),
        el('Status', { code: '200', text: 'OK' }),
        el(
          'InvoiceStatus',
          { type: input.type },
          el('InvoiceIDInfo', { invoiceID: invoice.invoiceID, invoiceDate: invoice.invoiceDate }),
          comments !== '' && el('Comments', { 'xml:lang': profile.style.lang }, comments),
        ),
      ),
    ),
  });
}
