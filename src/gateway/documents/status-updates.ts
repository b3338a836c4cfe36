/**
 * The buyer's word on the documents we sent: a `StatusUpdateRequest`, recorded against the document its
 * DocumentReference names and, for an `InvoiceStatus`, against the invoice (named by InvoiceIDInfo or by
 * the invoice document's payloadID). A buyer reports only on what was sent to it: a reference to anything
 * else is refused with the field named, and nothing is recorded. Each request is recorded once (a retried
 * one is answered alike and changes nothing more).
 *
 * What follows from it: `rejected` parks the invoice's PO for an operator (flag `invoice_rejected`, the
 * buyer's comments as the reason), since the shop is not paid until someone answers the buyer (a credit
 * memo, a corrected invoice); a later `paid` of that invoice puts a PO that waited only for it back to
 * `ordered` (or `cancelled`, where it has no print order). Every other status is recorded and shown, and changes nothing else.
 */
import type { DeploymentMode, StatusUpdateRequest } from '../../cxml/index.ts';
import type { Invoice, OutboxMessage, StatusUpdate } from '../../store/types.ts';
import type { GatewayContext } from '../context.ts';
import type { ResolvedBuyer } from '../deps.ts';
import { GatewayError } from '../http/errors.ts';
import { documentKey } from '../invoices/invoicing.ts';
import { awaitOperator, endOperatorWait, type OperatorMatter } from '../orders/operator-wait.ts';
import { FLAG } from '../orders/po-record.ts';

/** How the PO's lastError begins while it waits over a rejected invoice. */
const INVOICE_REJECTED = 'Invoice rejected by the buyer: ';

/** What the request is about: the document it names, the invoice an InvoiceStatus reports on, their PO. */
interface StatusTarget {
  poId: string;
  document?: OutboxMessage;
  invoice?: Invoice;
}

const REFERENCE = 'StatusUpdateRequest/DocumentReference';
const ID_INFO = 'InvoiceStatus/InvoiceIDInfo';

async function referencedDocument(
  ctx: GatewayContext,
  buyer: ResolvedBuyer,
  payloadId: string,
): Promise<OutboxMessage> {
  const document = await ctx.store.outbox.findByPayloadId(buyer.id, payloadId);
  if (document === undefined) {
    throw new GatewayError(
      'not_found',
      `${REFERENCE} payloadID "${payloadId}" names no document sent to this buyer.`,
    );
  }
  return document;
}

/** The invoice a document carries (its first send or a re-send); undefined for any other document. */
async function invoiceOfDocument(ctx: GatewayContext, document: OutboxMessage): Promise<Invoice | undefined> {
  if (document.kind !== 'invoice') return undefined;
  const key = documentKey(document);
  return (await ctx.store.invoices.listByPo(document.poId)).find((invoice) => invoice.dedupeKey === key);
}

/**
 * The document and invoice the request names, each looked up among the buyer's own only (another buyer's
 * reads as unknown: a buyer learns nothing of what was sent to others). A `GatewayError` names the field.
 */
async function findTarget(
  ctx: GatewayContext,
  request: StatusUpdateRequest,
  buyer: ResolvedBuyer,
): Promise<StatusTarget> {
  const { documentPayloadID: payloadId, invoiceStatus } = request;
  const document = payloadId === undefined ? undefined : await referencedDocument(ctx, buyer, payloadId);
  if (invoiceStatus === undefined) return { poId: document!.poId, document: document! };
  const invoiceId = invoiceStatus.invoiceID;
  const byId =
    invoiceId === undefined ? undefined : await ctx.store.invoices.getByInvoiceId(buyer.id, invoiceId);
  if (invoiceId !== undefined && byId === undefined) {
    throw new GatewayError(
      'not_found',
      `${ID_INFO} invoiceID "${invoiceId}" names no invoice sent to this buyer.`,
    );
  }
  const byDocument = document === undefined ? undefined : await invoiceOfDocument(ctx, document);
  if (document !== undefined && byDocument === undefined) {
    throw new GatewayError(
      'bad_request',
      `${REFERENCE} payloadID "${payloadId}" names a ${document.kind.replace('_', ' ')} document, not an invoice; ` +
        'an InvoiceStatus reports on an InvoiceDetailRequest.',
    );
  }
  if (byId !== undefined && byDocument !== undefined && byId.id !== byDocument.id) {
    throw new GatewayError(
      'bad_request',
      `${ID_INFO} invoiceID "${invoiceId}" is not the invoice ${REFERENCE} names (${byDocument.invoiceId}).`,
    );
  }
  const invoice = (byId ?? byDocument)!;
  return { poId: invoice.poId, invoice, ...(document !== undefined && { document }) };
}

/**
 * Records a proven buyer's StatusUpdateRequest and acts on it; answers the Status to send back. A reference
 * the buyer may not make is a `GatewayError` (`not_found`, `bad_request`) naming the field, before anything
 * is written.
 */
export async function receiveStatusUpdate(
  ctx: GatewayContext,
  request: StatusUpdateRequest,
  buyer: ResolvedBuyer,
  mode: DeploymentMode,
): Promise<{ code: number }> {
  const target = await findTarget(ctx, request, buyer);
  const po = await ctx.store.orders.get(target.poId);
  // A test document speaks of test orders only, and a production one of production orders: the buyer's
  // test system must not park (or settle) a real order, whatever payloadID or invoiceID it names.
  if (po !== undefined && po.deploymentMode !== mode) {
    throw new GatewayError(
      'deployment_mode_mismatch',
      `This StatusUpdateRequest carries deploymentMode "${mode}" but names a document of ${po.deploymentMode} ` +
        `purchase order ${po.orderId}; send it in the order's mode.`,
    );
  }
  const { invoiceStatus } = request;
  const { created, update } = await ctx.store.statusUpdates.record({
    buyerId: buyer.id,
    poId: target.poId,
    payloadId: request.payloadID,
    ...(target.document !== undefined && { documentId: target.document.id }),
    ...(target.invoice !== undefined && { invoiceRecordId: target.invoice.id }),
    status: request.status,
    ...(invoiceStatus !== undefined && { invoiceStatus: invoiceStatus.type }),
    ...(invoiceStatus?.partialAmount !== undefined && { partialAmount: invoiceStatus.partialAmount }),
    comments: invoiceStatus?.comments ?? '',
  });
  if (created) {
    ctx.logger.info('status update from buyer recorded', {
      buyer: buyer.id,
      po: target.poId,
      payloadID: request.payloadID,
      invoice: target.invoice?.invoiceId,
      invoiceStatus: invoiceStatus?.type,
      code: request.status.code,
    });
    if (target.invoice !== undefined && update.invoiceStatus === 'rejected') {
      await parkRejectedInvoice(ctx, target.invoice, update);
    }
    if (target.invoice !== undefined && update.invoiceStatus === 'paid') {
      await settleRejectedInvoice(ctx, target.invoice);
    }
  }
  return { code: 200 };
}

/** A rejected invoice, as the PO's wait for an operator names it. */
const REJECTED_INVOICE: OperatorMatter = {
  flag: FLAG.invoiceRejected,
  prefix: INVOICE_REJECTED,
  from: ['ordered', 'cancelled'],
};

function rejectionReason(invoiceId: string, comments: string): string {
  const said = comments.trim() === '' ? 'no comments given' : `their comments: ${comments}`;
  return `${INVOICE_REJECTED}${invoiceId} (${said}). Answer the buyer (a credit memo, a corrected invoice), then mark the PO handled.`;
}

/** Puts the PO of a rejected invoice in the operators' queue with the buyer's words (see `awaitOperator`). */
async function parkRejectedInvoice(
  ctx: GatewayContext,
  invoice: Invoice,
  update: StatusUpdate,
): Promise<void> {
  await awaitOperator(
    ctx,
    invoice.poId,
    REJECTED_INVOICE,
    rejectionReason(invoice.invoiceId, update.comments),
  );
}

/**
 * The rejection another of the PO's invoices still stands under (its latest InvoiceStatus is `rejected`),
 * as the PO's reason; undefined when none does.
 */
async function otherRejection(ctx: GatewayContext, poId: string, paid: Invoice): Promise<string | undefined> {
  const latest = new Map<string, StatusUpdate>();
  for (const update of await ctx.store.statusUpdates.listByPo(poId)) {
    if (update.invoiceRecordId !== undefined && update.invoiceStatus !== undefined) {
      latest.set(update.invoiceRecordId, update);
    }
  }
  const standing = [...latest.values()].find(
    (u) => u.invoiceStatus === 'rejected' && u.invoiceRecordId !== paid.id,
  );
  if (standing === undefined) return undefined;
  const invoice = await ctx.store.invoices.get(standing.invoiceRecordId!);
  return rejectionReason(invoice?.invoiceId ?? standing.invoiceRecordId!, standing.comments);
}

/**
 * A rejected invoice the buyer paid after all: its PO leaves the operators' queue if that invoice was all
 * it waited for (see `endOperatorWait`), or names another of its invoices still rejected. The flag stays.
 */
async function settleRejectedInvoice(ctx: GatewayContext, invoice: Invoice): Promise<void> {
  await endOperatorWait(
    ctx,
    invoice.poId,
    { prefix: `${INVOICE_REJECTED}${invoice.invoiceId} (` },
    {
      stillWaiting: (po) => otherRejection(ctx, po.id, invoice),
      settledState: (po) => (po.printOrderIds.length > 0 || po.type !== 'new' ? 'ordered' : 'cancelled'),
      settledText: (waitedFor) => `Paid by the buyer after it was rejected: ${waitedFor}`,
    },
  );
}
