/**
 * The exceptions an operator is told of, as plain data: what happened (`event`), what it is about
 * (`subject`: a PO, a storefront, a buyer, the background round) and why (`cause`, which also tells one
 * episode from the next where the same thing can go wrong again: a new outage, another day of refusals).
 * An exception is announced once per channel under its key, subject and cause.
 *
 * Pure: no `node:*`, no I/O.
 */
import { FLAG } from '../orders/po-record.ts';
import type { PurchaseOrder } from '../../store/types.ts';

export const EXCEPTION_EVENTS = [
  'po_needs_operator',
  'invoice_held',
  'invoice_rejected',
  'document_dead',
  'job_dead',
  'background_round_overdue',
  'print_service_failing',
  'buyer_refused_repeatedly',
] as const;
export type ExceptionEvent = (typeof EXCEPTION_EVENTS)[number];

export interface OpenException {
  event: ExceptionEvent;
  /** `po:<id>`, `job:<id>`, `storefront:<id>`, `buyer:<id>`, `background-round`. */
  subject: string;
  cause: string;
  /** One line an operator reads: which PO or party, and what is wrong. */
  summary: string;
  /** Where in the console it is settled (an absolute URL), when there is such a page. */
  link?: string;
}

/** What the notification log remembers an announced exception by. */
export function announcementKey(exception: Pick<OpenException, 'subject' | 'cause'>): string {
  return `${exception.subject}|${exception.cause}`;
}

/** PO flags that are exceptions of their own: a PO with one is announced as that, not as "needs an operator". */
const FLAG_EVENTS: readonly { flag: string; event: ExceptionEvent; what: string }[] = [
  { flag: FLAG.invoiceHeld, event: 'invoice_held', what: 'invoice held' },
  // Set when the buyer answers an invoice with a rejection (InvoiceDetail status "rejected").
  { flag: 'invoice_rejected', event: 'invoice_rejected', what: 'invoice rejected by the buyer' },
  { flag: FLAG.documentDead, event: 'document_dead', what: 'a document to the buyer was given up' },
];

/** The subject and cause a dead document of a PO is announced under, whether found by flag or by dead letter. */
export function deadDocumentException(
  po: { id: string; orderId?: string; buyerId: string },
  detail: string,
  link: string | undefined,
): OpenException {
  const number = po.orderId === undefined ? `PO record ${po.id}` : `PO ${po.orderId}`;
  return {
    event: 'document_dead',
    subject: `po:${po.id}`,
    cause: 'document_dead',
    summary: `${number} of buyer ${po.buyerId}: a document to the buyer was given up (${detail})`,
    ...(link !== undefined && { link }),
  };
}

/**
 * What a PO waiting for an operator is announced as: each of its exception flags, or, with none of them,
 * that it needs an operator (with its last error).
 */
export function purchaseOrderExceptions(
  po: Pick<PurchaseOrder, 'id' | 'orderId' | 'buyerId' | 'flags' | 'lastError'>,
  link: string | undefined,
): OpenException[] {
  const reason = po.lastError === undefined ? '' : `: ${po.lastError}`;
  const flagged = FLAG_EVENTS.filter(({ flag }) => po.flags.includes(flag));
  const base = { subject: `po:${po.id}`, ...(link !== undefined && { link }) };
  if (flagged.length === 0) {
    return [
      {
        ...base,
        event: 'po_needs_operator',
        cause: 'needs_operator',
        summary: `PO ${po.orderId} of buyer ${po.buyerId} needs an operator${reason}`,
      },
    ];
  }
  return flagged.map(({ flag, event, what }) =>
    event === 'document_dead'
      ? deadDocumentException(po, 'flagged on the PO', link)
      : { ...base, event, cause: flag, summary: `PO ${po.orderId} of buyer ${po.buyerId}: ${what}${reason}` },
  );
}
