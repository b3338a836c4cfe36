/**
 * Accounts payable's answer to an invoice: the simulator sends the supplier a StatusUpdateRequest with an
 * InvoiceStatus (`rejected` with the clerk's comment, or `paid`) for an invoice it accepted, and keeps what
 * it sent and the supplier's answer with the invoice, so the demo shows both sides.
 */
import { buildInvoiceStatusUpdate, type InvoiceStatusChoice } from './build-status-update.ts';
import { buyerPayloadId } from './cxml-document.ts';
import { postCxml } from './gateway-client.ts';
import type { InvoiceView, Requisition } from './requisition.ts';
import { findProfile, type SimulatorContext, withDocument, withNotice } from './simulator-context.ts';

const CHOICES: ReadonlySet<string> = new Set<InvoiceStatusChoice>(['rejected', 'paid']);

export function isInvoiceStatusChoice(value: string): value is InvoiceStatusChoice {
  return CHOICES.has(value);
}

/** Why the invoice cannot be answered, if it cannot. */
function refusal(invoice: InvoiceView | undefined, invoiceID: string): string | undefined {
  if (invoice === undefined) return `This order has no invoice ${invoiceID}.`;
  if (invoice.answer.code !== 200)
    return `Invoice ${invoiceID} was refused on receipt; there is nothing to answer.`;
  return undefined;
}

/**
 * @example
 * await sendInvoiceStatus(ctx, requisition.id, 'INV-000001', 'rejected', 'Shipping was not on the PO');
 */
export async function sendInvoiceStatus(
  ctx: SimulatorContext,
  requisitionId: string,
  invoiceID: string,
  type: InvoiceStatusChoice,
  comments: string,
): Promise<void> {
  const requisition = ctx.store.get(requisitionId);
  const profile = requisition === undefined ? undefined : findProfile(ctx, requisition.profileId);
  const invoice = requisition?.order?.invoices?.find((i) => i.invoiceID === invoiceID);
  const now = ctx.clock.now();
  const why =
    profile === undefined
      ? 'The requisition’s profile is no longer configured.'
      : refusal(invoice, invoiceID);
  if (why !== undefined || profile === undefined || invoice === undefined) {
    ctx.store.update(requisitionId, (r) => withNotice(r, now, 'error', why ?? ''));
    return;
  }
  const payloadID = buyerPayloadId(profile.style, ctx.randomId, now);
  const document = buildInvoiceStatusUpdate({
    profile,
    payloadID,
    timestamp: now,
    invoice,
    type,
    comments,
    ...(requisition?.deploymentMode !== undefined && { deploymentMode: requisition.deploymentMode }),
  });
  const exchange = await postCxml(ctx.fetch, `${ctx.gatewayUrl}/cxml`, document);
  const answeredAt = ctx.clock.now();
  const { status } = exchange.answer;
  const sent = { sentAt: now.toISOString(), payloadID, type, comments: comments.trim(), answer: status };
  ctx.store.update(requisitionId, (r) => {
    const withStatus = (i: InvoiceView): InvoiceView =>
      i.invoiceID === invoiceID ? { ...i, statusUpdates: [...(i.statusUpdates ?? []), sent] } : i;
    let next: Requisition =
      r.order === undefined
        ? r
        : { ...r, order: { ...r.order, invoices: (r.order.invoices ?? []).map(withStatus) } };
    next = withDocument(next, now, {
      direction: 'sent',
      title: `StatusUpdateRequest: invoice ${invoiceID} ${type}`,
      route: `POST ${exchange.url}`,
      body: document,
    });
    next = withDocument(next, answeredAt, {
      direction: 'received',
      title: `Response to StatusUpdateRequest (invoice ${invoiceID})`,
      route: `answer to POST ${exchange.url}${exchange.httpStatus === undefined ? '' : ` (HTTP ${exchange.httpStatus})`}`,
      body: exchange.body,
    });
    const accepted = status.code >= 200 && status.code < 300;
    return withNotice(
      next,
      answeredAt,
      accepted ? 'success' : 'error',
      accepted
        ? `The supplier took invoice ${invoiceID} as ${type}: ${status.code} ${status.text}.`
        : `The supplier did not take invoice ${invoiceID} as ${type}: ${status.code} ${status.text}${status.detail === '' ? '' : `: ${status.detail}`}`,
    );
  });
}
