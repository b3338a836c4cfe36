/**
 * Submitting the purchase order: the requisition's lines as a cXML OrderRequest posted to the gateway.
 * The document is built once; submitting again after a failed attempt re-sends it unchanged, with the
 * same payloadID, because a cXML receiver recognises a retry by its payloadID.
 */
import { buildOrderRequest } from './build-order-request.ts';
import { buyerPayloadId } from './cxml-document.ts';
import { postCxml } from './gateway-client.ts';
import type { PurchaseOrder, Requisition } from './requisition.ts';
import {
  findProfile,
  findUser,
  type SimulatorContext,
  withDocument,
  withNotice,
} from './simulator-context.ts';

export type SubmitOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

function isAccepted(order: PurchaseOrder | undefined): boolean {
  return order !== undefined && order.answer.code >= 200 && order.answer.code < 300;
}

/**
 * @example
 * await submitPurchaseOrder(ctx, requisition.id, 'Please deliver to reception');
 */
export async function submitPurchaseOrder(
  ctx: SimulatorContext,
  requisitionId: string,
  comments: string,
): Promise<SubmitOutcome> {
  const requisition = ctx.store.get(requisitionId);
  if (requisition === undefined) return { ok: false, message: `There is no requisition ${requisitionId}.` };
  const profile = findProfile(ctx, requisition.profileId);
  const user = findUser(ctx, requisition.userId);
  if (profile === undefined || user === undefined) {
    return {
      ok: false,
      message: `The profile or user of requisition ${requisitionId} is no longer configured.`,
    };
  }
  if (isAccepted(requisition.order)) {
    return {
      ok: false,
      message: `Requisition ${requisitionId} is already ordered as ${requisition.order?.orderID}.`,
    };
  }
  if (requisition.lines.length === 0) {
    return { ok: false, message: 'A purchase order needs at least one line; punch out to add some.' };
  }

  const now = ctx.clock.now();
  let order = requisition.order;
  if (order === undefined) {
    const orderID = `PO-${ctx.store.nextOrderNumber()}`;
    const payloadID = buyerPayloadId(profile.style, ctx.randomId, now);
    order = {
      orderID,
      payloadID,
      orderDate: now.toISOString(),
      document: buildOrderRequest({
        profile,
        user,
        orderID,
        requisitionId,
        payloadID,
        timestamp: now,
        lines: requisition.lines,
        ...(requisition.charges !== undefined && { charges: requisition.charges }),
        comments,
        ...(requisition.deploymentMode !== undefined && { deploymentMode: requisition.deploymentMode }),
      }),
      attempts: 0,
      answer: { code: 0, text: 'Sending', detail: '' },
      confirmations: [],
      shipNotices: [],
    };
  }
  // Stored before the round trip, so a second click re-sends this document instead of creating a new order.
  const sending: PurchaseOrder = { ...order, attempts: order.attempts + 1 };
  ctx.store.update(requisitionId, (r) => ({ ...r, order: sending }));

  const exchange = await postCxml(ctx.fetch, `${ctx.gatewayUrl}/cxml`, sending.document);
  const answeredAt = ctx.clock.now();
  const { status } = exchange.answer;
  ctx.store.update(requisitionId, (r) => {
    const current = r.order ?? sending;
    let next: Requisition = { ...r, order: { ...current, answer: status } };
    next = withDocument(next, now, {
      direction: 'sent',
      title: `OrderRequest ${sending.orderID}${sending.attempts > 1 ? ` (attempt ${sending.attempts}, same payloadID)` : ''}`,
      route: `POST ${exchange.url}`,
      body: sending.document,
    });
    next = withDocument(next, answeredAt, {
      direction: 'received',
      title: `Response to OrderRequest ${sending.orderID}`,
      route: `answer to POST ${exchange.url}${exchange.httpStatus === undefined ? '' : ` (HTTP ${exchange.httpStatus})`}`,
      body: exchange.body,
    });
    if (status.code >= 200 && status.code < 300) {
      return withNotice(
        next,
        answeredAt,
        'success',
        `Purchase order ${sending.orderID} was accepted: ${status.code} ${status.text}.`,
      );
    }
    const why =
      status.code === 0
        ? status.detail
        : `${status.code} ${status.text}${status.detail === '' ? '' : `: ${status.detail}`}`;
    return withNotice(
      next,
      answeredAt,
      'error',
      `Purchase order ${sending.orderID} was not accepted. ${why}`,
    );
  });
  return status.code >= 200 && status.code < 300
    ? { ok: true }
    : { ok: false, message: `The gateway did not accept ${sending.orderID}.` };
}
