/**
 * The purchase-order part of the requisition page: the order form (ship-to, bill-to, contact, comments)
 * before ordering; afterwards the gateway's answer, the supplier's confirmations, ship notices and
 * invoices as they arrive, and the demo's "advance print order" control when the demo provides it.
 */
import { html } from 'hono/html';
import { fullName } from '../demo-users.ts';
import { printOrderIds } from '../print-order-ids.ts';
import { priceBasisText } from '../price-basis.ts';
import type { AddressSpec, BuyerProfile } from '../profiles.ts';
import type {
  ConfirmationView,
  InvoiceView,
  PurchaseOrder,
  Requisition,
  ShipNoticeView,
} from '../requisition.ts';
import { findUser, requisitionUrl, type SimulatorContext } from '../simulator-context.ts';
import type { Html } from './layout.ts';
import { safeLink } from './lines-table.ts';

function address(spec: AddressSpec): Html {
  return html`<address>${spec.name}${spec.addressID === undefined ? '' : html` <span class="muted">(${spec.addressID})</span>`}<br>${spec.street.map(
    (street) => html`${street}<br>`,
  )}${spec.postalCode} ${spec.city}${spec.state === undefined ? '' : html`, ${spec.state}`}<br>${spec.country}</address>`;
}

function orderForm(ctx: SimulatorContext, requisition: Requisition, profile: BuyerProfile): Html {
  const user = findUser(ctx, requisition.userId);
  const empty = requisition.lines.length === 0;
  return html`<form method="post" action="${requisitionUrl(ctx, requisition.id)}/order">
<div class="grid">
<div><h3>Ship to</h3>${address(profile.shipTo)}</div>
<div><h3>Bill to</h3>${address(profile.billTo)}</div>
<div><h3>Requester</h3>${user === undefined ? requisition.userId : html`${fullName(user)}<br>${user.email}<br>${user.costCenter}`}</div>
</div>
<h3><label for="comments">Comments to the supplier</label></h3>
<textarea id="comments" name="comments" rows="2">Please deliver to the mail room.</textarea>
<div class="actions"><button class="primary" type="submit"${empty ? html` disabled` : ''}>Submit purchase order</button>
<span class="muted">Sends a cXML OrderRequest to <code>${ctx.gatewayUrl}/cxml</code>${
    profile.protocol === 'oci' ? ' (OCI has no order message; SAP sends its POs as cXML)' : ''
  }.</span></div>
</form>`;
}

function confirmationBlock(confirmation: ConfirmationView): Html {
  const tone = confirmation.type === 'reject' ? 'bad' : 'good';
  return html`<article>
<h3>Confirmation <span class="pill ${tone}">${confirmation.type}</span>${confirmation.operation === 'new' ? '' : html` <span class="muted">(${confirmation.operation})</span>`}</h3>
<dl class="facts">
<dt>Notice date</dt><dd class="mono">${confirmation.noticeDate}</dd>
${confirmation.confirmID === undefined ? '' : html`<dt>Supplier reference</dt><dd class="mono">${confirmation.confirmID}</dd>`}
${confirmation.comments === '' ? '' : html`<dt>Comments</dt><dd class="long">${confirmation.comments}</dd>`}
${confirmation.extrinsics.map((e) => html`<dt>${e.name}</dt><dd>${e.value}</dd>`)}
<dt>Received</dt><dd class="mono">${confirmation.receivedAt}</dd>
</dl>
${
  confirmation.items.length === 0
    ? ''
    : html`<table><caption>Confirmed lines</caption><thead><tr><th scope="col" class="num">Line</th><th scope="col" class="num">Qty</th><th scope="col">UOM</th><th scope="col">Status</th></tr></thead><tbody>${confirmation.items.map(
        (item) =>
          html`<tr><td class="num">${item.lineNumber}</td><td class="num">${item.quantity}</td><td>${item.unitOfMeasure}</td><td>${item.statuses.map(
            (s) =>
              html`<div><strong>${s.type}</strong> ${s.quantity}${s.shipmentDate === undefined ? '' : html` · ships ${s.shipmentDate}`}${
                s.deliveryDate === undefined ? '' : html` · delivery ${s.deliveryDate}`
              }${s.unitPrice === undefined ? '' : html` · price ${s.unitPrice}`}${s.comments === '' ? '' : html` · ${s.comments}`}</div>`,
          )}</td></tr>`,
      )}</tbody></table>`
}
</article>`;
}

function shipNoticeBlock(notice: ShipNoticeView, lines: Requisition['lines']): Html {
  return html`<article>
<h3>Ship notice <span class="mono">${notice.shipmentID}</span> <span class="pill good">shipped</span></h3>
<dl class="facts">
<dt>Carrier</dt><dd>${notice.carriers.length === 0 ? '—' : notice.carriers.map((c, i) => html`${i > 0 ? ', ' : ''}${c.name} <span class="muted">(${c.domain})</span>`)}</dd>
<dt>Tracking</dt><dd>${
    notice.tracking.length === 0
      ? '—'
      : notice.tracking.map(
          (t, i) =>
            html`${i > 0 ? ', ' : ''}<span class="mono">${t.number}</span>${t.url === undefined ? '' : html` ${safeLink(t.url, 'track')}`}`,
        )
  }</dd>
${notice.serviceLevel === undefined ? '' : html`<dt>Service</dt><dd>${notice.serviceLevel}</dd>`}
<dt>Shipment date</dt><dd class="mono">${notice.shipmentDate ?? '—'}</dd>
${notice.deliveryDate === undefined ? '' : html`<dt>Delivery date</dt><dd class="mono">${notice.deliveryDate}</dd>`}
<dt>Notice date</dt><dd class="mono">${notice.noticeDate}</dd>
${notice.comments === '' ? '' : html`<dt>Comments</dt><dd class="long">${notice.comments}</dd>`}
<dt>Received</dt><dd class="mono">${notice.receivedAt}</dd>
</dl>
${
  notice.items.length === 0
    ? html`<p>No lines listed: the whole order shipped.</p>`
    : html`<table><caption>Shipped lines</caption><thead><tr><th scope="col" class="num">Line</th><th scope="col">Part number</th><th scope="col">Description</th><th scope="col" class="num">Qty</th><th scope="col">UOM</th></tr></thead><tbody>${notice.items.map(
        (item) => {
          // A ship notice names lines by the PO's lineNumber; ItemID is optional there.
          const line = lines[Number(item.lineNumber) - 1];
          return html`<tr><td class="num">${item.lineNumber}</td><td class="mono">${item.supplierPartID ?? line?.supplierPartID ?? '—'}</td><td>${line?.description ?? ''}</td><td class="num">${item.quantity}</td><td>${item.unitOfMeasure}</td></tr>`;
        },
      )}</tbody></table>`
}
</article>`;
}

/** Whether an amount is zero, however it is written (`0`, `0.00`, `-0.00`). */
const isZero = (amount: string) => /^[-+]?0*\.?0*$/.test(amount.trim());

/** What accounts payable told the supplier of the invoice, each with the supplier's answer. */
function invoiceStatusesSent(invoice: InvoiceView): Html | '' {
  const sent = invoice.statusUpdates ?? [];
  if (sent.length === 0) return '';
  return html`<table><caption>Invoice status sent to the supplier (StatusUpdateRequest)</caption><thead><tr><th scope="col">Sent</th><th scope="col">Status</th><th scope="col">Comments</th><th scope="col">Supplier's answer</th></tr></thead><tbody>${sent.map(
    (s) =>
      html`<tr><td class="mono">${s.sentAt}</td><td><span class="pill ${s.type === 'paid' ? 'good' : 'bad'}">${s.type}</span></td><td>${s.comments === '' ? '—' : s.comments}</td><td>${s.answer.code} ${s.answer.text}${s.answer.detail === '' ? '' : html` <span class="muted">${s.answer.detail}</span>`}</td></tr>`,
  )}</tbody></table>`;
}

/** Accounts payable's buttons for an accepted invoice: reject it with a comment, or report it paid. */
function invoiceStatusForm(invoice: InvoiceView, index: number, action: string, gatewayUrl: string): Html {
  const field = `ap-comments-${index + 1}`;
  return html`<form method="post" action="${action}">
<input type="hidden" name="invoiceID" value="${invoice.invoiceID}">
<p><label for="${field}">Accounts payable's comment to the supplier</label></p>
<textarea id="${field}" name="comments" rows="2" placeholder="Why the invoice is rejected (sent as its Comments)"></textarea>
<div class="actions"><button type="submit" name="type" value="rejected">Reject invoice</button><button type="submit" name="type" value="paid">Report paid</button><span class="muted">Sends a cXML StatusUpdateRequest with an InvoiceStatus to <code>${gatewayUrl}/cxml</code>.</span></div>
</form>`;
}

function invoiceBlock(
  invoice: InvoiceView,
  index: number,
  lines: Requisition['lines'],
  statusForm: Html | '',
): Html {
  const credit = invoice.purpose === 'creditMemo';
  const accepted = invoice.answer.code === 200;
  const id = `invoice-${index + 1}`;
  const cur = invoice.currency;
  const amount = (value: string) => html`${value} ${cur}`;
  const totals: [string, string][] = [
    ['Subtotal', invoice.subtotal],
    ['Tax', invoice.tax],
    ['Shipping', invoice.shipping],
    ...(isZero(invoice.specialHandling)
      ? []
      : [['Special handling', invoice.specialHandling] as [string, string]]),
    ['Discount', isZero(invoice.discount) ? invoice.discount : `−${invoice.discount.replace(/^-/, '')}`],
    ['Net', invoice.net],
  ];
  return html`<article aria-labelledby="${id}">
<h3 id="${id}">${credit ? 'Credit memo' : 'Invoice'} <span class="mono">${invoice.invoiceID}</span> <span class="pill ${accepted ? 'good' : 'bad'}">${
    accepted ? 'accepted' : `refused: ${invoice.answer.code} ${invoice.answer.text}`
  }</span></h3>
${accepted ? '' : html`<div class="notice error" role="alert">${invoice.answer.detail}</div>`}
<dl class="facts">
<dt>Purpose</dt><dd>${invoice.purpose}${invoice.operation === 'new' ? '' : html` <span class="muted">(${invoice.operation})</span>`}</dd>
${invoice.creditedInvoiceID === undefined ? '' : html`<dt>Credits invoice</dt><dd class="mono">${invoice.creditedInvoiceID}</dd>`}
<dt>Invoice date</dt><dd class="mono">${invoice.invoiceDate}</dd>
<dt>Payment term</dt><dd>${invoice.paymentTermDays === undefined ? 'none given (due on receipt)' : `net ${invoice.paymentTermDays} days`}</dd>
<dt>Due date</dt><dd class="mono">${invoice.dueDate ?? '—'}</dd>
<dt>Amount due</dt><dd><strong>${amount(invoice.due)}</strong></dd>
${invoice.comments === '' ? '' : html`<dt>Comments</dt><dd class="long">${invoice.comments}</dd>`}
<dt>Received</dt><dd class="mono">${invoice.receivedAt}${invoice.received > 1 ? html` <span class="muted">(${invoice.received} times, same payloadID)</span>` : ''}</dd>
<dt>At</dt><dd class="mono">${invoice.endpoint}</dd>
</dl>
${
  invoice.lines.length === 0
    ? html`<p>No lines: a header ${credit ? 'credit memo' : 'invoice'} for the whole order.</p>`
    : html`<table><caption>Invoiced lines of ${credit ? 'credit memo' : 'invoice'} ${invoice.invoiceID}</caption><thead><tr><th scope="col" class="num">Invoice line</th><th scope="col" class="num">PO line</th><th scope="col">Part number</th><th scope="col">Description</th><th scope="col" class="num">Qty</th><th scope="col">UOM</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Subtotal</th>${
        invoice.taxInLine ? html`<th scope="col" class="num">Tax</th>` : ''
      }</tr></thead><tbody>${invoice.lines.map((item) => {
        const line = lines[Number(item.lineNumber) - 1];
        return html`<tr><td class="num">${item.invoiceLineNumber}</td><td class="num">${item.lineNumber}</td><td class="mono">${item.supplierPartID ?? line?.supplierPartID ?? '—'}</td><td>${item.description ?? line?.description ?? ''}</td><td class="num">${item.quantity}</td><td>${item.unitOfMeasure}</td><td class="num">${amount(item.unitPrice)}${
          item.priceBasis === undefined
            ? ''
            : html`<div class="muted">${priceBasisText(item.priceBasis)}</div>`
        }</td><td class="num">${amount(item.subtotal)}</td>${
          invoice.taxInLine
            ? html`<td class="num">${item.tax === undefined ? '—' : amount(item.tax)}</td>`
            : ''
        }</tr>`;
      })}</tbody></table>`
}
<table><caption>Totals of ${credit ? 'credit memo' : 'invoice'} ${invoice.invoiceID}</caption><tbody>${totals.map(
    ([name, value]) => html`<tr><th scope="row">${name}</th><td class="num">${amount(value)}</td></tr>`,
  )}</tbody><tfoot><tr><th scope="row">Due</th><td class="num">${amount(invoice.due)}</td></tr></tfoot></table>
${invoiceStatusesSent(invoice)}
${accepted ? statusForm : ''}
</article>`;
}

function answerPill(order: PurchaseOrder): Html {
  const { code, text, detail } = order.answer;
  if (code === 0 && text === 'Sending') return html`<span class="pill wait">sending…</span>`;
  const tone = code >= 200 && code < 300 ? 'good' : 'bad';
  return html`<span class="pill ${tone}">${code === 0 ? 'no cXML answer' : `${code} ${text}`}</span>${
    detail === '' ? '' : html` <span class="muted">${detail}</span>`
  }`;
}

function orderStatus(ctx: SimulatorContext, requisition: Requisition, order: PurchaseOrder): Html {
  const accepted = order.answer.code >= 200 && order.answer.code < 300;
  const ids = printOrderIds(order);
  const base = requisitionUrl(ctx, requisition.id);
  const waiting =
    accepted && order.confirmations.length === 0 && order.shipNotices.length === 0
      ? html`<p class="muted">Waiting for the supplier's ConfirmationRequest and ShipNoticeRequest at <code>${ctx.publicUrl}/order-status</code>. This page reloads when one arrives.</p>`
      : '';
  return html`<dl class="facts">
<dt>Purchase order</dt><dd class="mono">${order.orderID}</dd>
<dt>payloadID</dt><dd class="mono">${order.payloadID}</dd>
<dt>Ordered</dt><dd class="mono">${order.orderDate}</dd>
<dt>Gateway answer</dt><dd>${answerPill(order)}${order.attempts > 1 ? html` <span class="muted">after ${order.attempts} attempts</span>` : ''}</dd>
${ids.length === 0 ? '' : html`<dt>Supplier order</dt><dd class="mono">${ids.join(', ')}</dd>`}
</dl>
${
  accepted
    ? ''
    : html`<form method="post" action="${base}/order"><div class="actions"><button class="primary" type="submit">Send the OrderRequest again (same payloadID)</button></div></form>`
}
${
  accepted && ctx.advanceOrder !== undefined && order.shipNotices.length === 0
    ? html`<form method="post" action="${base}/advance"><div class="actions"><button type="submit"${ids.length === 0 ? html` disabled` : ''}>Advance print order: merge files and ship</button><span class="muted">${
        ids.length === 0
          ? 'Demo control: available once the supplier’s confirmation names its print order.'
          : 'Demo control: asks the sandbox print service to finish the order, so the ship notice arrives.'
      }</span></div></form>`
    : ''
}
${waiting}
${order.confirmations.map(confirmationBlock)}
${order.shipNotices.map((notice) => shipNoticeBlock(notice, requisition.lines))}
${(order.invoices ?? []).map((invoice, index) =>
  invoiceBlock(
    invoice,
    index,
    requisition.lines,
    invoice.purpose === 'standard'
      ? invoiceStatusForm(invoice, index, `${base}/invoice-status`, ctx.gatewayUrl)
      : '',
  ),
)}`;
}

export function renderOrderPanel(
  ctx: SimulatorContext,
  requisition: Requisition,
  profile: BuyerProfile,
): Html {
  return html`<section class="card" aria-labelledby="order-heading">
<h2 id="order-heading">Purchase order</h2>
${requisition.order === undefined ? orderForm(ctx, requisition, profile) : orderStatus(ctx, requisition, requisition.order)}
</section>`;
}
