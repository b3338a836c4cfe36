/**
 * `GET /admin/ui/orders/:id/documents/:doc`: one document exchanged with the buyer about a PO, as it was
 * received or sent, with every SharedSecret removed (the buyer's in its OrderRequest, ours in the
 * documents we post): an operator may copy a document into a ticket, a secret must not travel with it.
 */
import { redactSharedSecrets } from '../../../cxml/shared-secret.ts';
import type { PurchaseOrder } from '../../../store/types.ts';
import type { GatewayContext } from '../../context.ts';
import { GatewayError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../http/html.ts';
import { timeText } from './format.ts';
import { orderPath } from './order-page.ts';

/** The `doc` naming the PO's own OrderRequest; any other `doc` is an outbox message id. */
const ORDER_REQUEST_DOC = 'order-request';

export async function documentPage(
  ctx: GatewayContext,
  order: PurchaseOrder,
  doc: string,
): Promise<{ title: string; body: SafeHtml }> {
  const back = html`<p><a href="${orderPath(order.id)}">Back to PO ${order.orderId}</a></p>`;
  if (doc === ORDER_REQUEST_DOC) {
    return {
      title: `OrderRequest ${order.orderId}`,
      body: html`${back}<p class="muted">Received ${timeText(order.createdAt)}, payloadID ${order.payloadId}; SharedSecret removed.</p>
<pre aria-label="OrderRequest document">${redactSharedSecrets(order.raw)}</pre>`,
    };
  }
  const message = await ctx.store.outbox.get(doc);
  // Only the PO's own documents: an id from another PO's page is not found here.
  if (message === undefined || message.poId !== order.id) {
    throw new GatewayError('not_found', `Purchase order ${order.orderId} has no document ${doc}.`);
  }
  return {
    title: `${message.kind} ${message.dedupeKey}`,
    body: html`${back}<dl class="facts">
<dt>To</dt><dd>${message.url}</dd>
<dt>Delivery</dt><dd>${message.state}, ${message.attempts} attempt(s)${message.deliveredAt === undefined ? '' : `, delivered ${timeText(message.deliveredAt)}`}</dd>
<dt>Last error</dt><dd>${message.lastError ?? '—'}</dd>
<dt>Queued</dt><dd>${timeText(message.createdAt)}</dd>
</dl>
<p class="muted">SharedSecret removed.</p>
<pre aria-label="Document">${redactSharedSecrets(message.body)}</pre>`,
  };
}
